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

// ------------------------------------------------------------------------------------------ ball sets (LNS-9, LOT-18)

/** 'range': a lotto set of the balls 1..ballCount; 'digits': a lottery set of the balls 0-9 in each of `drums` drums. */
export type BallSetKind = 'range' | 'digits'

export interface BallSetRow {
  id: string
  reference: string
  kind: BallSetKind | null
  ball_count: number | string
  drums: number | string | null
  seal_ref: string
  role: 'main' | 'reserve'
  registered_at: string
  registered_by: string | null
  reserve_at: string | null
  retired_at: string | null
  retired_by: string | null
  retire_reason: string | null
}

export interface BallSet {
  id: string
  reference: string
  kind: BallSetKind
  ballCount: number
  drums: number | null
  sealRef: string
  role: 'main' | 'reserve'
  registeredAt: string
  registeredBy: string | null
  reserveAt: string | null
  retiredAt: string | null
  retiredBy: string | null
  retireReason: string | null
}

const toBallSet = (r: BallSetRow): BallSet => ({
  id: r.id,
  reference: r.reference,
  kind: r.kind ?? 'range',
  ballCount: Number(r.ball_count),
  drums: numOrNull(r.drums),
  sealRef: r.seal_ref,
  role: r.role,
  registeredAt: r.registered_at,
  registeredBy: r.registered_by,
  reserveAt: r.reserve_at,
  retiredAt: r.retired_at ?? null,
  retiredBy: r.retired_by ?? null,
  retireReason: r.retire_reason ?? null,
})

/** What a draw needs: a lotto draw the sets of its range, a lottery draw the digit sets of as many drums as digits. */
export type BallSetFit = { kind: 'range'; ballCount: number } | { kind: 'digits'; drums: number }

const fitWhere = (fit: BallSetFit): [string, unknown[]] =>
  fit.kind === 'range'
    ? ["kind = 'range' AND ball_count = ?", [fit.ballCount]]
    : ["kind = 'digits' AND drums = ?", [fit.drums]]

export const fitOf = (s: BallSet): BallSetFit =>
  s.kind === 'digits' ? { kind: 'digits', drums: s.drums ?? 0 } : { kind: 'range', ballCount: s.ballCount }

export async function ballSets(db: Sql, kind?: BallSetKind): Promise<BallSet[]> {
  return (
    await db.all<BallSetRow>(
      `SELECT * FROM lotto_ball_sets${kind ? ' WHERE kind = ?' : ''} ORDER BY kind, ball_count, drums, registered_at, reference`,
      kind ? [kind] : [],
    )
  ).map(toBallSet)
}

export async function ballSetById(tx: Sql, id: string): Promise<BallSet | undefined> {
  const r = await tx.get<BallSetRow>('SELECT * FROM lotto_ball_sets WHERE id = ?', [id])
  return r ? toBallSet(r) : undefined
}

export async function ballSetReferenceTaken(tx: Sql, reference: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT id FROM lotto_ball_sets WHERE reference = ?', [reference]))
}

