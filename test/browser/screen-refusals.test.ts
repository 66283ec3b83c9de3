/**
 * Refusals as the player and the cashier see them, in real Chromium with authentication on, an enrolled kiosk and an
 * enrolled cash desk with a cashier logged in (issue 23: one answer at the desk; issue 24 point 1: a voucher whose row
 * was edited behind the journal fails its seal, ROW_TAMPERED). The row is changed from outside the server
 * (test/helpers/tamper.ts), as an insider with the database would.
 *
 * - Kiosk: the tampered voucher, read or spent, is said in large Spanish with English under it (the voucher cannot be
 *   used here, go to the cash desk), never its code, the server's English or an id, and with no promise that it
 *   keeps its balance; the purchase it was to pay is not made.
 * - Cash desk: a refused scan is one state (RECHAZADO, the server's Spanish words, what to do next), never under the
 *   "Esperando un código…" prompt; the prompt returns on SIGUIENTE, and the refusal goes with the next scan.
 *
 * Screenshots in test-output/screenshots/screen-refusals-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import {
  hallWithGameOnSale,
  playToTheEnd,
  sellVoucher,
  startFakePrinter,
  winningCodes,
  type HallSetup,
} from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { tamper } from '../helpers/tamper.ts'
import { openTill, type Till } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-02T10:00:00-04:00') + (Date.now() - started)) }

browserSuite('refusals at the kiosk and the cash desk: words, not codes; one state at a time', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let setup: HallSetup
  let till: Till
  let kiosk = ''
  let desk = ''
  let printer: Awaited<ReturnType<typeof startFakePrinter>>

  /** A Bs 20 voucher sold at the other till, then edited outside the server to Bs 2.500. */
  async function tamperedVoucher() {
    const v = await sellVoucher(server.url, setup.hallId, 2_000, { stationId: till.station.id }, till.headers)
    await tamper(server, 'UPDATE vouchers SET amount_cents = ? WHERE id = ?', [250_000, v.id])
    return v
  }
  /** What the screen shows, checked for codes, ids and the server's English. */
  async function shown(page: Page, ids: string[]): Promise<string> {
    const text = norm(await page.evaluate(() => document.body.innerText))
    expect(screenLeaks(text)).toEqual([])
    expect(text).not.toContain('ROW_TAMPERED')
    expect(text).not.toMatch(/outside the system|does not match its seal|journal record/)
    for (const id of ids) expect(text).not.toContain(id)
    return text
  }

  beforeAll(async () => {
    ensureBuilt(['kiosk', 'cashier'], ['kiosk/src', 'kiosk/kiosk', 'kiosk/cashier', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    // Every station prints on one network printer, which runs out of paper in the last test.
    printer = await startFakePrinter('ok')
    server = await startTestServer({ auth: 'on', printer: printer.url, printerTimeoutMs: 3000 }, { clock })
    const { auth } = server.services
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 500, name: 'Sala Illimani' })
    kiosk = (await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })).credential
    desk = (await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId: setup.hallId }))
      .credential
    for (const [username, displayName] of [
      ['rosa', 'Rosa Vargas'],
      ['ana', 'Ana Quispe'],
    ])
      await auth.createUser({ username, displayName, role: 'cashier', password: PASSWORD, halls: [setup.hallId] })
    // The vouchers are sold at the other till, in Ana's shift.
    till = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'ana',
      password: PASSWORD,
      stationName: 'Caja 2',
    })
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
    await printer?.close()
  })

  /** The cash desk with Rosa logged in and her shift open. */
  async function atDesk(): Promise<Page> {
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/cashier/?hall=${setup.hallId}&device=${encodeURIComponent(desk)}`)
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

  it('kiosk: a tampered voucher, read or spent, sends the player to the cash desk in Spanish, English second (ROW_TAMPERED)', async () => {
    const page = await pageOnClock(browser, clock, { width: 1080, height: 1920 })
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk)}`)
    await page.getByTestId('kiosk-cards').waitFor({ timeout: 15_000 })
    const problem = page.getByTestId('kiosk-problem')

    // Read: refused by the server's seal check, said on the big screen (not a line beside the field).
    const read = await tamperedVoucher()
    await page.getByTestId('kiosk-voucher-code').fill(read.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => problem.getAttribute('data-problem')).toBe('not_usable')
    expect(norm(await page.getByTestId('kiosk-problem-title').textContent())).toBe('Este vale no se puede usar aquí')
    expect(norm(await page.getByTestId('kiosk-problem-body').textContent())).toMatch(/^Lleve el vale a la caja/)
    expect(norm(await page.getByTestId('kiosk-problem-second').textContent())).toMatch(
      /^This voucher cannot be used here\. Take the voucher to the cash desk/,
    )
    // Large: the title is the biggest text on the screen, the English under it smaller.
    const size = (id: string) => page.getByTestId(id).evaluate((e) => Number.parseFloat(getComputedStyle(e).fontSize))
    expect(await size('kiosk-problem-title')).toBeGreaterThanOrEqual(40)
    expect(await size('kiosk-problem-second')).toBeLessThan(await size('kiosk-problem-body'))
    // No promise that the voucher keeps a balance: the desk decides what it is worth.
    expect(await page.getByTestId('kiosk-credit-kept').count()).toBe(0)
    expect(await page.getByTestId('kiosk-retry').count()).toBe(0)
    await shown(page, [read.id, read.code])
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-kiosk-read-1080x1920.png') })

    // Spent: read while sound, edited while the player chooses, refused at the purchase; nothing is sold.
    await page.getByTestId('kiosk-back').click()
    const spent = await sellVoucher(server.url, setup.hallId, 2_000, { stationId: till.station.id }, till.headers)
    await page.getByTestId('kiosk-voucher-code').fill(spent.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await page.getByTestId('kiosk-credit').waitFor()
    await page.getByTestId('kiosk-cards-plus').click()
    await page.getByTestId('kiosk-age-yes').click()
    await tamper(server, 'UPDATE vouchers SET amount_cents = ? WHERE id = ?', [250_000, spent.id])
    await page.getByTestId('kiosk-confirm').click()
    await expect.poll(() => problem.getAttribute('data-problem')).toBe('not_usable')
    expect(norm(await page.getByTestId('kiosk-problem-title').textContent())).toBe('Este vale no se puede usar aquí')
    expect(await page.getByTestId('kiosk-credit-kept').count()).toBe(0)
    await shown(page, [spent.id, spent.code])
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-kiosk-purchase-1080x1920.png') })
    const row = await server.services.db.get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [spent.id])
    expect(row?.status).toBe('active')
    const sold = await server.services.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM sale_payments WHERE payment_ref = ? AND paid_by = 'voucher'",
      [spent.id],
    )
    expect(Number(sold?.n)).toBe(0)

    // Back: the voucher is gone from the screen with the player.
    await page.getByTestId('kiosk-back').click()
    await page.getByTestId('kiosk-voucher-code').waitFor()
    expect(await page.getByTestId('kiosk-credit').count()).toBe(0)
    await page.close()
  }, 120_000)

  it('cash desk: a refused scan is one state, RECHAZADO, never under "Esperando un código…"; SIGUIENTE and the next scan end it', async () => {
    const page = await atDesk()
    const status = page.getByTestId('cashier-status')
    await expect.poll(() => status.getAttribute('data-status')).toBe('idle')
    expect(norm(await status.textContent())).toBe('Esperando un código…')
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-cashier-waiting-1366x768.png') })

    const bad = await tamperedVoucher()
    const scan = async (code: string) => {
      await page.getByTestId('cashier-code').fill(code)
      await page.getByTestId('cashier-check').click()
    }
    await scan(bad.shortCode)
    await expect.poll(() => status.getAttribute('data-status')).toBe('refused')
    expect(norm(await page.getByTestId('cashier-status-title').textContent())).toBe('RECHAZADO')
    expect(norm(await page.getByTestId('cashier-kind').textContent())).toBe('Vale')
    const error = page.getByTestId('cashier-error')
    expect(await error.count()).toBe(1)
    expect(await error.getAttribute('data-code')).toBe('ROW_TAMPERED')
    expect(norm(await error.textContent())).toMatch(/^Los datos de este valor no coinciden con su sello/)
    expect(norm(await page.getByTestId('cashier-status-extra').textContent())).toMatch(/pulse SIGUIENTE/)
    let text = await shown(page, [bad.id, bad.code])
    expect(text).not.toContain('Esperando un código')
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-cashier-refused-1366x768.png') })

    // SIGUIENTE: the refusal goes and the prompt comes back.
    await page.getByTestId('cashier-clear').click()
    await expect.poll(() => status.getAttribute('data-status')).toBe('idle')
    expect(await error.count()).toBe(0)
    expect(norm(await status.textContent())).toBe('Esperando un código…')

    // Refused again, then the next scan: its own answer, with neither the refusal nor the prompt beside it.
    await scan(bad.shortCode)
    await expect.poll(() => status.getAttribute('data-status')).toBe('refused')
    const good = await sellVoucher(server.url, setup.hallId, 1_500, { stationId: till.station.id }, till.headers)
    await scan(good.shortCode)
    await expect.poll(() => status.getAttribute('data-status')).toBe('voucher_active')
    expect(await error.count()).toBe(0)
    text = await shown(page, [good.id])
    expect(text).not.toContain('Esperando un código')
    expect(text).not.toContain('RECHAZADO')
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-cashier-next-scan-1366x768.png') })
    await page.close()
  }, 120_000)

  it("cash desk: a prize paid while the printer is out of paper says so in Spanish, not in the printer's English", async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 5_000, { stationId: till.station.id }, till.headers)
    const bought = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, cards: { gameId: setup.gameId, count: 10 }, ageConfirmed: true },
      { authorization: `Device ${kiosk}` },
    )
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    await playToTheEnd(server.services, setup.gameId)
    const [winner] = await winningCodes(server.services, setup.gameId)
    expect(winner).toBeDefined()
    printer.setMode('paper_out')

    const page = await atDesk()
    await page.getByTestId('cashier-code').fill(winner.code)
    await page.getByTestId('cashier-check').click()
    await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('winner')
    if (await page.getByTestId('cashier-payee-name').count()) {
      await page.getByTestId('cashier-payee-name').fill('Juana Mamani')
      await page.getByTestId('cashier-payee-document').fill('4567891 LP')
    }
    await page.getByTestId('cashier-pay').click()
    await page.getByTestId('cashier-receipt').waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('cashier-receipt').getAttribute('data-receipt')).toBe('failed')
    expect(norm(await page.getByTestId('cashier-receipt-failed').textContent())).toBe(
      'El recibo no se imprimió, pero la operación quedó registrada. Revise la impresora de caja (papel, conexión) e imprima el recibo de nuevo.',
    )
    const text = await shown(page, [winner.cardId, till.station.id, desk.split('.')[0]])
    expect(text).not.toMatch(/paper|printer|offline|127\.0\.0\.1|tcp:/i)
    await page.screenshot({ path: join(SCREENSHOTS, 'screen-refusals-cashier-receipt-failed-1366x768.png') })
    await page.close()
  }, 120_000)
})
