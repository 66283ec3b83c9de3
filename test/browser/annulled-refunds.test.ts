/**
 * Issue 29 point 1 in a real Chromium, authentication on, enrolled stations and real people: a game is annulled
 * after cards were sold at the kiosk (with a voucher), at the table (Mesa 1, the locutor's till) and at the cashier
 * (Caja 1). Each person does what they would do: the cashier scans a card as a wedge scanner types it, reads the
 * amount, presses REEMBOLSAR, reads the consequence and confirms, and sees the receipt; the player scans a kiosk card
 * at the kiosk and takes a new voucher; the locutor scans each card handed back to the table. Every refund moves the
 * shift's drawer by exactly the card's price; a card presented again says when, where and by whom (names, no ids).
 * The acta on screen and in the PDF state the same refunded count and amount. Spanish and English, 1366x768 and
 * 1920x1080; the screenshots are in test-output/screenshots/.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T22:10:00Z') + (Date.now() - started)) }
/** Any record id as the server makes them (prefix, underscore, random letters and digits). */
const IDS = /\b(?:dev|u|po|c|cs|v|rf|ses|sh|hall|g)_[a-z0-9]{6,}/gi
const BS10 = /Bs\.?\s?10,00/
const BS10_EN = /(?:Bs\.?|BOB)\s?10\.00/

