/**
 * The SQL of numbered-ticket lotteries and raffles: their draws (the `lottery` and `raffle` rows of lottery_draws),
 * ranges taken out of play, raffle tickets sold and payouts. Every function takes the transaction or connection
 * to run on (`Sql`) and returns plain rows.
 */
import type { Sql } from '../db/database.ts'
import { insertRows } from '../shared/journal-batch.ts'
import type { DrawRow } from '../lotto/store.ts'

/** A row of lottery_draws (the table lotto shares) of a lottery or raffle. */
export type LotteryDrawRow = DrawRow & { product: 'lottery' | 'raffle' }

export interface RangeRow { id: string; kind: 'returned' | 'lost' | 'stolen'; from_number: number; to_number: number; series_from: number; series_to: number; quantity: number; details: string; created_at: string; after_close: number }

// ------------------------------------------------------------------------------------------ draws

/** The draw as stored (numbers not normalised): validation reads it this way. */
export function lotteryDrawRow(tx: Sql, drawId: string): Promise<LotteryDrawRow | undefined> {
  return tx.get<LotteryDrawRow>("SELECT * FROM lottery_draws WHERE id = ? AND product IN ('lottery', 'raffle')", [drawId])
}

export async function lotteryDrawById(tx: Sql, drawId: string): Promise<LotteryDrawRow | undefined> {
  const row = await lotteryDrawRow(tx, drawId)
  return row ? { ...row, draw_no: Number(row.draw_no), price_cents: Number(row.price_cents), beacon_round: row.beacon_round === null ? null : Number(row.beacon_round) } : undefined
}

/** Ids of the draws of one product, or of both, by creation time. */
export async function lotteryDrawIds(tx: Sql, product?: 'lottery' | 'raffle'): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(`SELECT id FROM lottery_draws WHERE product IN (${product ? '?' : "'lottery', 'raffle'"}) ORDER BY created_at`, product ? [product] : [])
  return rows.map((r) => r.id)
}

export interface NewLotteryDraw {
  id: string; product: 'lottery' | 'raffle'; gameCode: string; drawNo: number; planJson: string; currency: string; priceCents: number; salesStartAt: string
  salesCloseAt: string; drawAt: string; claimDeadline: string; drawMethod: string; commitment: string; seedSealed: string; entropySource: string; createdAt: string
}

/** A planned draw, open for sales. Its seed is stored only sealed (seed_hex stays '' until the draw has ended). */
export async function insertLotteryDraw(tx: Sql, d: NewLotteryDraw): Promise<void> {
  await tx.run(
    `INSERT INTO lottery_draws (id, product, game_code, draw_no, plan, status, currency, price_cents, sales_start_at, sales_close_at, draw_at, claim_deadline, draw_method, commitment, seed_hex, seed_sealed, entropy_source, created_at)
         VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)`,
    [d.id, d.product, d.gameCode, d.drawNo, d.planJson, d.currency, d.priceCents, d.salesStartAt, d.salesCloseAt, d.drawAt, d.claimDeadline, d.drawMethod, d.commitment, d.seedSealed, d.entropySource, d.createdAt],
  )
}

/** Fixes the close of sales of an open draw: D, the close time and the beacon round R. */
export async function markLotteryDrawClosed(tx: Sql, drawId: string, c: { at: string; salesDigest: string; beaconRound: number; participationSha256: string; ticketsInPlay: number; salesCents: number }): Promise<void> {
  await tx.run(`UPDATE lottery_draws SET status = 'closed', closed_at = ?, sales_digest = ?, beacon_round = ?, participation_sha256 = ?, participation_file = 'participation.csv', entries_count = ?, sales_cents = ? WHERE id = ? AND status = 'open'`,
    [c.at, c.salesDigest, c.beaconRound, c.participationSha256, c.ticketsInPlay, c.salesCents, drawId])
}

/** Keeps the verified beacon round of a closed draw; false when one is already kept or the draw is not closed. */
export async function recordLotteryBeacon(tx: Sql, drawId: string, beaconJson: string): Promise<boolean> {
  return (await tx.run("UPDATE lottery_draws SET beacon = ? WHERE id = ? AND status = 'closed' AND beacon IS NULL", [beaconJson, drawId])).changes === 1
}

/** Stores every value of a closed RNG draw at once with its beacon and the seed, now revealed, and marks it drawn. */
export async function markLotteryDrawn(tx: Sql, drawId: string, d: { drawnJson: string; at: string; beaconJson: string; seedHex: string }): Promise<void> {
  await tx.run("UPDATE lottery_draws SET balls = ?, status = 'drawn', drawn_at = ?, beacon = COALESCE(beacon, ?), seed_hex = ? WHERE id = ? AND status = 'closed'", [d.drawnJson, d.at, d.beaconJson, d.seedHex, drawId])
}

/** Stores the numbers entered so far; with `drawnAt` the draw is complete and marked drawn. */
export async function recordLotteryNumbers(tx: Sql, drawId: string, drawnJson: string, drawnAt: string | null): Promise<void> {
  const complete = drawnAt !== null
  await tx.run(`UPDATE lottery_draws SET balls = ?${complete ? ", status = 'drawn', drawn_at = ?" : ''} WHERE id = ?`, complete ? [drawnJson, drawnAt, drawId] : [drawnJson, drawId])
}

