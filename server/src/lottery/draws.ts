/**
 * Raffle and tombola ticket sales (PRM-1, PRM-2), the close of sales with the participation file, the draw
 * (bolillo-draw-v2 among the M issued numbers or the tickets in play, or numbers entered from an authorised
 * tómbola, LOT-18), its proof and incidents.
 *
 * bolillo-draw-v2 (DESIGN.md): the seed is stored only sealed until the draw has ended; the close fixes D, t and
 * R; the draw waits for beacon round R (a relay, or a signature typed in by staff); no person supplies entropy.
 */
import type { Sql } from '../db/database.ts'
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { DRAW_PROOF_VERSION, salesDigest, type DrawProof } from '../shared/draw-proof.ts'
import {
  buildDrawProofV2,
  drawOrderV2,
  DRAW_PROOF_V2,
  unixSecondsOf,
  type DrawProofV2,
} from '../shared/draw-proof-v2.ts'
import type { BeaconValue } from '../shared/beacon-source.ts'
import { DomainError } from '../shared/errors.ts'
import { extractionDevice } from '../equipment/devices.ts'
import { appendJournal } from '../shared/journal.ts'
import {
  beaconKeyOf,
  beaconRoundOf,
  beaconSummary,
  closeFacts,
  parseBeacon,
  seedContext,
  seedOf,
  type Actor,
} from '../shared/lottery-draw-v2.ts'
import type { LotteryDrawRow } from './store.ts'
import { assertDrawDate, checkDemoReferences, checkSoftwareDraw, postponedDates } from '../shared/lottery-common.ts'
import { inRange, isRaffle, type LotteryContext, type Plan } from './context.ts'
import { formatNumber, numberCount, raffleTicketId } from './rules.ts'
import type { LotteryResult } from './settlement.ts'
import {
  insertSales,
  markLotteryDrawClosed,
  markLotteryDrawn,
  postponeDrawRow,
  recordLotteryBeacon,
  recordLotteryNumbers,
  registerCounts,
  soldNumbers,
} from './store.ts'

/** How many values the draw needs: one per exact prize (lottery) or per prize (raffle). */
const valuesNeeded = (plan: Plan) =>
  isRaffle(plan) ? plan.prizes.length : plan.prizes.filter((p) => p.rule.type === 'exact').length

