import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../helpers/server.ts'
import { nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { cashierHall, PASSWORD, type CashierHall } from '../helpers/cashier.ts'
import { E_INSTANT } from '../helpers/paid-hall.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { countOf } from '../helpers/cash.ts'

/** The injected clock: a fixed day, ticking with real time (the test passes on any date). */
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2031-05-06T14:00:00.000Z') + (Date.now() - started)) }

/**
 * Issue 13, "what it must show": random interleavings of sales, payouts, refunds and voucher cash-outs of every
 * product, at two cashier stations (each person in her own open shift) and a kiosk, over real HTTP with
 * authentication on. A model kept by the test, from prices it knows and not from what the server answers, says what
 * each drawer must hold; after every run:
 *
 * - each drawer's movements sum to the model's balance, and the shift report's expected cash is float + that;
 * - no winning card is paid twice and no card refunded twice (the repeat is refused by name), and prizes and
 *   refunds paid never exceed those awarded;
 * - nothing is sold without a payment record (cards, lotto slips, e-instant tickets), and no refusal is a 5xx;
 * - issue 23: a shift closed while counter sales race it expected exactly the model's drawer plus the sales answered
 *   as sold (the others refused with SHIFT_NOT_OPEN), and every closed shift's report equals its movements for ever.
 *
 * The database carries over from run to run, so the model does too; shrinking is off (a replay would meet the
 * state the first attempt left).
 */
const FACE = 500
const SLIP = plan649().priceCents
const TICKET = E_INSTANT.priceCents
const FLOAT = 50_000
const STATIONS = ['cajera@caja1', 'cajero@caja2'] as const
type Station = (typeof STATIONS)[number]

/** "2026-11-24T10:00:00-04:00" for `ms`, in La Paz time (the plan's own offset). */
const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`

type Op =
  | { t: 'cards'; st: number; n: number }
  | { t: 'slip'; st: number }
  | { t: 'instant'; st: number }
  | { t: 'voucher'; st: number; amount: number }
  | { t: 'kiosk'; v: number; cards: number; slip: boolean; instant: boolean }
  | { t: 'pay'; st: number; w: number }
  | { t: 'refund'; st: number; r: number }
  | { t: 'cashout'; st: number; v: number }
  | { t: 'race'; st: number; n: number; at: number }

const st = fc.integer({ min: 0, max: 1 })
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('cards' as const), st, n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('slip' as const), st }),
  fc.record({ t: fc.constant('instant' as const), st }),
  fc.record({ t: fc.constant('voucher' as const), st, amount: fc.integer({ min: 2, max: 8 }).map((x) => x * 500) }),
  fc.record({
    t: fc.constant('kiosk' as const),
    v: fc.nat(),
    cards: fc.integer({ min: 0, max: 2 }),
    slip: fc.boolean(),
    instant: fc.boolean(),
  }),
  fc.record({ t: fc.constant('pay' as const), st, w: fc.nat() }),
  fc.record({ t: fc.constant('refund' as const), st, r: fc.nat() }),
  fc.record({ t: fc.constant('cashout' as const), st, v: fc.nat() }),
  fc.record({ t: fc.constant('race' as const), st, n: fc.integer({ min: 2, max: 6 }), at: fc.nat() }),
)

describe('money invariants over random interleavings of every product, two stations and a kiosk (issue 13)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let drawId = ''
  let saleGame = ''
  /** Winning cards with all they won; `bonus`: a progressive pot's prize among them (paid with the card, issue 23). */
  const winners: Array<{ code: string; cardId: string; amountCents: number; bonus: boolean }> = []
  const refundable: string[] = []
  const shifts = new Map<Station, string>()
  /** Shifts closed during the runs (by a racing close), with what the model says each expected. */
  const closedShifts: Array<{ id: string; expectedCents: number }> = []
  // The model.
  const balance = new Map<Station, number>(STATIONS.map((s) => [s, 0]))
  const vouchers: Array<{ code: string; cents: number; live: boolean }> = []
  const paid = new Set<string>()
  const refunded = new Set<string>()
  const player = { name: 'Rosa Condori', document: 'CI 4812377 LP' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    h = await cashierHall(server.url, server.services, { faceValueCents: FACE })
    for (const who of STATIONS) {
      const r = await h.call(who, 'POST', '/api/shifts', { floatCents: FLOAT })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      shifts.set(who, r.body.shiftId)
    }
    const now = clock.now().getTime()
    drawId = (
      await server.services.lotto.createDraw(
        plan649({
          salesStartAt: laPaz(now - 86_400_000),
          salesCloseAt: laPaz(now + 5 * 86_400_000),
          drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
          claimDeadline: laPaz(now + 70 * 86_400_000),
        }),
      )
    ).drawId
    await server.services.instant.generateBatch({
      design: {
        ...E_INSTANT,
        ticketCount: 500,
        packSize: 100,
        tiers: [
          { amountCents: 5000, count: 10 },
          { amountCents: 2000, count: 30 },
          { amountCents: 1000, count: 60 },
        ],
      },
      by: { kind: 'person', id: 'test' },
    })
    await server.services.instant.configureHall({
      hallId: h.setup.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'test',
    })
    // Issue 23: a progressive pot won with the bingo, so that a winning card carries a bonus prize paid with it.
    await server.services.bonus.createPot({
      name: 'Pozo Cajas',
      kind: 'progressive',
      authorisationRef: 'AJ-RA-2025-0901',
      contributionBp: 500,
      seedCents: 20_000,
      condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [h.setup.hallId],
    })
    // A finished game whose winners were sold at Caja 1 (cash in its drawer), to be paid during the runs.
    // Two purchases: the hall's default maximum is 50 cards per purchase (BNG-40 / GEN-18).
    for (const count of [30, 30]) {
      const sold = await h.call('cajera@caja1', 'POST', `/api/games/${h.setup.gameId}/sales`, {
        ageConfirmed: true,
        count,
      })
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    }
    balance.set('cajera@caja1', 60 * FACE)
    await playToTheEnd(server.services, h.setup.gameId)
    const bonus = await server.services.db.all<{ card_id: string; amount_cents: number }>(
      "SELECT card_id, amount_cents FROM bonus_prizes WHERE game_id = ? AND status = 'awarded'",
      [h.setup.gameId],
    )
    expect(bonus.length).toBeGreaterThan(0)
    for (const w of await winningCodes(server.services, h.setup.gameId)) {
      const own = bonus.filter((b) => b.card_id === w.cardId)
      winners.push({
        ...w,
        amountCents: w.amountCents + own.reduce((t, b) => t + Number(b.amount_cents), 0),
        bonus: own.length > 0,
      })
    }
    expect(winners.some((w) => w.bonus)).toBe(true)
    // A game voided before its first ball (BNG-80): its cards, sold at Caja 2, are refundable once.
    const voided = await nextGameOnSale(server.services, h.setup)
    const v = await h.call('cajero@caja2', 'POST', `/api/games/${voided}/sales`, { ageConfirmed: true, count: 8 })
    expect(v.status, JSON.stringify(v.body)).toBe(201)
    balance.set('cajero@caja2', 8 * FACE)
    refundable.push(...v.body.cards.map((c: { code: string }) => c.code))
    expect(
      (
        await h.call('mesa', 'POST', `/api/games/${voided}/incidents`, {
          kind: 'device-failure-before-first-ball',
          note: 'avería de prueba',
          confirm: { username: 'jefa', password: PASSWORD },
        })
      ).status,
    ).toBe(200)
    const annul = await h.call('mesa', 'POST', `/api/games/${voided}/incidents`, {
      kind: 'unresolved-suspension',
      reason: 'avería sin resolver',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(annul.body.status, JSON.stringify(annul.body)).toBe('void')
    saleGame = await nextGameOnSale(server.services, h.setup)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  async function apply(o: Op): Promise<void> {
    const who = 'st' in o ? STATIONS[o.st] : STATIONS[0]
    const add = (cents: number) => balance.set(who, balance.get(who)! + cents)
    const refusedCleanly = (r: { status: number; body: any }) => {
      expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400)
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(500)
      expect(r.body.error.message).toBeTruthy()
    }
    switch (o.t) {
      case 'cards': {
        const r = await h.call(who, 'POST', `/api/games/${saleGame}/sales`, { ageConfirmed: true, count: o.n })
        if (r.status === 201) add(o.n * FACE)
        else refusedCleanly(r)
        return
      }
      case 'slip': {
        const r = await h.call(who, 'POST', `/api/lotto/draws/${drawId}/slips`, {
          ageConfirmed: true,
          quickPicks: 1,
          player,
        })
        if (r.status === 201) add(SLIP)
        else refusedCleanly(r)
        return
      }
      case 'instant': {
        const r = await h.call(who, 'POST', `/api/instant/halls/${h.setup.hallId}/electronic`, {
          ageConfirmed: true,
          gameNo: E_INSTANT.gameNo,
        })
        if (r.status === 201) add(TICKET)
        else refusedCleanly(r)
        return
      }
      case 'voucher': {
        const r = await h.call(who, 'POST', '/api/vouchers', {
          hallId: h.setup.hallId,
          amountCents: o.amount,
          cash: countOf(o.amount),
        })
        expect(r.status, JSON.stringify(r.body)).toBe(201)
        add(o.amount)
        vouchers.push({ code: r.body.voucher.code, cents: o.amount, live: true })
        return
      }
      case 'kiosk': {
        if (!vouchers.length) return
        const v = vouchers[o.v % vouchers.length]
        const cost = o.cards * FACE + (o.slip ? SLIP : 0) + (o.instant ? TICKET : 0)
        const r = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
          voucherCode: v.code,
          ageConfirmed: true,
          ...(o.cards ? { cards: { gameId: saleGame, count: o.cards } } : {}),
          ...(o.slip ? { slips: [{ drawId, quickPicks: 1, player }] } : {}),
          ...(o.instant ? { instant: { gameNo: E_INSTANT.gameNo, count: 1 } } : {}),
        })
        if (r.status === 201) {
          // The kiosk takes no cash: the voucher pays, and the change (if any) is a new voucher.
          expect(v.live && cost > 0 && cost <= v.cents).toBe(true)
          expect(r.body.amountCents).toBe(cost)
          v.live = false
          const change = v.cents - cost
          expect(r.body.change?.amountCents ?? 0).toBe(change)
          if (change > 0) vouchers.push({ code: r.body.change.code, cents: change, live: true })
        } else {
          refusedCleanly(r)
          expect(
            v.live && cost > 0 && cost <= v.cents,
            `refused ${JSON.stringify(r.body.error)} though the voucher covers it`,
          ).toBe(false)
        }
        return
      }
      case 'pay': {
        const w = winners[o.w % winners.length]
        // BNG-55: a card with a pot's prize is paid to an identified payee (CFG-22: with a telephone, in Bolivia).
        const r = await h.call(who, 'POST', '/api/tickets/pay', {
          code: w.code,
          ...(w.bonus ? { payeeName: player.name, payeeDocument: player.document, payeePhone: '71234567' } : {}),
        })
        if (paid.has(w.code)) {
          expect([r.status, r.body.error?.code]).toEqual([409, 'ALREADY_PAID'])
        } else {
          expect(r.status, JSON.stringify(r.body)).toBe(200)
          paid.add(w.code)
          add(-w.amountCents)
        }
        return
      }
      case 'refund': {
        const code = refundable[o.r % refundable.length]
        const r = await h.call(who, 'POST', '/api/refunds/cards', { code, to: 'cash' })
        if (refunded.has(code)) {
          expect([r.status, r.body.error?.code]).toEqual([409, 'ALREADY_REFUNDED'])
        } else {
          expect(r.status, JSON.stringify(r.body)).toBe(201)
          refunded.add(code)
          add(-FACE)
        }
        return
      }
      case 'race': {
        // Issue 23: the drawer is counted and closed while counter sales are sold into it, all at once.
        const before = balance.get(who)!
        const calls = Array.from(
          { length: o.n },
          () => () => h.call(who, 'POST', `/api/games/${saleGame}/sales`, { ageConfirmed: true, count: 1 }),
        )
        const at = o.at % (o.n + 1)
        calls.splice(at, 0, () =>
          h.call(who, 'POST', '/api/shifts/current/close', {
            countedCents: FLOAT + before,
            note: 'arqueo con ventas en curso',
          }),
        )
        const answers = await Promise.all(calls.map((f) => f()))
        const closed = answers[at]
        expect(closed.status, JSON.stringify(closed.body)).toBe(200)
        const sales = answers.filter((_, i) => i !== at)
        for (const a of sales)
          if (a.status !== 201)
            expect([a.status, a.body.error?.code], JSON.stringify(a.body)).toEqual([409, 'SHIFT_NOT_OPEN'])
        const landed = sales.filter((a) => a.status === 201).length
        // What the close expected is the model's drawer plus exactly the sales answered as sold: none came after it.
        expect(closed.body.expectedCents).toBe(FLOAT + before + landed * FACE)
        expect(closed.body.differenceCents).toBe(landed ? -landed * FACE : 0)
        closedShifts.push({ id: closed.body.shiftId, expectedCents: FLOAT + before + landed * FACE })
        const reopened = await h.call(who, 'POST', '/api/shifts', { floatCents: FLOAT })
        expect(reopened.status, JSON.stringify(reopened.body)).toBe(201)
        shifts.set(who, reopened.body.shiftId)
        balance.set(who, 0)
        return
      }
      case 'cashout': {
        if (!vouchers.length) return
        const v = vouchers[o.v % vouchers.length]
        const r = await h.call(who, 'POST', '/api/vouchers/cashout', { code: v.code })
        if (v.live) {
          expect(r.status, JSON.stringify(r.body)).toBe(200)
          expect(r.body.paidCents).toBe(v.cents)
          v.live = false
          add(-v.cents)
        } else {
          refusedCleanly(r)
        }
      }
    }
  }

  async function checkInvariants(): Promise<void> {
    const { db } = server.services
    for (const who of STATIONS) {
      const device = h.devices[who === 'cajera@caja1' ? 'caja1' : 'caja2']
      const sum = await db.get<{ s: number | null }>(
        'SELECT SUM(amount_cents) AS s FROM cash_movements WHERE station_id = ? AND shift_id = ?',
        [device.id, shifts.get(who)],
      )
      expect(Number(sum?.s ?? 0), `${who}'s drawer`).toBe(balance.get(who))
      // Every movement of the station is in its open shift or in one of the shifts closed before, and the open
      // shift's report expects float + movements.
      const known = [shifts.get(who)!, ...closedShifts.map((c) => c.id)]
      const outside = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM cash_movements WHERE station_id = ? AND (shift_id IS NULL OR shift_id NOT IN (${known.map(() => '?').join(', ')}))`,
        [device.id, ...known],
      )
      expect(Number(outside?.n)).toBe(0)
      const report = await h.call('jefa', 'GET', `/api/shifts/${shifts.get(who)}`)
      expect(report.body.expectedCents).toBe(FLOAT + balance.get(who)!)
    }
    // A closed shift's report equals its movements, now and after every later run (nothing lands after a close).
    for (const c of closedShifts) {
      const row = await db.get<{ expected_cents: number; float_cents: number; status: string }>(
        'SELECT expected_cents, float_cents, status FROM cashier_shifts WHERE id = ?',
        [c.id],
      )
      const moved = await db.get<{ s: number | null }>(
        'SELECT SUM(amount_cents) AS s FROM cash_movements WHERE shift_id = ?',
        [c.id],
      )
      expect([row?.status, Number(row?.expected_cents)]).toEqual(['closed', c.expectedCents])
      expect(Number(row?.float_cents) + Number(moved?.s ?? 0), `closed shift ${c.id}`).toBe(c.expectedCents)
    }
    const twice = await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM (SELECT card_id FROM payouts GROUP BY card_id HAVING COUNT(*) > 1) x',
    )
    expect(Number(twice?.n)).toBe(0)
    const refundedTwice = await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM (SELECT ticket_id FROM refunds GROUP BY product, ticket_id HAVING COUNT(*) > 1) x',
    )
    expect(Number(refundedTwice?.n)).toBe(0)
    // A bonus prize is paid only with its card: paid exactly when its card's payout is, and inside that payout.
    const looseBonus = await db.get<{
      n: number
    }>(`SELECT COUNT(*) AS n FROM bonus_prizes b LEFT JOIN payouts p ON p.card_id = b.card_id
      WHERE (b.status = 'paid') <> (p.id IS NOT NULL)`)
    expect(Number(looseBonus?.n)).toBe(0)
    const paidOut = await db.get<{ s: number | null }>('SELECT SUM(amount_cents) AS s FROM payouts')
    expect(Number(paidOut?.s ?? 0)).toBeLessThanOrEqual(winners.reduce((s, w) => s + w.amountCents, 0))
    const refundsOut = await db.get<{ s: number | null }>(
      "SELECT SUM(amount_cents) AS s FROM refunds WHERE product = 'card'",
    )
    expect(Number(refundsOut?.s ?? 0)).toBeLessThanOrEqual(refundable.length * FACE)
    const unpaid = await db.get<{ n: number }>(`SELECT
      (SELECT COUNT(*) FROM cards c WHERE NOT EXISTS (SELECT 1 FROM sale_payments p WHERE p.product = 'card' AND p.ref_id = c.id))
      + (SELECT COUNT(*) FROM lotto_slips s WHERE NOT EXISTS (SELECT 1 FROM sale_payments p WHERE p.product = 'slip' AND p.ref_id = s.id))
      + (SELECT COUNT(*) FROM instant_sales WHERE channel = 'electronic') - (SELECT COUNT(*) FROM sale_payments WHERE product = 'instant') AS n`)
    expect(Number(unpaid?.n)).toBe(0)
  }

  it(
    'keeps every drawer equal to its movements, pays and refunds each ticket at most once, and sells nothing unpaid',
    { timeout: 300_000 },
    async () => {
      await checkInvariants()
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
          for (const o of ops) await apply(o)
          await checkInvariants()
        }),
        { numRuns: 25, endOnFailure: true },
      )
      // The runs did reach every path at least once.
      expect(paid.size).toBeGreaterThan(0)
      expect(refunded.size).toBeGreaterThan(0)
      expect(closedShifts.length).toBeGreaterThan(0)
      // Every winner paid in the end, the pot's prize with its card, and the register lists it.
      for (let w = 0; w < winners.length; w++) if (!paid.has(winners[w].code)) await apply({ t: 'pay', st: 1, w })
      await checkInvariants()
      const register = await h.call('jefa', 'GET', `/api/prize-register?gameId=${h.setup.gameId}`)
      expect(
        register.body.rows.flatMap((r: { prizes: Array<{ kind: string }> }) => r.prizes.map((p) => p.kind)),
      ).toContain('progressive')
      expect(register.body.totalCents).toBe(winners.reduce((t, w) => t + w.amountCents, 0))
    },
  )
})
