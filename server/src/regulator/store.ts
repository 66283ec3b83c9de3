/** Issue 28: the control feed's SQL (regulator_records, regulator_batches; migration 0078), and the reads it derives from. */
import type { Sql } from '../db/database.ts'

export interface RecordRow {
  record_id: string
  chain: string
  n: number
  source_key: string
  hall_id: string | null
  type: string
  at: string
  created_at: string
  body: string
  batch_seq: number | null
}
export interface BatchRow {
  chain: string
  seq: number
  batch_id: string
  hall_id: string | null
  opened_at: string
  closed_at: string
  record_count: number
  prev_hash: string
  hash: string
  key_id: string
  signature: string
  content: string
}

export async function hasSourceKey(db: Sql, key: string): Promise<boolean> {
  return Boolean(await db.get('SELECT 1 AS x FROM regulator_records WHERE source_key = ?', [key]))
}

export async function lastRecordNo(db: Sql, chain: string): Promise<number> {
  return Number(
    (await db.get<{ n: number | null }>('SELECT MAX(n) AS n FROM regulator_records WHERE chain = ?', [chain]))?.n ?? 0,
  )
}

export async function insertRecord(tx: Sql, r: Omit<RecordRow, 'batch_seq'>): Promise<void> {
  await tx.run(
    'INSERT INTO regulator_records (record_id, chain, n, source_key, hall_id, type, at, created_at, body, batch_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)',
    [r.record_id, r.chain, r.n, r.source_key, r.hall_id, r.type, r.at, r.created_at, r.body],
  )
}

export function pendingRecords(db: Sql, chain: string, limit: number): Promise<RecordRow[]> {
  return db.all<RecordRow>('SELECT * FROM regulator_records WHERE chain = ? AND batch_seq IS NULL ORDER BY n LIMIT ?', [
    chain,
    limit,
  ])
}

export async function chainsWithPending(db: Sql): Promise<Array<{ chain: string; oldest: string; count: number }>> {
  const rows = await db.all<{ chain: string; oldest: string; count: number }>(
    'SELECT chain, MIN(created_at) AS oldest, COUNT(*) AS count FROM regulator_records WHERE batch_seq IS NULL GROUP BY chain ORDER BY chain',
  )
  return rows.map((r) => ({ chain: r.chain, oldest: r.oldest, count: Number(r.count) }))
}

export async function markBatched(tx: Sql, chain: string, fromN: number, toN: number, seq: number): Promise<void> {
  await tx.run(
    'UPDATE regulator_records SET batch_seq = ? WHERE chain = ? AND n >= ? AND n <= ? AND batch_seq IS NULL',
    [seq, chain, fromN, toN],
  )
}

export function lastBatch(db: Sql, chain: string): Promise<BatchRow | undefined> {
  return db.get<BatchRow>('SELECT * FROM regulator_batches WHERE chain = ? ORDER BY seq DESC LIMIT 1', [chain])
}

export async function insertBatch(tx: Sql, b: BatchRow): Promise<void> {
  await tx.run(
    'INSERT INTO regulator_batches (chain, seq, batch_id, hall_id, opened_at, closed_at, record_count, prev_hash, hash, key_id, signature, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      b.chain,
      b.seq,
      b.batch_id,
      b.hall_id,
      b.opened_at,
      b.closed_at,
      b.record_count,
      b.prev_hash,
      b.hash,
      b.key_id,
      b.signature,
      b.content,
    ],
  )
}

/** Closed batches of `chains` closed after `since` (ISO), oldest first. */
export function batchesSince(db: Sql, chains: readonly string[], since: string, limit: number): Promise<BatchRow[]> {
  if (chains.length === 0) return Promise.resolve([])
  return db.all<BatchRow>(
    `SELECT * FROM regulator_batches WHERE chain IN (${chains.map(() => '?').join(', ')}) AND closed_at > ? ORDER BY closed_at, chain, seq LIMIT ?`,
    [...chains, since, limit],
  )
}

export function allBatches(db: Sql): Promise<BatchRow[]> {
  return db.all<BatchRow>('SELECT * FROM regulator_batches ORDER BY chain, seq')
}

export function chainHeads(db: Sql): Promise<Array<{ chain: string; seq: number; hash: string; closed_at: string }>> {
  return db.all(
    'SELECT b.chain, b.seq, b.hash, b.closed_at FROM regulator_batches b WHERE b.seq = (SELECT MAX(seq) FROM regulator_batches x WHERE x.chain = b.chain) ORDER BY b.chain',
  )
}

/** Latest daily-totals records (by source key prefix), to write a correction when a day's totals change. */
export function recordsOfType(db: Sql, chain: string, type: string): Promise<RecordRow[]> {
  return db.all<RecordRow>('SELECT * FROM regulator_records WHERE chain = ? AND type = ? ORDER BY n', [chain, type])
}

export function allChains(db: Sql): Promise<Array<{ chain: string }>> {
  return db.all('SELECT DISTINCT chain FROM regulator_records ORDER BY chain')
}

/** Every card of a game as sold (serial, rows as JSON, status), for the close-of-sales part of its record. */
export function cardsOfGame(
  db: Sql,
  gameId: string,
): Promise<Array<{ serial: string; numbers: string; status: string; channel: string }>> {
  return db.all('SELECT serial, numbers, status, channel FROM cards WHERE game_id = ? ORDER BY serial', [gameId])
}

