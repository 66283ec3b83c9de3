/**
 * Pots (progressive, interconnected) and their ledger, and the lucky ball (pots-service.ts, bonus-service.ts).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 *
 * Statement texts are kept as they were, since the SQLite engine caches prepared statements by text. Rows of the
 * core bingo tables (games, halls) are typed by the caller.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'
import type { Hall } from './halls.ts'

export type BonusPotKind = 'progressive' | 'interconnected' | 'lucky'

/** A `pots` row as stored (PostgreSQL returns its BIGINT columns as text). */
export interface PotRow {
  id: string
  name: string
  kind: BonusPotKind
  currency: string
  contribution_bp: number
  reserve_bp: number
  seed_cents: number | string
  max_cents: number | string | null
  conditions: string
  public_text: string
  status: string
  entries: number
  created_at: string
  /** RNG-20 / RNG-21 (migration 0055). */
  authorisation_ref: string | null
  commission_bp: number
}

/** A pot as the use cases read it: `conditions` is its condition as JSON, `publicText` what players are told. */
export interface Pot {
  id: string
  name: string
  kind: BonusPotKind
  currency: string
  contributionBp: number
  reserveBp: number
  seedCents: number
  maxCents: number | null
  conditions: string
  publicText: string
  status: string
  entries: number
  createdAt: string
  authorisationRef: string | null
  commissionBp: number
}

export function toPot(r: PotRow): Pot {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    currency: r.currency,
    contributionBp: Number(r.contribution_bp),
    reserveBp: Number(r.reserve_bp),
    seedCents: Number(r.seed_cents),
    maxCents: r.max_cents === null || r.max_cents === undefined ? null : Number(r.max_cents),
    conditions: r.conditions,
    publicText: r.public_text,
    status: r.status,
    entries: Number(r.entries),
    createdAt: r.created_at,
    authorisationRef: r.authorisation_ref ?? null,
    commissionBp: Number(r.commission_bp ?? 0),
  }
}

/** The pot as the API has always answered its creation (its column names): what POST /api/pots returns. */
export function potAnswer(p: Pot): PotRow {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    currency: p.currency,
    contribution_bp: p.contributionBp,
    reserve_bp: p.reserveBp,
    seed_cents: p.seedCents,
    max_cents: p.maxCents,
    conditions: p.conditions,
    public_text: p.publicText,
    status: p.status,
    entries: p.entries,
    created_at: p.createdAt,
    authorisation_ref: p.authorisationRef,
    commission_bp: p.commissionBp,
  }
}

export type PotLedgerKind =
  'seed' | 'contribution' | 'award' | 'reserve_transfer' | 'payment' | 'reversal' | 'award_reversal'

export interface PotLedgerEntry {
  entryNo: number
  kind: string
  gameId: string | null
  hallId: string | null
  prizeId: string | null
  mainCents: number
  reserveCents: number
  detail: unknown
  at: string
}

/** A `lucky_draws` row as stored (`numbers` is JSON text). */
interface LuckyDrawRow {
  game_id: string
  commitment: string
  seed_hex: string
  number_count: number
  numbers: string | null
  created_at: string
  drawn_at: string | null
  /** Issue 15: the sealed seed (older rows have it in `seed_hex`), the derivation used and, for v2, the beacon round (JSON). */
  seed_sealed?: string | null
  version?: string | null
  beacon?: string | null
}

/**
 * A game's lucky-ball draw (RNG-28) as the use cases read it: `numbers` null until drawn; the seed sealed in
 * `seedSealed` (rows written before sealing have it in clear in `seedHex`); `beacon` the v2 round as JSON.
 */
export interface LuckyDraw {
  gameId: string
  commitment: string
  seedHex: string
  seedSealed: string | null
  numberCount: number
  numbers: number[] | null
  createdAt: string
  drawnAt: string | null
  version: string | null
  beacon: string | null
}