export async function markLotterySettled(tx: Sql, drawId: string, resultJson: string, at: string): Promise<void> {
  await tx.run("UPDATE lottery_draws SET result = ?, status = 'settled', settled_at = ? WHERE id = ? AND status = 'drawn'", [resultJson, at, drawId])
}

/** Records where the unclaimed prizes went; false when that was already recorded. */
export async function recordDisposal(tx: Sql, drawId: string, disposalJson: string): Promise<boolean> {
  const r = await tx.run('UPDATE lottery_draws SET disposal = ? WHERE id = ? AND disposal IS NULL', [disposalJson, drawId])
  return r.changes === 1
}

// ------------------------------------------------------------------------------------------ ranges out of play

/** The draw's ranges of the given kinds, by creation. */
export function rangesOfDraw(tx: Sql, drawId: string, kinds: ReadonlyArray<RangeRow['kind']>): Promise<RangeRow[]> {
  return tx.all<RangeRow>(`SELECT * FROM lottery_ranges WHERE draw_id = ? AND kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY created_at, id`, [drawId, ...kinds])
}

export async function insertRange(tx: Sql, r: { id: string; drawId: string; kind: RangeRow['kind']; from: number; to: number; seriesFrom: number; seriesTo: number; quantity: number; detailsJson: string; createdAt: string; afterClose: boolean }): Promise<void> {
  await tx.run('INSERT INTO lottery_ranges (id, draw_id, kind, from_number, to_number, series_from, series_to, quantity, details, created_at, after_close) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [r.id, r.drawId, r.kind, r.from, r.to, r.seriesFrom, r.seriesTo, r.quantity, r.detailsJson, r.createdAt, r.afterClose ? 1 : 0])
}

// ------------------------------------------------------------------------------------------ raffle tickets sold

export async function soldNumbers(tx: Sql, drawId: string): Promise<number[]> {
  return (await tx.all<{ number: number }>('SELECT number FROM lottery_sales WHERE draw_id = ?', [drawId])).map((r) => Number(r.number))
}

export function soldTickets(tx: Sql, drawId: string): Promise<Array<{ serial: string; number: number }>> {
  return tx.all<{ serial: string; number: number }>('SELECT serial, number FROM lottery_sales WHERE draw_id = ?', [drawId])
}

export async function isNumberSold(tx: Sql, drawId: string, number: number): Promise<boolean> {
  return Boolean(await tx.get('SELECT serial FROM lottery_sales WHERE draw_id = ? AND number = ?', [drawId, number]))
}

/** Inserts sold tickets, each row (draw_id, serial, number, channel, buyer_name, sold_at). */
export function insertSales(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  return insertRows(tx, 'lottery_sales', ['draw_id', 'serial', 'number', 'channel', 'buyer_name', 'sold_at'], rows)
}

// ------------------------------------------------------------------------------------------ payouts

/** When the ticket's prize was paid, if it was. */
export async function paidAtOf(tx: Sql, drawId: string, ticketId: string): Promise<string | undefined> {
  return (await tx.get<{ paid_at: string }>('SELECT paid_at FROM lottery_payouts WHERE draw_id = ? AND ticket_id = ?', [drawId, ticketId]))?.paid_at
}

export interface NewLotteryPayout {
  id: string; drawId: string | null; product: 'lottery' | 'raffle'; ticketId: string | null; amountCents: number; goodsJson: string | null; prizesJson: string
  currency: string | null; stationId: string; cashierId: string; payeeName: string; payeeDocument: string; signatureRef: string; paidAt: string
}

export async function insertLotteryPayout(tx: Sql, p: NewLotteryPayout): Promise<void> {
  await tx.run(
    `INSERT INTO lottery_payouts (id, draw_id, product, ticket_id, amount_cents, goods, prizes, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [p.id, p.drawId, p.product, p.ticketId, p.amountCents, p.goodsJson, p.prizesJson, p.currency, p.stationId, p.cashierId, p.payeeName, p.payeeDocument, p.signatureRef, p.paidAt],
  )
}

/** Total paid out for a draw and the number of payouts. */
export async function payoutTotals(tx: Sql, drawId: string): Promise<{ totalCents: number; count: number }> {
  const paid = await tx.get<{ total: number | null; n: number }>('SELECT SUM(amount_cents) AS total, COUNT(*) AS n FROM lottery_payouts WHERE draw_id = ?', [drawId])
  return { totalCents: Number(paid?.total ?? 0), count: Number(paid?.n ?? 0) }
}

/** Payouts of lotteries and raffles (of one draw or all) with their draw's number, by payment time. */
export function lotteryPayouts(tx: Sql, drawId?: string): Promise<Array<Record<string, unknown>>> {
  return tx.all<Record<string, unknown>>(
    `SELECT p.*, d.draw_no FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id WHERE p.product IN ('lottery', 'raffle')${drawId ? ' AND p.draw_id = ?' : ''} ORDER BY p.paid_at, p.ticket_id`,
    drawId ? [drawId] : [],
  )
}
