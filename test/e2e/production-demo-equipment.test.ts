import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setDeviceMarks } from '../../server/src/access/store.ts'
import { createDeviceRegistry } from '../../server/src/equipment/devices.ts'
import { createSoftwareRegistry, recordDemoSoftware } from '../../server/src/equipment/software.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { TEST_RNG_ID } from '../helpers/device-marks.ts'
import { createBallSetService } from '../../server/src/equipment/ball-sets.ts'

/**
 * Issue 24 point 4 with issue 26's registries: on a server without the demo (production), a certificate, seal code or
 * type approval labelled DEMO (a database that once ran the demo, or a reference typed in) counts as none. The game
 * announcement and the kiosk sale are refused with the codes of a missing one, saying it is the demo's; the API
 * records no DEMO reference there. Decided from the server's configuration: nothing in the request changes it.
 * Authentication on, enrolled devices, real credentials. The demo keeps playing with its labelled records
 * (demo-start.test.ts).
 */
const es = { 'accept-language': 'es' }
const en = { 'accept-language': 'en' }

describe('a production server takes no DEMO certificate, seal or type approval (issue 24 point 4, issue 26)', () => {
  const keyDir = mkdtempSync(join(tmpdir(), 'bolillo-prod-demo-equipment-keys-'))
  let s: RulesServer
  let running: Record<string, { version: string; buildSha256: string }>
  let hallId: string
  let gameId: string
  let counter: Till
  let kiosk: { id: string; credential: string }
  /** What the demo (or someone at a server that ran it) wrote to this database: the registries without the policy. */
  let demoWrote: {
    software: ReturnType<typeof createSoftwareRegistry>
    devices: ReturnType<typeof createDeviceRegistry>
  }

  const freshHall = async (name: string, opts: { noBallSets?: boolean } = {}) => {
    const h = await hallWithSeries(s, { profileId: 'BO-2025', name, seed: `prod-demo-${name}`, ...opts })
    const sessionId = await openSession(s, h.hallId)
    return {
      ...h,
      announce: (body: Record<string, unknown>, extra: Record<string, string> = {}) =>
        s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [h.seriesId], ...body }, extra),
    }
  }
  const kioskBuys = async (voucherCode: string) =>
    api(
      s.server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode, ageConfirmed: true, cards: { gameId, count: 2 } },
      { ...es, authorization: `Device ${kiosk.credential}` },
    )
  const cardsSold = async () => (await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold as number

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z', { production: true, keyDir })
    running = Object.fromEntries(
      (
        (await s.call('auditor', 'GET', '/api/software')).body.running as Array<{
          component: string
          version: string
          buildSha256: string
        }>
      ).map((b) => [b.component, b]),
    )
    const clock = { now: s.now }
    demoWrote = {
      software: createSoftwareRegistry({ db: s.server.services.db, clock, demoReferencesRefused: false }),
      devices: createDeviceRegistry({ db: s.server.services.db, clock, demoReferencesRefused: false }),
    }
    const h = await freshHall('Sala Oruro')
    hallId = h.hallId
    const g = await h.announce({ drawSource: 'manual' })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    gameId = g.body.gameId
    // BNG-34: a production server opens no sale without the hall's registered ball-exit camera (never contacted here).
    const noCamera = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)
    expect([noCamera.status, noCamera.body.error?.details?.rule], JSON.stringify(noCamera.body)).toEqual([
      422,
      'BNG-34',
    ])
    const cam = await s.call('jefa', 'POST', `/api/halls/${hallId}/cameras`, {
      id: 'CAM-ORURO-1',
      name: 'Salida de bolas',
      streamUrl: 'http://127.0.0.1:9/salida',
      sealCode: 'AJ-CAM-ORURO-1',
    })
    expect(cam.status, JSON.stringify(cam.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    kiosk = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
  }, 120_000)
  afterAll(async () => {
    await s?.server.cleanup()
    rmSync(keyDir, { recursive: true, force: true })
  })

  it('an RNG game is not announced under the demo’s draw-engine record; the API records no DEMO certificate (RNG-32)', async () => {
    // The test server's real certificate of the draw engine for BO-2025 withdrawn; the demo's record of the running
    // build, as `npm start` with the demo writes it, is the only active one.
    for (const r of (await s.call('auditor', 'GET', '/api/software')).body.records as Array<{
      id: string
      component: string
      jurisdiction: string
      status: string
    }>)
      if (r.component === 'draw-engine' && r.jurisdiction === 'BO-2025' && r.status === 'active')
        expect((await s.call('jefa', 'POST', `/api/software/${r.id}/withdraw`, { reason: 'caducado' })).status).toBe(
          200,
        )
    await recordDemoSoftware(demoWrote.software, ['BO-2025'])
    const { announce } = await freshHall('Sala Sucre')
    const refused = await announce({ drawSource: 'rng' }, es)
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'SOFTWARE_NOT_CERTIFIED',
    ])
    expect(refused.body.error.details).toMatchObject({
      component: 'draw-engine',
      jurisdiction: 'BO-2025',
      buildSha256: running['draw-engine'].buildSha256,
      demoReference: 'DEMO-SIN-CERTIFICAR-draw-engine',
    })
    expect(refused.body.error.message).toBe(
      'No se puede: el motor de sorteo por software solo tiene registrado el certificado de la demostración («DEMO-SIN-CERTIFICAR-draw-engine»), que en un servidor sin demostración no vale. Registre el certificado real de la versión en marcha.',
    )
    expect((await announce({ drawSource: 'rng' }, en)).body.error.message).toBe(
      'Not allowed: the software draw engine has only the demo\'s certificate recorded ("DEMO-SIN-CERTIFICAR-draw-engine"), which counts for nothing on a server without the demo. Record the real certificate of the running build.',
    )
    // Nor can the director type one in: a DEMO reference, whatever its case or spacing, is refused (400).
    const certify = (certificateRef: string, extra = es) =>
      s.call(
        'jefa',
        'POST',
        '/api/software',
        {
          component: 'draw-engine',
          jurisdiction: 'BO-2025',
          version: running['draw-engine'].version,
          buildSha256: running['draw-engine'].buildSha256,
          certificateRef,
          laboratory: 'GLI Europe',
        },
        extra,
      )
    const typed = await certify('  demo-sin-certificar')
    expect([typed.status, typed.body.error?.code]).toEqual([400, 'DEMO_REFERENCE_REFUSED'])
    expect(typed.body.error.details).toMatchObject({ field: 'certificateRef' })
    expect(typed.body.error.message).toBe(
      'Esa referencia es de la demostración (empieza por DEMO), no un certificado, precinto u homologación real: este servidor no funciona en modo demostración y solo registra los reales.',
    )
    expect((await certify('DEMO-CC-1', en)).body.error.message).toBe(
      'That reference is a demo one (it starts with DEMO), not a real certificate, seal or type approval: this server does not run the demo and records only real ones.',
    )
    expect((await announce({ drawSource: 'rng' })).body.error?.code).toBe('SOFTWARE_NOT_CERTIFIED')
    // The real certificate recorded, the same hall announces its RNG game under it, not under the demo's.
    expect((await certify('AJ-CC-2026-0042')).status).toBe(201)
    const ok = await announce({ drawSource: 'rng' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect((await s.call('auditor', 'GET', `/api/games/${ok.body.gameId}`)).body.software).toEqual([
      expect.objectContaining({ component: 'draw-engine', certificateRef: 'AJ-CC-2026-0042' }),
    ])
  })

  it('a kiosk whose printer carries a DEMO seal sells nothing; the API records no DEMO seal (GEN-7, GEN-4)', async () => {
    const vouchers = [
      await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers),
      await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers),
    ]
    // The kiosk's own printer, written with the demo's labelled marks (as DEMO-IMPRESORA is).
    await demoWrote.devices.register({
      id: 'IMP-KIOSCO-1',
      kind: 'printer',
      name: 'Impresora del kiosco',
      hallId,
      servesDeviceId: kiosk.id,
      sealCode: 'DEMO-PRECINTO-IMPRESORA',
      typeApprovalNo: 'DEMO-HOM-IMPRESORA',
      issuingAuthorisation: 'DEMO-AUT-EMISION-EN-SALA',
    })
    const before = await cardsSold()
    const refused = await kioskBuys(vouchers[0].code)
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'PRINTER_MARKS_MISSING',
    ])
    expect(refused.body.error.details).toMatchObject({
      printerId: 'IMP-KIOSCO-1',
      missing: ['seal-code'],
      demo: ['seal-code'],
      rule: 'GEN-7',
    })
    expect(refused.body.error.message).toBe(
      'El equipo «Kiosco 1» no puede vender ni pagar: a su impresora le falta el código de precinto de seguridad (AJ); la referencia registrada es de la demostración (DEMO) y en un servidor sin demostración no vale. Pida al director que registre la real en la ficha de la impresora.',
    )
    expect(await cardsSold()).toBe(before)
    expect((await s.call('jefa', 'POST', '/api/vouchers/check', { code: vouchers[0].code })).body).toMatchObject({
      status: 'active',
    })
    // Nor is one typed in through the registry, in either language.
    const patched = await s.call('jefa', 'PATCH', '/api/devices/IMP-KIOSCO-1', { sealCode: 'DEMO-PRECINTO-2' })
    expect([patched.status, patched.body.error?.code]).toEqual([400, 'DEMO_REFERENCE_REFUSED'])
    expect(patched.body.error.details).toMatchObject({ field: 'sealCode' })
    const registered = await s.call(
      'jefa',
      'POST',
      '/api/devices',
      { id: 'IMP-X', kind: 'printer', name: 'x', hallId, typeApprovalNo: 'Demo homologación' },
      en,
    )
    expect([registered.status, registered.body.error?.details?.field]).toEqual([400, 'typeApprovalNo'])
    expect(registered.body.error.message).toMatch(/^That reference is a demo one/)
    // The real seal recorded, the kiosk sells (BO-2025 asks the printer's seal code only).
    expect((await s.call('jefa', 'PATCH', '/api/devices/IMP-KIOSCO-1', { sealCode: 'AJ-IMP-0007' })).status).toBe(200)
    const sold = await kioskBuys(vouchers[1].code)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect(await cardsSold()).toBe(before + 2)
  })

  it("a station whose own seal is a DEMO one takes no money; the device's marks take no DEMO reference (GEN-7)", async () => {
    // A seal typed in while the server ran the demo, left on the counter station's record.
    await setDeviceMarks(s.server.services.db, counter.station.id, {
      sealCode: 'DEMO-PRECINTO-1',
      typeApprovalNo: 'HOM-REAL-0001',
    })
    const refused = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 1 },
      { ...counter.headers, ...en },
    )
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'DEVICE_MARKS_MISSING',
    ])
    expect(refused.body.error.details).toMatchObject({ missing: ['seal-code'], demo: ['seal-code'], at: 'use' })
    expect(refused.body.error.message).toBe(
      'Device "Caja 1" cannot sell or pay: it lacks the security seal code; the reference on record is a demo one (DEMO), which counts for nothing on a server without the demo. Ask the director to record the real one on the device.',
    )
    const marks = (sealCode: string) =>
      s.call('jefa', 'POST', `/api/auth/devices/${counter.station.id}/marks`, {
        sealCode,
        typeApprovalNo: 'HOM-REAL-0001',
      })
    const typed = await marks('DEMO-PRECINTO-2')
    expect([typed.status, typed.body.error?.code]).toEqual([400, 'DEMO_REFERENCE_REFUSED'])
    expect((await marks('AJ-PREC-0001')).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 1 },
      counter.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
  })

  it("the demo's RNG (DEMO-RNG) draws no bingo game nor lotto draw; its marks count as none (GEN-6, LNS-8)", async () => {
    // The demo's RNG as `npm start` with the demo writes it; the test server's real one suspended, so it is the only one.
    await demoWrote.devices.register({
      id: 'DEMO-RNG',
      kind: 'rng',
      name: 'Generador de números aleatorios del servidor (demostración)',
      hallId: null,
      sealCode: 'DEMO-PRECINTO-RNG',
      certificateId: 'DEMO-CERT-RNG',
      typeApprovalNo: 'DEMO-HOM-RNG',
    })
    const rngStatus = async (status: 'active' | 'suspended') =>
      expect(
        (await s.call('jefa', 'POST', `/api/devices/${TEST_RNG_ID}/status`, { status, reason: 'inspección' })).status,
      ).toBe(200)
    await rngStatus('suspended')
    const refusedDemoRng = (r: { status: number; body: any }) => {
      expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
      expect(r.body.error.details.refused).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            deviceId: 'DEMO-RNG',
            problems: expect.arrayContaining(['no-seal-code', 'no-certificate']),
            demo: expect.arrayContaining(['no-seal-code', 'no-certificate']),
          }),
        ]),
      )
      expect(r.body.error.message).toBe(
        'El dispositivo de sorteo no puede usarse: su precinto, certificado u homologación registrado es de la demostración (DEMO) y en un servidor sin demostración no vale. Registre el real en la ficha del dispositivo.',
      )
    }
    const { announce } = await freshHall('Sala Tarija')
    refusedDemoRng(await announce({ drawSource: 'rng' }, es))
    const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
    const t = s.now().getTime()
    const plan = plan649({
      gameCode: 'LOTODEMORNG',
      salesStartAt: laPaz(t - 86_400_000),
      salesCloseAt: laPaz(t + 5 * 86_400_000),
      drawAt: laPaz(t + 5 * 86_400_000 + 3600_000),
      claimDeadline: laPaz(t + 70 * 86_400_000),
    })
    refusedDemoRng(await s.call('jefa', 'POST', '/api/lotto/draws', plan, es))
    // The registry's view says what the server refuses: the demo's references listed as missing (the back office's
    // device list reads it).
    const seen = await s.call('jefa', 'GET', '/api/devices/DEMO-RNG')
    expect(seen.body.problems).toEqual(expect.arrayContaining(['no-seal-code', 'no-certificate']))
    const listed = (await s.call('jefa', 'GET', '/api/devices')).body
    const inList = (Array.isArray(listed) ? listed : listed.devices).find((d: { id: string }) => d.id === 'DEMO-RNG')
    expect(inList.problems).toEqual(expect.arrayContaining(['no-seal-code', 'no-certificate']))
    // Nor can a DEMO reference be typed on the RNG's record.
    const patched = await s.call('jefa', 'PATCH', '/api/devices/DEMO-RNG', { certificateId: 'DEMO-CERT-RNG-2' })
    expect([patched.status, patched.body.error?.code]).toEqual([400, 'DEMO_REFERENCE_REFUSED'])
    // The real RNG back in service: both go ahead, drawn by it.
    await rngStatus('active')
    const ok = await announce({ drawSource: 'rng' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const planned = await s.call('jefa', 'POST', '/api/lotto/draws', plan)
    expect(planned.status, JSON.stringify(planned.body)).toBe(201)
  })

  it('a manual game is drawn from no DEMO drum (DEMO-BOMBO) nor DEMO ball set; the API records neither (BNG-26, BNG-30)', async () => {
    const h = await freshHall('Sala Potosí', { noBallSets: true })
    // The demo's ball sets and drum, as its set-up writes them to a hall.
    const demoSets = createBallSetService({
      db: s.server.services.db,
      clock: { now: s.now },
      newId: () => `bs_demo_${Math.random().toString(16).slice(2)}`,
      demoReferencesRefused: false,
    })
    for (const status of ['active', 'reserve'] as const)
      await demoSets.register({
        hallId: h.hallId,
        label: `Demo ${status}`,
        approvalNo: 'DEMO-HOM-1',
        guaranteedGames: 3000,
        status,
      })
    await demoWrote.devices.register({
      id: 'DEMO-BOMBO',
      kind: 'blower',
      name: 'Bombo manual (demostración)',
      hallId: h.hallId,
      sealCode: 'DEMO-PRECINTO-BOMBO',
      certificateId: 'DEMO-CERT-BOMBO',
      typeApprovalNo: 'DEMO-HOM-BOMBO',
    })
    const byDrum = await h.announce({ drawSource: 'manual', deviceId: 'DEMO-BOMBO' }, es)
    expect([byDrum.status, byDrum.body.error?.code], JSON.stringify(byDrum.body)).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
    expect(byDrum.body.error.details).toMatchObject({
      deviceId: 'DEMO-BOMBO',
      demo: expect.arrayContaining(['no-seal-code', 'no-certificate']),
    })
    expect(byDrum.body.error.message).toMatch(/^El dispositivo de sorteo no puede usarse: .* es de la demostración/)
    // A real drum: the DEMO ball set is still no type-approved set.
    const drum = await s.call('jefa', 'POST', '/api/devices', {
      id: 'BOMBO-POTOSI',
      kind: 'blower',
      name: 'Bombo manual',
      hallId: h.hallId,
      sealCode: 'AJ-PRE-BOMBO-POTOSI',
      certificateId: 'CC-BOMBO-POTOSI',
      typeApprovalNo: 'HOM-BOMBO-POTOSI',
    })
    expect(drum.status, JSON.stringify(drum.body)).toBe(201)
    const bySet = await h.announce({ drawSource: 'manual', deviceId: 'BOMBO-POTOSI' }, en)
    expect([bySet.status, bySet.body.error?.code], JSON.stringify(bySet.body)).toEqual([409, 'BALL_SET_REQUIRED'])
    expect(bySet.body.error.details).toMatchObject({ demo: ['approvalNo'], rule: 'BNG-26' })
    expect(bySet.body.error.message).toMatch(/^The active ball set has a demo type-approval number/)
    // Nor is a DEMO approval number typed in for a new set.
    const typed = await s.call('jefa', 'POST', `/api/halls/${h.hallId}/ball-sets`, {
      label: 'Otra',
      approvalNo: 'DEMO-HOM-1',
      guaranteedGames: 3000,
      status: 'reserve',
    })
    expect([typed.status, typed.body.error?.code], JSON.stringify(typed.body)).toEqual([400, 'DEMO_REFERENCE_REFUSED'])
    expect(typed.body.error.details).toMatchObject({ field: 'approvalNo' })
    // Nor a lotto ball set sealed under a DEMO reference (LNS-9); a real seal is recorded.
    const lottoSet = (sealRef: string) =>
      s.call('jefa', 'POST', '/api/lotto/ball-sets', { reference: `LB-${sealRef}`, ballCount: 49, sealRef })
    const demoSeal = await lottoSet('DEMO-PRECINTO-BOLAS')
    expect([demoSeal.status, demoSeal.body.error?.code], JSON.stringify(demoSeal.body)).toEqual([
      400,
      'DEMO_REFERENCE_REFUSED',
    ])
    expect(demoSeal.body.error.details).toMatchObject({ field: 'sealRef', rule: 'LNS-9' })
    expect((await lottoSet('AJ-PRECINTO-BOLAS')).status).toBe(201)
  })
})

