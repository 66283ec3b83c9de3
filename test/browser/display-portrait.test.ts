/**
 * Issue 17 point 6 in a real Chromium: the hall display's winner panel fits a portrait screen (1080 x 1920) with
 * several winners of the same ball, nothing clipped or outside the viewport, and an awarded prize (the line once
 * its window closes) is shown as won, never struck through. Screenshots in test-output/screenshots/.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { startTestServer } from '../helpers/server.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { DEMO_BETTING_PLAN } from '../../server/src/bingo/betting-plan.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

/** Boxes of every element that must be seen whole, and any that spill over their own box. */
async function outOfView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = []
    const vw = window.innerWidth
    const vh = window.innerHeight
    const sel =
      '[data-testid=winner-panel], [data-testid=winner], [data-testid=winner-card], [data-testid=winner-serial], [data-testid=winner-prize], [data-testid=winner-more], .hd-tile, .hd-winners__kind'
    for (const e of document.querySelectorAll<HTMLElement>(sel)) {
      const r = e.getBoundingClientRect()
      const name = `${e.getAttribute('data-testid') ?? e.className} ${e.getAttribute('data-serial') ?? ''}`.trim()
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
        bad.push(
          `${name} outside the screen: ${Math.round(r.left)},${Math.round(r.top)} - ${Math.round(r.right)},${Math.round(r.bottom)}`,
        )
      if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) {
        if (getComputedStyle(e).textOverflow !== 'ellipsis')
          bad.push(`${name} overflows: ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`)
      }
    }
    // Each winner stays inside the panel.
    const panel = document.querySelector('[data-testid=winner-panel]')?.getBoundingClientRect()
    for (const w of document.querySelectorAll('[data-testid=winner]')) {
      const r = w.getBoundingClientRect()
      if (
        panel &&
        (r.left < panel.left - 0.5 ||
          r.right > panel.right + 0.5 ||
          r.top < panel.top - 0.5 ||
          r.bottom > panel.bottom + 0.5)
      )
        bad.push(`winner ${w.getAttribute('data-serial')} outside the panel`)
    }
    return bad
  })
}

browserSuite("the display's winner panel on a portrait screen (issue 17 point 6)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let gameId: string
  let displayCred: string
  let winners: string[]

  beforeAll(async () => {
    ensureBuilt(['display'], ['display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    const hall = await bingo.createHall({
      id: 'sala',
      name: 'Sala de pruebas',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      bettingPlan: DEMO_BETTING_PLAN,
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'portrait-winners' })
    const a = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    await equipForManualGames(server.services, hall.id)
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id], drawSource: 'manual' })
    gameId = game.gameId
    await bingo.openSales(gameId)
    const sold = await bingo.sell({ gameId, count: 150, channel: 'demo' })
    // Five cards that each complete a line with the same ball x, and no card that completes one before it.
    const rowsOf = (c: (typeof sold)[number]) =>
      c.rows.map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))
    let plan: { x: number; balls: number[]; serials: string[] } | null = null
    for (let x = 1; x <= 90 && !plan; x++) {
      const picks = sold
        .map((c) => ({ c, row: rowsOf(c).find((r) => r.includes(x)) }))
        .filter((p) => p.row)
        .slice(0, 5)
      if (picks.length < 5) continue
      const before = new Set(picks.flatMap((p) => p.row!).filter((n) => n !== x))
      if (sold.some((c) => rowsOf(c).some((r) => r.every((n) => before.has(n))))) continue
      plan = { x, balls: [...before], serials: picks.map((p) => p.c.serial) }
    }
    if (!plan) throw new Error('no ball makes five line winners at once in this set')
    winners = plan.serials
    await bingo.closeSales({ gameId })
    for (const b of plan.balls) await bingo.enterBall(gameId, b)
    await bingo.enterBall(gameId, plan.x)
    displayCred = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla sala', hallId: hall.id }))
      .credential
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('shows several line winners whole at 1080 x 1920, and the awarded line prize is not struck through', async () => {
    const state = await server.services.bingo.getGameState(gameId)
    const lineWinners = state.winners.filter((w) => w.kind === 'line').map((w) => w.serial)
    expect(lineWinners.length).toBeGreaterThanOrEqual(5)
    for (const s of winners) expect(lineWinners).toContain(s)

    const page = await browser.newPage({ viewport: { width: 1080, height: 1920 } })
    await page.goto(`${server.url}/display/?hall=sala&device=${displayCred}`)
    await page.getByTestId('winner-panel').waitFor({ timeout: 15_000 })
    await settled(page) // the panel's entrance animation ends
    expect(await page.getByTestId('winner').count()).toBe(4)
    expect(await page.getByTestId('winner-more').textContent()).toContain(lineWinners[4])
    await page.screenshot({ path: join(SCREENSHOTS, 'display-portrait-winners-1080x1920.png') })
    expect(await outOfView(page)).toEqual([])
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.setViewportSize({ width: 1920, height: 1080 })
    await settled(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-winners-1920x1080.png') })
    expect(await outOfView(page)).toEqual([])

    // The line window closes: the line prize is awarded. Its tile says so, and is not crossed out.
    await server.services.bingo.closeWindow(gameId)
    await expect
      .poll(() => page.locator('.hd-tile--done [data-testid=line-prize]').count(), { timeout: 10_000 })
      .toBe(1)
    for (const size of [
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
    ]) {
      await page.setViewportSize(size)
      await settled(page)
      const decoration = await page.evaluate(() =>
        [...document.querySelectorAll('.hd-tile__value')].map((e) => getComputedStyle(e).textDecorationLine),
      )
      expect(decoration).not.toContain('line-through')
      await page.screenshot({ path: join(SCREENSHOTS, `display-line-awarded-${size.width}x${size.height}.png`) })
      expect(await outOfView(page)).toEqual([])
    }
    await page.close()
  }, 60_000)
})
