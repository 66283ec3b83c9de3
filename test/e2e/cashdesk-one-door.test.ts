import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { cashierHall, PASSWORD, type CashierHall } from '../helpers/cashier.ts'
import { openTill } from '../helpers/till.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { runAs } from '../../server/src/shared/request-context.ts'

/** The injected clock: a fixed day, ticking with real time (the test passes on any date). */
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2031-05-06T14:00:00.000Z') + (Date.now() - started)) }

/**
 * Issue 23 points 2 and 4, over real HTTP with authentication on, enrolled stations and real accounts:
 * - one door for payouts: POST /api/tickets/pay is the only route that pays a prize; the station and the person are
 *   the authenticated principal's enrolled station and open shift, never the body's; the hall is the card's;
 * - shifts that add up under races: a sale or payout racing the close of its shift lands in it before the close, or
 *   is refused with SHIFT_NOT_OPEN; the closed report always equals its movements.
 */
const FACE = 500
const FLOAT = 100_000
/** "2026-11-24T10:00:00-04:00" for `ms`, in La Paz time (the plan's own offset). */
const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`

describe("the cash desk pays every prize, out of the payer's own open shift (issue 23)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let saleGame = ''
  const winners: Array<{ code: string; amountCents: number }> = []
  const db = () => server.services.db
  const movementsOf = (refId: string) =>
    db().all<{ station_id: string; shift_id: string; amount_cents: number }>(
      'SELECT station_id, shift_id, amount_cents FROM cash_movements WHERE ref_id = ?',
      [refId],
    )
  const openShift = async (who: string) => {
    const r = await h.call(who, 'POST', '/api/shifts', { floatCents: FLOAT })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.shiftId as string
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    h = await cashierHall(server.url, server.services, { faceValueCents: FACE })
    await openShift('cajera@caja1')
    await openShift('cajero@caja2')
    // A finished game whose cards were sold at Caja 1 (their cash in its drawer); two purchases (BNG-40: 50 at most).
    // One card may win both the line and the bingo, so a game can have a single winning card: play until two.
    let gameId = h.setup.gameId
    for (let round = 0; round < 5 && winners.length < 2; round++) {
      if (round > 0) gameId = await nextGameOnSale(server.services, h.setup)
      for (const count of [30, 30])
        expect(
          (await h.call('cajera@caja1', 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count })).status,
        ).toBe(201)
      await playToTheEnd(server.services, gameId)
      winners.push(...(await winningCodes(server.services, gameId)))
    }
    expect(winners.length).toBeGreaterThanOrEqual(2)
    saleGame = await nextGameOnSale(server.services, h.setup)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it("refuses a payout outside the payer's open shift, whatever station and cashier the body names, and pays nothing", async () => {
    const w = winners[0]
    const body = { code: w.code, stationId: h.devices.caja1.id, cashierId: 'cajera' }
    // At Caja 1 the open shift is Rosa's: Jorge logged in there moves none of its cash.
    const notHers = await h.call('cajero@caja1', 'POST', '/api/tickets/pay', body)
    expect(notHers.status, JSON.stringify(notHers.body)).toBe(409)
    expect(notHers.body.error.code).toBe('SHIFT_NOT_OPEN')
    // A floor manager with no station: the body's station is not hers.
    const noStation = await h.call('mesa', 'POST', '/api/tickets/pay', body)
    expect(noStation.status, JSON.stringify(noStation.body)).toBe(409)
    expect(noStation.body.error.code).toBe('STATION_REQUIRED')
    expect(noStation.body.error.message).toMatch(/caja|estación/i)
    // The same floor manager logged in at Caja 2, where Jorge's shift is open.
    expect((await h.call('mesa@caja2', 'POST', '/api/tickets/pay', body)).body.error.code).toBe('SHIFT_NOT_OPEN')
    // A kiosk's own credential pays nothing.
    const kiosk = await h.call('kiosk', 'POST', '/api/tickets/pay', body)
    expect(kiosk.status).toBeGreaterThanOrEqual(400)
    expect(kiosk.status).toBeLessThan(500)
    // Still unpaid, and no drawer moved.
    expect((await h.call('cajera@caja1', 'POST', '/api/tickets/validate', { code: w.code })).body.status).toBe('winner')
    expect(
      Number(
        (await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout'"))!.n,
      ),
    ).toBe(0)
  })

  it("moves the payer's own drawer only, never the station the body names", async () => {
    const w = winners[0]
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: w.code,
      stationId: h.devices.caja1.id,
      cashierId: 'cajera',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.stationId).toBe(h.devices.caja2.id)
    const jorge = (await h.call('cajero@caja2', 'GET', '/api/shifts/current')).body.shift
    const rosa = (await h.call('cajera@caja1', 'GET', '/api/shifts/current')).body.shift
    expect(
      (await movementsOf(paid.body.payout.payoutId)).map((m) => [m.station_id, m.shift_id, Number(m.amount_cents)]),
    ).toEqual([[h.devices.caja2.id, jorge.shiftId, -w.amountCents]])
    expect(jorge.outCents).toBe(w.amountCents)
    expect(rosa.lines.filter((l: { kind: string }) => l.kind === 'prize_payout')).toEqual([])
  })

  it("pays a card only at a station of the card's hall (WRONG_HALL), whoever asks", async () => {
    const other = await hallWithGameOnSale(server.services, { name: 'Sala Sajama', cards: 200 })
    await server.services.bingo.sell({ gameId: other.gameId, count: 40, channel: 'test' })
    await playToTheEnd(server.services, other.gameId)
    const [w] = await winningCodes(server.services, other.gameId)
    // The cashier at a station of this hall, in her own open shift, does not pay another hall's card here.
    const r = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: w.code })
    expect(r.status, JSON.stringify(r.body)).toBe(403)
    expect(r.body.error.code).toBe('WRONG_HALL')
    expect(r.body.error.message).toMatch(/sala/)
    // The use case itself refuses it from the card's hall, even to a person of every hall, whatever guard the route has.
    const till = {
      stationId: h.devices.caja1.id,
      cashierId: 'jefa',
      shiftId: null,
      stationHallId: h.setup.hallId,
      personHalls: '*' as const,
    }
    await expect(server.services.cashdesk.payouts.pay({ code: w.code, ...till })).rejects.toMatchObject({
      code: 'WRONG_HALL',
    })
    const judged = await h.call('jefa', 'POST', '/api/tickets/validate', { code: w.code })
    expect(judged.body.status).toBe('winner')
    // Issue 23: the cash desk's one shape for the cashier screen, whatever the line.
    expect(judged.body.view).toMatchObject({
      product: 'card',
      verdict: 'winner',
      payable: true,
      amountCents: judged.body.amountCents,
    })
  })

  it("stops a cashier moved to another hall from paying at her old hall's station, though her session and shift are still open", async () => {
    const user = await server.services.auth.createUser({
      username: 'cajera3',
      displayName: 'Nora Paz',
      role: 'cashier',
      password: PASSWORD,
      halls: [h.setup.hallId],
    })
    const till = await openTill(server.url, server.services, {
      hallId: h.setup.hallId,
      username: 'cajera3',
      password: PASSWORD,
      stationName: 'Caja 3',
      floatCents: FLOAT,
    })
    const other = await hallWithGameOnSale(server.services, { name: 'Sala Tunari', cards: 100 })
    await server.services.auth.setHalls(user.id, [other.hallId])
    const w = winners[winners.length - 1]
    const r = await api(server.url, 'POST', '/api/tickets/pay', { code: w.code }, till.headers)
    expect(r.status, JSON.stringify(r.body)).toBe(403)
    expect(r.body.error.code).toBe('WRONG_HALL')
    // The use case decides it itself, from the card and the till, whatever guard stands before it (a body the
    // route's guard does not read, a caller other than HTTP).
    const sp = {
      station: { id: till.station.id, name: 'Caja 3', kind: 'cashier_station', hallId: h.setup.hallId },
      person: { id: user.id, name: 'Nora Paz', role: 'cashier', halls: [other.hallId] },
    }
    await expect(server.services.cashdesk.shifts.till(sp)).rejects.toMatchObject({ code: 'WRONG_HALL' })
    const stale = {
      stationId: till.station.id,
      cashierId: user.id,
      shiftId: till.shiftId,
      stationHallId: h.setup.hallId,
      personHalls: [other.hallId],
    }
    await expect(server.services.cashdesk.payouts.pay({ code: w.code, ...stale })).rejects.toMatchObject({
      code: 'WRONG_HALL',
    })
    expect(
      Number(
        (await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements WHERE shift_id = ?', [till.shiftId]))!
          .n,
      ),
    ).toBe(0)
    const judged = await h.call('jefa', 'POST', '/api/tickets/validate', { code: w.code })
    expect(judged.body.status).toBe('winner')
    // Issue 23: the cash desk's one shape for the cashier screen, whatever the line.
    expect(judged.body.view).toMatchObject({
      product: 'card',
      verdict: 'winner',
      payable: true,
      amountCents: judged.body.amountCents,
    })
  })

  it('pays lotto and lottery prizes only at the cash desk: the per-product and by-id routes are gone, and a floor manager without a station pays nothing (GEN-13)', async () => {
    for (const path of [
      '/api/lotto/tickets/pay',
      '/api/lottery/tickets/pay',
      '/api/bonus-prizes/bz_any/pay',
      '/api/instant/pay',
    ]) {
      expect(
        (
          await h.call('mesa', 'POST', path, {
            code: 'x',
            stationId: h.devices.caja1.id,
            payee: { name: 'A B', document: '1' },
          })
        ).status,
        path,
      ).toBe(404)
    }
    const now = clock.now().getTime()
    const { drawId } = await server.services.lotto.createDraw(
      plan649({
        gameCode: 'LOTODOOR',
        salesStartAt: laPaz(now - 86_400_000),
        salesCloseAt: laPaz(now + 5 * 86_400_000),
        drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
        claimDeadline: laPaz(now + 70 * 86_400_000),
      }),
    )
    const slip = await server.services.lotto.sellSlip({
      drawId,
      quickPicks: 1,
      player: { name: 'Juana Flores Mamani', document: '3344556 LP' },
      channel: 'counter',
    })
    const r = await h.call('mesa', 'POST', '/api/tickets/pay', {
      code: slip.code,
      stationId: h.devices.caja1.id,
      payeeName: 'Juana Flores Mamani',
      payeeDocument: '3344556 LP',
    })
    expect(r.status, JSON.stringify(r.body)).toBe(409)
    expect(r.body.error.code).toBe('STATION_REQUIRED')
    expect(Number((await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM lottery_payouts'))!.n)).toBe(0)
  })

  it('never lets a sale or a payout land in a shift after its close: the closed report equals its movements, round after round', async () => {
    const rounds = 6
    // Rosa's drawer from the start of the day is counted and closed first; each round opens a new one.
    expect(
      (
        await h.call('cajera@caja1', 'POST', '/api/shifts/current/close', {
          countedCents: FLOAT,
          note: 'cierre antes de la prueba',
        })
      ).status,
    ).toBe(200)
    let cardsSold = Number(
      (await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [saleGame]))!.n,
    )
    const payable = winners.slice(1)
    let sawRefusal = false
    for (let round = 0; round < rounds; round++) {
      const shiftId = await openShift('cajera@caja1')
      const w = payable.shift()
      const sales = Array.from(
        { length: 8 },
        () => () => h.call('cajera@caja1', 'POST', `/api/games/${saleGame}/sales`, { ageConfirmed: true, count: 1 }),
      )
      const pay = w ? [() => h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: w.code })] : []
      const close = () =>
        h.call('cajera@caja1', 'POST', '/api/shifts/current/close', {
          countedCents: FLOAT,
          note: 'arqueo de la prueba de carrera',
        })
      // The close goes in at a different place each round, among the sales and the payout, all at once.
      const ops = [...sales, ...pay]
      ops.splice(round % (ops.length + 1), 0, close)
      const answers = await Promise.all(ops.map((f) => f()))
      const closed = answers[round % ops.length] // the close's answer
      expect(closed.status, JSON.stringify(closed.body)).toBe(200)
      for (const a of answers) {
        if (a.status >= 400) {
          expect(a.status, JSON.stringify(a.body)).toBe(409)
          expect(a.body.error.code).toBe('SHIFT_NOT_OPEN')
          sawRefusal = true
        }
      }
      const soldNow = answers.filter((a) => a.status === 201).length
      const paidNow = answers.filter((a) => a.status === 200 && a.body.payout).length
      // The closed shift: what it expected at its close is float plus every movement filed under it, now and for ever.
      const row = (await db().get<{ status: string; expected_cents: number; float_cents: number }>(
        'SELECT status, expected_cents, float_cents FROM cashier_shifts WHERE id = ?',
        [shiftId],
      ))!
      const sum = Number(
        (await db().get<{ s: number | null }>('SELECT SUM(amount_cents) AS s FROM cash_movements WHERE shift_id = ?', [
          shiftId,
        ]))!.s ?? 0,
      )
      expect(row.status).toBe('closed')
      expect(Number(row.expected_cents), `round ${round}`).toBe(Number(row.float_cents) + sum)
      const report = (await h.call('jefa', 'GET', `/api/shifts/${shiftId}`)).body
      expect(report.expectedCents).toBe(report.floatCents + report.inCents - report.outCents)
      // Every sale and payout answered as done is in the closed shift; every refused one left nothing behind.
      expect(report.movements.filter((m: { kind: string }) => m.kind === 'counter_sale')).toHaveLength(soldNow)
      expect(report.movements.filter((m: { kind: string }) => m.kind === 'prize_payout')).toHaveLength(paidNow)
      cardsSold += soldNow
      expect(
        Number((await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [saleGame]))!.n),
      ).toBe(cardsSold)
      if (w && paidNow === 0)
        expect((await h.call('cajera@caja1', 'POST', '/api/tickets/validate', { code: w.code })).body.status).toBe(
          'winner',
        )
    }
    // The close came first in round 0: everything after it in that round was refused.
    expect(sawRefusal).toBe(true)
    // Rosa opens her drawer again for whatever comes next.
    await openShift('cajera@caja1')
  }, 120_000)
  it("lets nobody of another hall read a shift's report, by its id or its PDF (the hall is the shift's)", async () => {
    const other = await hallWithGameOnSale(server.services, { name: 'Sala Illimani', cards: 10 })
    await server.services.auth.createUser({
      username: 'mesa9',
      displayName: 'Iván Rojas',
      role: 'floor_manager',
      password: PASSWORD,
      halls: [other.hallId],
    })
    const login = await api(server.url, 'POST', '/api/auth/login', { username: 'mesa9', password: PASSWORD })
    const them = { authorization: `Bearer ${login.body.token}`, 'accept-language': 'es' }
    const shiftId = (await h.call('cajera@caja1', 'GET', '/api/shifts/current')).body.shift.shiftId as string
    const own = await h.call('jefa', 'GET', `/api/shifts/${shiftId}`)
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect(own.body.hallId).toBe(h.setup.hallId)
    for (const path of [`/api/shifts/${shiftId}`, `/api/shifts/${shiftId}/report.pdf`]) {
      const r = await api(server.url, 'GET', path, undefined, them)
      expect(r.status, path).toBe(403)
      expect(r.body.error.code).toBe('WRONG_HALL')
      expect(JSON.stringify(r.body)).not.toContain(String(own.body.floatCents))
    }
    // The use case decides it from the shift itself, not only the route's guard (a caller other than HTTP).
    const scope = () => ({ halls: [other.hallId], deviceHall: null })
    const actor = () => ({ kind: 'person', id: 'u', name: 'Iván Rojas', role: 'floor_manager' })
    await expect(runAs(actor, () => server.services.cashdesk.shifts.report(shiftId), scope)).rejects.toMatchObject({
      code: 'WRONG_HALL',
    })
  })
})
