/**
 * The instant lottery's SQL, and only that: batches, tickets, packs, sales, payouts and lost-or-stolen reports
 * (instant_* tables), and the instant settings of a hall. Each function takes the caller's transaction or
 * connection first; rows come out as plain objects with numbers as numbers.
 */
import type { Sql } from '../db/database.ts'
import { touchRows } from '../shared/row-seals.ts'

/** Ticket states in instant_tickets.status. */
/** Voided (INS-8): declared not valid for prizes because of the player's marks or crossings-out; nothing is paid. */
export const TicketState = { InStock: 0, Sold: 1, Paid: 2, Refunded: 3, Voided: 4 } as const

/** An `instant_batches` row as stored (PostgreSQL returns its BIGINT and some INTEGER columns as text). */
export interface BatchRow {
  id: string
  game_no: number | string
  name: string
  channel: 'printed' | 'electronic'
  currency: string
  price_cents: number | string
  ticket_count: number | string
  pack_size: number | string
  pack_count: number | string
  first_id: number | string
  design: string
  design_sha256: string
  seed_commitment: string
  pepper_id: string
  status: 'generating' | 'ready' | 'closed'
  next_sale_index: number | string
  created_at: string
  generated_at: string | null
  closed_at: string | null
  generator?: string | null
  seed_sealed: string | null
  keys_sealed: string | null
  pack_prizes_sealed: string | null
}

/** A batch (one instant game) as the use cases read it. */
export interface Batch {
  id: string
  gameNo: number
  name: string
  channel: 'printed' | 'electronic'
  currency: string
  priceCents: number
  ticketCount: number
  packSize: number
  packCount: number
  /** The id of its first ticket in instant_tickets; its tickets are firstId .. firstId + ticketCount - 1. */
  firstId: number
  /** The design's JSON text. */
  design: string
  designSha256: string
  seedCommitment: string
  pepperId: string
  status: 'generating' | 'ready' | 'closed'
  /** The electronic pool's cursor: the index of the next ticket to sell. */
  nextSaleIndex: number
  createdAt: string
  generatedAt: string | null
  closedAt: string | null
  /** INS-3: JSON GeneratorRecord; null for batches generated before it was recorded. */
  generator: string | null
  /** Sealed (shared/sealing.ts): the seed (audit only), the prize and symbols keys, the pack prize counts. */
  seedSealed: string | null
  keysSealed: string | null
  packPrizesSealed: string | null
}

export function toBatch(r: BatchRow): Batch {
  return {
    id: r.id,
    gameNo: Number(r.game_no),
    name: r.name,
    channel: r.channel,
    currency: r.currency,
    priceCents: Number(r.price_cents),
    ticketCount: Number(r.ticket_count),
    packSize: Number(r.pack_size),
    packCount: Number(r.pack_count),
    firstId: Number(r.first_id),
    design: r.design,
    designSha256: r.design_sha256,
    seedCommitment: r.seed_commitment,
    pepperId: r.pepper_id,
    status: r.status,
    nextSaleIndex: Number(r.next_sale_index),
    createdAt: r.created_at,
    generatedAt: r.generated_at ?? null,
    closedAt: r.closed_at ?? null,
    generator: r.generator ?? null,
    seedSealed: r.seed_sealed ?? null,
    keysSealed: r.keys_sealed ?? null,
    packPrizesSealed: r.pack_prizes_sealed ?? null,
  }
}

/** The columns of an `instant_packs` row the use cases read, as stored. */
export interface PackRow {
  pack_no: number | string
  status: string
  location: string | null
}

/** A pack of a pre-printed batch: where it is in its life (warehouse, shipped, activated...) and where it went. */
export interface Pack {
  packNo: number
  status: string
  location: string | null
}

export function toPack(r: PackRow): Pack {
  return { packNo: Number(r.pack_no), status: r.status, location: r.location ?? null }
}

/** An `instant_reports` row as stored. */
export interface ReportRow {
  id: string
  batch_id: string
  kind: string
  first_index: number | string
  last_index: number | string
  ticket_count: number | string
  stage: string
  discovered_at: string
  regulator_reported_at: string | null
  police_report_ref: string | null
  remedy: string | null
  note: string
  reported_by: string
  created_at: string
}

