import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * GEN-3 (004 Decreto 6/2010 art. 2.1: the catalogue's games "quedan legalizados, si bien sujetos a autorización
 * administrativa previa"; art. 2.2: run "sin la correspondiente autorización" they are prohibited), over real HTTP
 * with authentication on. The audit's scenario: a Cantabrian hall runs ordinary bingo with no Consejería
 * authorisation recorded anywhere. Now the counter and an enrolled kiosk are refused (409 OPERATING_LICENCE_REQUIRED,
 * naming the Consejería's authorisation), nothing sold and the kiosk's voucher untouched, until the director records
 * the authorisation's reference; then both sell.
 */
describe('a Cantabrian hall sells only once the Consejería authorisation is on record (GEN-3)', () => {
  let s: RulesServer
  let hallId = ''
  let gameId = ''
  let counter: Till
  let kiosk = ''
  const es = { 'accept-language': 'es' }
  const counterSale = () =>
    api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, counter.headers)
  const kioskSale = async () => {
    const voucher = await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers)
    const r = await api(
      s.server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
      { ...es, authorization: `Device ${kiosk}` },
    )
    const check = await api(s.server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, counter.headers)
    return { ...r, voucherStatus: check.body.status ?? check.body.voucher?.status }
  }
  const cardsSold = async () => (await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold as number
  const refused = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('OPERATING_LICENCE_REQUIRED')
    expect(r.body.error.message, what).toMatch(/autorización de la Consejería \(Cantabria\)/)
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-24T17:00:00.000Z')
    const hall = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Pereda',
      seed: 'consejeria-authorisation',
      noLicence: true,
    })
    hallId = hall.hallId
    const sessionId = await openSession(s, hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual', // BNG-1: no software draws in Cantabria
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    gameId = g.body.gameId
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    kiosk = (await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId }))
      .credential
  })
  afterAll(async () => s?.server.cleanup())

  it('refuses the counter and the kiosk while no authorisation is on record; nothing sold, the voucher kept', async () => {
    expect((await s.call('auditor', 'GET', `/api/halls/${hallId}/rules`)).body.licence).toBeNull()
    refused(await counterSale(), 'counter')
    const k = await kioskSale()
    refused(k, 'kiosk')
    expect(k.voucherStatus).toBe('active')
    expect(await cardsSold()).toBe(0)
  })

  it('a Cantabrian hall has no minimum to choose: a licence "by positions" is refused', async () => {
    const r = await s.call('jefa', 'PUT', `/api/halls/${hallId}/licence`, {
      authorisationRef: 'Resolución Consejería 2026/118',
      minimumBasis: 'positions',
      playingPositions: 200,
    })
    expect(r.status, JSON.stringify(r.body)).not.toBe(200)
    refused(await counterSale(), 'counter after a refused record')
  })

  it('sells at the counter and the kiosk once the director records the authorisation', async () => {
    const r = await s.call('jefa', 'PUT', `/api/halls/${hallId}/licence`, {
      authorisationRef: 'Resolución Consejería 2026/118',
      minimumBasis: 'cards',
      playingPositions: 200,
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.licence.authorisationRef).toBe('Resolución Consejería 2026/118')
    const c = await counterSale()
    expect(c.status, JSON.stringify(c.body)).toBe(201)
    const k = await kioskSale()
    expect(k.status, JSON.stringify(k.body)).toBe(201)
    expect(await cardsSold()).toBe(4)
  })
})
