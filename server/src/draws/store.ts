/**
 * The SQL of the draw lifecycle that lotto, numbered lotteries and raffles share: the rows of lottery_draws and the
 * payouts of lottery_payouts. Each line keeps in its own store.ts the SQL of what only it has (slips and winning
 * plays; issues, fractions, ranges and raffle sales). Every function takes the transaction or connection to run on.
 */
import type { Sql } from '../db/database.ts'
import { touchRows } from '../shared/row-seals.ts'

/** A row of lottery_draws: a lotto, lottery or raffle draw. */
export interface DrawRow {
  id: string
  product: string
  game_code: string
  draw_no: number
  plan: string
  status: 'open' | 'closed' | 'drawn' | 'settled' | 'cancelled'
  currency: string
  price_cents: number
  sales_start_at: string
  sales_close_at: string
  draw_at: string
  claim_deadline: string
  draw_method: string
  /** '' until the draw has ended for a v2 draw (the seed is then only in seed_sealed); the revealed seed after. */
  commitment: string
  seed_hex: string
  seed_sealed: string | null
  entropy_source: string | null
  beacon_round: number | null
  beacon: string | null
  sales_digest: string | null
  external_entropy: string | null
  participation_sha256: string | null
  participation_file: string | null
  entries_count: number | null
  plays_count: number | null
  sales_cents: number | null
  balls: string | null
  result: string | null
  disposal: string | null
  notarial_act?: string | null
  /** LNS-9 / LNS-16: the lotto ball set and reserve set a manual draw was drawn with. */
  ball_set_id?: string | null
  reserve_set_id?: string | null
  created_at: string
  closed_at: string | null
  drawn_at: string | null
  settled_at: string | null
}

export interface NewDraw {
  id: string
  product: string
  gameCode: string
  drawNo: number
  planJson: string
  currency: string
  priceCents: number
  salesStartAt: string
  salesCloseAt: string
  drawAt: string
  claimDeadline: string
  drawMethod: string
  commitment: string
  seedSealed: string
  entropySource: string
  createdAt: string
}

/** A planned draw, open for sales. Its seed is stored only sealed (seed_hex stays '' until the draw has ended). */
export async function insertDraw(tx: Sql, d: NewDraw): Promise<void> {
  await tx.run(
    `INSERT INTO lottery_draws (id, product, game_code, draw_no, plan, status, currency, price_cents, sales_start_at, sales_close_at, draw_at, claim_deadline, draw_method, commitment, seed_hex, seed_sealed, entropy_source, created_at)
         VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)`,
    [
      d.id,
      d.product,
      d.gameCode,
      d.drawNo,
      d.planJson,
      d.currency,
      d.priceCents,
      d.salesStartAt,
      d.salesCloseAt,
      d.drawAt,
      d.claimDeadline,
      d.drawMethod,
      d.commitment,
      d.seedSealed,
      d.entropySource,
      d.createdAt,
    ],
  )
}

/** Fixes the close of sales of an open draw: D, the close time, the beacon round R and the participation file. */
export async function markDrawClosed(
  tx: Sql,
  drawId: string,
  c: {
    at: string
    salesDigest: string
    beaconRound: number
    participationSha256: string
    entries: number
    /** Lotto counts plays (boards); a ticket line has none. */
    plays: number | null
    salesCents: number
  },
): Promise<void> {
  await tx.run(
    `UPDATE lottery_draws SET status = 'closed', closed_at = ?, sales_digest = ?, beacon_round = ?, participation_sha256 = ?, participation_file = 'participation.csv', entries_count = ?, plays_count = ?, sales_cents = ? WHERE id = ? AND status = 'open'`,
    [c.at, c.salesDigest, c.beaconRound, c.participationSha256, c.entries, c.plays, c.salesCents, drawId],
  )
}

/** Keeps the verified beacon round of a closed draw; false when one is already kept or the draw is not closed. */
export async function recordDrawBeacon(tx: Sql, drawId: string, beaconJson: string): Promise<boolean> {
  return (
    (
      await tx.run("UPDATE lottery_draws SET beacon = ? WHERE id = ? AND status = 'closed' AND beacon IS NULL", [
        beaconJson,
        drawId,
      ])
    ).changes === 1
  )
}

/** Stores every value of a closed RNG draw at once with its beacon and the seed, now revealed, and marks it drawn. */
export async function markDrawn(
  tx: Sql,
  drawId: string,
  d: { valuesJson: string; at: string; beaconJson: string | null; seedHex: string },
): Promise<void> {
  await tx.run(
    "UPDATE lottery_draws SET balls = ?, status = 'drawn', drawn_at = ?, beacon = COALESCE(beacon, ?), seed_hex = ? WHERE id = ? AND status = 'closed'",
    [d.valuesJson, d.at, d.beaconJson, d.seedHex, drawId],
  )
}