/** A range of tickets reported lost or stolen (LST-): ticket indexes firstIndex..lastIndex of the batch. */
export interface Report {
  id: string
  batchId: string
  kind: string
  firstIndex: number
  lastIndex: number
  ticketCount: number
  stage: string
  discoveredAt: string
  regulatorReportedAt: string | null
  policeReportRef: string | null
  remedy: string | null
  note: string
  reportedBy: string
  createdAt: string
}

export function toReport(r: ReportRow): Report {
  return {
    id: r.id,
    batchId: r.batch_id,
    kind: r.kind,
    firstIndex: Number(r.first_index),
    lastIndex: Number(r.last_index),
    ticketCount: Number(r.ticket_count),
    stage: r.stage,
    discoveredAt: r.discovered_at,
    regulatorReportedAt: r.regulator_reported_at ?? null,
    policeReportRef: r.police_report_ref ?? null,
    remedy: r.remedy ?? null,
    note: r.note,
    reportedBy: r.reported_by,
    createdAt: r.created_at,
  }
}

/** An `instant_payouts` row as stored (PostgreSQL returns amount_cents, a BIGINT, as text). */
export interface PayoutRow {
  id: string
  ticket_id: number | string
  batch_id: string
  game_no: number | string
  serial: string
  kind: 'prize' | 'refund'
  tier: number | string
  amount_cents: number | string
  currency: string
  reason: string | null
  station_id: string
  cashier_id: string
  payee_name: string | null
  /** Sealed at rest (shared/document-at-rest.ts). */
  payee_document: string | null
  signature_ref: string | null
  paid_at: string
}

/** A prize paid or a price refunded for one ticket: an entry of the prize register (INS-5). */
export interface Payout {
  id: string
  ticketId: number
  batchId: string
  gameNo: number
  serial: string
  kind: 'prize' | 'refund'
  tier: number
  amountCents: number
  currency: string
  reason: string | null
  stationId: string
  cashierId: string
  payeeName: string | null
  /** Sealed at rest (shared/document-at-rest.ts); opened only where a reader is entitled to it. */
  payeeDocument: string | null
  signatureRef: string | null
  paidAt: string
}

export function toPayout(r: PayoutRow): Payout {
  return {
    id: r.id,
    ticketId: Number(r.ticket_id),
    batchId: r.batch_id,
    gameNo: Number(r.game_no),
    serial: r.serial,
    kind: r.kind,
    tier: Number(r.tier),
    amountCents: Number(r.amount_cents),
    currency: r.currency,
    reason: r.reason ?? null,
    stationId: r.station_id,
    cashierId: r.cashier_id,
    payeeName: r.payee_name ?? null,
    payeeDocument: r.payee_document ?? null,
    signatureRef: r.signature_ref ?? null,
    paidAt: r.paid_at,
  }
}

/** The columns of a `halls` row the instant line reads, as stored. */
export interface HallRow {
  id: string
  profile_id: string
  settings: string
}

/** A hall as the instant line reads it: its profile and its settings' JSON text. */
export interface InstantHall {
  id: string
  profileId: string
  settings: string
}

export function toInstantHall(r: HallRow): InstantHall {
  return { id: r.id, profileId: r.profile_id, settings: r.settings }
}

// ------------------------------------------------------------------------------------------------ batches

export async function batchOfGame(tx: Sql, gameNo: number): Promise<Batch | undefined> {
  const row = await tx.get<BatchRow>('SELECT * FROM instant_batches WHERE game_no = ?', [gameNo])
  return row && toBatch(row)
}

export async function batchById(tx: Sql, id: string): Promise<Batch | undefined> {
  const row = await tx.get<BatchRow>('SELECT * FROM instant_batches WHERE id = ?', [id])
  return row && toBatch(row)
}

/** Every batch but those still being generated, by game number. */
export async function listedBatches(tx: Sql): Promise<Batch[]> {
  const rows = await tx.all<BatchRow>("SELECT * FROM instant_batches WHERE status <> 'generating' ORDER BY game_no")
  return rows.map(toBatch)
}

/** Removes a batch with its tickets and packs (a generation left half-written). */
export async function deleteBatch(tx: Sql, b: Batch): Promise<void> {
  await tx.run('DELETE FROM instant_tickets WHERE id >= ? AND id < ?', [b.firstId, b.firstId + b.ticketCount])
  await tx.run('DELETE FROM instant_packs WHERE batch_id = ?', [b.id])
  await tx.run('DELETE FROM instant_batches WHERE id = ?', [b.id])
}

