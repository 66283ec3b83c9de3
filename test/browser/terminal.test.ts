import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 27 in real Chromium, authentication on as shipped: two enrolled terminals (1920 x 1080 landscape and
 * 1080 x 1920 portrait) and the enrolled paper kiosk play one game. Each player starts a session with a voucher typed
 * at the terminal, buys virtual cards, sees the balls marked and the numbers still needed, and claims with the
 * button; a paper card wins the line with them and the line is split three ways; the prizes are credited to the
 * balances on screen; one terminal ends its session and its change voucher is cashed at the cashier. The balls are
 * entered from a manual drum, so the test knows which cards win.
 */
const PASSWORD = 'correct horse battery'

browserSuite('hall terminals in Chromium (issue 27)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId: string
  let gameId: string
  let extractorId: string
  let kiosk: { id: string; credential: string }
  let t1: { id: string; credential: string }
  let t2: { id: string; credential: string }
  let cashierToken: string
  let directorToken: string
  let sessionId: string
  let seriesId: string
  const pages: Page[] = []
  const es = { 'accept-language': 'es' }
  const asCashier = () => ({ ...es, authorization: `Bearer ${cashierToken}` })

  beforeAll(async () => {
    ensureBuilt(['terminal'], ['kiosk/src/terminal', 'kiosk/terminal', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    const hall = await bingo.createHall({
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    hallId = hall.id
    const set = await bingo.createMasterSet({ count: 400, seed: `terminal-${hall.id}` })
    const series = await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    ;({ extractorId } = await equipForManualGames(server.services, hallId))
    const session = await bingo.openSession({ hallId, recount: { ballsCounted: 90, confirmedBy: 'Jefe de Mesa' } })
    sessionId = session.id
    seriesId = series.id
    gameId = (
      await bingo.announceGame({
        sessionId: session.id,
        seriesIds: [series.id],
        drawSource: 'manual',
        deviceId: extractorId,
      })
    ).gameId
    await bingo.openSales(gameId)
    // The players claim with the button: the system makes no claim for them in this hall (CFG-21).
    await bingo.setAutoClaim({ hallId, autoClaim: false, by: { kind: 'system', id: 't', name: 't', role: 'system' } })
    kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    t1 = await auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 1', hallId })
    t2 = await auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 2', hallId })
    const station = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId })
    await auth.createUser({ username: 'cajera', displayName: 'Rosa Vargas', role: 'cashier', password: PASSWORD })
    await auth.createUser({ username: 'jefa', displayName: 'Marta Quispe', role: 'director', password: PASSWORD })
    const desk = { id: station.id, name: 'Caja 1', kind: 'cashier_station' as const, hallId }
    const login = await auth.login('cajera', PASSWORD, desk)
    cashierToken = login.token
    await server.services.cashdesk.shifts.open(
      { station: desk, person: { id: login.user.id, name: 'Rosa Vargas', role: 'cashier' } },
      { floatCents: 50_000 },
    )
    const director = (directorToken = (await auth.login('jefa', PASSWORD)).token)
    const terms = await api(
      server.url,
      'PUT',
      `/api/halls/${hallId}/terminal-terms`,
      {
        reference: 'AJ-RND-2026-0117',
        terms: {
          markingMode: 'automatic',
          maxCardCents: 600,
          maxGameCents: 5000,
          maxSessionCents: 20_000,
          minGameSeconds: 0,
          prizeReturnBp: { min: 6000, max: 8500 },
          terminalRangePercent: 25,
          onDisconnect: 'play-on-credit',
        },
      },
      { ...es, authorization: `Bearer ${director}` },
    )
    expect(terms.status, JSON.stringify(terms.body)).toBe(200)
    browser = await launchChromium()
  }, 240_000)

  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {})
    await browser?.close()
    await server?.cleanup()
  })

  const open = async (t: { credential: string }, viewport: { width: number; height: number }) => {
    const page = await pageOnClock(browser, server.services.clock, viewport)
    pages.push(page)
    await page.goto(`${server.url}/terminal/?hall=${hallId}&device=${encodeURIComponent(t.credential)}`)
    return page
  }
  const balanceOf = async (page: Page) => (await page.getByTestId('balance').innerText()).replace(/\s+/g, ' ')

  it('two terminals and a paper kiosk play one game: buy, mark, claim, split with paper, credit, cash the change', async () => {
    const landscape = await open(t1, { width: 1920, height: 1080 })
    const portrait = await open(t2, { width: 1080, height: 1920 })
    await expect(landscape.getByText('Presente su vale para jugar')).toBeDefined()
    // A short code typed with a mistake: the player reads what to check about the voucher, not the cashier's
    // "El cartón o boleto no existe en esta partida." (the server's words for the code it could not find).
    await landscape.getByTestId('voucher').fill('ZZZZ-ZZZZ')
    await landscape.getByTestId('age-confirm').check()
    await landscape.getByTestId('start').click()
    const refused = (await landscape.getByTestId('message').innerText()).replace(/\s+/g, ' ')
    expect(refused).toContain('Ningún vale tiene este código. Revise lo que escribió')
    expect(refused).not.toMatch(/cartón o boleto|partida/)
    await landscape.screenshot({ path: join(SCREENSHOTS, 'terminal-voucher-not-found.png') })
    await landscape.getByTestId('age-confirm').uncheck()
    // Each player types the short code of a voucher bought at the cashier.
    for (const [page, amount] of [
      [landscape, 3000],
      [portrait, 2000],
    ] as const) {
      const v = await sellVoucher(server.url, hallId, amount, {}, asCashier())
      await page.getByTestId('voucher').fill(v.shortCode)
      // GEN-23: no start until the player says they are of age.
      expect(await page.getByTestId('start').isDisabled()).toBe(true)
      await page.getByTestId('age-confirm').check()
      await page.getByTestId('start').click()
      await page.getByTestId('buy').waitFor()
    }
    expect(await balanceOf(landscape)).toContain('30,00')
    // Two cards on each terminal.
    for (const page of [landscape, portrait]) {
      await page.getByRole('button', { name: '+' }).click()
      await page.getByTestId('buy').click()
      await page.getByTestId('card').nth(1).waitFor()
    }
    expect(await balanceOf(landscape)).toContain('20,00')
    expect(await balanceOf(portrait)).toContain('10,00')
    // The paper kiosk sells six cards of the same game (BNG-21: the game needs ten).
    const paperVoucher = await sellVoucher(server.url, hallId, 3000, {}, asCashier())
    const bought = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: paperVoucher.code, ageConfirmed: true, cards: { gameId, count: 6 } },
      { ...es, authorization: `Device ${kiosk.credential}` },
    )
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    const paper = bought.body.cards[0] as { id: string; serial: string; rows: number[][] }

    const heldOf = async (t: { id: string }) =>
      server.services.db.all<{ id: string; serial: string; numbers: string }>(
        `SELECT c.id, c.serial, c.numbers FROM terminal_cards tc JOIN cards c ON c.id = tc.card_id
          JOIN terminal_sessions s ON s.id = tc.session_id WHERE s.terminal_id = ? ORDER BY c.card_no`,
        [t.id],
      )
    const [a] = await heldOf(t1)
    const [b] = await heldOf(t2)
    const rowsA = JSON.parse(a.numbers) as number[][]
    const rowsB = JSON.parse(b.numbers) as number[][]
    // The first row of a terminal card of each terminal and of the paper card: all three have a line at once.
    const line = [...new Set([...rowsA[0], ...rowsB[0], ...paper.rows[0]].filter((n) => n > 0))]
    const { bingo } = server.services
    await bingo.closeSales({ gameId })
    for (const n of line) await bingo.enterBall(gameId, n, extractorId)
    // The landscape terminal shows the last ball and its best card (the line card) first, ready to claim.
    await landscape.getByTestId('claim').first().waitFor({ timeout: 15_000 })
    await portrait.getByTestId('claim').first().waitFor({ timeout: 15_000 })
    expect(await landscape.getByTestId('last-ball').innerText()).toContain(String(line.at(-1)))
    expect(await landscape.getByTestId('card').first().getAttribute('data-serial')).toBe(a.serial)
    expect(await landscape.locator('[data-marked="true"]').count()).toBeGreaterThanOrEqual(5)
    await landscape.screenshot({ path: join(SCREENSHOTS, 'terminal-1920x1080-line.png') })
    await portrait.screenshot({ path: join(SCREENSHOTS, 'terminal-1080x1920-line.png') })
    await landscape.getByTestId('claim').first().click()
    await landscape.getByTestId('message').filter({ hasText: 'Premio verificado' }).waitFor()
    await portrait.getByTestId('claim').first().click()
    await portrait.getByTestId('message').filter({ hasText: 'Premio verificado' }).waitFor()
    // The paper card's line is called at the table.
    expect((await bingo.claim({ gameId, serial: paper.serial, kind: 'line' })).ok).toBe(true)
    await bingo.closeWindow(gameId)
    const linePrizes = (await bingo.listPrizes(gameId)).filter((p) => p.kind === 'line')
    expect(linePrizes.map((p) => p.cardId).sort()).toEqual([a.id, b.id, paper.id].sort())
    // The rest of the landscape card's numbers: its bingo, claimed with the button.
    const rest = rowsA.flat().filter((n) => n > 0 && !line.includes(n))
    for (const n of rest) await bingo.enterBall(gameId, n, extractorId)
    await landscape.getByText('¡BINGO! Pulse para cantar').first().waitFor({ timeout: 15_000 })
    await landscape.getByText('¡BINGO! Pulse para cantar').first().click()
    await landscape.getByTestId('message').filter({ hasText: 'Premio verificado' }).waitFor()
    await bingo.closeWindow(gameId)
    // Credited at once on both terminals, as the cash desk paid them: the line split three ways and the bingo.
    const prizes = await bingo.listPrizes(gameId)
    const sumFor = (id: string) => prizes.filter((p) => p.cardId === id).reduce((s, p) => s + p.amountCents, 0)
    const expectWon = async (page: Page, cents: number) => {
      const text = (cents / 100).toFixed(2).replace('.', ',')
      await page.waitForFunction((t) => document.querySelector('[data-testid="won"]')?.textContent?.includes(t), text, {
        timeout: 15_000,
      })
    }
    await expectWon(landscape, sumFor(a.id))
    await expectWon(portrait, sumFor(b.id))
    await landscape.getByTestId('winner').first().waitFor()
    expect(await balanceOf(landscape)).toContain(((2000 + sumFor(a.id)) / 100).toFixed(2).replace('.', ','))
    const line3 = linePrizes.map((p) => p.amountCents)
    expect(Math.max(...line3) - Math.min(...line3)).toBeLessThanOrEqual(1)
    await landscape.screenshot({ path: join(SCREENSHOTS, 'terminal-1920x1080-credited.png') })
    await portrait.screenshot({ path: join(SCREENSHOTS, 'terminal-1080x1920-credited.png') })
    // The paper card is paid at the cashier, its share of the line.
    const paid = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: server.services.cashdesk.payouts.cardCode(paper.id) },
      asCashier(),
    )
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(sumFor(paper.id))

    // The landscape player ends the session: the change voucher (printed) is cashed at the cashier.
    const balance = 2000 + sumFor(a.id)
    const answer = landscape.waitForResponse((r) => r.url().endsWith('/api/terminal/session/end'))
    await landscape.getByTestId('end').click()
    await landscape.getByTestId('change').waitFor()
    await landscape.screenshot({ path: join(SCREENSHOTS, 'terminal-1920x1080-ended.png') })
    // The change voucher's code is on its paper (the terminal's printer), never on the seat's screen.
    const change = (await (await answer).json()).change as { code: string; shortCode: string; amountCents: number }
    expect(await landscape.getByTestId('ended').innerText()).not.toContain(change.shortCode)
    expect(change.amountCents).toBe(balance)
    const cashed = await api(server.url, 'POST', '/api/vouchers/cashout', { code: change.code }, asCashier())
    expect(cashed.status, JSON.stringify(cashed.body)).toBe(200)
    expect(cashed.body.paidCents).toBe(balance)
  }, 180_000)

  it('marks as the terms say: per ball only the called numbers the player touches; catch-up all called at one touch (BNG-101)', async () => {
    const setMode = async (markingMode: string) => {
      const r = await api(
        server.url,
        'PUT',
        `/api/halls/${hallId}/terminal-terms`,
        {
          reference: 'AJ-RND-2026-0117',
          terms: {
            markingMode,
            maxCardCents: 600,
            maxGameCents: 5000,
            maxSessionCents: 20_000,
            minGameSeconds: 0,
            prizeReturnBp: { min: 6000, max: 8500 },
            terminalRangePercent: 25,
            onDisconnect: 'play-on-credit',
          },
        },
        { ...es, authorization: `Bearer ${directorToken}` },
      )
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    await setMode('per-ball')
    const { bingo } = server.services
    const next = (
      await bingo.announceGame({ sessionId, seriesIds: [seriesId], drawSource: 'manual', deviceId: extractorId })
    ).gameId
    await bingo.openSales(next)
    await bingo.sell({ gameId: next, count: 10, channel: 'cashier' })
    // Terminal 2 still has its session (and its balance) from the first game.
    const page = await open(t2, { width: 1920, height: 1080 })
    await page.getByTestId('buy').click()
    // A second game on the same session: virtual cards are never handed back on paper (BNG-15 is about paper).
    await page.getByTestId('card').first().waitFor()
    expect(await page.getByText('Toque los números cantados para marcarlos.').count()).toBe(1)
    const held = await server.services.db.get<{ numbers: string }>(
      `SELECT c.numbers FROM terminal_cards tc JOIN cards c ON c.id = tc.card_id WHERE tc.game_id = ?`,
      [next],
    )
    const mine = (JSON.parse(held!.numbers) as number[][]).flat().filter((n) => n > 0)
    const [n1, n2, notCalled] = mine
    const elsewhere = Array.from({ length: 90 }, (_, i) => i + 1).find((n) => !mine.includes(n))!
    await bingo.closeSales({ gameId: next })
    for (const n of [n1, n2, elsewhere]) await bingo.enterBall(next, n, extractorId)
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="last-ball"]')?.textContent?.includes(String(n)),
      elsewhere,
    )
    const marked = page.locator('[data-marked="true"]')
    const cell = (n: number) => page.locator('td.t-cell', { hasText: new RegExp(`^${n}$`) }).first()
    // Per ball: called numbers wait for the player's touch; an uncalled number does not mark.
    expect(await marked.count()).toBe(0)
    await cell(n1).click()
    await page.waitForFunction(() => document.querySelectorAll('[data-marked="true"]').length === 1)
    expect(await cell(n1).getAttribute('data-marked')).toBe('true')
    await cell(notCalled).click()
    expect(await marked.count()).toBe(1)
    expect(await cell(notCalled).getAttribute('data-marked')).toBe('false')
    await page.screenshot({ path: join(SCREENSHOTS, 'terminal-1920x1080-per-ball.png') })

    // Catch-up: nothing marked until the button, then every called number of the card at once.
    await setMode('catch-up')
    await page.reload()
    await page.getByTestId('catch-up').waitFor()
    expect(await page.getByTestId('catch-up').innerText()).toBe('Marcar bolas cantadas')
    expect(await marked.count()).toBe(0)
    await page.getByTestId('catch-up').click()
    await page.waitForFunction(() => document.querySelectorAll('[data-marked="true"]').length === 2)
    for (const n of [n1, n2]) expect(await cell(n).getAttribute('data-marked')).toBe('true')
    expect(await cell(notCalled).getAttribute('data-marked')).toBe('false')
    await page.screenshot({ path: join(SCREENSHOTS, 'terminal-1920x1080-catch-up.png') })
  }, 120_000)
})
