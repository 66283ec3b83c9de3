/**
 * Issue 29 point 2 in a real Chromium, authentication on, the enrolled cashier station as shipped: a drawer that
 * does not balance is said in the cashier's language (by how much, over or short, and what to do), the count typed
 * stays, whatever tab is open; closed with the reason, the shift's report is on screen with its PDF.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T23:40:00Z') + (Date.now() - started)) }

browserSuite('the cashier closes her shift when the drawer does not balance (issue 29 point 2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let credential = ''
  let hallId = ''
  let director = ''

  async function loginAndOpen(page: Page, float: string): Promise<void> {
    await page.goto(`${server.url}/cashier/?hall=${hallId}&device=${encodeURIComponent(credential)}`)
    await page.getByTestId('shift-login').waitFor()
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-float').fill(float)
    await page.getByTestId('shift-open').click()
    await page.getByTestId('shift-open-since').waitFor()
  }
  const shiftsOf = async () =>
    (await api(server.url, 'GET', `/api/shifts?hallId=${hallId}`, undefined, { authorization: `Bearer ${director}` }))
      .body.shifts as Array<{ id: string; status: string }>

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, bingo } = server.services
    await auth.createUser({ username: 'jefa', displayName: 'Marta Quispe', role: 'director', password: PASSWORD })
    director = (await auth.login('jefa', PASSWORD)).token
    hallId = (
      await bingo.createHall({
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
    ).id
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

  it(
    'Spanish, 1366x768: Bs 0,35 short is explained on the movements tab, the count stays; with the reason it closes and shows the report and its PDF',
    { timeout: 90_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await loginAndOpen(page, '200')
      // She is on the movements tab when she closes (the tab that used to show nothing).
      await page.getByTestId('tab-day').click()
      await page.getByTestId('shift-counted').fill('199,65')
      await page.getByTestId('shift-close').click()
      await page.getByTestId('shift-error').waitFor()
      expect(norm(await page.getByTestId('shift-error').textContent())).toBe(
        'El arqueo no cuadra: faltan Bs 0,35 respecto de lo que debe haber en la caja. Cuente el efectivo de nuevo; si la diferencia es real, escriba el motivo en «Nota» y pulse CERRAR TURNO otra vez: la diferencia queda en el informe del turno.',
      )
      expect(await page.getByTestId('shift-counted').inputValue()).toBe('199,65')
      expect((await shiftsOf()).map((s) => s.status)).toEqual(['open'])
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-differs-1366x768.png') })
      // The same on the pay tab: the message, never "Los datos enviados no son válidos".
      await page.getByTestId('tab-pay').click()
      await page.getByTestId('shift-close').click()
      await page.getByTestId('shift-error').waitFor()
      expect(norm(await page.locator('body').textContent())).not.toContain('no son válidos')
      expect(norm(await page.getByTestId('shift-error').textContent())).toContain('faltan Bs 0,35')

      // With the reason it closes: the report on screen, the difference recorded to the centavo.
      await page.getByTestId('shift-note').fill('faltan 35 centavos en monedas')
      await page.getByTestId('shift-close').click()
      await page.getByTestId('shift-report').waitFor()
      expect(await page.getByTestId('shift-error').count()).toBe(0)
      expect(norm(await page.getByTestId('shift-report-expected').textContent())).toBe('Bs 200,00')
      expect(norm(await page.getByTestId('shift-report-counted').textContent())).toBe('Bs 199,65')
      expect(norm(await page.getByTestId('shift-report-difference').textContent())).toBe('−Bs 0,35')
      expect(norm(await page.getByTestId('shift-report-note').textContent())).toBe('faltan 35 centavos en monedas')
      expect(norm(await page.getByTestId('shift-report').textContent())).toContain(
        'Turno cerrado · Rosa Vargas · Caja 1',
      )
      // Issue 29 point 5: opened and closed on the hall's clock (La Paz, 23:40 UTC is 19:40 there), its zone named.
      expect(norm(await page.getByTestId('shift-report').textContent())).toMatch(
        /14\/03\/2026 (?:19|20):\d\d \(La Paz, UTC-04:00\)/,
      )
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-report-1366x768.png') })
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('shift-report-pdf').click(),
      ])
      const file = await download.path()
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
      expect(download.suggestedFilename()).toMatch(/^turno-Caja-1-2026-03-1[45]\.pdf$/)
      const [closed] = await shiftsOf()
      const report = (
        await api(server.url, 'GET', `/api/shifts/${closed!.id}`, undefined, { authorization: `Bearer ${director}` })
      ).body
      expect(report).toMatchObject({
        status: 'closed',
        countedCents: 19_965,
        differenceCents: -35,
        note: 'faltan 35 centavos en monedas',
      })
      await page.close()
    },
  )

  it(
    'English, 1920x1080: over by Bs 0.50 says so in English; closed with the reason, the report in English',
    { timeout: 90_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
      await loginAndOpen(page, '100')
      await page.getByTestId('lang-en').click()
      await page.getByTestId('shift-counted').fill('100.50')
      await page.getByTestId('shift-close').click()
      await page.getByTestId('shift-error').waitFor()
      expect(norm(await page.getByTestId('shift-error').textContent())).toBe(
        'The count does not balance: the drawer is over by Bs 0.50. Count the cash again; if the difference is real, write the reason in “Note” and press CLOSE SHIFT again: the difference goes on the shift report.',
      )
      expect(await page.getByTestId('shift-counted').inputValue()).toBe('100.50')
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-differs-1920x1080.png') })
      await page.getByTestId('shift-note').fill('a player left 50 cents')
      await page.getByTestId('shift-close').click()
      await page.getByTestId('shift-report').waitFor()
      expect(norm(await page.getByTestId('shift-report-difference').textContent())).toBe('+Bs 0.50')
      expect(norm(await page.getByTestId('shift-report').textContent())).toContain(
        'Shift closed · Rosa Vargas · Caja 1',
      )
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-shift-report-1920x1080.png') })
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('shift-report-pdf').click(),
      ])
      expect(
        readFileSync(await download.path())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-')
      await page.close()
    },
  )
})
