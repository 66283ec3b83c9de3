import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { sealed } from '../helpers/device-marks.ts'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { startTestServer } from '../helpers/server.ts'

/**
 * Issue 27 with BNG-100 in real Chromium, authentication on: a hall runs its own game while it takes part in a
 * central's interconnected game, both on sale at once. The terminal shows both, each named ("Partida de la sala" with
 * the seat's hall, "Partida interconectada · 2 salas"), and the player chooses which to buy for. Screenshots at
 * 1920 x 1080 and 1080 x 1920.
 */
browserSuite('a hall terminal chooses between its hall game and an interconnected one (issue 27, BNG-100)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let alto: string
  let shared: string
  let own: string
  const terminals: Array<{ id: string; credential: string }> = []
  const pages: Page[] = []
  const vouchers: string[] = []

  beforeAll(async () => {
    ensureBuilt(['terminal'], ['kiosk/src/terminal', 'kiosk/terminal', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, bonus, auth, terminals: service } = server.services
    const set = await bingo.createMasterSet({ count: 400, seed: 'terminal-choose-game' })
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
    const { extractorId } = await equipForManualGames(server.services, halls[0].id)
    const central = await bingo.openSession({ hallId: halls[0].id, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    shared = (
      await bingo.announceGame({
        sessionId: central.id,
        seriesIds: [halls[0].series],
        drawSource: 'manual',
        deviceId: extractorId,
      })
    ).gameId
    await bonus.joinGame({
      gameId: shared,
      hallId: halls[0].id,
      seriesId: halls[0].series,
      fromCardNo: 1,
      toCardNo: 200,
    })
    await bonus.joinGame({ gameId: shared, hallId: alto, seriesId: halls[1].series, fromCardNo: 201, toCardNo: 400 })
    await bingo.openSales(shared)
    // El Alto's own game, on sale at the same time.
    const { extractorId: altoDrum } = await equipForManualGames(server.services, alto)
    const altoSession = await bingo.openSession({ hallId: alto, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    own = (
      await bingo.announceGame({
        sessionId: altoSession.id,
        seriesIds: [halls[1].series],
        drawSource: 'manual',
        deviceId: altoDrum,
      })
    ).gameId
    await bingo.openSales(own)
    const desk = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja B', hallId: alto })
    for (const name of ['Terminal 1', 'Terminal 2'])
      terminals.push(await auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: alto }))
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

  it('shows both games named, and buys for the one the player picks', async () => {
    const sizes = [
      { width: 1920, height: 1080, pick: 'hall' as const },
      { width: 1080, height: 1920, pick: 'interconnected' as const },
    ]
    for (let i = 0; i < 2; i++) {
      const { pick, ...size } = sizes[i]
      const page = await pageOnClock(browser, server.services.clock, size)
      pages.push(page)
      await page.goto(`${server.url}/terminal/?hall=${alto}&device=${encodeURIComponent(terminals[i].credential)}`)
      await page.getByTestId('voucher').fill(vouchers[i])
      await page.getByTestId('age-confirm').check() // GEN-23
      await page.getByTestId('start').click()
      await page.getByTestId('choose-game').waitFor()
      const hallChoice = await page.getByTestId('choose-hall').innerText()
      const sharedChoice = await page.getByTestId('choose-interconnected').innerText()
      expect(hallChoice).toMatch(/^Partida de la sala · Sala El Alto · nº \d+$/)
      expect(sharedChoice).toMatch(/^Partida interconectada · 2 salas · nº \d+$/)
      await page.getByTestId(`choose-${pick}`).click()
      expect(await page.getByTestId(`choose-${pick}`).getAttribute('aria-checked')).toBe('true')
      await page.screenshot({ path: join(SCREENSHOTS, `terminal-choose-game-${size.width}x${size.height}.png`) })
      await page.getByTestId('buy').click()
      await page.getByTestId('card').first().waitFor()
      const serial = (await page.getByTestId('card').first().getAttribute('data-serial'))!
      const row = await server.services.db.get<{ game_id: string }>(
        'SELECT c.game_id FROM cards c JOIN terminal_cards tc ON tc.card_id = c.id WHERE c.serial = ? AND c.game_id IN (?, ?)',
        [serial, own, shared],
      )
      expect(row?.game_id).toBe(pick === 'hall' ? own : shared)
    }
  }, 180_000)
})
