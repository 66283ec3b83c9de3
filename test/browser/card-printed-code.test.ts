/**
 * Issue 29 point 4 in a real Chromium, authentication on, enrolled devices and real people: the 20-character code
 * printed under a card's QR, read off the printed paper and typed as a person types it (lower case, spaces or dashes
 * between the groups), where the QR cannot be read:
 * - at the kiosk, a card of an annulled game bought there is refunded onto a new voucher by its printed code; a code
 *   with one letter wrong is "not found, check what you typed", never a card "not valid" or a forgery;
 * - at the table's pay box in the caller console, a winning card's prize is paid by its printed code; a mistyped one
 *   is refused as a code no card has (never "forged", nothing paid).
 * Spanish at 1366x768, English at 1920x1080.
 */
import { sealed } from '../helpers/device-marks.ts'
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPrintFile } from '../../printer/src/printers.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, winningCodes, type HallSetup } from '../helpers/cashdesk.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T22:10:00Z') + (Date.now() - started)) }
const IDS = /\b(?:dev|u|po|c|cs|v|rf|ses|sh|hall|g)_[a-z0-9]{6,}/gi
const PRINTED = /^C[A-Z0-9]{3}(?:-[A-Z0-9]{4}){4}$/
const FORGED = /falso|falsificad|alterad|forged|forgery|altered|NO VÁLIDO|not valid/i
/** One letter of the code changed: what a person mistypes. */
const mistyped = (code: string) => code.slice(0, -1) + (code.endsWith('Z') ? 'Y' : 'Z')