/** One past the last ticket id any batch uses, or null when there is no batch. */
export async function ticketIdsEnd(tx: Sql): Promise<number | null> {
  const last = await tx.get<{ end: number | null }>('SELECT MAX(first_id + ticket_count) AS "end" FROM instant_batches')
  return last?.end ?? null
}

export async function insertBatch(
  tx: Sql,
  b: {
    id: string
    gameNo: number
    name: string
    channel: string
    currency: string
    priceCents: number
    ticketCount: number
    packSize: number
    packCount: number
    firstId: number
    design: string
    designSha256: string
    seedCommitment: string
    seedSealed: string
    keysSealed: string
    pepperId: string
    createdAt: string
    /** INS-3: JSON of the generator that produced the batch. */
    generator: string
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO instant_batches (id, game_no, name, channel, currency, price_cents, ticket_count, pack_size, pack_count, first_id, design, design_sha256, seed_commitment, seed_sealed, keys_sealed, pepper_id, status, created_at, generator)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'generating', ?, ?)`,
    [
      b.id,
      b.gameNo,
      b.name,
      b.channel,
      b.currency,
      b.priceCents,
      b.ticketCount,
      b.packSize,
      b.packCount,
      b.firstId,
      b.design,
      b.designSha256,
      b.seedCommitment,
      b.seedSealed,
      b.keysSealed,
      b.pepperId,
      b.createdAt,
      b.generator,
    ],
  )
}

/** The batch is complete: its sealed pack prize counts go in with the `ready` status. */
export async function markBatchReady(tx: Sql, batchId: string, packPrizesSealed: string, at: string): Promise<void> {
  await tx.run("UPDATE instant_batches SET status = 'ready', generated_at = ?, pack_prizes_sealed = ? WHERE id = ?", [
    at,
    packPrizesSealed,
    batchId,
  ])
}

export async function markBatchClosed(tx: Sql, batchId: string, at: string): Promise<void> {
  await tx.run("UPDATE instant_batches SET status = 'closed', closed_at = ? WHERE id = ?", [at, batchId])
}

/** Moves the electronic pool's cursor from `index` to the next ticket; 0 changes when another sale moved it first. */
export async function advanceSaleIndex(tx: Sql, batchId: string, index: number): Promise<number> {
  return (
    await tx.run('UPDATE instant_batches SET next_sale_index = ? WHERE id = ? AND next_sale_index = ?', [
      index + 1,
      batchId,
      index,
    ])
  ).changes
}

// ------------------------------------------------------------------------------------------------ bulk rows

const INSERT_ROWS = 500
const PG_UNNEST_ROWS = 10_000

/**
 * Buffers rows and sends them in bulk: on SQLite as multi-row INSERTs of INSERT_ROWS rows (one prepared statement,
 * one reused parameter array); on PostgreSQL as one `INSERT ... SELECT * FROM unnest(array, ...)` per
 * PG_UNNEST_ROWS rows, one array parameter per column, which PostgreSQL ingests several times faster than
 * multi-row VALUES. `flush` sends the rest.
 */
function rowWriter(engine: 'sqlite' | 'postgres', head: string, types: readonly string[]) {
  const width = types.length
  const rowsPerSend = engine === 'postgres' ? PG_UNNEST_ROWS : INSERT_ROWS
  const row = `(${new Array(width).fill('?').join(', ')})`
  const values = (rows: number) => `${head} VALUES ${new Array(rows).fill(row).join(', ')}`
  const sqlFull = values(INSERT_ROWS)
  const unnest = `${head} SELECT * FROM unnest(${types.map((t) => `?::${t}[]`).join(', ')})`
  const params = new Array<unknown>(rowsPerSend * width)
  let n = 0
  const send = async (tx: Sql, count: number) => {
    if (engine === 'postgres') {
      const columns = types.map((_, c) => {
        const col = new Array<unknown>(count / width)
        for (let i = c, k = 0; i < count; i += width, k++) col[k] = params[i]
        return col
      })
      await tx.run(unnest, columns)
    } else {
      await tx.run(
        count === params.length ? sqlFull : values(count / width),
        count === params.length ? params : params.slice(0, count),
      )
    }
    n = 0
  }
  return {
    /** Adds a row of 3 values; true when the buffer is full and must be sent. */
    push3(a: unknown, b: unknown, c: unknown): boolean {
      params[n++] = a
      params[n++] = b
      params[n++] = c
      return n === params.length
    },
    push4(a: unknown, b: unknown, c: unknown, d: unknown): boolean {
      params[n++] = a
      params[n++] = b
      params[n++] = c
      params[n++] = d
      return n === params.length
    },
    send: (tx: Sql) => send(tx, params.length),
    async flush(tx: Sql): Promise<void> {
      if (n > 0) await send(tx, n)
    },
  }
}

/** Bulk writer of instant_tickets rows: push3(id, prizeTag, codeTag). The tier itself is never written. */
export const ticketWriter = (engine: 'sqlite' | 'postgres') =>
  rowWriter(engine, 'INSERT INTO instant_tickets (id, prize_tag, code_tag)', ['integer', 'bigint', 'bigint'])

/** Bulk writer of instant_packs rows: push4(batchId, packNo, status, location). */
export const packWriter = (engine: 'sqlite' | 'postgres') =>
  rowWriter(engine, 'INSERT INTO instant_packs (batch_id, pack_no, status, location)', [
    'text',
    'integer',
    'text',
    'text',
  ])

// ------------------------------------------------------------------------------------------------ tickets

export async function ticketPrizeTagAndStatus(
  tx: Sql,
  ticketId: number,
): Promise<{ prizeTag: number; status: number } | undefined> {
  const row = await tx.get<{ prize_tag: number; status: number }>(
    'SELECT prize_tag, status FROM instant_tickets WHERE id = ?',
    [ticketId],
  )
  return row && { prizeTag: Number(row.prize_tag), status: Number(row.status) }
}

export async function ticketCodeTag(tx: Sql, ticketId: number): Promise<number> {
  const row = await tx.get<{ code_tag: number }>('SELECT code_tag FROM instant_tickets WHERE id = ?', [ticketId])
  return Number(row?.code_tag)
}

/** In stock to sold; the number of rows changed (0: not in stock). */
export async function markTicketSold(tx: Sql, ticketId: number): Promise<number> {
  const n = (
    await tx.run('UPDATE instant_tickets SET status = ? WHERE id = ? AND status = ?', [
      TicketState.Sold,
      ticketId,
      TicketState.InStock,
    ])
  ).changes
  // Issue 24 point 1: from its sale on, a ticket's state is sealed (row-seals.ts).
  if (n > 0) touchRows(tx, 'instant_tickets', [String(ticketId)])
  return n
}

/** In stock to sold with the tag of the validation code issued at the sale (electronic tickets). */
export async function markElectronicTicketSold(tx: Sql, ticketId: number, codeTag: number): Promise<number> {
  const n = (
    await tx.run('UPDATE instant_tickets SET status = ?, code_tag = ? WHERE id = ? AND status = ?', [
      TicketState.Sold,
      codeTag,
      ticketId,
      TicketState.InStock,
    ])
  ).changes
  if (n > 0) touchRows(tx, 'instant_tickets', [String(ticketId)])
  return n
}

/**
 * Sold to paid, refunded or voided; the number of rows changed (0: settled already, or never sold). A ticket still
 * in stock is never settled (INS-12: only a sold ticket is paid or refunded; claims.ts says so before coming here).
 */
export async function settleTicket(
  tx: Sql,
  ticketId: number,
  to: typeof TicketState.Paid | typeof TicketState.Refunded | typeof TicketState.Voided,
): Promise<number> {
  const n = (
    await tx.run('UPDATE instant_tickets SET status = ? WHERE id = ? AND status = ?', [to, ticketId, TicketState.Sold])
  ).changes
  if (n > 0) touchRows(tx, 'instant_tickets', [String(ticketId)])
  return n
}

/** The ids and prize tags of the batch's tickets that left stock (sold, paid or refunded). */
export async function soldPrizeTags(tx: Sql, b: Batch): Promise<Array<{ id: number; prizeTag: number }>> {
  const rows = await tx.all<{ id: number; prize_tag: number }>(
    'SELECT id, prize_tag FROM instant_tickets WHERE id >= ? AND id < ? AND status > 0',
    [b.firstId, b.firstId + b.ticketCount],
  )
  return rows.map((r) => ({ id: Number(r.id), prizeTag: Number(r.prize_tag) }))
}

// ------------------------------------------------------------------------------------------------ packs

/** The hall a pack's place names: a hall by its id, or an enrolled station by its id; null for a place in words. */
export async function hallOfLocation(tx: Sql, location: string): Promise<string | null> {
  const row = await tx.get<{ hall_id: string | null }>(
    'SELECT id AS hall_id FROM halls WHERE id = ? UNION ALL SELECT hall_id FROM device_credentials WHERE id = ? LIMIT 1',
    [location, location],
  )
  return row?.hall_id ?? null
}

export async function packOf(tx: Sql, batchId: string, packNo: number): Promise<Pack | undefined> {
  const row = await tx.get<PackRow>(
    'SELECT pack_no, status, location FROM instant_packs WHERE batch_id = ? AND pack_no = ?',
    [batchId, packNo],
  )
  return row && toPack(row)
}

export async function packsOfBatch(tx: Sql, batchId: string): Promise<Pack[]> {
  const rows = await tx.all<PackRow>('SELECT pack_no, status, location FROM instant_packs WHERE batch_id = ?', [
    batchId,
  ])
  return rows.map(toPack)
}

/** The first pack of the range that is not in the warehouse. */
export async function firstPackOutOfWarehouse(
  tx: Sql,
  batchId: string,
  fromPack: number,
  lastPack: number,
): Promise<Pack | undefined> {
  const row = await tx.get<PackRow>(
    "SELECT pack_no, status, location FROM instant_packs WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status <> 'warehouse' ORDER BY pack_no LIMIT 1",
    [batchId, fromPack, lastPack],
  )
  return row && toPack(row)
}

/** Warehouse packs of the range to shipped; the number shipped. */
export async function shipPackRange(
  tx: Sql,
  batchId: string,
  fromPack: number,
  toPack: number,
  destination: string,
  at: string,
): Promise<number> {
  return (
    await tx.run(
      "UPDATE instant_packs SET status = 'shipped', location = ?, shipped_at = ? WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status = 'warehouse'",
      [destination, at, batchId, fromPack, toPack],
    )
  ).changes
}

/** A shipped pack to activated; the number of rows changed (0: it changed meanwhile). */
export async function markPackActivated(
  tx: Sql,
  batchId: string,
  packNo: number,
  at: string,
  by: string,
): Promise<number> {
  return (
    await tx.run(
      "UPDATE instant_packs SET status = 'activated', activated_at = ?, activated_by = ? WHERE batch_id = ? AND pack_no = ? AND status = 'shipped'",
      [at, by, batchId, packNo],
    )
  ).changes
}

export async function countPacksOutOfWarehouse(
  tx: Sql,
  batchId: string,
  fromPack: number,
  toPack: number,
): Promise<number> {
  const row = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM instant_packs WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status <> 'warehouse'",
    [batchId, fromPack, toPack],
  )
  return Number(row?.n ?? 0)
}

export async function setPackRangeStatus(
  tx: Sql,
  batchId: string,
  fromPack: number,
  toPack: number,
  status: string,
): Promise<void> {
  await tx.run('UPDATE instant_packs SET status = ? WHERE batch_id = ? AND pack_no BETWEEN ? AND ?', [
    status,
    batchId,
    fromPack,
    toPack,
  ])
}

// ------------------------------------------------------------------------------------------------ lost or stolen reports

/** A report whose range holds the ticket, if any. */
export async function reportCovering(
  tx: Sql,
  batchId: string,
  index: number,
): Promise<{ kind: string; id: string } | undefined> {
  return tx.get<{ kind: string; id: string }>(
    'SELECT kind, id FROM instant_reports WHERE batch_id = ? AND first_index <= ? AND last_index >= ? LIMIT 1',
    [batchId, index, index],
  )
}

export async function insertReport(
  tx: Sql,
  r: {
    id: string
    batchId: string
    kind: string
    firstIndex: number
    lastIndex: number
    stage: string
    discoveredAt: string
    regulatorReportedAt: string | null
    policeReportRef: string | null
    remedy: string | null
    note: string
    reportedBy: string
    createdAt: string
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO instant_reports (id, batch_id, kind, first_index, last_index, ticket_count, stage, discovered_at, regulator_reported_at, police_report_ref, remedy, note, reported_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      r.id,
      r.batchId,
      r.kind,
      r.firstIndex,
      r.lastIndex,
      r.lastIndex - r.firstIndex + 1,
      r.stage,
      r.discoveredAt,
      r.regulatorReportedAt,
      r.policeReportRef,
      r.remedy,
      r.note,
      r.reportedBy,
      r.createdAt,
    ],
  )
}

export async function reportsOfBatch(tx: Sql, batchId: string): Promise<Report[]> {
  const rows = await tx.all<ReportRow>('SELECT * FROM instant_reports WHERE batch_id = ? ORDER BY first_index', [
    batchId,
  ])
  return rows.map(toReport)
}

/** Tickets reported, by kind (lost, stolen). */
export async function reportedTicketsByKind(tx: Sql, batchId: string): Promise<Array<{ kind: string; n: number }>> {
  return tx.all<{ kind: string; n: number }>(
    'SELECT kind, SUM(ticket_count) AS n FROM instant_reports WHERE batch_id = ? GROUP BY kind',
    [batchId],
  )
}

// ------------------------------------------------------------------------------------------------ sales

export async function insertSale(
  tx: Sql,
  s: {
    ticketId: number
    batchId: string
    channel: 'printed' | 'electronic'
    hallId: string | null
    stationId: string
    priceCents: number
    soldAt: string
  },
): Promise<void> {
  touchRows(tx, 'instant_sales', [String(s.ticketId)])
  await tx.run(
    'INSERT INTO instant_sales (ticket_id, batch_id, channel, hall_id, station_id, price_cents, sold_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [s.ticketId, s.batchId, s.channel, s.hallId, s.stationId, s.priceCents, s.soldAt],
  )
}

export async function salesTotal(tx: Sql, batchId: string): Promise<{ tickets: number; cents: number }> {
  const sold = await tx.get<{ n: number; cents: number | null }>(
    'SELECT COUNT(*) AS n, SUM(price_cents) AS cents FROM instant_sales WHERE batch_id = ?',
    [batchId],
  )
  return { tickets: Number(sold?.n ?? 0), cents: Number(sold?.cents ?? 0) }
}

// ------------------------------------------------------------------------------------------------ payouts (the prize register)

export async function insertPrizePayout(
  tx: Sql,
  p: {
    id: string
    ticketId: number
    batchId: string
    gameNo: number
    serial: string
    tier: number
    amountCents: number
    currency: string
    stationId: string
    cashierId: string
    payeeName: string
    payeeDocument: string
    signatureRef: string
    paidAt: string
  },
): Promise<void> {
  touchRows(tx, 'instant_payouts', [String(p.ticketId)])
  await tx.run(
    `INSERT INTO instant_payouts (id, ticket_id, batch_id, game_no, serial, kind, tier, amount_cents, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
         VALUES (?, ?, ?, ?, ?, 'prize', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      p.id,
      p.ticketId,
      p.batchId,
      p.gameNo,
      p.serial,
      p.tier,
      p.amountCents,
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

export async function insertRefundPayout(
  tx: Sql,
  p: {
    id: string
    ticketId: number
    batchId: string
    gameNo: number
    serial: string
    tier: number
    amountCents: number
    currency: string
    reason: string
    stationId: string
    cashierId: string
    paidAt: string
  },
): Promise<void> {
  touchRows(tx, 'instant_payouts', [String(p.ticketId)])
  await tx.run(
    `INSERT INTO instant_payouts (id, ticket_id, batch_id, game_no, serial, kind, tier, amount_cents, currency, reason, station_id, cashier_id, paid_at)
         VALUES (?, ?, ?, ?, ?, 'refund', ?, ?, ?, ?, ?, ?, ?)`,
    [
      p.id,
      p.ticketId,
      p.batchId,
      p.gameNo,
      p.serial,
      p.tier,
      p.amountCents,
      p.currency,
      p.reason,
      p.stationId,
      p.cashierId,
      p.paidAt,
    ],
  )
}

export async function payoutsOfBatch(tx: Sql, batchId: string): Promise<Payout[]> {
  const rows = await tx.all<PayoutRow>('SELECT * FROM instant_payouts WHERE batch_id = ? ORDER BY paid_at, id', [
    batchId,
  ])
  return rows.map(toPayout)
}

export async function payoutOfSerial(tx: Sql, serial: string, gameNo: number): Promise<Payout | undefined> {
  const row = await tx.get<PayoutRow>('SELECT * FROM instant_payouts WHERE serial = ? AND game_no = ?', [
    serial,
    gameNo,
  ])
  return row && toPayout(row)
}

/** Payouts counted and summed by kind (prize, refund) and tier. */
export async function payoutTotals(
  tx: Sql,
  batchId: string,
): Promise<Array<{ kind: string; tier: number; n: number; cents: number }>> {
  const rows = await tx.all<{ kind: string; tier: number; n: number; cents: number }>(
    'SELECT kind, tier, COUNT(*) AS n, SUM(amount_cents) AS cents FROM instant_payouts WHERE batch_id = ? GROUP BY kind, tier',
    [batchId],
  )
  return rows.map((r) => ({ kind: r.kind, tier: Number(r.tier), n: Number(r.n), cents: Number(r.cents) }))
}

// ------------------------------------------------------------------------------------------------ halls

export async function hallById(tx: Sql, hallId: string): Promise<InstantHall | undefined> {
  const row = await tx.get<HallRow>('SELECT id, profile_id, settings FROM halls WHERE id = ?', [hallId])
  return row && toInstantHall(row)
}

export async function setHallSettings(tx: Sql, hallId: string, settingsJson: string): Promise<void> {
  await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [settingsJson, hallId])
}

/** INS-3: the payload of the journal record of a batch's generation (scope of its game), for the generator check. */
export async function batchGeneratedPayload(tx: Sql, scope: string, batchId: string): Promise<string | undefined> {
  const rows = await tx.all<{ payload: string }>(
    "SELECT payload FROM journal WHERE type = 'instant.batch_generated' AND scope = ? ORDER BY seq",
    [scope],
  )
  return rows.map((r) => r.payload).find((p) => (JSON.parse(p) as { batchId?: string }).batchId === batchId)
}

// INS-3 / RNG-27: the registry of AJ-authorised certifiers of the generator (generator-certificate.ts).

export interface GeneratorCertifierRow {
  id: string
  name: string
  aj_authorisation_ref: string
  public_key: string
  status: 'active' | 'withdrawn'
  recorded_by: string
  recorded_at: string
  withdrawn_at: string | null
  withdrawn_reason: string | null
}

export async function insertGeneratorCertifier(
  tx: Sql,
  r: Omit<GeneratorCertifierRow, 'status' | 'withdrawn_at' | 'withdrawn_reason'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO instant_generator_certifiers (id, name, aj_authorisation_ref, public_key, status, recorded_by, recorded_at)
         VALUES (?, ?, ?, ?, 'active', ?, ?)`,
    [r.id, r.name, r.aj_authorisation_ref, r.public_key, r.recorded_by, r.recorded_at],
  )
  touchRows(tx, 'instant_generator_certifiers', [r.id])
}

export function generatorCertifierById(tx: Sql, id: string): Promise<GeneratorCertifierRow | undefined> {
  return tx.get<GeneratorCertifierRow>('SELECT * FROM instant_generator_certifiers WHERE id = ?', [id])
}

/** Every entry (active or withdrawn) under an AJ authorisation reference. */
export function generatorCertifiersByRef(tx: Sql, ajAuthorisationRef: string): Promise<GeneratorCertifierRow[]> {
  return tx.all<GeneratorCertifierRow>(
    'SELECT * FROM instant_generator_certifiers WHERE aj_authorisation_ref = ? ORDER BY recorded_at, id',
    [ajAuthorisationRef],
  )
}

export function listGeneratorCertifiers(db: Sql): Promise<GeneratorCertifierRow[]> {
  return db.all<GeneratorCertifierRow>('SELECT * FROM instant_generator_certifiers ORDER BY recorded_at, id')
}

export async function withdrawGeneratorCertifier(tx: Sql, id: string, at: string, reason: string): Promise<void> {
  await tx.run(
    "UPDATE instant_generator_certifiers SET status = 'withdrawn', withdrawn_at = ?, withdrawn_reason = ? WHERE id = ?",
    [at, reason, id],
  )
  touchRows(tx, 'instant_generator_certifiers', [id])
}
