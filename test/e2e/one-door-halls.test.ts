import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, winningCodes, type HallSetup } from '../helpers/cashdesk.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { runAs } from '../../server/src/shared/request-context.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/** The injected clock: a fixed day, ticking with real time (the test passes on any date). */
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2031-05-06T14:00:00.000Z') + (Date.now() - started)) }

/**
 * Issue 23 point 3, over real HTTP with authentication on: authorisation from what a request touches, not from what
 * it sends. A review found that the hall guard and the exclusion check read only bodies labelled JSON while every
 * route parsed its text whatever the label: with `content-type: text/plain` a cashier of one hall cashed out another
 * hall's voucher from her own drawer, sold a voucher in another hall, and sold a self-excluded player a Bs 4,000
 * voucher. Now a body not labelled JSON is refused (415) before anything reads it, and the use cases that move money
 * decide the hall (and the exclusion list, GEN-23 / GEN-27) from the entities they resolve: the voucher's hall, the
 * card's game's hall, the station's or kiosk's enrolment, the voucher's buyer, a slip's player.
 */
const PASSWORD = 'correct horse battery'
const EXCLUDED = 'CI 7654321 LP'

/** "2026-11-24T10:00:00-04:00" for `ms`, in La Paz time (the plan's own offset). */
const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`

describe('one door for hall and exclusion checks (issue 23 point 3)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let north: HallSetup
  let south: HallSetup
  let tillNorth: Till
  let tillSouth: Till
  let kioskNorth: { id: string; credential: string }
  let drawId = ''
  const tokens = new Map<string, string>()

  const headersOf = (who: string): Record<string, string> => {
    if (who === 'caja-norte') return tillNorth.headers
    if (who === 'caja-sur') return tillSouth.headers
    if (who === 'kiosco-norte') return { authorization: `Device ${kioskNorth.credential}`, 'accept-language': 'es' }
    return { authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' }
  }
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, headersOf(who))
  /** The attack of the review: the same JSON text, labelled as something else (or not labelled at all). */
  async function sendAs(
    who: string,
    path: string,
    body: unknown,
    contentType: string | null,
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { ...headersOf(who) }
    if (contentType !== null) headers['content-type'] = contentType
    const res = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  const n = async (sql: string, args: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, args))?.n ?? 0)
  /** What the shift's drawer should hold beyond its float: the sum of its movements. */
  const drawer = (till: Till) =>
    n('SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE shift_id = ?', [till.shiftId])
  const statusOf = async (voucherId: string) =>
    (await server.services.db.get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [voucherId]))?.status
  const journaled = (type: string) => n('SELECT COUNT(*) AS n FROM journal WHERE type = ?', [type])
  async function sellAt(who: 'caja-norte' | 'caja-sur', hallId: string, amountCents: number, buyerDocument?: string) {
    const r = await call(who, 'POST', '/api/vouchers', {
      hallId,
      amountCents,
      cash: countOf(amountCents),
      ...(buyerDocument ? { buyerDocument } : {}),
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.voucher as { id: string; code: string; shortCode: string; hallId: string; amountCents: number }
  }
  const expectRefused = (r: { status: number; body: any }, status: number, code: string) =>
    expect([r.status, r.body?.error?.code], JSON.stringify(r.body)).toEqual([status, code])

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, lotto, players } = server.services
    north = await hallWithGameOnSale(server.services, { name: 'Sala Norte', cards: 300 })
    south = await hallWithGameOnSale(server.services, { name: 'Sala Sur', cards: 300 })
    const people = [
      ['cajera-norte', 'Rosa Vargas', 'cashier', [north.hallId]],
      ['cajera-sur', 'Ana Choque', 'cashier', [south.hallId]],
      ['jefa', 'Marta Quispe', 'director', '*'],
    ] as const
    for (const [username, displayName, role, halls] of people)
      await auth.createUser({ username, displayName, role, password: PASSWORD, halls })
    tokens.set('jefa', (await auth.login('jefa', PASSWORD)).token)
    // Each cashier works at an enrolled station of her own hall, her shift open with a counted float (issue 13 point 5).
    tillNorth = await openTill(server.url, server.services, {
      hallId: north.hallId,
      username: 'cajera-norte',
      password: PASSWORD,
      stationName: 'Caja Norte',
      floatCents: 500_000,
    })
    tillSouth = await openTill(server.url, server.services, {
      hallId: south.hallId,
      username: 'cajera-sur',
      password: PASSWORD,
      stationName: 'Caja Sur',
      floatCents: 500_000,
    })
    kioskNorth = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco Norte', hallId: north.hallId })
    const now = clock.now().getTime()
    drawId = (
      await lotto.createDraw(
        plan649({
          gameCode: 'LOTONORTE',
          salesStartAt: laPaz(now - 86_400_000),
          salesCloseAt: laPaz(now + 5 * 86_400_000),
          drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
          claimDeadline: laPaz(now + 70 * 86_400_000),
        }),
      )
    ).drawId
    // GEN-27: a player on the exclusion list, in every hall.
    await players.exclude(
      { document: EXCLUDED, name: 'Jugador Autoexcluido', kind: 'self_excluded', reason: 'autoexclusión voluntaria' },
      'oficial',
    )
  })
  afterAll(async () => server?.cleanup())

  it("cash-out: another hall's voucher is refused from a text/plain body (415) and from any JSON (WRONG_HALL); nothing leaves the drawer; its own hall's cashier pays it", async () => {
    const voucher = await sellAt('caja-sur', south.hallId, 2000)
    const before = { north: await drawer(tillNorth), journal: await journaled('voucher.cashed_out') }
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', null]) {
      const r = await sendAs('caja-norte', '/api/vouchers/cashout', { code: voucher.code }, type)
      expectRefused(r, 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(r.body.error.message).toBe('Los datos se envían en formato JSON (Content-Type: application/json).')
    }
    // JSON: a misleading hallId beside the code, or the code with a leading space (which the guard once read as no
    // code at all, while the use case trims it).
    expectRefused(
      await sendAs(
        'caja-norte',
        '/api/vouchers/cashout',
        { code: voucher.code, hallId: north.hallId },
        'application/json',
      ),
      403,
      'WRONG_HALL',
    )
    expectRefused(
      await call('caja-norte', 'POST', '/api/vouchers/cashout', { code: ` ${voucher.code}` }),
      403,
      'WRONG_HALL',
    )
    expect(await statusOf(voucher.id)).toBe('active')
    expect(await drawer(tillNorth)).toBe(before.north)
    expect(await journaled('voucher.cashed_out')).toBe(before.journal)
    // Its own hall's cashier, at her station: paid out of her drawer.
    const southBefore = await drawer(tillSouth)
    const ok = await call('caja-sur', 'POST', '/api/vouchers/cashout', { code: voucher.code })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body).toMatchObject({ paidCents: 2000, voucher: { status: 'spent', spentFor: 'cashout' } })
    expect(await drawer(tillSouth)).toBe(southBefore - 2000)
  })

  it('an empty body is no body whatever its label (the schema answers), and malformed JSON is a 400 that writes nothing', async () => {
    const before = {
      movements: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'),
    }
    const res = await fetch(`${server.url}/api/vouchers/cashout`, {
      method: 'POST',
      headers: { ...headersOf('caja-norte'), 'content-type': 'text/plain' },
      body: '',
    })
    const empty = { status: res.status, body: await res.json() }
    expectRefused(empty, 400, 'VALIDATION_FAILED')
    expect(empty.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['code'])
    const bad = await fetch(`${server.url}/api/vouchers`, {
      method: 'POST',
      headers: { ...headersOf('caja-norte'), 'content-type': 'application/json' },
      body: `{"hallId": "${north.hallId}", "amountCents": 100`,
    })
    expectRefused({ status: bad.status, body: await bad.json() }, 400, 'VALIDATION_FAILED')
    expect({
      movements: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'),
    }).toEqual(before)
  })

  it("voucher sale: selling in another hall is refused from text/plain (415) and from JSON naming that hall (WRONG_HALL); a sale in the station's hall works", async () => {
    const sale = { hallId: south.hallId, amountCents: 400_000, cash: countOf(400_000) }
    const before = {
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers WHERE hall_id = ?', [south.hallId]),
      north: await drawer(tillNorth),
    }
    expectRefused(await sendAs('caja-norte', '/api/vouchers', sale, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE')
    expectRefused(await call('caja-norte', 'POST', '/api/vouchers', sale), 403, 'WRONG_HALL')
    expect(await n('SELECT COUNT(*) AS n FROM vouchers WHERE hall_id = ?', [south.hallId])).toBe(before.vouchers)
    expect(await drawer(tillNorth)).toBe(before.north)
    const ok = await sellAt('caja-norte', north.hallId, 1500)
    expect(ok).toMatchObject({ hallId: north.hallId, amountCents: 1500 })
    expect(await drawer(tillNorth)).toBe(before.north + 1500)
  })

  it("an excluded player's Bs 4,000 voucher: refused from text/plain (415) and from JSON (PLAYER_EXCLUDED, GEN-23 / GEN-27); nothing sold", async () => {
    const sale = {
      hallId: north.hallId,
      amountCents: 400_000,
      cash: countOf(400_000),
      buyerDocument: EXCLUDED,
    }
    const before = { vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'), north: await drawer(tillNorth) }
    expectRefused(await sendAs('caja-norte', '/api/vouchers', sale, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE')
    const json = await call('caja-norte', 'POST', '/api/vouchers', { ...sale, buyerDocument: 'ci 7.654.321-lp' })
    expectRefused(json, 403, 'PLAYER_EXCLUDED')
    expect(json.body.error.message).toMatch(/^Esta persona está excluida del juego/)
    expect(await n('SELECT COUNT(*) AS n FROM vouchers')).toBe(before.vouchers)
    expect(await drawer(tillNorth)).toBe(before.north)
  })

  it("card refund: another hall's voided card is refused from text/plain (415), from JSON at a station or kiosk of this hall (WRONG_HALL); its hall refunds it once", async () => {
    const { bingo } = server.services
    await bingo.sell({ gameId: south.gameId, count: 2, channel: 'counter' })
    await bingo.declareIncident({
      gameId: south.gameId,
      kind: 'device-failure-before-first-ball',
      note: 'el bombo no arranca',
    })
    await bingo.declareIncident({ gameId: south.gameId, kind: 'unresolved-suspension', note: 'sin técnico' })
    expect((await bingo.getGameState(south.gameId)).status).toBe('void')
    const card = (await server.services.db.get<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? ORDER BY serial LIMIT 1',
      [south.gameId],
    ))!
    const code = server.services.cashdesk.payouts.cardCode(card.id)
    const before = {
      refunds: await n('SELECT COUNT(*) AS n FROM refunds'),
      north: await drawer(tillNorth),
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'),
    }
    expectRefused(
      await sendAs('caja-norte', '/api/refunds/cards', { code, to: 'cash' }, 'text/plain'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    expectRefused(
      await sendAs('caja-norte', '/api/refunds/cards', { code, to: 'cash', hallId: north.hallId }, 'application/json'),
      403,
      'WRONG_HALL',
    )
    expectRefused(
      await call('caja-norte', 'POST', '/api/refunds/cards', { code: ` ${code}`, to: 'cash' }),
      403,
      'WRONG_HALL',
    )
    expectRefused(
      await call('kiosco-norte', 'POST', '/api/refunds/cards', { code: ` ${code}`, to: 'voucher' }),
      403,
      'WRONG_HALL',
    )
    expect(await n('SELECT COUNT(*) AS n FROM refunds')).toBe(before.refunds)
    expect(await n('SELECT COUNT(*) AS n FROM vouchers')).toBe(before.vouchers)
    expect(await drawer(tillNorth)).toBe(before.north)
    const southBefore = await drawer(tillSouth)
    const ok = await call('caja-sur', 'POST', '/api/refunds/cards', { code, to: 'cash' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(ok.body).toMatchObject({ method: 'cash', amountCents: 500, hallId: south.hallId })
    expect(await drawer(tillSouth)).toBe(southBefore - 500)
  })

  it("kiosk purchase: another hall's voucher is refused from text/plain (415) and by the use case from JSON the guard cannot read (short code, a kiosk named in the body); its own hall's voucher buys", async () => {
    const voucher = await sellAt('caja-sur', south.hallId, 3000)
    const cardsBefore = await n('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [north.gameId])
    const basket = { cards: { gameId: north.gameId, count: 1 }, ageConfirmed: true }
    expectRefused(
      await sendAs('kiosco-norte', '/api/kiosk/purchases', { voucherCode: voucher.code, ...basket }, 'text/plain'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    // A short code names no hall the permission gate can see: the purchase itself compares the voucher and the kiosk.
    const short = await call('kiosco-norte', 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.shortCode,
      ...basket,
    })
    expectRefused(short, 403, 'WRONG_HALL')
    expect(short.body.error.details).toMatchObject({ resource: 'voucher', hallId: south.hallId })
    // A director of every hall, at no station, naming this hall's kiosk in the body: the kiosk is of another hall.
    const named = await call('jefa', 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.shortCode,
      kioskId: kioskNorth.id,
      ...basket,
    })
    expectRefused(named, 403, 'WRONG_HALL')
    expect(named.body.error.details).toMatchObject({
      resource: 'voucher',
      hallId: south.hallId,
      stationHall: north.hallId,
    })
    expect(await statusOf(voucher.id)).toBe('active')
    expect(await n('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [north.gameId])).toBe(cardsBefore)
    // The hall's own voucher, at its kiosk.
    const own = await sellAt('caja-norte', north.hallId, 1000)
    const ok = await call('kiosco-norte', 'POST', '/api/kiosk/purchases', { voucherCode: own.shortCode, ...basket })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(ok.body).toMatchObject({ count: 1, amountCents: 500, change: { amountCents: 500 } })
  })

  it('kiosk purchase: a lotto slip naming an excluded player, or a voucher whose buyer was excluded since, is refused by the purchase itself (PLAYER_EXCLUDED); nothing sold, the voucher keeps its credit', async () => {
    const voucher = await sellAt('caja-norte', north.hallId, 2000)
    const slips = () => n('SELECT COUNT(*) AS n FROM lotto_slips')
    const before = await slips()
    const slip = { drawId, quickPicks: 1, player: { name: 'Jugador Autoexcluido', document: EXCLUDED } }
    expectRefused(
      await sendAs(
        'kiosco-norte',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, slips: [slip], ageConfirmed: true },
        'text/plain',
      ),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    // The document sits inside `slips`, where the permission gate's check never looked.
    const json = await call('kiosco-norte', 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      slips: [slip],
      ageConfirmed: true,
    })
    expectRefused(json, 403, 'PLAYER_EXCLUDED')
    expect(await slips()).toBe(before)
    expect(await statusOf(voucher.id)).toBe('active')
    // The same voucher buys a slip for a player who is not excluded.
    const ok = await call('kiosco-norte', 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      slips: [{ ...slip, player: { name: 'Rosa Condori', document: 'CI 4812377 LP' } }],
      ageConfirmed: true,
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(await slips()).toBe(before + 1)
    // A voucher sold to a buyer who excludes herself afterwards buys nothing more (GEN-27), nor does its change.
    const named = await sellAt('caja-norte', north.hallId, 2000, 'CI 5550001 LP')
    await server.services.players.exclude(
      { document: 'CI 5550001 LP', name: 'Compradora', kind: 'self_excluded', reason: 'autoexclusión' },
      'oficial',
    )
    expectRefused(
      await call('kiosco-norte', 'POST', '/api/kiosk/purchases', {
        voucherCode: named.code,
        cards: { gameId: north.gameId, count: 1 },
        ageConfirmed: true,
      }),
      403,
      'PLAYER_EXCLUDED',
    )
    expect(await statusOf(named.id)).toBe('active')
  })

  it("the use cases refuse on their own, without the HTTP guards: the station's hall and the acting person's halls decide", async () => {
    const { cashdesk, paidSales } = server.services
    const voucher = await sellAt('caja-sur', south.hallId, 1200)
    const codeOf = (f: Promise<unknown>) =>
      f.then(
        () => 'OK',
        (e) => e.code,
      )
    const northStation = { stationId: tillNorth.station.id, cashierId: 'u', shiftId: tillNorth.shiftId }
    // The station's enrolment: a drawer of the north hall pays or sells nothing of the south hall.
    expect(await codeOf(cashdesk.vouchers.cashOut({ code: voucher.code, ...northStation }))).toBe('WRONG_HALL')
    expect(
      await codeOf(
        cashdesk.vouchers.sell({
          hallId: south.hallId,
          amountCents: 100,
          cash: countOf(100),
          ...northStation,
        }),
      ),
    ).toBe('WRONG_HALL')
    expect(
      await codeOf(
        paidSales.kioskPurchase({
          voucherCode: voucher.code,
          kioskId: kioskNorth.id,
          ageConfirmed: true,
          cards: { gameId: north.gameId, count: 1 },
        }),
      ),
    ).toBe('WRONG_HALL')
    const card = (await server.services.db.get<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? AND id NOT IN (SELECT ticket_id FROM refunds) LIMIT 1',
      [south.gameId],
    ))!
    expect(
      await codeOf(
        cashdesk.refunds.refundCard({
          code: cashdesk.payouts.cardCode(card.id),
          to: 'cash',
          till: northStation,
          actor: { kind: 'person', id: 'u', name: 'u', role: 'cashier' },
        }),
      ),
    ).toBe('WRONG_HALL')
    // The acting principal (the request's, never a body's): a person of the north hall only, wherever the money moves.
    const asNorth = <T>(f: () => Promise<T>) =>
      runAs(
        () => ({ kind: 'person', id: 'u', name: 'Rosa Vargas', role: 'cashier' }),
        f,
        () => ({ halls: [north.hallId], deviceHall: null }),
      )
    expect(
      await codeOf(
        asNorth(() => cashdesk.vouchers.cashOut({ code: voucher.code, stationId: 'no-enrolada', cashierId: 'u' })),
      ),
    ).toBe('WRONG_HALL')
    expect(
      await codeOf(
        asNorth(() =>
          cashdesk.vouchers.sell({
            hallId: south.hallId,
            amountCents: 100,
            cash: countOf(100),
            stationId: 'no-enrolada',
            cashierId: 'u',
          }),
        ),
      ),
    ).toBe('WRONG_HALL')
    // GEN-23: the sale asks the exclusion list about the buyer it records, whatever the request looked like.
    expect(
      await codeOf(
        cashdesk.vouchers.sell({
          hallId: north.hallId,
          amountCents: 100,
          cash: countOf(100),
          buyerDocument: EXCLUDED,
          ...northStation,
        }),
      ),
    ).toBe('PLAYER_EXCLUDED')
    expect(await statusOf(voucher.id)).toBe('active')
    expect(await n('SELECT COUNT(*) AS n FROM refunds WHERE ticket_id = ?', [card.id])).toBe(0)
  })

  it('a prize card of another hall whose code carries a leading space is refused at the payout (the guard reads the code as the payout does)', async () => {
    const { bingo } = server.services
    const gameId = await nextGameOnSale(server.services, south)
    await bingo.sell({ gameId, count: 40, channel: 'counter' })
    await playToTheEnd(server.services, gameId)
    const [winner] = await winningCodes(server.services, gameId)
    const before = await drawer(tillNorth)
    expectRefused(await call('caja-norte', 'POST', '/api/tickets/pay', { code: ` ${winner.code}` }), 403, 'WRONG_HALL')
    expect(await drawer(tillNorth)).toBe(before)
    expect(await n("SELECT COUNT(*) AS n FROM prizes WHERE card_id = ? AND status = 'paid'", [winner.cardId])).toBe(0)
  })
})
