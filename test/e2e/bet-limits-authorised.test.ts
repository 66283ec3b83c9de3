import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { everyChannelHall, type EveryChannelHall } from '../helpers/every-channel-hall.ts'
import { api } from '../helpers/server.ts'
import { TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import type { Till } from '../helpers/till.ts'

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
  let w: EveryChannelHall
  let hall: EveryChannelHall['hall']
  let gameId = ''
  let counter: Till
  let member: EveryChannelHall['member']
  let simultaneousId = ''
  const cardsSold = (id: string) => w.cardsSold(id)
  const cashTaken = () => w.cashTaken()
  /** Every channel's purchase of two cards of the hall's game (and of the simultaneous game in the member hall). */
  const channels = () => w.channels()
  const refusedForLimits = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('BET_LIMITS_NOT_AUTHORISED')
    expect(r.body.error.message, what).toMatch(/^La sala no vende cartones/)
    expect(r.body.error.message, what).toMatch(/El director de la sala debe registrar esos límites/)
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    w = await everyChannelHall(s, { seed: 'aj-limits', missing: { noSaleRules: true } })
    ;({ hall, gameId, counter, member, simultaneousId } = w)
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
