/**
 * Halls: their rows and summaries, settings, plans (BNG-52, CFG-17, CFG-34), unpaid prizes (BNG-71) and closure (BNG-65).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'

/** A `halls` row as stored. */
export interface HallRow {
  id: string
  name: string
  profile_id: string
  currency: string
  playing_positions: number | string
  settings: string
  created_at: string
}

/** A hall as the use cases read it; `settings` is its JSON text (time zone, territory, plan options). */
export interface Hall {
  id: string
  name: string
  profileId: string
  currency: string
  playingPositions: number
  settings: string
  createdAt: string
}

export function toHall(r: HallRow): Hall {
  return {
    id: r.id,
    name: r.name,
    profileId: r.profile_id,
    currency: r.currency,
    playingPositions: Number(r.playing_positions),
    settings: r.settings,
    createdAt: r.created_at,
  }
}

/** The hall as the API has always answered it (its column names): what POST /halls returns. */
export function hallAnswer(h: Hall): HallRow {
  return {
    id: h.id,
    name: h.name,
    profile_id: h.profileId,
    currency: h.currency,
    playing_positions: h.playingPositions,
    settings: h.settings,
    created_at: h.createdAt,
  }
}

/** A hall as the API lists it (camelCase columns). */
export interface HallSummary {
  id: string
  name: string
  profileId: string
  currency: string
  playingPositions: number
  settings?: string
}

/** A series as a hall's page lists it (camelCase columns). */
export interface HallSeriesSummary {
  id: string
  code: string
  cardCount: number
  faceValueCents: number
  nextCardNo: number
}

export async function hallById(sql: Sql, hallId: string): Promise<Hall | undefined> {
  const row = await sql.get<HallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
  return row && toHall(row)
}

export async function hallExists(sql: Sql, hallId: string): Promise<boolean> {
  return (await sql.get('SELECT id FROM halls WHERE id = ?', [hallId])) !== undefined
}

/** Issue 17: a hall's profile and settings, for the zone its minutes print. */
export function hallProfileSettings(
  sql: Sql,
  hallId: string,
): Promise<Pick<Hall, 'profileId' | 'settings'> | undefined> {
  return sql.get<Pick<Hall, 'profileId' | 'settings'>>(
    'SELECT profile_id AS "profileId", settings FROM halls WHERE id = ?',
    [hallId],
  )
}

export async function hallCurrency(sql: Sql, hallId: string): Promise<string | undefined> {
  return (await sql.get<{ currency: string }>('SELECT currency FROM halls WHERE id = ?', [hallId]))?.currency
}

export async function insertHall(
  tx: Sql,
  h: {
    id: string
    name: string
    profileId: string
    currency: string
    playingPositions: number
    settings: string
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO halls (id, name, profile_id, currency, playing_positions, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [h.id, h.name, h.profileId, h.currency, h.playingPositions, h.settings, h.at],
  )
}

export function hallSummaries(sql: Sql): Promise<HallSummary[]> {
  return sql.all<HallSummary>(
    'SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions", settings FROM halls ORDER BY created_at',
  )
}

export function hallSummary(sql: Sql, hallId: string): Promise<HallSummary | undefined> {
  return sql.get<HallSummary>(
    'SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions", settings FROM halls WHERE id = ?',
    [hallId],
  )
}

/** Issue 17: replaces a hall's settings document (time zone, shares, instant sales). */
export async function updateHallSettings(tx: Sql, hallId: string, settingsJson: string): Promise<void> {
  await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [settingsJson, hallId])
}

export function seriesSummariesOfHall(sql: Sql, hallId: string): Promise<HallSeriesSummary[]> {
  return sql.all<HallSeriesSummary>(
    'SELECT id, code, card_count AS "cardCount", face_value_cents AS "faceValueCents", next_card_no AS "nextCardNo" FROM series WHERE hall_id = ? ORDER BY code',
    [hallId],
  )
}

/** The newest session of a hall that is not closed. */
export async function latestOpenSessionIdOfHall(sql: Sql, hallId: string): Promise<string | undefined> {
  return (
    await sql.get<{ id: string }>(
      "SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1",
      [hallId],
    )
  )?.id
}

/** The hall's newest game, whatever its status. */
export async function latestGameIdOfHall(sql: Sql, hallId: string): Promise<string | undefined> {
  return (
    await sql.get<{ id: string }>('SELECT id FROM games WHERE hall_id = ? ORDER BY created_at DESC LIMIT 1', [hallId])
  )?.id
}