export async function insertBallSet(
  tx: Sql,
  s: {
    id: string
    reference: string
    kind: BallSetKind
    ballCount: number
    drums: number | null
    sealRef: string
    at: string
    by: string | null
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO lotto_ball_sets (id, reference, kind, ball_count, drums, seal_ref, role, registered_at, registered_by)
     VALUES (?, ?, ?, ?, ?, ?, 'main', ?, ?)`,
    [s.id, s.reference, s.kind, s.ballCount, s.drums, s.sealRef, s.at, s.by],
  )
}

/** One reserve per fit: the previous reserve of the same fit goes back to being a set that may draw. */
export async function markReserveSet(tx: Sql, set: BallSet, at: string): Promise<void> {
  const [where, args] = fitWhere(fitOf(set))
  await tx.run(
    `UPDATE lotto_ball_sets SET role = 'main', reserve_at = NULL WHERE ${where} AND role = 'reserve' AND id <> ?`,
    [...args, set.id],
  )
  await tx.run("UPDATE lotto_ball_sets SET role = 'reserve', reserve_at = ? WHERE id = ?", [at, set.id])
}

/** A reserve set swapped into a draw is no longer the reserve on hand: it draws. */
export async function unmarkReserveSet(tx: Sql, id: string): Promise<void> {
  await tx.run("UPDATE lotto_ball_sets SET role = 'main', reserve_at = NULL WHERE id = ?", [id])
}

/** False when the set was retired already (two retirements racing: one wins). */
export async function retireBallSet(tx: Sql, id: string, at: string, by: string | null, reason: string) {
  const r = await tx.run(
    "UPDATE lotto_ball_sets SET retired_at = ?, retired_by = ?, retire_reason = ?, role = 'main', reserve_at = NULL WHERE id = ? AND retired_at IS NULL",
    [at, by, reason, id],
  )
  return r.changes === 1
}

/** The set a new draw of this fit takes (the latest registered, not retired) and the fit's reserve set. */
export async function ballSetsOfFit(
  tx: Sql,
  fit: BallSetFit,
  exceptId: string | null = null,
): Promise<{ main: BallSet | null; reserve: BallSet | null }> {
  const [where, args] = fitWhere(fit)
  const main = await tx.get<BallSetRow>(
    `SELECT * FROM lotto_ball_sets WHERE ${where} AND role = 'main' AND retired_at IS NULL ORDER BY registered_at DESC, id DESC LIMIT 1`,
    args,
  )
  const reserve = await tx.get<BallSetRow>(
    `SELECT * FROM lotto_ball_sets WHERE ${where} AND role = 'reserve' AND retired_at IS NULL AND id <> ? LIMIT 1`,
    [...args, exceptId ?? ''],
  )
  return { main: main ? toBallSet(main) : null, reserve: reserve ? toBallSet(reserve) : null }
}

/** LNS-16: the sets a manual draw is drawn with, fixed at its first ball. */
export async function recordDrawBallSets(tx: Sql, drawId: string, ballSetId: string, reserveSetId: string | null) {
  await tx.run('UPDATE lottery_draws SET ball_set_id = ?, reserve_set_id = ? WHERE id = ? AND ball_set_id IS NULL', [
    ballSetId,
    reserveSetId,
    drawId,
  ])
}

/** LNS-9: the reserve on hand named on a draw that had none (after a swap used the one it had). */
export async function recordDrawReserveSet(tx: Sql, drawId: string, reserveSetId: string) {
  await tx.run('UPDATE lottery_draws SET reserve_set_id = ? WHERE id = ? AND reserve_set_id IS NULL', [
    reserveSetId,
    drawId,
  ])
}

/** LNS-9: the reserve swapped in mid-draw; the draw's reserve is the next one on hand (null: none yet). */
export async function swapDrawBallSet(
  tx: Sql,
  drawId: string,
  from: string,
  to: string,
  reserveSetId: string | null,
): Promise<boolean> {
  const r = await tx.run(
    "UPDATE lottery_draws SET ball_set_id = ?, reserve_set_id = ? WHERE id = ? AND ball_set_id = ? AND status = 'closed'",
    [to, reserveSetId, drawId, from],
  )
  return r.changes === 1
}

/** A draw being drawn with the set (not as its reserve): the set is not made anyone's reserve meanwhile. */
export async function openDrawDrawingWith(tx: Sql, id: string): Promise<string | null> {
  const r = await tx.get<{ id: string }>(
    "SELECT id FROM lottery_draws WHERE ball_set_id = ? AND status = 'closed' LIMIT 1",
    [id],
  )
  return r?.id ?? null
}

/** A draw being drawn with the set, or holding it as its reserve: the set may not be retired under it. */
export async function openDrawUsingSet(tx: Sql, id: string): Promise<string | null> {
  const r = await tx.get<{ id: string }>(
    "SELECT id FROM lottery_draws WHERE (ball_set_id = ? OR reserve_set_id = ?) AND status = 'closed' LIMIT 1",
    [id, id],
  )
  return r?.id ?? null
}
