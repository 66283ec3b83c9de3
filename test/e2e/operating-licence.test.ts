import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealed } from '../helpers/device-marks.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

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
  const refusedForLicence = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('OPERATING_LICENCE_REQUIRED')
    expect(r.body.error.message, what).toMatch(
      /^La sala no vende cartones: no tiene registrada la referencia de su Licencia/,
    )
    expect(r.body.error.message, what).toMatch(/El director de la sala debe registrar la licencia/)
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
      seed: 'aj-licence',
      noLicence: true,
    })
    const sessionId = await openSession(s, hall.hallId)
    // Electronic bingo runs under the AJ's terms (BNG-101): recorded, so that only the licence is missing.
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

    // A simultaneous game (BNG-100) of two more Bolivian halls without the licence: the member hall sells from its range.
    const c = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Central',
      seed: 'aj-licence-sim',
      noLicence: true,
    })
    central = { hallId: c.hallId, seriesId: c.seriesId }
    const m = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala El Alto',
      seed: 'aj-licence-member',
      noLicence: true,
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

  it('a hall created with its licence sells from the start; a Cantabrian hall needs none (GEN-3 is apart)', async () => {
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