browserSuite("a card's printed code typed at the kiosk's refund and at the table's pay box (issue 29 point 4)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let setup: HallSetup
  let mesa: Till
  let kiosk: { id: string; credential: string }
  let kioskCards: Array<{ serial: string; code: string }> = []
  let winners: Array<{ serial: string; code: string }> = []
  /** serial of a game -> the code printed under that card's QR (read off every paper the file printer wrote). */
  const printed = new Map<string, string>()

  function readPapers(): void {
    const dir = join(server.dataDir, 'prints')
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.escpos.sealed'))) {
      let serial = ''
      let game = ''
      for (const line of decodeEscPos(openPrintFile(server.services.sealer, join(dir, f))).lines.map((l) => l.trim())) {
        const g = /Partida N\.º\s*(\d+)/.exec(line)
        if (g) game = g[1]
        if (/^[A-Z]-\d{5}$/.test(line)) serial = line
        else if (PRINTED.test(line) && serial) printed.set(`${game}:${serial}`, line)
      }
    }
  }
  /** Typed key by key into the field, as a person reads it off the paper, then Enter. */
  async function typeInto(page: Page, field: string, text: string): Promise<void> {
    await page.getByTestId(field).click()
    await page.getByTestId(field).fill('')
    await page.keyboard.type(text)
    await page.keyboard.press('Enter')
  }
  const textOf = async (page: Page, id: string) => norm(await page.getByTestId(id).first().textContent())
  const noIds = async (page: Page) => {
    const body = norm(await page.locator('body').textContent())
    expect(body.match(IDS) ?? []).toEqual([])
    expect(screenLeaks(body)).toEqual([])
  }
  const count = async (sql: string, params: unknown[]) =>
    Number((await server.services.db.get<{ n: number }>(sql, params))!.n)
  const vouchersOfRefunds = () => count("SELECT COUNT(*) AS n FROM refunds WHERE method = 'voucher'", [])
  const payoutsOf = (serial: string, gameId: string) =>
    count(
      'SELECT COUNT(*) AS n FROM prizes p JOIN cards c ON c.id = p.card_id WHERE c.serial = ? AND c.game_id = ? AND p.status = ?',
      [serial, gameId, 'paid'],
    )
  async function atKiosk(viewport: { width: number; height: number }, lang: 'es' | 'en'): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(
      `${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk.credential)}&lang=${lang}`,
    )
    await page.getByTestId('kiosk-voucher-code').waitFor()
    return page
  }
  async function atTable(viewport: { width: number; height: number }, lang: 'es' | 'en'): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(
      `${server.url}/caller/?hall=${setup.hallId}&lang=${lang}&device=${encodeURIComponent(mesa.station.credential)}`,
    )
    await page.getByTestId('login').waitFor()
    await page.getByTestId('login-user').fill('marta')
    await page.getByTestId('login-password').fill(PASSWORD)
    await page.getByTestId('login-submit').click()
    await page.getByTestId('caller-role').waitFor()
    await page.getByTestId('prizes').waitFor()
    return page
  }
  /** Chooses the prize of `serial`, types its code in the pay box, and confirms if asked. */
  async function payAtTable(page: Page, serial: string, typed: string): Promise<void> {
    await page.locator(`[data-testid="prize"][data-serial="${serial}"] [data-testid="pay"]`).first().click()
    await page.getByTestId('pay-form').waitFor()
    await typeInto(page, 'pay-code', typed)
    const dialog = page.getByTestId('confirm-dialog')
    await dialog.waitFor({ timeout: 3000 }).catch(() => undefined)
    if (await dialog.count()) await page.getByTestId('confirm-ok').click()
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['kiosk', 'caller'], ['kiosk', 'display', 'web', 'printer', 'server/src/cashdesk'])
    server = await startTestServer({ auth: 'on' }, { clock })
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 1000, name: 'Sala Illimani' })
    const { auth } = server.services
    for (const [username, displayName, role] of [
      ['rosa', 'Rosa Vargas', 'cashier'],
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['elena', 'Elena Ríos', 'director'],
    ] as const)
      await auth.createUser({ username, displayName, role, password: PASSWORD, halls: [setup.hallId] })
    const caja = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'rosa',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 50_000,
    })
    mesa = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'marta',
      password: PASSWORD,
      stationName: 'Mesa 1',
      floatCents: 50_000,
    })
    kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })
    // Game 1: two cards bought at the kiosk with a voucher, then the game is annulled after its first ball.
    const v = await api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: setup.hallId, amountCents: 3000, cash: countOf(3000) },
      caja.headers,
    )
    expect(v.status, JSON.stringify(v.body)).toBe(201)
    const bought = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: v.body.voucher.code, gameId: setup.gameId, count: 2, kioskId: 'k', ageConfirmed: true },
      { authorization: `Device ${kiosk.credential}` },
    )
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    kioskCards = bought.body.cards
    await server.services.bingo.sell({ gameId: setup.gameId, count: 10, channel: 'counter' })
    await server.services.bingo.closeSales({ gameId: setup.gameId })
    await server.services.bingo.drawNext(setup.gameId)
    const marta = (await auth.login('marta', PASSWORD)).token
    const annul = await api(
      server.url,
      'POST',
      `/api/games/${setup.gameId}/incidents`,
      {
        kind: 'ball-irregularity',
        note: 'bola 12 deformada',
        reason: 'La bola 12 está deformada',
        confirm: { username: 'elena', password: PASSWORD },
      },
      { authorization: `Bearer ${marta}` },
    )
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    // Game 2: 30 cards sold at the table (Mesa 1), played to its end.
    const game2 = await nextGameOnSale(server.services, setup)
    const sold = await api(
      server.url,
      'POST',
      `/api/games/${game2}/sales`,
      { ageConfirmed: true, count: 30, cash: countOf(30_000) },
      mesa.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await playToTheEnd(server.services, game2)
    winners = await winningCodes(server.services, game2)
    expect(winners.length).toBeGreaterThan(0)
    readPapers()
    for (const c of kioskCards) expect(printed.get(`1:${c.serial}`)).toMatch(PRINTED)
    for (const w of winners) expect(printed.get(`2:${w.serial}`)).toMatch(PRINTED)
    browser = await launchChromium()
  }, 150_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'kiosk, Spanish, 1366x768: the printed code typed with spaces finds the annulled card and refunds it onto a voucher; one letter wrong is "not found", never "not valid"',
    { timeout: 90_000 },
    async () => {
      const page = await atKiosk({ width: 1366, height: 768 }, 'es')
      const card = kioskCards[0]
      const code = printed.get(`1:${card.serial}`)!
      const before = await vouchersOfRefunds()
      await typeInto(page, 'kiosk-voucher-code', mistyped(code).toLowerCase().replace(/-/g, ' '))
      await page.getByTestId('kiosk-refund-refused').waitFor({ timeout: 10_000 })
      expect(await page.getByTestId('kiosk-refund-refused').getAttribute('data-refusal')).toBe('unknown_code')
      expect(await textOf(page, 'kiosk-refund-title')).toBe('Código no encontrado')
      expect(await textOf(page, 'kiosk-refund-text')).toContain('Revise lo que escribió')
      expect(norm(await page.getByTestId('kiosk-refund-refused').textContent())).not.toMatch(FORGED)
      await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-printed-code-unknown-es-1366x768.png') })
      await page.getByTestId('kiosk-back').click()
      // As printed, with its dashes: the refund of the annulled card, confirmed, onto a voucher.
      await typeInto(page, 'kiosk-voucher-code', code.toLowerCase())
      await page.getByTestId('kiosk-refund').waitFor({ timeout: 10_000 })
      expect(await textOf(page, 'kiosk-refund-text')).toContain(`El cartón ${card.serial} es de la partida N.º 1`)
      await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-printed-code-refund-es-1366x768.png') })
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refunded').waitFor()
      expect(await textOf(page, 'kiosk-refunded-title')).toMatch(/^Retire su vale de Bs\.?\s?10,00$/)
      expect(await vouchersOfRefunds()).toBe(before + 1)
      await noIds(page)
      await page.close()
    },
  )

  it(
    'kiosk, English, 1920x1080: the code typed with spaces refunds the other card; typed again it was refunded',
    { timeout: 90_000 },
    async () => {
      const page = await atKiosk({ width: 1920, height: 1080 }, 'en')
      const card = kioskCards[1]
      const code = printed.get(`1:${card.serial}`)!
      await typeInto(page, 'kiosk-voucher-code', mistyped(code).replace(/-/g, ' '))
      await page.getByTestId('kiosk-refund-refused').waitFor({ timeout: 10_000 })
      expect(await textOf(page, 'kiosk-refund-title')).toBe('Code not found')
      expect(norm(await page.getByTestId('kiosk-refund-refused').textContent())).not.toMatch(FORGED)
      await page.getByTestId('kiosk-back').click()
      await typeInto(page, 'kiosk-voucher-code', code.replace(/-/g, ' '))
      await page.getByTestId('kiosk-refund').waitFor({ timeout: 10_000 })
      expect(await textOf(page, 'kiosk-refund-text')).toContain(`Card ${card.serial} is of game no. 1`)
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refunded').waitFor()
      await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-printed-code-refunded-en-1920x1080.png') })
      await page.getByTestId('kiosk-finish').click()
      await typeInto(page, 'kiosk-voucher-code', code)
      await page.getByTestId('kiosk-refund-refused').waitFor({ timeout: 10_000 })
      expect(await page.getByTestId('kiosk-refund-refused').getAttribute('data-refusal')).toBe('already')
      await noIds(page)
      await page.close()
    },
  )

  it(
    "table, 1366x768: a card's QR misread by the scanner (its signed code with one character wrong) is said to be damaged or misread, with what to do, in Spanish and English; nothing is paid",
    { timeout: 90_000 },
    async () => {
      const card = winners[0]
      const gameId = (await server.services.db.get<{ game_id: string }>(
        'SELECT game_id FROM cards WHERE serial = ? AND game_id <> ? LIMIT 1',
        [card.serial, setup.gameId],
      ))!.game_id
      expect(card.code).toMatch(/^BLL1\.C\./)
      for (const lang of ['es', 'en'] as const) {
        const page = await atTable({ width: 1366, height: 768 }, lang)
        // A keyboard-wedge scanner types the QR's payload and Enter; one character came out wrong.
        await payAtTable(page, card.serial, mistyped(card.code))
        await page.getByTestId('error-banner').waitFor()
        const refusal = await textOf(page, 'error-message')
        if (lang === 'es') {
          expect(refusal).toBe(
            'No se pudo leer bien el código del cartón: el QR está dañado o el código se leyó o tecleó mal. Vuelva a escanearlo; si no se lee, teclee el código impreso bajo el QR (empieza por C).',
          )
          expect(refusal).not.toMatch(/no existe|firma no coincide/)
        } else {
          expect(refusal).toContain(
            "The card's code could not be read correctly: the QR is damaged or the code was misread",
          )
          expect(refusal).toContain('type the code printed under the QR (it starts with C)')
        }
        expect(refusal).not.toMatch(FORGED)
        expect(await payoutsOf(card.serial, gameId)).toBe(0)
        await noIds(page)
        await page.screenshot({ path: join(SCREENSHOTS, `table-misread-qr-${lang}-1366x768.png`) })
        await page.close()
      }
    },
  )

  it(
    "table, Spanish, 1366x768: a mistyped printed code is a code no card has, nothing paid; typed as printed it pays the card's prize",
    { timeout: 90_000 },
    async () => {
      const page = await atTable({ width: 1366, height: 768 }, 'es')
      const card = winners[0]
      const code = printed.get(`2:${card.serial}`)!
      const gameId = (await server.services.db.get<{ game_id: string }>(
        'SELECT game_id FROM cards WHERE serial = ? AND game_id <> ? LIMIT 1',
        [card.serial, setup.gameId],
      ))!.game_id
      await payAtTable(page, card.serial, mistyped(code).toLowerCase().replace(/-/g, ' '))
      await page.getByTestId('error-banner').waitFor()
      const refusal = await textOf(page, 'error-banner')
      expect(refusal).toContain('Ningún cartón tiene este código impreso: revise lo tecleado')
      expect(refusal).not.toMatch(FORGED)
      expect(await payoutsOf(card.serial, gameId)).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'table-printed-code-unknown-es-1366x768.png') })
      await page.getByTestId('pay-code').fill('')
      await payAtTable(page, card.serial, code.replace(/-/g, ' '))
      await expect
        .poll(() =>
          page.locator(`[data-testid="prize"][data-serial="${card.serial}"]`).first().getAttribute('data-status'),
        )
        .toBe('paid')
      expect(await payoutsOf(card.serial, gameId)).toBeGreaterThan(0)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'table-printed-code-paid-es-1366x768.png') })
      await page.close()
    },
  )

  it(
    'table, English, 1920x1080: the pay box says what to type, and a mistyped code is never "forged"',
    { timeout: 90_000 },
    async () => {
      const page = await atTable({ width: 1920, height: 1080 }, 'en')
      const card = winners.at(-1)!
      const code = printed.get(`2:${card.serial}`)!
      const row = page.locator(`[data-testid="prize"][data-serial="${card.serial}"]`).first()
      if ((await row.getAttribute('data-status')) === 'paid') {
        // Only one winning card, paid above: its code typed again is already paid, not unknown.
        expect(winners.length).toBe(1)
        await page.close()
        return
      }
      await row.locator('[data-testid="pay"]').click()
      expect(norm(await page.getByTestId('pay-form').textContent())).toContain(
        'the code printed under it (it starts with C)',
      )
      await typeInto(page, 'pay-code', mistyped(code))
      const dialog = page.getByTestId('confirm-dialog')
      await dialog.waitFor({ timeout: 3000 }).catch(() => undefined)
      if (await dialog.count()) await page.getByTestId('confirm-ok').click()
      await page.getByTestId('error-banner').waitFor()
      expect(await textOf(page, 'error-banner')).toContain('No card has this printed code: check what was typed')
      expect(await textOf(page, 'error-banner')).not.toMatch(FORGED)
      await page.screenshot({ path: join(SCREENSHOTS, 'table-printed-code-unknown-en-1920x1080.png') })
      await page.getByTestId('pay-code').fill('')
      await typeInto(page, 'pay-code', code)
      await dialog.waitFor({ timeout: 3000 }).catch(() => undefined)
      if (await dialog.count()) await page.getByTestId('confirm-ok').click()
      await expect.poll(() => row.getAttribute('data-status')).toBe('paid')
      await noIds(page)
      await page.close()
    },
  )
})
