/**
 * The SQL of numbered-ticket lotteries and raffles: their draws (the `lottery` and `raffle` rows of lottery_draws),
 * ranges taken out of play, raffle tickets sold and payouts. Every function takes the transaction or connection
 * to run on (`Sql`) and returns camelCase objects of the right types (one mapping function per table).
 */
import type { Sql } from '../db/database.ts'
import { insertRows } from '../shared/journal-batch.ts'
import { touchRows, touchRowsWhere } from '../shared/row-seals.ts'
import { toDraw, type Draw, type DrawRow } from '../draws/store.ts'

/** A draw of lottery_draws (the table lotto shares) of a lottery or raffle. */
export type LotteryDraw = Draw & { product: 'lottery' | 'raffle' }

/** A range taken out of play (LST-7, §7.14): a `lottery_ranges` row. */
export interface TicketRange {
  id: string
  kind: 'returned' | 'lost' | 'stolen'
  from: number
  to: number
  seriesFrom: number
  seriesTo: number
  quantity: number
  createdAt: string
  /** Reported after the close of sales: blocked from payment, but the draw's list (and D) stay as closed. */
  afterClose: boolean
  details: {
    discoveredAt?: string
    reportedToAjAt?: string
    distributed?: boolean
    policeReportRef?: string | null
    remedy?: string
    notice?: string
    lateReport?: boolean
    note?: string
    /** LST-7: the design the range was lost or stolen under (1 when reported before any reissue). */
    designVersion?: number
  }
}

interface RangeRow {
  id: string
  kind: TicketRange['kind']
  from_number: number | string
  to_number: number | string
  series_from: number | string
  series_to: number | string
  quantity: number | string
  details: string
  created_at: string
  after_close: number | string
}

/** The one mapping of a `lottery_ranges` row (PostgreSQL may return integer columns as strings). */
function toTicketRange(r: RangeRow): TicketRange {
  return {
    id: r.id,
    kind: r.kind,
    from: Number(r.from_number),
    to: Number(r.to_number),
    seriesFrom: Number(r.series_from),
    seriesTo: Number(r.series_to),
    quantity: Number(r.quantity),
    createdAt: r.created_at,
    afterClose: Number(r.after_close) === 1,
    details: JSON.parse(r.details) as TicketRange['details'],
  }
}

// ------------------------------------------------------------------------------------------ draws

export async function lotteryDrawById(tx: Sql, drawId: string): Promise<LotteryDraw | undefined> {
  const row = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE id = ? AND product IN ('lottery', 'raffle')", [
    drawId,
  ])
  return row ? (toDraw(row) as LotteryDraw) : undefined
}

