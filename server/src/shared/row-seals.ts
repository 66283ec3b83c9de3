/**
 * Issue 24 point 1, state that proves itself: every row that carries value (vouchers, cash movements, shifts, sale
 * payments, kiosk purchases, prizes of every kind, payouts, refunds) is sealed with HMAC-SHA256 under a key derived
 * from the sealing key (never in the database) over its value columns and the seq of the journal record that made it.
 * The same MAC is written into that record's payload (`rowSeals`), so the hash-chained journal holds each row's
 * latest seal: a row edited in the database no longer matches its MAC, and a row put back with its old seal from an
 * older copy no longer matches the journal's latest seal of it. README "Sealed rows" has the threat model.
 *
 * How rows get sealed: the store function that writes a sealed row calls {@link touchRows} with the transaction it
 * wrote in (the transaction is found from the async context it runs in); the journal record appended next in it (`appendJournal`) seals every row touched so far
 * (reading them back, in the same transaction, unless the writer handed over the values it wrote: {@link touchWrittenRows}); rows touched after the last record are sealed at the end of the
 * transaction by one `rows.sealed` record ({@link withRowSeals}). A transaction not opened through
 * {@link withRowSeals} (tests of a store, tools without a key) seals nothing and checks nothing.
 */
import { asyncSlot } from './async-slot.ts'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import { DomainError } from './errors.ts'
import {
  rowIdsWhere,
  rowsByIds,
  rowsWithSeals,
  rowsWithSealsAfter,
  sealsOf,
  unsealedIds,
  upsertRowSeals,
} from './store.ts'

export const ROW_SEAL_VERSION = 'bolillo-row-seal-v1'