function toLuckyDraw(r: LuckyDrawRow): LuckyDraw {
  return {
    gameId: r.game_id,
    commitment: r.commitment,
    seedHex: r.seed_hex,
    seedSealed: r.seed_sealed ?? null,
    numberCount: Number(r.number_count),
    numbers: r.numbers ? (JSON.parse(r.numbers) as number[]) : null,
    createdAt: r.created_at,
    drawnAt: r.drawn_at,
    version: r.version ?? null,
    beacon: r.beacon ?? null,
  }
}

export async function potBalance(tx: Sql, potId: string): Promise<{ mainCents: number; reserveCents: number }> {
  const r = await tx.get<{ m: number | string | null; r: number | string | null }>(
    'SELECT SUM(main_cents) AS m, SUM(reserve_cents) AS r FROM pot_ledger WHERE pot_id = ?',
    [potId],
  )
  return { mainCents: Number(r?.m ?? 0), reserveCents: Number(r?.r ?? 0) }
}

/**
 * RNG-17 ("el monto actualizado del pozo ... su incremento"): what the latest game's sales put into the main pot (its
 * contribution entries, every hall of the pot); null before any game has funded it, and from its award until the
 * next game funds it again (the amount then starts from the reserve, not from that increment).
 */
export async function lastPotIncrement(tx: Sql, potId: string): Promise<number | null> {
  const r = await tx.get<{ m: number | string | null }>(
    "SELECT SUM(main_cents) AS m FROM pot_ledger WHERE pot_id = ? AND kind = 'contribution' AND game_id = (SELECT game_id FROM pot_ledger WHERE pot_id = ? AND kind = 'contribution' ORDER BY entry_no DESC LIMIT 1) AND entry_no > COALESCE((SELECT MAX(entry_no) FROM pot_ledger WHERE pot_id = ? AND kind = 'award'), 0)",
    [potId, potId, potId],
  )
  return r?.m === null || r?.m === undefined ? null : Number(r.m)
}

/** Appends one movement to a pot's ledger (entry numbers 1, 2, 3, ... per pot). */
export async function appendPotLedgerEntry(
  tx: Sql,
  potId: string,
  e: {
    kind: PotLedgerKind
    gameId?: string
    hallId?: string
    prizeId?: string
    mainCents: number
    reserveCents: number
    detail?: unknown
    at: string
  },
): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM pots WHERE id = ?', [potId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run(
    'INSERT INTO pot_ledger (pot_id, entry_no, kind, game_id, hall_id, prize_id, main_cents, reserve_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      potId,
      entryNo,
      e.kind,
      e.gameId ?? '',
      e.hallId ?? '',
      e.prizeId ?? '',
      e.mainCents,
      e.reserveCents,
      JSON.stringify(e.detail ?? {}),
      e.at,
    ],
  )
  touchRows(tx, 'pot_ledger', [`${potId}|${entryNo}`])
  await tx.run('UPDATE pots SET entries = ? WHERE id = ?', [entryNo, potId])
}

export async function potLedgerEntries(tx: Sql, potId: string): Promise<PotLedgerEntry[]> {
  const rows = await tx.all<{
    entry_no: number
    kind: string
    game_id: string
    hall_id: string
    prize_id: string
    main_cents: number
    reserve_cents: number
    detail: string
    created_at: string
  }>('SELECT * FROM pot_ledger WHERE pot_id = ? ORDER BY entry_no', [potId])
  return rows.map((r) => ({
    entryNo: Number(r.entry_no),
    kind: r.kind,
    gameId: r.game_id || null,
    hallId: r.hall_id || null,
    prizeId: r.prize_id || null,
    mainCents: Number(r.main_cents),
    reserveCents: Number(r.reserve_cents),
    detail: JSON.parse(r.detail),
    at: r.created_at,
  }))
}

/** A hall a new pot is created for, with its currency. */
export function potCandidateHall(
  tx: Sql,
  hallId: string,
): Promise<Pick<Hall, 'id' | 'currency' | 'profileId'> | undefined> {
  return tx.get<Pick<Hall, 'id' | 'currency' | 'profileId'>>(
    'SELECT id, currency, profile_id AS "profileId" FROM halls WHERE id = ?',
    [hallId],
  )
}

