import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { everyChannelHall, type EveryChannelHall } from '../helpers/every-channel-hall.ts'
import { api } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'

/**
 * Issue 26, GEN-1 (002 §1: the games "podrán ser desarrollados y explotados únicamente por Operadores de Juegos que
 * cuenten con Licencia de Operaciones emitida por la AJ"), over real HTTP with authentication on, real people and
 * enrolled devices. The audit's scenario: a Bolivian hall created with only its Plan de Apuestas (here with its
 * AJ-approved bet limits too) sells cards with no operating-licence reference on record. Now it sells no card in any
 * channel (counter, table, kiosk, hall terminal, a simultaneous game's hall range) until the director records the
 * licence; each refusal is a 409 OPERATING_LICENCE_REQUIRED telling the director what to do, with nothing sold,
 * taken or spent.
 */
describe('a Bolivian hall sells only once its AJ operating licence is on record (GEN-1)', () => {
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
  const refusedForLicence = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('OPERATING_LICENCE_REQUIRED')
    expect(r.body.error.message, what).toMatch(
      /^La sala no vende cartones: no tiene registrada la referencia de su Licencia/,
    )
    expect(r.body.error.message, what).toMatch(/El director de la sala debe registrar la licencia/)
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    w = await everyChannelHall(s, { seed: 'aj-licence', missing: { noLicence: true } })
    ;({ hall, gameId, counter, member, simultaneousId } = w)
  })
  afterAll(async () => s?.server.cleanup())

  it('the hall has a Plan de Apuestas and AJ-approved limits, and no licence on record', async () => {
    const rules = await s.call('auditor', 'GET', `/api/halls/${hall.hallId}/rules`)
    expect(rules.status, JSON.stringify(rules.body)).toBe(200)
    expect(rules.body.licence).toBeNull()
    expect(rules.body.bets.authorisationRef).toBe('AJ-RA-PRUEBA-LIMITES-1')
  })

  it('refuses every channel with OPERATING_LICENCE_REQUIRED, and nothing is sold, taken or spent', async () => {
    const before = { cards: await cardsSold(gameId), sim: await cardsSold(simultaneousId), cash: await cashTaken() }
    const ch = channels()
    refusedForLicence(await ch.counter(), 'counter')
    refusedForLicence(await ch.table(), 'table')
    const k = await ch.kiosk()
    refusedForLicence(k, 'kiosk')
    expect(k.voucherStatus).toBe('active')
    refusedForLicence(await ch.terminal(), 'terminal')
    refusedForLicence(await ch.simultaneous(), 'simultaneous')
    expect({ cards: await cardsSold(gameId), sim: await cardsSold(simultaneousId), cash: await cashTaken() }).toEqual(
      before,
    )
    const en = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 2 },
      { ...counter.headers, 'accept-language': 'en' },
    )
    expect(en.body.error.message).toMatch(/^The hall sells no cards: it has no reference of its AJ Operating Licence/)
  })

  it('no one but the director records the licence: a floor manager, a cashier or a caller is refused', async () => {
    const terms = { authorisationRef: 'AJ/DE/LO/0042/2026', minimumBasis: 'cards', playingPositions: 200 }
    for (const who of ['mesa1', 'cajera', 'locutor'] as const) {
      const r = await s.call(who, 'PUT', `/api/halls/${hall.hallId}/licence`, terms)
      expect(r.status, who).toBe(403)
    }
    // A reference of blanks is no reference.
    const blank = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/licence`, { ...terms, authorisationRef: '  ' })
    expect(blank.status).toBe(400)
    refusedForLicence(await channels().counter(), 'counter after refused records')
  })

  it("once the director records the licence with the AJ's reference, every channel sells", async () => {
    const terms = { authorisationRef: 'AJ/DE/LO/0042/2026', minimumBasis: 'cards', playingPositions: 200 }
    for (const hallId of [hall.hallId, member.hallId]) {
      const r = await s.call('jefa', 'PUT', `/api/halls/${hallId}/licence`, terms)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.licence.authorisationRef).toBe('AJ/DE/LO/0042/2026')
    }
    for (const [name, sale] of Object.entries(channels())) {
      const r = await sale()
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(201)
    }
    expect(await cardsSold(gameId)).toBe(8)
    expect(await cardsSold(simultaneousId)).toBe(2)
  })

  it('a hall created with its licence (or, in Cantabria, the Consejería authorisation, GEN-3) sells from the start', async () => {
    for (const profileId of ['BO-2025', 'ES-CB-2010'] as const) {
      const h = await hallWithSeries(s, { profileId, name: `Sala ${profileId}`, seed: `aj-licence-${profileId}` })
      const sessionId = await openSession(s, h.hallId)
      const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
        seriesIds: [h.seriesId],
        ...(profileId === 'ES-CB-2010' ? { drawSource: 'manual' } : {}),
      })
      expect(g.status, JSON.stringify(g.body)).toBe(201)
      expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
      const r = await api(
        s.server.url,
        'POST',
        `/api/games/${g.body.gameId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(h.hallId)).headers,
      )
      expect(r.status, `${profileId}: ${JSON.stringify(r.body)}`).toBe(201)
    }
  })
})