/** The sealed tables and the columns each seal covers (all of a row that decides what it is worth or pays). */
export const SEALED_TABLES = {
  vouchers: [
    'id',
    'hall_id',
    'currency',
    'amount_cents',
    'status',
    'origin',
    'parent_id',
    'station_id',
    'issued_by',
    'issued_at',
    'expires_at',
    'small_cents',
    'other_cents',
    'buyer_document',
    'short_code',
    'spent_at',
    'spent_station',
    'spent_for',
    'spent_ref',
  ],
  cash_movements: [
    'id',
    'hall_id',
    'station_id',
    'cashier_id',
    'kind',
    'amount_cents',
    'currency',
    'ref_id',
    'at',
    'shift_id',
    'product',
  ],
  cashier_shifts: [
    'id',
    'hall_id',
    'station_id',
    'cashier_id',
    'currency',
    'float_cents',
    'status',
    'opened_at',
    'closed_at',
    'expected_cents',
    'counted_cents',
    'difference_cents',
  ],
  sale_payments: [
    'id',
    'hall_id',
    'station_id',
    'sold_by',
    'product',
    'ref_id',
    'amount_cents',
    'currency',
    'paid_by',
    'payment_ref',
    'at',
  ],
  kiosk_purchases: [
    'id',
    'kiosk_id',
    'hall_id',
    'game_id',
    'voucher_id',
    'change_voucher_id',
    'card_count',
    'amount_cents',
    'card_ids',
    'created_at',
  ],
  prizes: ['id', 'game_id', 'card_id', 'kind', 'amount_cents', 'status', 'awarded_at', 'paid_at', 'paid_by'],
  bonus_prizes: [
    'id',
    'game_id',
    'card_id',
    'hall_id',
    'source',
    'pot_id',
    'prize_kind',
    'amount_cents',
    'status',
    'awarded_at',
    'paid_at',
    'paid_by',
    'payment_method',
    'cheque_number',
  ],
  payouts: [
    'id',
    'card_id',
    'game_id',
    'hall_id',
    'amount_cents',
    'currency',
    'prize_ids',
    'station_id',
    'cashier_id',
    'paid_at',
    'payment_method',
    'cheque_number',
  ],
  refunds: [
    'id',
    'product',
    'ticket_id',
    'hall_id',
    'game_ref',
    'amount_cents',
    'currency',
    'method',
    'voucher_id',
    'station_id',
    'cashier_id',
    'shift_id',
    'refunded_at',
  ],
  // The lotto, numbered lottery, raffle and instant lines: what a receipt, fraction or ticket is worth and whether it
  // was sold, paid or refunded.
  lotto_slips: [
    'id',
    'game_code',
    'first_draw_no',
    'draw_count',
    'boards',
    'board_count',
    'quick_picks',
    'amount_cents',
    'player_name',
    'player_document',
    'channel',
    'status',
    'status_reason',
    'status_at',
    'sold_at',
  ],
  lotto_wins: ['draw_id', 'receipt', 'board', 'category', 'matches', 'amount_cents', 'goods', 'paid_at'],
  // PRM-2: a points tómbola's tickets used and objects handed over (a use deleted would let a ticket count again).
  tombola_ticket_uses: ['draw_id', 'number', 'ticket_id', 'points', 'payout_id', 'used_at'],
  tombola_objects_taken: ['draw_id', 'object_code', 'payout_id', 'taken_at'],
  lottery_payouts: [
    'id',
    'draw_id',
    'product',
    'ticket_id',
    'amount_cents',
    'goods',
    'prizes',
    'currency',
    'station_id',
    'cashier_id',
    'payee_name',
    'payee_document',
    'signature_ref',
    'paid_at',
  ],
  lottery_sales: ['draw_id', 'serial', 'number', 'channel', 'buyer_name', 'sold_at'],
  lottery_fractions: [
    'draw_id',
    'number',
    'series',
    'fraction',
    'run_no',
    'status',
    'seller_id',
    'seller_name',
    'distributed_at',
    'returned_at',
  ],
  instant_tickets: ['id', 'prize_tag', 'code_tag', 'status'],
  instant_sales: ['ticket_id', 'batch_id', 'channel', 'hall_id', 'station_id', 'price_cents', 'sold_at'],
  instant_payouts: [
    'id',
    'ticket_id',
    'batch_id',
    'game_no',
    'serial',
    'kind',
    'tier',
    'amount_cents',
    'currency',
    'reason',
    'station_id',
    'cashier_id',
    'payee_name',
    'payee_document',
    'signature_ref',
    'paid_at',
  ],
  // Bingo cards: the numbers a prize is judged on and the status a refund or a payout reads (sold, refunded).
  // Issue 24 point 1: the accumulated pots' ledgers (progressive, interconnected, lucky ball): a pot's balance is the
  // sum of its entries, and what a pot pays is that balance.
  pot_ledger: [
    'pot_id',
    'entry_no',
    'kind',
    'game_id',
    'hall_id',
    'prize_id',
    'main_cents',
    'reserve_cents',
    'detail',
    'created_at',
  ],
  // Issue 24 point 1: a hall's prima (BNG-57 to BNG-64): the fund and amount a game announces and awards, what each
  // game announced (the award is the announced amount), and the ledger of every movement of the fund.
  prima_halls: [
    'hall_id',
    'amounts',
    'amount_cents',
    'deduction_bp',
    'min_amount_cents',
    'max_amount_cents',
    'step_cents',
    'base_ball_limit',
    'increment_per_game',
    'reset_policy',
    'fund_cents',
    'ball_limit',
    'cycle_games',
    'unwon_games',
    'amount_changeable',
    'entries',
    'updated_at',
  ],
  prima_games: [
    'game_id',
    'hall_id',
    'active',
    'amount_cents',
    'ball_limit',
    'fund_at_start_cents',
    'deduction_cents',
    'outcome',
  ],
  prima_ledger: ['hall_id', 'entry_no', 'kind', 'game_id', 'amount_cents', 'fund_after_cents', 'detail', 'created_at'],
  // Issue 24 point 1: what a bingo card costs. A series' face value is copied into each game announced from it, and
  // the game's prices every sale of it; both are written once, when the series or game is created (the columns a game
  // changes as it is played are not sealed).
  games: [
    'id',
    'session_id',
    'hall_id',
    'order_no',
    'face_value_cents',
    'ball_count',
    'layout',
    'line_bp',
    'bingo_bp',
    'created_at',
  ],
  series: ['id', 'hall_id', 'code', 'master_set_id', 'card_count', 'face_value_cents', 'created_at'],
  // GEN-17 (issue 24 point 1): the cash a person paid, with its notes and the keyed buyer, on which the AML day totals
  // add up; and the officer's records opened from them, with the decision taken.
  cash_intakes: [
    'id',
    'hall_id',
    'station_id',
    'cashier_id',
    'source',
    'ref_id',
    'amount_cents',
    'currency',
    'counted',
    'small_cents',
    'other_cents',
    'buyer_document',
    'buyer_key',
    'at',
  ],
  aml_reports: [
    'id',
    'hall_id',
    'station_id',
    'cashier_id',
    'voucher_id',
    'buyer_document',
    'buyer_key',
    'intake_id',
    'amount_cents',
    'small_cents',
    'window_small_cents',
    'limit_cents',
    'threshold_cents',
    'share_bp',
    'status',
    'created_at',
    'reviewed_at',
    'reviewed_by',
    'review_note',
  ],
  cards: ['id', 'game_id', 'series_id', 'card_no', 'serial', 'card_key', 'numbers', 'status', 'channel', 'sold_at'],
  // Player terminals (issue 27): a session's balance spent on cards and paid back as a change voucher, its ledger,
  // and the held cards a prize is credited for (once).
  terminal_sessions: [
    'id',
    'hall_id',
    'terminal_id',
    'voucher_id',
    'currency',
    'balance_cents',
    'spent_cents',
    'won_cents',
    'status',
    'opened_at',
    'closed_at',
    'closed_by',
    'closed_station',
    'change_voucher_id',
  ],
  terminal_ledger: ['id', 'session_id', 'at', 'kind', 'amount_cents', 'balance_cents', 'ref_id', 'game_id'],
  terminal_cards: ['card_id', 'session_id', 'game_id', 'credited_at'],
  // Issue 24 point 1 (the rules added by migrations 0340-0370): a game's own bet limits (CFG-7), a hall's approved
  // plans (the figure plan a game's figures and shares come from, CFG-13; its layouts and derived games), a game's
  // figures with the pool each pays and whether it was given, the certified software records (RNG-32) and the
  // software each game was announced with. A limit, a share or a certificate edited behind the journal is refused
  // where the server reads it, as a price is.
  game_sale_limits: ['game_id', 'limits', 'authorisation_ref', 'set_at', 'set_by'],
  hall_plans: ['id', 'hall_id', 'kind', 'version', 'authorisation_ref', 'body', 'created_at', 'created_by'],
  game_figures: [
    'game_id',
    'figure',
    'position',
    'share_bp',
    'plan_version',
    'authorisation_ref',
    'pool_cents',
    'awarded_at',
  ],
  certified_software: [
    'id',
    'component',
    'jurisdiction',
    'version',
    'build_sha256',
    'certificate_ref',
    'laboratory',
    'demo',
    'status',
    'recorded_by',
    'recorded_at',
    'withdrawn_at',
    'withdrawn_reason',
  ],
  game_software: [
    'game_id',
    'component',
    'version',
    'build_sha256',
    'certified_software_id',
    'certificate_ref',
    'assigned_at',
  ],
  // Issue 24 point 1 (issue 26, migration 0370): the registered equipment, a ticket printer above all: its seal code,
  // type approval, issuing authorisation (BNG-9), status and the device it prints for decide whether a kiosk or station
  // may sell or pay (access/device-marks.ts). A seal blanked or a printer moved to serve another device behind the
  // journal is refused where the sale reads it. Not sealed: what a device reports of itself (firmware, last seen).
  devices: [
    'id',
    'hall_id',
    'kind',
    'name',
    'manufacturer',
    'model',
    'serial_no',
    'seal_code',
    'certificate_id',
    'certificate_expires_at',
    'type_approval_no',
    'parent_id',
    'serves_device_id',
    'issuing_authorisation',
    'status',
    'created_at',
  ],
  // INS-3 / RNG-27 (migration 0470): the AJ-authorised certifiers of the instant generator and their keys. A key
  // swapped or a withdrawn certifier put back active behind the journal certifies nothing (ROW_TAMPERED).
  instant_generator_certifiers: [
    'id',
    'name',
    'aj_authorisation_ref',
    'public_key',
    'status',
    'recorded_by',
    'recorded_at',
    'withdrawn_at',
    'withdrawn_reason',
  ],
  // GEN-23 / CFG-4 (migration 0380): the exclusion list, with the international list an entry came from and its lifting.
  player_exclusions: [
    'id',
    'document',
    'document_key',
    'name',
    'kind',
    'reason',
    'hall_id',
    'until_at',
    'list_source',
    'created_by',
    'created_at',
    'lifted_at',
    'lifted_by',
  ],
} as const satisfies Record<string, readonly string[]>