/** Ids of the draws of one product, or of both, by creation time. */
export async function lotteryDrawIds(tx: Sql, product?: 'lottery' | 'raffle'): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM lottery_draws WHERE product IN (${product ? '?' : "'lottery', 'raffle'"}) ORDER BY created_at`,
    product ? [product] : [],
  )
  return rows.map((r) => r.id)
}

/**
 * PRM-9: the raffle draws of a game numbered `from` to `to`, by number (a successive plan's draws are numbered one
 * after another under one game code).
 */
export async function raffleDrawsNumbered(tx: Sql, gameCode: string, from: number, to: number): Promise<LotteryDraw[]> {
  const rows = await tx.all<DrawRow>(
    "SELECT * FROM lottery_draws WHERE product = 'raffle' AND game_code = ? AND draw_no >= ? AND draw_no <= ? ORDER BY draw_no",
    [gameCode, from, to],
  )
  return rows.map((r) => toDraw(r) as LotteryDraw)
}

// ------------------------------------------------------------------------------------------ ranges out of play

/** The draw's ranges of the given kinds, by creation. */
export async function rangesOfDraw(
  tx: Sql,
  drawId: string,
  kinds: ReadonlyArray<TicketRange['kind']>,
): Promise<TicketRange[]> {
  const rows = await tx.all<RangeRow>(
    `SELECT * FROM lottery_ranges WHERE draw_id = ? AND kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY created_at, id`,
    [drawId, ...kinds],
  )
  return rows.map(toTicketRange)
}

export async function insertRange(
  tx: Sql,
  r: {
    id: string
    drawId: string
    kind: TicketRange['kind']
    from: number
    to: number
    seriesFrom: number
    seriesTo: number
    quantity: number
    detailsJson: string
    createdAt: string
    afterClose: boolean
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO lottery_ranges (id, draw_id, kind, from_number, to_number, series_from, series_to, quantity, details, created_at, after_close) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.drawId,
      r.kind,
      r.from,
      r.to,
      r.seriesFrom,
      r.seriesTo,
      r.quantity,
      r.detailsJson,
      r.createdAt,
      r.afterClose ? 1 : 0,
    ],
  )
}

// ------------------------------------------------------------------------------------------ raffle tickets sold

export async function soldNumbers(tx: Sql, drawId: string): Promise<number[]> {
  return (await tx.all<{ number: number }>('SELECT number FROM lottery_sales WHERE draw_id = ?', [drawId])).map((r) =>
    Number(r.number),
  )
}

export async function soldTickets(tx: Sql, drawId: string): Promise<Array<{ serial: string; number: number }>> {
  const rows = await tx.all<{ serial: string; number: number | string }>(
    'SELECT serial, number FROM lottery_sales WHERE draw_id = ?',
    [drawId],
  )
  return rows.map((r) => ({ serial: r.serial, number: Number(r.number) }))
}

export async function isNumberSold(tx: Sql, drawId: string, number: number): Promise<boolean> {
  return Boolean(await tx.get('SELECT serial FROM lottery_sales WHERE draw_id = ? AND number = ?', [drawId, number]))
}

/** Inserts sold tickets, each row (draw_id, serial, number, channel, buyer_name, sold_at). */
export function insertSales(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  touchRows(
    tx,
    'lottery_sales',
    rows.map((r) => `${String(r[0])}|${String(r[1])}`),
  )
  return insertRows(tx, 'lottery_sales', ['draw_id', 'serial', 'number', 'channel', 'buyer_name', 'sold_at'], rows)
}

// ------------------------------------------------------------------------------------------ payouts

/** Total paid out for a draw and the number of payouts. */
export async function payoutTotals(tx: Sql, drawId: string): Promise<{ totalCents: number; count: number }> {
  const paid = await tx.get<{ total: number | null; n: number }>(
    'SELECT SUM(amount_cents) AS total, COUNT(*) AS n FROM lottery_payouts WHERE draw_id = ?',
    [drawId],
  )
  return { totalCents: Number(paid?.total ?? 0), count: Number(paid?.n ?? 0) }
}

/** Payouts of lotteries and raffles (of one draw or all) with their draw's number, by payment time. */
/** PRM-2: the codes of the objects of a tómbola already handed over (each payout's prizes). */
export async function deliveredPrizeCodes(tx: Sql, drawId: string): Promise<Set<string>> {
  const rows = await tx.all<{ prizes: string }>('SELECT prizes FROM lottery_payouts WHERE draw_id = ?', [drawId])
  return new Set(rows.flatMap((r) => (JSON.parse(String(r.prizes)) as Array<{ code: string }>).map((x) => x.code)))
}

// ------------------------------------------------------------------------------------------ issue register (issue 13 point 3)

/** A printed fraction in the register (`lottery_fractions`): its current print run and where the paper is. */
export interface Fraction {
  number: number
  series: number
  fraction: number
  runNo: number
  /** LST-4: the reprint that waits for the holder of the sold paper to exchange it. */
  exchangeRunNo: number | null
  status: 'printed' | 'distributed' | 'returned'
  sellerId: string | null
  sellerName: string | null
  distributedAt: string | null
  returnedAt: string | null
}

interface FractionRow {
  number: number | string
  series: number | string
  fraction: number | string
  run_no: number | string
  exchange_run_no: number | string | null
  status: Fraction['status']
  seller_id: string | null
  seller_name: string | null
  distributed_at: string | null
  returned_at: string | null
}

const FRACTION_COLUMNS =
  'number, series, fraction, run_no, exchange_run_no, status, seller_id, seller_name, distributed_at, returned_at'

/** The one mapping of a `lottery_fractions` row. */
function toFraction(r: FractionRow): Fraction {
  return {
    number: Number(r.number),
    series: Number(r.series),
    fraction: Number(r.fraction),
    runNo: Number(r.run_no),
    exchangeRunNo: r.exchange_run_no == null ? null : Number(r.exchange_run_no),
    status: r.status,
    sellerId: r.seller_id,
    sellerName: r.seller_name,
    distributedAt: r.distributed_at,
    returnedAt: r.returned_at,
  }
}

/** A block of the issue: numbers from..to of series seriesFrom..seriesTo, fractions fractionFrom..fractionTo. */
export interface FractionBlock {
  from: number
  to: number
  seriesFrom: number
  seriesTo: number
  fractionFrom: number
  fractionTo: number
}

const BLOCK = 'draw_id = ? AND number BETWEEN ? AND ? AND series BETWEEN ? AND ? AND fraction BETWEEN ? AND ?'
const blockArgs = (drawId: string, b: FractionBlock) => [
  drawId,
  b.from,
  b.to,
  b.seriesFrom,
  b.seriesTo,
  b.fractionFrom,
  b.fractionTo,
]

/** The sealed per-issue secret that keys the fraction tags, if the draw has one. */
export async function issueSecretOf(tx: Sql, drawId: string): Promise<string | null> {
  return (
    (
      await tx.get<{ issue_secret_sealed: string | null }>(
        'SELECT issue_secret_sealed FROM lottery_draws WHERE id = ?',
        [drawId],
      )
    )?.issue_secret_sealed ?? null
  )
}

/** Keeps the sealed per-issue secret once; false when the draw already has one. */
export async function setIssueSecret(tx: Sql, drawId: string, sealed: string): Promise<boolean> {
  return (
    (
      await tx.run('UPDATE lottery_draws SET issue_secret_sealed = ? WHERE id = ? AND issue_secret_sealed IS NULL', [
        sealed,
        drawId,
      ])
    ).changes === 1
  )
}

export async function lastPrintRunNo(tx: Sql, drawId: string): Promise<number> {
  return Number(
    (await tx.get<{ n: number | null }>('SELECT MAX(run_no) AS n FROM lottery_print_runs WHERE draw_id = ?', [drawId]))
      ?.n ?? 0,
  )
}

export async function insertPrintRun(
  tx: Sql,
  r: {
    id: string
    drawId: string
    runNo: number
    from: number
    to: number
    seriesFrom: number
    seriesTo: number
    fractions: number
    reprinted: number
    reason: string | null
    actorJson: string
    createdAt: string
    /** LST-7: the design the run is printed under (1 = the authorised one). */
    designVersion?: number
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO lottery_print_runs (id, draw_id, run_no, from_number, to_number, series_from, series_to, fractions_count, reprinted_count, reason, actor, created_at, design_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.drawId,
      r.runNo,
      r.from,
      r.to,
      r.seriesFrom,
      r.seriesTo,
      r.fractions,
      r.reprinted,
      r.reason,
      r.actorJson,
      r.createdAt,
      r.designVersion ?? 1,
    ],
  )
}

/** A print run of the issue (`lottery_print_runs`). */
export interface PrintRun {
  id: string
  runNo: number
  from: number
  to: number
  seriesFrom: number
  seriesTo: number
  fractions: number
  reprinted: number
  reason: string | null
  actorJson: string
  createdAt: string
  /** LST-7: the design the run is printed under (1 = the authorised one). */
  designVersion: number
}

interface PrintRunRow {
  id: string
  run_no: number | string
  from_number: number | string
  to_number: number | string
  series_from: number | string
  series_to: number | string
  fractions_count: number | string
  reprinted_count: number | string
  reason: string | null
  actor: string
  created_at: string
  design_version: number | string | null
}

/** The one mapping of a `lottery_print_runs` row. */
function toPrintRun(r: PrintRunRow): PrintRun {
  return {
    id: r.id,
    runNo: Number(r.run_no),
    from: Number(r.from_number),
    to: Number(r.to_number),
    seriesFrom: Number(r.series_from),
    seriesTo: Number(r.series_to),
    fractions: Number(r.fractions_count),
    reprinted: Number(r.reprinted_count),
    reason: r.reason,
    actorJson: r.actor,
    createdAt: r.created_at,
    designVersion: Number(r.design_version ?? 1),
  }
}

export async function printRunsOf(tx: Sql, drawId: string): Promise<PrintRun[]> {
  const rows = await tx.all<PrintRunRow>('SELECT * FROM lottery_print_runs WHERE draw_id = ? ORDER BY run_no', [drawId])
  return rows.map(toPrintRun)
}

/** The register rows of a block, by series, number, fraction. */
export async function fractionsIn(tx: Sql, drawId: string, b: FractionBlock): Promise<Fraction[]> {
  const rows = await tx.all<FractionRow>(
    `SELECT ${FRACTION_COLUMNS} FROM lottery_fractions WHERE ${BLOCK} ORDER BY series, number, fraction`,
    blockArgs(drawId, b),
  )
  return rows.map(toFraction)
}

export async function fractionOf(
  tx: Sql,
  drawId: string,
  number: number,
  series: number,
  fraction: number,
): Promise<Fraction | undefined> {
  const r = await tx.get<FractionRow>(
    `SELECT ${FRACTION_COLUMNS} FROM lottery_fractions WHERE draw_id = ? AND number = ? AND series = ? AND fraction = ?`,
    [drawId, number, series, fraction],
  )
  return r ? toFraction(r) : undefined
}

/** Registers newly printed fractions, each row (draw_id, number, series, fraction, run_no, status). */
export function insertFractions(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  touchRows(
    tx,
    'lottery_fractions',
    rows.map((r) => r.slice(0, 4).map(String).join('|')),
  )
  return insertRows(tx, 'lottery_fractions', ['draw_id', 'number', 'series', 'fraction', 'run_no', 'status'], rows)
}

/**
 * A reprint: an undistributed fraction of the block gets the new run (the operator's earlier paper is void and
 * destroyed); a distributed one keeps its sold paper valid and the new run waits for the exchange (LST-4), when
 * the holder presents the old paper. Returned fractions are not reprinted.
 */
export async function reprintFractions(tx: Sql, drawId: string, b: FractionBlock, runNo: number): Promise<number> {
  // The rows the updates change, named before them (sealed with their new values by the transaction's next record).
  await touchRowsWhere(
    tx,
    'lottery_fractions',
    `${BLOCK} AND status IN ('printed', 'distributed')`,
    blockArgs(drawId, b),
  )
  const printed = await tx.run(`UPDATE lottery_fractions SET run_no = ? WHERE ${BLOCK} AND status = 'printed'`, [
    runNo,
    ...blockArgs(drawId, b),
  ])
  const sold = await tx.run(
    `UPDATE lottery_fractions SET exchange_run_no = ? WHERE ${BLOCK} AND status = 'distributed'`,
    [runNo, ...blockArgs(drawId, b)],
  )
  return printed.changes + sold.changes
}

/** Hands the printed, undistributed fractions of a block to a seller; returns how many. */
export async function distributeFractions(
  tx: Sql,
  drawId: string,
  b: FractionBlock,
  seller: { id: string; name: string },
  at: string,
): Promise<number> {
  await touchRowsWhere(tx, 'lottery_fractions', `${BLOCK} AND status = 'printed'`, blockArgs(drawId, b))
  return (
    await tx.run(
      `UPDATE lottery_fractions SET status = 'distributed', seller_id = ?, seller_name = ?, distributed_at = ? WHERE ${BLOCK} AND status = 'printed'`,
      [seller.id, seller.name, at, ...blockArgs(drawId, b)],
    )
  ).changes
}

/** Marks the printed or distributed fractions of a block returned (of one seller when `sellerId` is given). */
export async function returnFractions(
  tx: Sql,
  drawId: string,
  b: FractionBlock,
  at: string,
  sellerId?: string,
): Promise<number> {
  await touchRowsWhere(
    tx,
    'lottery_fractions',
    `${BLOCK} AND status IN ('printed', 'distributed')${sellerId ? ' AND seller_id = ?' : ''}`,
    [...blockArgs(drawId, b), ...(sellerId ? [sellerId] : [])],
  )
  return (
    await tx.run(
      `UPDATE lottery_fractions SET status = 'returned', returned_at = ? WHERE ${BLOCK} AND status IN ('printed', 'distributed')${sellerId ? ' AND seller_id = ?' : ''}`,
      [at, ...blockArgs(drawId, b), ...(sellerId ? [sellerId] : [])],
    )
  ).changes
}

/** The name a seller was given fractions of this draw under (or, for one given none, its device name). */
export async function sellerNameOf(tx: Sql, drawId: string, sellerId: string): Promise<string | undefined> {
  const given = await tx.get<{ seller_name: string | null }>(
    'SELECT seller_name FROM lottery_fractions WHERE draw_id = ? AND seller_id = ? LIMIT 1',
    [drawId, sellerId],
  )
  if (given?.seller_name) return given.seller_name
  return (await tx.get<{ name: string }>('SELECT name FROM device_credentials WHERE id = ?', [sellerId]))?.name
}

/** What each seller holds now (distributed, not returned): fractions per series and number, in order. */
export async function heldBySeller(
  tx: Sql,
  drawId: string,
): Promise<Array<{ sellerId: string; series: number; number: number; fractions: number }>> {
  const rows = await tx.all<{ seller_id: string; series: number; number: number; n: number }>(
    "SELECT seller_id, series, number, COUNT(*) AS n FROM lottery_fractions WHERE draw_id = ? AND status = 'distributed' GROUP BY seller_id, series, number ORDER BY seller_id, series, number",
    [drawId],
  )
  return rows.map((r) => ({
    sellerId: r.seller_id,
    series: Number(r.series),
    number: Number(r.number),
    fractions: Number(r.n),
  }))
}

/** Counts of the register by seller and state (a fraction returned keeps the seller it was distributed to). */
export async function registerCounts(
  tx: Sql,
  drawId: string,
): Promise<
  Array<{ sellerId: string | null; sellerName: string | null; status: Fraction['status']; fractions: number }>
> {
  const rows = await tx.all<{
    seller_id: string | null
    seller_name: string | null
    status: Fraction['status']
    n: number | string
  }>(
    'SELECT seller_id, seller_name, status, COUNT(*) AS n FROM lottery_fractions WHERE draw_id = ? GROUP BY seller_id, seller_name, status ORDER BY seller_id, status',
    [drawId],
  )
  return rows.map((r) => ({
    sellerId: r.seller_id,
    sellerName: r.seller_name,
    status: r.status,
    fractions: Number(r.n),
  }))
}

/** Every enrolled, not revoked kiosk and cashier station, with its hall's name: who may receive fractions to sell. */
export async function activeSellers(
  tx: Sql,
): Promise<Array<{ id: string; name: string; kind: string; hallName: string | null }>> {
  const rows = await tx.all<{ id: string; name: string; kind: string; hall_name: string | null }>(
    "SELECT d.id, d.name, d.kind, h.name AS hall_name FROM device_credentials d LEFT JOIN halls h ON h.id = d.hall_id WHERE d.revoked_at IS NULL AND d.kind IN ('kiosk', 'cashier_station') ORDER BY h.name, d.name",
  )
  return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, hallName: r.hall_name }))
}

/** An enrolled, not revoked kiosk or cashier station that may receive fractions to sell. */
export function activeSellerDevice(
  tx: Sql,
  deviceId: string,
): Promise<{ id: string; name: string; kind: string } | undefined> {
  return tx.get(
    "SELECT id, name, kind FROM device_credentials WHERE id = ? AND revoked_at IS NULL AND kind IN ('kiosk', 'cashier_station')",
    [deviceId],
  )
}

/** LOT-28: the territory on record (halls.settings) of the hall a seller device belongs to; null when none. */
export async function sellerHallTerritory(
  tx: Sql,
  deviceId: string,
): Promise<{ hallId: string | null; territory: string | null }> {
  const row = await tx.get<{ hall_id: string | null; settings: string | null }>(
    'SELECT d.hall_id, h.settings FROM device_credentials d LEFT JOIN halls h ON h.id = d.hall_id WHERE d.id = ?',
    [deviceId],
  )
  const t = row?.settings ? (JSON.parse(row.settings) as { territory?: unknown }).territory : null
  return { hallId: row?.hall_id ?? null, territory: typeof t === 'string' && t ? t : null }
}
