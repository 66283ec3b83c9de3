/**
 * Instant lottery (raspadita) use cases: generate a batch into storage (streamed, batched inserts), move packs
 * from the warehouse to retailers and activate them on arrival, report lost or stolen ranges (LST-), sell
 * pre-printed tickets by their inventory code and electronic tickets from the pre-generated pool (INS-15 switch),
 * validate by the hidden code, pay once (INS-11, INS-12), refund misprints (INS-9), keep the prize register
 * (INS-5) and reconcile a game.
 *
 * Every state change is one transaction with its journal record. A ticket's validation outcome follows REGULATIONS
 * §8: WIN, NO_WIN, REFUND_ONLY, ALREADY_PAID, EXPIRED, REPORTED_LOST_STOLEN, NOT_ACTIVATED.
 */
import { createHash } from 'node:crypto'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { checkDesign, type CheckedDesign, type InstantDesign } from './design.ts'
import {
  codeTag, createCodeBatch, deriveKey, formatSerial, formatValidationCode, looksLikeSerial, packSerials, parseSerial, parseValidationCode,
  seedCommitment, VALIDATION_CODE_LENGTH,
} from './codes.ts'
import { generatePacks, type GeneratedPack } from './generate.ts'
import { encodedFaces, evaluateFace, ticketFace, type TicketFace } from './play.ts'
import { getProfile } from '../shared/profile.ts'
import { encodeTicketCode, parseTicketCode, TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { Clock, EntropySource } from '../bingo/service.ts'
import type { OnPaid } from '../cashdesk/cash.ts'
import { appendJournal } from '../shared/journal.ts'

export interface InstantDeps {
  db: Database
  clock: Clock
  entropy: EntropySource
  keys: OperatorKeys
  /** 32-byte key that tags validation codes (codeTag); kept beside the operator key, never in the database. */
  pepper: Buffer
}

/** Ticket states in instant_tickets.status. */
export const TicketState = { InStock: 0, Sold: 1, Paid: 2, Refunded: 3 } as const

export type ValidationOutcome = 'WIN' | 'NO_WIN' | 'REFUND_ONLY' | 'ALREADY_PAID' | 'EXPIRED' | 'REPORTED_LOST_STOLEN' | 'NOT_ACTIVATED'

export interface BatchRow {
  id: string; game_no: number; name: string; channel: 'printed' | 'electronic'; currency: string; price_cents: number
  ticket_count: number; pack_size: number; pack_count: number; first_id: number; design: string; design_sha256: string
  seed_commitment: string; symbols_key: string; pepper_id: string; status: 'generating' | 'ready' | 'closed'
  next_sale_index: number; created_at: string; generated_at: string | null; closed_at: string | null
}

/** What the print files need of each pack (computed only when asked for). */
export interface PackPrintData {
  packNo: number
  firstIndex: number
  serials: string[]
  codes: string[]
  /** encodeFace() of each ticket. */
  faces: string[]
  tiers: Uint8Array
}

export interface GenerateOptions {
  design: InstantDesign
  seed: string
  /** Receives each pack's print data, in order; awaited (back-pressure). */
  onPack?: (pack: PackPrintData) => void | Promise<void>
  /** Called every few packs with tickets done so far. */
  onProgress?: (done: number, total: number) => void
}

export interface BatchSummary {
  batchId: string
  gameNo: number
  channel: 'printed' | 'electronic'
  ticketCount: number
  packCount: number
  packSize: number
  tierCounts: number[]
  prizeFundCents: number
  salesCents: number
  payoutShareBp: number
  designSha256: string
  seedCommitment: string
  /** SHA-256 of every ticket's tier byte in ticket order: the placement, for checking print files against storage. */
  placementSha256: string
  journalSeq: number
}

export interface ResolvedTicket {
  batch: BatchRow
  design: CheckedDesign
  index: number
  ticketId: number
  serial: string
  tier: number
  status: number
  packNo: number
  packStatus: string
  packLocation: string | null
}

export interface ValidationResult {
  outcome: ValidationOutcome
  /** Why, for REFUND_ONLY, NOT_ACTIVATED, EXPIRED and the like. */
  reason: string | null
  gameNo: number
  gameName: string
  serial: string
  tier: number
  amountCents: number
  priceCents: number
  currency: string
  /** What the ticket must show under the scratch layer: a face that differs is a misprint (INS-9). */
  face: TicketFace
  symbolAmountsCents: number[]
  expiresAt: string | null
}


const INSERT_ROWS = 500
const PG_UNNEST_ROWS = 10_000
/** Tickets per transaction: large on SQLite (one writer, fewer commits), moderate on PostgreSQL. */
const TX_TICKETS = { sqlite: 1_000_000, postgres: 100_000 } as const
const MAX_TICKET_ID = 2_147_483_647

export function createInstantService(deps: InstantDeps) {
  const { db, clock, keys } = deps
  const now = () => clock.now().toISOString()
  const pepperId = createHash('sha256').update(deps.pepper).digest('hex').slice(0, 16)
  const designs = new Map<string, CheckedDesign>()

  function newId(prefix: string): string {
    const bytes = deps.entropy.randomBytes(10)
    const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
    let s = ''
    for (const b of bytes) s += alphabet[b % alphabet.length]
    return `${prefix}_${s}`
  }

  function checkedOf(batch: BatchRow): CheckedDesign {
    let c = designs.get(batch.id)
    if (!c) {
      c = checkDesign(JSON.parse(batch.design) as InstantDesign)
      designs.set(batch.id, c)
    }
    return c
  }

  function normalise(row: BatchRow): BatchRow {
    return { ...row, game_no: Number(row.game_no), price_cents: Number(row.price_cents), ticket_count: Number(row.ticket_count), pack_size: Number(row.pack_size), pack_count: Number(row.pack_count), first_id: Number(row.first_id), next_sale_index: Number(row.next_sale_index) }
  }

  async function batchByGame(tx: Sql, gameNo: number): Promise<BatchRow> {
    const row = await tx.get<BatchRow>('SELECT * FROM instant_batches WHERE game_no = ?', [gameNo])
    if (!row) throw new DomainError('NOT_FOUND', `instant game ${gameNo} not found`, { gameNo })
    if (row.status === 'generating') throw new DomainError('CONFLICT', `instant game ${gameNo} is still being generated`, { gameNo })
    return normalise(row)
  }

  const scopeOf = (b: { game_no: number }) => `instant:${b.game_no}`

  // ---------------------------------------------------------------------------------------------- generation

  /**
   * Generates a batch into storage, streaming: packs are placed, coded and inserted in large transactions and
   * never all held. The batch row is `generating` until the last ticket is in, then `ready` with one journal
   * record. Generating a game number that was left `generating` (a crash) starts it again from scratch.
   */
  async function generateBatch(opts: GenerateOptions): Promise<BatchSummary> {
    const checked = checkDesign(opts.design)
    const d = checked.design
    if (typeof opts.seed !== 'string' || opts.seed.length < 8) throw new DomainError('VALIDATION_FAILED', 'the batch seed must be at least 8 characters (use 64 hex characters from a CSPRNG)')
    const designJson = JSON.stringify(d)
    const designSha256 = createHash('sha256').update(designJson).digest('hex')
    const commitment = seedCommitment(opts.seed)
    const channel = d.channel ?? 'printed'
    const symbolsKey = deriveKey(opts.seed, d.gameNo, 'symbols')
    const at = now()

    const batch = await db.transaction(async (tx) => {
      const existing = await tx.get<BatchRow>('SELECT * FROM instant_batches WHERE game_no = ?', [d.gameNo])
      if (existing && existing.status !== 'generating') throw new DomainError('CONFLICT', `instant game ${d.gameNo} already exists`, { gameNo: d.gameNo })
      if (existing) {
        const old = normalise(existing)
        await tx.run('DELETE FROM instant_tickets WHERE id >= ? AND id < ?', [old.first_id, old.first_id + old.ticket_count])
        await tx.run('DELETE FROM instant_packs WHERE batch_id = ?', [old.id])
        await tx.run('DELETE FROM instant_batches WHERE id = ?', [old.id])
      }
      const last = await tx.get<{ end: number | null }>('SELECT MAX(first_id + ticket_count) AS "end" FROM instant_batches')
      const firstId = Math.max(1, Number(last?.end ?? 1))
      if (firstId + d.ticketCount - 1 > MAX_TICKET_ID) throw new DomainError('VALIDATION_FAILED', `the ticket table is full: ${d.ticketCount} more tickets would pass id ${MAX_TICKET_ID}`)
      const id = newId('inb')
      await tx.run(
        `INSERT INTO instant_batches (id, game_no, name, channel, currency, price_cents, ticket_count, pack_size, pack_count, first_id, design, design_sha256, seed_commitment, symbols_key, pepper_id, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'generating', ?)`,
        [id, d.gameNo, d.name, channel, d.currency, d.priceCents, d.ticketCount, d.packSize, checked.packCount, firstId, designJson, designSha256, commitment, symbolsKey.toString('hex'), pepperId, at],
      )
      return normalise((await tx.get<BatchRow>('SELECT * FROM instant_batches WHERE id = ?', [id]))!)
    })

    const codes = createCodeBatch(deriveKey(opts.seed, d.gameNo, 'code'), d.gameNo)
    const tierCounts = new Array<number>(d.tiers.length + 1).fill(0)
    const txTickets = TX_TICKETS[db.engine]
    const S = d.packSize
    const packStatus = channel === 'electronic' ? 'activated' : 'warehouse'
    const packLocation = channel === 'electronic' ? 'e-instant' : 'warehouse'
    const tickets = rowWriter('INSERT INTO instant_tickets (id, tier, code_tag)', ['integer', 'integer', 'bigint'])
    const packs = rowWriter('INSERT INTO instant_packs (batch_id, pack_no, status, location, prize_counts)', ['text', 'integer', 'text', 'text', 'text'])
    const packIterator = generatePacks(checked, opts.seed)
    const placement = createHash('sha256')
    let done = 0
    let lastProgress = 0
    let finished = false
    // Packs stream through transactions of about txTickets tickets; rows go out one multi-row INSERT at a time,
    // so nothing but the current statement's parameters is held.
    while (!finished) {
      await db.transaction(async (tx) => {
        let inTx = 0
        while (inTx < txTickets) {
          const next = packIterator.next()
          if (next.done) {
            finished = true
            break
          }
          const pack: GeneratedPack = next.value
          placement.update(pack.tiers)
          const { codes: packCodes, tags } = codes.codesAndTags(pack.firstIndex, S, deps.pepper)
          const counts = new Array<number>(d.tiers.length).fill(0)
          const base = batch.first_id + pack.firstIndex
          for (let i = 0; i < S; i++) {
            const t = pack.tiers[i]
            tierCounts[t]++
            if (t > 0) counts[t - 1]++
            if (tickets.push3(base + i, t, tags[i])) await tickets.send(tx)
          }
          if (packs.push5(batch.id, pack.packNo, packStatus, packLocation, JSON.stringify(counts))) await packs.send(tx)
          if (opts.onPack) {
            await opts.onPack({
              packNo: pack.packNo, firstIndex: pack.firstIndex, tiers: pack.tiers, codes: packCodes,
              serials: packSerials(d.gameNo, pack.packNo, S), faces: encodedFaces(checked, symbolsKey, pack.firstIndex, pack.tiers),
            })
          }
          done += S
          inTx += S
          if (opts.onProgress && done - lastProgress >= 50_000) {
            lastProgress = done
            opts.onProgress(done, d.ticketCount)
          }
        }
        await tickets.flush(tx)
        await packs.flush(tx)
      })
    }
    opts.onProgress?.(done, d.ticketCount)

    // The counts come from the tickets written; a mismatch would be a generator bug, never shipped.
    for (let k = 1; k <= d.tiers.length; k++) {
      if (tierCounts[k] !== d.tiers[k - 1].count) throw new Error(`generator produced ${tierCounts[k]} prizes of tier ${k}, design says ${d.tiers[k - 1].count}`)
    }
    const placementSha256 = placement.digest('hex')
    const record = await db.transaction(async (tx) => {
      const at2 = now()
      await tx.run("UPDATE instant_batches SET status = 'ready', generated_at = ? WHERE id = ?", [at2, batch.id])
      return appendJournal(tx, {
        at: at2, type: 'instant.batch_generated', scope: scopeOf(batch),
        payload: {
          batchId: batch.id, gameNo: d.gameNo, name: d.name, channel, ticketCount: d.ticketCount, packCount: checked.packCount, packSize: S,
          tierCounts: tierCounts.slice(1), prizeFundCents: checked.prizeFundCents, payoutShareBp: checked.payoutShareBp,
          designSha256, seedCommitment: commitment, placementSha256, algorithm: 'bolillo-instant-v1', pepperId,
        },
      })
    })
    return {
      batchId: batch.id, gameNo: d.gameNo, channel, ticketCount: d.ticketCount, packCount: checked.packCount, packSize: S,
      tierCounts: tierCounts.slice(1), prizeFundCents: checked.prizeFundCents, salesCents: checked.salesCents,
      payoutShareBp: checked.payoutShareBp, designSha256, seedCommitment: commitment, placementSha256, journalSeq: record.seq,
    }
  }

  /**
   * Buffers rows and sends them in bulk: on SQLite as multi-row INSERTs of INSERT_ROWS rows (one prepared statement,
   * one reused parameter array); on PostgreSQL as one `INSERT ... SELECT * FROM unnest(array, ...)` per
   * PG_UNNEST_ROWS rows, one array parameter per column, which PostgreSQL ingests several times faster than
   * multi-row VALUES. `flush` sends the rest.
   */
  function rowWriter(head: string, types: readonly string[]) {
    const width = types.length
    const rowsPerSend = db.engine === 'postgres' ? PG_UNNEST_ROWS : INSERT_ROWS
    const row = `(${new Array(width).fill('?').join(', ')})`
    const values = (rows: number) => `${head} VALUES ${new Array(rows).fill(row).join(', ')}`
    const sqlFull = values(INSERT_ROWS)
    const unnest = `${head} SELECT * FROM unnest(${types.map((t) => `?::${t}[]`).join(', ')})`
    const params = new Array<unknown>(rowsPerSend * width)
    let n = 0
    const send = async (tx: Sql, count: number) => {
      if (db.engine === 'postgres') {
        const columns = types.map((_, c) => {
          const col = new Array<unknown>(count / width)
          for (let i = c, k = 0; i < count; i += width, k++) col[k] = params[i]
          return col
        })
        await tx.run(unnest, columns)
      } else {
        await tx.run(count === params.length ? sqlFull : values(count / width), count === params.length ? params : params.slice(0, count))
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
      push5(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown): boolean {
        params[n++] = a
        params[n++] = b
        params[n++] = c
        params[n++] = d
        params[n++] = e
        return n === params.length
      },
      send: (tx: Sql) => send(tx, params.length),
      async flush(tx: Sql): Promise<void> {
        if (n > 0) await send(tx, n)
      },
    }
  }

  // ---------------------------------------------------------------------------------------------- reading

  async function listGames() {
    const rows = await db.all<BatchRow>("SELECT * FROM instant_batches WHERE status <> 'generating' ORDER BY game_no")
    return rows.map((r) => gameInfo(normalise(r)))
  }

  function gameInfo(b: BatchRow) {
    const c = checkedOf(b)
    return {
      gameNo: b.game_no, name: b.name, channel: b.channel, status: b.status, currency: b.currency, priceCents: b.price_cents,
      ticketCount: b.ticket_count, packSize: b.pack_size, packCount: b.pack_count, playStyle: c.design.playStyle.type,
      symbolAmountsCents: c.symbolAmountsCents, tiers: c.design.tiers.map((t, i) => ({ tier: i + 1, amountCents: t.amountCents, count: t.count })),
      payoutShareBp: c.payoutShareBp, claimDays: c.design.claimDays, seedCommitment: b.seed_commitment, designSha256: b.design_sha256,
      generatedAt: b.generated_at, closedAt: b.closed_at, soldElectronic: b.channel === 'electronic' ? b.next_sale_index : undefined,
    }
  }

  async function getGame(gameNo: number) {
    return gameInfo(await batchByGame(db, gameNo))
  }

  // ---------------------------------------------------------------------------------------------- resolving codes

  /** Accepts a signed QR payload (`BLL1.I.<id>.<sig>`) or the bare id, and returns the id. */
  function unwrap(text: string): string {
    const t = String(text ?? '').trim()
    if (t.startsWith('BLL')) {
      const ref = verifyTicketCode(t, keys.publicKey)
      if (ref.kind !== TicketKind.instant) throw new DomainError('VALIDATION_FAILED', `this code is not an instant ticket (kind ${ref.kind})`)
      return ref.id
    }
    return t
  }

  async function locate(tx: Sql, gameNo: number, index: number): Promise<ResolvedTicket> {
    const batch = await batchByGame(tx, gameNo)
    if (index < 0 || index >= batch.ticket_count) throw new DomainError('TICKET_NOT_FOUND', `game ${gameNo} has no ticket ${index}`)
    const ticketId = batch.first_id + index
    const row = await tx.get<{ tier: number; status: number }>('SELECT tier, status FROM instant_tickets WHERE id = ?', [ticketId])
    if (!row) throw new DomainError('TICKET_NOT_FOUND', `ticket ${index} of game ${gameNo} is not stored`)
    const packNo = Math.floor(index / batch.pack_size) + 1
    const pack = await tx.get<{ status: string; location: string | null }>('SELECT status, location FROM instant_packs WHERE batch_id = ? AND pack_no = ?', [batch.id, packNo])
    return {
      batch, design: checkedOf(batch), index, ticketId, tier: Number(row.tier), status: Number(row.status), packNo,
      serial: formatSerial({ gameNo, packNo, position: index % batch.pack_size }), packStatus: pack?.status ?? 'warehouse', packLocation: pack?.location ?? null,
    }
  }

  /** The ticket behind an inventory code (outside: serial or its signed QR). */
  async function byInventoryCode(tx: Sql, text: string): Promise<ResolvedTicket> {
    const id = unwrap(text)
    if (!looksLikeSerial(id)) {
      if (id.replace(/[\s-]/g, '').length === VALIDATION_CODE_LENGTH) throw new DomainError('VALIDATION_FAILED', 'this is the hidden validation code; scan the inventory code printed outside')
      throw new DomainError('VALIDATION_FAILED', 'not an instant-ticket inventory code')
    }
    const s = parseSerial(id)
    const batch = await batchByGame(tx, s.gameNo)
    if (s.packNo < 1 || s.packNo > batch.pack_count || s.position >= batch.pack_size) throw new DomainError('TICKET_NOT_FOUND', `game ${s.gameNo} has no ticket ${id}`)
    return locate(tx, s.gameNo, (s.packNo - 1) * batch.pack_size + s.position)
  }

  /** The ticket behind a hidden validation code (typed, or its signed QR); a code that is not the ticket's is refused. */
  async function byValidationCode(tx: Sql, text: string): Promise<ResolvedTicket> {
    const id = unwrap(text)
    if (looksLikeSerial(id)) throw new DomainError('VALIDATION_FAILED', 'this is the inventory code; scan or type the validation code under the scratch layer (INS-9)')
    const parsed = parseValidationCode(id)
    const t = await locate(tx, parsed.gameNo, parsed.index)
    if (t.batch.pepper_id !== pepperId) {
      throw new DomainError('DEVICE_UNAVAILABLE', `game ${parsed.gameNo} was generated with instant-code key ${t.batch.pepper_id}; this server holds ${pepperId}`)
    }
    const row = await tx.get<{ code_tag: number }>('SELECT code_tag FROM instant_tickets WHERE id = ?', [t.ticketId])
    if (Number(row?.code_tag) !== codeTag(deps.pepper, parsed.code)) {
      throw new DomainError('INVALID_SIGNATURE', 'this validation code belongs to no ticket: counterfeit or mistyped (INS-12)', { gameNo: parsed.gameNo })
    }
    return t
  }

  async function blockedBy(tx: Sql, t: ResolvedTicket): Promise<{ kind: string; id: string } | undefined> {
    return tx.get<{ kind: string; id: string }>('SELECT kind, id FROM instant_reports WHERE batch_id = ? AND first_index <= ? AND last_index >= ? LIMIT 1', [t.batch.id, t.index, t.index])
  }

  function expiresAt(t: ResolvedTicket): string | null {
    if (!t.batch.closed_at) return null
    return new Date(Date.parse(t.batch.closed_at) + t.design.design.claimDays * 86_400_000).toISOString()
  }

  async function outcomeOf(tx: Sql, t: ResolvedTicket, inventoryCode?: string): Promise<ValidationResult> {
    const amount = t.tier > 0 ? t.design.design.tiers[t.tier - 1].amountCents : 0
    const face = ticketFace(t.design, Buffer.from(t.batch.symbols_key, 'hex'), t.index, t.tier)
    const base = {
      gameNo: t.batch.game_no, gameName: t.batch.name, serial: t.serial, tier: t.tier, amountCents: amount,
      priceCents: t.batch.price_cents, currency: t.batch.currency, face, symbolAmountsCents: t.design.symbolAmountsCents, expiresAt: expiresAt(t),
    }
    const result = (outcome: ValidationOutcome, reason: string | null): ValidationResult => ({ outcome, reason, ...base })
    const blocked = await blockedBy(tx, t)
    if (blocked) return result('REPORTED_LOST_STOLEN', `in a range reported ${blocked.kind} (report ${blocked.id}): no payment, refund or exchange (LST-4, LST-5)`)
    if (t.batch.channel === 'printed' && t.packStatus !== 'activated') return result('NOT_ACTIVATED', `pack ${t.packNo} is ${t.packStatus}, not activated: its tickets were never on sale (INS-12)`)
    if (t.batch.channel === 'electronic' && t.status === TicketState.InStock) return result('NOT_ACTIVATED', 'this electronic ticket was never sold')
    if (t.status === TicketState.Paid) return result('ALREADY_PAID', 'the prize of this ticket was already paid')
    if (t.status === TicketState.Refunded) return result('ALREADY_PAID', 'this ticket was already refunded as a misprint')
    const exp = base.expiresAt
    if (exp && now() > exp) return result('EXPIRED', `the claim period ended on ${exp} (INS-10)`)
    if (inventoryCode !== undefined && inventoryCode !== '') {
      const outside = await byInventoryCode(tx, inventoryCode).catch(() => null)
      if (!outside || outside.ticketId !== t.ticketId) return result('REFUND_ONLY', `the inventory code outside (${outside?.serial ?? 'unreadable'}) is not this ticket's (${t.serial}): misprint, refund of the price only (INS-9)`)
    }
    return result(t.tier > 0 ? 'WIN' : 'NO_WIN', null)
  }

  /** A ticket's worth at the cashier (REGULATIONS §8), journaled with the station and cashier; changes nothing else. */
  async function validate(input: { code: string; inventoryCode?: string; stationId?: string; cashierId?: string }): Promise<ValidationResult> {
    return db.transaction(async (tx) => {
      const v = await outcomeOf(tx, await byValidationCode(tx, input.code), input.inventoryCode)
      await appendJournal(tx, { at: now(), type: 'instant.ticket_validated', scope: `instant:${v.gameNo}`, payload: { gameNo: v.gameNo, serial: v.serial, outcome: v.outcome, stationId: input.stationId ?? null, cashierId: input.cashierId ?? null, rule: '§8' } })
      return v
    })
  }

  const refusal: Record<Exclude<ValidationOutcome, 'WIN' | 'NO_WIN'>, 'TICKET_BLOCKED' | 'PACK_NOT_ACTIVATED' | 'ALREADY_PAID' | 'TICKET_EXPIRED' | 'TICKET_VOID'> = {
    REPORTED_LOST_STOLEN: 'TICKET_BLOCKED', NOT_ACTIVATED: 'PACK_NOT_ACTIVATED', ALREADY_PAID: 'ALREADY_PAID', EXPIRED: 'TICKET_EXPIRED', REFUND_ONLY: 'TICKET_VOID',
  }

  /**
   * Pays a winning ticket once (INS-11, INS-12): the conditional update on its state, the prize register row
   * (INS-5; UNIQUE per ticket) and the journal record commit together. A second or concurrent payout gets
   * ALREADY_PAID.
   */
  async function pay(input: { code: string; inventoryCode?: string; stationId: string; cashierId: string; payeeName?: string | null; payeeDocument?: string | null; signatureRef?: string; onPaid?: OnPaid }) {
    const payeeName = input.payeeName?.trim() ?? ''
    const payeeDocument = input.payeeDocument?.trim() ?? ''
    if (!/\S+\s+\S+/.test(payeeName) || !payeeDocument) {
      throw new DomainError('PAYEE_ID_REQUIRED', "the prize register needs the payee's first and last names and identity document (INS-5)", { rule: 'INS-5', fields: ['payeeName', 'payeeDocument'] })
    }
    return db.transaction(async (tx) => {
      const t = await byValidationCode(tx, input.code)
      const v = await outcomeOf(tx, t, input.inventoryCode)
      if (v.outcome === 'NO_WIN') throw new DomainError('NOT_A_WINNER', `ticket ${t.serial} has no prize`, { outcome: v.outcome })
      if (v.outcome !== 'WIN') throw new DomainError(refusal[v.outcome], v.reason ?? v.outcome, { outcome: v.outcome })
      const changed = await tx.run('UPDATE instant_tickets SET status = ? WHERE id = ? AND status IN (?, ?)', [TicketState.Paid, t.ticketId, TicketState.InStock, TicketState.Sold])
      if (changed.changes !== 1) throw new DomainError('ALREADY_PAID', `ticket ${t.serial} was already paid`, { outcome: 'ALREADY_PAID' })
      const at = now()
      const id = newId('inp')
      await tx.run(
        `INSERT INTO instant_payouts (id, ticket_id, batch_id, game_no, serial, kind, tier, amount_cents, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
         VALUES (?, ?, ?, ?, ?, 'prize', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, t.ticketId, t.batch.id, t.batch.game_no, t.serial, t.tier, v.amountCents, t.batch.currency, input.stationId, input.cashierId, payeeName, payeeDocument, input.signatureRef ?? 'signed-slip', at],
      )
      const rec = await appendJournal(tx, {
        at, type: 'instant.prize_paid', scope: scopeOf(t.batch),
        // Personal data stays in the register (instant_payouts), not in the journal, which cannot forget.
        payload: { payoutId: id, gameNo: t.batch.game_no, serial: t.serial, tier: t.tier, amountCents: v.amountCents, currency: t.batch.currency, stationId: input.stationId, cashierId: input.cashierId, payeeIdentified: true, rule: 'INS-11' },
      })
      await input.onPaid?.(tx, { amountCents: v.amountCents, currency: t.batch.currency, refId: id, at, kind: 'prize_payout' })
      return { payoutId: id, serial: t.serial, gameNo: t.batch.game_no, tier: t.tier, amountCents: v.amountCents, currency: t.batch.currency, paidAt: at, journalSeq: rec.seq }
    })
  }

  /**
   * Misprint handling (INS-9): an illegible or defective play area, symbols other than programmed, an apparent win
   * contradicted by the control number, or a hidden code that is not the ticket's: the price is refunded, once, and
   * the ticket can no longer be paid. Lost, stolen, unactivated or expired tickets are refused as for a payout.
   */
  async function refund(input: { code: string; inventoryCode?: string; reason: string; stationId: string; cashierId: string; note?: string }) {
    return db.transaction(async (tx) => {
      const t = await byValidationCode(tx, input.code)
      const v = await outcomeOf(tx, t, input.inventoryCode)
      if (v.outcome !== 'WIN' && v.outcome !== 'NO_WIN' && v.outcome !== 'REFUND_ONLY') throw new DomainError(refusal[v.outcome], v.reason ?? v.outcome, { outcome: v.outcome })
      const changed = await tx.run('UPDATE instant_tickets SET status = ? WHERE id = ? AND status IN (?, ?)', [TicketState.Refunded, t.ticketId, TicketState.InStock, TicketState.Sold])
      if (changed.changes !== 1) throw new DomainError('ALREADY_PAID', `ticket ${t.serial} was already paid or refunded`)
      const at = now()
      const id = newId('inp')
      const reason = input.note ? `${input.reason}: ${input.note}` : input.reason
      await tx.run(
        `INSERT INTO instant_payouts (id, ticket_id, batch_id, game_no, serial, kind, tier, amount_cents, currency, reason, station_id, cashier_id, paid_at)
         VALUES (?, ?, ?, ?, ?, 'refund', ?, ?, ?, ?, ?, ?, ?)`,
        [id, t.ticketId, t.batch.id, t.batch.game_no, t.serial, t.tier, t.batch.price_cents, t.batch.currency, reason, input.stationId, input.cashierId, at],
      )
      const rec = await appendJournal(tx, { at, type: 'instant.misprint_refunded', scope: scopeOf(t.batch), payload: { payoutId: id, gameNo: t.batch.game_no, serial: t.serial, amountCents: t.batch.price_cents, reason, stationId: input.stationId, cashierId: input.cashierId } })
      return { payoutId: id, serial: t.serial, amountCents: t.batch.price_cents, currency: t.batch.currency, reason, journalSeq: rec.seq }
    })
  }

  // ---------------------------------------------------------------------------------------------- inventory

  function packRange(b: BatchRow, fromPack: number, toPack: number) {
    if (!Number.isInteger(fromPack) || !Number.isInteger(toPack) || fromPack < 1 || toPack < fromPack || toPack > b.pack_count) {
      throw new DomainError('VALIDATION_FAILED', `packs must be a range within 1..${b.pack_count}`)
    }
  }

  /** Sends packs from the warehouse to a retailer or kiosk (they travel inactive). */
  async function shipPacks(input: { gameNo: number; fromPack: number; toPack: number; destination: string; by: string }) {
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      if (b.channel !== 'printed') throw new DomainError('VALIDATION_FAILED', 'electronic games have no packs to ship')
      packRange(b, input.fromPack, input.toPack)
      const notHere = await tx.get<{ pack_no: number; status: string }>("SELECT pack_no, status FROM instant_packs WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status <> 'warehouse' ORDER BY pack_no LIMIT 1", [b.id, input.fromPack, input.toPack])
      if (notHere) throw new DomainError('CONFLICT', `pack ${notHere.pack_no} is ${notHere.status}, not in the warehouse`, { packNo: notHere.pack_no })
      const at = now()
      const r = await tx.run("UPDATE instant_packs SET status = 'shipped', location = ?, shipped_at = ? WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status = 'warehouse'", [input.destination, at, b.id, input.fromPack, input.toPack])
      const rec = await appendJournal(tx, { at, type: 'instant.packs_shipped', scope: scopeOf(b), payload: { gameNo: b.game_no, fromPack: input.fromPack, toPack: input.toPack, packs: r.changes, destination: input.destination, by: input.by } })
      return { packs: r.changes, destination: input.destination, journalSeq: rec.seq }
    })
  }

  /** Activates a pack on arrival at the place it was shipped to; identified by any of its tickets' inventory codes, or game and pack number. */
  async function activatePack(input: { code?: string; gameNo?: number; packNo?: number; location: string; by: string }) {
    return db.transaction(async (tx) => {
      let b: BatchRow
      let packNo: number
      if (input.code) {
        const t = await byInventoryCode(tx, input.code)
        b = t.batch
        packNo = t.packNo
      } else {
        b = await batchByGame(tx, Number(input.gameNo))
        packNo = Number(input.packNo)
        packRange(b, packNo, packNo)
      }
      const pack = await tx.get<{ status: string; location: string | null }>('SELECT status, location FROM instant_packs WHERE batch_id = ? AND pack_no = ?', [b.id, packNo])
      if (!pack) throw new DomainError('NOT_FOUND', `pack ${packNo} of game ${b.game_no} not found`)
      if (pack.status === 'lost' || pack.status === 'stolen') throw new DomainError('TICKET_BLOCKED', `pack ${packNo} was reported ${pack.status} (LST-7)`)
      if (pack.status !== 'shipped') throw new DomainError('ILLEGAL_TRANSITION', `pack ${packNo} is ${pack.status}; only a shipped pack is activated on arrival`)
      if (pack.location !== input.location) throw new DomainError('CONFLICT', `pack ${packNo} was shipped to ${pack.location}, not to ${input.location}`)
      if (b.status === 'closed') throw new DomainError('SALES_CLOSED', `instant game ${b.game_no} is closed`)
      const at = now()
      const r = await tx.run("UPDATE instant_packs SET status = 'activated', activated_at = ?, activated_by = ? WHERE batch_id = ? AND pack_no = ? AND status = 'shipped'", [at, input.by, b.id, packNo])
      if (r.changes !== 1) throw new DomainError('CONFLICT', `pack ${packNo} changed meanwhile`)
      const rec = await appendJournal(tx, { at, type: 'instant.pack_activated', scope: scopeOf(b), payload: { gameNo: b.game_no, packNo, location: input.location, by: input.by } })
      return { gameNo: b.game_no, packNo, location: input.location, activatedAt: at, journalSeq: rec.seq }
    })
  }

  /**
   * Reports a range lost or stolen (LST-1, LST-2, LST-5): from then on no ticket in it is sold, paid, refunded or
   * exchanged. Theft needs the police or prosecutor complaint reference. Whole packs in the range change status.
   */
  async function reportLostOrStolen(input: {
    gameNo: number; kind: 'lost' | 'stolen'; fromSerial?: string; toSerial?: string; fromPack?: number; toPack?: number
    discoveredAt: string; regulatorReportedAt?: string; policeReportRef?: string; remedy?: string; note?: string; by: string
  }) {
    if (input.kind === 'stolen' && !input.policeReportRef?.trim()) throw new DomainError('VALIDATION_FAILED', 'a theft report needs the police or prosecutor complaint reference (LST-5)', { field: 'policeReportRef' })
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      let first: number
      let last: number
      if (input.fromSerial && input.toSerial) {
        const a = parseSerial(input.fromSerial)
        const z = parseSerial(input.toSerial)
        if (a.gameNo !== b.game_no || z.gameNo !== b.game_no) throw new DomainError('VALIDATION_FAILED', `serials must belong to game ${b.game_no}`)
        first = (a.packNo - 1) * b.pack_size + a.position
        last = (z.packNo - 1) * b.pack_size + z.position
      } else if (input.fromPack !== undefined && input.toPack !== undefined) {
        packRange(b, input.fromPack, input.toPack)
        first = (input.fromPack - 1) * b.pack_size
        last = input.toPack * b.pack_size - 1
      } else {
        throw new DomainError('VALIDATION_FAILED', 'give fromSerial and toSerial, or fromPack and toPack')
      }
      if (first > last || first < 0 || last >= b.ticket_count) throw new DomainError('VALIDATION_FAILED', 'the range is empty or outside the game')
      const distributed = await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM instant_packs WHERE batch_id = ? AND pack_no BETWEEN ? AND ? AND status <> 'warehouse'", [b.id, Math.floor(first / b.pack_size) + 1, Math.floor(last / b.pack_size) + 1])
      const stage = Number(distributed?.n ?? 0) > 0 ? 'after-distribution' : 'before-distribution'
      const at = now()
      const id = newId('inr')
      await tx.run(
        `INSERT INTO instant_reports (id, batch_id, kind, first_index, last_index, ticket_count, stage, discovered_at, regulator_reported_at, police_report_ref, remedy, note, reported_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, b.id, input.kind, first, last, last - first + 1, stage, input.discoveredAt, input.regulatorReportedAt ?? null, input.policeReportRef ?? null, input.remedy ?? null, input.note ?? '', input.by, at],
      )
      // Packs wholly inside the range take the report's status.
      const firstWhole = Math.ceil(first / b.pack_size) + 1
      const lastWhole = Math.floor((last + 1) / b.pack_size)
      if (lastWhole >= firstWhole) await tx.run('UPDATE instant_packs SET status = ? WHERE batch_id = ? AND pack_no BETWEEN ? AND ?', [input.kind, b.id, firstWhole, lastWhole])
      const range = { fromSerial: serialOfIndex(b, first), toSerial: serialOfIndex(b, last), tickets: last - first + 1 }
      const rec = await appendJournal(tx, { at, type: 'instant.range_reported', scope: scopeOf(b), payload: { reportId: id, gameNo: b.game_no, kind: input.kind, stage, ...range, discoveredAt: input.discoveredAt, regulatorReportedAt: input.regulatorReportedAt ?? null, policeReportRef: input.policeReportRef ?? null, remedy: input.remedy ?? null, by: input.by } })
      return { reportId: id, kind: input.kind, stage, ...range, journalSeq: rec.seq }
    })
  }

  function serialOfIndex(b: BatchRow, index: number): string {
    return formatSerial({ gameNo: b.game_no, packNo: Math.floor(index / b.pack_size) + 1, position: index % b.pack_size })
  }

  /** LST-3: the public notice of every range reported lost or stolen in a game. */
  async function publicNotice(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const rows = await db.all<{ kind: string; first_index: number; last_index: number; ticket_count: number; discovered_at: string; created_at: string }>('SELECT kind, first_index, last_index, ticket_count, discovered_at, created_at FROM instant_reports WHERE batch_id = ? ORDER BY first_index', [b.id])
    const ranges = rows.map((r) => ({ kind: r.kind, fromSerial: serialOfIndex(b, Number(r.first_index)), toSerial: serialOfIndex(b, Number(r.last_index)), tickets: Number(r.ticket_count), reportedAt: r.created_at }))
    const text = ranges.length === 0 ? `Juego ${b.game_no} "${b.name}": no hay boletos denunciados como extraviados o robados.`
      : `Juego ${b.game_no} "${b.name}": los boletos de los rangos siguientes fueron denunciados como extraviados o robados; no se pagan, reembolsan ni canjean (LST-4, LST-5). ` +
        ranges.map((r) => `${r.fromSerial} a ${r.toSerial} (${r.tickets}, ${r.kind === 'lost' ? 'extraviados' : 'robados'})`).join('; ') + '.'
    return { gameNo: b.game_no, name: b.name, ranges, text }
  }

  // ---------------------------------------------------------------------------------------------- sales

  /** A pre-printed ticket sold by scanning its inventory code at a kiosk or cashier; its pack must be activated. */
  async function sellPrinted(input: { code: string; stationId: string; hallId?: string }) {
    return db.transaction(async (tx) => {
      const t = await byInventoryCode(tx, input.code)
      if (t.batch.channel !== 'printed') throw new DomainError('VALIDATION_FAILED', 'electronic tickets are sold from the pool, not scanned')
      if (t.batch.status === 'closed') throw new DomainError('SALES_CLOSED', `instant game ${t.batch.game_no} is closed`)
      const blocked = await blockedBy(tx, t)
      if (blocked) throw new DomainError('TICKET_BLOCKED', `ticket ${t.serial} is in a range reported ${blocked.kind} (LST-4, LST-5)`, { reportId: blocked.id })
      if (t.packStatus !== 'activated') throw new DomainError('PACK_NOT_ACTIVATED', `pack ${t.packNo} of game ${t.batch.game_no} is ${t.packStatus}: activate it on arrival before selling`, { packNo: t.packNo })
      const r = await tx.run('UPDATE instant_tickets SET status = ? WHERE id = ? AND status = ?', [TicketState.Sold, t.ticketId, TicketState.InStock])
      if (r.changes !== 1) throw new DomainError('CONFLICT', `ticket ${t.serial} was already sold`, { serial: t.serial })
      const at = now()
      await tx.run('INSERT INTO instant_sales (ticket_id, batch_id, channel, hall_id, station_id, price_cents, sold_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [t.ticketId, t.batch.id, 'printed', input.hallId ?? null, input.stationId, t.batch.price_cents, at])
      const rec = await appendJournal(tx, { at, type: 'instant.ticket_sold', scope: scopeOf(t.batch), payload: { gameNo: t.batch.game_no, serial: t.serial, channel: 'printed', stationId: input.stationId, hallId: input.hallId ?? null, priceCents: t.batch.price_cents } })
      return { serial: t.serial, gameNo: t.batch.game_no, name: t.batch.name, priceCents: t.batch.price_cents, currency: t.batch.currency, soldAt: at, journalSeq: rec.seq }
    })
  }

  interface InstantHallSettings { electronicInstantAllowed?: boolean; authorisationRef?: string }

  async function hallSettings(tx: Sql, hallId: string) {
    const hall = await tx.get<{ id: string; profile_id: string; settings: string }>('SELECT id, profile_id, settings FROM halls WHERE id = ?', [hallId])
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    const profile = getProfile(hall.profile_id)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profile_id}`)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown> & { instant?: InstantHallSettings }
    return { hall, profile, settings, electronicInstantAllowed: settings.instant?.electronicInstantAllowed ?? profile.electronicInstantAllowed }
  }

  /**
   * Overrides the profile's on-screen instant switch for one hall (INS-15/16: allowed only under a specific
   * authorisation, whose reference is required to switch it on). Journaled.
   */
  async function configureHall(input: { hallId: string; electronicInstantAllowed: boolean; authorisationRef?: string; by: string }) {
    if (input.electronicInstantAllowed && !input.authorisationRef?.trim()) throw new DomainError('VALIDATION_FAILED', 'switching on-screen instant sales on needs the authorisation reference (INS-15)', { field: 'authorisationRef' })
    return db.transaction(async (tx) => {
      const { hall, settings } = await hallSettings(tx, input.hallId)
      const instant: InstantHallSettings = { electronicInstantAllowed: input.electronicInstantAllowed, authorisationRef: input.authorisationRef?.trim() }
      await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [JSON.stringify({ ...settings, instant }), hall.id])
      const rec = await appendJournal(tx, { at: now(), type: 'instant.hall_configured', scope: `hall:${hall.id}`, payload: { hallId: hall.id, ...instant, by: input.by } })
      return { hallId: hall.id, ...instant, journalSeq: rec.seq }
    })
  }

  /**
   * On-screen (e-instant) sale: the next ticket of the game's pre-generated pool, in generated order, so the finite
   * prize structure holds exactly as for paper. Refused with RULE_DISABLED where the hall's profile has
   * electronicInstantAllowed off. The validation code is issued now, from the OS CSPRNG, and only its tag stored.
   */
  async function sellElectronic(input: { hallId: string; gameNo: number; stationId: string }) {
    return db.transaction(async (tx) => {
      const hs = await hallSettings(tx, input.hallId)
      if (!hs.electronicInstantAllowed) {
        throw new DomainError('RULE_DISABLED', `profile ${hs.profile.id} does not allow on-screen instant sales: that needs the AJ's specific regulation (INS-15, INS-16)`, { rule: 'INS-15', profileId: hs.profile.id })
      }
      const b = await batchByGame(tx, input.gameNo)
      if (b.channel !== 'electronic') throw new DomainError('VALIDATION_FAILED', `game ${b.game_no} is pre-printed: sell it by scanning its inventory code`)
      if (b.status === 'closed') throw new DomainError('SALES_CLOSED', `instant game ${b.game_no} is closed`)
      const index = b.next_sale_index
      if (index >= b.ticket_count) throw new DomainError('SERIES_EXHAUSTED', `every ticket of game ${b.game_no} has been sold`)
      const moved = await tx.run('UPDATE instant_batches SET next_sale_index = ? WHERE id = ? AND next_sale_index = ?', [index + 1, b.id, index])
      if (moved.changes !== 1) throw new DomainError('CONFLICT', 'another sale took this ticket; try again')
      const secret = Buffer.from(deps.entropy.randomBytes(8))
      const code = formatValidationCode(b.game_no, index, secret.readUInt32BE(0) >>> 2, secret.readUInt32BE(4) >>> 2)
      const ticketId = b.first_id + index
      const r = await tx.run('UPDATE instant_tickets SET status = ?, code_tag = ? WHERE id = ? AND status = ?', [TicketState.Sold, codeTag(deps.pepper, code), ticketId, TicketState.InStock])
      if (r.changes !== 1) throw new DomainError('CONFLICT', `ticket ${index} of game ${b.game_no} is not in stock`)
      const at = now()
      await tx.run('INSERT INTO instant_sales (ticket_id, batch_id, channel, hall_id, station_id, price_cents, sold_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [ticketId, b.id, 'electronic', input.hallId, input.stationId, b.price_cents, at])
      const c = checkedOf(b)
      const row = await tx.get<{ tier: number }>('SELECT tier FROM instant_tickets WHERE id = ?', [ticketId])
      const tier = Number(row?.tier ?? 0)
      const serial = serialOfIndex(b, index)
      const rec = await appendJournal(tx, { at, type: 'instant.ticket_sold', scope: scopeOf(b), payload: { gameNo: b.game_no, serial, channel: 'electronic', stationId: input.stationId, hallId: input.hallId, priceCents: b.price_cents } })
      const face = ticketFace(c, Buffer.from(b.symbols_key, 'hex'), index, tier)
      return {
        gameNo: b.game_no, name: b.name, serial, priceCents: b.price_cents, currency: b.currency, soldAt: at,
        playStyle: c.design.playStyle.type, face, symbolAmountsCents: c.symbolAmountsCents,
        prizeCents: evaluateFace(face, c.symbolAmountsCents).amountCents,
        validationCode: code, qr: encodeTicketCode({ kind: TicketKind.instant, id: code }, keys.privateKey),
        instructions: c.design.back.instructions ?? null, claimDays: c.design.claimDays, paymentPlace: c.design.back.paymentPlace, journalSeq: rec.seq,
      }
    })
  }

  /** Stops sales; the claim period (design claimDays) runs from now (INS-10). */
  async function closeGame(input: { gameNo: number; by: string }) {
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      if (b.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `instant game ${b.game_no} is already closed`)
      const at = now()
      await tx.run("UPDATE instant_batches SET status = 'closed', closed_at = ? WHERE id = ?", [at, b.id])
      const rec = await appendJournal(tx, { at, type: 'instant.game_closed', scope: scopeOf(b), payload: { gameNo: b.game_no, by: input.by, claimDays: checkedOf(b).design.claimDays } })
      return { gameNo: b.game_no, closedAt: at, journalSeq: rec.seq }
    })
  }

  // ---------------------------------------------------------------------------------------------- registers and reports

  /** Prize register (INS-5, §7.13): game, ticket, payee names and document, prize, signature reference. */
  async function prizeRegister(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const rows = await db.all<Record<string, unknown>>('SELECT * FROM instant_payouts WHERE batch_id = ? ORDER BY paid_at, id', [b.id])
    return {
      gameNo: b.game_no, name: b.name, currency: b.currency,
      entries: rows.map((r) => ({
        payoutId: r.id, kind: r.kind, serial: r.serial, tier: Number(r.tier), amountCents: Number(r.amount_cents), reason: r.reason ?? null,
        payee: r.kind === 'prize' ? { name: r.payee_name, document: r.payee_document, signatureRef: r.signature_ref } : null,
        stationId: r.station_id, cashierId: r.cashier_id, paidAt: r.paid_at,
      })),
    }
  }

  /**
   * Reconciliation of a game: generated, distributed, activated, lost or stolen, sold, prizes paid and unpaid per
   * tier (in play, expired, never in play), refunds, and the payout share achieved.
   */
  async function reconciliation(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const c = checkedOf(b)
    const d = c.design
    const T = d.tiers.length
    const packs = await db.all<{ status: string; prize_counts: string }>('SELECT status, prize_counts FROM instant_packs WHERE batch_id = ?', [b.id])
    const packStatus: Record<string, number> = {}
    const inPlay = new Array<number>(T).fill(0)
    for (const p of packs) {
      packStatus[p.status] = (packStatus[p.status] ?? 0) + 1
      if (b.channel === 'printed' && p.status === 'activated') {
        const counts = JSON.parse(p.prize_counts) as number[]
        for (let k = 0; k < T; k++) inPlay[k] += counts[k]
      }
    }
    if (b.channel === 'electronic') {
      const rows = await db.all<{ tier: number; n: number }>('SELECT tier, COUNT(*) AS n FROM instant_tickets WHERE id >= ? AND id < ? AND status > 0 AND tier > 0 GROUP BY tier', [b.first_id, b.first_id + b.ticket_count])
      for (const r of rows) inPlay[Number(r.tier) - 1] = Number(r.n)
    }
    const paidRows = await db.all<{ kind: string; tier: number; n: number; cents: number }>('SELECT kind, tier, COUNT(*) AS n, SUM(amount_cents) AS cents FROM instant_payouts WHERE batch_id = ? GROUP BY kind, tier', [b.id])
    const paid = new Array<number>(T).fill(0)
    const paidCents = new Array<number>(T).fill(0)
    let refunds = 0
    let refundCents = 0
    const refundedWinners = new Array<number>(T).fill(0)
    for (const r of paidRows) {
      if (r.kind === 'prize') {
        paid[Number(r.tier) - 1] += Number(r.n)
        paidCents[Number(r.tier) - 1] += Number(r.cents)
      } else {
        refunds += Number(r.n)
        refundCents += Number(r.cents)
        if (Number(r.tier) > 0) refundedWinners[Number(r.tier) - 1] += Number(r.n)
      }
    }
    const sold = await db.get<{ n: number; cents: number | null }>('SELECT COUNT(*) AS n, SUM(price_cents) AS cents FROM instant_sales WHERE batch_id = ?', [b.id])
    const reported = await db.all<{ kind: string; n: number }>('SELECT kind, SUM(ticket_count) AS n FROM instant_reports WHERE batch_id = ? GROUP BY kind', [b.id])
    const expiry = b.closed_at ? new Date(Date.parse(b.closed_at) + d.claimDays * 86_400_000).toISOString() : null
    const expired = expiry !== null && now() > expiry
    const packsOf = (s: string) => packStatus[s] ?? 0
    const activatedPacks = b.channel === 'electronic' ? b.pack_count : packsOf('activated')
    const distributedPacks = b.channel === 'electronic' ? b.pack_count : b.pack_count - packsOf('warehouse')
    const soldTickets = Number(sold?.n ?? 0)
    const soldCents = Number(sold?.cents ?? 0)
    // Value of the stock in play: activated pre-printed packs, or electronic tickets sold.
    const inPlayTickets = b.channel === 'electronic' ? soldTickets : activatedPacks * b.pack_size
    const inPlayFund = inPlay.reduce((s, n, k) => s + n * d.tiers[k].amountCents, 0)
    const totalPaid = paidCents.reduce((a, x) => a + x, 0)
    const salesBase = Math.max(soldCents, b.channel === 'printed' ? inPlayTickets * b.price_cents : 0)
    return {
      gameNo: b.game_no, name: b.name, channel: b.channel, status: b.status, currency: b.currency, priceCents: b.price_cents,
      generatedAt: b.generated_at, closedAt: b.closed_at, claimExpiresAt: expiry, asOf: now(),
      generated: { tickets: b.ticket_count, packs: b.pack_count, packSize: b.pack_size, prizeFundCents: c.prizeFundCents, salesValueCents: c.salesCents },
      distributed: { packs: distributedPacks, tickets: distributedPacks * b.pack_size },
      activated: { packs: activatedPacks, tickets: activatedPacks * b.pack_size },
      packsByStatus: packStatus,
      lostOrStolen: { lostTickets: Number(reported.find((r) => r.kind === 'lost')?.n ?? 0), stolenTickets: Number(reported.find((r) => r.kind === 'stolen')?.n ?? 0) },
      sold: { tickets: soldTickets, amountCents: soldCents, note: b.channel === 'printed' ? 'tickets scanned at a kiosk or cashier; stock of activated packs sold without a scanner is counted in activated' : 'electronic pool' },
      tiers: d.tiers.map((t, k) => {
        const unpaidInPlay = Math.max(0, inPlay[k] - paid[k] - refundedWinners[k])
        return {
          tier: k + 1, amountCents: t.amountCents, generated: t.count, inPlay: inPlay[k], notInPlay: t.count - inPlay[k],
          paid: paid[k], paidCents: paidCents[k], refundedAsMisprint: refundedWinners[k],
          unpaid: expired ? 0 : unpaidInPlay, unpaidCents: expired ? 0 : unpaidInPlay * t.amountCents,
          expired: expired ? unpaidInPlay : 0, expiredCents: expired ? unpaidInPlay * t.amountCents : 0,
        }
      }),
      refunds: { tickets: refunds, amountCents: refundCents },
      payoutShare: {
        designBp: c.payoutShareBp,
        inPlayBp: inPlayTickets > 0 ? Math.floor((inPlayFund * 10_000) / (inPlayTickets * b.price_cents)) : null,
        paidOfSalesBp: salesBase > 0 ? Math.floor((totalPaid * 10_000) / salesBase) : null,
        salesBaseCents: salesBase,
        paidCents: totalPaid,
      },
    }
  }

  /** The derived data of one ticket for the print sheet or an audit: serial, code, face (needs the seed). */
  function ticketPrintData(design: InstantDesign, seed: string, index: number, tier: number) {
    const c = checkDesign(design)
    const packNo = Math.floor(index / design.packSize) + 1
    return {
      serial: formatSerial({ gameNo: design.gameNo, packNo, position: index % design.packSize }),
      code: createCodeBatch(deriveKey(seed, design.gameNo, 'code'), design.gameNo).codes(index, 1)[0],
      face: ticketFace(c, deriveKey(seed, design.gameNo, 'symbols'), index, tier),
    }
  }

  /** True when a scanned or typed code is an instant ticket's: a kind `I` QR or a bare validation code. */
  function handles(text: string): boolean {
    const t = String(text ?? '').trim()
    if (t.startsWith('BLL1.I.')) return true
    return /^\d{4}[0-9A-Za-z]{20}$/.test(t.replace(/[\s-]/g, ''))
  }

  /** §8 outcome in the words of the generic cashier scan (payouts.ts TicketStatus), plus the instant details. */
  const SCAN_STATUS: Record<ValidationOutcome, string> = {
    WIN: 'winner', NO_WIN: 'not_winner', ALREADY_PAID: 'paid', EXPIRED: 'expired', REPORTED_LOST_STOLEN: 'blocked', REFUND_ONLY: 'void', NOT_ACTIVATED: 'not_activated',
  }
  async function scan(code: string, who: { stationId?: string; cashierId?: string } = {}) {
    const v = await validate({ code, ...who })
    const paid = v.outcome === 'ALREADY_PAID'
      ? await db.get<{ id: string; paid_at: string; station_id: string; cashier_id: string }>('SELECT id, paid_at, station_id, cashier_id FROM instant_payouts WHERE serial = ? AND game_no = ?', [v.serial, v.gameNo])
      : undefined
    // The generic scan's fields (payouts.ts TicketStatus) so that the cashier screen shows an instant ticket too:
    // no card grid, one prize line, the payee always asked for (INS-5).
    return {
      kind: 'instant' as const, status: SCAN_STATUS[v.outcome], ...v, ticketId: v.serial, rows: [] as number[][],
      prizes: v.tier > 0 ? [{ id: `instant-${v.serial}`, kind: 'instant', amountCents: v.amountCents }] : [],
      idRequired: true, claimUntil: v.expiresAt ?? '', expiredAt: v.expiresAt ?? '', refundCents: v.outcome === 'REFUND_ONLY' ? v.priceCents : 0,
      paidAt: paid?.paid_at ?? '', stationId: paid?.station_id ?? null, cashierId: paid?.cashier_id ?? null, payoutId: paid?.id ?? null,
    }
  }

  return {
    handles, scan,
    generateBatch, listGames, getGame, validate, pay, refund, shipPacks, activatePack, reportLostOrStolen, publicNotice,
    sellPrinted, sellElectronic, configureHall, closeGame, prizeRegister, reconciliation, ticketPrintData, pepperId,
    /** The operator's signed QR payload of an instant-ticket id (serial or validation code). */
    signCode: (id: string) => encodeTicketCode({ kind: TicketKind.instant, id }, keys.privateKey),
    parseQr: (text: string) => parseTicketCode(text),
  }
}
export type InstantService = ReturnType<typeof createInstantService>
