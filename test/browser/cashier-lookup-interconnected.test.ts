/**
 * Issue 29 with BNG-100 in real Chromium, authentication on: Sala El Alto takes part in an interconnected game hosted
 * by Central La Paz and also runs its own game. Its cashier, logged in at her enrolled station, finds a card of the
 * interconnected game sold in El Alto by its serial with that game (listed and named with its host), while a card of
 * the same game sold at the Central is not shown to her (WRONG_HALL: a hall sees only its own cards). The game's long
 * name is readable in full at 1366 x 768, and the card found names El Alto as its hall and the Central as the host of
 * its game. Screenshot at 1366 x 768.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'

browserSuite(
  'the cashier finds a card of an interconnected game sold in her hall by its serial (issue 29, BNG-100)',
  () => {
    let server: Awaited<ReturnType<typeof startTestServer>>
    let browser: Browser
    let alto = ''
    let shared = ''
    let till: Till
    let ours = ''
    let theirs = ''

    beforeAll(async () => {
      ensureBuilt(['cashier'], ['kiosk/src/cashier', 'kiosk/cashier', 'web'])
      mkdirSync(SCREENSHOTS, { recursive: true })
      server = await startTestServer({ auth: 'on' })
      const { bingo, bonus, auth } = server.services
      const set = await bingo.createMasterSet({ count: 400, seed: 'cashier-lookup-interconnected' })
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
      }
      alto = halls[1].id
      const { extractorId } = await equipForManualGames(server.services, halls[0].id)
      const central = await bingo.openSession({
        hallId: halls[0].id,
        recount: { ballsCounted: 90, confirmedBy: 'Jefe' },
      })
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
      ours = (await bonus.sellInHall({ gameId: shared, hallId: alto, count: 3, channel: 'counter' }))[1].serial
      theirs = (await bonus.sellInHall({ gameId: shared, hallId: halls[0].id, count: 2, channel: 'counter' }))[0].serial
      // El Alto's own game, with a card sold, listed beside the interconnected one.
      const { extractorId: altoDrum } = await equipForManualGames(server.services, alto)
      const altoSession = await bingo.openSession({ hallId: alto, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
      const own = await bingo.announceGame({
        sessionId: altoSession.id,
        seriesIds: [halls[1].series],
        drawSource: 'manual',
        deviceId: altoDrum,
      })
      await bingo.openSales(own.gameId)
      await bingo.sell({ gameId: own.gameId, count: 1, channel: 'counter' })
      await auth.createUser({
        username: 'rosa',
        displayName: 'Rosa Vargas',
        role: 'cashier',
        password: PASSWORD,
        halls: [alto],
      })
      till = await openTill(server.url, server.services, {
        hallId: alto,
        username: 'rosa',
        password: PASSWORD,
        stationName: 'Caja El Alto',
      })
      browser = await launchChromium()
    }, 240_000)

    afterAll(async () => {
      await browser?.close()
      await server?.cleanup()
    })

    it('lists the interconnected game with its host, finds the hall’s card by serial, not the other hall’s', async () => {
      const page = await pageOnClock(browser, server.services.clock, { width: 1366, height: 768 })
      await page.goto(`${server.url}/cashier/?hall=${alto}&device=${encodeURIComponent(till.station.credential)}`)
      await page.getByTestId('shift-user').fill('rosa')
      await page.getByTestId('shift-password').fill(PASSWORD)
      await page.getByTestId('shift-enter').click()
      await page.getByTestId('shift-bar').waitFor()
      const select = page.getByTestId('cashier-lookup-game')
      await select.waitFor()
      const options = await select.locator('option').allInnerTexts()
      expect(options).toHaveLength(2)
      expect(options).toContain('Interconectada N.º 1 · Central La Paz · en venta')
      expect(options.some((o) => /^Partida N\.º 1 · Sesión N\.º 1 · en venta$/.test(o))).toBe(true)
      await select.selectOption(shared)
      // A native select cannot wrap: at 1366 x 768 the long name is cut in it, so it is said in full under it.
      const full = page.getByTestId('cashier-lookup-game-full')
      expect(await full.innerText()).toBe('Partida interconectada N.º 1, de la sala Central La Paz (en venta).')
      const fits = await full.evaluate((el) => {
        const box = el.getBoundingClientRect()
        const section = el.closest('section')!.getBoundingClientRect()
        return el.scrollWidth <= el.clientWidth && box.right <= section.right && box.left >= section.left
      })
      expect(fits).toBe(true)

      // The card sold in El Alto, typed as heard (its number alone).
      await page.getByTestId('cashier-lookup-serial').fill(String(Number(ours.split('-')[1])))
      await page.getByTestId('cashier-lookup-find').click()
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('pending')
      const body = (await page.locator('body').innerText()).replace(/\s+/g, ' ')
      expect(body).toContain(ours)
      // BNG-100: the card's hall is the one it was sold in (El Alto), the game's host is named apart.
      expect(await page.getByTestId('cashier-fact-hall').innerText()).toMatch(/Sala\s+Sala El Alto/)
      expect(await page.getByTestId('cashier-fact-host').innerText()).toMatch(
        /Partida interconectada de\s+Central La Paz/,
      )
      expect(screenLeaks(body)).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-interconnected-1366x768.png') })

      // The Central's card of the same game is not El Alto's to see.
      const r = await api(
        server.url,
        'POST',
        '/api/tickets/lookup',
        { gameId: shared, serial: theirs, stationId: till.station.id },
        { ...till.headers, authorization: `Bearer ${till.token}` },
      )
      expect([r.status, r.body.error?.code]).toEqual([403, 'WRONG_HALL'])
      await page.close()
    }, 120_000)
  },
)
