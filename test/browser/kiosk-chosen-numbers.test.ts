/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido: the players "deben elegir y adquirir uno o más números ... entre un
 * universo") in real Chromium, authentication on, an enrolled kiosk: in a hall whose AJ Operating Licence sets chosen
 * numbers (3 of 5 on 1..30), the kiosk shows a large grid of 1..30 ("Elija 5 números"); the player taps five numbers
 * for one card and takes a second at random ("Al azar"), pays with a voucher, and the cards sold hold exactly those
 * numbers. A card whose numbers were sold meanwhile (BNG-13) is refused in words, nothing charged.
 * Screenshots in test-output/screenshots/kiosk-chosen-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { PASSWORD, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { chosenNumbersHall } from '../helpers/chosen-hall.ts'

browserSuite('the kiosk sells a fast bingo card of the numbers the player taps (BNG-98)', () => {
  let s: RulesServer
  let browser: Browser
  let hallId = ''
  let gameId = ''
  let kioskCredential = ''
  let counter: Till

  beforeAll(async () => {
    ensureBuilt(['kiosk'], ['kiosk/src/kiosk', 'kiosk/kiosk', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    s = await startRulesServer('2026-11-27T18:00:00Z')
    ;({ hallId, gameId } = await chosenNumbersHall(s, {
      code: 'K',
      name: 'Sala Rápida',
      hallSeed: 'kiosk-chosen',
      setSeed: 'kiosk-chosen-set',
      onSale: true,
    }))
    kioskCredential = (
      await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    ).credential
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await s?.server.cleanup()
  })

  const rowsOf = async (serial: string) =>
    ((await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>)
      .flat()
      .filter((n): n is number => typeof n === 'number' && n > 0)

  it('the player taps five numbers, takes a second card at random, pays, and the cards hold those numbers', async () => {
    const voucher = await sellVoucher(s.server.url, hallId, 2_000, {}, counter.headers)
    const page = await pageOnClock(browser, s.server.services.clock, { width: 1366, height: 768 })
    await page.goto(`${s.server.url}/kiosk/?hall=${hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.getByTestId('kiosk-chosen').waitFor()
    expect(await page.getByTestId('kiosk-chosen-title').textContent()).toBe('Elija 5 números')
    expect(await page.locator('[data-testid^="kiosk-pick-"]').count()).toBe(30)
    expect(await page.getByTestId('kiosk-chosen-count').textContent()).toBe('Elegidos: 0 de 5')
    // Numbers of the first band (no printed fast card holds two of them); one tapped again is taken back.
    for (const n of [4, 1, 6, 5]) await page.getByTestId(`kiosk-pick-${n}`).click()
    await page.getByTestId('kiosk-pick-6').click()
    expect(await page.getByTestId('kiosk-chosen-count').textContent()).toBe('Elegidos: 3 de 5')
    await page.getByTestId('kiosk-pick-3').click()
    expect(await page.getByTestId('kiosk-chosen-count').textContent()).toBe('Elegidos: 4 de 5')
    expect(await page.getByTestId('kiosk-pick-3').getAttribute('aria-pressed')).toBe('true')
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-picking.png') })
    await page.getByTestId('kiosk-pick-2').click()
    await expect.poll(() => page.getByTestId('kiosk-chosen-cards').innerText()).toContain('Cartón 1: 01 02 03 04 05')
    expect(await page.getByTestId('kiosk-chosen-count').textContent()).toBe('Elegidos: 0 de 5')
    await page.getByTestId('kiosk-chosen-random').click()
    await expect.poll(() => page.locator('[data-testid="kiosk-chosen-cards"] li').count()).toBe(2)
    expect(await page.getByTestId('tab-cards-count').textContent()).toBe('2')
    await page.getByTestId('kiosk-voucher-code').fill(voucher.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => page.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s20,00/)
    await page.getByTestId('kiosk-age-yes').click()
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-basket.png') })
    const second = (await page.getByTestId('kiosk-chosen-cards').innerText())
      .split('\n')
      .find((l) => l.startsWith('Cartón 2: '))!
      .slice('Cartón 2: '.length, 'Cartón 2: '.length + 14)
      .split(' ')
      .map(Number)
    expect(new Set(second).size).toBe(5)
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/kiosk/purchases'))
    await page.getByTestId('kiosk-confirm').click()
    const bought = await (await answer).json()
    expect(bought.cards.map((c: { serial: string }) => c.serial)).toEqual(['K-00001', 'K-00002'])
    expect(await rowsOf('K-00001')).toEqual([1, 2, 3, 4, 5])
    expect(await rowsOf('K-00002')).toEqual(second)
    // BNG-98: the card drawn on the receipt screen is its five numbers, in order, big: no cell per number of 1..30.
    const grid = page.locator('[data-testid="kiosk-card"][data-serial="K-00001"] [data-testid="kiosk-card-grid"]')
    expect((await grid.locator('td').allTextContents()).map((t) => t.trim())).toEqual(['1', '2', '3', '4', '5'])
    expect(await grid.getAttribute('class')).toContain('card-grid--numbers')
    const cell = await grid.locator('td').first().boundingBox()
    expect(cell!.height).toBeGreaterThanOrEqual(40)
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-done.png') })
    await page.close()
  })

  it('numbers sold meanwhile at the counter are refused in words, and the voucher keeps its credit', async () => {
    const voucher = await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers)
    const page = await pageOnClock(browser, s.server.services.clock, { width: 1366, height: 768 })
    await page.goto(`${s.server.url}/kiosk/?hall=${hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.getByTestId('kiosk-chosen').waitFor()
    for (const n of [26, 27, 28, 29, 30]) await page.getByTestId(`kiosk-pick-${n}`).click()
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 1, picks: [[26, 27, 28, 29, 30]] },
      counter.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await page.getByTestId('kiosk-voucher-code').fill(voucher.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => page.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s10,00/)
    await page.getByTestId('kiosk-age-yes').click()
    await page.getByTestId('kiosk-confirm').click()
    await expect.poll(() => page.locator('body').innerText()).toContain('Esos números ya están en otro cartón')
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-taken.png') })
    const check = await api(s.server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, counter.headers)
    expect(check.body).toMatchObject({ status: 'active', amountCents: 1_000 })
    await page.close()
  })

  it('90 numbers fit the kiosk at 1366x768 without scrolling; "Al azar" with no card left says so in Spanish', async () => {
    const wide = await chosenNumbersHall(s, { code: 'N', universe: 90, onSale: true })
    const narrow = await chosenNumbersHall(s, { code: 'S', universe: 7, count: 4, onSale: true })
    const at = async (hall: string) => {
      const kiosk = await s.server.services.auth.enrolDevice({
        ...sealed(),
        kind: 'kiosk',
        name: 'Kiosco 2',
        hallId: hall,
      })
      const page = await pageOnClock(browser, s.server.services.clock, { width: 1366, height: 768 })
      await page.goto(`${s.server.url}/kiosk/?hall=${hall}&device=${encodeURIComponent(kiosk.credential)}`)
      await page.getByTestId('kiosk-chosen').waitFor()
      return page
    }
    const page = await at(wide.hallId)
    expect(await page.locator('[data-testid^="kiosk-pick-"]').count()).toBe(90)
    // The last number is on screen as the page opens: nothing to scroll to reach it.
    const last = (await page.getByTestId('kiosk-pick-90').boundingBox())!
    expect(last.y + last.height).toBeLessThanOrEqual(768)
    expect(last.height).toBeGreaterThanOrEqual(36)
    // The grid stays in its column: the row's last number left of the buttons beside it.
    const rowEnd = (await page.getByTestId('kiosk-pick-18').boundingBox())!
    expect(rowEnd.x + rowEnd.width).toBeLessThanOrEqual(
      (await page.getByTestId('kiosk-chosen-random').boundingBox())!.x,
    )
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight)).toBeLessThanOrEqual(768)
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-90.png') })
    await page.close()

    // 5 of 1..7 with 1, 2, 3 and 4 tapped: three cards only (…5, …6, …7); the fourth "Al azar" has none left.
    const small = await at(narrow.hallId)
    for (let card = 0; card < 3; card++) {
      for (const n of [1, 2, 3, 4]) await small.getByTestId(`kiosk-pick-${n}`).click()
      await small.getByTestId('kiosk-chosen-random').click()
      await expect.poll(() => small.locator('[data-testid="kiosk-chosen-cards"] li').count()).toBe(card + 1)
    }
    expect(await small.getByTestId('kiosk-chosen-none').count()).toBe(0)
    for (const n of [1, 2, 3, 4]) await small.getByTestId(`kiosk-pick-${n}`).click()
    await small.getByTestId('kiosk-chosen-random').click()
    await expect
      .poll(() => small.getByTestId('kiosk-chosen-none').textContent())
      .toBe(
        'No quedan combinaciones libres con estos números: todas ya están en sus cartones. Toque otros números o quite un cartón.',
      )
    // Three cards in the basket; the fourth, 01 02 03 04, still being chosen.
    expect(await small.getByTestId('tab-cards-count').textContent()).toBe('3')
    expect(screenLeaks(await small.evaluate(() => document.body.innerText))).toEqual([])
    await small.screenshot({ path: join(SCREENSHOTS, 'kiosk-chosen-none-left.png') })
    await small.close()
  })
})
