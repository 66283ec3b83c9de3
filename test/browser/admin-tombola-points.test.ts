import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { zoneOffsetMinutes } from '../../server/src/shared/time-zone.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * PRM-2 in the back office, real Chromium at 1366 x 768, authentication on, a real director: a tómbola by points
 * (004 F.I, "por suma de puntos hasta alcanzar una cifra determinada") planned through the raffle form instead of
 * the API alone: the bases' reference, the hall where the objects are on display, the tiers entered as rows with
 * their sum shown as typed against the approved total, each object's figure. A plan whose tiers do not add up to the
 * total is refused by the server and the refusal said in Spanish; once they do, the plan is listed and the API reads
 * back exactly what was typed. Screenshots: admin-tombola-points-*.png.
 */
const PASSWORD = 'contraseña segura 1'
const START = Date.parse('2026-06-10T10:00:00Z')
const startedAt = Date.now()
const clock = { now: () => new Date(START + (Date.now() - startedAt)) }
const HOUR = 3_600_000
/** The instant a wall time "YYYY-MM-DDTHH:MM" means on `zone`'s clock, as the back office reads its date fields. */
function hallInstantIn(local: string, zone: string): string {
  const wall = Date.parse(`${local}:00Z`)
  const t = wall - zoneOffsetMinutes(wall - zoneOffsetMinutes(wall, zone) * 60_000, zone) * 60_000
  return new Date(t).toISOString()
}

