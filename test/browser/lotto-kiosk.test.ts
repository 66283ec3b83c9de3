/**
 * The lotto touch screen (kiosk/lotto) in a real Chromium against the real server (issue #6, LNS-2, LNS-6): mark a
 * board on the 1..49 grid, add a quick pick, choose two draws, enter the player data, buy, and read the receipt
 * number and the QR of the signed code.
 *
 * Needs Chromium (CHROMIUM_PATH or /usr/bin/chromium). Under CI=true a missing browser fails; elsewhere the suite
 * is skipped with a message. Builds the screens first when dist/lotto is missing or older than kiosk/.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const IN_CI = process.env.CI === 'true'
const HAVE_BROWSER = existsSync(CHROMIUM)
if (!HAVE_BROWSER && !IN_CI) console.warn(`[lotto kiosk browser test] skipped: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH.`)
const suite = HAVE_BROWSER || IN_CI ? describe : describe.skip

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

suite('lotto touch screen', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let drawId: string

  beforeAll(async () => {
    const built = resolve('dist/lotto/index.html')
    if (!existsSync(built) || (!IN_CI && newestMtime(resolve('kiosk')) > statSync(built).mtimeMs)) execFileSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' })
    if (!HAVE_BROWSER) throw new Error(`Chromium not found at ${CHROMIUM} (CI=true: the browser tests must run)`)
    const t = Date.parse('2025-03-02T10:00:00-04:00')
    server = await startTestServer({}, { clock: { now: () => new Date(t) } })
    drawId = (await api(server.url, 'POST', '/api/lotto/draws', plan649({ maxDrawsPerSlip: 2 }))).body.drawId
    await api(server.url, 'POST', '/api/lotto/draws', plan649({ drawNumber: 102, maxDrawsPerSlip: 2, salesCloseAt: '2025-03-15T19:00:00-04:00', drawAt: '2025-03-15T20:00:00-04:00', claimDeadline: '2025-05-14T23:59:59-04:00' }))
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'], headless: true })
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