describe('the same DEMO records on a server with the demo still play (issue 26)', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
  }, 120_000)
  afterAll(async () => s?.server.cleanup())

  it("announces an RNG game under the demo's draw-engine record and sells at a kiosk whose printer has the demo's seal", async () => {
    for (const r of (await s.call('auditor', 'GET', '/api/software')).body.records as Array<{
      id: string
      component: string
      jurisdiction: string
      status: string
    }>)
      if (r.component === 'draw-engine' && r.jurisdiction === 'BO-2025' && r.status === 'active')
        expect((await s.call('jefa', 'POST', `/api/software/${r.id}/withdraw`, { reason: 'caducado' })).status).toBe(
          200,
        )
    await recordDemoSoftware(s.server.services.equipment.software, ['BO-2025'])
    const h = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Demo', seed: 'demo-control' })
    const sessionId = await openSession(s, h.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'rng',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await s.call('auditor', 'GET', `/api/games/${g.body.gameId}`)).body.software).toEqual([
      expect.objectContaining({ component: 'draw-engine', certificateRef: 'DEMO-SIN-CERTIFICAR-draw-engine' }),
    ])
    expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
    const counter = await openTill(s.server.url, s.server.services, {
      hallId: h.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    const kiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco 1',
      hallId: h.hallId,
    })
    // Through the API: a server with the demo records the demo's labelled seal.
    const printer = await s.call('jefa', 'POST', '/api/devices', {
      id: 'IMP-KIOSCO-1',
      kind: 'printer',
      name: 'Impresora del kiosco',
      hallId: h.hallId,
      servesDeviceId: kiosk.id,
      sealCode: 'DEMO-PRECINTO-IMPRESORA',
    })
    expect(printer.status, JSON.stringify(printer.body)).toBe(201)
    const voucher = await sellVoucher(s.server.url, h.hallId, 1_000, {}, counter.headers)
    const sold = await api(
      s.server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: g.body.gameId, count: 2 } },
      { ...es, authorization: `Device ${kiosk.credential}` },
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
  })

  it("draws an RNG game with the demo's RNG and a manual one from its drum and DEMO ball sets (GEN-6, BNG-26)", async () => {
    const reg = (body: Record<string, unknown>) => s.call('jefa', 'POST', '/api/devices', body)
    const rng = await reg({
      id: 'DEMO-RNG',
      kind: 'rng',
      name: 'RNG (demostración)',
      hallId: null,
      sealCode: 'DEMO-PRECINTO-RNG',
      certificateId: 'DEMO-CERT-RNG',
      typeApprovalNo: 'DEMO-HOM-RNG',
    })
    expect(rng.status, JSON.stringify(rng.body)).toBe(201)
    // With the demo its references are the demo's own, and nothing is missing.
    expect((await s.call('jefa', 'GET', '/api/devices/DEMO-RNG')).body.problems).toEqual([])
    expect(
      (await s.call('jefa', 'POST', `/api/devices/${TEST_RNG_ID}/status`, { status: 'suspended', reason: 'prueba' }))
        .status,
    ).toBe(200)
    const h = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Demo 2',
      seed: 'demo-ctl-2',
      noBallSets: true,
    })
    for (const status of ['active', 'reserve'])
      expect(
        (
          await s.call('jefa', 'POST', `/api/halls/${h.hallId}/ball-sets`, {
            label: `Demo ${status}`,
            approvalNo: 'DEMO-HOM-1',
            guaranteedGames: 3000,
            status,
          })
        ).status,
      ).toBe(201)
    expect(
      (
        await reg({
          id: 'DEMO-BOMBO',
          kind: 'blower',
          name: 'Bombo (demostración)',
          hallId: h.hallId,
          sealCode: 'DEMO-PRECINTO-BOMBO',
          certificateId: 'DEMO-CERT-BOMBO',
          typeApprovalNo: 'DEMO-HOM-BOMBO',
        })
      ).status,
    ).toBe(201)
    const sessionId = await openSession(s, h.hallId)
    const announce = (body: Record<string, unknown>) =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [h.seriesId], ...body })
    const byDrum = await announce({ drawSource: 'manual', deviceId: 'DEMO-BOMBO' })
    expect(byDrum.status, JSON.stringify(byDrum.body)).toBe(201)
    // The RNG game in a hall of its own (one game at a time per session), drawn by DEMO-RNG alone.
    const h2 = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Demo 3', seed: 'demo-ctl-3' })
    const byRng = await s.call('mesa1', 'POST', `/api/sessions/${await openSession(s, h2.hallId)}/games`, {
      seriesIds: [h2.seriesId],
      drawSource: 'rng',
    })
    expect(byRng.status, JSON.stringify(byRng.body)).toBe(201)
    const assigned = await s.server.services.db.get<{ device_id: string }>(
      "SELECT device_id FROM game_devices WHERE game_id = ? AND role = 'rng'",
      [byRng.body.gameId],
    )
    expect(assigned?.device_id).toBe('DEMO-RNG')
  })
})
