/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido: the players "deben elegir y adquirir uno o más números ... entre un
 * universo") at the counter, in real Chromium, authentication on, an enrolled cash desk ("Caja 1") and a real cashier
 * with her shift open: in a hall whose AJ Operating Licence sets chosen numbers (3 of 5 on 1..30), the sale panel
 * asks for the buyer's numbers on a grid of 1..30 ("Elija 5 números") instead of a count; the cashier taps one card,
 * takes a second "Al azar", counts the cash and sells: the cards hold exactly those numbers. The same five numbers
 * tapped again (BNG-13: no two equal cards in a game) are refused in Spanish with what to do, nothing sold.
 * Screenshots in test-output/screenshots/counter-chosen-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { PASSWORD, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { chosenNumbersHall } from '../helpers/chosen-hall.ts'

browserSuite('the counter sells fast bingo cards of the numbers the buyer says (BNG-98)', () => {
  let s: RulesServer
  let browser: Browser
  let page: Page
  let hallId = ''
  let gameId = ''
  let counter: Till

  beforeAll(async () => {
    ensureBuilt(['caller'], ['display', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    s = await startRulesServer('2026-11-27T18:00:00Z')
    ;({ hallId, gameId } = await chosenNumbersHall(s, {
      code: 'K',
      name: 'Sala Rápida',
      hallSeed: 'counter-chosen',
      setSeed: 'counter-chosen-set',
      reference: 'AJ-LO-ELEGIDOS-C',
      onSale: true,
    }))
    // The cashier's shift at the enrolled cash desk: a sale there is the counter's (CHOSEN_NUMBER_CHANNELS).
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    browser = await launchChromium()
    page = await pageOnClock(browser, s.server.services.clock, { width: 1280, height: 1400 })
    await page.goto(`${s.server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(counter.station.credential)}`)
    await page.getByTestId('login').waitFor()
    await page.getByTestId('login-user').fill('cajera')
    await page.getByTestId('login-password').fill(PASSWORD)
    await page.getByTestId('login-submit').click()
    await page.getByTestId('sell-chosen').waitFor()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await s?.server.cleanup()
  })

  const rowsOf = async (serial: string) =>
    ((await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>)
      .flat()
      .filter((n): n is number => typeof n === 'number' && n > 0)
  const cardsSold = async () => Number((await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.cardsSold)
  const text = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').replace(/\s+/g, ' ').trim()

  it('the cashier taps the buyer’s five numbers, takes a second card at random, counts Bs 10 and sells both', async () => {
    // A game of chosen numbers: the grid replaces the count of cards.
    expect(await page.getByTestId('sell-count').count()).toBe(0)
    expect(await text('sell-chosen-title')).toBe('Elija 5 números')
    expect(await page.locator('[data-testid^="sell-pick-"]').count()).toBe(30)
    expect(await text('sell-chosen-count')).toBe('0 de 5 números')
    for (const n of [4, 1, 6, 5]) await page.getByTestId(`sell-pick-${n}`).click()
    await page.getByTestId('sell-pick-6').click() // tapped again: taken back
    expect(await text('sell-chosen-count')).toBe('3 de 5 números')
    await page.getByTestId('sell-pick-3').click()
    expect(await page.getByTestId('sell-pick-3').getAttribute('aria-pressed')).toBe('true')
    await page.getByTestId('sell-chosen-clear').click() // "Borrar": the card being chosen starts again
    expect(await text('sell-chosen-count')).toBe('0 de 5 números')
    for (const n of [3, 1, 5, 2, 4]) await page.getByTestId(`sell-pick-${n}`).click()
    await expect.poll(() => text('sell-chosen-cards')).toContain('Cartón 1: 01 02 03 04 05')
    await page.getByTestId('sell-chosen-random').click()
    await expect.poll(() => page.locator('[data-testid="sell-chosen-cards"] li').count()).toBe(2)
    const second = (await page.getByTestId('sell-chosen-cards').innerText())
      .split('\n')
      .find((l) => l.startsWith('Cartón 2: '))!
      .slice('Cartón 2: '.length, 'Cartón 2: '.length + 14)
      .split(' ')
      .map(Number)
    expect(new Set(second).size).toBe(5)
    // Two cards at Bs 5: Bs 10 due, counted with one note (GEN-17), the player of age (GEN-23).
    expect(await text('cash-due')).toMatch(/^Bs\.?\s?10,00$/)
    await page.getByTestId('note-plus-1000').click()
    await page.getByTestId('sell-age').check()
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'counter-chosen-picking.png') })
    const answer = page.waitForResponse((r) => r.url().endsWith(`/api/games/${gameId}/sales`))
    await page.getByTestId('sell').click()
    expect((await answer).status()).toBe(201)
    await expect.poll(cardsSold).toBe(2)
    expect(await rowsOf('K-00001')).toEqual([1, 2, 3, 4, 5])
    expect(await rowsOf('K-00002')).toEqual(second)
    // The list is cleared for the next buyer.
    await expect.poll(() => page.locator('[data-testid="sell-chosen-cards"] li').count()).toBe(0)
    expect(await page.getByTestId('error-banner').count()).toBe(0)
  })

  it('the same five numbers for the next buyer are refused in Spanish with what to do, nothing sold', async () => {
    for (const n of [5, 4, 3, 2, 1]) await page.getByTestId(`sell-pick-${n}`).click()
    await expect.poll(() => text('sell-chosen-cards')).toContain('Cartón 1: 01 02 03 04 05')
    await page.getByTestId('cash-coins').fill('5,00')
    await page.getByTestId('sell-age').check()
    const answer = page.waitForResponse((r) => r.url().endsWith(`/api/games/${gameId}/sales`))
    await page.getByTestId('sell').click()
    expect((await answer).status()).toBe(409)
    await expect
      .poll(() => text('error-banner'))
      .toContain('Esos números ya están en otro cartón de esta partida: elija otros números. No se vendió nada.')
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    expect(await cardsSold()).toBe(2)
    // The card stays on screen for the seller to change it.
    expect(await text('sell-chosen-cards')).toContain('Cartón 1: 01 02 03 04 05')
    await page.screenshot({ path: join(SCREENSHOTS, 'counter-chosen-taken.png') })
  })
})
