/**
 * Issue 17 point 3 in a real Chromium: the demo's `/` is a launcher, Spanish first, naming each screen and who it
 * is for; its links open the kiosk, the lotto and instant screens and the cashier as the demo's enrolled devices
 * (authentication on, as the demo runs), each showing something on sale instead of "nothing on sale".
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedDemoHall } from '../../server/src/demo.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { startTestServer } from '../helpers/server.ts'

browserSuite('launcher at / (issue 17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser

  beforeAll(async () => {
    ensureBuilt(['kiosk', 'cashier', 'lotto', 'instant', 'display', 'caller'], ['kiosk/src', 'display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on', seedDemo: true })
    await seedDemoHall(server.services)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('names every screen and whom it is for, in Spanish, with an English version', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(server.url + '/')
    expect(await page.getAttribute('html', 'lang')).toBe('es')
    await expect.poll(() => page.getByTestId('launch-kiosk').textContent()).toContain('Jugadores')
    expect(await page.getByTestId('launch-cashier').textContent()).toContain('Cajeros')
    expect(await page.getByTestId('launch-caller').textContent()).toContain('Locutor y jefe de mesa')
    expect(await page.getByTestId('launch-display').textContent()).toContain('El público de la sala')
    expect(await page.getByTestId('launch-hall').textContent()).toMatch(/La Paz, UTC-04:00/)
    expect(await page.getByTestId('launch-demo').textContent()).toContain('bolillo-demo')
    await page.screenshot({ path: join(SCREENSHOTS, 'launcher-1920x1080.png'), fullPage: true })
    await page.getByText('English').click()
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en')
    expect(await page.getByTestId('launch-cashier').textContent()).toContain('Cashiers')
    await page.close()
  })

  it("opens the kiosk, lotto, instant and cashier screens as the demo's enrolled devices, each with something on sale", async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    const page = await context.newPage()
    await page.goto(server.url + '/')
    await page.getByTestId('launch-kiosk').click()
    await page.getByTestId('kiosk-home').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('kiosk-game-no').textContent()).toMatch(/\d/)

    await page.goto(server.url + '/')
    // Lotto slips and scratch tickets are sections of the one kiosk (issue 13 point 1).
    await page.getByTestId('launch-lotto').click()
    await page.getByTestId('lotto-grid').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('kiosk-home').getAttribute('data-section')).toBe('slips')
    expect(await page.getByTestId('lotto-no-draw').count()).toBe(0)

    await page.goto(server.url + '/')
    await page.getByTestId('launch-instant').click()
    await page.getByTestId('instant-home').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('kiosk-home').getAttribute('data-section')).toBe('instant')
    expect(await page.getByTestId('instant-none').count()).toBe(0)
    await page.getByTestId('instant-count-plus').click()
    await page.getByTestId('basket-instant').waitFor()

    await page.goto(server.url + '/')
    await page.getByTestId('launch-cashier').click()
    await page.getByTestId('cashier-station').waitFor({ timeout: 15_000 })
    // Enrolled: the station's drawer balance loads (an anonymous screen is refused with auth on).
    await expect.poll(() => page.getByTestId('cashier-balance').textContent()).toMatch(/Bs/)
    await page.screenshot({ path: join(SCREENSHOTS, 'launcher-cashier-enrolled.png') })
    await context.close()
  }, 60_000)
})
