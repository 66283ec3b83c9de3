import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 13 point 5 in real Chromium, authentication on as shipped: the enrolled cashier station asks its person to
 * log in, the cashier opens her shift with the counted float, sells a voucher out of that drawer, and closes the
 * shift with the counted drawer; the server's shift report names her and the station and balances to the centavo.
 */
const PASSWORD = 'correct horse battery'

browserSuite('the cashier logs in at her station and opens and closes her shift (issue 13 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let credential = ''
  let hallId = ''
  let director = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { auth, bingo } = server.services
    await auth.createUser({ username: 'jefa', displayName: 'Marta Quispe', role: 'director', password: PASSWORD })
    director = (await auth.login('jefa', PASSWORD)).token
    const hall = await bingo.createHall({
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    hallId = hall.id
    // Created as if she had already chosen her own password (a person the director creates does so first at /admin/).
    await auth.createUser({
      username: 'rosa',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [hallId],
    })
    credential = (await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId })).credential
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('asks for the person, opens the shift, and closes it with the drawer counted', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/cashier/?hall=${hallId}&device=${encodeURIComponent(credential)}`)
    await page.getByTestId('shift-login').waitFor()
    expect(await page.getByTestId('cashier-station').textContent()).toBe('Caja 1')
    // Until she logs in, the header says nobody is at the till and offers no free-text name besides the login.
    expect(await page.getByTestId('cashier-name').count()).toBe(0)
    expect(await page.getByTestId('cashier-person').textContent()).toBe('sin sesión iniciada')
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-login.png') })

    // A wrong password is refused in Spanish, and nobody is logged in.
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill('not her password')
    await page.getByTestId('shift-enter').click()
    await expect.poll(async () => (await page.locator('body').textContent()) ?? '').toMatch(/contraseña/i)
    await expect.poll(() => page.getByTestId('shift-login').count()).toBe(1)

    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-bar').waitFor()
    expect(await page.getByTestId('shift-person').textContent()).toContain('Rosa Vargas')
    await page.getByTestId('shift-float').fill('200')
    await page.getByTestId('shift-open').click()
    await page.getByTestId('shift-open-since').waitFor()
    expect(await page.getByTestId('shift-open-since').textContent()).toContain('200')
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-open.png') })

    // The shift is the server's: her person at this station, the counted float, on the token her login got.
    const token = await page.evaluate(() => sessionStorage.getItem('bolillo.cashier.token'))
    const current = await api(server.url, 'GET', '/api/shifts/current', undefined, { authorization: `Bearer ${token}` })
    expect(current.body).toMatchObject({
      station: { name: 'Caja 1' },
      person: { name: 'Rosa Vargas' },
      shift: { status: 'open', floatCents: 20_000 },
    })
    // Issue 29 point 5: "open since" on the hall's clock (La Paz), its zone named, not the browser's (UTC here).
    expect(current.body.station.timeZone).toBe('America/La_Paz')
    const since = formatInZone(current.body.shift.openedAt, 'America/La_Paz', 'time', true)
    expect(since).toMatch(/La Paz, UTC-04:00/)
    expect(await page.getByTestId('shift-open-since').textContent()).toContain(since)
    const shiftId = current.body.shift.shiftId as string

    // With the float counted exactly it closes with no difference.
    await page.getByTestId('shift-counted').fill('200')
    await page.getByTestId('shift-close').click()
    await page.getByTestId('shift-float').waitFor()
    const report = await api(server.url, 'GET', `/api/shifts/${shiftId}`, undefined, {
      authorization: `Bearer ${director}`,
    })
    expect(report.body).toMatchObject({
      status: 'closed',
      floatCents: 20_000,
      countedCents: 20_000,
      differenceCents: 0,
    })
    await page.close()
  })
})