/** @param getDraw the draw as anyone may see it (issue.ts), answered after a draw. */
export function createDrawUseCases<DrawView>(ctx: LotteryContext, getDraw: (drawId: string) => Promise<DrawView>) {
  const { db, deps, clock, now, scope, sign, planOf, loadDraw, ranges, ticketsInPlay } = ctx
  const sealedSeed = (drawId: string) => seedContext('lottery', drawId)

  /** Sells raffle or tombola tickets by number (PRM-1: a single fixed price): the numbers asked, or the next free ones. */
  async function sellRaffleTickets(
    drawId: string,
    input: { count?: number; numbers?: number[]; buyerName?: string; channel: string },
  ) {
    return db.transaction((tx) => sellRaffleTicketsWithin(tx, drawId, input))
  }

  /** The same sale inside a caller's transaction (issue 13: the counter's cash is taken in the same transaction). */
  async function sellRaffleTicketsWithin(
    tx: Sql,
    drawId: string,
    input: { count?: number; numbers?: number[]; buyerName?: string; channel: string },
  ) {
    const row = await loadDraw(tx, drawId)
    const plan = planOf(row)
    if (!isRaffle(plan))
      throw new DomainError('VALIDATION_FAILED', 'numbered lottery tickets are printed and distributed, not sold here')
    checkDemoReferences(plan, deps.softwareDraw)
    const at = now()
    const t = Date.parse(at)
    if (t < Date.parse(plan.salesStartAt))
      throw new DomainError('SALES_NOT_OPEN', `sales start at ${plan.salesStartAt}`)
    if (row.status !== 'open' || t >= Date.parse(plan.salesCloseAt))
      throw new DomainError('SALES_CLOSED', 'sales are closed')
    let numbers = input.numbers ?? []
    if (numbers.length === 0) {
      const count = input.count ?? 1
      if (!Number.isInteger(count) || count < 1 || count > 1000)
        throw new DomainError('VALIDATION_FAILED', 'count must be 1..1000')
      const sold = new Set(await soldNumbers(tx, drawId))
      for (let n = plan.numbering.from; n <= plan.numbering.to && numbers.length < count; n++)
        if (!sold.has(n)) numbers.push(n)
      if (numbers.length < count) throw new DomainError('SERIES_EXHAUSTED', `only ${numbers.length} tickets left`)
    }
    numbers = [...new Set(numbers)]
    const blocked = await ranges(tx, drawId, ['lost', 'stolen', 'returned'])
    for (const n of numbers) {
      if (!Number.isInteger(n) || n < plan.numbering.from || n > plan.numbering.to)
        throw new DomainError('VALIDATION_FAILED', `ticket ${n} is outside the numbering`)
      if (inRange(blocked, n, 1)) throw new DomainError('TICKET_BLOCKED', `ticket ${n} is out of sale`)
    }
    const tickets = numbers.map((n) => ({
      number: formatNumber(n, plan.numbering),
      ticketId: raffleTicketId(drawId, n, plan.numbering),
      code: sign(raffleTicketId(drawId, n, plan.numbering)),
    }))
    await insertSales(
      tx,
      numbers.map((n, i) => [drawId, tickets[i].number, n, input.channel, input.buyerName ?? null, at]),
    )
    await appendJournal(tx, {
      at,
      type: 'raffle.tickets_sold',
      scope: scope(row),
      payload: {
        drawId,
        numbers: tickets.map((x) => x.number),
        amountCents: plan.ticketPriceCents * numbers.length,
        channel: input.channel,
      },
    })
    return {
      tickets: tickets.map((x) => ({
        ...x,
        organiser: plan.organiser,
        name: plan.name,
        drawNumber: plan.drawNumber,
        drawAt: plan.drawAt,
        drawPlace: plan.drawPlace,
        priceCents: plan.ticketPriceCents,
        currency: plan.currency,
        soldAt: at,
        prizes: plan.prizes.map((p) => `${p.name}: ${p.description}`),
      })),
      amountCents: plan.ticketPriceCents * numbers.length,
      currency: plan.currency,
      priceCents: plan.ticketPriceCents,
    }
  }

  // ---- close of sales and the draw

  /**
   * Closes sales: fixes the tickets in play (after returns and lost/stolen reports), writes them to the
   * participation file with its SHA-256, and fixes the sales digest D, the close time t and the beacon round R
   * (bolillo-draw-v2 step 2), journaled before anything else happens.
   */
  async function closeSales(drawId: string, actor: Actor | null = null) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      const plan = planOf(row)
      const at = now()
      if (Date.parse(at) < Date.parse(plan.salesCloseAt))
        throw new DomainError('ILLEGAL_TRANSITION', `sales close at ${plan.salesCloseAt}`)
      const serials = await ticketsInPlay(tx, row, plan)
      if (isRaffle(plan) && plan.drawAmong === 'sold' && serials.length < plan.prizes.length)
        throw new DomainError(
          'MINIMUM_PARTICIPATION',
          `${serials.length} tickets sold for ${plan.prizes.length} prizes`,
        )
      const dir = join(deps.dataDir, row.product, drawId)
      mkdirSync(dir, { recursive: true })
      const hash = createHash('sha256')
      const fd = openSync(join(dir, 'participation.csv'), 'w')
      let chunk: string[] = [
        `# Bolillo - billetes en juego / tickets in play ${plan.name} N.${plan.drawNumber} draw ${drawId} ${at}\n`,
      ]
      const flush = () => {
        const b = Buffer.from(chunk.join(''), 'utf8')
        hash.update(b)
        writeSync(fd, b)
        chunk = []
      }
      try {
        for (const s of serials) {
          chunk.push(s + '\n')
          if (chunk.length > 8192) flush()
        }
        chunk.push(`# total ${serials.length}\n`)
        flush()
      } finally {
        closeSync(fd)
      }
      const sha = hash.digest('hex')
      const digest = salesDigest(serials)
      const salesCents = isRaffle(plan)
        ? serials.length * plan.ticketPriceCents
        : serials.length * plan.ticketPriceCents
      const facts = closeFacts(at)
      await markLotteryDrawClosed(tx, drawId, {
        at,
        salesDigest: digest,
        beaconRound: facts.beaconRound,
        participationSha256: sha,
        ticketsInPlay: serials.length,
        salesCents,
      })
      // Issue 13 point 3: the issue register as it stands at the close (fractions by seller and state), journaled.
      const register = isRaffle(plan)
        ? null
        : (await registerCounts(tx, drawId)).map((r) => ({ sellerId: r.seller_id, status: r.status, fractions: r.n }))
      await appendJournal(tx, {
        at,
        type: `${row.product}.sales_closed`,
        scope: scope(row),
        payload: {
          drawId,
          ticketsInPlay: serials.length,
          register,
          participationSha256: sha,
          salesDigest: digest,
          closedAt: facts.closedAt,
          closedAtUnix: facts.closedAtUnix,
          beaconRound: facts.beaconRound,
          beaconPublishedAt: facts.beaconPublishedAt,
          actor,
        },
      })
      return {
        drawId,
        closedAt: at,
        closedAtUnix: facts.closedAtUnix,
        beaconRound: facts.beaconRound,
        beaconPublishedAt: facts.beaconPublishedAt,
        ticketsInPlay: serials.length,
        participationSha256: sha,
        salesDigest: digest,
      }
    })
  }

  async function participationFile(drawId: string): Promise<Buffer> {
    const row = await loadDraw(db, drawId)
    if (!row.participation_sha256)
      throw new DomainError('ILLEGAL_TRANSITION', 'the participation file is produced at the close of sales')
    return readFileSync(join(deps.dataDir, row.product, drawId, 'participation.csv'))
  }

  /** A closed RNG draw, or the reason it cannot take a beacon or be drawn. */
  function assertRngClosed(row: LotteryDrawRow): Plan {
    const plan = planOf(row)
    if (row.status !== 'closed')
      throw new DomainError('ILLEGAL_TRANSITION', `draw ${row.id} is ${row.status}; close the sales first`)
    if (plan.drawMethod !== 'rng')
      throw new DomainError(
        'RULE_DISABLED',
        'this draw is made with an authorised tómbola: enter its numbers (LOT-18, RNG-26)',
      )
    return plan
  }

  /**
   * Beacon round R's signature typed in by staff from any public source (DESIGN.md point 3): verified against the
   * quicknet key and kept for the draw. A wrong one is refused (INVALID_SIGNATURE) and journaled with who typed it.
   */
  async function recordBeacon(drawId: string, signature: string, actor: Actor | null = null) {
    const pre = await loadDraw(db, drawId)
    assertRngClosed(pre)
    assertDrawDate(planOf(pre).drawAt, now())
    const round = beaconRoundOf(pre)
    let value: BeaconValue
    try {
      value = deps.beacon.acceptTyped(round, signature)
    } catch (e) {
      if (e instanceof DomainError && e.code === 'INVALID_SIGNATURE') {
        await db.transaction((tx) =>
          appendJournal(tx, {
            at: now(),
            type: `${pre.product}.beacon_refused`,
            scope: scope(pre),
            payload: {
              drawId,
              round,
              signature: String(signature).slice(0, 200),
              reason: e.message,
              source: 'staff',
              actor,
            },
          }),
        )
      }
      throw e
    }
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      assertRngClosed(row)
      if (!(await recordLotteryBeacon(tx, drawId, JSON.stringify(value))))
        throw new DomainError('CONFLICT', `beacon round ${round} of draw ${drawId} is already recorded`)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.beacon_recorded`,
        scope: scope(row),
        payload: { drawId, ...beaconSummary(value), actor },
      })
    })
    return getDraw(drawId)
  }

  /** The extraction order of a closed draw over the list fixed at its close; D must be the one fixed then. */
  async function orderOf(
    tx: Parameters<typeof ticketsInPlay>[0],
    row: LotteryDrawRow,
    plan: Plan,
    value: BeaconValue,
    seed: Uint8Array,
  ) {
    const serials = await ticketsInPlay(tx, row, plan)
    // Among the sold tickets: N = M tickets in play (value v = the v-th of the sorted list); among issued numbers: N = the numbering.
    const raffle = isRaffle(plan) && plan.drawAmong === 'sold'
    const ballCount = raffle ? serials.length : numberCount(plan.numbering)
    const input = {
      seed,
      gameId: row.id,
      serials,
      closedAt: unixSecondsOf(row.closed_at!),
      beaconKey: beaconKeyOf(value),
      beacon: value,
      ballCount,
    }
    const { salesDigest: digest, order } = drawOrderV2(input)
    if (digest !== row.sales_digest)
      throw new DomainError(
        'CONFLICT',
        `the tickets in play of draw ${row.id} no longer give the sales digest fixed at the close of sales`,
      )
    const drawn = order
      .slice(0, valuesNeeded(plan))
      .map((v) => (raffle ? Number(serials[v - 1]) : plan.numbering.from + v - 1))
    return { serials, raffle, ballCount, input, drawn }
  }

  /**
   * RNG draw (bolillo-draw-v2): waits for beacon round R (BEACON_PENDING until it is published). Lottery: N = M
   * issued numbers, the first value wins the first exact prize, and so on; raffle: a draw among the M tickets in
   * play at the close, the first drawn wins the first prize (DESIGN.md v1 step 6).
   */
  async function drawRng(drawId: string, actor: Actor | null = null) {
    const pre = await loadDraw(db, drawId)
    assertRngClosed(pre)
    assertDrawDate(planOf(pre).drawAt, now())
    // INS-16 / RNG-26: a numbered lottery drawn by software ("lotería electrónica") only while its authorisation stands.
    if (!isRaffle(planOf(pre))) checkSoftwareDraw('rng', deps.softwareDraw)
    checkDemoReferences(planOf(pre), deps.softwareDraw)
    const round = beaconRoundOf(pre)
    // Network outside the transaction; a value typed in meanwhile is used first.
    const fetched = parseBeacon(pre.beacon) ?? (await deps.beacon.obtain(round, clock.now(), { drawId }))
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = assertRngClosed(row)
      const value = parseBeacon(row.beacon) ?? fetched
      const seed = seedOf(deps.sealer, sealedSeed(row.id), row)
      const { drawn } = await orderOf(tx, row, plan, value, seed)
      const at = now()
      const seedHex = seed.toString('hex')
      await markLotteryDrawn(tx, drawId, {
        drawnJson: JSON.stringify(drawn),
        at,
        beaconJson: JSON.stringify(value),
        seedHex,
      })
      await appendJournal(tx, {
        at,
        type: `${row.product}.drawn`,
        scope: scope(row),
        payload: {
          drawId,
          source: 'rng',
          version: DRAW_PROOF_V2,
          beacon: beaconSummary(value),
          numbers: drawn,
          seed: seedHex,
          actor,
        },
      })
    })
    return getDraw(drawId)
  }

  /** A winning number read from an authorised tómbola (LOT-18), for the next prize in order. */
  /**
   * LOT-21: an authorised postponement of a draw not yet drawn: a new draw date with the AJ authorisation reference and
   * the reason; the claim deadline keeps its 60 full days from the new date (LOT-23). Journaled with the person.
   */
  async function postpone(
    drawId: string,
    input: { drawAt: string; authorisationRef: string; reason: string },
    actor: Actor,
  ) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open' && row.status !== 'closed')
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `draw ${drawId} is ${row.status}: only a draw not yet drawn is postponed`,
        )
      const plan = planOf(row)
      const dates = postponedDates(plan, input, now())
      if (
        !(await postponeDrawRow(tx, drawId, JSON.stringify({ ...plan, ...dates }), dates.drawAt, dates.claimDeadline))
      )
        throw new DomainError('CONFLICT', `draw ${drawId} changed meanwhile`)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.draw_postponed`,
        scope: scope(row),
        payload: {
          drawId,
          from: { drawAt: plan.drawAt, claimDeadline: plan.claimDeadline },
          to: dates,
          authorisationRef: input.authorisationRef.trim(),
          reason: input.reason.trim(),
          actor,
          rule: 'LOT-21',
        },
      })
    })
    return getDraw(drawId)
  }

  async function enterNumber(drawId: string, number: number, deviceId: string | null) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      if (plan.drawMethod !== 'manual')
        throw new DomainError('RULE_DISABLED', 'this draw is made by the bolillo-draw-v2 RNG')
      checkDemoReferences(plan, deps.softwareDraw)
      assertDrawDate(plan.drawAt, now())
      // LOT-18: a numbered lottery's numbers come from a registered, certified device of the draw's hall, checked as each is entered.
      const device = isRaffle(plan)
        ? null
        : await extractionDevice(tx, deviceId ?? plan.drawDevice, plan.drawHallId ?? null, clock.now())
      const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
      if (!Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to)
        throw new DomainError('BALL_OUT_OF_RANGE', `${number} is outside the numbering`)
      if (drawn.includes(number)) throw new DomainError('BALL_ALREADY_DRAWN', `${number} was already drawn`)
      if (isRaffle(plan) && plan.drawAmong === 'sold') {
        const serials = new Set(await ticketsInPlay(tx, row, plan))
        if (!serials.has(formatNumber(number, plan.numbering)))
          throw new DomainError('VALIDATION_FAILED', `ticket ${number} is not in play: draw again`)
      }
      drawn.push(number)
      const complete = drawn.length === valuesNeeded(plan)
      const at = now()
      await recordLotteryNumbers(tx, drawId, JSON.stringify(drawn), complete ? at : null)
      await appendJournal(tx, {
        at,
        type: `${row.product}.number_drawn`,
        scope: scope(row),
        payload: {
          drawId,
          seq: drawn.length,
          number,
          source: 'manual',
          device: device?.id ?? deviceId ?? plan.drawDevice,
          sealCode: device?.sealCode ?? null,
        },
      })
    })
    return getDraw(drawId)
  }

  /**
   * The published proof, once drawn: bolillo-draw-v2 with the draw id as gameId, over the list fixed at the close
   * (soldSerials, when at most 200,000). A draw made before v2 keeps its v1 proof.
   */
  async function getProof(
    drawId: string,
  ): Promise<(DrawProofV2 | DrawProof) & { items: unknown; winning: Record<string, number> | null; note: string }> {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (plan.drawMethod !== 'rng')
      throw new DomainError('RULE_DISABLED', 'a tómbola draw has no RNG proof; its numbers are in the minutes')
    if (row.status !== 'drawn' && row.status !== 'settled')
      throw new DomainError('ILLEGAL_TRANSITION', 'the proof is published after the draw')
    const serials = await ticketsInPlay(db, row, plan)
    const drawn = JSON.parse(row.balls!) as number[]
    const raffle = isRaffle(plan) && plan.drawAmong === 'sold'
    const extra = {
      items: raffle
        ? { list: 'soldSerials (tickets in play at the close of sales, sorted by bytes)' }
        : {
            numbering: plan.numbering,
            mapping: 'value v -> number from + v - 1 (the v-th of the sorted zero-padded numbers)',
          },
      winning: row.result ? (JSON.parse(row.result) as LotteryResult).winning : null,
      note: raffle
        ? 'draw among M tickets in play: value v is the v-th ticket of the sorted list; the first drawn wins the first prize'
        : 'draw among M issued numbers: the first value wins the first exact prize, and so on',
    }
    const value = parseBeacon(row.beacon)
    const includeSerials = serials.length <= 200_000
    if (!value) {
      // Drawn before v2: its v1 proof.
      const ballCount = raffle ? serials.length : numberCount(plan.numbering)
      const balls = raffle
        ? drawn.map((n) => serials.indexOf(formatNumber(n, plan.numbering)) + 1)
        : drawn.map((n) => n - plan.numbering.from + 1)
      return {
        version: DRAW_PROOF_VERSION,
        gameId: row.id,
        commitment: row.commitment,
        seed: row.seed_hex,
        salesDigest: row.sales_digest!,
        externalEntropy: row.external_entropy ?? '',
        ballCount,
        balls,
        ...(includeSerials ? { soldSerials: serials } : {}),
        ...extra,
      }
    }
    const { input, drawn: again } = await orderOf(db, row, plan, value, Buffer.from(row.seed_hex, 'hex'))
    if (again.some((n, i) => n !== drawn[i]))
      throw new DomainError('CONFLICT', `draw ${drawId} no longer matches its close of sales`)
    const proof = buildDrawProofV2({ ...input, calledCount: valuesNeeded(plan), includeSerials })
    return { ...proof, ...extra }
  }

  async function recordIncident(drawId: string, note: string): Promise<void> {
    if (!note.trim()) throw new DomainError('VALIDATION_FAILED', 'an incident needs its description')
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.incident`,
        scope: scope(row),
        payload: { drawId, note, status: row.status },
      })
    })
  }

  return {
    sellRaffleTickets,
    sellRaffleTicketsWithin,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterNumber,
    postpone,
    getProof,
    recordIncident,
  }
}
