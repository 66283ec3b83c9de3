/**
 * CFG-13 / BNG-103 in a real Chromium, authentication on: a prize figure (four corners) claimed at the caller
 * console by the jefe de mesa, verified against the called balls, and shown on the hall display with the figure's
 * name in Spanish, the winning card and the "any more?" question, over the live socket.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { DEMO_BETTING_PLAN } from '../../server/src/bingo/betting-plan.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'clave-de-figuras-13'
const BY = { kind: 'person', id: 'u_test', name: 'Directora', role: 'director' } as const

browserSuite('prize figures on the caller console and the hall display (CFG-13)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let gameId: string
  let displayCred: string
  let serial: string
  let cardRows: number[][]

  beforeAll(async () => {
    ensureBuilt(['display', 'admin'], ['display/src', 'admin/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    const hall = await bingo.createHall({
      id: 'sala',
      name: 'Sala de figuras',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      bettingPlan: DEMO_BETTING_PLAN,
    })
    await bingo.setAutoClaim({ hallId: hall.id, autoClaim: false, by: BY })
    await bingo.setFigurePlan({
      hallId: hall.id,
      plan: { authorisationRef: 'AJ/LIC/FIG-2026-7', prizes: [{ figure: 'four-corners', shareBp: 500 }] },
      by: BY,
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'figures-display' })
    const a = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    await equipForManualGames(server.services, hall.id)
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    const game = await bingo.announceGame({
      sessionId: session.id,
      seriesIds: [a.id],
      drawSource: 'manual',
      figures: ['four-corners'],
    })
    gameId = game.gameId
    await bingo.openSales(gameId)
    const sold = await bingo.sell({ gameId, count: 20, channel: 'demo' })
    serial = sold[0].serial
    await bingo.closeSales({ gameId })
    const rows = sold[0].rows.map((r: number[]) => r.filter((n) => n > 0))
    cardRows = rows
    for (const b of [rows[0][0], rows[0][rows[0].length - 1], rows[2][0], rows[2][rows[2].length - 1]])
      await bingo.enterBall(gameId, b, null)
    displayCred = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla sala', hallId: hall.id }))
      .credential
    await auth.createUser({ username: 'jefa', displayName: 'Jefa de Mesa', role: 'floor_manager', password: PASSWORD })
    await auth.createUser({ username: 'directora', displayName: 'Directora', role: 'director', password: PASSWORD })
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })
  const textOf = async (page: Page, testId: string) =>
    ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()

  it('the jefe checks a four-corners claim at the console and the hall sees the verified winner with the figure', async () => {
    const display = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await display.goto(`${server.url}/display/?hall=sala&device=${displayCred}`)
    await expect
      .poll(() => display.getByTestId('display').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('drawing')
    // Nothing is shown of a figure nobody has claimed (BNG-48).
    expect(await display.getByTestId('winner-panel').count()).toBe(0)

    const caller = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await caller.goto(`${server.url}/caller/?hall=sala`)
    await caller.getByTestId('login-user').fill('jefa')
    await caller.getByTestId('login-password').fill(PASSWORD)
    await caller.getByTestId('login-submit').click()
    const figureButton = caller.locator('[data-testid="claim-kind-figure"][data-kind="figure:four-corners"]')
    await figureButton.waitFor({ timeout: 15_000 })
    expect((await figureButton.textContent())?.trim()).toBe('Cuatro esquinas')
    await figureButton.click()
    await caller.getByTestId('claim-serial').fill(serial)
    await caller.getByTestId('claim-submit').click()
    await expect
      .poll(() => caller.getByTestId('claim-result').getAttribute('data-ok'), { timeout: 10_000 })
      .toBe('true')
    expect(await textOf(caller, 'claim-result')).toContain('CUATRO ESQUINAS')
    expect(await textOf(caller, 'caller-state')).toBe('CUATRO ESQUINAS')
    expect(await textOf(caller, 'caller-window-question')).toBe('¿ALGÚN CARTÓN MÁS CON CUATRO ESQUINAS?')
    await caller.screenshot({ path: join(SCREENSHOTS, 'caller-figure-verified.png') })

    await display.getByTestId('winner-panel').waitFor({ timeout: 10_000 })
    expect(await display.getByTestId('winner-panel').getAttribute('data-kind')).toBe('figure:four-corners')
    expect(await textOf(display, 'winner-kind')).toBe('CUATRO ESQUINAS')
    expect(await textOf(display, 'window-question')).toBe('¿ALGÚN CARTÓN MÁS CON CUATRO ESQUINAS?')
    expect(await textOf(display, 'winner-serial')).toBe(serial)
    expect(await textOf(display, 'state')).toBe('CUATRO ESQUINAS')
    // The figure's pool (5 % of 20 x 5.00 = 5.00) is the prize shown.
    expect(await textOf(display, 'winner-prize')).toMatch(/5[,.]00/)
    // The long figure name and question leave room for the card's serial and its prize inside the panel (the hall
    // reads both from the back of the room): neither is cut off by the panel's edge.
    await display.evaluate(() =>
      // The panel's entry animation ended (the question's pulse runs for ever).
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished),
      ),
    )
    const panel = (await display.getByTestId('winner-panel').boundingBox())!
    for (const id of ['winner-serial', 'winner-prize']) {
      const box = (await display.getByTestId(id).boundingBox())!
      expect(box.y, id).toBeGreaterThanOrEqual(panel.y)
      expect(box.y + box.height, id).toBeLessThanOrEqual(panel.y + panel.height)
    }
    await display.screenshot({ path: join(SCREENSHOTS, 'display-figure-winner.png') })
  })

  it("the caller console's minutes name the figure paid and each game's row adds up to what it paid (CFG-13, BNG-73)", async () => {
    const { bingo } = server.services
    // The figure's window closes, the same card completes its bingo, and every prize of the game is paid.
    await bingo.closeWindow(gameId)
    const called = new Set((await bingo.getGameState(gameId)).balls)
    for (const b of cardRows.flat()) if (!called.has(b)) await bingo.enterBall(gameId, b, null)
    const won = await bingo.claim({ gameId, serial, kind: 'bingo' })
    expect(won.ok, JSON.stringify(won)).toBe(true)
    await bingo.closeWindow(gameId)
    // Paid at the cash desk, the one door: each winning card's signed code, by a cashier out of her open shift.
    await server.services.auth.createUser({
      username: 'cajera',
      displayName: 'Cajera',
      role: 'cashier',
      password: PASSWORD,
      halls: ['sala'],
    })
    const till = await openTill(server.url, server.services, {
      hallId: 'sala',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    const winning = await server.services.db.all<{ card_id: string }>(
      "SELECT DISTINCT card_id FROM prizes WHERE game_id = ? AND status = 'awarded'",
      [gameId],
    )
    for (const w of winning) {
      const paid = await api(
        server.url,
        'POST',
        '/api/tickets/pay',
        {
          code: server.services.cashdesk.payouts.cardCode(w.card_id),
          payeeName: 'Juan Pérez',
          payeeDocument: '1234567 LP',
          payeePhone: '71234567',
        },
        till.headers,
      )
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    }

    const caller = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await caller.goto(`${server.url}/caller/?hall=sala`)
    await caller.getByTestId('login-user').fill('jefa')
    await caller.getByTestId('login-password').fill(PASSWORD)
    await caller.getByTestId('login-submit').click()
    await caller.getByTestId('show-minutes').click()
    await caller.getByTestId('minutes-table').waitFor()
    const row = caller.getByTestId('minutes-row').first()
    // Named in Spanish, never its code.
    expect(((await row.getByTestId('minutes-row-figures').textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(
      /Cuatro esquinas Bs 5,00/,
    )
    expect(await row.textContent()).not.toContain('four-corners')
    const cents = (s: string | null) => Number((s ?? '').replace(/[^\d]/g, ''))
    const cells = await row.locator('td').allTextContents()
    // Columns: no, series, price, sold, takings, line, bingo, figures, pots, paid. Line and bingo cells hold the pool and
    // "pagado X": the paid amount is the last money in the cell.
    const paidIn = (cell: string) => cents(cell.split(/pagado/).pop() ?? '')
    const line = paidIn(cells[5])
    const bingoPaid = paidIn(cells[6])
    const figures = cents(cells[7])
    const pots = cents(cells[8])
    const total = cents(cells[9])
    expect(figures).toBe(500)
    expect(total).toBeGreaterThan(figures)
    expect(line + bingoPaid + figures + pots).toBe(total)
    const m = await server.services.minutes.sessionMinutes((await bingo.getGameState(gameId)).sessionId)
    expect(total).toBe(
      m.games[0].linePaidCents +
        m.games[0].bingoPaidCents +
        (m.games[0].figuresPaidCents ?? 0) +
        m.games[0].jackpotsPaidCents,
    )
    expect(cents(await caller.getByTestId('minutes-total-paid').textContent())).toBe(m.totals.prizesPaidCents)
    // The minutes name the regulation the hall plays under and the audit journal in words, never a profile code or an
    // English word (the screens' rule: no internal id).
    const minutesText = (await caller.getByTestId('minutes-table').locator('xpath=..').textContent()) ?? ''
    expect(minutesText).toContain('Bolivia — RR 01-00003-25 (2025)')
    expect(minutesText).toContain('Registro de auditoría')
    expect(minutesText).not.toMatch(/BO-2025|Journal/)
    await caller.screenshot({ path: join(SCREENSHOTS, 'caller-minutes-figures-1440x900.png') })
  })

  it("the back office's minutes name the figure paid and each game's row adds up to what it paid (CFG-13, BNG-73)", async () => {
    // Runs after the test above: the game is finished and every prize paid.
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
    await page.goto(`${server.url}/admin/`)
    await page.fill('input[name=username]', 'directora')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('nav').waitFor()
    await page.click('[data-testid=nav-inspection]')
    await page.getByTestId('minutes-games').waitFor()
    const row = page.getByTestId('minutes-games').locator('tbody tr').first()
    expect(((await row.getByTestId('minutes-row-figures').textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(
      /Cuatro esquinas Bs 5,00/,
    )
    const text = await page.evaluate(() => document.body.innerText)
    expect(text).not.toContain('four-corners')
    const cents = (s: string | null) => Number((s ?? '').replace(/[^\d]/g, ''))
    // Columns: no, cards, sales, line, bingo, figures, pots, paid.
    const cells = await row.locator('td').allTextContents()
    const [line, bingoPaid, figures, pots, total] = [3, 4, 5, 6, 7].map((i) => cents(cells[i]))
    expect(figures).toBe(500)
    expect(line).toBeGreaterThan(0)
    expect(line + bingoPaid + figures + pots).toBe(total)
    const m = await server.services.minutes.sessionMinutes((await server.services.bingo.getGameState(gameId)).sessionId)
    expect(cents(await page.getByTestId('minutes-total-paid').textContent())).toBe(m.totals.prizesPaidCents)
    expect(total).toBe(m.totals.prizesPaidCents)
    expect((await page.getByTestId('minutes-totals').textContent()) ?? '').toContain('Cuatro esquinas')
    await page.getByTestId('minutes-games').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-minutes-figures-1366x768.png') })
  })
})
