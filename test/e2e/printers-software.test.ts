import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill, type Till } from '../helpers/till.ts'
import {
  PASSWORD,
  hallWithSeries,
  openSession,
  registerBallSets,
  registerExtractor,
  secondPerson,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 26, audit rows GEN-4 / BNG-9 (a ticket printer with no type approval, no authorisation of the in-hall issuing
 * system) and RNG-3 / RNG-24 / RNG-29 / RNG-32 points 4-5 (no certificate of the pot award, draw or derived software;
 * no software version hash in the draw logs). Over HTTP, authentication on, enrolled devices and real credentials.
 */
const es = { 'accept-language': 'es' }
const en = { 'accept-language': 'en' }

describe('the ticket printer of every device that sells (GEN-4, GEN-7, BNG-9)', () => {
  let s: RulesServer
  let hallId: string
  let gameId: string
  let counter: Till
  let table: Till
  let kiosk: { id: string; credential: string }
  let terminal: { id: string; credential: string }
  /** The kiosk's vouchers, sold at the counter before its printer is taken away. */
  const vouchers: Array<{ code: string }> = []
  const cardsSold = async () => (await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold as number

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    const h = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'printers-bo' })
    hallId = h.hallId
    const terms = await s.call('jefa', 'PUT', `/api/halls/${hallId}/terminal-terms`, {
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
    const sessionId = await openSession(s, hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [h.seriesId],
    })
    gameId = g.body.gameId
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    table = await s.till(hallId)
    kiosk = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    terminal = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 1', hallId })
    for (let i = 0; i < 3; i++) vouchers.push(await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers))
    // The terminal's session is opened while its printer is still the operator's sealed one.
    const voucher = await sellVoucher(s.server.url, hallId, 5_000, {}, counter.headers)
    const opened = await api(
      s.server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      { ...es, authorization: `Device ${terminal.credential}` },
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
  })
  afterAll(async () => s?.server.cleanup())

  const channels = () => ({
    counter: { device: counter.station, buy: () => buyAt(counter.headers) },
    table: { device: table.station, buy: () => buyAt(table.headers) },
    kiosk: {
      device: { ...kiosk, name: 'Kiosco 1' },
      buy: async () => {
        const voucher = vouchers[0]
        const r = await api(
          s.server.url,
          'POST',
          '/api/kiosk/purchases',
          { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
          { ...es, authorization: `Device ${kiosk.credential}` },
        )
        if (r.status === 201) vouchers.shift()
        const check = await s.call('jefa', 'POST', '/api/vouchers/check', { code: voucher.code })
        return { ...r, voucherStatus: check.body.status ?? check.body.voucher?.status }
      },
    },
    terminal: {
      device: { ...terminal, name: 'Terminal 1' },
      buy: () =>
        api(
          s.server.url,
          'POST',
          '/api/terminal/cards',
          { count: 2 },
          { ...es, authorization: `Device ${terminal.credential}` },
        ),
    },
  })
  const buyAt = (headers: Record<string, string>) =>
    api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, headers)

  it('a sale at the counter, the table, a kiosk or a terminal whose own printer has no AJ seal is refused, nothing sold; sealed, it sells', async () => {
    // Only whoever registers devices records a printer: not a cashier.
    const byCashier = await api(
      s.server.url,
      'POST',
      '/api/devices',
      { id: 'IMP-X', kind: 'printer', name: 'x', hallId, servesDeviceId: counter.station.id, sealCode: 'AJ-X' },
      counter.headers,
    )
    expect(byCashier.status).toBe(403)
    // Each device gets a printer of its own in the registry, without its seal: the operator's sealed shared printer
    // (startTestServer's) does not stand in for the one the device prints on.
    for (const [name, c] of Object.entries(channels())) {
      const r = await s.call('jefa', 'POST', '/api/devices', {
        id: `IMP-${name}`,
        kind: 'printer',
        name: `Impresora ${name}`,
        hallId,
        model: 'TM-T20',
        servesDeviceId: c.device.id,
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body).toMatchObject({ servesDeviceId: c.device.id, sealCode: null })
    }
    for (const [name, c] of Object.entries(channels())) {
      const before = await cardsSold()
      const r = (await c.buy()) as { status: number; body: any; voucherStatus?: string }
      expect([name, r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([name, 422, 'PRINTER_MARKS_MISSING'])
      expect(r.body.error.details).toMatchObject({ printerId: `IMP-${name}`, missing: ['seal-code'], rule: 'GEN-7' })
      expect(r.body.error.message).toBe(
        `El equipo «${c.device.name}» no puede vender ni pagar: a su impresora le falta el código de precinto de seguridad (AJ). Pida al director que lo registre en la ficha de la impresora.`,
      )
      expect(await cardsSold()).toBe(before)
      if (name === 'kiosk') expect(r.voucherStatus).toBe('active')
    }
    const inEnglish = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 1 },
      { ...counter.headers, ...en },
    )
    expect(inEnglish.body.error.message).toBe(
      'Device "Caja 1" cannot sell or pay: its printer lacks the security seal code. Ask the director to record it on the printer.',
    )
    // The director records each printer's seal: every channel sells.
    for (const [name, c] of Object.entries(channels())) {
      const p = await s.call('jefa', 'PATCH', `/api/devices/IMP-${name}`, { sealCode: `AJ-IMP-${name}` })
      expect(p.status, JSON.stringify(p.body)).toBe(200)
      const before = await cardsSold()
      const r = await c.buy()
      expect([name, r.status], JSON.stringify(r.body)).toEqual([name, 201])
      expect(await cardsSold()).toBe(before + 2)
    }
  })

  it('a suspended printer stops its device; a printer cannot be given to a device of another hall', async () => {
    const sus = await s.call('jefa', 'POST', '/api/devices/IMP-kiosk/status', { status: 'suspended', reason: 'atasco' })
    expect(sus.status, JSON.stringify(sus.body)).toBe(200)
    const r = await channels().kiosk.buy()
    expect([r.status, r.body.error?.code]).toEqual([422, 'PRINTER_MARKS_MISSING'])
    expect(r.body.error.message).toBe('El equipo «Kiosco 1» no puede vender ni pagar: su impresora está suspendida.')
    const other = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Oruro', seed: 'printers-oruro' })
    const wrong = await s.call('jefa', 'POST', '/api/devices', {
      id: 'IMP-ORURO',
      kind: 'printer',
      name: 'Impresora Oruro',
      hallId: other.hallId,
      sealCode: 'AJ-IMP-ORURO',
      servesDeviceId: kiosk.id,
    })
    expect([wrong.status, wrong.body.error?.code]).toEqual([403, 'WRONG_HALL'])
  })

  it('a Cantabrian kiosk prints only on a type-approved printer of an issuing system the Consejería authorised (BNG-9)', async () => {
    const cb = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Altamira', seed: 'printers-cb' })
    const sessionId = await openSession(s, cb.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [cb.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
    const cbKiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Altamira',
      hallId: cb.hallId,
    })
    const cbTill = await s.till(cb.hallId)
    const r = await s.call('jefa', 'POST', '/api/devices', {
      id: 'IMP-ALTAMIRA',
      kind: 'printer',
      name: 'Impresora Altamira',
      hallId: cb.hallId,
      typeApprovalNo: 'JCB-HOM-IMP-4',
      servesDeviceId: cbKiosk.id,
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const buy = async () => {
      const voucher = await sellVoucher(s.server.url, cb.hallId, 1_000, {}, cbTill.headers)
      return api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: g.body.gameId, count: 1 } },
        { ...es, authorization: `Device ${cbKiosk.credential}` },
      )
    }
    const refused = await buy()
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'PRINTER_MARKS_MISSING',
    ])
    expect(refused.body.error.details).toMatchObject({ missing: ['issuing-authorisation'], rule: 'BNG-9' })
    expect(refused.body.error.message).toBe(
      'El equipo «Kiosco Altamira» no puede vender ni pagar: a su impresora le falta la autorización de la Consejería del sistema de emisión en sala. Pida al director que lo registre en la ficha de la impresora.',
    )
    const p = await s.call('jefa', 'PATCH', '/api/devices/IMP-ALTAMIRA', {
      issuingAuthorisation: 'Res. Consejería 14/2026 (emisión en sala)',
    })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    const ok = await buy()
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it("the director's device list names each selling device's printer and what it lacks, as its sale judges it", async () => {
    // A second kiosk in the Cantabrian hall, with no printer of its own: it prints on the operator's shared one.
    const halls = (await s.call('jefa', 'GET', '/api/halls')).body.halls as Array<{ id: string; name: string }>
    const altamira = halls.find((h) => h.name === 'Sala Altamira')!.id
    await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Altamira 2',
      hallId: altamira,
    })
    const list = await s.call('jefa', 'GET', '/api/auth/devices')
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    type Listed = {
      name: string
      printer: { name: string; own: boolean; shared: string | null; sealCode: string | null; status: string } | null
      printerMissing: string[]
      printerMarksRequired: Record<string, boolean> | null
    }
    const of = (name: string) => (list.body.devices as Listed[]).find((d) => d.name === name)!
    // Suspended in the test above: the list says so, with the very words the kiosk's refused sale carries.
    expect(of('Kiosco 1')).toMatchObject({
      printer: { name: 'Impresora kiosk', own: true, shared: null, sealCode: 'AJ-IMP-kiosk', status: 'suspended' },
      printerMissing: ['printer-not-active'],
      printerMarksRequired: { sealCode: true, typeApproval: false, issuingAuthorisation: false },
    })
    const refused = await channels().kiosk.buy()
    expect(refused.body.error?.details?.missing).toEqual(of('Kiosco 1').printerMissing)
    expect(of('Terminal 1')).toMatchObject({ printer: { name: 'Impresora terminal', own: true }, printerMissing: [] })
    expect(of('Kiosco Altamira')).toMatchObject({
      printer: { name: 'Impresora Altamira', own: true },
      printerMissing: [],
      printerMarksRequired: { sealCode: false, typeApproval: true, issuingAuthorisation: true },
    })
    expect(of('Kiosco Altamira 2')).toMatchObject({
      printer: { name: 'Impresora de tickets (pruebas)', own: false, shared: 'operator' },
      printerMissing: [],
    })
    // Only whoever registers devices reads the list.
    expect((await api(s.server.url, 'GET', '/api/auth/devices', undefined, counter.headers)).status).toBe(403)
  })
})

