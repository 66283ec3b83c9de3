/**
 * Master sets of cards and the series sold from them, with their cursor (BNG-12).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'

/** A `series` row as stored (PostgreSQL returns its BIGINT face value as text). */
export interface SeriesRow {
  id: string
  hall_id: string
  code: string
  master_set_id: string
  card_count: number
  face_value_cents: number | string
  next_card_no: number
  last_sold_at: string | null
  created_at: string
}

/** A series of cards as the use cases read it: `nextCardNo` is its sales cursor (BNG-12). */
export interface Series {
  id: string
  hallId: string
  code: string
  masterSetId: string
  cardCount: number
  faceValueCents: number
  nextCardNo: number
  lastSoldAt: string | null
  createdAt: string
}

export function toSeries(r: SeriesRow): Series {
  return {
    id: r.id,
    hallId: r.hall_id,
    code: r.code,
    masterSetId: r.master_set_id,
    cardCount: Number(r.card_count),
    faceValueCents: Number(r.face_value_cents),
    nextCardNo: Number(r.next_card_no),
    lastSoldAt: r.last_sold_at ?? null,
    createdAt: r.created_at,
  }
}

/** The series as the API has always answered it (its column names): what POST /halls/:hallId/series returns. */
export function seriesAnswer(s: Series): SeriesRow {
  return {
    id: s.id,
    hall_id: s.hallId,
    code: s.code,
    master_set_id: s.masterSetId,
    card_count: s.cardCount,
    face_value_cents: s.faceValueCents,
    next_card_no: s.nextCardNo,
    last_sold_at: s.lastSoldAt,
    created_at: s.createdAt,
  }
}

export async function insertMasterSet(
  tx: Sql,
  s: { id: string; seed: string; cardCount: number; layout: string; at: string },
): Promise<void> {
  await tx.run('INSERT INTO master_sets (id, seed, card_count, layout, created_at) VALUES (?, ?, ?, ?, ?)', [
    s.id,
    s.seed,
    s.cardCount,
    s.layout,
    s.at,
  ])
}

/** Inserts a master set's cards, 200 to a statement. */
export async function insertMasterCards(
  tx: Sql,
  setId: string,
  cards: ReadonlyArray<{ cardNo: number; numbers: string; cardKey: string }>,
): Promise<void> {
  const chunk = 200
  for (let i = 0; i < cards.length; i += chunk) {
    const part = cards.slice(i, i + chunk)
    const params: unknown[] = []
    for (const c of part) params.push(setId, c.cardNo, c.numbers, c.cardKey)
    await tx.run(
      `INSERT INTO master_cards (set_id, card_no, numbers, card_key) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`,
      params,
    )
  }
}

export async function masterSetCardCount(tx: Sql, setId: string): Promise<number | undefined> {
  return (await tx.get<{ card_count: number }>('SELECT card_count FROM master_sets WHERE id = ?', [setId]))?.card_count
}

/** The set's card layout as stored (JSON text). */
export async function masterSetLayout(tx: Sql, setId: string): Promise<string | undefined> {
  return (await tx.get<{ layout: string }>('SELECT layout FROM master_sets WHERE id = ?', [setId]))?.layout
}

export function masterCardsInRange(
  tx: Sql,
  setId: string,
  from: number,
  to: number,
): Promise<Array<{ card_no: number; numbers: string; card_key: string }>> {
  return tx.all<{ card_no: number; numbers: string; card_key: string }>(
    'SELECT card_no, numbers, card_key FROM master_cards WHERE set_id = ? AND card_no >= ? AND card_no <= ? ORDER BY card_no',
    [setId, from, to],
  )
}

export async function insertSeries(
  tx: Sql,
  s: {
    id: string
    hallId: string
    code: string
    masterSetId: string
    cardCount: number
    faceValueCents: number
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO series (id, hall_id, code, master_set_id, card_count, face_value_cents, next_card_no, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
    [s.id, s.hallId, s.code, s.masterSetId, s.cardCount, s.faceValueCents, s.at],
  )
  touchRows(tx, 'series', [s.id])
}

export async function seriesById(tx: Sql, seriesId: string): Promise<Series | undefined> {
  const row = await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ?', [seriesId])
  return row && toSeries(row)
}

export async function seriesOfHall(tx: Sql, seriesId: string, hallId: string): Promise<Series | undefined> {
  const row = await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, hallId])
  return row && toSeries(row)
}

export async function seriesCode(sql: Sql, seriesId: string): Promise<string | undefined> {
  return (await sql.get<{ code: string }>('SELECT code FROM series WHERE id = ?', [seriesId]))?.code
}

/** Moves the cursor from `from` to `to` only if it still stands at `from`; returns whether it moved. */
export async function advanceSeriesCursor(
  tx: Sql,
  seriesId: string,
  from: number,
  to: number,
  at: string,
): Promise<boolean> {
  const moved = await tx.run('UPDATE series SET next_card_no = ?, last_sold_at = ? WHERE id = ? AND next_card_no = ?', [
    to,
    at,
    seriesId,
    from,
  ])
  return moved.changes === 1
}