browserSuite("refunds of an annulled game's cards at the cashier, the kiosk and the table (issue 29 point 1)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let setup: HallSetup
  let caja: Till
  let mesa: Till
  let kiosk: { id: string; credential: string }
  let kioskCards: Array<{ serial: string; code: string }> = []
  let tableCards: Array<{ serial: string; code: string }> = []
  let counterCards: Array<{ serial: string; code: string }> = []
  let excludedCard: { serial: string; code: string }
  const EXCLUDED = 'CI 4500001 LP'

  /** The enrolled kiosk's screen in Spanish at 1366x768, with `code` scanned by its wedge scanner. */
  const scannedAtKiosk = async (code: string) => {
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk.credential)}`)
    await page.locator('.kiosk[data-screen="sale"]').waitFor()
    await settled(page, { animations: false }) // the scanner's listener is attached after the first paint
    await wedgeScan(page, code)
    return page
  }
  const drawer = async (shiftId: string) =>
    Number(
      (await server.services.db.get<{ n: number }>(
        'SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE shift_id = ?',
        [shiftId],
      ))!.n,
    )
  /** A code typed into a field, then Enter: what a keyboard-wedge scanner does with the field focused. */
  async function scan(page: Page, code: string, field: string): Promise<void> {
    await page.getByTestId(field).click()
    await page.getByTestId(field).fill('')
    await page.keyboard.type(code)
    await page.keyboard.press('Enter')
  }
  /**
   * A wedge scanner with no field focused (the kiosk): one burst of keydown events a few microseconds apart, then
   * Enter, dispatched in the page as the device's burst reaches it (typing key by key over the DevTools protocol
   * would space the keys by this machine's load, which a scanner does not; test/browser/kiosk.test.ts does the same).
   */
  async function wedgeScan(page: Page, code: string): Promise<void> {
    await page.evaluate((text) => {
      const target = document.activeElement ?? document.body
      for (const key of [...text, 'Enter'])
        target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
    }, code)
  }
  async function atCashier(viewport: { width: number; height: number }): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(`${server.url}/cashier/?hall=${setup.hallId}&device=${encodeURIComponent(caja.station.credential)}`)
    await page.getByTestId('shift-login').waitFor()
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-bar').waitFor()
    return page
  }
  async function atCaller(
    viewport: { width: number; height: number },
    who: string,
    device: string | null,
    lang: 'es' | 'en' = 'es',
  ): Promise<Page> {
    const page = await pageOnClock(browser, clock, viewport)
    await page.goto(
      `${server.url}/caller/?hall=${setup.hallId}&lang=${lang}${device ? `&device=${encodeURIComponent(device)}` : ''}`,
    )
    await page.getByTestId('login').waitFor()
    await page.getByTestId('login-user').fill(who)
    await page.getByTestId('login-password').fill(PASSWORD)
    await page.getByTestId('login-submit').click()
    await page.getByTestId('caller-role').waitFor()
    return page
  }
  const textOf = async (page: Page, id: string) => norm(await page.getByTestId(id).first().textContent())
  const noIds = async (page: Page) => {
    const body = norm(await page.locator('body').textContent())
    expect(body.match(IDS) ?? []).toEqual([])
    expect(screenLeaks(body)).toEqual([])
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier', 'kiosk', 'caller'], ['kiosk', 'display', 'web', 'printer'])
    server = await startTestServer({ auth: 'on' }, { clock })
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 1000, name: 'Sala Illimani' })
    const { auth } = server.services
    for (const [username, displayName, role] of [
      ['rosa', 'Rosa Vargas', 'cashier'],
      ['pedro', 'Pedro Flores', 'caller'],
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['elena', 'Elena Ríos', 'director'],
    ] as const)
      await auth.createUser({ username, displayName, role, password: PASSWORD, halls: [setup.hallId] })
    caja = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'rosa',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 50_000,
    })
    mesa = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'pedro',
      password: PASSWORD,
      stationName: 'Mesa 1',
      floatCents: 20_000,
    })
    kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })
    const { gameId } = setup
    /** A voucher sold at Caja 1 (naming `buyerDocument` when given), spent at Kiosco 1 on `count` cards. */
    const boughtAtKiosk = async (count: number, buyerDocument?: string) => {
      const v = await api(
        server.url,
        'POST',
        '/api/vouchers',
        { hallId: setup.hallId, amountCents: count * 1000, cash: countOf(count * 1000), buyerDocument },
        caja.headers,
      )
      expect(v.status, JSON.stringify(v.body)).toBe(201)
      const bought = await api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: v.body.voucher.code, cards: { gameId, count }, ageConfirmed: true },
        { authorization: `Device ${kiosk.credential}` },
      )
      expect(bought.status, JSON.stringify(bought.body)).toBe(201)
      return bought.body.cards as Array<{ serial: string; code: string }>
    }
    kioskCards = await boughtAtKiosk(2)
    // One more kiosk card, bought with a voucher that names its buyer, who is put on the exclusion list after the
    // game is annulled (GEN-21: refunded in cash at the cashier, never onto a voucher he could not use).
    ;[excludedCard] = await boughtAtKiosk(1, EXCLUDED)
    const sellAt = async (till: Till, count: number) => {
      const r = await api(
        server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count, cash: countOf(count * 1000) },
        till.headers,
      )
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body.cards as Array<{ serial: string; code: string }>
    }
    tableCards = await sellAt(mesa, 3)
    counterCards = await sellAt(caja, 7)
    await server.services.bingo.closeSales({ gameId })
    await server.services.bingo.drawNext(gameId)
    const marta = (await auth.login('marta', PASSWORD)).token
    const annul = await api(
      server.url,
      'POST',
      `/api/games/${gameId}/incidents`,
      {
        kind: 'ball-irregularity',
        note: 'bola 12 deformada',
        reason: 'La bola 12 está deformada',
        confirm: { username: 'elena', password: PASSWORD },
      },
      { authorization: `Bearer ${marta}` },
    )
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    await server.services.players.exclude(
      { document: EXCLUDED, name: 'Jugador Excluido', kind: 'self_excluded', reason: 'autoexclusión' },
      'elena',
    )
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'cashier, Spanish, 1366x768: the annulled card shows the amount and REEMBOLSAR; the confirm says the consequence; the drawer gives exactly Bs 10,00; presented again it says when, where and by whom',
    { timeout: 120_000 },
    async () => {
      const page = await atCashier({ width: 1366, height: 768 })
      const before = await drawer(caja.shiftId)
      const card = counterCards[0]
      await scan(page, card.code, 'cashier-code')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('void')
      expect(await textOf(page, 'cashier-status-amount')).toMatch(BS10)
      expect(await textOf(page, 'cashier-status-note')).toMatch(
        /^Partida anulada: se devuelve el importe íntegro del cartón \(Bs\.?\s?10,00\)$/,
      )
      expect(await textOf(page, 'cashier-refund')).toMatch(/^REEMBOLSAR Bs\.?\s?10,00$/)
      await page.getByTestId('cashier-refund').click()
      const confirm = await textOf(page, 'cashier-confirm-text')
      expect(confirm).toContain(`por el cartón ${card.serial} de la partida 1`)
      expect(confirm).toMatch(/Entregará Bs\.?\s?10,00 en efectivo de su caja/)
      expect(confirm).toContain('no podrá volver a reembolsarse')
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-cashier-confirm-es-1366x768.png') })
      // Cancel first: nothing moves.
      await page.getByTestId('cashier-confirm-no').click()
      expect(await drawer(caja.shiftId)).toBe(before)
      await page.getByTestId('cashier-refund').click()
      await page.getByTestId('cashier-confirm-yes').click()
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('refunded')
      expect(await textOf(page, 'cashier-status-note')).toMatch(/entregue Bs\.?\s?10,00 al jugador/)
      await page.getByTestId('cashier-refund-receipt-preview').waitFor()
      expect(await page.getByTestId('cashier-refund-receipt').getAttribute('data-receipt')).toBe('printed')
      const receipt = decodeURIComponent(
        String(await page.getByTestId('cashier-refund-receipt-preview').getAttribute('src')),
      )
      const svg = receipt.startsWith('data:image/svg+xml;base64,')
        ? Buffer.from(receipt.split(',')[1], 'base64').toString('utf8')
        : receipt
      expect(svg).toContain('Rosa Vargas')
      expect(svg).toContain('Caja 1')
      expect(svg).toContain('America/La_Paz')
      expect(svg).toContain('14/03/2026 18:1') // 22:1x UTC is 18:1x in La Paz
      expect(svg.match(IDS) ?? []).toEqual([])
      expect(await drawer(caja.shiftId)).toBe(before - 1000)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-cashier-done-es-1366x768.png') })
      await page.getByTestId('cashier-next').click()
      // The same card again: YA REEMBOLSADO, with the hall's time, the station and the person by name.
      await scan(page, card.code, 'cashier-code')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('void_refunded')
      expect(await textOf(page, 'cashier-status-title')).toBe('YA REEMBOLSADO')
      expect(await textOf(page, 'cashier-status-note')).toMatch(
        /^Reembolsado el 14\/03\/2026 18:1\d en Caja 1 por Rosa Vargas$/,
      )
      expect(await page.getByTestId('cashier-refund').count()).toBe(0)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-cashier-again-es-1366x768.png') })
      expect(await drawer(caja.shiftId)).toBe(before - 1000)
      await page.close()
    },
  )

  it(
    'cashier, English, 1920x1080: the confirm is taken with Enter, the drawer gives exactly Bs 10.00, and ALREADY REFUNDED follows',
    { timeout: 120_000 },
    async () => {
      const page = await atCashier({ width: 1920, height: 1080 })
      await page.getByTestId('lang-en').click()
      const before = await drawer(caja.shiftId)
      const card = counterCards[1]
      await scan(page, card.code, 'cashier-code')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('void')
      expect(await textOf(page, 'cashier-status-note')).toMatch(
        /^Game annulled: the full price of the card is refunded \((?:Bs\.?|BOB)\s?10\.00\)$/,
      )
      await page.getByTestId('cashier-refund').click()
      expect(await textOf(page, 'cashier-confirm-text')).toContain(`for card ${card.serial} of game 1`)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-cashier-confirm-en-1920x1080.png') })
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('refunded')
      expect(await textOf(page, 'cashier-status-title')).toBe('REFUNDED')
      expect(await drawer(caja.shiftId)).toBe(before - 1000)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-cashier-done-en-1920x1080.png') })
      await page.getByTestId('cashier-next').click()
      await scan(page, card.code, 'cashier-code')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('void_refunded')
      expect(await textOf(page, 'cashier-status-title')).toBe('ALREADY REFUNDED')
      expect(await textOf(page, 'cashier-status-note')).toMatch(
        /^Refunded on 14\/03\/2026 18:1\d at Caja 1 by Rosa Vargas$/,
      )
      await noIds(page)
      await page.close()
    },
  )

  it(
    'kiosk, Spanish, 1366x768: the player scans a kiosk card, reads the amount and the consequence, confirms and takes a voucher of exactly the face value; scanned again it was refunded',
    { timeout: 120_000 },
    async () => {
      const page = await scannedAtKiosk(kioskCards[0].code)
      await page.getByTestId('kiosk-refund').waitFor({ timeout: 10_000 })
      expect(await textOf(page, 'kiosk-refund-amount')).toMatch(BS10)
      expect(await textOf(page, 'kiosk-refund-text')).toContain(
        `El cartón ${kioskCards[0].serial} es de la partida N.º 1`,
      )
      expect(await textOf(page, 'kiosk-refund-consequence')).toContain('no juega ni puede reembolsarse otra vez')
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-offer-es-1366x768.png') })
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refunded').waitFor()
      expect(await textOf(page, 'kiosk-refunded-title')).toMatch(/^Retire su vale de Bs\.?\s?10,00$/)
      const shortCode = await textOf(page, 'kiosk-refund-code')
      const voucher = await api(
        server.url,
        'POST',
        '/api/vouchers/check',
        { code: shortCode },
        { authorization: `Device ${kiosk.credential}` },
      )
      expect(voucher.body).toMatchObject({ amountCents: 1000, status: 'active' })
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-voucher-es-1366x768.png') })
      await page.getByTestId('kiosk-finish').click()
      await page.locator('.kiosk[data-screen="sale"]').waitFor()
      await settled(page, { animations: false })
      await wedgeScan(page, kioskCards[0].code)
      await page.getByTestId('kiosk-refund-refused').waitFor({ timeout: 10_000 })
      expect(await page.getByTestId('kiosk-refund-refused').getAttribute('data-refusal')).toBe('already')
      expect(await textOf(page, 'kiosk-refund-text')).toMatch(
        /^Este cartón ya se reembolsó el 14\/03\/2026 18:1\d en Kiosco 1\. Un cartón se reembolsa una sola vez\.$/,
      )
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-again-es-1366x768.png') })
      await page.close()
    },
  )

  it(
    'kiosk, English, 1920x1080: a card bought in cash at the table is sent to the cashier in words; a kiosk card goes onto a voucher',
    { timeout: 120_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
      await page.goto(
        `${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk.credential)}&lang=en`,
      )
      await page.locator('.kiosk[data-screen="sale"]').waitFor()
      await settled(page, { animations: false }) // the scanner's listener is attached after the first paint
      await wedgeScan(page, tableCards[2].code)
      await page.getByTestId('kiosk-refund').waitFor()
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refund-refused').waitFor()
      expect(await page.getByTestId('kiosk-refund-refused').getAttribute('data-refusal')).toBe('cash_bought')
      expect(await textOf(page, 'kiosk-refund-title')).toBe('Refunded at the cashier')
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-cash-card-en-1920x1080.png') })
      await page.getByTestId('kiosk-back').click()
      await page.locator('.kiosk[data-screen="sale"]').waitFor()
      await settled(page, { animations: false })
      await wedgeScan(page, kioskCards[1].code)
      await page.getByTestId('kiosk-refund').waitFor()
      expect(await textOf(page, 'kiosk-refund-text')).toContain(`Card ${kioskCards[1].serial} is of game no. 1`)
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refunded').waitFor()
      expect(await textOf(page, 'kiosk-refunded-title')).toMatch(/^Take your voucher for (?:Bs\.?|BOB)\s?10\.00$/)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-voucher-en-1920x1080.png') })
      await page.close()
    },
  )

  it(
    "table, Spanish, 1366x768 and English, 1920x1080: the locutor's till lists its cards, scans each handed back, confirms the cash to hand out, and the shift gives exactly that",
    { timeout: 150_000 },
    async () => {
      const page = await atCaller({ width: 1366, height: 768 }, 'pedro', mesa.station.credential)
      await page.getByTestId('table-refunds').waitFor()
      expect(await page.getByTestId('table-refund-row').count()).toBe(3)
      expect(await textOf(page, 'table-refunds-due')).toMatch(/Bs\.?\s?30,00/)
      const before = await drawer(mesa.shiftId)
      await scan(page, tableCards[0].code, 'table-refund-code')
      await page.getByTestId('confirm-dialog').waitFor()
      const dialog = norm(await page.getByTestId('confirm-dialog').textContent())
      expect(dialog).toContain(`Reembolsar el cartón ${tableCards[0].serial}`)
      expect(dialog).toMatch(/Entregue Bs\.?\s?10,00 en efectivo de la caja de la mesa/)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-table-confirm-es-1366x768.png') })
      await page.keyboard.press('Enter')
      await page.getByTestId('table-refund-handout').waitFor()
      expect(await textOf(page, 'table-refund-handout')).toMatch(
        new RegExp(`^Entregue Bs\\.?\\s?10,00 al jugador por el cartón ${tableCards[0].serial}\\.$`),
      )
      await expect.poll(() => textOf(page, 'table-refunds-due')).toMatch(/Bs\.?\s?20,00/)
      expect(await drawer(mesa.shiftId)).toBe(before - 1000)
      const row = page.locator(`[data-testid="table-refund-row"][data-serial="${tableCards[0].serial}"]`)
      expect(await row.getAttribute('data-refunded')).toBe('yes')
      expect(norm(await row.textContent())).toMatch(/Reembolsados 14\/03\/2026 18:1\d · Mesa 1 · Pedro Flores/)
      // The same card twice: refused in words, nothing more handed out.
      await scan(page, tableCards[0].code, 'table-refund-code')
      await page.getByTestId('confirm-dialog').waitFor()
      await page.keyboard.press('Enter')
      await page.getByTestId('error-banner').waitFor()
      const refusal = await textOf(page, 'error-banner')
      expect(refusal).not.toMatch(/ALREADY_REFUNDED|rf_|c_/)
      expect(await drawer(mesa.shiftId)).toBe(before - 1000)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-table-done-es-1366x768.png') })
      await page.close()

      const en = await atCaller({ width: 1920, height: 1080 }, 'pedro', mesa.station.credential, 'en')
      await en.getByTestId('table-refunds').waitFor()
      await scan(en, tableCards[1].code, 'table-refund-code')
      await en.getByTestId('confirm-dialog').waitFor()
      expect(norm(await en.getByTestId('confirm-dialog').textContent())).toContain(
        `Refund card ${tableCards[1].serial}`,
      )
      await en.keyboard.press('Enter')
      await en.getByTestId('table-refund-handout').waitFor()
      expect(await textOf(en, 'table-refund-handout')).toMatch(BS10_EN)
      await expect.poll(() => textOf(en, 'table-refunds-due')).toMatch(BS10_EN)
      expect(await drawer(mesa.shiftId)).toBe(before - 2000)
      await noIds(en)
      await en.screenshot({ path: join(SCREENSHOTS, 'refund-table-done-en-1920x1080.png') })
      await en.close()
    },
  )

  it(
    'kiosk, Spanish, 1366x768: the card of a buyer put on the exclusion list is sent to the cashier for its cash, in words that do not say why; the cashier refunds it',
    { timeout: 120_000 },
    async () => {
      const page = await scannedAtKiosk(excludedCard.code)
      await page.getByTestId('kiosk-refund').waitFor()
      await page.getByTestId('kiosk-refund-yes').click()
      await page.getByTestId('kiosk-refund-refused').waitFor()
      expect(await page.getByTestId('kiosk-refund-refused').getAttribute('data-refusal')).toBe('cash_only')
      expect(await textOf(page, 'kiosk-refund-title')).toBe('Se devuelve en caja')
      const body = norm(await page.locator('body').textContent())
      // Neither the list nor a payment "in cash" he never made: whoever holds the card need not be its buyer.
      expect(body).not.toMatch(/exclu|se pagó en efectivo|4500001/i)
      await noIds(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-kiosk-cash-only-es-1366x768.png') })
      await page.close()
      // Nothing was refunded at the kiosk; at the cashier the card's price comes out of her drawer.
      const before = await drawer(caja.shiftId)
      const paid = await api(server.url, 'POST', '/api/refunds/cards', { code: excludedCard.code }, caja.headers)
      expect(paid.status, JSON.stringify(paid.body.error)).toBe(201)
      expect(await drawer(caja.shiftId)).toBe(before - 1000)
    },
  )

  it('the acta on screen and in the PDF state the same refunded count and amount', { timeout: 120_000 }, async () => {
    // Refunded by now: 3 at the cashier (one the excluded buyer's), 2 onto vouchers, 2 at the table; 13 cards sold.
    const page = await atCaller({ width: 1920, height: 1080 }, 'marta', null)
    await page.keyboard.press('a')
    await page.getByTestId('minutes').waitFor()
    const onScreen = await textOf(page, 'minutes-refunds-1')
    expect(onScreen).toMatch(/^Cartones reembolsados: 7 de 13, por Bs\.?\s?70,00$/)
    await page.screenshot({ path: join(SCREENSHOTS, 'refund-acta-es-1920x1080.png') })
    await page.close()
    const token = (await server.services.auth.login('marta', PASSWORD)).token
    const res = await fetch(`${server.url}/api/sessions/${setup.sessionId}/minutes.pdf?lang=es`, {
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' },
    })
    expect(res.status).toBe(200)
    mkdirSync('test-output/refunds', { recursive: true })
    const file = join('test-output', 'refunds', 'acta.pdf')
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    const text = norm(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }))
    const inPdf = /Cartones reembolsados: (\d+) de (\d+), por (Bs\.?\s?[\d.,]+)\./.exec(text)
    expect(inPdf, text.slice(0, 2000)).not.toBeNull()
    expect(`Cartones reembolsados: ${inPdf![1]} de ${inPdf![2]}, por ${inPdf![3]}`).toBe(onScreen)
  })
})
