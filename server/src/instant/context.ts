/**
 * What the instant use cases share: dependencies, ids, the batch of a game, and resolving a scanned or typed code
 * to its ticket (inventory code outside, validation code under the scratch layer).
 */
import { claimDeadlineOf } from './claim-period.ts'
import type { GeneratorPolicy } from './generator-build.ts'
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import { createHash } from 'node:crypto'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { checkDesign, type CheckedDesign, type InstantDesign } from './design.ts'
import {
  codeTag,
  formatSerial,
  looksLikeSerial,
  openPrizeTags,
  parseSerial,
  parseValidationCode,
  VALIDATION_CODE_LENGTH,
} from './codes.ts'
import { TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
import type { PrinterPool } from '../../../printer/src/printers.ts'
import { SealingError, type Sealer } from '../shared/sealing.ts'
import { batchOfGame, packOf, reportCovering, ticketCodeTag, ticketPrizeTagAndStatus, type Batch } from './store.ts'

export interface InstantDeps {
  db: Database
  clock: Clock
  /** Batch seeds and electronic validation codes: the health-tested entropy source (RNG-27, RNG-32). */
  entropy: EntropySource
  /** Record ids; defaults to `entropy`. */
  idEntropy?: EntropySource
  keys: OperatorKeys
  /** Seals the batch seed, keys and pack prize counts (DESIGN.md "Sealed secrets"); the key is not in the database. */
  sealer: Sealer
  /** 32-byte key that tags validation codes (codeTag); kept beside the operator key, never in the database. */
  pepper: Buffer
  /** The stations' printers, for receipts printed by a use case (payAtCashier); the CLI has none. */
  printers?: PrinterPool
  /** INS-3: whether the profile requires a certified generator, and the operator's certificate (configuration). */
  generator?: GeneratorPolicy
  /** LOT-3 / GEN-5: whether every game design must carry the regulator's authorisation reference (profile). */
  designAuthorisationRequired?: boolean
  /** GEN-3: the authority whose prior authorisation every catalogue game needs (profile catalogueGameAuthority). */
  gameAuthority?: { name: string; rule: string } | null
  /** Issue 24 point 4: a server without the demo, which sells nothing under a demo reference. */
  demoReferencesRefused?: boolean
}

export interface ResolvedTicket {
  batch: Batch
  design: CheckedDesign
  index: number
  ticketId: number
  serial: string
  /** The stored prize tag; the tier is opened from it only where a use case needs it ({@link InstantContext.tierOf}). */
  prizeTag: number
  status: number
  packNo: number
  packStatus: string
  packLocation: string | null
}

export function createInstantContext(deps: InstantDeps) {
  const { db, clock, keys } = deps
  const now = () => clock.now().toISOString()
  const pepperId = createHash('sha256').update(deps.pepper).digest('hex').slice(0, 16)
  const designs = new Map<string, CheckedDesign>()
  const batchKeys = new Map<string, BatchKeys>()

  function newId(prefix: string): string {
    return recordId(prefix, (deps.idEntropy ?? deps.entropy).randomBytes(RECORD_ID_BYTES))
  }

  function checkedOf(batch: Batch): CheckedDesign {
    let c = designs.get(batch.id)
    if (!c) {
      c = checkDesign(JSON.parse(batch.design) as InstantDesign)
      designs.set(batch.id, c)
    }
    return c
  }

  /** Opens one of a batch's sealed values; a wrong or missing sealing key is the server's fault, not the ticket's. */
  function openSealed(batch: Batch, what: 'seed' | 'keys' | 'pack-prizes', sealed: string | null): Buffer {
    if (!sealed)
      throw new DomainError('CONFLICT', `instant game ${batch.gameNo} has no sealed ${what}`, {
        gameNo: batch.gameNo,
      })
    try {
      return deps.sealer.open(sealed, sealContext(what, batch.gameNo, batch.seedCommitment))
    } catch (err) {
      if (!(err instanceof SealingError)) throw err
      throw new DomainError('DEVICE_UNAVAILABLE', `instant game ${batch.gameNo}: ${err.message}`, {
        gameNo: batch.gameNo,
        sealingKeyId: deps.sealer.keyId,
      })
    }
  }

  /**
   * The batch's prize and symbols keys, opened from their sealed form on first use and kept in this process's
   * memory only (validation stays fast); never written anywhere in clear.
   */
  function keysOf(batch: Batch): BatchKeys {
    let k = batchKeys.get(batch.id)
    if (!k) {
      if (!batch.keysSealed)
        throw new DomainError('CONFLICT', `instant game ${batch.gameNo} has no sealed keys`, { gameNo: batch.gameNo })
      const bytes = openSealed(batch, 'keys', batch.keysSealed)
      k = { prizeKey: bytes.subarray(0, 32), symbolsKey: bytes.subarray(32, 64) }
      batchKeys.set(batch.id, k)
    }
    return k
  }

  /** The prize tier of a ticket, opened from its tag; an altered tag is refused, never read as a loser. */
  function tierOf(t: { batch: Batch; design: CheckedDesign; index: number; prizeTag: number }): number {
    const tier = openPrizeTags(
      keysOf(t.batch).prizeKey,
      t.batch.gameNo,
      [t.index],
      [t.prizeTag],
      t.design.design.tiers.length,
    )[0]
    if (tier < 0)
      throw new DomainError(
        'INVALID_SIGNATURE',
        `the stored prize tag of a ticket of game ${t.batch.gameNo} does not open: the ticket row was altered`,
        { gameNo: t.batch.gameNo },
      )
    return tier
  }

  async function batchByGame(tx: Sql, gameNo: number): Promise<Batch> {
    const row = await batchOfGame(tx, gameNo)
    if (!row) throw new DomainError('NOT_FOUND', `instant game ${gameNo} not found`, { gameNo })
    if (row.status === 'generating')
      throw new DomainError('CONFLICT', `instant game ${gameNo} is still being generated`, { gameNo })
    return row
  }

  const scopeOf = (b: { gameNo: number }) => `instant:${b.gameNo}`

  function serialOfIndex(b: Batch, index: number): string {
    return formatSerial({
      gameNo: b.gameNo,
      packNo: Math.floor(index / b.packSize) + 1,
      position: index % b.packSize,
    })
  }

  /** Accepts a signed QR payload (`BLL1.I.<id>.<sig>`) or the bare id, and returns the id. */
  function unwrap(text: string): string {
    const t = String(text ?? '').trim()
    if (t.startsWith('BLL')) {
      const ref = verifyTicketCode(t, keys.publicKey)
      if (ref.kind !== TicketKind.instant)
        throw new DomainError('VALIDATION_FAILED', `this code is not an instant ticket (kind ${ref.kind})`)
      return ref.id
    }
    return t
  }

  async function locate(tx: Sql, gameNo: number, index: number): Promise<ResolvedTicket> {
    const batch = await batchByGame(tx, gameNo)
    if (index < 0 || index >= batch.ticketCount)
      throw new DomainError('TICKET_NOT_FOUND', `game ${gameNo} has no ticket ${index}`)
    const ticketId = batch.firstId + index
    const row = await ticketPrizeTagAndStatus(tx, ticketId)
    if (!row) throw new DomainError('TICKET_NOT_FOUND', `ticket ${index} of game ${gameNo} is not stored`)
    const packNo = Math.floor(index / batch.packSize) + 1
    const pack = await packOf(tx, batch.id, packNo)
    return {
      batch,
      design: checkedOf(batch),
      index,
      ticketId,
      prizeTag: row.prizeTag,
      status: row.status,
      packNo,
      serial: formatSerial({ gameNo, packNo, position: index % batch.packSize }),
      packStatus: pack?.status ?? 'warehouse',
      packLocation: pack?.location ?? null,
    }
  }

  /** The ticket behind an inventory code (outside: serial or its signed QR). */
  async function byInventoryCode(tx: Sql, text: string): Promise<ResolvedTicket> {
    const id = unwrap(text)
    if (!looksLikeSerial(id)) {
      if (id.replace(/[\s-]/g, '').length === VALIDATION_CODE_LENGTH)
        throw new DomainError(
          'VALIDATION_FAILED',
          'this is the hidden validation code; scan the inventory code printed outside',
        )
      throw new DomainError('VALIDATION_FAILED', 'not an instant-ticket inventory code')
    }
    const s = parseSerial(id)
    const batch = await batchByGame(tx, s.gameNo)
    if (s.packNo < 1 || s.packNo > batch.packCount || s.position >= batch.packSize)
      throw new DomainError('TICKET_NOT_FOUND', `game ${s.gameNo} has no ticket ${id}`)
    return locate(tx, s.gameNo, (s.packNo - 1) * batch.packSize + s.position)
  }

  /** The ticket behind a hidden validation code (typed, or its signed QR); a code that is not the ticket's is refused. */
  async function byValidationCode(tx: Sql, text: string): Promise<ResolvedTicket> {
    const id = unwrap(text)
    if (looksLikeSerial(id))
      throw new DomainError(
        'VALIDATION_FAILED',
        'this is the inventory code; scan or type the validation code under the scratch layer (INS-9)',
      )
    const parsed = parseValidationCode(id)
    const t = await locate(tx, parsed.gameNo, parsed.index)
    if (t.batch.pepperId !== pepperId) {
      throw new DomainError(
        'DEVICE_UNAVAILABLE',
        `game ${parsed.gameNo} was generated with instant-code key ${t.batch.pepperId}; this server holds ${pepperId}`,
      )
    }
    if ((await ticketCodeTag(tx, t.ticketId)) !== codeTag(deps.pepper, parsed.code)) {
      throw new DomainError(
        'INVALID_SIGNATURE',
        'this validation code belongs to no ticket: counterfeit or mistyped (INS-12)',
        { gameNo: parsed.gameNo },
      )
    }
    return t
  }

  /** The lost-or-stolen report that covers the ticket, if any (LST-4, LST-5). */
  function blockedBy(tx: Sql, t: ResolvedTicket): Promise<{ kind: string; id: string } | undefined> {
    return reportCovering(tx, t.batch.id, t.index)
  }

  /** End of the claim period (INS-10): claimDays after the close, or after the design's end of sales if sooner. */
  function claimExpiresAt(b: Batch): string | null {
    return claimDeadlineOf(b.closedAt, checkedOf(b).design)
  }

  return {
    deps,
    db,
    keys,
    now,
    pepperId,
    newId,
    checkedOf,
    openSealed,
    keysOf,
    tierOf,
    batchByGame,
    scopeOf,
    serialOfIndex,
    byInventoryCode,
    byValidationCode,
    blockedBy,
    claimExpiresAt,
  }
}

export interface BatchKeys {
  prizeKey: Buffer
  symbolsKey: Buffer
}

/**
 * Sealing context of a batch's secrets: what, game number and seed commitment, so that a sealed value copied to
 * another batch or purpose does not open (shared/sealing.ts).
 */
export function sealContext(what: 'seed' | 'keys' | 'pack-prizes', gameNo: number, commitment: string): string {
  return `instant-${what}|${gameNo}|${commitment}`
}

export type InstantContext = ReturnType<typeof createInstantContext>
