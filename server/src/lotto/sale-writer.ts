/**
 * The durable part of a lotto sale, for a whole batch of slips in ONE transaction (group commit): re-check that
 * every draw a slip is for is still on sale at the sale time (the server's clock, LNS-13), hand out receipt
 * numbers from the game's counter, sign each receipt's code (kind `L`), insert the slips and journal every sale.
 *
 * It runs on any `Sql` port: inside `db.transaction` (PostgreSQL, or SQLite without the writer thread), or on the
 * SQLite writer thread (sale-worker.ts), where the commit's fsync does not block the HTTP thread. A slip
 * refused here (sales closed meanwhile) is answered on its own; the others of the batch still commit.
 */
import type { Sql } from '../db/database.ts'
import type { ErrorCode } from '../shared/errors.ts'
import { receiptNumber } from './rules.ts'
import { appendJournalBatch, type BatchEntry } from '../shared/journal-batch.ts'
import { canonicalJson } from '../shared/journal-chain.ts'
import type { JournalActor } from '../shared/request-context.ts'
import { drawWindows, insertSlips, reserveReceipts } from './store.ts'

/** A slip checked by the HTTP thread, waiting for its batch. */
export interface SlipToWrite {
  gameCode: string
  firstDrawNo: number
  drawCount: number
  /** formatBoards() text. */
  boards: string
  boardCount: number
  /** One character per board: "1" quick pick, "0" chosen by the player. */
  quickPicks: string
  amountCents: number
  playerName: string
  playerDocument: string
  channel: string
  /** Issue 14 point 2: who sold it, captured on the request's thread (the writer thread has no request context). */
  actor?: JournalActor
  /**
   * Receipt number and signed code handed out beforehand from a reserved block (writer thread mode, see
   * receipts.ts); without them the batch takes numbers from the counter and signs here.
   */
  receipt?: string
  code?: string
}

export type SlipWriteResult =
  { ok: true; receipt: string; code: string; journalSeq: number } | { ok: false; code: ErrorCode; message: string }

interface DrawWindow {
  status: string
  start: number
  close: number
  price: number
}

/** Payload of a `lotto.slip_sold` journal record. */
export interface SlipSoldPayload {
  receipt: string
  drawNos: [number, number]
  boards: string
  quickPicks: string
  amountCents: number
  channel: string
  actor?: JournalActor
}

/** canonicalJson of a {@link SlipSoldPayload}, written out by hand (keys sorted): the sale path journals every slip. */
export function slipSoldPayloadText(p: SlipSoldPayload): string {
  return `{${p.actor ? `"actor":${canonicalJson(p.actor)},` : ''}"amountCents":${JSON.stringify(p.amountCents)},"boards":${JSON.stringify(p.boards)},"channel":${JSON.stringify(p.channel)},"drawNos":[${JSON.stringify(p.drawNos[0])},${JSON.stringify(p.drawNos[1])}],"quickPicks":${JSON.stringify(p.quickPicks)},"receipt":${JSON.stringify(p.receipt)}}`
}

/**
 * Writes a batch of slips sold at `at` (ISO time). Returns one result per slip, in order. Must run inside a
 * transaction: the counter, the slips and the journal records commit or vanish together.
 */
export async function writeSlipBatch(
  tx: Sql,
  slips: readonly SlipToWrite[],
  at: string,
  sign: (receipt: string) => string,
): Promise<SlipWriteResult[]> {
  const atMs = Date.parse(at)
  const results: SlipWriteResult[] = new Array(slips.length)
  // The draws of every game in the batch, read once.
  const windows = new Map<string, Map<number, DrawWindow>>()
  const byGame = new Map<string, { min: number; max: number }>()
  for (const s of slips) {
    const r = byGame.get(s.gameCode) ?? { min: s.firstDrawNo, max: s.firstDrawNo + s.drawCount - 1 }
    r.min = Math.min(r.min, s.firstDrawNo)
    r.max = Math.max(r.max, s.firstDrawNo + s.drawCount - 1)
    byGame.set(s.gameCode, r)
  }
  for (const [game, r] of byGame) {
    const rows = await drawWindows(tx, game, r.min, r.max)
    windows.set(
      game,
      new Map(
        rows.map((d) => [
          Number(d.drawNo),
          {
            status: d.status,
            start: Date.parse(d.salesStartAt),
            close: Date.parse(d.salesCloseAt),
            price: Number(d.priceCents),
          },
        ]),
      ),
    )
  }

  const accepted = new Map<string, number[]>()
  slips.forEach((s, i) => {
    const draws = windows.get(s.gameCode)!
    let amount = 0
    for (let n = s.firstDrawNo; n < s.firstDrawNo + s.drawCount; n++) {
      const d = draws.get(n)
      if (!d) {
        results[i] = { ok: false, code: 'NOT_FOUND', message: `draw ${n} of ${s.gameCode} is not planned` }
        return
      }
      if (atMs < d.start) {
        results[i] = { ok: false, code: 'SALES_NOT_OPEN', message: `sales of draw ${n} have not started` }
        return
      }
      if (d.status !== 'open' || atMs >= d.close) {
        results[i] = { ok: false, code: 'SALES_CLOSED', message: `sales of draw ${n} are closed (LNS-13)` }
        return
      }
      amount += d.price * s.boardCount
    }
    if (amount !== s.amountCents) {
      results[i] = { ok: false, code: 'CONFLICT', message: 'the price of a draw changed during the sale' }
      return
    }
    const list = accepted.get(s.gameCode) ?? []
    list.push(i)
    accepted.set(s.gameCode, list)
  })

  const rows: unknown[][] = []
  const entries: BatchEntry[] = []
  const order: number[] = []
  for (const [game, list] of accepted) {
    const fresh = list.filter((i) => slips[i].receipt === undefined).length
    let seq = fresh > 0 ? (await reserveReceipts(tx, game, fresh)) - 1 : 0
    for (const i of list) {
      const s = slips[i]
      const receipt = s.receipt ?? receiptNumber(game, ++seq)
      results[i] = { ok: true, receipt, code: s.code ?? sign(receipt), journalSeq: 0 }
      rows.push([
        receipt,
        s.gameCode,
        s.firstDrawNo,
        s.drawCount,
        s.boards,
        s.boardCount,
        s.quickPicks,
        s.amountCents,
        s.playerName,
        s.playerDocument,
        s.channel,
        'active',
        at,
      ])
      // Player data stay in the sales system (LNS-14): the journal holds the play, not the person.
      const payload: SlipSoldPayload = {
        receipt,
        drawNos: [s.firstDrawNo, s.firstDrawNo + s.drawCount - 1],
        boards: s.boards,
        quickPicks: s.quickPicks,
        amountCents: s.amountCents,
        channel: s.channel,
        ...(s.actor ? { actor: s.actor } : {}),
      }
      entries.push({
        at,
        type: 'lotto.slip_sold',
        scope: `lotto:${game}/sales`,
        payload,
        payloadText: slipSoldPayloadText(payload),
      })
      order.push(i)
    }
  }
  if (rows.length === 0) return results
  await insertSlips(tx, rows)
  const records = await appendJournalBatch(tx, entries)
  order.forEach((i, k) => {
    ;(results[i] as { journalSeq: number }).journalSeq = records[k].seq
  })
  return results
}
