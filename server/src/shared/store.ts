/**
 * SQL of the shared kernel: the hash-chained journal, the multi-row INSERT the sale paths share, and the demo's
 * hall lookup. Every function takes the transaction (or connection) to run in as its first argument.
 */
import type { Database, Sql } from '../db/database.ts'
import { GLOBAL_LOCK } from '../db/scopes.ts'

// Journal append and read (journal.ts, journal-batch.ts)

/** A journal record as stored: `payload` is its JSON text; `chain` and `chain_seq` null before chains. */
export interface JournalRow {
  seq: number
  chain: string | null
  chain_seq: number | null
  at: string
  type: string
  scope: string
  payload: string
  prev_hash: string
  hash: string
  /**
   * Migration 0590: the voucher whose row this record sealed as spent (null on every other record). Not hashed: the
   * record's `rowSeals` (hashed) holds that voucher's seal, and verify-journal checks the two agree.
   */
  voucher_id?: string | null
}

/** Seq and hash of the newest journal record (the checkpoints' global position). */
export function lastJournalLink(tx: Sql): Promise<{ seq: number; hash: string } | undefined> {
  return tx.get<{ seq: number; hash: string }>('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1')
}

/** The head of a chain (its position and hash); `null`: the last record written before chains (its seq). */
export function chainHead(tx: Sql, chain: string | null): Promise<{ seq: number; hash: string } | undefined> {
  return chain === null
    ? tx.get<{ seq: number; hash: string }>(
        'SELECT seq, hash FROM journal WHERE chain IS NULL ORDER BY seq DESC LIMIT 1',
      )
    : tx.get<{ seq: number; hash: string }>(
        'SELECT chain_seq AS seq, hash FROM journal WHERE chain = ? ORDER BY chain_seq DESC LIMIT 1',
        [chain],
      )
}

/** Every chain's head (checkpoints join them), sorted by chain; the records written before chains are `operator`'s. */
export async function chainHeads(tx: Sql): Promise<Array<{ chain: string; seq: number; hash: string }>> {
  const rows = await tx.all<{ chain: string; seq: number; hash: string }>(
    'SELECT j.chain, j.chain_seq AS seq, j.hash FROM journal j JOIN (SELECT chain, MAX(chain_seq) AS m FROM journal WHERE chain IS NOT NULL GROUP BY chain) h ON h.chain = j.chain AND h.m = j.chain_seq',
  )
  const heads = rows.map((r) => ({ chain: r.chain, seq: Number(r.seq), hash: r.hash }))
  if (!heads.some((h) => h.chain === 'operator')) {
    const legacy = await chainHead(tx, null)
    if (legacy) heads.push({ chain: 'operator', seq: Number(legacy.seq), hash: legacy.hash })
  }
  return heads.sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : 0))
}

/**
 * The journal's last record and every chain's head, read in one statement (one snapshot on PostgreSQL, where other
 * chains' writers commit meanwhile): the last record is the head of its chain with the highest `seq`, since a chain's
 * records take their `seq` in chain order under that chain's lock. The records written before chains are
 * `operator`'s until the operator chain has a record of its own.
 */
export async function journalHeads(tx: Sql): Promise<{
  last: { seq: number; hash: string } | undefined
  chains: Array<{ chain: string; seq: number; hash: string }>
}> {
  const rows = await tx.all<{ chain: string | null; seq: number; jseq: number; hash: string }>(
    `SELECT j.chain, j.chain_seq AS seq, j.seq AS jseq, j.hash FROM journal j JOIN (SELECT chain, MAX(chain_seq) AS m FROM journal WHERE chain IS NOT NULL GROUP BY chain) h ON h.chain = j.chain AND h.m = j.chain_seq
     UNION ALL SELECT NULL, l.seq, l.seq, l.hash FROM (SELECT seq, hash FROM journal WHERE chain IS NULL ORDER BY seq DESC LIMIT 1) l`,
  )
  let last: { seq: number; hash: string } | undefined
  for (const r of rows) if (!last || Number(r.jseq) > last.seq) last = { seq: Number(r.jseq), hash: r.hash }
  const chains = rows
    .filter((r) => r.chain !== null)
    .map((r) => ({ chain: r.chain!, seq: Number(r.seq), hash: r.hash }))
  const legacy = rows.find((r) => r.chain === null)
  if (legacy && !chains.some((h) => h.chain === 'operator'))
    chains.push({ chain: 'operator', seq: Number(legacy.seq), hash: legacy.hash })
  return { last, chains: chains.sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : 0)) }
}