/**
 * Tables whose rows the retention rules delete (issue 18: a session's non-winning cards): a row gone pays nothing
 * (the payout and refund read the row itself), so verification does not report it missing.
 */
export const PURGED_TABLES: readonly string[] = ['cards']

/**
 * How a row is named in `row_seals` when not by its `id`: the columns of its key, joined with '|'. A payout row of the
 * lotto, lottery and instant lines is named by what it pays (draw and ticket, or ticket), which is UNIQUE: a payout
 * deleted to pay a ticket twice leaves the seal of its name, and the second payment is refused.
 */
export const SEAL_KEYS: Partial<Record<keyof typeof SEALED_TABLES, readonly string[]>> = {
  lotto_wins: ['draw_id', 'receipt', 'board'],
  pot_ledger: ['pot_id', 'entry_no'],
  prima_halls: ['hall_id'],
  prima_games: ['game_id'],
  prima_ledger: ['hall_id', 'entry_no'],
  lottery_payouts: ['draw_id', 'ticket_id'],
  tombola_ticket_uses: ['draw_id', 'number'],
  tombola_objects_taken: ['draw_id', 'object_code'],
  lottery_sales: ['draw_id', 'serial'],
  lottery_fractions: ['draw_id', 'number', 'series', 'fraction'],
  instant_tickets: ['id'],
  instant_sales: ['ticket_id'],
  instant_payouts: ['ticket_id'],
  terminal_cards: ['card_id'],
  game_sale_limits: ['game_id'],
  game_figures: ['game_id', 'figure'],
  game_software: ['game_id', 'component'],
}

