/**
 * Issue 17 points 4 and 6 over real HTTP with authentication on: a lotto draw's receipt, extracto and minutes print
 * every time on the wall clock of the draw's zone (a receipt showed "Sorteo 19:26" beside "Emitido 22:47", UTC),
 * in one language, Spanish, with its accents, no English paragraph and no raw state ids. A hall's time zone is a
 * hall setting (director only) that falls back to its profile's (America/La_Paz, Europe/Madrid). The PDFs are
 * rendered with pdftoppm for a person to look at (test-output/screenshots).
 */
import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTill, type Till } from '../helpers/till.ts'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'

const SHOTS = join(process.cwd(), 'test-output', 'screenshots')
const havePoppler = spawnSync('pdftotext', ['-v']).error === undefined
const PASSWORD = 'clave-de-pruebas-17'

describe('hall time zone and Spanish documents (issue 17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const as: Record<string, Record<string, string>> = {}
  let drawId: string
  let receipt: { receiptNumber: string; soldAt: string }
  let till: Till

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth } = server.services
    for (const [username, role] of [
      ['directora', 'director'],
      ['jefa', 'floor_manager'],
      ['auditora', 'auditor'],
    ] as const) {
      await auth.createUser({ username, displayName: username, role, password: PASSWORD })
      as[username] = { authorization: `Bearer ${(await auth.login(username, PASSWORD)).token}` }
    }
    await server.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await server.services.bingo.createHall({
      id: 'santander',
      name: 'Sala Santander',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    // Issue 13: a counter sells slips for cash into the drawer of a shift open at an enrolled station.
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'jefa',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
    mkdirSync(SHOTS, { recursive: true })
  })
  afterAll(async () => {
    await server?.cleanup()
  })

  it("gives each hall its profile's zone, and lets only the director set another (issue 17 point 4)", async () => {
    expect((await api(server.url, 'GET', '/api/halls/lapaz')).body.hall.timeZone).toBe('America/La_Paz')
    expect((await api(server.url, 'GET', '/api/halls/santander')).body.hall.timeZone).toBe('Europe/Madrid')
    expect(
      (await api(server.url, 'PUT', '/api/halls/lapaz/time-zone', { timeZone: 'America/Santiago' }, as.jefa)).status,
    ).toBe(403)
    const typo = await api(server.url, 'PUT', '/api/halls/lapaz/time-zone', { timeZone: 'America/LaPaz' }, as.directora)
    expect(typo.status).toBe(400)
    expect(typo.body.error.message).not.toMatch(/VALIDATION_FAILED/)
    expect(
      (await api(server.url, 'PUT', '/api/halls/lapaz/time-zone', { timeZone: 'America/Santiago' }, as.directora)).body,
    ).toEqual({ hallId: 'lapaz', timeZone: 'America/Santiago' })
    expect((await api(server.url, 'GET', '/api/halls/lapaz')).body.hall.timeZone).toBe('America/Santiago')
    // null goes back to the profile's zone.
    expect(
      (await api(server.url, 'PUT', '/api/halls/lapaz/time-zone', { timeZone: null }, as.directora)).body.timeZone,
    ).toBe('America/La_Paz')
  })

  it("refuses a lotto plan whose zone is not a zone (LOT-4), and keeps a plan's zone (issue 17 point 4)", async () => {
    const bad = await api(server.url, 'POST', '/api/lotto/draws', plan649({ timeZone: 'Marte/Olympus' }), as.directora)
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.problems.map((p: any) => p.field)).toContain('timeZone')
    const created = await api(
      server.url,
      'POST',
      '/api/lotto/draws',
      plan649({ timeZone: 'America/La_Paz' }),
      as.directora,
    )
    expect(created.status).toBe(201)
    drawId = created.body.drawId
  })

  it("prints the receipt's sale time on the draw's wall clock, beside the draw time on the same clock (issue 17 point 4)", async () => {
    t = Date.parse('2025-03-02T02:47:00Z') // 22:47 on 1 March in La Paz
    await till.relogin()
    const sold = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${drawId}/slips`,
      { ageConfirmed: true, boards: [[3, 11, 19, 27, 38, 45]], player: { name: 'Ana Quispe', document: '4455667 LP' } },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect(sold.body.timeZone).toBe('America/La_Paz')
    receipt = sold.body
    const pdf = await fetch(`${server.url}/api/lotto/slips/${receipt.receiptNumber}/receipt.pdf`, { headers: as.jefa })
    expect(pdf.status, await pdf.clone().text()).toBe(200)
    const file = join(server.dataDir, 'comprobante.pdf')
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
    if (!havePoppler) return
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain('Emitido: 01/03/2025 22:47')
    expect(text).not.toContain('02/03/2025 02:47')
    expect(text).toContain('Fecha del sorteo: 08/03/2025 20:00')
    expect(text).toContain('Horas de La Paz, UTC-04:00.')
    expect(text).toContain('Emisión')
    execFileSync('pdftoppm', ['-r', '110', '-png', '-singlefile', file, join(SHOTS, 'lotto-receipt-la-paz')])
  })

  it("publishes an extracto and minutes in Spanish with accents, on the draw's clock, without English or raw ids (issue 17 point 6)", async () => {
    t = Date.parse('2025-03-08T19:00:00-04:00')
    // A week later on the server's clock: yesterday's sessions have expired, staff log in again.
    for (const u of ['jefa', 'auditora'])
      as[u] = { authorization: `Bearer ${(await server.services.auth.login(u, PASSWORD)).token}` }
    expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/close`, {}, as.jefa)).status).toBe(200)
    expect(
      (
        await api(
          server.url,
          'POST',
          `/api/lotto/draws/${drawId}/incidents`,
          { note: 'Corte de luz de dos minutos antes del sorteo' },
          as.jefa,
        )
      ).status,
    ).toBe(201)
    t = Date.parse('2025-03-08T20:00:00-04:00')
    expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/draw`, undefined, as.jefa)).status).toBe(200)
    expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/settle`, undefined, as.jefa)).status).toBe(200)
    const extracto = await fetch(`${server.url}/api/lotto/draws/${drawId}/extracto.pdf`)
    expect(extracto.status).toBe(200)
    const acta = await fetch(`${server.url}/api/lotto/draws/${drawId}/acta.pdf`, { headers: as.auditora })
    expect(acta.status).toBe(200)
    if (!havePoppler) return
    const read = async (res: Response, name: string) => {
      const file = join(server.dataDir, `${name}.pdf`)
      writeFileSync(file, Buffer.from(await res.arrayBuffer()))
      execFileSync('pdftoppm', ['-r', '80', '-png', '-f', '1', '-l', '1', '-singlefile', file, join(SHOTS, name)])
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    }
    const e = await read(extracto, 'lotto-extracto-la-paz')
    for (const s of [
      'Números ganadores',
      'Premios por categoría',
      'Categoría',
      'Orden de extracción',
      'Recaudación',
      'Emisión',
      'mínimo 60 días',
      'Horas de La Paz, UTC-04:00.',
    ])
      expect(e).toContain(s)
    for (const s of ['Numeros', 'Categoria', 'extraccion', 'Prize pool', 'rounded down', ' UTC)'])
      expect(e).not.toContain(s)
    expect(e).toContain(formatInZone('2025-03-09T00:00:00Z', 'America/La_Paz'))
    const a = await read(acta, 'lotto-acta-la-paz')
    for (const s of [
      'ACTA DEL SORTEO',
      'Autorización AJ',
      'Descripción',
      'Corte de luz',
      'Último registro',
      'Horas de La Paz, UTC-04:00.',
    ])
      expect(a).toContain(s)
    // The incident and the draw happened at 19:00 and 20:00 in La Paz: the minutes say so, not 23:00 and 00:00 UTC.
    expect(a).toContain('08/03/2025 19:00')
    expect(a).toContain('08/03/2025 20:00')
    for (const s of ['Prize pool', 'Descripcion', 'Autorizacion', '23:00 (UTC', '00:00 (UTC'])
      expect(a).not.toContain(s)
  })
})
