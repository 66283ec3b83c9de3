/**
 * RNG-17 (002 §2.5.4.1: a display showing "al menos, el monto actualizado del pozo progresivo o acumulado, su
 * incremento") in a real Chromium, authentication on, an enrolled hall display: a progressive pot's tile shows its
 * updated amount and, from the close of sales that funds it, the increment that game's sales put in, besides its
 * condition and the share of the card price. Screenshot at 1920 x 1080.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { startTestServer } from '../helpers/server.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

browserSuite('hall display: a pot with its increment (RNG-17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let gameId = ''
  let displayCred = ''

  beforeAll(async () => {
    ensureBuilt(['display'], ['display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, bonus, auth } = server.services
    const hall = await bingo.createHall({
      id: 'sala',
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      // BNG-52 / CFG-24: the Plan de Apuestas approves 5 % of the takings for pots.
      bettingPlan: {
        authorisationRef: 'AJ-RA-2025-0777',
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
        potsBp: 500,
        commissionBp: 0,
      },
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'pot-increment-display' })
    const a = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    await bonus.createPot({
      name: 'Pozo Illimani',
      kind: 'progressive',
      authorisationRef: 'AJ-RA-2025-0901',
      contributionBp: 500,
      seedCents: 20_000,
      condition: { prize: 'bingo', scale: [{ withinBalls: 40, shareBp: 10_000 }] },
      hallIds: [hall.id],
    })
    await equipForManualGames(server.services, hall.id)
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'Jefa' } })
    gameId = (await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id], drawSource: 'manual' })).gameId
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 20, channel: 'counter' })
    displayCred = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla sala', hallId: hall.id }))
      .credential
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('shows the updated amount and, once the sales have funded it, the increment of the game beside the condition and the share', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/display/?hall=sala&device=${displayCred}`)
    const norm = async (id: string) =>
      ((await page.getByTestId(id).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
    await page.getByTestId('jackpot').waitFor({ timeout: 15_000 })
    // On sale: the seed only, nothing added yet, so no increment is claimed.
    expect(await norm('jackpot')).toBe('Bs 200,00')
    expect(await page.getByTestId('jackpot-increment').count()).toBe(0)
    await server.services.bingo.closeSales({ gameId })
    // 20 cards x Bs 5,00 x 5 % = Bs 5,00 into the pot.
    await expect.poll(() => norm('jackpot'), { timeout: 10_000 }).toBe('Bs 205,00')
    const increment = page.getByTestId('jackpot-increment')
    expect(await norm('jackpot-increment')).toBe('+Bs 5,00')
    expect((await increment.getAttribute('title'))?.replace(/\s+/g, ' ')).toBe('incremento +Bs 5,00')
    expect(await norm('jackpot-note')).toContain('5 % del precio')
    await page.screenshot({ path: join(SCREENSHOTS, 'display-pot-increment.png') })
    // Readable from the seat: not cut off by the tile, in landscape and in portrait.
    for (const size of [
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
    ]) {
      await page.setViewportSize(size)
      expect(await increment.evaluate((e) => e.scrollWidth <= e.clientWidth), JSON.stringify(size)).toBe(true)
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'display-pot-increment-portrait.png') })
  })
})