/**
 * Rows that carry no value until the server changes them need no seal before: an instant ticket in stock (status 0)
 * is as the generator wrote it (its batch's sealed commitment proves it); from its sale on it is sealed.
 */
export const SEAL_SCOPES: Partial<Record<keyof typeof SEALED_TABLES, string>> = {
  instant_tickets: 't.status <> 0',
}
/** {@link SEAL_SCOPES} on a row read: whether it may be without a seal. */
const unsealedAllowed = (table: string, row: Record<string, unknown>): boolean =>
  table === 'instant_tickets' && Number(row.status) === 0 && (row.seal_mac === null || row.seal_mac === undefined)

export type SealedTable = keyof typeof SEALED_TABLES
export const SEALED_TABLE_NAMES = Object.keys(SEALED_TABLES) as SealedTable[]
/** The tables sealed since migration 0061 (the first start-up pass); the products' tables came later (0085). */
/** The tables sealed by the third start-up pass (after the products'): bingo cards and the player terminals'. */
export const CARD_SEALED_TABLES: readonly SealedTable[] = [
  'cards',
  'terminal_sessions',
  'terminal_ledger',
  'terminal_cards',
]
/** The tables sealed by the fourth start-up pass: the GEN-17 cash intakes, the officer's records, the pots' ledgers. */
export const AML_SEALED_TABLES: readonly SealedTable[] = ['cash_intakes', 'aml_reports', 'pot_ledger']
/** The tables sealed by the fifth start-up pass: a hall's prima, its games' announcements and its ledger. */
export const PRIMA_SEALED_TABLES: readonly SealedTable[] = ['prima_halls', 'prima_games', 'prima_ledger']
/** The tables sealed by the sixth start-up pass: a bingo game's and a series' face value. */
export const PRICE_SEALED_TABLES: readonly SealedTable[] = ['games', 'series']
/** The tables sealed by the seventh start-up pass: the rules of migrations 0340-0370 (limits, plans, figures, software). */
export const RULE_SEALED_TABLES: readonly SealedTable[] = [
  'game_sale_limits',
  'hall_plans',
  'game_figures',
  'certified_software',
  'game_software',
]
export const FIRST_SEALED_TABLES: readonly SealedTable[] = [
  'vouchers',
  'cash_movements',
  'cashier_shifts',
  'sale_payments',
  'kiosk_purchases',
  'prizes',
  'bonus_prizes',
  'payouts',
  'refunds',
]

/** The key columns of a table's rows (`id` unless {@link SEAL_KEYS} says otherwise). */
export const keyColumnsOf = (table: SealedTable): readonly string[] => SEAL_KEYS[table] ?? ['id']

/** The name of a row in `row_seals`, from a row read (or written) with its key columns. */
export function rowKeyOf(table: SealedTable, row: Record<string, unknown>): string {
  return keyColumnsOf(table)
    .map((c) => String(row[c]))
    .join('|')
}

/** A row that does not match its seal: which table, which row, and what is wrong. */
export interface RowProblem {
  table: string
  id: string
  what: string
}

export interface RowSealState {
  key: Buffer
  now: () => Date
  pending: Map<SealedTable, Set<string>>
  /**
   * Of the rows pending, those whose stored values the writer handed over ({@link touchWrittenRows}): sealed from
   * these values, without reading the row back. A later touch of the same row without values drops its entry.
   */
  written?: Map<SealedTable, Map<string, Record<string, unknown>>>
  /**
   * The heads of the journal chains this body appended to, and the last seq it took: under the write lock (SQLite)
   * or the chain's lock (PostgreSQL) no one else appends to them, so the next record continues from its chain's head
   * without reading it back. Forgotten when the body ends and when a body nested in it ends (a group-commit unit,
   * perhaps rolled back to its savepoint).
   */
  journalHead?: JournalTip
  /**
   * PostgreSQL: journal seqs the transaction drew ahead and has not used yet, in order (journal-link.ts). One array
   * per transaction, shared by the bodies nested in it (a group commit's units): a unit rolled back leaves its seqs
   * drawn, as any rollback does, and the next unit takes the spares after them.
   */
  spareSeqs: number[]
  /**
   * The voucher whose row this body has just marked spent ({@link touchSpentVoucher}): the journal record that seals
   * it names it in its `voucher_id` column ({@link takeSpentVoucher}).
   */
  spentVoucher?: string
  ended?: boolean
}
type TxState = RowSealState

