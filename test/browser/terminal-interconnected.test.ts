import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 27 with BNG-100 in real Chromium, authentication on: an enrolled terminal of a hall joined to a central's
 * interconnected game shows that game (named as interconnected, with its number of halls), buys virtual cards of it
 * from its own hall's range, sees the central's balls marked and claims its line with the button. Screenshots at
 * 1920 x 1080 and 1080 x 1920.
 */
browserSuite('a hall terminal in an interconnected game (issue 27, BNG-100)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let alto: string
  let gameId: string
  let extractorId: string
  const terminals: Array<{ id: string; credential: string }> = []
  const pages: Page[] = []
  const vouchers: string[] = []

  beforeAll(async () => {
    ensureBuilt(['terminal'], ['kiosk/src/terminal', 'kiosk/terminal', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, bonus, auth, terminals: service } = server.services
    const set = await bingo.createMasterSet({ count: 400, seed: 'terminal-interconnected' })
    const halls: Array<{ id: string; series: string }> = []
    for (const [name, code] of [
      ['Central La Paz', 'A'],
      ['Sala El Alto', 'B'],
    ]) {
      const h = await bingo.createHall({
        name,
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
      const series = await bingo.createSeries({ hallId: h.id, code, masterSetId: set.id, faceValueCents: 500 })
      halls.push({ id: h.id, series: series.id })
      await bingo.setAutoClaim({
        hallId: h.id,
        autoClaim: false,
        by: { kind: 'system', id: 't', name: 't', role: 'system' },
      })
      await service.setTerms({
        hallId: h.id,
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
        by: 'test',
      })
    }
    alto = halls[1].id
    ;({ extractorId } = await equipForManualGames(server.services, halls[0].id))
    const session = await bingo.openSession({ hallId: halls[0].id, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    gameId = (
      await bingo.announceGame({
        sessionId: session.id,
        seriesIds: [halls[0].series],
        drawSource: 'manual',
        deviceId: extractorId,
      })
    ).gameId
    await bonus.joinGame({ gameId, hallId: halls[0].id, seriesId: halls[0].series, fromCardNo: 1, toCardNo: 200 })
    await bonus.joinGame({ gameId, hallId: alto, seriesId: halls[1].series, fromCardNo: 201, toCardNo: 400 })
    await bingo.openSales(gameId)
    await bonus.sellInHall({ gameId, hallId: halls[0].id, count: 8, channel: 'counter' })
    const desk = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja B', hallId: alto })
    for (const name of ['Terminal 1', 'Terminal 2'])
      terminals.push(await auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: alto }))
    // Vouchers bought at El Alto's cashier, one per player.
    for (let i = 0; i < terminals.length; i++) {
      const { voucher } = await server.services.cashdesk.vouchers.sell({
        hallId: alto,
        amountCents: 2000,
        cash: { smallCents: 0, otherCents: 2000 },
        stationId: desk.id,
        cashierId: 'cajera',
      })
      vouchers.push(voucher.shortCode ?? voucher.code)
    }
    browser = await launchChromium()
  }, 240_000)

  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {})
    await browser?.close()
    await server?.cleanup()
  })

  it("plays the central's game from a joined hall: interconnected, its own range, the balls, a claimed line", async () => {
    const sizes = [
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
    ]
    const cards: Array<{ id: string; rows: number[][] }> = []
    for (let i = 0; i < 2; i++) {
      const page = await pageOnClock(browser, server.services.clock, sizes[i])
      pages.push(page)
      await page.goto(`${server.url}/terminal/?hall=${alto}&device=${encodeURIComponent(terminals[i].credential)}`)
      await page.getByTestId('voucher').fill(vouchers[i])
      await page.getByTestId('age-confirm').check() // GEN-23
      await page.getByTestId('start').click()
      await page.getByTestId('buy').waitFor()
      // The seat's own hall is named, not the central whose game it plays.
      expect(await page.getByTestId('hall-name').innerText()).toBe('Sala El Alto')
      // The game is the central's, played with the other hall: the screen says so before the player buys.
      expect(await page.getByTestId('interconnected').innerText()).toBe('Partida interconectada · 2 salas')
      await page.getByTestId('buy').click()
      await page.getByTestId('card').first().waitFor()
      const serial = (await page.getByTestId('card').first().getAttribute('data-serial'))!
      const row = await server.services.db.get<{ id: string; numbers: string; card_no: number }>(
        'SELECT id, numbers, card_no FROM cards WHERE serial = ? AND game_id = ?',
        [serial, gameId],
      )
      // From El Alto's range of the master set (201-400), not the central's.
      expect(Number(row!.card_no)).toBeGreaterThan(200)
      cards.push({ id: row!.id, rows: JSON.parse(row!.numbers) as number[][] })
    }
    const { bingo } = server.services
    await bingo.closeSales({ gameId })
    const line = cards[0].rows[0].filter((n) => n > 0)
    for (const n of line) await bingo.enterBall(gameId, n, extractorId)
    const [landscape, portrait] = pages
    await landscape.getByTestId('claim').first().waitFor({ timeout: 15_000 })
    expect(await landscape.getByTestId('last-ball').innerText()).toContain(String(line.at(-1)))
    await portrait
      .getByTestId('last-ball')
      .filter({ hasText: String(line.at(-1)) })
      .waitFor({ timeout: 15_000 })
    await landscape.screenshot({ path: join(SCREENSHOTS, 'terminal-interconnected-1920x1080.png') })
    await portrait.screenshot({ path: join(SCREENSHOTS, 'terminal-interconnected-1080x1920.png') })
    await landscape.getByTestId('claim').first().click()
    await landscape.getByTestId('message').filter({ hasText: 'Premio verificado' }).waitFor()
    // "¿Alguna línea más?" closed (BNG-50): the line is awarded to the terminal's card.
    await bingo.closeWindow(gameId)
    const prizes = await bingo.listPrizes(gameId)
    expect(prizes.some((p) => p.kind === 'line' && p.cardId === cards[0].id)).toBe(true)
  }, 180_000)
})
