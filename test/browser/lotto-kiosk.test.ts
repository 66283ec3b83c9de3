/**
 * Lotto slips at the one kiosk (issue 13 point 1, issue #6, LNS-2, LNS-6): the old /lotto/ address opens the kiosk
 * on its "Boletos" section; the player marks a board on the 1..49 grid, adds a quick pick, chooses two draws,
 * enters the player data, types the voucher's short code, answers the age question and buys; the receipt number
 * shown is the slip the server sold, paid by that voucher.
 *
 * Needs Chromium (CHROMIUM_PATH or /usr/bin/chromium). Under CI=true a missing browser fails; elsewhere the suite
 * is skipped with a message. Builds the screens first when dist/kiosk is missing or older than kiosk/.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock } from '../helpers/browser.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'

const suite = browserSuite

suite('lotto slips at the one kiosk', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  // Inside the sales window of the plans (March 2025), for the server and the kiosk's page alike.
  const clock = { now: () => new Date(Date.parse('2025-03-02T10:00:00-04:00')) }

  beforeAll(async () => {
    ensureBuilt(['kiosk', 'lotto'], ['kiosk'])
    server = await startTestServer({}, { clock })
    hallId = (
      await server.services.bingo.createHall({
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 50,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
    ).id
    await api(server.url, 'POST', '/api/lotto/draws', plan649({ maxDrawsPerSlip: 2 }))
    await api(
      server.url,
      'POST',
      '/api/lotto/draws',
      plan649({
        drawNumber: 102,
        maxDrawsPerSlip: 2,
        salesCloseAt: '2025-03-15T19:00:00-04:00',
        drawAt: '2025-03-15T20:00:00-04:00',
        claimDeadline: '2025-05-14T23:59:59-04:00',
      }),
    )
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('fills a slip with a chosen board and a quick pick for two draws, pays it with a typed voucher and shows the receipt', async () => {
    const voucher = await sellVoucher(server.url, hallId, 2500)
    const page = await pageOnClock(browser, clock, { width: 900, height: 1600 })
    await page.goto(`${server.url}/lotto/?hall=${hallId}&kiosk=k7`)
    await page.waitForURL(/\/kiosk\/\?.*section=boletos/)
    await page.getByTestId('lotto-grid').waitFor()
    // LNS-5 / §7.9: the slip screen shows the operator, the issue, the range, each category's prize, the link to the
    // Reglamento Específico and the legend, besides the name, draw number, date, how many to pick and the price.
    // LOT-6 (002 §7): the Reglamento Específico is visible while the digital slip of selectable numbers is displayed.
    const facts = ((await page.getByTestId('lotto-slip-facts').textContent()) ?? '').replace(/\s+/g, ' ')
    for (const text of [
      'Lotería Nacional de Beneficencia y Salubridad',
      'Emisión 2025-A',
      'del 1 al 49',
      'Premio Mayor (6 aciertos): 60 % del fondo de premios',
      'Reintegro (3 aciertos): Bs 10,00',
      'https://loteria.example.bo/reglamento/loto649',
      'Actividad Autorizada y Fiscalizada por la Autoridad de Juegos',
    ])
      expect(facts).toContain(text)
    expect(await page.getByTestId('kiosk-confirm').isDisabled()).toBe(true)
    for (const n of [45, 3, 19, 11, 38, 27]) await page.getByTestId(`lotto-n-${n}`).click()
    await page.getByTestId('lotto-quick').click()
    await page.getByTestId('lotto-draws-2').click()
    expect(await page.getByTestId('lotto-boards').textContent()).toContain('03 11 19 27 38 45')
    expect((await page.getByTestId('kiosk-total').textContent())?.replace(/\s+/g, ' ')).toMatch(/20,00/)
    expect(await page.getByTestId('kiosk-blocker').textContent()).toMatch(/nombre/)
    await page.getByTestId('lotto-name').fill('Ana Quispe Mamani')
    await page.getByTestId('lotto-document').fill('4455667 LP')
    await page.getByTestId('kiosk-voucher-code').fill(voucher.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => page.getByTestId('kiosk-change').textContent()).toMatch(/5,00/)
    await page.getByTestId('kiosk-age-yes').click()
    await page.getByTestId('kiosk-confirm').click()
    await page.getByTestId('kiosk-done').waitFor()
    const receipt = (await page.getByTestId('kiosk-slip-number').textContent())!.trim()
    expect(receipt).toMatch(/^LOTO649-\d{9}$/)
    mkdirSync(resolve('test-output/screenshots'), { recursive: true })
    await page.screenshot({ path: resolve('test-output/screenshots/lotto-receipt.png') })
    const stored = await api(server.url, 'GET', `/api/lotto/slips/${receipt}`)
    expect(stored.body).toMatchObject({
      channel: 'kiosk:k7',
      amountCents: 2000,
      player: { name: 'Ana Quispe Mamani' },
      draws: [{ drawNumber: 101 }, { drawNumber: 102 }],
    })
    expect(stored.body.boards[0]).toEqual({ numbers: [3, 11, 19, 27, 38, 45], quickPick: false })
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code })).body.status).toBe('spent')
    await page.getByTestId('kiosk-finish').click()
    await page.getByTestId('lotto-grid').waitFor()
  })
})
