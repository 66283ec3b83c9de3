/**
 * GEN-21 (2) in real Chromium, authentication on, enrolled kiosks: the player opens "Reglas del juego" at the kiosk
 * and reads the game's characteristics as the server knows them: the card's price and the line and bingo prizes of
 * the game on sale (two halls with different prices show each its own; after a sale the prizes show the amounts
 * reached), how to win, claim and collect, the age rule, the complaints book, and the lotto draw's bets, prize table
 * and date in the hall's zone; no internal id or code shows. The panel closes and a purchase still goes through.
 * Screenshots at 1366 x 768 and 1080 x 1920 in test-output/screenshots/kiosk-help-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { hallWithGameOnSale, sellVoucher, type HallSetup } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { plan649, registerLottoBallSets, registerTombola } from '../helpers/lottery-plans.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'
const text = async (page: Page, id: string) => ((await page.getByTestId(id).innerText()) ?? '').replace(/\s+/g, ' ')

browserSuite('the rules of the game at the kiosk (GEN-21)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let illimani: HallSetup
  let alto: HallSetup
  const credential: Record<string, string> = {}
  let voucher = { code: '', shortCode: '' }
  // The lotto draw is on sale on 2 March 2026 (10:00 in La Paz), drawn at 20:00.
  const started = Date.now()
  const clock = { now: () => new Date(Date.parse('2026-03-02T10:00:00-04:00') + (Date.now() - started)) }

  beforeAll(async () => {
    ensureBuilt(['kiosk'], ['kiosk/src/kiosk', 'kiosk/kiosk', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth } = server.services
    illimani = await hallWithGameOnSale(server.services, { name: 'Sala Illimani', faceValueCents: 500 })
    alto = await hallWithGameOnSale(server.services, { name: 'Sala El Alto', faceValueCents: 800 })
    for (const h of [illimani, alto])
      credential[h.hallId] = (
        await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: h.hallId })
      ).credential
    await auth.createUser({
      username: 'rosa',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [illimani.hallId],
    })
    const till = await openTill(server.url, server.services, {
      hallId: illimani.hallId,
      username: 'rosa',
      password: PASSWORD,
    })
    const v = await sellVoucher(server.url, illimani.hallId, 5_000, { stationId: till.station.id }, till.headers)
    voucher = { code: v.code, shortCode: v.shortCode }
    await registerLottoBallSets(server.services)
    await server.services.lotto.createDraw(
      plan649({
        gameCode: 'LOTOAYUDA',
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services, 'AJ-T-0003'),
        salesStartAt: '2026-03-01T08:00:00-04:00',
        salesCloseAt: '2026-03-02T19:00:00-04:00',
        drawAt: '2026-03-02T20:00:00-04:00',
        claimDeadline: '2026-05-01T23:59:59-04:00',
      }),
    )
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  const open = async (setup: HallSetup, viewport: { width: number; height: number }) => {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(credential[setup.hallId])}`)
    await page.getByTestId('kiosk-cards').waitFor()
    return page
  }

  it('shows the price and prizes of each hall’s game, the lotto draw’s rules, closes, and a purchase still works', async () => {
    const page = await open(illimani, { width: 1366, height: 768 })
    await page.getByTestId('kiosk-help').click()
    await page.getByTestId('kiosk-help-panel').waitFor()
    expect(await text(page, 'help-card-price')).toBe('Bs 5,00')
    // No card sold yet: the prizes are told as their shares of the sales (the hall's betting plan: 10 % and 51 %).
    expect(await text(page, 'help-prize-line')).toBe('Línea: 10 % de lo vendido en la partida')
    expect(await text(page, 'help-prize-bingo')).toBe('Bingo: 51 % de lo vendido en la partida')
    const bingo = await text(page, 'help-bingo')
    for (const said of ['¡Línea!', '¡Bingo!', 'antes de que salga la siguiente bola', 'en la caja de la sala'])
      expect(bingo).toContain(said)
    expect(await text(page, 'help-age')).toContain('menores de 18 años')
    expect(await text(page, 'help-complaints')).toContain('Libro de reclamos')
    // The lotto draw: bet type, price per bet, prize table, and its date and time in the hall's zone (La Paz).
    const lotto = await text(page, 'help-lotto')
    for (const said of ['marque 6 números del 1 al 49', 'Premio Mayor', '60 % del fondo de premios', 'Reintegro'])
      expect(lotto).toContain(said)
    expect(await text(page, 'help-board-price')).toBe('Bs 5,00')
    expect(await text(page, 'help-draw-at')).toMatch(/2 de marzo de 2026.*20:00/)
    expect(await text(page, 'help-prize-table')).toContain('Bs 10,00')
    const panel = await page.getByTestId('kiosk-help-panel').innerText()
    expect(screenLeaks(panel)).toEqual([])
    expect(panel).not.toContain(illimani.gameId)
    expect(panel).not.toContain('LOTOAYUDA')
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-help-es-1366.png') })
    // English second.
    await page.getByTestId('help-lang-en').click()
    expect(await text(page, 'help-prize-line')).toBe('Line: 10 % of the game’s sales')
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-help-en-1366.png') })
    await page.getByTestId('help-lang-es').click()

    // Closed, the sale is as it was, and the player buys two cards.
    await page.getByTestId('kiosk-help-close').click()
    expect(await page.getByTestId('kiosk-help-panel').count()).toBe(0)
    await page.getByTestId('kiosk-voucher-code').fill(voucher.shortCode)
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => page.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s50,00/)
    await page.getByTestId('kiosk-cards-plus').click()
    await page.getByTestId('kiosk-cards-plus').click()
    await page.getByTestId('kiosk-age-yes').click()
    await page.getByTestId('kiosk-confirm').click()
    await page.getByTestId('kiosk-done').waitFor()
    await page.getByTestId('kiosk-finish').click()
    await page.getByTestId('kiosk-cards').waitFor()

    // The prizes now reached with 2 cards x Bs 5: line Bs 1,00, bingo Bs 5,10, as the server counts them.
    await page.getByTestId('kiosk-help').click()
    await expect.poll(() => text(page, 'help-prize-line')).toContain('hoy Bs 1,00')
    expect(await text(page, 'help-prize-bingo')).toContain('hoy Bs 5,10')
    await page.getByTestId('kiosk-help-close').click()
    await page.close()

    // Another hall's kiosk, its game at another price: the panel says that one.
    const other = await open(alto, { width: 1080, height: 1920 })
    await other.getByTestId('kiosk-help').click()
    expect(await text(other, 'help-card-price')).toBe('Bs 8,00')
    await other.screenshot({ path: join(SCREENSHOTS, 'kiosk-help-es-1080x1920.png') })
    await other.getByTestId('kiosk-help-close').click()
    await other.close()
  })
})
