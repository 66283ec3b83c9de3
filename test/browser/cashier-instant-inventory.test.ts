/**
 * INS-10 at the cashier screen, in a real Chromium, authentication on, Rosa logged in at the enrolled Caja 1 with her
 * shift open: a winning pre-printed instant ticket's validation code, typed from under the scratch layer, shows the
 * winner and asks for the second code, "Código de inventario (fuera del área de raspado)"; PAGAR stays disabled until
 * it is given. Another ticket's inventory code is refused in Spanish and nothing is paid; the ticket's own, read by
 * the wedge scanner from the QR outside the scratch area, pays it once. Screenshots in test-output/screenshots.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { groupCode } from '../../server/src/instant/codes.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { printedInstant } from '../helpers/cashier.ts'
import { cashierClock, cashierHall, loginAtCashier, norm, RECORD_IDS } from '../helpers/cashier-hall.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'

const clock = cashierClock()

/** A keyboard-wedge scanner: the code as one burst of keydown events, then Enter (see cashier-kinds.test.ts). */
async function wedgeScan(page: Page, code: string) {
  await page.evaluate((text) => {
    const target = document.activeElement ?? document.body
    for (const key of [...text, 'Enter'])
      target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  }, code)
}

browserSuite('INS-10: the cashier asks for the inventory code of an instant ticket before paying it', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let till: Till
  let winner: { serial: string; code: string; tier: number }
  let other: { serial: string }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on' }, { clock })
    ;({ hallId, till } = await cashierHall(server))
    const tickets = await printedInstant(server.services, hallId)
    ;[winner, other] = tickets.filter((t) => t.tier > 0)
    for (const t of [winner, other]) {
      const sold = await api(
        server.url,
        'POST',
        '/api/instant/sales',
        { ageConfirmed: true, code: t.serial, hallId },
        till.headers,
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    }
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'asks for the second code, refuses another ticket’s, and pays with the ticket’s own',
    { timeout: 90_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await loginAtCashier(page, server.url, { hallId, till })
      const payouts = async () =>
        (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift
          .expectedCents as number
      const before = await payouts()

      // The validation code as printed under the scratch layer, typed in.
      await page.getByTestId('cashier-code').fill(groupCode(winner.code))
      await page.getByTestId('cashier-check').click()
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('winner')
      const field = page.getByTestId('cashier-inventory-code')
      await field.waitFor()
      expect(norm(await page.locator('.c-inventory').textContent())).toContain(
        'Código de inventario (fuera del área de raspado)',
      )
      await page.getByTestId('cashier-payee-name').fill('Rosa Condori Mamani')
      await page.getByTestId('cashier-payee-document').fill('4812377 LP')
      expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-instant-inventory-asked.png') })

      // Another ticket's serial: refused in Spanish, no code or English on the screen, nothing paid, still on screen.
      await field.fill(other.serial)
      expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(false)
      await page.getByTestId('cashier-pay').click()
      await page.getByTestId('cashier-error').waitFor()
      expect(await page.getByTestId('cashier-error').getAttribute('data-code')).toBe('INVENTORY_CODE_MISMATCH')
      expect(norm(await page.getByTestId('cashier-error').textContent())).toMatch(
        /^El código de inventario no es de este boleto/,
      )
      const body = norm(await page.locator('body').textContent())
      expect(screenLeaks(body)).toEqual([])
      expect(body.match(RECORD_IDS) ?? []).toEqual([])
      expect(body).not.toContain('INVENTORY_CODE')
      expect(await page.getByTestId('cashier-status').getAttribute('data-status')).toBe('winner')
      expect(await payouts()).toBe(before)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-instant-inventory-mismatch.png') })

      // The QR printed outside the scratch area, read by the wedge scanner: it fills the second code, and pays.
      await field.fill('')
      await page.getByTestId('cashier-payee-name').click()
      await wedgeScan(page, server.services.instant.signCode(winner.serial))
      await expect.poll(() => field.inputValue()).toContain(winner.serial)
      expect(await page.getByTestId('cashier-status').getAttribute('data-status')).toBe('winner')
      await page.getByTestId('cashier-pay').click()
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('done')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-instant-inventory-paid.png') })
      const paid = await server.services.db.all<{ serial: string; amount_cents: number }>(
        'SELECT serial, amount_cents FROM instant_payouts',
      )
      expect(paid.map((p) => p.serial)).toEqual([winner.serial])
      expect(await payouts()).toBe(before - Number(paid[0].amount_cents))
      await page.close()
    },
  )
})
