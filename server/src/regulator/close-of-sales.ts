/**
 * Issue 28 point 3 (002 §7.3.4.2-3, §7.3.7.1): the close-of-sales file of a lotto draw, published as soon as sales
 * close and before the draw: every participating play with its receipt number, and the excluded or annulled plays,
 * as one signed document `bolillo-close-of-sales-v1` (SCHEMA.md). It is made of the two files the lotto line wrote
 * and hashed at the close (participation.csv, excluded.csv; their SHA-256 are in the `lotto.sales_closed` journal
 * record), which are never written again; the Ed25519 signature is deterministic, so the document served before the
 * draw, after it, and in an export is the same bytes.
 *
 * A receipt number alone pays nothing (a prize is paid on the operator's signed ticket code), so the list is public.
 */
import { createHash, sign } from 'node:crypto'
import type { Database } from '../db/database.ts'
import { canonicalJson } from '../shared/journal-chain.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import { closedLottoDraws, lottoDrawHead } from './store.ts'

export const CLOSE_OF_SALES_SCHEMA = 'bolillo-close-of-sales-v1'

export interface CloseOfSalesDocument {
  body: {
    schema: typeof CLOSE_OF_SALES_SCHEMA
    drawId: string
    gameCode: string
    drawNo: number
    closedAt: string
    keyId: string
    receipts: number
    plays: Array<{ receipt: string; boards: number[][] }>
    excluded: Array<{ receipt: string; status: string; reason: string; refundCents: number }>
    participationSha256: string
    excludedSha256: string
    /** The two files as the lotto line wrote them at the close, byte for byte (UTF-8). */
    participationFile: string
    excludedFile: string
  }
  /** Lowercase hex SHA-256 of the canonical JSON of `body`. */
  digest: string
  /** Base64 Ed25519 signature by the operator key over the 32 bytes of `digest`. */
  signature: string
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

/** The plays of participation.csv (`comprobante;jugada;numeros;automatica`), grouped by receipt in file order. */
function parsePlays(text: string): Array<{ receipt: string; boards: number[][] }> {
  const out: Array<{ receipt: string; boards: number[][] }> = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#') || line.startsWith('comprobante;')) continue
    const [receipt, , numbers] = line.split(';')
    const board = numbers.split(' ').map(Number)
    const last = out.at(-1)
    if (last && last.receipt === receipt) last.boards.push(board)
    else out.push({ receipt, boards: [board] })
  }
  return out
}

function parseExcluded(text: string): CloseOfSalesDocument['body']['excluded'] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('comprobante;'))
    .map((l) => {
      const [receipt, status, reason, refund] = l.split(';')
      return { receipt, status, reason, refundCents: Number(refund) }
    })
}

export function createCloseOfSalesPublisher(deps: {
  db: Database
  keys: OperatorKeys
  /** The lotto line's published files (LNS-14); refuses (ILLEGAL_TRANSITION) before the close of sales. */
  participationFile(drawId: string, which?: 'participation' | 'excluded'): Promise<Buffer>
}) {
  async function document(drawId: string): Promise<CloseOfSalesDocument> {
    const participation = await deps.participationFile(drawId, 'participation')
    const excluded = await deps.participationFile(drawId, 'excluded')
    const head = await lottoDrawHead(deps.db, drawId)
    const participationFile = participation.toString('utf8')
    const excludedFile = excluded.toString('utf8')
    const plays = parsePlays(participationFile)
    const body: CloseOfSalesDocument['body'] = {
      schema: CLOSE_OF_SALES_SCHEMA,
      drawId,
      gameCode: head?.game_code ?? '',
      drawNo: Number(head?.draw_no ?? 0),
      closedAt: head?.closed_at ?? '',
      keyId: deps.keys.publicInfo().keyId,
      receipts: plays.length,
      plays,
      excluded: parseExcluded(excludedFile),
      participationSha256: sha256(participation),
      excludedSha256: sha256(excluded),
      participationFile,
      excludedFile,
    }
    const digest = sha256(canonicalJson(body))
    const signature = sign(null, Buffer.from(digest, 'hex'), deps.keys.privateKey).toString('base64')
    return { body, digest, signature }
  }

  return {
    document,
    /** Every lotto draw whose sales have closed, for an export. */
    async all(): Promise<CloseOfSalesDocument[]> {
      const out: CloseOfSalesDocument[] = []
      for (const { id } of await closedLottoDraws(deps.db)) out.push(await document(id))
      return out
    },
  }
}

export type CloseOfSalesPublisher = ReturnType<typeof createCloseOfSalesPublisher>