browserSuite('PRM-2: a tómbola by points planned from the back office raffle form (auth on, Chromium)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let token = ''
  let hallId = ''
  const ids: string[] = []

  const call = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: `Bearer ${token}`, 'accept-language': 'es' })

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    const u = await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Elena Ruiz',
      role: 'director',
      password: PASSWORD,
    })
    ids.push(u.id)
    token = (await server.services.auth.login('jefa', PASSWORD)).token
    for (const name of ['Sala Alameda', 'Sala Pereda']) {
      const hall = await call('POST', '/api/halls', {
        name,
        profileId: 'ES-CB-2010',
        // GEN-3: the Consejería's authorisation of the hall's games.
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' },
        playingPositions: 100,
      })
      expect(hall.status, JSON.stringify(hall.body)).toBe(201)
      ids.push(hall.body.id)
      hallId = hall.body.id
    }
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  /** A "YYYY-MM-DDTHH:MM" `hours` from now; the margins between the dates exceed any hall's offset from UTC. */
  const local = (hours: number) => new Date(clock.now().getTime() + hours * HOUR).toISOString().slice(0, 16)
  /** Types values into inputs named `raffle-${key}`; a date is typed day first into its two fields. */
  async function fill(form: Locator, values: Record<string, string>) {
    for (const [k, v] of Object.entries(values)) {
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})$/.exec(v)
      if (!m) {
        await form.locator(`input[name=raffle-${k}]`).fill(v)
        continue
      }
      await form.locator(`input[name=raffle-${k}-date]`).fill(`${m[3]}/${m[2]}/${m[1]}`)
      await form.locator(`input[name=raffle-${k}-time]`).fill(m[4]!)
    }
  }
  async function noLeaks(page: Page) {
    const text = await page.evaluate(() => document.body.innerText)
    expect(screenLeaks(text)).toEqual([])
    expect(text).not.toMatch(/VALIDATION_FAILED|points\.|tiers\[|figures/)
    for (const id of ids) expect(text, `internal id ${id} on screen`).not.toContain(id)
  }
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `admin-tombola-points-${name}.png`), fullPage: true })

  it('records the plan through the form (tiers and objects as rows, the sum live against the total), refuses tiers that miss the total in Spanish, then lists it; the API reads back what was typed', async () => {
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/admin/?lang=es#/draws`)
    await page.fill('input[name=username]', 'jefa')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('nav').waitFor()
    await page.click('[data-testid=tab-raffle]')
    await page.click('[data-testid=new-raffle-plan]')
    const form = page.getByTestId('raffle-plan-form')
    await form.getByTestId('raffle-mode').selectOption('points')
    const points = form.getByTestId('raffle-points')
    await points.waitFor()
    await form.getByTestId('raffle-classification').selectOption('benefica')
    await fill(form, {
      organiser: 'Asociación Cultural Peña Sardinero',
      name: 'Tómbola de San Juan',
      gameCode: 'TOMBSJ',
      drawNumber: '1',
      from: '1',
      to: '40',
      price: '20',
      currency: 'EUR',
      salesStartAt: local(-24),
      salesCloseAt: local(48),
      drawAt: local(50),
      claimDeadline: local(24 * 80),
      drawPlace: 'Plaza de la Peña, Santander',
      paymentPlace: 'Sala Pereda, Santander',
      authority: 'Presidente de la asociación',
      director: 'Director del Sorteo',
      moderator: 'Moderador',
      notary: 'Notaría de Santander',
      prizeName: 'Bicicleta',
      prizeDescription: 'Bicicleta de montaña',
      prizeValue: '100',
      prizeDepositedAt: local(-48),
      prizeDepositPlace: 'Escaparate de la Sala Pereda',
      prizeInvoiceRef: 'FAC-2026-118',
      'points-basesRef': 'Bases de la tómbola de San Juan, art. 6',
      'points-total': '17',
      'tier-1-count': '2',
      'tier-1-points': '5',
      'prize-1-figure': '7',
    })
    await form.getByTestId('raffle-prize-source').selectOption('operator')
    // The hall is chosen by its name; its id is never shown.
    await points.getByTestId('raffle-points-hall').selectOption({ label: 'Sala Pereda' })
    const sum = points.getByTestId('raffle-points-sum')
    expect(await sum.textContent()).toBe('Los tramos suman 10 puntos, y las bases aprueban 17: deben coincidir.')
    await points.getByTestId('raffle-add-tier').click()
    await fill(form, { 'tier-2-count': '6', 'tier-2-points': '1' })
    // Live: 2 x 5 + 6 x 1 = 16 of the 17 typed.
    expect(await sum.textContent()).toBe('Los tramos suman 16 puntos, y las bases aprueban 17: deben coincidir.')
    await form.getByTestId('raffle-add-prize').click()
    await fill(form, {
      'prize-2-name': 'Cesta',
      'prize-2-description': 'Cesta de productos de Cantabria',
      'prize-2-value': '60',
      'prize-2-depositedAt': local(-48),
      'prize-2-depositPlace': 'Escaparate de la Sala Pereda',
      'prize-2-invoiceRef': 'FAC-2026-119',
      'prize-2-figure': '3',
    })
    await form.getByTestId('raffle-prize-2-source').selectOption('sponsor')

    // Refused by the server (PRM-2: the tiers give 16, the bases approve 17), said in Spanish, nothing recorded.
    await form.getByTestId('raffle-plan-submit').click()
    await form.getByTestId('error').waitFor()
    const refused = ((await form.getByTestId('error').textContent()) ?? '').replace(/\s+/g, ' ').trim()
    expect(refused).toBe(
      'Revise: Puntos según las bases (PRM-2). Los tramos deben sumar exactamente los puntos que aprueban las bases, y no dar puntos a más boletos de los emitidos.',
    )
    await noLeaks(page)
    await shot(page, 'refused')
    expect((await call('GET', '/api/lottery/draws?product=raffle')).body.draws).toEqual([])

    await fill(form, { 'points-total': '16' })
    expect(await sum.textContent()).toBe('Los tramos suman 16 de 16 puntos aprobados, en 8 boletos extraídos.')
    await shot(page, 'filled')
    await form.getByTestId('raffle-plan-submit').click()
    await page.getByTestId('draws-table').getByText('Tómbola de San Juan').waitFor()
    const listed = (await call('GET', '/api/lottery/draws?product=raffle')).body.draws as any[]
    expect(listed).toHaveLength(1)
    ids.push(listed[0].drawId)
    const read = await call('GET', `/api/lottery/draws/${listed[0].drawId}`)
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    expect(read.body.plan).toMatchObject({ kind: 'tombola', classification: 'benefica', ticketPriceCents: 2000 })
    expect(read.body.plan.points).toEqual({
      basesRef: 'Bases de la tómbola de San Juan, art. 6',
      hallId,
      totalPoints: 16,
      tiers: [
        { count: 2, points: 5 },
        { count: 6, points: 1 },
      ],
      figures: { R1: 7, R2: 3 },
    })
    expect(read.body.plan.prizes.map((p: any) => [p.code, p.name, p.valueCents, p.source])).toEqual([
      ['R1', 'Bicicleta', 10_000, 'operator'],
      ['R2', 'Cesta', 6_000, 'sponsor'],
    ])
    // Listed with its points: the bases, the hall by its name, the tiers and each object's figure.
    const shown = page.getByTestId('plan-points')
    await shown.waitFor()
    // Polled: the hall's name comes with the list of halls, which may answer after the plan (a loaded CI machine read
    // "—" once, before it had).
    await expect
      .poll(async () => (await shown.locator('p').textContent())?.replace(/\s+/g, ' '), { timeout: 10_000 })
      .toBe(
        'Bases: Bases de la tómbola de San Juan, art. 6. Objetos a la vista en Sala Pereda. 16 puntos aprobados en total.',
      )
    const rows = (await shown.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim())
    expect(rows).toEqual(['1 2 5', '2 6 1', 'Bicicleta 7', 'Cesta 3'])
    // Issue 29: typed on the clock of the tómbola's hall (Madrid), listed on it: the same wall time, the zone named,
    // not moved to the operator profile's La Paz (six hours earlier in June).
    const typed = local(50)
    expect(read.body.timeZone).toBe('Europe/Madrid')
    expect(read.body.plan.drawAt).toBe(hallInstantIn(typed, 'Europe/Madrid'))
    const row = page.getByTestId('draws-table').locator('tr', { hasText: 'Tómbola de San Juan' })
    const [, y, mo, d, hm] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})$/.exec(typed)!
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain(`${d}/${mo}/${y} ${hm} (Madrid, UTC+02:00)`)
    await noLeaks(page)
    await shot(page, 'listed')
    await page.close()
  })
})
