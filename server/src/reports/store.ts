/**
 * All the SQL of the back office's read models (issue 17): sales and prizes of every product by day and game, the
 * draws of a ball set, and the list of master sets. Reads only; times are ISO strings, so a day is its first ten
 * characters and a range is a plain string comparison on both engines.
 */
import type { Sql } from '../db/database.ts'

export interface FigureRow {
  day: string
  game_key: string
  label: string
  game_no: number | string | null
  currency: string
  cents: number | string
  plan: string | null
}

/** Bingo cards sold (refunded cards of an annulled game count as no sale). */
export function bingoSales(sql: Sql, from: string, to: string, hallId?: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(c.sold_at, 1, 10) AS day, g.id AS game_key, h.name AS label, g.order_no AS game_no, h.currency AS currency,
            SUM(g.face_value_cents) AS cents, CAST(g.line_bp + g.bingo_bp AS TEXT) AS plan
       FROM cards c JOIN games g ON g.id = c.game_id JOIN halls h ON h.id = g.hall_id
      WHERE c.sold_at >= ? AND c.sold_at < ? AND c.status = 'sold' AND (? = '' OR g.hall_id = ?)
      GROUP BY substr(c.sold_at, 1, 10), g.id, h.name, g.order_no, h.currency, g.line_bp, g.bingo_bp`,
    [from, to, hallId ?? '', hallId ?? ''],
  )
}

/** Bingo prizes awarded (void prizes of an annulled game excluded). */
export function bingoPrizes(sql: Sql, from: string, to: string, hallId?: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(p.awarded_at, 1, 10) AS day, g.id AS game_key, h.name AS label, g.order_no AS game_no, h.currency AS currency,
            SUM(p.amount_cents) AS cents, CAST(g.line_bp + g.bingo_bp AS TEXT) AS plan
       FROM prizes p JOIN games g ON g.id = p.game_id JOIN halls h ON h.id = g.hall_id
      WHERE p.awarded_at >= ? AND p.awarded_at < ? AND p.status <> 'void' AND (? = '' OR g.hall_id = ?)
      GROUP BY substr(p.awarded_at, 1, 10), g.id, h.name, g.order_no, h.currency, g.line_bp, g.bingo_bp`,
    [from, to, hallId ?? '', hallId ?? ''],
  )
}

/** Lotto slips in play, counted on the draw they start with. */
export function lottoSales(sql: Sql, from: string, to: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(s.sold_at, 1, 10) AS day, d.id AS game_key, d.game_code AS label, d.draw_no AS game_no, d.currency AS currency,
            SUM(s.amount_cents) AS cents, d.plan AS plan
       FROM lotto_slips s JOIN lottery_draws d ON d.product = 'lotto' AND d.game_code = s.game_code AND d.draw_no = s.first_draw_no
      WHERE s.sold_at >= ? AND s.sold_at < ? AND s.status = 'active'
      GROUP BY substr(s.sold_at, 1, 10), d.id, d.game_code, d.draw_no, d.currency, d.plan`,
    [from, to],
  )
}

/** Lotto prizes won, on the day of the draw. */
export function lottoPrizes(sql: Sql, from: string, to: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(d.drawn_at, 1, 10) AS day, d.id AS game_key, d.game_code AS label, d.draw_no AS game_no, d.currency AS currency,
            SUM(w.amount_cents) AS cents, d.plan AS plan
       FROM lotto_wins w JOIN lottery_draws d ON d.id = w.draw_id
      WHERE d.drawn_at >= ? AND d.drawn_at < ?
      GROUP BY substr(d.drawn_at, 1, 10), d.id, d.game_code, d.draw_no, d.currency, d.plan`,
    [from, to],
  )
}

/** Numbered lottery and raffle tickets sold (product in `label` prefix: the caller splits them). */
export function lotterySales(sql: Sql, from: string, to: string): Promise<Array<FigureRow & { product: string }>> {
  return sql.all(
    `SELECT substr(ls.sold_at, 1, 10) AS day, d.id AS game_key, d.game_code AS label, d.draw_no AS game_no, d.currency AS currency,
            SUM(d.price_cents) AS cents, d.plan AS plan, d.product AS product
       FROM lottery_sales ls JOIN lottery_draws d ON d.id = ls.draw_id
      WHERE ls.sold_at >= ? AND ls.sold_at < ? AND d.product IN ('lottery', 'raffle')
      GROUP BY substr(ls.sold_at, 1, 10), d.id, d.game_code, d.draw_no, d.currency, d.plan, d.product`,
    [from, to],
  )
}

/** Numbered lottery and raffle prizes paid. */
export function lotteryPrizes(sql: Sql, from: string, to: string): Promise<Array<FigureRow & { product: string }>> {
  return sql.all(
    `SELECT substr(p.paid_at, 1, 10) AS day, d.id AS game_key, d.game_code AS label, d.draw_no AS game_no, d.currency AS currency,
            SUM(p.amount_cents) AS cents, d.plan AS plan, d.product AS product
       FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id
      WHERE p.paid_at >= ? AND p.paid_at < ? AND d.product IN ('lottery', 'raffle')
      GROUP BY substr(p.paid_at, 1, 10), d.id, d.game_code, d.draw_no, d.currency, d.plan, d.product`,
    [from, to],
  )
}