/** What a transaction knows of the journal it appended to (shared/journal-link.ts). */
export interface JournalTip {
  /** The last seq it took (SQLite: the journal's last). */
  seq: number
  /** Each chain's head: its last record's position in the chain and hash. */
  chains: ReadonlyMap<string, { seq: number; hash: string }>
}
// The transaction being run, found from its async context rather than from the `tx` object, which use cases re-wrap.
const current = asyncSlot<TxState>('row-seals')
const states = {
  get: (_tx: Sql): TxState | undefined => current.get(),
  has: (_tx: Sql): boolean => current.get() !== undefined,
}

/** Runs a transaction's body bound to the row-seal key (done by `withRowSeals` for every transaction it opens). */
export function runWithRowSeals<T>(
  key: Buffer,
  now: () => Date,
  fn: () => Promise<T>,
  /**
   * A group commit's units follow one another under one lock: `link.head` is the journal's head as the previous
   * unit left it (the body starts from it instead of reading it back), and is set to the head this body leaves when
   * it succeeds. The caller forgets it when the body fails (its records are rolled back with its savepoint).
   */
  link?: { head?: JournalTip },
): Promise<T> {
  const outer = current.get()
  const state: TxState = { key, now, pending: new Map(), journalHead: link?.head, spareSeqs: outer?.spareSeqs ?? [] }
  if (link) link.head = undefined
  return current
    .run(state, fn)
    .then((result) => {
      if (link) link.head = state.journalHead
      return result
    })
    .finally(() => {
      state.ended = true
      state.journalHead = undefined
      if (outer) outer.journalHead = undefined
    })
}

/** The head of the journal as this transaction's body last appended it, if it did (see RowSealState.journalHead). */
export function knownJournalHead(tx: Sql): JournalTip | undefined {
  const s = states.get(tx)
  return s && !s.ended ? s.journalHead : undefined
}

/** The transaction's journal seqs drawn ahead (RowSealState.spareSeqs); undefined outside a row-seal body. */
export function spareJournalSeqs(tx: Sql): number[] | undefined {
  const s = states.get(tx)
  return s && !s.ended ? s.spareSeqs : undefined
}

/** Called by the journal's writers after their INSERT, in the transaction they wrote in. */
export function rememberJournalHead(tx: Sql, tip: JournalTip): void {
  const s = states.get(tx)
  if (s && !s.ended) s.journalHead = tip
}

/** The row-seal binding of the transaction being run, if any (a group commit hands it to each unit). */
export function currentRowSeals(): RowSealState | undefined {
  return current.get()
}

/** Whether rows touched in `tx` wait for a journal record to seal them. */
export function hasPendingRows(tx: Sql): boolean {
  const s = states.get(tx)
  return !!s && [...s.pending.values()].some((ids) => ids.size > 0)
}

/** Called by the store function that wrote sealed rows, in the transaction it wrote them in. */
export function touchRows(tx: Sql, table: SealedTable, ids: readonly string[]): void {
  const s = states.get(tx)
  if (!s || ids.length === 0) return
  let set = s.pending.get(table)
  if (!set) s.pending.set(table, (set = new Set()))
  for (const id of ids) set.add(id)
  // Changed again since its values were handed over (an UPDATE after the INSERT): read back when sealed.
  const written = s.written?.get(table)
  if (written) for (const id of ids) written.delete(id)
}

/**
 * GEN-13 (issue 24 point 1): a voucher's row marked spent in `tx`. The journal record that seals it will name the
 * voucher in its `voucher_id` column (migration 0590), so that the next spend finds the journal's latest record of the
 * voucher through an index and refuses a row put back from before ({@link assertLatestSealOfJournal}). A body spends
 * one voucher at most before its record (a kiosk purchase, a cash-out, a terminal's load): a second one waiting with
 * the first would leave one of them unnamed, so it is a programming error.
 */
export function touchSpentVoucher(tx: Sql, voucherId: string): void {
  const s = states.get(tx)
  if (!s) return
  if (s.spentVoucher !== undefined && s.spentVoucher !== voucherId)
    throw new Error(`voucher ${s.spentVoucher} spent and not yet journaled when ${voucherId} is spent`)
  s.spentVoucher = voucherId
}

/**
 * The voucher a journal record about to be appended names ({@link touchSpentVoucher}), when that record seals its
 * row (`rowSeals`, from {@link sealPendingRows}); null otherwise. Taken once: the next record names it no more.
 */
export function takeSpentVoucher(tx: Sql, rowSeals: Record<string, string> | null): string | null {
  const s = states.get(tx)
  const id = s?.spentVoucher
  if (!s || id === undefined || !rowSeals || !(`vouchers:${id}` in rowSeals)) return null
  s.spentVoucher = undefined
  return id
}

/**
 * The INTEGER and BIGINT sealed columns of the tables whose writers hand over their values ({@link touchWrittenRows}):
 * only there does a number read back as its decimal digits on both engines (SQLite binds a JS number as a REAL, which
 * a TEXT column stores as "1.0"; PostgreSQL as "1"). A number bound to any other column is read back instead.
 */
