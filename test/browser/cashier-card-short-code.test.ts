/**
 * Issue 29 point 4 in a real Chromium, authentication on, an enrolled station: a winning card whose QR cannot be read
 * is found and paid at the cashier by the code printed under its QR, read off the printed paper and typed as a person
 * types it (lower case, spaces for the dashes); a code no card has (one letter wrong) is unknown, never a forgery,
 * and pays nothing; the card's serial typed instead tells the cashier to type that printed code. Spanish at
 * 1366x768, English at 1920x1080. The printed code is the card's bearer proof as the QR is (a keyed tag of the card
 * under the server's key), so typing it gives no one more than holding the card does; the serial alone never pays
 * (BNG-71: a winning serial is announced in the hall).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { startTestServer } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'
import {
  cashierClock,
  cashierHall,
  loginAtCashier,
  norm,
  PRINTED_CODE as PRINTED,
  printedCodes,
  RECORD_IDS as IDS,
} from '../helpers/cashier-hall.ts'

const clock = cashierClock()

browserSuite('a card found and paid at the cashier by the code printed under its QR (issue 29 point 4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let till: Till
  /** serial -> the short code printed on that card's paper. */
  const printed = new Map<string, string>()
  let winners: Array<{ serial: string; code: string }> = []

  async function atCashier(viewport: { width: number; height: number }): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await loginAtCashier(page, server.url, { hallId, till })
    return page
  }
  /** What is printed under the QR, typed as a person types it: lower case, spaces for the dashes, then Enter. */
  async function typeCode(page: Page, code: string): Promise<void> {
    await page.getByTestId('cashier-code').click()
    await page.getByTestId('cashier-code').fill('')
    await page.keyboard.type(code.toLowerCase().replace(/-/g, ' '))
    await page.keyboard.press('Enter')
  }
  const statusOf = (page: Page) => page.getByTestId('cashier-status').getAttribute('data-status')
  const paidFor = async (serial: string) =>
    (
      await server.services.db.all<{ n: number }>(
        'SELECT COUNT(*) AS n FROM payouts p JOIN cards c ON c.id = p.card_id WHERE c.serial = ?',
        [serial],
      )
    ).map((r) => Number(r.n))[0]

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web', 'printer', 'server/src/cashdesk'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const hall = await cashierHall(server)
    const { setup, sold } = hall
    ;({ hallId, till } = hall)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    // The papers the file printer wrote: each card's serial, then the code printed under its QR.
    for (const [serial, code] of printedCodes(server)) printed.set(serial, code)
    expect(printed.size).toBe(30)
    await playToTheEnd(server.services, setup.gameId)
    winners = await winningCodes(server.services, setup.gameId)
    expect(winners.length).toBeGreaterThan(0)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'Spanish, 1366x768: the printed code typed finds the winning card and PAGAR pays it once; the serial says to type that code',
    { timeout: 90_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 })
      const card = winners[0]
      const code = printed.get(card.serial)!
      expect(code).toMatch(PRINTED)
      await typeCode(page, code)
      await expect.poll(() => statusOf(page)).toBe('winner')
      expect(norm(await page.locator('body').textContent())).toContain(card.serial)
      expect(norm(await page.getByTestId('cashier-status').textContent())).not.toMatch(/alterado|falso|NO VÁLIDO/)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-short-code-1366x768.png') })
      expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(false)
      await page.getByTestId('cashier-pay').click()
      await expect.poll(() => statusOf(page)).toBe('done')
      expect(norm(await page.getByTestId('cashier-status-title').textContent())).toBe('PAGADO')
      expect(await paidFor(card.serial)).toBe(1)
      // Typed again: YA PAGADO, nothing paid twice.
      await page.getByTestId('cashier-next').click()
      await typeCode(page, code)
      await expect.poll(() => statusOf(page)).toBe('paid')
      expect(norm(await page.getByTestId('cashier-status').textContent())).toContain('Caja 1 · Rosa Vargas')
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      expect(await paidFor(card.serial)).toBe(1)

      // The serial typed instead of the code: not a forgery, not a way to be paid, and says what to type.
      await page.getByTestId('cashier-code').fill('')
      await typeCode(page, card.serial)
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-status-note').textContent()))
        .toContain('teclee el código impreso debajo (empieza por C)')
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      const body = norm(await page.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      expect(screenLeaks(body)).toEqual([])
      await page.close()
    },
  )

  it(
    'English, 1920x1080: a code no card has is unknown, never "forged", and pays nothing; the right one is found',
    { timeout: 90_000 },
    async () => {
      const card = winners.at(-1)!
      const code = printed.get(card.serial)!
      const page = await atCashier({ width: 1920, height: 1080 })
      await page.getByTestId('lang-en').click()
      const wrong = code.slice(0, -1) + (code.endsWith('Z') ? 'Y' : 'Z')
      await typeCode(page, wrong)
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-status').textContent()))
        .toContain('No ticket, card or voucher sold has this code: check what was typed and try again')
      expect(norm(await page.getByTestId('cashier-status').textContent())).not.toMatch(/forged|altered/i)
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-short-code-unknown-1920x1080.png') })
      await page.getByTestId('cashier-code').fill('')
      await typeCode(page, code)
      await expect.poll(() => statusOf(page)).toMatch(/winner|paid/)
      expect(norm(await page.locator('body').textContent())).toContain(card.serial)
      const body = norm(await page.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      expect(screenLeaks(body)).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-short-code-1920x1080.png') })
      await page.close()
    },
  )
})
