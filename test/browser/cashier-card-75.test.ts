/**
 * A 75-ball card at the cash desk, in a real Chromium, authentication on, Rosa logged in at her enrolled station: a
 * player hands over a card of a 75-ball game (BNG-3/4: the hall's layout under its authorisation reference) and the
 * screen draws it as itself, 5 x 5 with each column in its B I N G O range, not spread over the 90-ball 3 x 9 grid
 * (which it was: the screen laid every card out for 90 balls). A 90-ball card of the same hall stays 3 x 9.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { LAYOUT_75 } from '../../server/src/shared/card-layout.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { playToTheEnd } from '../helpers/cashdesk.ts'
import { api, startTestServer } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'
import { cashierClock, cashierHall, loginAtCashier } from '../helpers/cashier-hall.ts'
import { countOf } from '../helpers/cash.ts'

const clock = cashierClock()

browserSuite('a 75-ball card drawn in its own layout at the cash desk (BNG-3, BNG-4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let till: Till
  let card90 = { code: '', rows: [] as number[][] }
  let card75 = { code: '', rows: [] as number[][] }

  /** The grid the screen drew: each row's cells, blanks as 0. */
  const drawn = (page: Page) =>
    page
      .getByTestId('cashier-card-grid')
      .evaluate((t) =>
        Array.from(t.querySelectorAll('tr')).map((tr) =>
          Array.from(tr.querySelectorAll('td')).map((td) => Number(td.textContent || 0)),
        ),
      )
  async function scan(page: Page, code: string) {
    await page.getByTestId('cashier-code').fill(code)
    await page.keyboard.press('Enter')
    await page.getByTestId('cashier-card-grid').waitFor()
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web', 'server/src/cashdesk'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const hall = await cashierHall(server)
    ;({ hallId, till } = hall)
    expect(hall.sold.status, JSON.stringify(hall.sold.body)).toBe(201)
    card90 = (hall.sold.body as { cards: Array<{ code: string; rows: number[][] }> }).cards[0]
    await playToTheEnd(server.services, hall.setup.gameId)
    // The hall's next game is of a 75-ball series, authorised for the hall (BNG-3/4).
    const { bingo } = server.services
    const set = await bingo.createMasterSet({ count: 40, seed: 'caja-75', layout: LAYOUT_75 })
    const series = await bingo.createSeries({
      hallId,
      code: 'B',
      masterSetId: set.id,
      faceValueCents: 500,
      layoutAuthorisationRef: 'AJ-LIC-0075',
    })
    const game = await bingo.announceGame({ sessionId: hall.setup.sessionId, seriesIds: [series.id] })
    await bingo.openSales(game.gameId)
    const sold = await api(
      server.url,
      'POST',
      `/api/games/${game.gameId}/sales`,
      { count: 1, ageConfirmed: true, cash: countOf(500) },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    card75 = sold.body.cards[0]
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('answers the scan with the card laid out in its own layout', async () => {
    const v = await api(server.url, 'POST', '/api/tickets/validate', { code: card75.code }, till.headers)
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    const grid: number[][] = v.body.view.ids.grid
    expect(grid.map((r) => r.length)).toEqual([5, 5, 5, 5, 5])
    // Column c holds 15c+1 .. 15c+15 (B 1-15, I 16-30, N 31-45, G 46-60, O 61-75), every number of the card once.
    for (const row of grid)
      row.forEach((n, c) => expect(n >= 15 * c + 1 && n <= 15 * c + 15, `${n} in ${c}`).toBe(true))
    expect(grid.flat().sort((a, b) => a - b)).toEqual(card75.rows.flat().sort((a, b) => a - b))
  })

  it('draws the 75-ball card 5 x 5 and the 90-ball card 3 x 9, in Spanish and English', async () => {
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await loginAtCashier(page, server.url, { hallId, till })
    await scan(page, card75.code)
    const grid75 = await drawn(page)
    expect(grid75.map((r) => r.length)).toEqual([5, 5, 5, 5, 5])
    for (const row of grid75) row.forEach((n, c) => expect(n >= 15 * c + 1 && n <= 15 * c + 15).toBe(true))
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-75-es-1366x768.png') })
    await page.getByTestId('cashier-ticket').screenshot({ path: join(SCREENSHOTS, 'cashier-card-75-es-card.png') })
    await scan(page, card90.code)
    await page.waitForFunction(
      () => document.querySelector('[data-testid="cashier-card-grid"] tr')?.querySelectorAll('td').length === 9,
    )
    const grid90 = await drawn(page)
    await page.getByTestId('cashier-ticket').screenshot({ path: join(SCREENSHOTS, 'cashier-card-90-es-card.png') })
    expect(grid90.map((r) => r.length)).toEqual([9, 9, 9])
    expect(grid90.flat().filter((n) => n > 0).length).toBe(15)
    await page.getByTestId('lang-en').click()
    await scan(page, card75.code)
    await page.waitForFunction(
      () => document.querySelector('[data-testid="cashier-card-grid"] tr')?.querySelectorAll('td').length === 5,
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-card-75-en-1366x768.png') })
    await page.close()
  })
})
