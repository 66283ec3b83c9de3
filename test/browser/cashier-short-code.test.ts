/**
 * Issue 29 point 3 in a real Chromium, authentication on, enrolled stations: a voucher whose QR cannot be read is
 * found and cashed at the cashier by the short code printed under it, typed as a person types it (lower case,
 * spaces), never called a forgery; a short code no voucher has is said to be unknown, not forged. The short code is
 * the voucher's bearer secret made for typing (60 random bits, the kiosk spends it already), so cashing it out by
 * that code gives no one more than holding the paper does.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T22:10:00Z') + (Date.now() - started)) }

browserSuite('a voucher found and cashed by its printed short code (issue 29 point 3)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let credential = ''
  let seller: Till

  async function atCashier(viewport: { width: number; height: number }): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(`${server.url}/cashier/?hall=${hallId}&device=${encodeURIComponent(credential)}`)
    await page.getByTestId('shift-login').waitFor()
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-bar').waitFor()
    if (await page.getByTestId('shift-float').count()) {
      await page.getByTestId('shift-float').fill('500')
      await page.getByTestId('shift-open').click()
      await page.getByTestId('shift-open-since').waitFor()
    }
    return page
  }
  /** Types what is printed under the QR as a person would: lower case, spaces for the dashes. */
  async function typeShortCode(page: Page, shortCode: string): Promise<void> {
    await page.getByTestId('cashier-code').click()
    await page.keyboard.type(shortCode.toLowerCase().replace(/-/g, ' '))
    await page.keyboard.press('Enter')
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, bingo } = server.services
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
    for (const [username, displayName] of [
      ['rosa', 'Rosa Vargas'],
      ['ana', 'Ana Quispe'],
    ])
      await auth.createUser({ username, displayName, role: 'cashier', password: PASSWORD, halls: [hallId] })
    credential = (await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId })).credential
    // The vouchers are sold at the other station, in Ana's shift.
    seller = await openTill(server.url, server.services, {
      hallId,
      username: 'ana',
      password: PASSWORD,
      stationName: 'Caja 2',
      floatCents: 0,
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'Spanish, 1366x768: the short code typed finds the voucher and cashes it out of her drawer',
    { timeout: 90_000 },
    async () => {
      const voucher = await sellVoucher(server.url, hallId, 2_500, {}, seller.headers)
      expect(voucher.shortCode).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/)
      const page = await atCashier({ width: 1366, height: 768 })
      await typeShortCode(page, voucher.shortCode)
      await page.getByTestId('cashier-cashout').waitFor()
      expect(norm(await page.getByTestId('cashier-kind').textContent())).toBe('Vale')
      expect(norm(await page.getByTestId('cashier-status-amount').textContent())).toBe('Bs 25,00')
      expect(norm(await page.locator('body').textContent())).not.toMatch(/alterado|falso|NO VÁLIDO/)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-voucher-short-code-1366x768.png') })
      await page.getByTestId('cashier-cashout').click()
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-status-note').textContent()))
        .toBe('Reembolsado: entregue Bs 25,00')
      // Spent, and the cash left Rosa's drawer at Caja 1 (not the seller's).
      const row = await server.services.db.get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [
        voucher.id,
      ])
      expect(row?.status).toBe('spent')
      const out = await server.services.db.all<{ amount_cents: number; cashier_id: string }>(
        "SELECT amount_cents, cashier_id FROM cash_movements WHERE kind = 'voucher_cashout'",
      )
      expect(out.map((m) => Number(m.amount_cents))).toEqual([-2_500])
      // Typed again: spent, said so, nothing paid twice.
      await page.getByTestId('cashier-code').fill('')
      await typeShortCode(page, voucher.shortCode)
      await expect.poll(async () => norm(await page.getByTestId('cashier-status').textContent())).toMatch(/usado/i)
      expect(norm(await page.getByTestId('cashier-status').textContent())).toContain('Caja 1')
      expect(await page.getByTestId('cashier-cashout').count()).toBe(0)
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])

      // A card's printed serial typed in place of its QR: not a forgery, and not a way to be paid (BNG-71).
      await page.getByTestId('cashier-code').fill('')
      await typeShortCode(page, 'A-00041')
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-status-note').textContent()))
        .toBe(
          'Es la serie del cartón, no su código: el premio se paga contra el cartón entregado intacto (BNG-71). Lea su QR o, si no se lee, teclee el código impreso debajo (empieza por C); la serie sola no basta, la serie ganadora se anuncia en la sala',
        )
      expect(norm(await page.locator('body').textContent())).not.toMatch(/alterado|falso/)
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-serial-1366x768.png') })
      await page.close()
    },
  )

  it(
    'English, 1920x1080: a short code no voucher has is unknown, never "forged"; the right one is found',
    { timeout: 90_000 },
    async () => {
      const voucher = await sellVoucher(server.url, hallId, 1_000, {}, seller.headers)
      const page = await atCashier({ width: 1920, height: 1080 })
      await page.getByTestId('lang-en').click()
      // One letter wrong (still a well-formed short code).
      const wrong = voucher.shortCode.slice(0, -1) + (voucher.shortCode.endsWith('Z') ? 'Y' : 'Z')
      await typeShortCode(page, wrong)
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-status').textContent()))
        .toContain('No ticket, card or voucher sold has this code: check what was typed and try again')
      expect(norm(await page.locator('body').textContent())).not.toMatch(/forged|altered/i)
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-voucher-short-code-unknown-1920x1080.png') })
      await page.getByTestId('cashier-code').fill('')
      await typeShortCode(page, voucher.shortCode)
      await page.getByTestId('cashier-cashout').waitFor()
      expect(norm(await page.getByTestId('cashier-kind').textContent())).toBe('Voucher')
      expect(norm(await page.getByTestId('cashier-cashout').textContent())).toBe('REFUND Bs 10.00 IN CASH')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-voucher-short-code-1920x1080.png') })
      await page.close()
    },
  )

  it(
    'Spanish, 1366x768: a spent voucher put back from an older copy of the file is reported as changed outside the system (GEN-13, issue 24 point 1), in Spanish, with no code on screen',
    { timeout: 90_000 },
    async () => {
      const db = server.services.db
      const voucher = await sellVoucher(server.url, hallId, 1_500, {}, seller.headers)
      // The insider's copy of the row and its seal, taken while the voucher was active.
      const row = (await db.get<Record<string, unknown>>('SELECT * FROM vouchers WHERE id = ?', [voucher.id]))!
      const seal = (await db.get<{ journal_seq: number; mac: string }>(
        "SELECT journal_seq, mac FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?",
        [voucher.id],
      ))!
      const paid = await api(server.url, 'POST', '/api/vouchers/cashout', { code: voucher.code }, seller.headers)
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
      const cols = Object.keys(row).filter((c) => c !== 'id')
      await db.run(`UPDATE vouchers SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
        ...cols.map((c) => row[c]),
        voucher.id,
      ])
      await db.run("UPDATE row_seals SET journal_seq = ?, mac = ? WHERE tbl = 'vouchers' AND row_id = ?", [
        seal.journal_seq,
        seal.mac,
        voucher.id,
      ])
      const page = await atCashier({ width: 1366, height: 768 })
      await typeShortCode(page, voucher.shortCode)
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-error').textContent()))
        .toBe(
          'Los datos de este valor no coinciden con su sello: fueron cambiados fuera del sistema. No se paga ni se gasta; avise al inspector (queda anotado en el diario).',
        )
      expect(await page.getByTestId('cashier-cashout').count()).toBe(0)
      const text = norm(await page.locator('body').textContent())
      expect(text).not.toMatch(/ROW_TAMPERED|Bs 15,00/)
      expect(screenLeaks(text)).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-voucher-put-back-1366x768.png') })
      await page.close()
    },
  )
})