const INTEGER_COLUMNS: Partial<Record<SealedTable, ReadonlySet<string>>> = {
  vouchers: new Set(['amount_cents', 'small_cents', 'other_cents']),
  sale_payments: new Set(['amount_cents']),
  kiosk_purchases: new Set(['card_count', 'amount_cents']),
  cards: new Set(['card_no']),
  lotto_slips: new Set(['first_draw_no', 'draw_count', 'board_count', 'amount_cents']),
}

/**
 * Whether a value written to a column reads back as the same text on both engines: NULL, a string whose UTF-8 round
 * trip is exact (a lone surrogate comes back as U+FFFD), or a safe integer in an integer column (a BIGINT comes back
 * as text on PostgreSQL, the same digits). Anything else (a float, a number in a TEXT column, a boolean, an object)
 * is read back instead.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
function readsBackAsWritten(table: SealedTable, column: string, v: unknown): boolean {
  if (v === null) return true
  if (typeof v === 'string') return !LONE_SURROGATE.test(v)
  return typeof v === 'number' && Number.isSafeInteger(v) && !!INTEGER_COLUMNS[table]?.has(column)
}

/**
 * {@link touchRows} for rows whose every sealed column the caller has just written (a plain INSERT, every sealed
 * column named, those not inserted as null) or read back from its own write (`RETURNING`): the seal is computed from
 * these values, and the row is not read again to seal it. A row with a value that might not read back as written is
 * read back as {@link touchRows} does. Verification reads the stored row: a seal computed from values other than
 * those stored would show as a tampered row (row-seals.test.ts proves the two agree on both engines).
 */
export function touchWrittenRows(tx: Sql, table: SealedTable, rows: ReadonlyArray<Record<string, unknown>>): void {
  const s = states.get(tx)
  if (!s || rows.length === 0) return
  touchRows(
    tx,
    table,
    rows.map((r) => rowKeyOf(table, r)),
  )
  const columns = SEALED_TABLES[table]
  let written = s.written?.get(table)
  for (const row of rows) {
    if (!columns.every((c) => c in row && readsBackAsWritten(table, c, row[c]))) continue
    if (!written) {
      s.written ??= new Map()
      s.written.set(table, (written = new Map()))
    }
    written.set(rowKeyOf(table, row), row)
  }
}

/** Ids of rows matching `where` (for a store function that updates rows by a condition, e.g. a game's prizes). */
export async function touchRowsWhere(
  tx: Sql,
  table: SealedTable,
  where: string,
  params: readonly unknown[],
): Promise<void> {
  if (!states.has(tx)) return
  touchRows(tx, table, await rowIdsWhere(tx, table, keyColumnsOf(table), where, params))
}

/** The MAC of a row's value columns, bound to the journal record `seq` that sealed it. */
export function rowMac(key: Buffer, table: SealedTable, row: Record<string, unknown>, seq: number): string {
  // PostgreSQL answers BIGINT as text, SQLite as a number: every value is compared as its text.
  const values = SEALED_TABLES[table].map((c) => (row[c] === null || row[c] === undefined ? null : String(row[c])))
  return createHmac('sha256', key)
    .update(JSON.stringify([ROW_SEAL_VERSION, table, seq, values]))
    .digest('base64url')
}

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const CHUNK = 400

/**
 * Seals the rows touched in `tx` under the journal record `seq` about to be appended; answers the MACs to put in
 * that record's payload (`"table:id": mac`), or null when nothing waited. `appendJournal` calls it.
 */
export async function sealPendingRows(
  tx: Sql,
  seq: number,
  /** Seals to write with the record itself (one statement on PostgreSQL): handed back unwritten. */
  deferred?: unknown[][],
): Promise<Record<string, string> | null> {
  const s = states.get(tx)
  if (!s || !hasPendingRows(tx)) return null
  const out: Record<string, string> = {}
  const seals: unknown[][] = []
  for (const [table, idSet] of s.pending) {
    const written = s.written?.get(table)
    let ids = [...idSet]
    idSet.clear()
    if (written && written.size > 0) {
      // Rows whose stored values the writer handed over: sealed from them, no read.
      const unread: string[] = []
      for (const id of ids) {
        const row = written.get(id)
        if (!row) {
          unread.push(id)
          continue
        }
        written.delete(id)
        const mac = rowMac(s.key, table, row, seq)
        out[`${table}:${id}`] = mac
        seals.push([table, id, seq, mac])
      }
      ids = unread
    }
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK)
      const rows = await rowsByIds(tx, table, SEALED_TABLES[table], keyColumnsOf(table), part)
      for (const row of rows) {
        const mac = rowMac(s.key, table, row, seq)
        const id = rowKeyOf(table, row)
        out[`${table}:${id}`] = mac
        seals.push([table, id, seq, mac])
      }
    }
  }
  if (deferred) deferred.push(...seals)
  else await upsertRowSeals(tx, seals)
  return out
}

