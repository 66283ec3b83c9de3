/**
 * The SQL of the draw lifecycle that lotto, numbered lotteries and raffles share: the rows of lottery_draws and the
 * payouts of lottery_payouts. Each line keeps in its own store.ts the SQL of what only it has (slips and winning
 * plays; issues, fractions, ranges and raffle sales). Every function takes the transaction or connection to run on.
 */
import type { Sql } from '../db/database.ts'
import { touchRows } from '../shared/row-seals.ts'

/** A row of lottery_draws as stored: a lotto, lottery or raffle draw (PostgreSQL returns its BIGINT columns as text). */
export interface DrawRow {
  id: string
  product: string
  game_code: string
  draw_no: number | string
  plan: string
  status: 'open' | 'closed' | 'drawn' | 'settled' | 'cancelled'
  currency: string
  price_cents: number | string
  sales_start_at: string
  sales_close_at: string
  draw_at: string
  claim_deadline: string
  draw_method: string
  commitment: string
  seed_hex: string
  seed_sealed: string | null
  entropy_source: string | null
  beacon_round: number | string | null
  beacon: string | null
  sales_digest: string | null
  external_entropy: string | null
  participation_sha256: string | null
  participation_file: string | null
  entries_count: number | string | null
  plays_count: number | string | null
  sales_cents: number | string | null
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

/** A lotto, lottery or raffle draw as the use cases read it. */
export interface Draw {
  id: string
  product: string
  gameCode: string
  drawNo: number
  /** The plan's JSON text. */
  plan: string
  status: 'open' | 'closed' | 'drawn' | 'settled' | 'cancelled'
  currency: string
  priceCents: number
  salesStartAt: string
  salesCloseAt: string
  drawAt: string
  claimDeadline: string
  drawMethod: string
  commitment: string
  /** '' until the draw has ended for a v2 draw (the seed is then only in seedSealed); the revealed seed after. */
  seedHex: string
  seedSealed: string | null
  entropySource: string | null
  beaconRound: number | null
  /** The verified beacon value's JSON text. */
  beacon: string | null
  salesDigest: string | null
  externalEntropy: string | null
  participationSha256: string | null
  participationFile: string | null
  entriesCount: number | null
  playsCount: number | null
  salesCents: number | null
  /** JSON texts: the values drawn, the settlement's result, where the unclaimed prizes went. */
  balls: string | null
  result: string | null
  disposal: string | null
  /** LNS-21 (lotto): the notary's act of the exclusions, JSON text. */
  notarialAct: string | null
  /** LNS-9 / LNS-16: the lotto ball set and reserve set a manual draw was drawn with. */
  ballSetId: string | null
  reserveSetId: string | null
  createdAt: string
  closedAt: string | null
  drawnAt: string | null
  settledAt: string | null
}

const numOrNull = (v: number | string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v)

export function toDraw(r: DrawRow): Draw {
  return {
    id: r.id,
    product: r.product,
    gameCode: r.game_code,
    drawNo: Number(r.draw_no),
    plan: r.plan,
    status: r.status,
    currency: r.currency,
    priceCents: Number(r.price_cents),
    salesStartAt: r.sales_start_at,
    salesCloseAt: r.sales_close_at,
    drawAt: r.draw_at,
    claimDeadline: r.claim_deadline,
    drawMethod: r.draw_method,
    commitment: r.commitment,
    seedHex: r.seed_hex,
    seedSealed: r.seed_sealed ?? null,
    entropySource: r.entropy_source ?? null,
    beaconRound: numOrNull(r.beacon_round),
    beacon: r.beacon ?? null,
    salesDigest: r.sales_digest ?? null,
    externalEntropy: r.external_entropy ?? null,
    participationSha256: r.participation_sha256 ?? null,
    participationFile: r.participation_file ?? null,
    entriesCount: numOrNull(r.entries_count),
    playsCount: numOrNull(r.plays_count),
    salesCents: numOrNull(r.sales_cents),
    balls: r.balls ?? null,
    result: r.result ?? null,
    disposal: r.disposal ?? null,
    notarialAct: r.notarial_act ?? null,
    ballSetId: r.ball_set_id ?? null,
    reserveSetId: r.reserve_set_id ?? null,
    createdAt: r.created_at,
    closedAt: r.closed_at ?? null,
    drawnAt: r.drawn_at ?? null,
    settledAt: r.settled_at ?? null,
  }
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

/** A `lottery_payouts` row as stored, with its draw's number and game (PostgreSQL returns BIGINT as text). */
export interface PayoutRow {
  id: string
  draw_id: string
  product: string
  ticket_id: string
  amount_cents: number | string
  goods: string | null
  prizes: string
  currency: string
  station_id: string
  cashier_id: string
  payee_name: string
  payee_document: string
  signature_ref: string
  paid_at: string
  draw_no: number | string
  game_code: string
}

/** A prize or refund paid for a ticket in a draw, as the prize register reads it. */
export interface LotteryPayout {
  id: string
  drawId: string
  product: string
  ticketId: string
  amountCents: number
  /** JSON texts: the goods of a prize in kind, and what was paid (the prizes, or the refund and its rule). */
  goods: string | null
  prizes: string
  currency: string
  stationId: string
  cashierId: string
  payeeName: string
  /** Sealed at rest (shared/document-at-rest.ts). */
  payeeDocument: string
  signatureRef: string
  paidAt: string
  drawNo: number
  gameCode: string
}

export function toLotteryPayout(r: PayoutRow): LotteryPayout {
  return {
    id: r.id,
    drawId: r.draw_id,
    product: r.product,
    ticketId: r.ticket_id,
    amountCents: Number(r.amount_cents),
    goods: r.goods ?? null,
    prizes: r.prizes,
    currency: r.currency,
    stationId: r.station_id,
    cashierId: r.cashier_id,
    payeeName: r.payee_name,
    payeeDocument: r.payee_document,
    signatureRef: r.signature_ref,
    paidAt: r.paid_at,
    drawNo: Number(r.draw_no),
    gameCode: r.game_code,
  }
}

/** Payouts of some products (of one draw or all) with their draw's number and game, by payment time. */
export async function payoutsOf(tx: Sql, products: readonly string[], drawId?: string): Promise<LotteryPayout[]> {
  const rows = await tx.all<PayoutRow>(
    `SELECT p.*, d.draw_no, d.game_code FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id WHERE p.product IN (${products.map(() => '?').join(', ')})${drawId ? ' AND p.draw_id = ?' : ''} ORDER BY p.paid_at, p.ticket_id, p.id`,
    drawId ? [...products, drawId] : [...products],
  )
  return rows.map(toLotteryPayout)
}