export interface HallPlanRow {
  id: string
  hall_id: string
  kind: string
  version: number
  authorisation_ref: string | null
  body: string
  created_at: string
  created_by: string
}

export async function latestHallPlanVersion(sql: Sql, hallId: string, kind: string): Promise<number> {
  const r = await sql.get<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM hall_plans WHERE hall_id = ? AND kind = ?',
    [hallId, kind],
  )
  return Number(r?.v ?? 0)
}

export async function insertHallPlan(
  tx: Sql,
  p: {
    id: string
    hallId: string
    kind: string
    version: number
    authorisationRef: string | null
    body: string
    at: string
    createdBy: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_plans (id, hall_id, kind, version, authorisation_ref, body, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [p.id, p.hallId, p.kind, p.version, p.authorisationRef, p.body, p.at, p.createdBy],
  )
  touchRows(tx, 'hall_plans', [p.id])
}

export function hallPlans(sql: Sql, hallId: string): Promise<HallPlanRow[]> {
  return sql.all<HallPlanRow>('SELECT * FROM hall_plans WHERE hall_id = ? ORDER BY kind, version', [hallId])
}

export async function setHallSettings(tx: Sql, hallId: string, settings: string): Promise<void> {
  await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [settings, hallId])
}

export async function setHallPlayingPositions(tx: Sql, hallId: string, positions: number): Promise<void> {
  await tx.run('UPDATE halls SET playing_positions = ? WHERE id = ?', [positions, hallId])
}

/**
 * BNG-71: prizes (ordinary and bonus) awarded in a hall's finished games and not yet paid, that halt its next game:
 * not those whose card was recorded as not presented, nor those of a card held as evidence (unpayable while held;
 * an altered card's are forfeited, BNG-91/92).
 */
export async function unpaidPrizesOfHall(
  sql: Sql,
  hallId: string,
): Promise<{ count: number; amountCents: number; gameIds: string[] }> {
  const rows = await sql.all<{ game_id: string; amount_cents: number }>(
    `SELECT p.game_id, p.amount_cents FROM prizes p JOIN games g ON g.id = p.game_id WHERE g.hall_id = ? AND g.status = 'finished' AND p.status = 'awarded'
        AND p.not_presented_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM card_custody k WHERE k.card_id = p.card_id AND k.state = 'evidence')
     UNION ALL
     SELECT b.game_id, b.amount_cents FROM bonus_prizes b JOIN games g ON g.id = b.game_id WHERE b.hall_id = ? AND g.status = 'finished' AND b.status = 'awarded'
        AND b.not_presented_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM card_custody k WHERE k.card_id = b.card_id AND k.state = 'evidence')`,
    [hallId, hallId],
  )
  return {
    count: rows.length,
    amountCents: rows.reduce((t, r) => t + Number(r.amount_cents), 0),
    gameIds: [...new Set(rows.map((r) => r.game_id))],
  }
}

/** BNG-65: a hall closed for good, when and by whom, and the prima fund it handed over (to whom). */
export interface HallClosure {
  closedAt: string
  closedBy: string
  primaFundCents: number
  primaRecipient: string | null
}

export async function hallClosure(sql: Sql, hallId: string): Promise<HallClosure | undefined> {
  // PostgreSQL returns the BIGINT fund as text.
  const r = await sql.get<{
    closed_at: string
    closed_by: string
    prima_fund_cents: number | string
    prima_recipient: string | null
  }>('SELECT closed_at, closed_by, prima_fund_cents, prima_recipient FROM hall_closures WHERE hall_id = ?', [hallId])
  return (
    r && {
      closedAt: r.closed_at,
      closedBy: r.closed_by,
      primaFundCents: Number(r.prima_fund_cents),
      primaRecipient: r.prima_recipient,
    }
  )
}

export async function insertHallClosure(
  tx: Sql,
  c: {
    hallId: string
    at: string
    by: string
    witness: string
    reason: string
    primaFundCents: number
    primaRecipient: string | null
    handoverRef: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_closures (hall_id, closed_at, closed_by, witness, reason, prima_fund_cents, prima_recipient, handover_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [c.hallId, c.at, c.by, c.witness, c.reason, c.primaFundCents, c.primaRecipient, c.handoverRef],
  )
}
