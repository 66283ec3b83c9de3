/**
 * Issue 29 in a real Chromium, authentication on, a cashier logged in at an enrolled station: a player names a card
 * by its serial ("el 41 de la partida 1"); the cashier chooses the game, types the number as heard and sees the
 * card's state (GANADOR, what it won) but no way to pay it from there; the serial alone never pays (BNG-71). She then
 * types the code printed under the card's QR, as a person types it: the code of another card is said to be of
 * another card; the right one pays once. Found by serial again, the card says YA PAGADO, where and by whom, in names.
 * A serial the game never sold says so in the screen's language. Spanish and English, at 1366x768 and 1920x1080;
 * the camera button is drawn as the screen's other buttons, and nothing on the pay screen is cut at 1366x768.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'
import {
  CASHIER_PASSWORD,
  cashierClock,
  cashierHall,
  loginAtCashier,
  norm,
  printedCodes,
  RECORD_IDS as IDS,
} from '../helpers/cashier-hall.ts'
import { countOf } from '../helpers/cash.ts'

const PASSWORD = CASHIER_PASSWORD
const clock = cashierClock()
/** The card number as a caller says it: "A-00041" -> "41". */
const heard = (serial: string) => String(Number(serial.split('-')[1]))

browserSuite('a card found by its serial within a game at the cashier (issue 29)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let till: Till
  const printed = new Map<string, string>()
  let winners: Array<{ serial: string; code: string }> = []
  let annulled = ''
  let voidCards: Array<{ serial: string; code: string }> = []

  async function atCashier(viewport: { width: number; height: number }, lang: 'es' | 'en'): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await loginAtCashier(page, server.url, { hallId, till })
    if (lang === 'en') await page.getByTestId('lang-en').click()
    await page.getByTestId('cashier-lookup-game').waitFor()
    return page
  }
  /** The serial as heard, typed key by key into the lookup, then Enter. */
  async function findBySerial(page: Page, typed: string): Promise<void> {
    await page.getByTestId('cashier-lookup-serial').click()
    await page.getByTestId('cashier-lookup-serial').fill('')
    await page.keyboard.type(typed)
    await page.keyboard.press('Enter')
  }
  /** The code printed under the QR, typed as a person does: lower case, spaces for the dashes. */
  async function typeCode(page: Page, code: string): Promise<void> {
    await page.getByTestId('cashier-code').click()
    await page.getByTestId('cashier-code').fill('')
    await page.keyboard.type(code.toLowerCase().replace(/-/g, ' '))
    await page.keyboard.press('Enter')
  }
  const statusOf = (page: Page) => page.getByTestId('cashier-status').getAttribute('data-status')
  const paidFor = async (serial: string) =>
    Number(
      (await server.services.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM payouts p JOIN cards c ON c.id = p.card_id WHERE c.serial = ?',
        [serial],
      ))!.n,
    )
  /** Every element of the pay screen whose text or placeholder is wider than its box (cut). */
  const cutOff = (page: Page) =>
    page.evaluate(() => {
      const out: string[] = []
      const ctx = document.createElement('canvas').getContext('2d')!
      for (const el of Array.from(
        document.querySelectorAll<HTMLElement>('.c-main input, .c-main button, .c-main select'),
      )) {
        if (el.offsetParent === null) continue
        const style = getComputedStyle(el)
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const text =
          el instanceof HTMLInputElement
            ? el.value || el.placeholder
            : el instanceof HTMLSelectElement
              ? (el.selectedOptions[0]?.text ?? '')
              : (el.textContent ?? '')
        const inner =
          el.clientWidth -
          parseFloat(style.paddingLeft) -
          parseFloat(style.paddingRight) -
          (el instanceof HTMLSelectElement ? 20 : 0)
        if (ctx.measureText(text.trim()).width > inner + 1 || el.scrollWidth > el.clientWidth + 1)
          out.push(`${el.dataset.testid ?? el.tagName}: ${text.trim()}`)
      }
      const doc = document.documentElement
      if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page: ${doc.scrollWidth} > ${doc.clientWidth}`)
      return out
    })
  /** The camera button looks like the check button beside it (the screen's own button), not a browser default. */
  async function cameraLooksLikeAButton(page: Page): Promise<void> {
    const styleOf = (id: string) =>
      page.getByTestId(id).evaluate((el) => {
        const s = getComputedStyle(el)
        return {
          radius: s.borderTopLeftRadius,
          weight: s.fontWeight,
          family: s.fontFamily,
          height: (el as HTMLElement).offsetHeight,
        }
      })
    const camera = await styleOf('camera-toggle')
    const check = await styleOf('cashier-check')
    expect(camera.radius).toBe(check.radius)
    expect(camera.weight).toBe(check.weight)
    expect(camera.family).toBe(check.family)
    expect(Math.abs(camera.height - check.height)).toBeLessThanOrEqual(4)
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web', 'printer', 'server/src/cashdesk'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const hall = await cashierHall(server)
    const { setup, sold } = hall
    ;({ hallId, till } = hall)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    // The papers the file printer wrote: each card's serial, then the code printed under its QR.
    for (const [serial, code] of printedCodes(server)) printed.set(serial, code)
    expect(printed.size).toBe(30)
    await playToTheEnd(server.services, setup.gameId)
    winners = await winningCodes(server.services, setup.gameId)
    expect(winners.length).toBeGreaterThan(0)
    // Game 2: two cards sold at this desk, then annulled after its first ball; one is refunded here by its QR.
    for (const [username, displayName, role] of [
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['elena', 'Elena Ríos', 'director'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD, halls: [hallId] })
    annulled = await nextGameOnSale(server.services, setup)
    const sold2 = await api(
      server.url,
      'POST',
      `/api/games/${annulled}/sales`,
      { count: 2, ageConfirmed: true, cash: countOf(1000) },
      till.headers,
    )
    expect(sold2.status, JSON.stringify(sold2.body)).toBe(201)
    voidCards = sold2.body.cards
    await server.services.bingo.sell({ gameId: annulled, count: 10, channel: 'counter' })
    await server.services.bingo.closeSales({ gameId: annulled })
    await server.services.bingo.drawNext(annulled)
    const annul = await api(
      server.url,
      'POST',
      `/api/games/${annulled}/incidents`,
      {
        kind: 'ball-irregularity',
        note: 'bola 12 deformada',
        reason: 'La bola 12 está deformada',
        confirm: { username: 'elena', password: PASSWORD },
      },
      { authorization: `Bearer ${(await server.services.auth.login('marta', PASSWORD)).token}` },
    )
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    const refunded = await api(
      server.url,
      'POST',
      '/api/refunds/cards',
      { code: voidCards[1].code, to: 'cash' },
      till.headers,
    )
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'Spanish, 1366x768: "41" in the game shows GANADOR and no pay button; another card\'s code is refused as another card; its own code pays once',
    { timeout: 90_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 }, 'es')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-idle-es-1366x768.png') })
      expect(await cutOff(page)).toEqual([])
      await cameraLooksLikeAButton(page)
      // The newest game is chosen first; the cashier picks the game the player names.
      expect(norm(await page.getByTestId('cashier-lookup-game').locator('option').first().textContent())).toBe(
        'Partida N.º 2 · Sesión N.º 1 · anulada',
      )
      await page.getByTestId('cashier-lookup-game').selectOption({ label: 'Partida N.º 1 · Sesión N.º 1 · terminada' })
      const card = winners[0]
      await findBySerial(page, heard(card.serial))
      await expect.poll(() => statusOf(page)).toBe('winner')
      expect(norm(await page.getByTestId('cashier-serial').textContent())).toContain(card.serial)
      expect(norm(await page.getByTestId('cashier-lookup-found').textContent())).toContain(
        `Cartón ${card.serial} de la partida N.º 1, buscado por su serie.`,
      )
      expect(norm(await page.getByTestId('cashier-lookup-to-pay').textContent())).toContain(
        'teclee el código impreso debajo del QR (empieza por C)',
      )
      expect(norm(await page.getByTestId('cashier-prizes').textContent())).toMatch(/Bingo|Línea/i)
      // No way to pay, refund or hold it from the serial (BNG-71).
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      expect(await page.getByTestId('cashier-tamper').count()).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-winner-es-1366x768.png') })
      expect(await cutOff(page)).toEqual([])

      // The player hands over another card: its printed code is of another card, said so; nothing paid.
      const other = [...printed.keys()].find((s) => s !== card.serial)!
      await typeCode(page, printed.get(other)!)
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-lookup-mismatch').textContent()))
        .toContain(`Este código no es del cartón buscado (${card.serial}, partida N.º 1)`)
      expect(await paidFor(card.serial)).toBe(0)

      // The right card: its code typed, PAGAR pays it once.
      await page.getByTestId('cashier-clear').click()
      await findBySerial(page, card.serial)
      await expect.poll(() => statusOf(page)).toBe('winner')
      await typeCode(page, printed.get(card.serial)!)
      await expect.poll(() => statusOf(page)).toBe('winner')
      expect(await page.getByTestId('cashier-lookup-mismatch').count()).toBe(0)
      await page.getByTestId('cashier-pay').click()
      await expect.poll(() => statusOf(page)).toBe('done')
      expect(await paidFor(card.serial)).toBe(1)

      // Found by serial again: YA PAGADO, at which station and by whom.
      await page.getByTestId('cashier-next').click()
      await findBySerial(page, `a ${heard(card.serial)}`)
      await expect.poll(() => statusOf(page)).toBe('paid')
      expect(norm(await page.getByTestId('cashier-status').textContent())).toContain('Caja 1 · Rosa Vargas')
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      expect(await page.getByTestId('cashier-lookup-to-pay').count()).toBe(0)

      // A number the game never sold.
      await findBySerial(page, '399')
      await expect
        .poll(async () => norm(await page.getByTestId('cashier-error').textContent()))
        .toMatch(/cart[oó]n|c[oó]digo/i)
      expect(await page.getByTestId('cashier-error').getAttribute('data-code')).toBe('TICKET_NOT_FOUND')
      const body = norm(await page.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      expect(screenLeaks(body)).toEqual([])
      await page.close()
    },
  )

  it(
    'English, 1366x768: nothing cut on the pay screen, the camera button like the others',
    { timeout: 60_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 }, 'en')
      expect(norm(await page.getByTestId('cashier-lookup').textContent())).toContain('Find a card by its serial')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-idle-en-1366x768.png') })
      expect(await cutOff(page)).toEqual([])
      await cameraLooksLikeAButton(page)
      await page.close()
    },
  )

  it(
    'English and Spanish, 1920x1080: a card that won nothing found by serial says so, with nothing to pay; the paid one says where',
    { timeout: 90_000 },
    async () => {
      const loser = [...printed.keys()].find((s) => !winners.some((w) => w.serial === s))!
      const page = await atCashier({ width: 1920, height: 1080 }, 'en')
      expect(await cutOff(page)).toEqual([])
      await cameraLooksLikeAButton(page)
      await page.getByTestId('cashier-lookup-game').selectOption({ label: 'Game no. 1 · Session no. 1 · finished' })
      await findBySerial(page, heard(loser))
      await expect.poll(() => statusOf(page)).toBe('not_winner')
      expect(norm(await page.getByTestId('cashier-status-title').textContent())).toBe('NO PRIZE')
      expect(norm(await page.getByTestId('cashier-lookup-found').textContent())).toBe(
        `Card ${loser} of game no. 1, found by its serial.`,
      )
      expect(await page.getByTestId('cashier-pay').count()).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-not-winner-en-1920x1080.png') })
      await findBySerial(page, '398')
      await expect.poll(async () => norm(await page.getByTestId('cashier-error').textContent())).not.toBe('')
      expect(norm(await page.getByTestId('cashier-error').textContent())).not.toMatch(/[áéíóúñ]/)
      await page.getByTestId('lang-es').click()
      await findBySerial(page, winners[0].serial)
      await expect.poll(() => statusOf(page)).toBe('paid')
      expect(norm(await page.getByTestId('cashier-status').textContent())).toContain('Caja 1 · Rosa Vargas')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-paid-es-1920x1080.png') })
      expect(await cutOff(page)).toEqual([])
      const body = norm(await page.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      expect(screenLeaks(body)).toEqual([])
      await page.close()
    },
  )

  it(
    'an annulled game: the card not refunded says ANULADO with its refund and no REEMBOLSAR here; the refunded one says when, where and by whom (es 1366x768, en 1920x1080)',
    { timeout: 90_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 }, 'es')
      await page.getByTestId('cashier-lookup-game').selectOption({ label: 'Partida N.º 2 · Sesión N.º 1 · anulada' })
      await findBySerial(page, heard(voidCards[0].serial))
      await expect.poll(() => statusOf(page)).toBe('void')
      expect(norm(await page.getByTestId('cashier-status-note').textContent())).toMatch(
        /^Partida anulada: se devuelve el importe íntegro del cartón \(Bs\.?\s?5,00\)$/,
      )
      // BNG-71 / BNG-86: refunded against the card handed in, never against its serial.
      expect(await page.getByTestId('cashier-refund').count()).toBe(0)
      expect(norm(await page.getByTestId('cashier-lookup-to-pay').textContent())).toContain('ni reembolsa')
      await page.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-void-es-1366x768.png') })
      expect(await cutOff(page)).toEqual([])
      await findBySerial(page, voidCards[1].serial)
      await expect.poll(() => statusOf(page)).toBe('void_refunded')
      expect(norm(await page.getByTestId('cashier-status-note').textContent())).toMatch(
        /^Reembolsado el 14\/03\/2026 18:\d\d en Caja 1 por Rosa Vargas$/,
      )
      expect(await page.getByTestId('cashier-lookup-to-pay').count()).toBe(0)
      await page.close()

      const en = await atCashier({ width: 1920, height: 1080 }, 'en')
      await en.getByTestId('cashier-lookup-game').selectOption({ label: 'Game no. 2 · Session no. 1 · annulled' })
      await findBySerial(en, voidCards[1].serial)
      await expect.poll(() => statusOf(en)).toBe('void_refunded')
      expect(norm(await en.getByTestId('cashier-status-title').textContent())).toBe('ALREADY REFUNDED')
      expect(norm(await en.getByTestId('cashier-status-note').textContent())).toMatch(
        /^Refunded on 14\/03\/2026 18:\d\d at Caja 1 by Rosa Vargas$/,
      )
      await en.screenshot({ path: join(SCREENSHOTS, 'cashier-lookup-void-refunded-en-1920x1080.png') })
      const body = norm(await en.locator('body').textContent())
      expect(body.match(IDS) ?? []).toEqual([])
      await en.close()
    },
  )
})