describe('the certified software of draws, pots and derived bingo (RNG-3, RNG-24, RNG-29, RNG-32)', () => {
  let s: RulesServer
  let running: Record<string, { version: string; buildSha256: string }>
  const records = async () =>
    (await s.call('auditor', 'GET', '/api/software')).body.records as Array<{
      id: string
      component: string
      jurisdiction: string
      buildSha256: string
      status: string
    }>
  /** Withdraws every active record of `component` for `jurisdiction` (the test server's ones included). */
  const withdrawAll = async (component: string, jurisdiction: string) => {
    for (const r of await records())
      if (r.component === component && r.jurisdiction === jurisdiction && r.status === 'active') {
        const w = await s.call('jefa', 'POST', `/api/software/${r.id}/withdraw`, { reason: 'certificado caducado' })
        expect(w.status, JSON.stringify(w.body)).toBe(200)
      }
  }
  const certify = (component: string, jurisdiction: string, buildSha256: string, certificateRef: string) =>
    s.call('jefa', 'POST', '/api/software', {
      component,
      jurisdiction,
      version: running[component].version,
      buildSha256,
      certificateRef,
      laboratory: 'GLI Europe',
    })
  /** A Bolivian hall with its session open (one game at a time per session: each test plays its own halls). */
  const freshHall = async (name: string) => {
    const h = await hallWithSeries(s, { profileId: 'BO-2025', name, seed: `software-${name}` })
    const sessionId = await openSession(s, h.hallId)
    return {
      ...h,
      announce: (body: Record<string, unknown>, extra: Record<string, string> = {}) =>
        s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [h.seriesId], ...body }, extra),
    }
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    const list = (await s.call('auditor', 'GET', '/api/software')).body
    running = Object.fromEntries(
      (list.running as Array<{ component: string; version: string; buildSha256: string }>).map((b) => [b.component, b]),
    )
  })
  afterAll(async () => s?.server.cleanup())

  it('an RNG game is announced only under a certificate of the running draw engine for the hall’s jurisdiction', async () => {
    // Nobody but whoever registers devices records or withdraws a certificate.
    expect((await s.call('cajera', 'POST', '/api/software', {})).status).toBe(403)
    expect((await s.call('mesa1', 'POST', '/api/software/x/withdraw', { reason: 'x' })).status).toBe(403)
    await withdrawAll('draw-engine', 'BO-2025')
    const { announce } = await freshHall('Sala Sucre')
    const refused = await announce({ drawSource: 'rng' })
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'SOFTWARE_NOT_CERTIFIED',
    ])
    expect(refused.body.error.details).toMatchObject({
      component: 'draw-engine',
      jurisdiction: 'BO-2025',
      buildSha256: running['draw-engine'].buildSha256,
    })
    expect(refused.body.error.message).toBe(
      'No se puede: el motor de sorteo por software no tiene un certificado u homologación registrado para la versión que está en marcha en la jurisdicción de esta sala.',
    )
    const inEnglish = await announce({ drawSource: 'rng' }, en)
    expect(inEnglish.body.error.message).toBe(
      "Not allowed: the software draw engine has no certificate or type approval recorded for the running build in this hall's jurisdiction.",
    )
    // A certificate of another build, or of another jurisdiction (the test server's ES-CB-2010 one stands), is no help.
    expect((await certify('draw-engine', 'BO-2025', 'ab'.repeat(32), 'AJ-CC-VIEJO')).status).toBe(201)
    expect((await announce({ drawSource: 'rng' })).body.error?.code).toBe('SOFTWARE_NOT_CERTIFIED')
    // A manual game is drawn by hand: the engine only logs it, and the game names no certificate.
    const manual = await announce({ drawSource: 'manual' })
    expect(manual.status, JSON.stringify(manual.body)).toBe(201)
    expect((await s.call('auditor', 'GET', `/api/games/${manual.body.gameId}`)).body.software).toEqual([
      { component: 'draw-engine', ...pick(running['draw-engine']), certificateRef: null },
    ])
  })

  it('certified, the RNG game is announced, shows its software, and every ball’s log names the version and build hash', async () => {
    const c = await certify('draw-engine', 'BO-2025', running['draw-engine'].buildSha256, 'AJ-CC-2026-0042')
    expect(c.status, JSON.stringify(c.body)).toBe(201)
    const { announce, hallId } = await freshHall('Sala Potosí')
    const g = await announce({ drawSource: 'rng' })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.software).toEqual([
      { component: 'draw-engine', ...pick(running['draw-engine']), certificateRef: 'AJ-CC-2026-0042' },
    ])
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 10 },
      (await s.till(hallId)).headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await s.server.services.bingo.closeSales({ gameId })
    await s.server.services.bingo.drawNext(gameId)
    await s.server.services.bingo.drawNext(gameId)
    const balls = (
      await s.server.services.db.all<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'ball.called' ORDER BY seq",
      )
    )
      .map((r) => JSON.parse(r.payload))
      .filter((p) => p.gameId === gameId)
    expect(balls).toHaveLength(2)
    for (const b of balls) expect(b.software).toEqual(pick(running['draw-engine']))
    // The same build hash is what the game's announcement recorded with its certificate.
    const assigned = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.software_assigned' AND payload LIKE ?",
      [`%${gameId}%`],
    )
    expect(JSON.parse(assigned!.payload).software).toEqual([
      { component: 'draw-engine', ...pick(running['draw-engine']), certificateRef: 'AJ-CC-2026-0042' },
    ])
  })

  it('no game is announced in a hall with a pot in play without the pot award software’s certificate (RNG-3)', async () => {
    await withdrawAll('pot-award', 'BO-2025')
    // No pot in the hall: the pot software is not needed.
    const plain = await (await freshHall('Sala Tarija')).announce({ drawSource: 'manual' })
    expect(plain.status, JSON.stringify(plain.body)).toBe(201)
    const { announce, hallId } = await freshHall('Sala Cobija')
    const potBody = {
      name: 'Pozo de línea',
      kind: 'progressive',
      contributionBp: 300,
      condition: { prize: 'line', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [hallId],
      authorisationRef: 'AJ/DE/RA/0601/2026',
    }
    // No pot is put in play without the certificate, in Spanish.
    const noPot = await s.call('jefa', 'POST', '/api/pots', potBody)
    expect([noPot.status, noPot.body.error?.code], JSON.stringify(noPot.body)).toEqual([422, 'SOFTWARE_NOT_CERTIFIED'])
    expect(noPot.body.error.details).toMatchObject({ component: 'pot-award', rule: 'RNG-3' })
    // Certified, the pot is created; the certificate withdrawn afterwards, the hall's next game is not announced.
    const cert = await certify('pot-award', 'BO-2025', running['pot-award'].buildSha256, 'AJ-CC-POZO-6')
    expect(cert.status, JSON.stringify(cert.body)).toBe(201)
    const pot = await s.call('jefa', 'POST', '/api/pots', potBody)
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    expect(
      (await s.call('jefa', 'POST', `/api/software/${cert.body.id}/withdraw`, { reason: 'revocado' })).status,
    ).toBe(200)
    const refused = await announce({ drawSource: 'manual' })
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'SOFTWARE_NOT_CERTIFIED',
    ])
    expect(refused.body.error.details).toMatchObject({ component: 'pot-award', rule: 'RNG-3' })
    expect(refused.body.error.message).toBe(
      'No se puede: el programa que adjudica los pozos no tiene un certificado u homologación registrado para la versión que está en marcha en la jurisdicción de esta sala.',
    )
    expect((await certify('pot-award', 'BO-2025', running['pot-award'].buildSha256, 'AJ-CC-POZO-7')).status).toBe(201)
    const ok = await announce({ drawSource: 'rng' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect((await s.call('auditor', 'GET', `/api/games/${ok.body.gameId}`)).body.software).toContainEqual({
      component: 'pot-award',
      ...pick(running['pot-award']),
      certificateRef: 'AJ-CC-POZO-7',
    })
  })

  it('a derived bingo game is announced only under the type approval of the derived system (RNG-29)', async () => {
    const cb = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Derivada',
      seed: 'software-derived',
      noBallSets: true,
    })
    const plan = await s.call('jefa', 'PUT', `/api/halls/${cb.hallId}/derived-plan`, {
      authorisationRef: 'Res. Consejería 9/2026',
      version: 'instant',
      ballCount: 48,
      rows: 2,
      perRow: 4,
      prizePercentBp: 7000,
      prizes: [
        { name: 'Fila', combination: 'una fila completa', wins: 'line', shareBp: 1000, fixedCents: 1_000 },
        { name: 'Cartón', combination: 'los 8 números', wins: 'bingo', shareBp: 6000, stakeMultiple: 20 },
      ],
    })
    expect(plan.status, JSON.stringify(plan.body)).toBe(200)
    await registerBallSets(s, cb.hallId, { ballCount: 48 })
    await registerExtractor(s, cb.hallId)
    const opened = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${cb.hallId}/sessions`,
      { recount: { ballsCounted: 48 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      secondPerson('jefa'),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    const set = await s.call('jefa', 'POST', '/api/master-sets/modality', {
      modality: 'derived',
      count: 100,
      seed: 'software-derived-set',
      params: { ballCount: 48, rows: 2, perRow: 4 },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const series = await s.call('jefa', 'POST', `/api/halls/${cb.hallId}/series`, {
      code: 'D',
      masterSetId: set.body.id,
      faceValueCents: 100,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    const announceDerived = () =>
      s.call('mesa1', 'POST', `/api/sessions/${opened.body.id}/games`, {
        seriesIds: [series.body.id],
        drawSource: 'manual',
      })
    await withdrawAll('derived-bingo', 'ES-CB-2010')
    const refused = await announceDerived()
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'SOFTWARE_NOT_CERTIFIED',
    ])
    expect(refused.body.error.details).toMatchObject({
      component: 'derived-bingo',
      jurisdiction: 'ES-CB-2010',
      rule: 'RNG-29',
    })
    expect(refused.body.error.message).toBe(
      'No se puede: el sistema de bingo derivado no tiene un certificado u homologación registrado para la versión que está en marcha en la jurisdicción de esta sala.',
    )
    // The Bolivian certificate of the same build is not the Consejería's type approval.
    expect((await certify('derived-bingo', 'BO-2025', running['derived-bingo'].buildSha256, 'AJ-X')).status).toBe(201)
    expect((await announceDerived()).body.error?.code).toBe('SOFTWARE_NOT_CERTIFIED')
    expect(
      (await certify('derived-bingo', 'ES-CB-2010', running['derived-bingo'].buildSha256, 'JCB-HOM-SW-3')).status,
    ).toBe(201)
    const ok = await announceDerived()
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect((await s.call('auditor', 'GET', `/api/games/${ok.body.gameId}`)).body.software).toContainEqual({
      component: 'derived-bingo',
      ...pick(running['derived-bingo']),
      certificateRef: 'JCB-HOM-SW-3',
    })
  })
})

const pick = (b: { version: string; buildSha256: string }) => ({ version: b.version, buildSha256: b.buildSha256 })
