import { mkdirSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { evaluateFace } from '../../server/src/instant/play.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

/**
 * On-screen instant tickets at the one kiosk in real Chromium (issue #7, issue 13 point 1): the old /instant/ address
 * opens the kiosk on its "Raspaditas" section; where the hall is not authorised (INS-15) nothing is offered and the
 * kiosk says why; with the hall's authorisation a ticket is paid with a voucher, scratched on screen with the
 * "scratch all" animation, and its result is the one the server sold. Screenshots in test-output/screenshots.
 */
const suite = browserSuite
const SHOTS = SCREENSHOTS

suite('on-screen instant tickets in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''

  beforeAll(async () => {
    ensureBuilt(['kiosk', 'instant'], ['kiosk'])
    mkdirSync(SHOTS, { recursive: true })
    server = await startTestServer()
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
    const design = {
      gameNo: 778,
      name: 'Raspa en Pantalla',
      currency: 'BOB',
      priceCents: 1000,
      ticketCount: 100,
      packSize: 50,
      channel: 'electronic',
      playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
      tiers: [
        { amountCents: 20_000, count: 1 },
        { amountCents: 5000, count: 4 },
        { amountCents: 2000, count: 10 },
        { amountCents: 1000, count: 16 },
      ],
      payoutShareBp: { min: 0, max: 10_000 },
      packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
      claimDays: 60,
      salesEndAt: '2099-12-31T23:59:59-04:00',
      authorisationRef: 'AJ-RA-2025-0042',
      back: { issuer: 'Lotería', paymentPlace: 'cajas de la sala' },
    }
    expect((await api(server.url, 'POST', '/api/instant/games', { design })).status).toBe(201)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('offers nothing where the profile forbids it, then sells with a voucher, scratches and shows the result', async () => {
    const page = await browser.newPage({ viewport: { width: 720, height: 1280 } })
    await page.goto(`${server.url}/instant/?hall=${hallId}&game=778`)
    await page.waitForURL(/\/kiosk\/\?.*section=raspaditas/)
    await page.getByTestId('instant-none').waitFor()
    expect(await page.getByTestId('instant-none').textContent()).toMatch(
      /no está autorizada para vender raspaditas en pantalla/,
    )
    await page.screenshot({ path: `${SHOTS}/instant-refused.png` })

    await api(server.url, 'POST', `/api/instant/halls/${hallId}/settings`, {
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-2025-42',
      by: 'director',
    })
    await page.reload()
    await page.getByTestId('instant-home').waitFor()
    expect(await page.getByTestId('instant-price').textContent()).toMatch(/Bs\s10,00/)
    await page.getByTestId('instant-count-plus').click()
    const voucher = await sellVoucher(server.url, hallId, 1000)
    await page.getByTestId('kiosk-voucher-code').fill(voucher.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await page.getByTestId('kiosk-credit').waitFor()
    await page.getByTestId('kiosk-age-yes').click()
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/kiosk/purchases'))
    await page.getByTestId('kiosk-confirm').click()
    const sold = (await (await answer).json()).instant[0]
    await page.getByTestId('instant-scratch-all').click()
    const result = page.getByTestId('instant-result')
    await result.waitFor()
    expect(evaluateFace(sold.face, sold.symbolAmountsCents).amountCents).toBe(sold.prizeCents)
    expect(await result.textContent()).toMatch(sold.prizeCents > 0 ? /Premio de/ : /no hubo premio/)
    expect(await page.getByTestId('instant-cell').count()).toBe(9)
    expect(await page.getByTestId('kiosk-instant').getAttribute('data-serial')).toBe(sold.serial)
    await page.screenshot({ path: `${SHOTS}/instant-revealed.png` })
    await page.close()
  })
})
