import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { playToTheEnd, sellVoucher, winningCodes } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 26 (GEN-7, GEN-4, BNG-31, RNG-33, RNG-34). The audit's scenarios: "Kiosks, cashier stations and displays work
 * without an AJ seal code"; "a kiosk, printer or display in a Cantabrian hall is enrolled and sells with no
 * type-approval number"; "no validation log carries the terminal's seal code (§8)". Over real HTTP, authentication on,
 * enrolled devices and real credentials.
 */
describe('the seal code and type approval of enrolled devices (GEN-7, GEN-4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const es = { 'accept-language': 'es' }
  const en = { 'accept-language': 'en' }
  const asDirector = (lang = es) => ({ ...lang, authorization: `Bearer ${hall.directorToken}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const cardsSold = async () => (await server.services.bingo.getGameState(hall.gameId)).cardsSold
  const enrol = (body: Record<string, unknown>, lang = es) =>
    api(server.url, 'POST', '/api/auth/devices', body, asDirector(lang))
  /** A device as migration 0190 left the ones enrolled before it: no seal code, no type approval on record. */
  const asBefore0190 = (deviceId: string) =>
    server.services.db.run('UPDATE device_credentials SET seal_code = NULL, type_approval_no = NULL WHERE id = ?', [
      deviceId,
    ])
  const journal = async (type: string) =>
    (
      await server.services.db.all<{ payload: string }>('SELECT payload FROM journal WHERE type = ? ORDER BY seq', [
        type,
      ])
    ).map((r) => JSON.parse(r.payload) as Record<string, unknown>)
  let cantabria: string

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    cantabria = (
      await server.services.bingo.createHall({
        name: 'Sala Altamira',
        profileId: 'ES-CB-2010',
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
        saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
        playingPositions: 200,
      })
    ).id
  })
  afterAll(async () => server?.cleanup())

  it('refuses to enrol a Bolivian kiosk, station or terminal without its AJ seal code, in Spanish and English (GEN-7)', async () => {
    for (const kind of ['kiosk', 'cashier_station', 'terminal']) {
      const r = await enrol({ kind, name: `Sin precinto ${kind}`, hallId: hall.hallId, typeApprovalNo: 'HOM-1' })
      expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_MARKS_MISSING'])
      expect(r.body.error.details).toMatchObject({ missing: ['seal-code'], rule: 'GEN-7' })
      expect(r.body.error.message).toBe(
        'La normativa de la sala exige el código de precinto de seguridad (AJ) para dar de alta este equipo.',
      )
    }
    const inEnglish = await enrol({ kind: 'kiosk', name: 'No seal', hallId: hall.hallId, sealCode: '  ' }, en)
    expect(inEnglish.body.error.message).toBe("The hall's rules require the security seal code to enrol this device.")
    // Nothing was enrolled by the refusals.
    const names = (await api(server.url, 'GET', '/api/auth/devices', undefined, asDirector())).body.devices.map(
      (d: { name: string }) => d.name,
    )
    expect(names.filter((n: string) => /precinto|No seal/.test(n))).toEqual([])
    // With its seal it is enrolled; the seal is journaled and listed with the device.
    const ok = await enrol({ kind: 'kiosk', name: 'Kiosco precintado', hallId: hall.hallId, sealCode: 'AJ-PC-0001' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const listed = (await api(server.url, 'GET', '/api/auth/devices', undefined, asDirector())).body.devices.find(
      (d: { id: string }) => d.id === ok.body.id,
    )
    expect(listed).toMatchObject({ sealCode: 'AJ-PC-0001', typeApprovalNo: null, missingMarks: [] })
    expect((await journal('device.enrolled')).find((p) => p.deviceId === ok.body.id)).toMatchObject({
      sealCode: 'AJ-PC-0001',
    })
    // The AJ's code identifies one device: a second device with the same seal is refused.
    const twice = await enrol({ kind: 'kiosk', name: 'Kiosco copia', hallId: hall.hallId, sealCode: 'AJ-PC-0001' })
    expect([twice.status, twice.body.error.code]).toEqual([409, 'CONFLICT'])
  })

  it('refuses to enrol any device of a Cantabrian hall without its type-approval number (GEN-4, BNG-31)', async () => {
    for (const kind of ['kiosk', 'cashier_station', 'display', 'terminal']) {
      const r = await enrol({ kind, name: `Sin homologar ${kind}`, hallId: cantabria, sealCode: `S-${kind}` })
      expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_MARKS_MISSING'])
      expect(r.body.error.details).toMatchObject({ missing: ['type-approval'], rule: 'GEN-4' })
      expect(r.body.error.message).toBe(
        'La normativa de la sala exige el número de homologación para dar de alta este equipo.',
      )
    }
    // Cantabria has no AJ seal: a type-approved kiosk is enrolled without one.
    const ok = await enrol({ kind: 'kiosk', name: 'Kiosco Altamira', hallId: cantabria, typeApprovalNo: 'JCB-HOM-77' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('a kiosk enrolled before seal codes sells nothing until the director records its seal (GEN-7)', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    await asBefore0190(hall.kiosk.id)
    const buy = () =>
      api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
        asKiosk(),
      )
    const before = await cardsSold()
    const refused = await buy()
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'DEVICE_MARKS_MISSING',
    ])
    expect(refused.body.error.message).toBe(
      'El equipo «Kiosco 1» no puede vender ni pagar: le falta el código de precinto de seguridad (AJ). Pida al director que lo registre en la ficha del equipo.',
    )
    expect(refused.body.error.details).toMatchObject({ at: 'use', missing: ['seal-code'] })
    expect(await cardsSold()).toBe(before)
    // The voucher keeps its credit.
    const check = await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asCashier())
    expect(check.body.status ?? check.body.voucher?.status).toBe('active')
    // Only a director records the seal, and only a seal: an empty one is refused as at enrolment.
    const path = `/api/auth/devices/${hall.kiosk.id}/marks`
    expect((await api(server.url, 'POST', path, { sealCode: 'AJ-K-1' }, asCashier())).status).toBe(403)
    const empty = await api(server.url, 'POST', path, { sealCode: '' }, asDirector())
    expect([empty.status, empty.body.error?.code]).toEqual([422, 'DEVICE_MARKS_MISSING'])
    const set = await api(server.url, 'POST', path, { sealCode: 'AJ-K-1' }, asDirector())
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect((await journal('device.marks')).at(-1)).toMatchObject({
      deviceId: hall.kiosk.id,
      from: { sealCode: null },
      to: { sealCode: 'AJ-K-1' },
    })
    const bought = await buy()
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    expect(await cardsSold()).toBe(before + 1)
  })

  it('a cashier station without its seal neither sells at the counter nor sells vouchers nor pays a prize (GEN-7)', async () => {
    const card = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { count: 20, ageConfirmed: true },
      asCashier(),
    )
    expect(card.status, JSON.stringify(card.body)).toBe(201)
    await playToTheEnd(server.services, hall.gameId)
    const [winner] = await winningCodes(server.services, hall.gameId)
    const payee = { payeeName: 'Pedro Choque Mamani', payeeDocument: 'CI 7788990' }
    await asBefore0190(hall.station.id)
    const refused = (r: { status: number; body: any }) => {
      expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_MARKS_MISSING'])
      expect(r.body.error.message).toMatch(
        /^El equipo «Caja 1» no puede vender ni pagar: le falta el código de precinto/,
      )
    }
    const pay = () => api(server.url, 'POST', '/api/tickets/pay', { code: winner.code, ...payee }, asCashier())
    refused(await pay())
    refused(
      await api(
        server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 1000, cash: countOf(1000) },
        asCashier(),
      ),
    )
    const next = await server.services.bingo.announceGame({ sessionId: hall.sessionId, seriesIds: [hall.seriesId] })
    await server.services.bingo.openSales(next.gameId)
    refused(
      await api(server.url, 'POST', `/api/games/${next.gameId}/sales`, { count: 1, ageConfirmed: true }, asCashier()),
    )
    expect((await server.services.bingo.getGameState(next.gameId)).cardsSold).toBe(0)
    // Nothing left the drawer: the prize is still unpaid.
    const validated = await api(server.url, 'POST', '/api/tickets/validate', { code: winner.code }, asCashier())
    expect(validated.body.status, JSON.stringify(validated.body)).toBe('winner')
    // Sealed again, the same station pays; the payout's and the validation's records name its seal (§8).
    const set = await api(
      server.url,
      'POST',
      `/api/auth/devices/${hall.station.id}/marks`,
      { sealCode: 'AJ-C-9' },
      asDirector(),
    )
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const paid = await pay()
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const prizePaid = (await journal('prize.paid')).filter((p) => p.payoutId === paid.body.payout.payoutId)
    expect(prizePaid.length).toBeGreaterThan(0)
    for (const p of prizePaid) expect(p).toMatchObject({ stationId: hall.station.id, sealCode: 'AJ-C-9' })
    // The scan made while the station had no seal says so; the one after names the seal recorded since.
    const rescan = await api(server.url, 'POST', '/api/tickets/validate', { code: winner.code }, asCashier())
    expect(rescan.body.status, JSON.stringify(rescan.body)).toBe('paid')
    const scanned = (await journal('ticket.validated')).filter((p) => p.stationId === hall.station.id)
    expect(scanned.slice(-2)).toMatchObject([
      { status: 'winner', sealCode: null, rule: '§8' },
      { status: 'paid', sealCode: 'AJ-C-9', rule: '§8' },
    ])
  })

  it('a terminal without its seal opens no session on a player’s voucher (GEN-7)', async () => {
    const terminal = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 7',
      hallId: hall.hallId,
    })
    await asBefore0190(terminal.id)
    const voucher = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const r = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { voucherCode: voucher.code, ageConfirmed: true },
      { ...es, authorization: `Device ${terminal.credential}` },
    )
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_MARKS_MISSING'])
    expect(r.body.error.message).toMatch(/^El equipo «Terminal 7» no puede vender ni pagar/)
  })
})
