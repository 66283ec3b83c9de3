import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { startTestServer } from '../helpers/server.ts'
import { interconnectedHalls, terminalsWithVouchers } from '../helpers/terminals.ts'

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
  let terminals: Array<{ id: string; credential: string }>
  let vouchers: string[]
  const pages: Page[] = []

  beforeAll(async () => {
    ensureBuilt(['terminal'], ['kiosk/src/terminal', 'kiosk/terminal', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo } = server.services
    const halls = await interconnectedHalls(server.services, { seed: 'terminal-choose-game' })
    alto = halls.alto.id
    shared = halls.gameId
    // El Alto's own game, on sale at the same time.
    const { extractorId: altoDrum } = await equipForManualGames(server.services, alto)
    const altoSession = await bingo.openSession({ hallId: alto, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    own = (
      await bingo.announceGame({
        sessionId: altoSession.id,
        seriesIds: [halls.alto.series],
        drawSource: 'manual',
        deviceId: altoDrum,
      })
    ).gameId
    await bingo.openSales(own)
    ;({ terminals, vouchers } = await terminalsWithVouchers(server.services, alto))
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
      const numberOf = (choice: string) => choice.match(/nº (\d+)$/)![1]
      // The game panel names the game the purchase is for, whichever the player picks, and follows a change of mind.
      const other = pick === 'hall' ? 'interconnected' : 'hall'
      for (const p of [other, pick]) {
        await page.getByTestId(`choose-${p}`).click()
        expect(await page.getByTestId(`choose-${p}`).getAttribute('aria-checked')).toBe('true')
        const choice = p === 'hall' ? hallChoice : sharedChoice
        await expect.poll(() => page.getByTestId('game-no').innerText()).toBe(`Partida nº ${numberOf(choice)}`)
        if (p === 'hall') {
          expect(await page.getByTestId('hall-game').innerText()).toBe('Partida de la sala · Sala El Alto')
          expect(await page.getByTestId('interconnected').count()).toBe(0)
        } else {
          expect(await page.getByTestId('interconnected').innerText()).toBe('Partida interconectada · 2 salas')
          expect(await page.getByTestId('hall-game').count()).toBe(0)
        }
        expect(await page.getByTestId('status').innerText()).toBe('A la venta')
      }
      // The buy button counts in words: one "cartón", several "cartones" (one "card", several "cards").
      const buy = page.getByTestId('buy')
      expect(await buy.innerText()).toMatch(/^Comprar 1 cartón · /)
      await page.getByRole('button', { name: '+', exact: true }).click()
      await page.getByRole('button', { name: '+', exact: true }).click()
      expect(await buy.innerText()).toMatch(/^Comprar 3 cartones · /)
      await page.getByRole('button', { name: 'English' }).click()
      expect(await buy.innerText()).toMatch(/^Buy 3 cards · /)
      await page.getByRole('button', { name: '-', exact: true }).click()
      await page.getByRole('button', { name: '-', exact: true }).click()
      expect(await buy.innerText()).toMatch(/^Buy 1 card · /)
      await page.getByRole('button', { name: 'Español' }).click()
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