/** SQLite (one writer): the journal's last seq. */
export async function lastJournalSeq(tx: Sql): Promise<number | null> {
  return (await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal'))?.seq ?? null
}

/**
 * PostgreSQL: `count` values of the journal's sequence (migration 0511), with the head of `chain` when it is not
 * known yet (one round trip either way).
 */
export function nextJournalSeqs(
  tx: Sql,
  count: number,
  chain: string | null,
): Promise<Array<{ seq: number; chain_seq: number | null; hash: string | null }>> {
  if (chain === null)
    return tx.all("SELECT nextval('journal_seq') AS seq, NULL AS chain_seq, NULL AS hash FROM generate_series(1, ?)", [
      count,
    ])
  return tx.all(
    "SELECT nextval('journal_seq') AS seq, h.chain_seq, h.hash FROM generate_series(1, ?) g LEFT JOIN (SELECT chain_seq, hash FROM journal WHERE chain = ? ORDER BY chain_seq DESC LIMIT 1) h ON TRUE",
    [count, chain],
  )
}

/** Row seals written in the journal record's own statement (PostgreSQL); more go first in statements of their own. */
const SEALS_WITH_RECORD = 100

/**
 * `seals` (PostgreSQL only: a data-modifying WITH): the row seals this record carries, upserted by the same
 * statement, so both are written or neither.
 */
export async function insertJournalRow(tx: Sql, row: JournalRow, seals?: readonly unknown[][]): Promise<void> {
  let head = ''
  let sealParams: unknown[] = []
  if (seals && seals.length > 0) {
    const extra = seals.length - SEALS_WITH_RECORD
    if (extra > 0) await upsertRowSeals(tx, seals.slice(0, extra))
    const own = extra > 0 ? seals.slice(extra) : seals
    head = `WITH sealed AS (INSERT INTO row_seals (tbl, row_id, journal_seq, mac) VALUES ${own.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT (tbl, row_id) DO UPDATE SET journal_seq = excluded.journal_seq, mac = excluded.mac) `
    sealParams = own.flat()
  }
  await tx.run(
    head +
      'INSERT INTO journal (seq, chain, chain_seq, at, type, scope, payload, prev_hash, hash, voucher_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      ...sealParams,
      row.seq,
      row.chain,
      row.chain_seq,
      row.at,
      row.type,
      row.scope,
      row.payload,
      row.prev_hash,
      row.hash,
      row.voucher_id ?? null,
    ],
  )
}

/** Up to `limit` records after `after`, in order; with `scopePrefix`, only that scope and the scopes under it. */
export function journalRowsAfter(db: Sql, after: number, limit: number, scopePrefix?: string): Promise<JournalRow[]> {
  return scopePrefix
    ? db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? AND (scope = ? OR scope LIKE ?) ORDER BY seq LIMIT ?', [
        after,
        scopePrefix,
        `${scopePrefix}/%`,
        limit,
      ])
    : db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [after, limit])
}

/**
 * The highest seq below which no record can still appear. On PostgreSQL scoped transactions draw seqs from a sequence
 * side by side, so a lower seq may commit after a higher one has been read: a follower that pages by seq (the
 * regulator's feed) would pass over it for good. Every writer holds the global advisory lock (shared or exclusive)
 * from its BEGIN to its end (db/scopes.ts), so a transaction that drew a seq at or below the sequence's last value
 * `L` read here held that lock when `L` was read; the holders read after it include every such transaction still
 * open. Once they have all ended, every seq up to `L` is committed or rolled back, and every later record draws a
 * higher one. Only those transactions are waited for, without taking the lock: a reader no longer queues every hall's
 * writers behind it (an exclusive request waits for the shared holders, and every later writer waits behind it).
 * On SQLite (one writer, seq = max + 1) the newest record is already that.
 */
