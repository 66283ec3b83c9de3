import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealed } from '../helpers/device-marks.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * Issue 26, GEN-18 / BNG-40 (002 §1.2.1.1: the bets are those of the Plan de Apuestas "aprobado por la AJ"; 002 §6.1.5:
 * "con autorización previa de la AJ"), over real HTTP with authentication on, real people and enrolled devices. The
 * audit's scenario: a Bolivian hall sells under the profile's default limits (1 to 50 cards) with no AJ reference on
 * record. Now such a hall sells no card in any channel (the cashier's counter, the caller's table, the kiosk, a hall
 * terminal, a simultaneous game's hall range) until the director records its limits with the AJ's reference; each
 * refusal is a 409 BET_LIMITS_NOT_AUTHORISED whose Spanish message tells the director what to do, and leaves no card
 * sold, no cash taken and the voucher's credit whole.
 */
describe('a Bolivian hall sells only under bet limits recorded with the AJ reference (GEN-18, BNG-40)', () => {
  let s: RulesServer
  let hall: { hallId: string; masterSetId: string; seriesId: string }
  let gameId = ''
  let counter: Till
  let kiosk: { id: string; credential: string }
  let terminal: { id: string; credential: string }
  let central: { hallId: string; seriesId: string }
  let member: { hallId: string; seriesId: string }
  let simultaneousId = ''
  const es = { 'accept-language': 'es' }
  const cardsSold = async (id: string) => (await s.call('auditor', 'GET', `/api/games/${id}`)).body.cardsSold as number
  const cashTaken = async () =>
    Number(
      (
        await s.server.services.db.get<{ n: number }>(
          "SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE kind = 'counter_sale'",
        )
      )?.n ?? 0,
    )
  const refusedForLimits = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('BET_LIMITS_NOT_AUTHORISED')
    expect(r.body.error.message, what).toMatch(/^La sala no vende cartones/)
    expect(r.body.error.message, what).toMatch(/El director de la sala debe registrar esos límites/)
  }

  /** Every channel's purchase of `count` cards of the hall's game (and of the simultaneous game in the member hall). */
  const channels = () => ({
    counter: () =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, counter.headers),
    table: async () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(hall.hallId)).headers,
      ),
    kiosk: async () => {
      const voucher = await sellVoucher(s.server.url, hall.hallId, 1_000, {}, counter.headers)
      const r = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
        { ...es, authorization: `Device ${kiosk.credential}` },
      )
      const check = await api(s.server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, counter.headers)
      return { ...r, voucherStatus: check.body.status ?? check.body.voucher?.status }
    },
    terminal: () =>
      api(
        s.server.url,
        'POST',
        '/api/terminal/cards',
        { count: 2 },
        { ...es, authorization: `Device ${terminal.credential}` },
      ),
    simultaneous: async () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${simultaneousId}/halls/${member.hallId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(member.hallId)).headers,
      ),
  })

  beforeAll(async () => {
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    hall = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Illimani',
      seed: 'aj-limits',
      noSaleRules: true,
    })
    const sessionId = await openSession(s, hall.hallId)
    // Electronic bingo runs under the AJ's terms (BNG-101): recorded, so that only the limits are missing.
    const terms = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, {
      reference: 'AJ-RND-2026-0117 (terminales de bingo)',
      terms: {
        markingMode: 'automatic',
        maxCardCents: 600,
        maxGameCents: 5000,
        maxSessionCents: 10000,
        minGameSeconds: 0,
        prizeReturnBp: { min: 6000, max: 8500 },
        terminalRangePercent: 25,
        onDisconnect: 'play-on-credit',
      },
    })
    expect(terms.status, JSON.stringify(terms.body)).toBe(200)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId] })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    gameId = g.body.gameId
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    counter = await openTill(s.server.url, s.server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    kiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco 1',
      hallId: hall.hallId,
    })
    terminal = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 1',
      hallId: hall.hallId,
    })
    const voucher = await sellVoucher(s.server.url, hall.hallId, 5_000, {}, counter.headers)
    const opened = await api(
      s.server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      { ...es, authorization: `Device ${terminal.credential}` },
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)

    // A simultaneous game (BNG-100) of two more Bolivian halls without limits: the member hall sells from its range.
    const c = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Central',
      seed: 'aj-limits-sim',
      noSaleRules: true,
    })
    central = { hallId: c.hallId, seriesId: c.seriesId }
    const m = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala El Alto',
      seed: 'aj-limits-member',
      noSaleRules: true,
    })
    const mSeries = await s.call('jefa', 'POST', `/api/halls/${m.hallId}/series`, {
      code: 'M',
      masterSetId: c.masterSetId,
      faceValueCents: 500,
    })
    expect(mSeries.status, JSON.stringify(mSeries.body)).toBe(201)
    member = { hallId: m.hallId, seriesId: mSeries.body.id }
    const centralSession = await openSession(s, central.hallId)
    const sg = await s.call('mesa1', 'POST', `/api/sessions/${centralSession}/games`, {
      seriesIds: [central.seriesId],
    })
    expect(sg.status, JSON.stringify(sg.body)).toBe(201)
    simultaneousId = sg.body.gameId
    for (const [hallId, seriesId, from, to] of [
      [central.hallId, central.seriesId, 1, 150],
      [member.hallId, member.seriesId, 151, 300],
    ] as const) {
      const j = await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/halls`, {
        hallId,
        seriesId,
        fromCardNo: from,
        toCardNo: to,
      })
      expect(j.status, JSON.stringify(j.body)).toBe(201)
    }
    expect((await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/sales/open`)).status).toBe(200)
  })
  afterAll(async () => s?.server.cleanup())

  it('posts no authorisation: the profile defaults are shown, with no AJ reference', async () => {
    const info = await api(s.server.url, 'GET', `/api/halls/${hall.hallId}`)
    expect(info.body.bets).toMatchObject({ minCardsPerPurchase: 1, maxCardsPerPurchase: 50, authorisationRef: null })
  })

  it('refuses every channel with BET_LIMITS_NOT_AUTHORISED, and nothing is sold, taken or spent', async () => {
    const before = { cards: await cardsSold(gameId), sim: await cardsSold(simultaneousId), cash: await cashTaken() }
    const ch = channels()
    refusedForLimits(await ch.counter(), 'counter')
    refusedForLimits(await ch.table(), 'table')
    const k = await ch.kiosk()
    refusedForLimits(k, 'kiosk')
    expect(k.voucherStatus).toBe('active')
    refusedForLimits(await ch.terminal(), 'terminal')
    refusedForLimits(await ch.simultaneous(), 'simultaneous')
    expect({ cards: await cardsSold(gameId), sim: await cardsSold(simultaneousId), cash: await cashTaken() }).toEqual(
      before,
    )
    // English second, same refusal.
    const en = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 2 },
      { ...counter.headers, 'accept-language': 'en' },
    )
    expect(en.body.error.message).toMatch(/^The hall sells no cards/)
  })

  it('no one but the director records the limits: a floor manager or a cashier is refused and sales stay closed', async () => {
    for (const who of ['mesa1', 'cajera', 'locutor'] as const) {
      const r = await s.call(who, 'PUT', `/api/halls/${hall.hallId}/sale-rules`, TEST_SALE_RULES)
      expect(r.status, who).toBe(403)
    }
    // A reference of blanks is no reference.
    const blank = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, {
      ...TEST_SALE_RULES,
      authorisationRef: '   ',
    })
    expect(blank.status).toBe(400)
    refusedForLimits(await channels().counter(), 'counter after refused records')
  })

  it("once the director records the limits with the AJ's reference, every channel sells, within them", async () => {
    const rules = { ...TEST_SALE_RULES, authorisationRef: 'AJ/DE/RA/0999/2026', maxCardsPerPurchase: 4 }
    for (const hallId of [hall.hallId, member.hallId]) {
      const r = await s.call('jefa', 'PUT', `/api/halls/${hallId}/sale-rules`, rules)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.bets.authorisationRef).toBe('AJ/DE/RA/0999/2026')
    }
    const ch = channels()
    for (const [name, sale] of Object.entries(ch)) {
      const r = await sale()
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(201)
    }
    expect(await cardsSold(gameId)).toBe(8)
    expect(await cardsSold(simultaneousId)).toBe(2)
    // The recorded limits are the ones enforced: 5 cards are above the AJ's maximum of 4 per purchase.
    const over = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 5 },
      counter.headers,
    )
    expect([over.status, over.body.error.code]).toEqual([422, 'BET_OUT_OF_LIMITS'])
  })

  it("a Cantabrian hall, whose decree sets no bet limits, sells under the profile's limits without a reference", async () => {
    const cb = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Santander', seed: 'aj-limits-cb' })
    const sessionId = await openSession(s, cb.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [cb.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
    const r = await api(
      s.server.url,
      'POST',
      `/api/games/${g.body.gameId}/sales`,
      { ageConfirmed: true, count: 2 },
      (await s.till(cb.hallId)).headers,
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
  })
})