/** What is wrong with a row read with its seal (`seal_seq`, `seal_mac`), or null when it matches. */
function problemOf(key: Buffer, table: SealedTable, row: Record<string, unknown>): string | null {
  if (row.seal_mac === null || row.seal_mac === undefined)
    return 'unsealed: no seal for this row (written or its seal removed outside the server)'
  const seq = Number(row.seal_seq)
  if (!sameMac(rowMac(key, table, row, seq), String(row.seal_mac))) {
    return `its values do not match the seal of journal record #${seq} (changed outside the server)`
  }
  return null
}

/**
 * The check where a use case loads a row it pays, spends, cashes out or refunds from: throws ROW_TAMPERED (the
 * transaction journals the refusal, {@link withRowSeals}) when a row does not match its seal.
 */
export async function assertRowsSealed(tx: Sql, table: SealedTable, ids: readonly string[]): Promise<void> {
  const s = states.get(tx)
  if (!s || ids.length === 0) return
  const rows = await rowsWithSeals(tx, table, SEALED_TABLES[table], keyColumnsOf(table), null, [], ids)
  const problems: RowProblem[] = []
  const found = new Set<string>()
  for (const row of rows) {
    const id = rowKeyOf(table, row)
    found.add(id)
    if (unsealedAllowed(table, row)) continue
    const what = problemOf(s.key, table, row)
    if (what) problems.push({ table, id, what })
  }
  // A row the server sealed and someone deleted (a payout removed so that its ticket is paid again).
  const gone = ids.filter((id) => !found.has(id))
  if (gone.length > 0)
    for (const seal of await sealsOf(tx, table, gone))
      problems.push({
        table,
        id: seal.row_id,
        what: `sealed by journal record #${Number(seal.journal_seq)} but missing from the table (deleted outside the server)`,
      })
  if (problems.length > 0) throw rowTampered(problems)
}

/**
 * Per sealing key, the rows found to match their seal: `table|id` -> the exact values and seal that matched. A sale
 * checks the same game and series rows every time; what it read is compared with what matched last, and the MAC is
 * computed only when something differs. The fingerprint holds every sealed value and the seal itself, so a price, a
 * layout or a seal changed in any way (or a row put back with an older seal) misses it and is checked in full.
 */
const verifiedRows = new WeakMap<Buffer, Map<string, string>>()
const VERIFIED_ROWS_MAX = 4096

/**
 * {@link assertRowsSealed} over rows the caller has just read, in this transaction, with their seal beside them
 * (`seal_seq`, `seal_mac`; the sealed columns under their own names): the check without a second read of the rows.
 * The rows the sale uses are the rows checked. Throws ROW_TAMPERED as assertRowsSealed does.
 */
export function assertReadRowsSealed(tx: Sql, table: SealedTable, rows: ReadonlyArray<Record<string, unknown>>): void {
  const s = states.get(tx)
  if (!s || rows.length === 0) return
  let verified = verifiedRows.get(s.key)
  if (!verified) verifiedRows.set(s.key, (verified = new Map()))
  const problems: RowProblem[] = []
  for (const row of rows) {
    if (unsealedAllowed(table, row)) continue
    const id = rowKeyOf(table, row)
    const fingerprint = JSON.stringify([
      row.seal_seq === null || row.seal_seq === undefined ? null : String(row.seal_seq),
      row.seal_mac ?? null,
      SEALED_TABLES[table].map((c) => (row[c] === null || row[c] === undefined ? null : String(row[c]))),
    ])
    const memo = `${table}|${id}`
    if (verified.get(memo) === fingerprint) continue
    const what = problemOf(s.key, table, row)
    if (what) {
      verified.delete(memo)
      problems.push({ table, id, what })
      continue
    }
    if (verified.size >= VERIFIED_ROWS_MAX) verified.clear()
    verified.set(memo, fingerprint)
  }
  if (problems.length > 0) throw rowTampered(problems)
}

/**
 * GEN-13 (issue 24 point 1): a row that matches its seal may still be an older state put back from a copy of the file,
 * seals and all (a spent voucher made active again). `latestSeq` is the journal's latest record about the row, read
 * with it through an index (for a voucher, `journal.voucher_id`); a row whose seal names an earlier record is refused
 * (ROW_TAMPERED, the transaction journals the refusal). Call after {@link assertReadRowsSealed} on the same row.
 */
export function assertLatestSealOfJournal(
  tx: Sql,
  table: SealedTable,
  row: Record<string, unknown>,
  latestSeq: number | null,
): void {
  if (!states.has(tx) || latestSeq === null) return
  const sealSeq = Number(row.seal_seq)
  if (latestSeq > sealSeq)
    throw rowTampered([
      {
        table,
        id: rowKeyOf(table, row),
        what: `row and seal are those of journal record #${sealSeq}, but record #${latestSeq} sealed it since (put back from an older copy)`,
      },
    ])
}