export async function committedJournalHorizon(db: Database): Promise<number> {
  const newest = async () =>
    Number((await db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal'))?.seq ?? 0)
  if (db.engine !== 'postgres') return newest()
  const last = await db.get<{ seq: number }>(
    'SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS seq FROM journal_seq',
  )
  const holding = (only?: string[]) =>
    db.all<{ vt: string }>(
      `SELECT DISTINCT virtualtransaction AS vt FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ${GLOBAL_LOCK} AND objsubid = 1 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())${only ? ' AND virtualtransaction = ANY(?)' : ''}`,
      only ? [only] : [],
    )
  let open = (await holding()).map((r) => r.vt)
  while (open.length > 0) {
    await new Promise((r) => setTimeout(r, 10))
    open = (await holding(open)).map((r) => r.vt)
  }
  return Math.max(Number(last?.seq ?? 0), await newest())
}

/** Appends ready-made records (seq, chain, chain_seq, at, type, scope, payload, prev_hash, hash values). */
export function insertJournalRows(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  return insertRows(
    tx,
    'journal',
    ['seq', 'chain', 'chain_seq', 'at', 'type', 'scope', 'payload', 'prev_hash', 'hash'],
    rows,
  )
}

/** Rows per INSERT statement: a few fixed sizes keep the prepared-statement cache small. */
const CHUNKS = [64, 16, 4, 1] as const

/** Inserts `rows` (each `columns.length` values) into `table` with as few statements as the chunk sizes allow. */
export async function insertRows(
  tx: Sql,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  let i = 0
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `
  const tuple = `(${columns.map(() => '?').join(', ')})`
  while (i < rows.length) {
    const size = CHUNKS.find((c) => c <= rows.length - i) ?? 1
    const params: unknown[] = []
    for (let j = i; j < i + size; j++) for (const v of rows[j]) params.push(v)
    await tx.run(head + Array.from({ length: size }, () => tuple).join(', '), params)
    i += size
  }
}

// Demo hall lookup (demo.ts)

/** The first hall created, if any. */
/** Issue 24 point 4: the payloads of the demo's `demo.seeded` records (the scopes its demo beacon may sign). */
export function demoSeededPayloads(db: Sql): Promise<Array<{ payload: string }>> {
  return db.all("SELECT payload FROM journal WHERE type = 'demo.seeded' ORDER BY seq")
}

export function oldestHall(db: Sql): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>('SELECT id FROM halls ORDER BY created_at LIMIT 1')
}

/** The newest session of a hall that is not closed. */
export function openSessionOfHall(db: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>(
    "SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1",
    [hallId],
  )
}

/** The newest game of a hall, whatever its status. */
export function latestGameOfHall(db: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>('SELECT id FROM games WHERE hall_id = ? ORDER BY created_at DESC LIMIT 1', [hallId])
}

// Journal pages for the HTTP edge (http/app.ts)

/** Up to `limit` journal records after sequence number `from`, in order, with their payloads parsed. */
export async function journalPage(
  sql: Sql,
  from: number,
  limit: number,
  upTo = Number.MAX_SAFE_INTEGER,
): Promise<Array<Record<string, unknown> & { payload: unknown }>> {
  const rows = await sql.all<Record<string, unknown>>(
    'SELECT * FROM journal WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
    [from, upTo, limit],
  )
  return rows.map((r) => ({ ...r, payload: JSON.parse(String(r.payload)) }))
}

// Signed journal checkpoints (checkpoint-service.ts; DESIGN.md "Journal")

export interface CheckpointRow {
  seq: number
  hash: string
  at: string
  key_id: string
  signature: string
  reason: string
  /** JSON of every chain's head ([{chain, seq, hash}]); null on a checkpoint signed before chains. */
  chains: string | null
}

/** Stores a checkpoint; a second one of the same head is not stored again. */
/**
 * False when a checkpoint of that record exists already. Checkpoints of two halls' chains may sign the same head at
 * once (neither holds the other's lock): the second insert is skipped, not an error.
 */
export async function insertCheckpoint(tx: Sql, c: CheckpointRow): Promise<boolean> {
  const r = await tx.run(
    'INSERT INTO journal_checkpoints (seq, hash, at, key_id, signature, reason, chains) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (seq) DO NOTHING',
    [c.seq, c.hash, c.at, c.key_id, c.signature, c.reason, c.chains],
  )
  return r.changes > 0
}

export function lastCheckpointRow(sql: Sql): Promise<CheckpointRow | undefined> {
  return sql.get<CheckpointRow>('SELECT * FROM journal_checkpoints ORDER BY seq DESC LIMIT 1')
}

/** Checkpoints in seq order, after `after`, at most `limit`. */
export function checkpointRows(sql: Sql, after: number, limit: number): Promise<CheckpointRow[]> {
  return sql.all<CheckpointRow>('SELECT * FROM journal_checkpoints WHERE seq > ? ORDER BY seq LIMIT ?', [after, limit])
}

/** Checkpoints signed between two instants (ISO 8601, inclusive), in seq order. */
export function checkpointRowsBetween(sql: Sql, from: string, to: string): Promise<CheckpointRow[]> {
  return sql.all<CheckpointRow>('SELECT * FROM journal_checkpoints WHERE at >= ? AND at <= ? ORDER BY seq', [from, to])
}

// Row seals (row-seals.ts, row-seal-database.ts, row-verify.ts; issue 24 point 1). `table` and `columns` are the
// sealed tables' own names from row-seals.ts, never input.

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/**
 * The SQL naming a row of a sealed table in `row_seals` (over the alias `t`): its `id`, or its key columns as text
 * joined with '|' (row-seals.ts SEAL_KEYS; an integer key is its decimal text, as String() writes it in JS).
 */
export function sealKeySql(keys: readonly string[]): string {
  return keys.map((k) => `CAST(t.${k} AS TEXT)`).join(" || '|' || ")
}

/** `t.k IN (...)`, or for a composite key one `(t.a = ? AND t.b = ?)` per row: the key's index answers each. */
function keysWhere(keys: readonly string[], ids: readonly string[]): { sql: string; params: unknown[] } {
  if (keys.length === 1) return { sql: `t.${keys[0]} IN (${marks(ids.length)})`, params: [...ids] }
  const params: unknown[] = []
  const one = `(${keys.map((k) => `t.${k} = ?`).join(' AND ')})`
  for (const id of ids) {
    const parts = id.split('|')
    // The last column takes the rest (a value holding '|' stays whole).
    params.push(...parts.slice(0, keys.length - 1), parts.slice(keys.length - 1).join('|'))
  }
  return { sql: `(${ids.map(() => one).join(' OR ')})`, params }
}

/** Names (row-seals.ts rowKeyOf) of the rows matching `where`. */
export async function rowIdsWhere(
  tx: Sql,
  table: string,
  keys: readonly string[],
  where: string,
  params: readonly unknown[],
): Promise<string[]> {
  return (await tx.all<{ k: string }>(`SELECT ${sealKeySql(keys)} AS k FROM ${table} t WHERE ${where}`, params)).map(
    (r) => String(r.k),
  )
}

/** The given columns of the rows with these names. */
export function rowsByIds(
  tx: Sql,
  table: string,
  columns: readonly string[],
  keys: readonly string[],
  ids: readonly string[],
): Promise<Array<Record<string, unknown>>> {
  const w = keysWhere(keys, ids)
  return tx.all<Record<string, unknown>>(
    `SELECT ${columns.map((c) => `t.${c}`).join(', ')} FROM ${table} t WHERE ${w.sql}`,
    w.params,
  )
}

/** Writes (or replaces) seals: rows of [table, rowId, journalSeq, mac]. */
export async function upsertRowSeals(tx: Sql, seals: readonly unknown[][]): Promise<void> {
  for (let i = 0; i < seals.length; i += 100) {
    const part = seals.slice(i, i + 100)
    await tx.run(
      `INSERT INTO row_seals (tbl, row_id, journal_seq, mac) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT (tbl, row_id) DO UPDATE SET journal_seq = excluded.journal_seq, mac = excluded.mac`,
      part.flat(),
    )
  }
}

/** The seals of these row names (a row that is gone may have left its seal). */
export function sealsOf(
  tx: Sql,
  table: string,
  ids: readonly string[],
): Promise<Array<{ row_id: string; journal_seq: number }>> {
  return tx.all<{ row_id: string; journal_seq: number }>(
    `SELECT row_id, journal_seq FROM row_seals WHERE tbl = ? AND row_id IN (${marks(ids.length)})`,
    [table, ...ids],
  )
}

function selectWithSeals(table: string, columns: readonly string[], keys: readonly string[]): string {
  return `SELECT ${columns.map((c) => `t.${c}`).join(', ')}, s.journal_seq AS seal_seq, s.mac AS seal_mac FROM ${table} t LEFT JOIN row_seals s ON s.tbl = '${table}' AND s.row_id = ${sealKeySql(keys)}`
}

/** Rows (with their seal: seal_seq, seal_mac) matching `where` over the alias `t`, or with these names. */
export function rowsWithSeals(
  tx: Sql,
  table: string,
  columns: readonly string[],
  keys: readonly string[],
  where: string | null,
  params: readonly unknown[],
  ids?: readonly string[],
): Promise<Array<Record<string, unknown>>> {
  const w = ids ? keysWhere(keys, ids) : { sql: where ?? 'TRUE', params: [...params] }
  return tx.all<Record<string, unknown>>(`${selectWithSeals(table, columns, keys)} WHERE ${w.sql}`, w.params)
}

/**
 * A page of a table's rows with their seals, in key order after `after` (the key columns' values of the last row
 * of the previous page); `scope` limits it to the rows that need a seal, and those that have one.
 */
export function rowsWithSealsAfter(
  db: Sql,
  table: string,
  columns: readonly string[],
  keys: readonly string[],
  scope: string | null,
  after: readonly unknown[] | null,
  limit: number,
): Promise<Array<Record<string, unknown>>> {
  const conds: string[] = []
  if (scope) conds.push(`(${scope} OR s.row_id IS NOT NULL)`)
  if (after)
    conds.push(
      keys.length === 1
        ? `t.${keys[0]} > ?`
        : `(${keys.map((k) => `t.${k}`).join(', ')}) > (${keys.map(() => '?').join(', ')})`,
    )
  return db.all<Record<string, unknown>>(
    `${selectWithSeals(table, columns, keys)}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${keys.map((k) => `t.${k}`).join(', ')} LIMIT ${Math.max(1, Math.floor(limit))}`,
    after ? [...after] : [],
  )
}

/** Names of the rows of a table (within `scope`) that have no seal. */
export async function unsealedIds(
  db: Sql,
  table: string,
  keys: readonly string[],
  scope: string | null,
): Promise<string[]> {
  return (
    await db.all<{ k: string }>(
      `SELECT ${sealKeySql(keys)} AS k FROM ${table} t LEFT JOIN row_seals s ON s.tbl = '${table}' AND s.row_id = ${sealKeySql(keys)} WHERE s.row_id IS NULL${scope ? ` AND ${scope}` : ''}`,
    )
  ).map((r) => String(r.k))
}

/** A once-only legacy pass's marker row ('legacy', then 'legacy:<pass>'), and its journal record. */
export function legacySealMarker(db: Sql, marker = 'legacy'): Promise<{ seq: number } | undefined> {
  return db.get<{ seq: number }>("SELECT journal_seq AS seq FROM row_seals WHERE tbl = '*' AND row_id = ?", [marker])
}
export function legacySealRecord(tx: Sql, type = 'rows.legacy_sealed'): Promise<{ seq: number } | undefined> {
  return tx.get<{ seq: number }>('SELECT seq FROM journal WHERE type = ? ORDER BY seq LIMIT 1', [type])
}
export async function insertLegacySealMarker(tx: Sql, seq: number, marker = 'legacy'): Promise<void> {
  await tx.run(
    "INSERT INTO row_seals (tbl, row_id, journal_seq, mac) VALUES ('*', ?, ?, '-') ON CONFLICT (tbl, row_id) DO NOTHING",
    [marker, seq],
  )
}

/** The journal records that name a voucher whose spend they sealed (migration 0590), in order (row-verify.ts). */
export function journalVoucherRefs(db: Sql): Promise<Array<{ seq: number; voucher_id: string }>> {
  return db.all<{ seq: number; voucher_id: string }>(
    'SELECT seq, voucher_id FROM journal WHERE voucher_id IS NOT NULL ORDER BY seq',
  )
}

/** Every voucher's amount, and every shift with the sum of its cash movements (row-verify.ts). */
export function voucherAmounts(db: Sql): Promise<Array<{ id: string; amount_cents: number }>> {
  return db.all<{ id: string; amount_cents: number }>('SELECT id, amount_cents FROM vouchers ORDER BY id')
}
export function shiftsWithMovementSums(
  db: Sql,
): Promise<
  Array<{ id: string; float_cents: number; status: string; expected_cents: number | null; moved: number | null }>
> {
  return db.all<{
    id: string
    float_cents: number
    status: string
    expected_cents: number | null
    moved: number | null
  }>(
    'SELECT s.id, s.float_cents, s.status, s.expected_cents, (SELECT SUM(m.amount_cents) FROM cash_movements m WHERE m.shift_id = s.id) AS moved FROM cashier_shifts s ORDER BY s.id',
  )
}
