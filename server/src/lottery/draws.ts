/**
 * Raffle and tombola ticket sales (PRM-1, PRM-2), the close of sales with the participation file, the draw
 * (bolillo-draw-v1 among the M issued numbers or the tickets in play, or numbers entered from an authorised
 * tómbola, LOT-18), its proof and incidents.
 */
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { drawKey, DRAW_PROOF_VERSION, pickFromSorted, salesDigest, shuffleOrder, type DrawProof } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { inRange, isRaffle, type LotteryContext, type Plan } from './context.ts'
import { formatNumber, numberCount, raffleTicketId } from './rules.ts'
import type { LotteryResult } from './settlement.ts'
import { insertSales, markLotteryDrawClosed, markLotteryDrawn, recordLotteryNumbers, soldNumbers } from './store.ts'

/** How many values the draw needs: one per exact prize (lottery) or per prize (raffle). */
const valuesNeeded = (plan: Plan) => (isRaffle(plan) ? plan.prizes.length : plan.prizes.filter((p) => p.rule.type === 'exact').length)

/** @param getDraw the draw as anyone may see it (issue.ts), answered after a draw. */
export function createDrawUseCases<DrawView>(ctx: LotteryContext, getDraw: (drawId: string) => Promise<DrawView>) {
  const { db, deps, now, scope, sign, planOf, loadDraw, ranges, ticketsInPlay } = ctx

  /** Sells raffle or tombola tickets by number (PRM-1: a single fixed price): the numbers asked, or the next free ones. */
  async function sellRaffleTickets(drawId: string, input: { count?: number; numbers?: number[]; buyerName?: string; channel: string }) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (!isRaffle(plan)) throw new DomainError('VALIDATION_FAILED', 'numbered lottery tickets are printed and distributed, not sold here')
      const at = now()
      const t = Date.parse(at)
      if (t < Date.parse(plan.salesStartAt)) throw new DomainError('SALES_NOT_OPEN', `sales start at ${plan.salesStartAt}`)
      if (row.status !== 'open' || t >= Date.parse(plan.salesCloseAt)) throw new DomainError('SALES_CLOSED', 'sales are closed')
      let numbers = input.numbers ?? []
      if (numbers.length === 0) {
        const count = input.count ?? 1
        if (!Number.isInteger(count) || count < 1 || count > 1000) throw new DomainError('VALIDATION_FAILED', 'count must be 1..1000')
        const sold = new Set(await soldNumbers(tx, drawId))
        for (let n = plan.numbering.from; n <= plan.numbering.to && numbers.length < count; n++) if (!sold.has(n)) numbers.push(n)
        if (numbers.length < count) throw new DomainError('SERIES_EXHAUSTED', `only ${numbers.length} tickets left`)
      }
      numbers = [...new Set(numbers)]
      const blocked = await ranges(tx, drawId, ['lost', 'stolen', 'returned'])
      for (const n of numbers) {
        if (!Number.isInteger(n) || n < plan.numbering.from || n > plan.numbering.to) throw new DomainError('VALIDATION_FAILED', `ticket ${n} is outside the numbering`)
        if (inRange(blocked, n, 1)) throw new DomainError('TICKET_BLOCKED', `ticket ${n} is out of sale`)
      }
      const tickets = numbers.map((n) => ({ number: formatNumber(n, plan.numbering), ticketId: raffleTicketId(drawId, n, plan.numbering), code: sign(raffleTicketId(drawId, n, plan.numbering)) }))
      await insertSales(tx, numbers.map((n, i) => [drawId, tickets[i].number, n, input.channel, input.buyerName ?? null, at]))
      await appendJournal(tx, { at, type: 'raffle.tickets_sold', scope: scope(row), payload: { drawId, numbers: tickets.map((x) => x.number), amountCents: plan.ticketPriceCents * numbers.length, channel: input.channel } })
      return {
        tickets: tickets.map((x) => ({ ...x, organiser: plan.organiser, name: plan.name, drawNumber: plan.drawNumber, drawAt: plan.drawAt, drawPlace: plan.drawPlace, priceCents: plan.ticketPriceCents, currency: plan.currency, soldAt: at, prizes: plan.prizes.map((p) => `${p.name}: ${p.description}`) })),
        amountCents: plan.ticketPriceCents * numbers.length,
      }
    })
  }

  // ---- close of sales and the draw

  /**
   * Closes sales: fixes the tickets in play (after returns and lost/stolen reports), writes them to the
   * participation file with its SHA-256, and fixes the sales digest and external entropy of the draw.
   */
  async function closeSales(drawId: string, input: { externalEntropy?: string; entropySource?: string } = {}) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      const plan = planOf(row)
      const at = now()
      if (Date.parse(at) < Date.parse(plan.salesCloseAt)) throw new DomainError('ILLEGAL_TRANSITION', `sales close at ${plan.salesCloseAt}`)
      const serials = await ticketsInPlay(tx, row, plan)
      if (isRaffle(plan) && plan.drawAmong === 'sold' && serials.length < plan.prizes.length) throw new DomainError('MINIMUM_PARTICIPATION', `${serials.length} tickets sold for ${plan.prizes.length} prizes`)
      const dir = join(deps.dataDir, row.product, drawId)
      mkdirSync(dir, { recursive: true })
      const hash = createHash('sha256')
      const fd = openSync(join(dir, 'participation.csv'), 'w')
      let chunk: string[] = [`# Bolillo - billetes en juego / tickets in play ${plan.name} N.${plan.drawNumber} draw ${drawId} ${at}\n`]
      const flush = () => { const b = Buffer.from(chunk.join(''), 'utf8'); hash.update(b); writeSync(fd, b); chunk = [] }
      try {
        for (const s of serials) { chunk.push(s + '\n'); if (chunk.length > 8192) flush() }
        chunk.push(`# total ${serials.length}\n`)
        flush()
      } finally { closeSync(fd) }
      const sha = hash.digest('hex')
      const digest = salesDigest(serials)
      const salesCents = isRaffle(plan) ? serials.length * plan.ticketPriceCents : serials.length * plan.ticketPriceCents
      const entropy = input.externalEntropy ?? ''
      await markLotteryDrawClosed(tx, drawId, { at, salesDigest: digest, externalEntropy: entropy, participationSha256: sha, ticketsInPlay: serials.length, salesCents })
      await appendJournal(tx, { at, type: `${row.product}.sales_closed`, scope: scope(row), payload: { drawId, ticketsInPlay: serials.length, participationSha256: sha, salesDigest: digest, externalEntropy: entropy, entropySource: input.entropySource ?? null } })
      return { drawId, closedAt: at, ticketsInPlay: serials.length, participationSha256: sha, salesDigest: digest }
    })
  }

  async function participationFile(drawId: string): Promise<Buffer> {
    const row = await loadDraw(db, drawId)
    if (!row.participation_sha256) throw new DomainError('ILLEGAL_TRANSITION', 'the participation file is produced at the close of sales')
    return readFileSync(join(deps.dataDir, row.product, drawId, 'participation.csv'))
  }

  /**
   * RNG draw (bolillo-draw-v1). Lottery: N = M issued numbers, the first value wins the first exact prize, and so
   * on; raffle: a draw among the M tickets in play (pickFromSorted), the first drawn wins the first prize.
   */
  async function drawRng(drawId: string) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; close the sales first`)
      if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'this draw is made with an authorised tómbola: enter its numbers (LOT-18, RNG-26)')
      const key = drawKey(Buffer.from(row.seed_hex, 'hex'), row.id, row.sales_digest!, row.external_entropy ?? '')
      let drawn: number[]
      if (isRaffle(plan) && plan.drawAmong === 'sold') {
        const serials = await ticketsInPlay(tx, row, plan)
        drawn = pickFromSorted(serials, key, plan.prizes.length).map(Number)
      } else if (isRaffle(plan)) drawn = shuffleOrder(key, numberCount(plan.numbering)).slice(0, plan.prizes.length).map((v) => plan.numbering.from + v - 1)
      else drawn = shuffleOrder(key, numberCount(plan.numbering)).slice(0, valuesNeeded(plan)).map((v) => plan.numbering.from + v - 1)
      const at = now()
      await markLotteryDrawn(tx, drawId, JSON.stringify(drawn), at)
      await appendJournal(tx, { at, type: `${row.product}.drawn`, scope: scope(row), payload: { drawId, source: 'rng', version: DRAW_PROOF_VERSION, numbers: drawn, seed: row.seed_hex } })
    })
    return getDraw(drawId)
  }

  /** A winning number read from an authorised tómbola (LOT-18), for the next prize in order. */
  async function enterNumber(drawId: string, number: number, deviceId: string | null) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      if (plan.drawMethod !== 'manual') throw new DomainError('RULE_DISABLED', 'this draw is made by the bolillo-draw-v1 RNG')
      const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
      if (!Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to) throw new DomainError('BALL_OUT_OF_RANGE', `${number} is outside the numbering`)
      if (drawn.includes(number)) throw new DomainError('BALL_ALREADY_DRAWN', `${number} was already drawn`)
      if (isRaffle(plan) && plan.drawAmong === 'sold') {
        const serials = new Set(await ticketsInPlay(tx, row, plan))
        if (!serials.has(formatNumber(number, plan.numbering))) throw new DomainError('VALIDATION_FAILED', `ticket ${number} is not in play: draw again`)
      }
      drawn.push(number)
      const complete = drawn.length === valuesNeeded(plan)
      const at = now()
      await recordLotteryNumbers(tx, drawId, JSON.stringify(drawn), complete ? at : null)
      await appendJournal(tx, { at, type: `${row.product}.number_drawn`, scope: scope(row), payload: { drawId, seq: drawn.length, number, source: 'manual', device: deviceId ?? plan.drawDevice } })
    })
    return getDraw(drawId)
  }

  async function getProof(drawId: string): Promise<DrawProof & { items: unknown; winning: Record<string, number> | null; note: string }> {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'a tómbola draw has no RNG proof; its numbers are in the minutes')
    if (row.status !== 'drawn' && row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the proof is published after the draw')
    const serials = await ticketsInPlay(db, row, plan)
    const drawn = JSON.parse(row.balls!) as number[]
    // Among the sold tickets: value v is the v-th sold serial; among issued numbers: v is the number from + v - 1.
    const raffle = isRaffle(plan) && plan.drawAmong === 'sold'
    const ballCount = raffle ? serials.length : numberCount(plan.numbering)
    const balls = raffle ? drawn.map((n) => serials.indexOf(formatNumber(n, plan.numbering)) + 1) : drawn.map((n) => n - plan.numbering.from + 1)
    return {
      version: DRAW_PROOF_VERSION, gameId: row.id, commitment: row.commitment, seed: row.seed_hex, salesDigest: row.sales_digest!, externalEntropy: row.external_entropy ?? '',
      ballCount, balls, ...(serials.length <= 200_000 ? { soldSerials: serials } : {}),
      items: raffle ? { list: 'soldSerials (tickets in play, sorted by bytes)' } : { numbering: plan.numbering, mapping: 'value v -> number from + v - 1 (the v-th of the sorted zero-padded numbers)' },
      winning: row.result ? (JSON.parse(row.result) as LotteryResult).winning : null,
      note: raffle ? 'draw among M tickets in play: value v is the v-th ticket of the sorted list; the first drawn wins the first prize' : 'draw among M issued numbers: the first value wins the first exact prize, and so on',
    }
  }

  async function recordIncident(drawId: string, note: string): Promise<void> {
    if (!note.trim()) throw new DomainError('VALIDATION_FAILED', 'an incident needs its description')
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      await appendJournal(tx, { at: now(), type: `${row.product}.incident`, scope: scope(row), payload: { drawId, note, status: row.status } })
    })
  }

  return { sellRaffleTickets, closeSales, participationFile, drawRng, enterNumber, getProof, recordIncident }
}