export function hallZoneRow(db: Sql, hallId: string): Promise<{ profile_id: string; settings: string } | undefined> {
  return db.get('SELECT profile_id, settings FROM halls WHERE id = ?', [hallId])
}

/** The payload of the last self-verification journaled (issue 28 point 5). */
export async function lastSelfVerification(db: Sql): Promise<string | undefined> {
  return (
    await db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'system.self_verified' ORDER BY seq DESC LIMIT 1",
    )
  )?.payload
}

/** The active slips of a lotto draw (receipt and boards as stored, "n-n-n n-n-n"), in receipt order: its close-of-sales file. */
export function playsOfLottoDraw(
  db: Sql,
  gameCode: string,
  drawNo: number,
): Promise<Array<{ id: string; boards: string }>> {
  return db.all(
    "SELECT id, boards FROM lotto_slips WHERE game_code = ? AND first_draw_no <= ? AND first_draw_no + draw_count > ? AND status = 'active' ORDER BY id",
    [gameCode, drawNo, drawNo],
  )
}

/** The ranges taken out of play of a lottery or raffle draw (returned, lost, stolen), as reported (LST-1 to LST-7). */
export async function lotteryRanges(db: Sql, drawId: string) {
  const rows = await db.all<{
    id: string
    kind: string
    from_number: number
    to_number: number
    series_from: number
    series_to: number
    quantity: number
    details: string
    created_at: string
    after_close: number
  }>('SELECT * FROM lottery_ranges WHERE draw_id = ? ORDER BY created_at, id', [drawId])
  return rows.map((r) => {
    const details = JSON.parse(r.details || '{}') as Record<string, unknown>
    return {
      kind: r.kind,
      from: Number(r.from_number),
      to: Number(r.to_number),
      seriesFrom: Number(r.series_from),
      seriesTo: Number(r.series_to),
      quantity: Number(r.quantity),
      afterClose: Number(r.after_close) === 1,
      designVersion: typeof details.designVersion === 'number' ? details.designVersion : 1,
      reportedAt: r.created_at,
      discoveredAt: typeof details.discoveredAt === 'string' ? details.discoveredAt : null,
      reportedToAjAt: typeof details.reportedToAjAt === 'string' ? details.reportedToAjAt : null,
    }
  })
}

/** The design a numbered lottery's papers are printed under now (1 before any reissue, LST-1 (a)). */
export async function lotteryDesignVersion(db: Sql, drawId: string): Promise<number> {
  const r = await db.get<{ v: number | null }>(
    'SELECT MAX(design_version) AS v FROM lottery_reissues WHERE draw_id = ?',
    [drawId],
  )
  return Number(r?.v ?? 1) || 1
}

/** The serials of a raffle's sold tickets, in byte order. */
export async function raffleSoldSerials(db: Sql, drawId: string): Promise<string[]> {
  return (
    await db.all<{ serial: string }>('SELECT serial FROM lottery_sales WHERE draw_id = ? ORDER BY serial', [drawId])
  ).map((r) => r.serial)
}

/** An instant game's design (its tiers' amounts), price and currency. */
export function instantBatchOfGame(
  db: Sql,
  gameNo: number,
): Promise<{ id: string; design: string; price_cents: number; currency: string } | undefined> {
  return db.get('SELECT id, design, price_cents, currency FROM instant_batches WHERE game_no = ?', [gameNo])
}

/** How many packs of an instant game are in each state. */
export async function instantPackStates(db: Sql, batchId: string): Promise<Record<string, number>> {
  const rows = await db.all<{ status: string; n: number }>(
    'SELECT status, COUNT(*) AS n FROM instant_packs WHERE batch_id = ? GROUP BY status ORDER BY status',
    [batchId],
  )
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
}

/** The payee's document of each instant payout (the prize register, INS-5), for its keyed reference. */
export async function instantPayeeDocuments(db: Sql, batchId: string): Promise<Map<string, string | null>> {
  const rows = await db.all<{ id: string; payee_document: string | null }>(
    'SELECT id, payee_document FROM instant_payouts WHERE batch_id = ?',
    [batchId],
  )
  return new Map(rows.map((r) => [r.id, r.payee_document]))
}

/** The record id of the record stored under a source key (what a later record replaces). */
export async function recordIdOfSourceKey(db: Sql, key: string): Promise<string | null> {
  return (
    (await db.get<{ record_id: string }>('SELECT record_id FROM regulator_records WHERE source_key = ?', [key]))
      ?.record_id ?? null
  )
}

/** A lotto draw's game, number and close of sales, for its close-of-sales document. */
export function lottoDrawHead(
  db: Sql,
  drawId: string,
): Promise<{ game_code: string; draw_no: number; closed_at: string | null } | undefined> {
  return db.get("SELECT game_code, draw_no, closed_at FROM lottery_draws WHERE id = ? AND product = 'lotto'", [drawId])
}

/** Every lotto draw whose sales have closed (its participation file is written), oldest close first. */
export function closedLottoDraws(db: Sql): Promise<Array<{ id: string }>> {
  return db.all(
    "SELECT id FROM lottery_draws WHERE product = 'lotto' AND participation_sha256 IS NOT NULL ORDER BY closed_at, id",
  )
}