/** Instant tickets sold. */
export function instantSales(sql: Sql, from: string, to: string, hallId?: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(s.sold_at, 1, 10) AS day, b.id AS game_key, b.name AS label, b.game_no AS game_no, b.currency AS currency,
            SUM(s.price_cents) AS cents, b.design AS plan
       FROM instant_sales s JOIN instant_batches b ON b.id = s.batch_id
      WHERE s.sold_at >= ? AND s.sold_at < ? AND (? = '' OR s.hall_id = ?)
      GROUP BY substr(s.sold_at, 1, 10), b.id, b.name, b.game_no, b.currency, b.design`,
    [from, to, hallId ?? '', hallId ?? ''],
  )
}

/** Instant prizes paid (misprint refunds are not prizes). */
export function instantPrizes(sql: Sql, from: string, to: string): Promise<FigureRow[]> {
  return sql.all<FigureRow>(
    `SELECT substr(p.paid_at, 1, 10) AS day, b.id AS game_key, b.name AS label, b.game_no AS game_no, b.currency AS currency,
            SUM(p.amount_cents) AS cents, b.design AS plan
       FROM instant_payouts p JOIN instant_batches b ON b.id = p.batch_id
      WHERE p.paid_at >= ? AND p.paid_at < ? AND p.kind = 'prize'
      GROUP BY substr(p.paid_at, 1, 10), b.id, b.name, b.game_no, b.currency, b.design`,
    [from, to],
  )
}

export interface DrawerRow {
  station_name: string
  cashier_name: string
  currency: string
  status: string
  opened_at: string
  closed_at: string | null
  float_cents: number | string
  in_cents: number | string | null
  out_cents: number | string | null
  expected_cents: number | string | null
  counted_cents: number | string | null
  difference_cents: number | string | null
}

/** Cashier shifts opened in the range with the cash that came in and went out of each drawer (issue 17 point 2). */
export function drawerShifts(sql: Sql, from: string, to: string, hallId?: string): Promise<DrawerRow[]> {
  return sql.all<DrawerRow>(
    `SELECT s.station_name, s.cashier_name, s.currency, s.status, s.opened_at, s.closed_at, s.float_cents,
            s.expected_cents, s.counted_cents, s.difference_cents,
            (SELECT SUM(m.amount_cents) FROM cash_movements m WHERE m.shift_id = s.id AND m.amount_cents > 0) AS in_cents,
            (SELECT -SUM(m.amount_cents) FROM cash_movements m WHERE m.shift_id = s.id AND m.amount_cents < 0) AS out_cents
       FROM cashier_shifts s
      WHERE s.opened_at >= ? AND s.opened_at < ? AND (? = '' OR s.hall_id = ?)
      ORDER BY s.opened_at, s.id LIMIT 200`,
    [from, to, hallId ?? '', hallId ?? ''],
  )
}

export interface BallSetInfo {
  id: string
  hall_id: string
  label: string
  ball_count: number | string
  games_played: number | string
  status: string
}

export function ballSetInfo(sql: Sql, setId: string): Promise<BallSetInfo | undefined> {
  return sql.get<BallSetInfo>(
    'SELECT id, hall_id, label, ball_count, games_played, status FROM ball_sets WHERE id = ?',
    [setId],
  )
}

/** How often each ball came out in the games played with a set (BNG-24). */
export function ballCountsOfSet(
  sql: Sql,
  setId: string,
): Promise<Array<{ ball: number | string; n: number | string }>> {
  return sql.all(
    `SELECT b.ball AS ball, COUNT(*) AS n FROM balls b JOIN ball_set_games bg ON bg.game_id = b.game_id
      WHERE bg.ball_set_id = ? GROUP BY b.ball ORDER BY b.ball`,
    [setId],
  )
}

export async function gamesOfSet(sql: Sql, setId: string): Promise<number> {
  const row = await sql.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM ball_set_games WHERE ball_set_id = ?', [
    setId,
  ])
  return Number(row?.n ?? 0)
}

export function masterSetRows(
  sql: Sql,
): Promise<Array<{ id: string; card_count: number | string; created_at: string; series_count: number | string }>> {
  return sql.all(
    `SELECT m.id, m.card_count, m.created_at, (SELECT COUNT(*) FROM series s WHERE s.master_set_id = m.id) AS series_count
       FROM master_sets m ORDER BY m.created_at DESC LIMIT 200`,
    [],
  )
}

/** A hall's settings document and profile, for the zone its report is printed in (issue 17 point 4). */
export function hallZoneRow(
  db: Sql,
  hallId: string,
): Promise<{ settings: string | null; profile_id: string } | undefined> {
  return db.get<{ settings: string | null; profile_id: string }>(
    'SELECT settings, profile_id FROM halls WHERE id = ?',
    [hallId],
  )
}
