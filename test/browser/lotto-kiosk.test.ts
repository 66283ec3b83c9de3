/**
 * The lotto touch screen (kiosk/lotto) in a real Chromium against the real server (issue #6, LNS-2, LNS-6): mark a
 * board on the 1..49 grid, add a quick pick, choose two draws, enter the player data, buy, and read the receipt
 * number and the QR of the signed code.
 *
 * Needs Chromium (CHROMIUM_PATH or /usr/bin/chromium). Under CI=true a missing browser fails; elsewhere the suite
 * is skipped with a message. Builds the screens first when dist/lotto is missing or older than kiosk/.
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'

const suite = browserSuite

suite('lotto touch screen', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let drawId: string

  beforeAll(async () => {
    ensureBuilt(['lotto'], ['kiosk'])
    const t = Date.parse('2025-03-02T10:00:00-04:00')
    server = await startTestServer({}, { clock: { now: () => new Date(t) } })
    drawId = (await api(server.url, 'POST', '/api/lotto/draws', plan649({ maxDrawsPerSlip: 2 }))).body.drawId
    await api(server.url, 'POST', '/api/lotto/draws', plan649({ drawNumber: 102, maxDrawsPerSlip: 2, salesCloseAt: '2025-03-15T19:00:00-04:00', drawAt: '2025-03-15T20:00:00-04:00', claimDeadline: '2025-05-14T23:59:59-04:00' }))
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('fills a slip with a chosen board and a quick pick for two draws, buys it and shows the receipt with its QR', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 1600 } })
    await page.goto(`${server.url}/lotto/?draw=${drawId}&kiosk=k7`)
    await page.getByTestId('lotto-grid').waitFor()
    expect(await page.getByTestId('lotto-buy').isDisabled()).toBe(true)
    for (const n of [45, 3, 19, 11, 38, 27]) await page.getByTestId(`lotto-n-${n}`).click()
    await page.getByTestId('lotto-quick').click()
    await page.getByTestId('lotto-draws-2').click()
    expect(await page.getByTestId('lotto-boards').textContent()).toContain('03 11 19 27 38 45')
    expect((await page.getByTestId('lotto-total').textContent())?.replace(/\s+/g, ' ')).toMatch(/20,00/)
    expect(await page.getByTestId('lotto-missing').textContent()).toMatch(/nombre/)
    await page.getByTestId('lotto-name').fill('Ana Quispe Mamani')
    await page.getByTestId('lotto-document').fill('4455667 LP')
    await page.getByTestId('lotto-buy').click()
    await page.getByTestId('lotto-receipt').waitFor()
    const receipt = (await page.getByTestId('lotto-receipt-number').textContent())!.trim()
    expect(receipt).toMatch(/^LOTO649-\d{9}$/)
    expect(await page.getByTestId('lotto-qr').innerHTML()).toContain('<svg')
    mkdirSync(resolve('test-output/screenshots'), { recursive: true })
    await page.screenshot({ path: resolve('test-output/screenshots/lotto-receipt.png') })
    const stored = await api(server.url, 'GET', `/api/lotto/slips/${receipt}`)
    expect(stored.body).toMatchObject({ channel: 'kiosk:k7', amountCents: 2000, player: { name: 'Ana Quispe Mamani' }, draws: [{ drawNumber: 101 }, { drawNumber: 102 }] })
    expect(stored.body.boards[0]).toEqual({ numbers: [3, 11, 19, 27, 38, 45], quickPick: false })
    await page.getByTestId('lotto-again').click()
    await page.getByTestId('lotto-grid').waitFor()
  })
})