/** The currency of a hall joining an existing pot. */
export function potJoiningHall(tx: Sql, hallId: string): Promise<Pick<Hall, 'currency' | 'profileId'> | undefined> {
  return tx.get<Pick<Hall, 'currency' | 'profileId'>>(
    'SELECT currency, profile_id AS "profileId" FROM halls WHERE id = ?',
    [hallId],
  )
}

export async function insertPot(
  tx: Sql,
  p: {
    id: string
    name: string
    kind: string
    currency: string
    contributionBp: number
    reserveBp: number
    seedCents: number
    maxCents: number | null
    conditionJson: string
    publicText: string
    status: string
    at: string
    authorisationRef: string | null
    commissionBp: number
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO pots (id, name, kind, currency, contribution_bp, reserve_bp, seed_cents, max_cents, conditions, public_text, status, entries, created_at, authorisation_ref, commission_bp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)',
    [
      p.id,
      p.name,
      p.kind,
      p.currency,
      p.contributionBp,
      p.reserveBp,
      p.seedCents,
      p.maxCents,
      p.conditionJson,
      p.publicText,
      p.status,
      p.at,
      p.authorisationRef,
      p.commissionBp,
    ],
  )
}

export async function insertPotHall(tx: Sql, potId: string, hallId: string, at: string): Promise<void> {
  await tx.run('INSERT INTO pot_halls (pot_id, hall_id, joined_at) VALUES (?, ?, ?)', [potId, hallId, at])
}

export async function potById(tx: Sql, potId: string): Promise<Pot | undefined> {
  const row = await tx.get<PotRow>('SELECT * FROM pots WHERE id = ?', [potId])
  return row && toPot(row)
}

export async function hallIdsOfPot(tx: Sql, potId: string): Promise<string[]> {
  return (
    await tx.all<{ hall_id: string }>('SELECT hall_id FROM pot_halls WHERE pot_id = ? ORDER BY hall_id', [potId])
  ).map((h) => h.hall_id)
}

/** Whether a hall takes part in a pot with another hall (an interconnected pot, BNG-66), whatever its status. */
export async function hallSharesAPot(tx: Sql, hallId: string): Promise<boolean> {
  return Boolean(
    await tx.get(
      'SELECT 1 AS one FROM pot_halls a JOIN pot_halls b ON b.pot_id = a.pot_id AND b.hall_id <> a.hall_id WHERE a.hall_id = ? LIMIT 1',
      [hallId],
    ),
  )
}

/** Every hall that takes part in some pot. */
export async function hallIdsWithPots(tx: Sql): Promise<string[]> {
  return (await tx.all<{ hall_id: string }>('SELECT DISTINCT hall_id FROM pot_halls')).map((r) => r.hall_id)
}

/** Active pots that any of `hallIds` takes part in, with all their halls. */
export async function activePotsOfHalls(
  tx: Sql,
  hallIds: readonly string[],
): Promise<Array<Pot & { hallIds: string[] }>> {
  if (hallIds.length === 0) return []
  const rows = await tx.all<PotRow & { hall_id: string }>(
    `SELECT p.*, ph.hall_id FROM pots p JOIN pot_halls ph ON ph.pot_id = p.id WHERE p.status = 'active' AND p.id IN (SELECT pot_id FROM pot_halls WHERE hall_id IN (${hallIds.map(() => '?').join(', ')})) ORDER BY p.created_at, p.id, ph.hall_id`,
    [...hallIds],
  )
  const out = new Map<string, Pot & { hallIds: string[] }>()
  for (const r of rows) {
    const p = out.get(r.id) ?? { ...toPot(r), hallIds: [] }
    p.hallIds.push(r.hall_id)
    out.set(r.id, p)
  }
  return [...out.values()]
}

