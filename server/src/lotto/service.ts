/**
 * Lotto use cases (lotería de números seleccionados, LNS-1 to LNS-25), from plan to paid prize:
 *
 * plan (LOT-5) -> sales of slips with several boards, quick picks and consecutive draws, closed by the server's
 * clock at the plan's time (LNS-13) -> participation file and excluded/annulled list, hashed, published and
 * journaled before the draw (LNS-13, LNS-14, LNS-21) -> the draw: bolillo-draw-v1 RNG (salesDigest over the
 * receipt numbers; the first k of the order) or balls entered from an authorised blower or tómbola (LNS-8,
 * LNS-16) -> settlement (LNS-16 step 4; the remainder rule in domain/lotto.ts) -> extracto and minutes (LNS-10,
 * LNS-17) -> validation and one payout per prize at the cashier, with the prize register (LNS-24, LNS-25, §8)
 * -> the unclaimed-prize report for charity after prescription (LOT-24).
 *
 * Each use case is one transaction with its journal records; the sale path is group-committed (lotto-sales.ts).
 */
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { Database, Sql } from '../db/database.ts'
import { commitmentOf, drawKey, DRAW_PROOF_VERSION, salesDigest, shuffleOrder, sortByBytes, type DrawProof } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import { AJ_LEGEND, charityDueBy, isClaimExpired, ValidationOutcome } from '../shared/lottery-common.ts'
import { countMatches, formatBoards, PackedPlays, parseBoard, parseStoredBoards, quickPick, recordManualBall, settleLotto, type CategoryResult } from './rules.ts'
import { parseLottoPlan, type LottoPlan, type LottoPlanInput } from './plan.ts'
import type { Rng } from '../shared/rng.ts'
import { encodeTicketCode, TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { Clock, EntropySource } from '../bingo/service.ts'
import type { OnPaid } from '../cashdesk/cash.ts'
import { insertRows } from '../shared/journal-batch.ts'
import { appendJournal, readJournal } from '../shared/journal.ts'
import { receiptCounter } from './sale-writer.ts'
import { createReceiptPool } from './receipts.ts'
import { createInlineSlipWriter, createSlipQueue, createWorkerSlipWriter, type SlipWriter } from './sales.ts'

export interface LottoDeps {
  db: Database
  clock: Clock
  entropy: EntropySource
  keys: OperatorKeys
  /** Participation files and excluded-play lists are written under DATA_DIR/lotto/<drawId>/. */
  dataDir: string
  /** The SQLite file, when the database is one: sales are then committed on a writer thread. */
  sqliteFile?: string | null
  sqliteSynchronous?: 'FULL' | 'NORMAL'
}

export interface DrawRow {
  id: string; product: string; game_code: string; draw_no: number; plan: string; status: 'open' | 'closed' | 'drawn' | 'settled' | 'cancelled'
  currency: string; price_cents: number; sales_start_at: string; sales_close_at: string; draw_at: string; claim_deadline: string; draw_method: string
  commitment: string; seed_hex: string; sales_digest: string | null; external_entropy: string | null; participation_sha256: string | null
  participation_file: string | null; entries_count: number | null; plays_count: number | null; sales_cents: number | null; balls: string | null
  result: string | null; disposal: string | null; created_at: string; closed_at: string | null; drawn_at: string | null; settled_at: string | null
}

interface SlipRow {
  id: string; game_code: string; first_draw_no: number; draw_count: number; boards: string; board_count: number; quick_picks: string
  amount_cents: number; player_name: string; player_document: string; channel: string; status: 'active' | 'annulled' | 'excluded'
  status_reason: string | null; status_at: string | null; sold_at: string
}

/** The stored result of a settled draw. */
export interface LottoResult {
  numbers: number[]
  salesCents: number
  poolCents: number
  reserveCents: number
  categories: CategoryResult[]
  histogram: number[]
  plays: number
  receipts: number
  remainderRule: string
}

/** Stated in the extracto and the minutes (CFG-26, DESIGN.md "Money"). */
export const LOTTO_REMAINDER_RULE =
  'Fondo de premios = ventas x porcentaje, redondeado hacia abajo al centavo. Cada categoría de reparto recibe su porcentaje del fondo, redondeado hacia abajo, más lo acumulado del sorteo anterior; si los porcentajes suman 100 %, los centavos sobrantes del redondeo van a la primera categoría de reparto. El importe de una categoría se divide en partes iguales entre sus jugadas ganadoras; los centavos que sobran se asignan, uno a cada una, a las primeras jugadas ganadoras por número de comprobante ascendente y, dentro del comprobante, por número de jugada. / Prize pool = sales x share, rounded down to the centavo. Each pari-mutuel category gets its share, rounded down, plus its carry-over; when the shares total 100 % the rounding leftover goes to the first pari-mutuel category. A category is split equally among its winning plays; leftover centavos go one each to the first winning plays by ascending receipt number, then play number.'

const now = (clock: Clock) => clock.now().toISOString()

/** A CSPRNG-backed Rng for quick picks (LNS-2). */
function entropyRng(entropy: EntropySource): Rng {
  let buf: Uint8Array = new Uint8Array(0)
  let off = 0
  const next32 = () => {
    if (off + 4 > buf.length) { buf = entropy.randomBytes(4096); off = 0 }
    const v = ((buf[off] << 24) | (buf[off + 1] << 16) | (buf[off + 2] << 8) | buf[off + 3]) >>> 0
    off += 4
    return v
  }
  return {
    nextInt(max: number) {
      const limit = 2 ** 32 - (2 ** 32 % max)
      for (;;) { const u = next32(); if (u < limit) return u % max }
    },
  }
}

export interface SlipInput {
  drawId: string
  /** Boards chosen by the player. */
  boards?: number[][]
  /** Boards the system chooses (quick pick, LNS-2). */
  quickPicks?: number
  /** Consecutive draws the slip is valid for, from `drawId` (LNS-5 (3), CFG-41). */
  draws?: number
  /** LNS-6 (5): player data are mandatory. */
  player: { name: string; document: string }
  channel: string
}

/** The receipt (comprobante) with every field LNS-6 lists (§7.10) and the signed QR payload. */
export interface LottoReceipt {
  receiptNumber: string
  /** QR payload: `BLL1.L.<receipt>.<Ed25519 signature>` (DESIGN.md "Ticket codes"). */
  code: string
  operator: string
  gameName: string
  /** LNS-6 (2): the category fantasy names. */
  categories: Array<{ code: string; name: string; matches: number }>
  drawNumber: number
  issue: string
  drawAt: string
  /** LNS-6 (9): every draw the slip is valid for. */
  draws: Array<{ drawId: string; drawNumber: number; issue: string; drawAt: string; claimDeadline: string }>
  player: { name: string; document: string }
  boards: Array<{ numbers: number[]; quickPick: boolean }>
  soldAt: string
  amountCents: number
  currency: string
  channel: string
  status: 'active' | 'annulled' | 'excluded'
  securityWarnings: string[]
  regulationUrl: string
  paymentPlace: string
  legend: string
}

/**
 * Prize-register data of the person paid (INS-5, LNS-25, §7.13): first and last names, identity document, and how
 * the signature was taken (e.g. "firma en recibo impreso", or the id of a signature-pad image).
 */
export interface PayeeData { name: string; document: string; signatureRef?: string }

/** Default signature reference: the payee signs the printed payout receipt, kept with the register. */
export const SIGNED_RECEIPT = 'firma en recibo impreso'

export interface DrawClaim {
  drawId: string; drawNumber: number; status: 'pending' | 'no_win' | 'win' | 'paid' | 'expired'
  amountCents: number; goods: string[]; prizes: Array<{ board: number; category: string; name: string; matches: number; amountCents: number; goods: string | null }>
  claimDeadline: string
}
export interface LottoValidation {
  outcome: ValidationOutcome; kind: 'lotto'; ticketId: string | null; amountCents: number; goods: string[]; currency: string | null
  reason: string; draws: DrawClaim[]; receipt: LottoReceipt | null
}

export function createLottoService(deps: LottoDeps) {
  const { db, clock } = deps
  const rng = entropyRng(deps.entropy)
  const planCache = new Map<string, { row: DrawRow; plan: LottoPlan }>()
  // The writer thread gives way to the server's own SQLite writes (Database.writerGate).
  const gate = deps.sqliteFile ? db.writerGate ?? null : null
  const writer: SlipWriter = deps.sqliteFile
    ? createWorkerSlipWriter({ file: deps.sqliteFile, synchronous: deps.sqliteSynchronous ?? 'FULL', privateKey: deps.keys.privateKey, gate: gate ?? undefined })
    : createInlineSlipWriter(db, deps.keys.privateKey)
  const sales = createSlipQueue(writer, { now: () => now(clock) })
  // Writer-thread mode: receipt numbers come from reserved blocks, signed ahead on a signer thread (lotto-receipts.ts).
  const receipts = writer.reserve ? createReceiptPool((g, n) => writer.reserve!(g, n), deps.keys.privateKey) : null

  function newId(prefix: string): string {
    const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
    let s = ''
    for (const b of deps.entropy.randomBytes(10)) s += alphabet[b % alphabet.length]
    return `${prefix}_${s}`
  }
  const drawScope = (r: { game_code: string; id: string }) => `lotto:${r.game_code}/draw:${r.id}`

  async function loadDraw(tx: Sql, drawId: string): Promise<DrawRow> {
    const row = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE id = ? AND product = 'lotto'", [drawId])
    if (!row) throw new DomainError('NOT_FOUND', `lotto draw ${drawId} not found`, { drawId })
    return { ...row, draw_no: Number(row.draw_no), price_cents: Number(row.price_cents), sales_cents: row.sales_cents === null ? null : Number(row.sales_cents) }
  }
  const planOf = (row: DrawRow) => JSON.parse(row.plan) as LottoPlan

  /** Plans are immutable, so a draw's plan may be cached; its status is always re-read where it matters. */
  async function cached(drawId: string): Promise<{ row: DrawRow; plan: LottoPlan }> {
    let hit = planCache.get(drawId)
    if (!hit) {
      const row = await loadDraw(db, drawId)
      hit = { row, plan: planOf(row) }
      planCache.set(drawId, hit)
    }
    return hit
  }
  async function cachedByNumber(gameCode: string, drawNo: number): Promise<{ row: DrawRow; plan: LottoPlan } | null> {
    const key = `${gameCode}#${drawNo}`
    let hit = planCache.get(key)
    if (!hit) {
      const row = await db.get<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?", [gameCode, drawNo])
      if (!row) return null
      hit = { row: { ...row, draw_no: Number(row.draw_no), price_cents: Number(row.price_cents) }, plan: planOf(row) }
      planCache.set(key, hit)
      planCache.set(row.id, hit)
    }
    return hit
  }

  // ------------------------------------------------------------------------------------------ plans

  /** Plans a draw (LOT-3, LOT-5): validates the plan, takes the seed and publishes its commitment. */
  async function createDraw(input: LottoPlanInput): Promise<DrawView> {
    const plan = parseLottoPlan(input)
    const id = newId('ldr')
    const seed = deps.entropy.randomBytes(32)
    const commitment = commitmentOf(seed)
    await db.transaction(async (tx) => {
      // A slip may span consecutive draws of a game: they must share the ball set and the slip rules.
      const sibling = await tx.get<{ plan: string }>("SELECT plan FROM lottery_draws WHERE product = 'lotto' AND game_code = ? ORDER BY draw_no DESC LIMIT 1", [plan.gameCode])
      if (sibling) {
        const s = JSON.parse(sibling.plan) as LottoPlan
        for (const f of ['range', 'picks', 'drawCount', 'currency'] as const) {
          if (s[f] !== plan[f]) throw new DomainError('VALIDATION_FAILED', `draws of game ${plan.gameCode} must share ${f} (${s[f]})`, { problems: [{ field: f, rule: 'LNS-12', message: `differs from the game's other draws` }] })
        }
      }
      const at = now(clock)
      await tx.run(
        `INSERT INTO lottery_draws (id, product, game_code, draw_no, plan, status, currency, price_cents, sales_start_at, sales_close_at, draw_at, claim_deadline, draw_method, commitment, seed_hex, created_at)
         VALUES (?, 'lotto', ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, plan.gameCode, plan.drawNumber, JSON.stringify(plan), plan.currency, plan.priceCents, plan.salesStartAt, plan.salesCloseAt, plan.drawAt, plan.claimDeadline, plan.drawMethod, commitment, Buffer.from(seed).toString('hex'), at],
      )
      await tx.run('INSERT INTO lottery_counters (name, value) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM lottery_counters WHERE name = ?)', [receiptCounter(plan.gameCode), receiptCounter(plan.gameCode)])
      await appendJournal(tx, { at, type: 'lotto.draw_planned', scope: `lotto:${plan.gameCode}/draw:${id}`, payload: { drawId: id, plan, commitment } })
    })
    return getDraw(id)
  }

  /** What anyone may see of a draw. The seed is revealed only once the numbers are drawn. */
  interface DrawView {
    drawId: string; product: 'lotto'; status: DrawRow['status']; plan: LottoPlan; commitment: string
    seed: string | null; salesDigest: string | null; externalEntropy: string | null
    participation: { sha256: string; receipts: number; plays: number; salesCents: number; closedAt: string } | null
    balls: number[]; numbers: number[]; result: LottoResult | null
    times: { createdAt: string; closedAt: string | null; drawnAt: string | null; settledAt: string | null }
  }

  function toView(row: DrawRow): DrawView {
    const plan = planOf(row)
    const balls = row.balls ? (JSON.parse(row.balls) as number[]) : []
    const complete = balls.length === plan.drawCount
    return {
      drawId: row.id, product: 'lotto', status: row.status, plan, commitment: row.commitment,
      seed: complete && plan.drawMethod === 'rng' ? row.seed_hex : null,
      salesDigest: row.sales_digest, externalEntropy: row.external_entropy,
      participation: row.participation_sha256 ? { sha256: row.participation_sha256, receipts: Number(row.entries_count), plays: Number(row.plays_count), salesCents: Number(row.sales_cents), closedAt: row.closed_at! } : null,
      balls, numbers: complete ? [...balls].sort((a, b) => a - b) : [],
      result: row.result ? (JSON.parse(row.result) as LottoResult) : null,
      times: { createdAt: row.created_at, closedAt: row.closed_at, drawnAt: row.drawn_at, settledAt: row.settled_at },
    }
  }

  async function getDraw(drawId: string): Promise<DrawView> {
    return toView(await loadDraw(db, drawId))
  }

  async function listDraws(gameCode?: string): Promise<DrawView[]> {
    const rows = gameCode
      ? await db.all<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? ORDER BY draw_no", [gameCode])
      : await db.all<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' ORDER BY game_code, draw_no")
    return rows.map(toView)
  }

  // ------------------------------------------------------------------------------------------ sales

  /**
   * Sells one slip (LNS-2, LNS-6, LNS-15): checks the boards (LNS-21), picks quick picks, and checks the
   * sales window of every draw against the server's clock (LNS-13); the slip is then group-committed and its
   * receipt returned only after the commit.
   */
  async function sellSlip(input: SlipInput): Promise<LottoReceipt> {
    const first = await cached(input.drawId)
    const plan = first.plan
    const drawCount = input.draws ?? 1
    const chosen = input.boards ?? []
    const qp = input.quickPicks ?? 0
    if (!Number.isInteger(drawCount) || drawCount < 1 || drawCount > plan.maxDrawsPerSlip) {
      throw new DomainError('VALIDATION_FAILED', `a slip is valid for 1 to ${plan.maxDrawsPerSlip} consecutive draws`, { field: 'draws' })
    }
    if (!Number.isInteger(qp) || qp < 0 || chosen.length + qp < 1 || chosen.length + qp > plan.maxBoardsPerSlip) {
      throw new DomainError('VALIDATION_FAILED', `a slip holds 1 to ${plan.maxBoardsPerSlip} boards`, { field: 'boards' })
    }
    const name = input.player?.name?.trim() ?? ''
    const document = input.player?.document?.trim() ?? ''
    if (!name || !document) throw new DomainError('VALIDATION_FAILED', 'the player name and identity document are required on the receipt (LNS-6)', { rule: 'LNS-6' })
    const boards = chosen.map((b) => parseBoard(b, plan.range, plan.picks))
    for (let i = 0; i < qp; i++) boards.push(quickPick(rng, plan.range, plan.picks))
    const t = clock.now().getTime()
    const draws: Array<{ row: DrawRow; plan: LottoPlan }> = []
    for (let n = first.row.draw_no; n < first.row.draw_no + drawCount; n++) {
      const d = n === first.row.draw_no ? first : await cachedByNumber(plan.gameCode, n)
      if (!d) throw new DomainError('NOT_FOUND', `draw ${n} of ${plan.gameCode} is not planned yet: the slip cannot cover ${drawCount} draws`, { drawNo: n })
      if (t < Date.parse(d.plan.salesStartAt)) throw new DomainError('SALES_NOT_OPEN', `sales of draw ${n} start at ${d.plan.salesStartAt}`)
      if (t >= Date.parse(d.plan.salesCloseAt)) throw new DomainError('SALES_CLOSED', `sales of draw ${n} closed at ${d.plan.salesCloseAt} (LNS-13)`, { rule: 'LNS-13' })
      draws.push(d)
    }
    const amountCents = draws.reduce((s, d) => s + d.plan.priceCents * boards.length, 0)
    const quickPicks = '0'.repeat(chosen.length) + '1'.repeat(qp)
    const pre = receipts ? await receipts.take(plan.gameCode) : null
    const done = await sales.submit({
      gameCode: plan.gameCode, firstDrawNo: first.row.draw_no, drawCount, boards: formatBoards(boards), boardCount: boards.length,
      quickPicks, amountCents, playerName: name, playerDocument: document, channel: input.channel, receipt: pre?.receipt, code: pre?.code,
    })
    return {
      receiptNumber: done.receipt, code: done.code, operator: plan.operator, gameName: plan.name,
      categories: plan.categories.map((c) => ({ code: c.code, name: c.name, matches: c.matches })),
      drawNumber: plan.drawNumber, issue: plan.issue, drawAt: plan.drawAt,
      draws: draws.map((d) => ({ drawId: d.row.id, drawNumber: d.plan.drawNumber, issue: d.plan.issue, drawAt: d.plan.drawAt, claimDeadline: d.plan.claimDeadline })),
      player: { name, document }, boards: boards.map((numbers, i) => ({ numbers, quickPick: quickPicks[i] === '1' })),
      soldAt: done.soldAt, amountCents, currency: plan.currency, channel: input.channel, status: 'active',
      securityWarnings: plan.securityWarnings, regulationUrl: plan.regulationUrl, paymentPlace: plan.paymentPlace, legend: AJ_LEGEND,
    }
  }

  async function loadSlip(tx: Sql, receipt: string): Promise<SlipRow | undefined> {
    const s = await tx.get<SlipRow>('SELECT * FROM lotto_slips WHERE id = ?', [receipt])
    return s ? { ...s, first_draw_no: Number(s.first_draw_no), draw_count: Number(s.draw_count), amount_cents: Number(s.amount_cents), board_count: Number(s.board_count) } : undefined
  }

  /** The receipt of a sold slip, rebuilt from the sales system (for reprints and the cashier). */
  async function getReceipt(receipt: string): Promise<LottoReceipt> {
    const s = await loadSlip(db, receipt)
    if (!s) throw new DomainError('TICKET_NOT_FOUND', `receipt ${receipt} not found`)
    const draws: Array<{ row: DrawRow; plan: LottoPlan }> = []
    for (let n = s.first_draw_no; n < s.first_draw_no + s.draw_count; n++) {
      const d = await cachedByNumber(s.game_code, n)
      if (d) draws.push(d)
    }
    const plan = draws[0].plan
    return {
      receiptNumber: s.id, code: encodeTicketCode({ kind: TicketKind.lotto, id: s.id }, deps.keys.privateKey), operator: plan.operator, gameName: plan.name,
      categories: plan.categories.map((c) => ({ code: c.code, name: c.name, matches: c.matches })), drawNumber: plan.drawNumber, issue: plan.issue, drawAt: plan.drawAt,
      draws: draws.map((d) => ({ drawId: d.row.id, drawNumber: d.plan.drawNumber, issue: d.plan.issue, drawAt: d.plan.drawAt, claimDeadline: d.plan.claimDeadline })),
      player: { name: s.player_name, document: s.player_document },
      boards: parseStoredBoards(s.boards).map((numbers, i) => ({ numbers, quickPick: s.quick_picks[i] === '1' })),
      soldAt: s.sold_at, amountCents: s.amount_cents, currency: plan.currency, channel: s.channel, status: s.status,
      securityWarnings: plan.securityWarnings, regulationUrl: plan.regulationUrl, paymentPlace: plan.paymentPlace, legend: AJ_LEGEND,
    }
  }

  /**
   * Annuls a slip before the close of sales of its first draw (LNS-21): it is listed among the annulled plays
   * with the reason, takes part in no draw, and entitles the holder only to a refund of its price.
   */
  async function annulSlip(receipt: string, reason: string): Promise<void> {
    if (!reason.trim()) throw new DomainError('VALIDATION_FAILED', 'an annulment needs its reason (LNS-21)')
    await db.transaction(async (tx) => {
      const s = await loadSlip(tx, receipt)
      if (!s) throw new DomainError('TICKET_NOT_FOUND', `receipt ${receipt} not found`)
      const d = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?", [s.game_code, s.first_draw_no])
      if (!d || d.status !== 'open') throw new DomainError('SALES_CLOSED', 'a slip can only be annulled before the close of sales (LNS-21)')
      const at = now(clock)
      const r = await tx.run("UPDATE lotto_slips SET status = 'annulled', status_reason = ?, status_at = ? WHERE id = ? AND status = 'active'", [reason, at, receipt])
      if (r.changes !== 1) throw new DomainError('CONFLICT', `receipt ${receipt} is ${s.status}`)
      await appendJournal(tx, { at, type: 'lotto.slip_annulled', scope: `lotto:${s.game_code}/sales`, payload: { receipt, reason, rule: 'LNS-21' } })
    })
  }

  // ------------------------------------------------------------------------------------------ close of sales

  /** Active slips covering a draw, in canonical order (receipt number by bytes). */
  async function slipsOfDraw(tx: Sql, row: DrawRow, status: 'active' | 'inactive'): Promise<SlipRow[]> {
    const cond = status === 'active' ? "status = 'active'" : "status <> 'active'"
    const rows = await tx.all<SlipRow>(`SELECT * FROM lotto_slips WHERE game_code = ? AND first_draw_no <= ? AND first_draw_no + draw_count > ? AND ${cond}`, [row.game_code, row.draw_no, row.draw_no])
    const order = new Map(sortByBytes(rows.map((r) => r.id)).map((id, i) => [id, i]))
    return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  }

  const drawDir = (drawId: string) => join(deps.dataDir, 'lotto', drawId)

  /**
   * Closes the sales of a draw (LNS-13): from the plan's close time on (the server's clock), or earlier with a
   * recorded reason. Immediately writes the participation file (every accepted play with its receipt number,
   * LNS-14) and the excluded/annulled list (LNS-21) to DATA_DIR, fixes the sales digest over the receipt numbers
   * and the external entropy (bolillo-draw-v1 step 2), and journals the files' SHA-256 before any ball is drawn.
   */
  async function closeSales(drawId: string, input: { externalEntropy?: string; entropySource?: string; earlyReason?: string } = {}) {
    const result = await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `sales of draw ${drawId} are already ${row.status}`)
      const plan = planOf(row)
      const at = now(clock)
      const early = Date.parse(at) < Date.parse(plan.salesCloseAt)
      if (early && !input.earlyReason?.trim()) throw new DomainError('ILLEGAL_TRANSITION', `sales close at ${plan.salesCloseAt}; closing earlier needs a recorded reason (LNS-13)`)
      // LNS-21: a registration that cannot be processed (numbers outside the range, wrong count) is excluded.
      const active = await slipsOfDraw(tx, row, 'active')
      const participating: SlipRow[] = []
      for (const s of active) {
        let reason: string | null = null
        try {
          const boards = parseStoredBoards(s.boards)
          if (boards.length !== s.board_count) reason = 'board count differs from the registration'
          for (const b of boards) parseBoard(b, plan.range, plan.picks)
        } catch (e) {
          reason = (e as Error).message
        }
        if (reason) {
          await tx.run("UPDATE lotto_slips SET status = 'excluded', status_reason = ?, status_at = ? WHERE id = ?", [reason, at, s.id])
          await appendJournal(tx, { at, type: 'lotto.slip_excluded', scope: drawScope(row), payload: { receipt: s.id, reason, rule: 'LNS-21' } })
        } else participating.push(s)
      }
      const inactive = await slipsOfDraw(tx, row, 'inactive')
      const dir = drawDir(drawId)
      mkdirSync(dir, { recursive: true })
      let plays = 0
      const part = writeHashed(join(dir, 'participation.csv'), (out) => {
        out(`# Bolillo - archivo de participacion / participation file (LNS-13, LNS-14)\n`)
        out(`# sorteo ${plan.name} N.${plan.drawNumber} emision ${plan.issue} draw ${drawId}\n`)
        out(`# cierre de ventas / close of sales ${at}\n`)
        out('comprobante;jugada;numeros;automatica\n')
        for (const s of participating) {
          const boards = parseStoredBoards(s.boards)
          boards.forEach((b, i) => {
            out(`${s.id};${i + 1};${b.map((x) => String(x).padStart(2, '0')).join(' ')};${s.quick_picks[i] === '1' ? 'S' : 'N'}\n`)
            plays++
          })
        }
        out(`# comprobantes habilitados / receipts enabled: ${participating.length}; jugadas / plays: ${plays}\n`)
      })
      const excludedRows = inactive.map((s) => ({ receipt: s.id, status: s.status, reason: s.status_reason ?? '', at: s.status_at, refundCents: s.amount_cents }))
      const excl = writeHashed(join(dir, 'excluded.csv'), (out) => {
        out(`# Bolillo - jugadas excluidas o anuladas / excluded or annulled plays (LNS-21) draw ${drawId}\n`)
        out('comprobante;estado;motivo;reembolso_centavos\n')
        for (const e of excludedRows) out(`${e.receipt};${e.status};${e.reason.replace(/[;\n]/g, ' ')};${e.refundCents}\n`)
      })
      const salesCents = participating.reduce((s, x) => s + x.board_count * plan.priceCents, 0)
      const digest = salesDigest(participating.map((s) => s.id))
      const entropy = input.externalEntropy ?? ''
      await tx.run(
        `UPDATE lottery_draws SET status = 'closed', closed_at = ?, sales_digest = ?, external_entropy = ?, participation_sha256 = ?, participation_file = ?, entries_count = ?, plays_count = ?, sales_cents = ? WHERE id = ? AND status = 'open'`,
        [at, digest, entropy, part.sha256, 'participation.csv', participating.length, plays, salesCents, drawId],
      )
      await appendJournal(tx, {
        at, type: 'lotto.sales_closed', scope: drawScope(row),
        payload: {
          drawId, receipts: participating.length, plays, salesCents, participationSha256: part.sha256, participationBytes: part.bytes,
          excludedSha256: excl.sha256, excluded: excludedRows.length, salesDigest: digest, externalEntropy: entropy, entropySource: input.entropySource ?? null,
          early: early ? input.earlyReason : null, rule: 'LNS-13',
        },
      })
      return { drawId, closedAt: at, receipts: participating.length, plays, salesCents, participationSha256: part.sha256, excludedSha256: excl.sha256, excluded: excludedRows, salesDigest: digest }
    })
    planCache.delete(drawId)
    return result
  }

  /** Streams lines into a file and its SHA-256 at once (a participation file can be large). */
  function writeHashed(file: string, body: (out: (line: string) => void) => void): { sha256: string; bytes: number } {
    const hash = createHash('sha256')
    const fd = openSync(file, 'w')
    let bytes = 0
    let chunk: string[] = []
    const flush = () => {
      const buf = Buffer.from(chunk.join(''), 'utf8')
      hash.update(buf)
      writeSync(fd, buf)
      bytes += buf.length
      chunk = []
    }
    try {
      body((line) => { chunk.push(line); if (chunk.length >= 8192) flush() })
      flush()
    } finally {
      closeSync(fd)
    }
    return { sha256: hash.digest('hex'), bytes }
  }

  /** The published participation file (LNS-14) or excluded list; its SHA-256 is in the journal and the minutes. */
  async function participationFile(drawId: string, which: 'participation' | 'excluded' = 'participation'): Promise<Buffer> {
    const row = await loadDraw(db, drawId)
    if (!row.participation_sha256) throw new DomainError('ILLEGAL_TRANSITION', 'the participation file is produced at the close of sales')
    return readFileSync(join(drawDir(drawId), `${which}.csv`))
  }

  // ------------------------------------------------------------------------------------------ the draw

  /** RNG draw (bolillo-draw-v1): the first `drawCount` values of the extraction order of balls 1..range. */
  async function drawRng(drawId: string): Promise<DrawView> {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; sales must be closed first (LNS-13)`)
      if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'this draw is made with an authorised blower or tómbola: enter its balls (LNS-8, RNG-26)')
      const key = drawKey(Buffer.from(row.seed_hex, 'hex'), row.id, row.sales_digest!, row.external_entropy ?? '')
      const balls = shuffleOrder(key, plan.range).slice(0, plan.drawCount)
      const at = now(clock)
      await tx.run("UPDATE lottery_draws SET balls = ?, status = 'drawn', drawn_at = ? WHERE id = ? AND status = 'closed'", [JSON.stringify(balls), at, drawId])
      await appendJournal(tx, { at, type: 'lotto.drawn', scope: drawScope(row), payload: { drawId, source: 'rng', version: DRAW_PROOF_VERSION, balls, numbers: [...balls].sort((a, b) => a - b), seed: row.seed_hex } })
    })
    return getDraw(drawId)
  }

  /** A ball read from an authorised blower or tómbola (LNS-8, LNS-16); the draw is complete at `drawCount`. */
  async function enterBall(drawId: string, ball: number, deviceId: string | null): Promise<DrawView> {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; balls are entered after the close of sales`)
      if (plan.drawMethod !== 'manual') throw new DomainError('RULE_DISABLED', 'this draw is made by the bolillo-draw-v1 RNG')
      const balls = recordManualBall(row.balls ? JSON.parse(row.balls) : [], ball, plan.range, plan.drawCount)
      const at = now(clock)
      const complete = balls.length === plan.drawCount
      await tx.run(`UPDATE lottery_draws SET balls = ?${complete ? ", status = 'drawn', drawn_at = ?" : ''} WHERE id = ?`, complete ? [JSON.stringify(balls), at, drawId] : [JSON.stringify(balls), drawId])
      await appendJournal(tx, { at, type: 'lotto.ball_drawn', scope: drawScope(row), payload: { drawId, seq: balls.length, ball, source: 'manual', device: deviceId ?? plan.drawDevice } })
      if (complete) await appendJournal(tx, { at, type: 'lotto.drawn', scope: drawScope(row), payload: { drawId, source: 'manual', device: deviceId ?? plan.drawDevice, balls, numbers: [...balls].sort((a, b) => a - b) } })
    })
    return getDraw(drawId)
  }

  /** The published bolillo-draw-v1 proof, once drawn (soldSerials = the receipt numbers of the draw). */
  async function getProof(drawId: string): Promise<DrawProof & { numbers: number[]; note: string }> {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'a blower draw has no RNG proof; its balls are in the minutes')
    if (!row.balls || JSON.parse(row.balls).length !== plan.drawCount) throw new DomainError('ILLEGAL_TRANSITION', 'the proof is published after the draw')
    const receipts = (await slipsOfDraw(db, row, 'active')).map((s) => s.id)
    const balls = JSON.parse(row.balls) as number[]
    return {
      version: DRAW_PROOF_VERSION, gameId: row.id, commitment: row.commitment, seed: row.seed_hex, salesDigest: row.sales_digest!,
      externalEntropy: row.external_entropy ?? '', ballCount: plan.range, balls, soldSerials: sortByBytes(receipts),
      numbers: [...balls].sort((a, b) => a - b), note: `lotto draw of ${plan.drawCount} numbers: the first ${plan.drawCount} of the extraction order of balls 1..${plan.range}`,
    }
  }

  async function recordIncident(drawId: string, note: string): Promise<void> {
    if (!note.trim()) throw new DomainError('VALIDATION_FAILED', 'an incident needs its description')
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      await appendJournal(tx, { at: now(clock), type: 'lotto.incident', scope: drawScope(row), payload: { drawId, note, status: row.status, rule: 'LNS-17' } })
    })
  }

  // ------------------------------------------------------------------------------------------ settlement

  /**
   * Settles a drawn draw (LNS-16 step 4): every participating play is matched against the numbers drawn, the
   * winners of each category and their amounts are fixed (remainder rule: domain/lotto.ts) and stored, and the
   * result is journaled. The game's previous draw must be settled first (its unwon pari-mutuel money may roll over).
   */
  async function settle(drawId: string): Promise<LottoResult> {
    const result = await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'drawn') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; it is settled once drawn`)
      const prev = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no < ? AND status <> 'cancelled' ORDER BY draw_no DESC LIMIT 1", [row.game_code, row.draw_no])
      if (prev && prev.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', `settle draw ${prev.draw_no} of ${row.game_code} first`)
      const carryIn: Record<string, number> = {}
      if (prev?.result) for (const c of (JSON.parse(prev.result) as LottoResult).categories) if (c.carryOutCents > 0) carryIn[c.code] = c.carryOutCents
      const slips = await slipsOfDraw(tx, row, 'active')
      const packed = new PackedPlays(plan.range, Math.max(1, Number(row.plays_count ?? 1)))
      const playRef: Array<[number, number]> = []
      slips.forEach((s, si) => parseStoredBoards(s.boards).forEach((b, bi) => { packed.push(b); playRef.push([si, bi]) }))
      const balls = JSON.parse(row.balls!) as number[]
      const matches = countMatches(packed.masks, packed.words, packed.count, balls)
      const s = settleLotto({ plan, salesCents: Number(row.sales_cents ?? 0), carryInCents: carryIn, matches })
      const rows: unknown[][] = []
      for (let k = 0; k < s.winners.play.length; k++) {
        const [si, bi] = playRef[s.winners.play[k]]
        const cat = s.categories[s.winners.category[k]]
        rows.push([drawId, slips[si].id, bi + 1, cat.code, cat.matches, s.winners.amountCents[k], cat.goods ? cat.goods.description : null])
      }
      await insertRows(tx, 'lotto_wins', ['draw_id', 'receipt', 'board', 'category', 'matches', 'amount_cents', 'goods'], rows)
      const result: LottoResult = {
        numbers: [...balls].sort((a, b) => a - b), salesCents: s.salesCents, poolCents: s.poolCents, reserveCents: s.reserveCents,
        categories: s.categories, histogram: s.histogram, plays: packed.count, receipts: slips.length, remainderRule: LOTTO_REMAINDER_RULE,
      }
      const at = now(clock)
      await tx.run("UPDATE lottery_draws SET result = ?, status = 'settled', settled_at = ? WHERE id = ? AND status = 'drawn'", [JSON.stringify(result), at, drawId])
      await appendJournal(tx, {
        at, type: 'lotto.settled', scope: drawScope(row),
        payload: { drawId, numbers: result.numbers, poolCents: s.poolCents, reserveCents: s.reserveCents, carryIn, categories: s.categories.map((c) => ({ code: c.code, winners: c.winners, amountEachCents: c.amountEachCents, extraCentWinners: c.extraCentWinners, totalCents: c.totalCents, carryOutCents: c.carryOutCents, retainedCents: c.retainedCents })), winningPlays: rows.length },
      })
      return result
    })
    planCache.delete(drawId)
    return result
  }

  // ------------------------------------------------------------------------------------------ extracto and minutes

  /** The extracto (official results, LNS-10, LOT-17): the only basis for paying prizes. */
  async function extracto(drawId: string) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the extracto is published once the draw is settled')
    const plan = planOf(row)
    const result = JSON.parse(row.result!) as LottoResult
    return {
      title: 'Extracto oficial de resultados', product: 'lotto' as const, operator: plan.operator, gameName: plan.name, gameCode: plan.gameCode,
      drawId, drawNumber: plan.drawNumber, issue: plan.issue, drawAt: plan.drawAt, drawPlace: plan.drawPlace, drawMethod: plan.drawMethod, drawDevice: plan.drawDevice,
      range: plan.range, picks: plan.picks, balls: JSON.parse(row.balls!) as number[], numbers: result.numbers,
      categories: result.categories.map((c) => ({ code: c.code, name: c.name, matches: c.matches, type: c.type, winners: c.winners, amountEachCents: c.amountEachCents, extraCentWinners: c.extraCentWinners, totalCents: c.totalCents, carryOutCents: c.carryOutCents, goods: c.goods })),
      receipts: result.receipts, plays: result.plays, salesCents: result.salesCents, poolCents: result.poolCents, currency: plan.currency,
      participationSha256: row.participation_sha256, proof: plan.drawMethod === 'rng' ? { version: DRAW_PROOF_VERSION, commitment: row.commitment, seed: row.seed_hex, salesDigest: row.sales_digest, externalEntropy: row.external_entropy ?? '' } : null,
      claimDeadline: plan.claimDeadline, paymentPlace: plan.paymentPlace, regulationUrl: plan.regulationUrl, remainderRule: result.remainderRule,
      legend: AJ_LEGEND, publishedAt: row.settled_at,
    }
  }

  /** The draw minutes (acta, LNS-17, §7.11), derived from the plan, the draw row and the draw's journal records. */
  async function acta(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const events: Array<{ seq: number; at: string; type: string; payload: Record<string, unknown>; hash: string }> = []
    for await (const r of readJournal(db, { scopePrefix: drawScope(row) })) events.push({ seq: r.seq, at: r.at, type: r.type, payload: r.payload as Record<string, unknown>, hash: r.hash })
    const inactive = row.participation_sha256 ? await slipsOfDraw(db, row, 'inactive') : []
    const result = row.result ? (JSON.parse(row.result) as LottoResult) : null
    return {
      title: 'Acta del sorteo', product: 'lotto' as const, drawId, status: row.status,
      background: {
        operator: plan.operator, gameName: plan.name, drawNumber: plan.drawNumber, issue: plan.issue, authorisationRef: plan.authorisationRef,
        range: plan.range, picks: plan.picks, drawCount: plan.drawCount, priceCents: plan.priceCents, currency: plan.currency,
        salesStartAt: plan.salesStartAt, salesCloseAt: plan.salesCloseAt, drawAt: plan.drawAt, drawPlace: plan.drawPlace, claimDeadline: plan.claimDeadline,
        drawMethod: plan.drawMethod, drawDevice: plan.drawDevice, commitment: row.commitment, budgetCents: plan.budgetCents, prizePoolBp: plan.prizePoolBp,
        categories: plan.categories,
      },
      beforeDraw: row.participation_sha256 ? {
        closedAt: row.closed_at, receiptsEnabled: Number(row.entries_count), plays: Number(row.plays_count), salesCents: Number(row.sales_cents),
        participationSha256: row.participation_sha256, salesDigest: row.sales_digest, externalEntropy: row.external_entropy,
        excluded: inactive.map((s) => ({ receipt: s.id, status: s.status, reason: s.status_reason, refundCents: s.amount_cents })),
      } : null,
      draw: row.balls ? { balls: JSON.parse(row.balls) as number[], drawnAt: row.drawn_at, seed: row.status === 'drawn' || row.status === 'settled' ? row.seed_hex : null } : null,
      results: result ? { numbers: result.numbers, poolCents: result.poolCents, reserveCents: result.reserveCents, categories: result.categories, histogram: result.histogram, remainderRule: result.remainderRule } : null,
      incidents: events.filter((e) => e.type === 'lotto.incident').map((e) => ({ at: e.at, note: String(e.payload.note) })),
      journal: { records: events.length, lastSeq: events.at(-1)?.seq ?? null, lastHash: events.at(-1)?.hash ?? null, events: events.map((e) => ({ seq: e.seq, at: e.at, type: e.type })) },
      signatures: [
        { role: 'Máxima Autoridad Ejecutiva', name: plan.staff.authority },
        { role: 'Director del Sorteo', name: plan.staff.director },
        { role: 'Moderador', name: plan.staff.moderator },
        { role: 'Notario de Fe Pública', name: plan.staff.notary },
      ],
    }
  }

  async function extractoPdf(drawId: string): Promise<Uint8Array> {
    const { renderLottoExtractoPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLottoExtractoPdf(await extracto(drawId))
  }
  async function actaPdf(drawId: string): Promise<Uint8Array> {
    const { renderLottoActaPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLottoActaPdf(await acta(drawId))
  }
  async function receiptPdf(receipt: string): Promise<Uint8Array> {
    const { renderLottoReceiptPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLottoReceiptPdf(await getReceipt(receipt))
  }

  // ------------------------------------------------------------------------------------------ validation and payout

  async function claimsOf(tx: Sql, s: SlipRow, at: string): Promise<DrawClaim[]> {
    const out: DrawClaim[] = []
    for (let n = s.first_draw_no; n < s.first_draw_no + s.draw_count; n++) {
      const d = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?", [s.game_code, n])
      if (!d) continue
      const plan = planOf(d)
      const c: DrawClaim = { drawId: d.id, drawNumber: Number(d.draw_no), status: 'pending', amountCents: 0, goods: [], prizes: [], claimDeadline: d.claim_deadline }
      if (d.status === 'settled') {
        const wins = await tx.all<{ board: number; category: string; matches: number; amount_cents: number; goods: string | null; paid_at: string | null }>('SELECT board, category, matches, amount_cents, goods, paid_at FROM lotto_wins WHERE draw_id = ? AND receipt = ? ORDER BY board', [d.id, s.id])
        c.prizes = wins.map((w) => ({ board: Number(w.board), category: w.category, name: plan.categories.find((x) => x.code === w.category)?.name ?? w.category, matches: Number(w.matches), amountCents: Number(w.amount_cents), goods: w.goods }))
        c.amountCents = c.prizes.reduce((t, p) => t + p.amountCents, 0)
        c.goods = c.prizes.filter((p) => p.goods).map((p) => p.goods!)
        if (wins.length === 0) c.status = 'no_win'
        else if (wins.some((w) => w.paid_at)) c.status = 'paid'
        else if (isClaimExpired(d.claim_deadline, at)) c.status = 'expired'
        else c.status = 'win'
      } else if (d.status === 'cancelled') c.status = 'no_win'
      out.push(c)
    }
    return out
  }

  /**
   * What a cashier's scan of a receipt answers (REGULATIONS.md §8): a code whose signature fails, or that the
   * sales system does not know, is VOID (LOT-8); an annulled or excluded slip is REFUND ONLY (LNS-21); otherwise
   * WIN with the total payable now, PENDING while a draw is not settled, ALREADY PAID, EXPIRED after the claim
   * deadline (LOT-23), or NO WIN.
   */
  async function validate(code: string, tx: Sql = db): Promise<LottoValidation> {
    const base = { kind: 'lotto' as const, amountCents: 0, goods: [] as string[], currency: null as string | null, draws: [] as DrawClaim[], receipt: null as LottoReceipt | null }
    let id: string
    try {
      const ref = verifyTicketCode(code, deps.keys.publicKey)
      if (ref.kind !== TicketKind.lotto) return { ...base, outcome: ValidationOutcome.Void, ticketId: ref.id, reason: 'not a lotto receipt' }
      id = ref.id
    } catch (e) {
      return { ...base, outcome: ValidationOutcome.Void, ticketId: null, reason: `altered or forged receipt: ${(e as Error).message} (LOT-8)` }
    }
    const s = await loadSlip(tx, id)
    if (!s) return { ...base, outcome: ValidationOutcome.Void, ticketId: id, reason: 'the receipt is not registered in the sales system (LOT-8)' }
    const at = now(clock)
    const receipt = { ...base, ticketId: id, currency: (await cachedByNumber(s.game_code, s.first_draw_no))?.plan.currency ?? null }
    if (s.status !== 'active') {
      const refunded = await tx.get('SELECT id FROM lottery_payouts WHERE ticket_id = ?', [id])
      if (refunded) return { ...receipt, outcome: ValidationOutcome.AlreadyPaid, reason: 'the refund was already paid' }
      return { ...receipt, outcome: ValidationOutcome.RefundOnly, amountCents: s.amount_cents, reason: `${s.status}: ${s.status_reason ?? ''} — refund of the price only (LNS-21)` }
    }
    const draws = await claimsOf(tx, s, at)
    const payable = draws.filter((d) => d.status === 'win')
    const amountCents = payable.reduce((t, d) => t + d.amountCents, 0)
    const goods = payable.flatMap((d) => d.goods)
    const r = { ...receipt, draws, amountCents, goods }
    if (payable.length > 0) return { ...r, outcome: ValidationOutcome.Win, reason: `prize in draw(s) ${payable.map((d) => d.drawNumber).join(', ')}` }
    if (draws.some((d) => d.status === 'pending')) return { ...r, outcome: ValidationOutcome.Pending, reason: 'a draw of this receipt is not settled yet' }
    if (draws.some((d) => d.status === 'paid')) return { ...r, outcome: ValidationOutcome.AlreadyPaid, reason: 'the prize was already paid', amountCents: 0 }
    if (draws.some((d) => d.status === 'expired')) return { ...r, outcome: ValidationOutcome.Expired, reason: 'the claim period has ended (LOT-23)', amountCents: 0 }
    return { ...r, outcome: ValidationOutcome.NoWin, reason: 'no prize' }
  }

  /**
   * Pays what a receipt has won, once (LOT-26: only against the receipt; LNS-25: prize register). In one
   * transaction: the validation is repeated, each winning row is marked paid by a conditional update, and one
   * payout row per draw is inserted (its UNIQUE is the database's own guard); a concurrent second payout finds
   * the rows paid and is refused with ALREADY_PAID. Annulled/excluded slips are refunded the same way.
   */
  async function pay(input: { code: string; stationId: string; cashierId: string; payee: PayeeData; onPaid?: OnPaid }) {
    const p = input.payee
    if (![p?.name, p?.document].every((x) => typeof x === 'string' && x.trim()) || p.name.trim().split(/\s+/).length < 2) {
      throw new DomainError('PAYEE_ID_REQUIRED', 'the prize register needs the payee first and last names and identity document (INS-5, LNS-25)', { rule: 'INS-5' })
    }
    return db.transaction(async (tx) => {
      const v = await validate(input.code, tx)
      switch (v.outcome) {
        case 'VOID': throw new DomainError('INVALID_SIGNATURE', v.reason, { outcome: v.outcome })
        case 'ALREADY_PAID': throw new DomainError('ALREADY_PAID', v.reason, { outcome: v.outcome })
        case 'EXPIRED': throw new DomainError('TICKET_EXPIRED', v.reason, { outcome: v.outcome })
        case 'PENDING': throw new DomainError('PRIZE_PENDING', v.reason, { outcome: v.outcome })
        case 'NO_WIN': throw new DomainError('NOT_A_WINNER', v.reason, { outcome: v.outcome })
        default: break
      }
      const at = now(clock)
      const s = (await loadSlip(tx, v.ticketId!))!
      const payouts: Array<{ payoutId: string; drawId: string; amountCents: number; goods: string[] }> = []
      const targets = v.outcome === 'REFUND_ONLY'
        ? [{ drawId: (await tx.get<{ id: string }>("SELECT id FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?", [s.game_code, s.first_draw_no]))!.id, amountCents: v.amountCents, goods: [] as string[], prizes: [{ refund: true }] as unknown[] }]
        : v.draws.filter((d) => d.status === 'win').map((d) => ({ drawId: d.drawId, amountCents: d.amountCents, goods: d.goods, prizes: d.prizes as unknown[] }))
      for (const t of targets) {
        if (v.outcome === 'WIN') {
          const rows = v.draws.find((d) => d.drawId === t.drawId)!.prizes.length
          const r = await tx.run('UPDATE lotto_wins SET paid_at = ? WHERE draw_id = ? AND receipt = ? AND paid_at IS NULL', [at, t.drawId, s.id])
          if (r.changes !== rows) throw new DomainError('ALREADY_PAID', `receipt ${s.id} was paid meanwhile`)
        }
        const payoutId = newId('lpay')
        await tx.run(
          `INSERT INTO lottery_payouts (id, draw_id, product, ticket_id, amount_cents, goods, prizes, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
           VALUES (?, ?, 'lotto', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [payoutId, t.drawId, s.id, t.amountCents, t.goods.length ? JSON.stringify(t.goods) : null, JSON.stringify(t.prizes), v.currency ?? '', input.stationId, input.cashierId, p.name.trim(), p.document.trim(), p.signatureRef?.trim() || SIGNED_RECEIPT, at],
        )
        await appendJournal(tx, {
          at, type: v.outcome === 'WIN' ? 'lotto.prize_paid' : 'lotto.refund_paid', scope: `lotto:${s.game_code}/payouts`,
          payload: { payoutId, drawId: t.drawId, receipt: s.id, amountCents: t.amountCents, goods: t.goods, stationId: input.stationId, cashierId: input.cashierId, payeeDocument: p.document },
        })
        payouts.push({ payoutId, drawId: t.drawId, amountCents: t.amountCents, goods: t.goods })
      }
      const total = payouts.reduce((x, y) => x + y.amountCents, 0)
      for (const x of payouts) await input.onPaid?.(tx, { amountCents: x.amountCents, currency: v.currency ?? '', refId: x.payoutId, at, kind: 'prize_payout' })
      return { outcome: v.outcome, receipt: s.id, amountCents: total, currency: v.currency, goods: payouts.flatMap((x) => x.goods), payouts, paidAt: at }
    })
  }

  // ------------------------------------------------------------------------------------------ claim period

  /**
   * LOT-24: after prescription, the prizes nobody claimed, their total and the date by which they must have gone
   * to charity and health purposes (prescription + 10 days).
   */
  async function unclaimed(drawId: string) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the draw is not settled')
    const at = now(clock)
    const prescribed = isClaimExpired(row.claim_deadline, at)
    const items = await db.all<{ receipt: string; board: number; category: string; amount_cents: number; goods: string | null }>('SELECT receipt, board, category, amount_cents, goods FROM lotto_wins WHERE draw_id = ? AND paid_at IS NULL ORDER BY receipt, board', [drawId])
    return {
      drawId, product: 'lotto' as const, claimDeadline: row.claim_deadline, prescribed, charityDueBy: charityDueBy(row.claim_deadline), asOf: at,
      currency: row.currency, unclaimedCents: items.reduce((s, i) => s + Number(i.amount_cents), 0), unclaimedGoods: items.filter((i) => i.goods).map((i) => i.goods!),
      count: items.length, items: items.map((i) => ({ ticketId: i.receipt, board: Number(i.board), category: i.category, amountCents: Number(i.amount_cents), goods: i.goods })),
      disposal: row.disposal ? JSON.parse(row.disposal) : null, rule: 'LOT-24',
    }
  }

  /** Records that the unclaimed prizes went to charity and health (LOT-24); late when after prescription + 10 days. */
  async function disposeUnclaimed(drawId: string, input: { destination: string; reference: string }) {
    const report = await unclaimed(drawId)
    if (!report.prescribed) throw new DomainError('ILLEGAL_TRANSITION', `prizes can be claimed until ${report.claimDeadline} (LOT-23)`)
    if (report.disposal) throw new DomainError('CONFLICT', 'the unclaimed prizes were already disposed of')
    const at = now(clock)
    const disposal = { destination: input.destination, reference: input.reference, amountCents: report.unclaimedCents, goods: report.unclaimedGoods, recordedAt: at, dueBy: report.charityDueBy, late: Date.parse(at) > Date.parse(report.charityDueBy) }
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const r = await tx.run('UPDATE lottery_draws SET disposal = ? WHERE id = ? AND disposal IS NULL', [JSON.stringify(disposal), drawId])
      if (r.changes !== 1) throw new DomainError('CONFLICT', 'the unclaimed prizes were already disposed of')
      await appendJournal(tx, { at, type: 'lotto.unclaimed_disposed', scope: drawScope(row), payload: { drawId, ...disposal, rule: 'LOT-24' } })
    })
    return disposal
  }

  /** The prize register (libro de registro de premios, §7.13, LNS-25): every payout of the lotto. */
  async function prizeRegister(drawId?: string) {
    const rows = await db.all<Record<string, unknown>>(
      `SELECT p.*, d.draw_no, d.game_code FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id WHERE p.product = 'lotto'${drawId ? ' AND p.draw_id = ?' : ''} ORDER BY p.paid_at, p.id`,
      drawId ? [drawId] : [],
    )
    return rows.map((r) => ({
      payoutId: r.id, gameCode: r.game_code, drawNumber: Number(r.draw_no), ticketNumber: r.ticket_id, amountCents: Number(r.amount_cents), currency: r.currency,
      goods: r.goods ? JSON.parse(String(r.goods)) : [], prizes: JSON.parse(String(r.prizes)), payee: { name: r.payee_name, document: r.payee_document, signatureRef: r.signature_ref },
      stationId: r.station_id, cashierId: r.cashier_id, paidAt: r.paid_at,
    }))
  }

  return {
    /** Whether a scanned code is a lotto receipt (kind `L`), for the cashier's generic dispatch. */
    handles: (code: string) => String(code).trim().startsWith('BLL1.L.'),
    createDraw, getDraw, listDraws, sellSlip, getReceipt, annulSlip, closeSales, participationFile, drawRng, enterBall, getProof, recordIncident,
    settle, extracto, acta, extractoPdf, actaPdf, receiptPdf, validate: (code: string) => validate(code), pay, unclaimed, disposeUnclaimed, prizeRegister,
    saleStats: () => ({ ...sales.stats(), writer: writer.kind }),
    async close() { await sales.drain(); await receipts?.close(); await writer.close() },
  }
}

export type LottoService = ReturnType<typeof createLottoService>
