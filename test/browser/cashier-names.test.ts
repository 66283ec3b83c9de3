/**
 * Issue 29 point 6 in a real Chromium, authentication on, an enrolled station: a card paid at Caja 1 by Rosa Vargas
 * is scanned again (typed as a wedge scanner types it) and YA PAGADO says where and by whom by name; the day's
 * movements name the person who moved the cash and say what it was by serial and receipt number. No internal id
 * (a station's `dev_…`, a person's `u_…`, a payout's `po_…`, a card's `c_…`) is on the screen.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'
import { cashierClock, cashierHall, loginAtCashier, norm, RECORD_IDS as IDS } from '../helpers/cashier-hall.ts'

const clock = cashierClock()

browserSuite('names, not ids, at the cashier (issue 29 point 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let till: Till
  let paidCode = ''

  async function atCashier(viewport: { width: number; height: number }): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await loginAtCashier(page, server.url, { hallId, till })
    return page
  }
  async function scan(page: Page, code: string): Promise<void> {
    await page.getByTestId('cashier-code').click()
    await page.getByTestId('cashier-code').fill('')
    await page.keyboard.type(code)
    await page.keyboard.press('Enter')
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on' }, { clock })
    // Cards sold at her till, the game played, the first winner paid there by her.
    const hall = await cashierHall(server)
    const { setup, sold } = hall
    ;({ hallId, till } = hall)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await playToTheEnd(server.services, setup.gameId)
    const [winner] = await winningCodes(server.services, setup.gameId)
    const paid = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: winner.code, payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' },
      till.headers,
    )
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    paidCode = winner.code
    browser = await launchChromium()
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'Spanish, 1366x768: YA PAGADO names Caja 1 and Rosa Vargas; the movements name her and the serials',
    { timeout: 90_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 })
      await scan(page, paidCode)
      await expect.poll(async () => norm(await page.getByTestId('cashier-status').textContent())).toMatch(/PAGADO/)
      const status = norm(await page.getByTestId('cashier-status').textContent())
      expect(status).toContain('Caja 1 · Rosa Vargas')
      expect(status.match(IDS) ?? []).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-paid-names-1366x768.png') })

      await page.getByTestId('tab-day').click()
      await page.getByTestId('day-table').waitFor()
      const by = (await page.getByTestId('day-by').allTextContents()).map(norm)
      expect(new Set(by)).toEqual(new Set(['Rosa Vargas']))
      // The hall's clock (La Paz, UTC-04:00: the clock starts at 22:10 UTC, 18:10 in the hall), as the shift bar
      // says it, not the browser's (UTC here); the day as people write it, not "2026-03-14".
      expect(norm(await page.getByTestId('day-date').textContent())).toBe('· 14/03/2026')
      for (const time of (await page.getByTestId('day-time').allTextContents()).map(norm))
        expect(time).toMatch(/^18:1\d$/)
      const refs = (await page.getByTestId('day-ref').allTextContents()).map(norm)
      // The sale by its serials (first … last, and how many), the payout by its receipt number.
      expect(refs).toContain('A-00001 … A-00030 (30)')
      expect(refs).toContain('N.º 1')
      const body = norm(await page.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      expect(screenLeaks(body)).toEqual([])
      // The kinds in words, not their codes (counter_sale).
      expect(body.match(/\b[a-z]+_[a-z]+\b/g) ?? []).toEqual([])
      expect(body).toContain('Venta en caja')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-movements-names-1366x768.png'), fullPage: true })
      await page.close()
    },
  )

  it('English, 1920x1080: ALREADY PAID names the station and the person too', { timeout: 90_000 }, async () => {
    const page = await atCashier({ width: 1920, height: 1080 })
    await page.getByTestId('lang-en').click()
    await scan(page, paidCode)
    await expect.poll(async () => norm(await page.getByTestId('cashier-status').textContent())).toMatch(/PAID/)
    const status = norm(await page.getByTestId('cashier-status').textContent())
    expect(status).toContain('Caja 1 · Rosa Vargas')
    expect(norm(await page.locator('body').textContent()).match(IDS) ?? []).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-paid-names-1920x1080.png') })
    await page.close()
  })
})
