import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { browserSuite, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { evaluateFace } from '../../server/src/instant/play.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * The on-screen instant game in real Chromium (issue #7): refused with a clear message where the hall's profile
 * has electronicInstantAllowed off (INS-15), then, with the hall override, a ticket bought, scratched with the
 * "scratch all" animation, its result and the validation QR of the printed ticket shown.
 * Screenshots in test-output/screenshots.
 */
const suite = browserSuite
const SHOTS = SCREENSHOTS

suite('on-screen instant tickets in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''

  beforeAll(async () => {
    if (!existsSync(resolve('dist/instant/index.html'))) execFileSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' })
    mkdirSync(SHOTS, { recursive: true })
    server = await startTestServer()
    hallId = (await server.services.bingo.createHall({ name: 'Sala Illimani', profileId: 'BO-2025', playingPositions: 50 })).id
    const design = {
      gameNo: 778, name: 'Raspa en Pantalla', currency: 'BOB', priceCents: 1000, ticketCount: 100, packSize: 50, channel: 'electronic',
      playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
      tiers: [{ amountCents: 20_000, count: 1 }, { amountCents: 5000, count: 4 }, { amountCents: 2000, count: 10 }, { amountCents: 1000, count: 16 }],
      payoutShareBp: { min: 0, max: 10_000 }, packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } }, claimDays: 60,
      back: { issuer: 'Lotería', paymentPlace: 'cajas de la sala' },
    }
    expect((await api(server.url, 'POST', '/api/instant/games', { design })).status).toBe(201)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('refuses where the profile forbids it, then sells, scratches and shows the printed ticket', async () => {
    const page = await browser.newPage({ viewport: { width: 720, height: 1280 } })
    await page.goto(`${server.url}/instant/?hall=${hallId}&game=778`)
    await page.getByTestId('instant-buy').click()
    const problem = page.getByTestId('instant-problem')
    await problem.waitFor()
    expect(await problem.getAttribute('data-code')).toBe('RULE_DISABLED')
    expect(await problem.textContent()).toMatch(/no está autorizada para vender raspaditas en pantalla/)
    await page.screenshot({ path: `${SHOTS}/instant-refused.png` })

    await api(server.url, 'POST', `/api/instant/halls/${hallId}/settings`, { electronicInstantAllowed: true, authorisationRef: 'AJ-2025-42', by: 'director' })
    await page.getByTestId('instant-back').click()
    await page.getByTestId('instant-home').waitFor()
    const sale = page.waitForResponse((r) => r.url().includes('/electronic'))
    await page.getByTestId('instant-buy').click()
    const sold = await (await sale).json()
    await page.getByTestId('instant-scratch-all').click()
    const result = page.getByTestId('instant-result')
    await result.waitFor()
    const shown = evaluateFace(sold.face, sold.symbolAmountsCents).amountCents
    expect(shown).toBe(sold.prizeCents)
    expect(await result.textContent()).toMatch(sold.prizeCents > 0 ? /Ganaste/ : /no hubo premio/)
    expect(await page.getByTestId('instant-cell').count()).toBe(9)
    await page.getByTestId('instant-qr').locator('svg').waitFor()
    expect(await page.getByTestId('instant-ticket').textContent()).toContain(sold.serial)
    await page.screenshot({ path: `${SHOTS}/instant-revealed.png` })
    await page.close()
  })
})