export async function potContributionsOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ potId: string; hallId: string; mainCents: number; reserveCents: number }>> {
  return (
    await tx.all<{ pot_id: string; hall_id: string; main_cents: number | string; reserve_cents: number | string }>(
      "SELECT pot_id, hall_id, main_cents, reserve_cents FROM pot_ledger WHERE game_id = ? AND kind = 'contribution'",
      [gameId],
    )
  ).map((r) => ({
    potId: r.pot_id,
    hallId: r.hall_id,
    mainCents: Number(r.main_cents),
    reserveCents: Number(r.reserve_cents),
  }))
}

/** Games that contributed to a pot since its last award in another game (the accumulated games of BNG-69). */
export async function potGamesSinceLastAward(tx: Sql, potId: string, gameId: string): Promise<number> {
  const cycle = await tx.get<{ n: number }>(
    "SELECT COUNT(DISTINCT game_id) AS n FROM pot_ledger WHERE pot_id = ? AND kind = 'contribution' AND entry_no > COALESCE((SELECT MAX(entry_no) FROM pot_ledger WHERE pot_id = ? AND kind = 'award' AND game_id <> ?), 0)",
    [potId, potId, gameId],
  )
  return Number(cycle?.n ?? 0)
}

export async function luckyDrawByGame(tx: Sql, gameId: string): Promise<LuckyDraw | undefined> {
  const row = await tx.get<LuckyDrawRow>('SELECT * FROM lucky_draws WHERE game_id = ?', [gameId])
  return row && toLuckyDraw(row)
}

export async function luckyNumberCount(tx: Sql, gameId: string): Promise<number | undefined> {
  const r = await tx.get<{ number_count: number }>('SELECT number_count FROM lucky_draws WHERE game_id = ?', [gameId])
  return r ? Number(r.number_count) : undefined
}

/** Raises the count of lucky numbers while they are not drawn yet. */
export async function raiseLuckyNumberCount(tx: Sql, gameId: string, count: number): Promise<void> {
  await tx.run('UPDATE lucky_draws SET number_count = ? WHERE game_id = ? AND numbers IS NULL', [count, gameId])
}

/** A new lucky-ball draw: its seed only sealed (`seed_hex` is left empty). */
export async function insertLuckyDraw(
  tx: Sql,
  d: { gameId: string; commitment: string; seedSealed: string; count: number; at: string },
): Promise<void> {
  await tx.run(
    "INSERT INTO lucky_draws (game_id, commitment, seed_hex, seed_sealed, number_count, created_at) VALUES (?, ?, '', ?, ?, ?)",
    [d.gameId, d.commitment, d.seedSealed, d.count, d.at],
  )
}

export async function setLuckyNumbers(
  tx: Sql,
  gameId: string,
  numbers: number[],
  at: string,
  version: string,
  beacon: string | null = null,
): Promise<void> {
  await tx.run('UPDATE lucky_draws SET numbers = ?, drawn_at = ?, version = ?, beacon = ? WHERE game_id = ?', [
    JSON.stringify(numbers),
    at,
    version,
    beacon,
    gameId,
  ])
}

/** The game's drawn lucky numbers; null before close of sales or without a lucky ball. */
export async function luckyNumbersOfGame(tx: Sql, gameId: string): Promise<number[] | null> {
  const lucky = await tx.get<{ numbers: string | null }>('SELECT numbers FROM lucky_draws WHERE game_id = ?', [gameId])
  return lucky?.numbers ? JSON.parse(lucky.numbers) : null
}

export async function luckyCommitmentOfGame(
  tx: Sql,
  gameId: string,
): Promise<{ commitment: string; numbers: number[] | null } | undefined> {
  const r = await tx.get<{ commitment: string; numbers: string | null }>(
    'SELECT commitment, numbers FROM lucky_draws WHERE game_id = ?',
    [gameId],
  )
  return r && { commitment: r.commitment, numbers: r.numbers ? (JSON.parse(r.numbers) as number[]) : null }
}