/** Stores the balls or numbers entered so far; with `drawnAt` the draw is complete and marked drawn. */
export async function recordDrawnValues(
  tx: Sql,
  drawId: string,
  valuesJson: string,
  drawnAt: string | null,
): Promise<void> {
  const complete = drawnAt !== null
  await tx.run(
    `UPDATE lottery_draws SET balls = ?${complete ? ", status = 'drawn', drawn_at = ?" : ''} WHERE id = ?`,
    complete ? [valuesJson, drawnAt, drawId] : [valuesJson, drawId],
  )
}

export async function markDrawSettled(tx: Sql, drawId: string, resultJson: string, at: string): Promise<void> {
  await tx.run(
    "UPDATE lottery_draws SET result = ?, status = 'settled', settled_at = ? WHERE id = ? AND status = 'drawn'",
    [resultJson, at, drawId],
  )
}

/** Records where the unclaimed prizes went; false when that was already recorded. */
export async function recordDisposal(tx: Sql, drawId: string, disposalJson: string): Promise<boolean> {
  const r = await tx.run('UPDATE lottery_draws SET disposal = ? WHERE id = ? AND disposal IS NULL', [
    disposalJson,
    drawId,
  ])
  return r.changes === 1
}

/** LOT-21 / LNS-22: a planned, not yet drawn draw gets its postponed dates (plan, draw_at, claim_deadline). */
export async function postponeDrawRow(
  tx: Sql,
  drawId: string,
  planJson: string,
  drawAt: string,
  claimDeadline: string,
): Promise<boolean> {
  return (
    (
      await tx.run(
        "UPDATE lottery_draws SET plan = ?, draw_at = ?, claim_deadline = ? WHERE id = ? AND status IN ('open', 'closed')",
        [planJson, drawAt, claimDeadline, drawId],
      )
    ).changes === 1
  )
}

/** LNS-22 / LOT-21: an authorised cancellation (withdrawal or renunciation) of a draw not yet drawn. */
export async function markDrawCancelled(tx: Sql, drawId: string): Promise<boolean> {
  return (
    (
      await tx.run("UPDATE lottery_draws SET status = 'cancelled' WHERE id = ? AND status IN ('open', 'closed')", [
        drawId,
      ])
    ).changes === 1
  )
}

export interface NewPayout {
  id: string
  drawId: string
  product: string
  ticketId: string
  amountCents: number
  goodsJson: string | null
  prizesJson: string
  currency: string
  stationId: string
  cashierId: string
  payeeName: string
  payeeDocument: string
  signatureRef: string
  paidAt: string
}

/** One payout (prize or refund) of a ticket for a draw; UNIQUE (draw_id, ticket_id) is the database's own guard. */
export async function insertPayout(tx: Sql, p: NewPayout): Promise<void> {
  // Issue 24 point 1: named by what it pays (UNIQUE draw and ticket), so a payout deleted leaves its seal behind.
  touchRows(tx, 'lottery_payouts', [`${p.drawId}|${p.ticketId}`])
  await tx.run(
    `INSERT INTO lottery_payouts (id, draw_id, product, ticket_id, amount_cents, goods, prizes, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      p.id,
      p.drawId,
      p.product,
      p.ticketId,
      p.amountCents,
      p.goodsJson,
      p.prizesJson,
      p.currency,
      p.stationId,
      p.cashierId,
      p.payeeName,
      p.payeeDocument,
      p.signatureRef,
      p.paidAt,
    ],
  )
}

/** When the ticket was paid or refunded for this draw, if it was (the UNIQUE of lottery_payouts is the last guard). */
export async function paidAtOf(tx: Sql, drawId: string, ticketId: string): Promise<string | undefined> {
  return (
    await tx.get<{ paid_at: string }>('SELECT paid_at FROM lottery_payouts WHERE draw_id = ? AND ticket_id = ?', [
      drawId,
      ticketId,
    ])
  )?.paid_at
}

/** Payouts of some products (of one draw or all) with their draw's number and game, by payment time. */
export function payoutsOf(
  tx: Sql,
  products: readonly string[],
  drawId?: string,
): Promise<Array<Record<string, unknown>>> {
  return tx.all<Record<string, unknown>>(
    `SELECT p.*, d.draw_no, d.game_code FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id WHERE p.product IN (${products.map(() => '?').join(', ')})${drawId ? ' AND p.draw_id = ?' : ''} ORDER BY p.paid_at, p.ticket_id, p.id`,
    drawId ? [...products, drawId] : [...products],
  )
}