export function rowTampered(problems: RowProblem[]): DomainError {
  return new DomainError('ROW_TAMPERED', `${problems.map((p) => `${p.table} ${p.id}: ${p.what}`).join('; ')}`, {
    rows: problems,
  })
}

/** Reads every row of `table` with its seal, in pages (verification, the legacy pass). */
export async function* sealedRowsOf(
  db: Sql,
  table: SealedTable,
  pageSize = 1000,
): AsyncGenerator<Record<string, unknown>> {
  const keys = keyColumnsOf(table)
  let after: unknown[] | null = null
  for (;;) {
    const rows = await rowsWithSealsAfter(
      db,
      table,
      SEALED_TABLES[table],
      keys,
      SEAL_SCOPES[table] ?? null,
      after,
      pageSize,
    )
    if (rows.length === 0) return
    yield* rows
    const last = rows[rows.length - 1]
    after = keys.map((c) => last[c])
  }
}

/**
 * Checks every sealed row against its seal and against the journal's latest seal of it (`journalSeals`, built
 * from the records' `rowSeals`), and finds rows the journal sealed that are gone. Pure but for reading `db`.
 */
export async function verifySealedRows(
  db: Sql,
  key: Buffer,
  journalSeals: Map<string, { seq: number; mac: string }>,
  /**
   * The last journal record read. A row sealed by a later record was written while the journal was being read (the
   * server runs on): its MAC is still checked, its journal record is for the next verification.
   */
  headSeq = Number.POSITIVE_INFINITY,
): Promise<{ checked: number; problems: RowProblem[] }> {
  const problems: RowProblem[] = []
  const seen = new Set<string>()
  let checked = 0
  for (const table of SEALED_TABLE_NAMES) {
    for await (const row of sealedRowsOf(db, table)) {
      checked++
      const id = rowKeyOf(table, row)
      const k = `${table}:${id}`
      seen.add(k)
      const what = problemOf(key, table, row)
      if (what) {
        problems.push({ table, id, what })
        continue
      }
      if (Number(row.seal_seq) > headSeq) continue
      const latest = journalSeals.get(k)
      if (!latest) {
        problems.push({
          table,
          id,
          what: `no journal record seals this row (its seal names record #${Number(row.seal_seq)})`,
        })
      } else if (latest.seq !== Number(row.seal_seq) || latest.mac !== String(row.seal_mac)) {
        problems.push({
          table,
          id,
          what: `row and seal are those of journal record #${Number(row.seal_seq)}, but record #${latest.seq} sealed it since (put back from an older copy)`,
        })
      }
    }
  }
  for (const k of journalSeals.keys()) {
    if (!seen.has(k)) {
      const [table, ...rest] = k.split(':')
      if (PURGED_TABLES.includes(table)) continue
      problems.push({
        table,
        id: rest.join(':'),
        what: `sealed by journal record #${journalSeals.get(k)!.seq} but missing from the table (deleted outside the server)`,
      })
    }
  }
  return { checked, problems }
}

/** Collects, record by record, the latest seal of each row named in a record's `rowSeals`. */
export function collectJournalSeals(
  into: Map<string, { seq: number; mac: string }>,
  record: { seq: number; payload: unknown },
): void {
  const seals = (record.payload as { rowSeals?: unknown } | null)?.rowSeals
  if (!seals || typeof seals !== 'object') return
  for (const [k, mac] of Object.entries(seals as Record<string, unknown>)) {
    if (typeof mac === 'string') into.set(k, { seq: record.seq, mac })
  }
}

/** Rows of every sealed table that have no seal yet (the legacy pass at start-up seals them once). */
export async function unsealedRowIds(db: Sql, table: SealedTable): Promise<string[]> {
  return unsealedIds(db, table, keyColumnsOf(table), SEAL_SCOPES[table] ?? null)
}

/** {@link assertRowsSealed} for the rows matching `where` (e.g. every cash movement of a shift being closed). */
export async function assertRowsSealedWhere(
  tx: Sql,
  table: SealedTable,
  where: string,
  params: readonly unknown[],
): Promise<void> {
  const s = states.get(tx)
  if (!s) return
  const rows = await rowsWithSeals(tx, table, SEALED_TABLES[table], keyColumnsOf(table), where, params)
  const problems: RowProblem[] = []
  const pending = s.pending.get(table)
  for (const row of rows) {
    // A row written in this transaction is sealed by its next record, not yet.
    if (pending?.has(rowKeyOf(table, row))) continue
    const what = problemOf(s.key, table, row)
    if (what) problems.push({ table, id: rowKeyOf(table, row), what })
  }
  if (problems.length > 0) throw rowTampered(problems)
}
