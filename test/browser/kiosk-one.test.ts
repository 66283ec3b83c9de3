import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import QRCode from 'qrcode'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { InstantDesign } from '../../server/src/instant/design.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { hallWithGameOnSale, startFakePrinter, type HallSetup } from '../helpers/cashdesk.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { plan649, registerLottoBallSets, registerTombola } from '../helpers/lottery-plans.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 13 point 1 in real Chromium, authentication on as shipped: a cashier logged in at her enrolled station opens
 * her shift with a counted float and sells a credit voucher; at the enrolled kiosk (landscape 1366 x 768) the player
 * types the voucher's short code and buys, with that one voucher, a bingo card, a lotto slip (quick pick, named
 * player) and an e-instant ticket. Everything is printed on a network ESC/POS printer (a real TCP socket) inside
 * the purchase; the QR symbols of the job are drawn as the printer draws them and read back with zbarimg. Then the
 * cashier pays the winning slip and ticket against their signed codes and refunds the card of the game voided
 * before its first ball. The kiosk is photographed at 1920 x 1080, 1366 x 768 and 1080 x 1920 with nothing clipped.
 */
const PASSWORD = 'correct horse battery'
const PLAYER = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }

/** Every ticket of this e-instant game wins Bs 10, so that the payout below does not depend on chance. */
const ALL_WIN: InstantDesign = {
  gameNo: 881,
  name: 'Raspa y Gana',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 100,
  packSize: 50,
  channel: 'electronic',
  playStyle: { type: 'match-three', decoyAmountsCents: [200, 300, 500, 700] },
  tiers: [{ amountCents: 1000, count: 100 }],
  payoutShareBp: { min: 0, max: 10_000 },
  packRules: { lowTiers: { maxAmountCents: 1000, minPerPack: 5 } },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}

const haveZbar = spawnSync('which', ['zbarimg']).status === 0
if (!haveZbar && process.env.CI === 'true')
  throw new Error('zbarimg is required under CI=true (apt-get install zbar-tools)')

/**
 * The QR symbols of an ESC/POS job as the printer draws them: for each GS ( k store (fn 80), the module size
 * (fn 67) and error correction (fn 69) sent before it, drawn to a PNG and read back with zbarimg.
 */
async function readPrintedQrs(job: Buffer, dir: string): Promise<string[]> {
  const out: string[] = []
  let size = 6
  let ecc: 'L' | 'M' | 'Q' | 'H' = 'M'
  for (let i = 0; i + 7 < job.length; i++) {
    if (job[i] !== 0x1d || job[i + 1] !== 0x28 || job[i + 2] !== 0x6b) continue
    const len = job[i + 3] + job[i + 4] * 256
    const fn = job[i + 6]
    if (fn === 0x43) size = job[i + 7]
    if (fn === 0x45) ecc = (['L', 'M', 'Q', 'H'] as const)[job[i + 7] - 48] ?? 'M'
    if (fn === 0x50) {
      const payload = job.subarray(i + 8, i + 5 + len).toString('latin1')
      const png = join(dir, `qr-${out.length}.png`)
      await QRCode.toFile(png, payload, { errorCorrectionLevel: ecc, scale: size, margin: 4 })
      out.push(
        execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', png], { encoding: 'utf8' }).trim(),
      )
    }
    i += 4 + len
  }
  return out
}

/** The element's box lies inside the viewport (nothing clipped, nothing below the fold). */
async function expectInViewport(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox()
  const vp = page.viewportSize()!
  expect(box, testId).not.toBeNull()
  expect(box!.x, `${testId} left`).toBeGreaterThanOrEqual(0)
  expect(box!.y, `${testId} top`).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width, `${testId} right at ${vp.width}x${vp.height}`).toBeLessThanOrEqual(vp.width)
  expect(box!.y + box!.height, `${testId} bottom at ${vp.width}x${vp.height}`).toBeLessThanOrEqual(vp.height)
}

/** The page does not scroll either way, and the age question and the buy button are in view. */
async function expectNothingClipped(page: Page) {
  const overflow = await page.evaluate(() => ({
    x: document.documentElement.scrollWidth - window.innerWidth,
    y: document.documentElement.scrollHeight - window.innerHeight,
    // Any element of the basket cut by its own box.
    cut: [...document.querySelectorAll('[data-testid="kiosk-basket"] *')].filter(
      (e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible',
    ).length,
  }))
  expect(overflow).toEqual({ x: 0, y: 0, cut: 0 })
  for (const id of [
    'kiosk-age',
    'kiosk-age-yes',
    'kiosk-age-no',
    'kiosk-confirm',
    'kiosk-total',
    'kiosk-voucher',
    'tab-cards',
    'tab-slips',
    'tab-instant',
    'lang-en',
  ])
    await expectInViewport(page, id)
}

browserSuite('the one kiosk sells cards, lotto slips and e-instant tickets from one voucher (issue 13 point 1)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let printer: Awaited<ReturnType<typeof startFakePrinter>>
  let browser: Browser
  let setup: HallSetup
  let kioskCredential = ''
  let stationCredential = ''
  let drawId = ''
  let director = ''
  let floor = ''
  let cashierToken = ''
  let shortCode = ''
  let work = ''
  // 10:00 in La Paz on the lotto draw's day, then real time: the draw is entered the same day (LNS-22).
  const started = Date.now()
  // LNS-14: `skew` moves the clock past the publication hold between the close of sales and the balls.
  let skew = 0
  const clock = { now: () => new Date(Date.parse('2026-03-02T10:00:00-04:00') + (Date.now() - started) + skew) }
  const as = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'es' })
  const bought: {
    cardCode?: string
    slipCode?: string
    instantCode?: string
    /** INS-10: the e-instant ticket's serial as printed on its paper ("Boleto"), its inventory code. */
    instantSerial?: string
    receipt?: any
    instant?: any
  } = {}

  beforeAll(async () => {
    ensureBuilt(['kiosk', 'cashier', 'lotto', 'instant'], ['kiosk/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    work = mkdtempSync(join(tmpdir(), 'kiosk-one-'))
    printer = await startFakePrinter('ok')
    server = await startTestServer({ auth: 'on', printer: printer.url, printerTimeoutMs: 5000 }, { clock })
    const { auth, services } = { auth: server.services.auth, services: server.services }
    setup = await hallWithGameOnSale(services, { faceValueCents: 500, name: 'Sala Illimani' })
    kioskCredential = (await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId }))
      .credential
    stationCredential = (
      await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId: setup.hallId })
    ).credential
    await auth.createUser({
      username: 'rosa',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [setup.hallId],
    })
    await auth.createUser({ username: 'jefa', displayName: 'Marta Quispe', role: 'director', password: PASSWORD })
    await auth.createUser({ username: 'mesa', displayName: 'Luis Mamani', role: 'floor_manager', password: PASSWORD })
    await auth.createUser({ username: 'mesa2', displayName: 'Ana Choque', role: 'floor_manager', password: PASSWORD })
    director = (await auth.login('jefa', PASSWORD)).token
    floor = (await auth.login('mesa', PASSWORD)).token
    // A lotto draw drawn with a tómbola today at 20:00, on sale since yesterday, with a registered ball set (LNS-9).
    await registerLottoBallSets(services)
    drawId = (
      await services.lotto.createDraw(
        plan649({
          gameCode: 'LOTOKIOSCO',
          drawMethod: 'manual',
          drawDevice: await registerTombola(services, 'AJ-T-0003'),
          salesStartAt: '2026-03-01T08:00:00-04:00',
          salesCloseAt: '2026-03-02T19:00:00-04:00',
          drawAt: '2026-03-02T20:00:00-04:00',
          claimDeadline: '2026-05-01T23:59:59-04:00',
        }),
      )
    ).drawId
    await services.instant.generateBatch({ design: ALL_WIN, by: { kind: 'person', id: 'test' } })
    await services.instant.configureHall({
      hallId: setup.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'test',
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
    await printer?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('the cashier logs in at her station, opens her shift with the counted float and sells a Bs 50 voucher', async () => {
    const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
    await page.goto(`${server.url}/cashier/?hall=${setup.hallId}&device=${encodeURIComponent(stationCredential)}`)
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-float').fill('200')
    await page.getByTestId('shift-open').click()
    await page.getByTestId('shift-open-since').waitFor()
    cashierToken = (await page.evaluate(() => sessionStorage.getItem('bolillo.cashier.token')))!
    await page.getByTestId('tab-sell').click()
    await page.getByTestId('note-plus-5000').click()
    await expect.poll(() => page.getByTestId('voucher-amount').textContent()).toMatch(/Bs\s50,00/)
    printer.clear()
    await page.getByTestId('voucher-sell').click()
    await page.getByTestId('voucher-sold').waitFor()
    shortCode = (await page.getByTestId('voucher-short-code').textContent())!.trim()
    expect(shortCode).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
    // The printed voucher carries the same short code for the player to type.
    await expect.poll(() => decodeEscPos(printer.received()).lines.join('\n')).toContain(shortCode)
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-one-cashier-voucher.png') })
    const shift = await api(server.url, 'GET', '/api/shifts/current', undefined, as(cashierToken))
    expect(shift.body).toMatchObject({
      station: { name: 'Caja 1' },
      person: { name: 'Rosa Vargas' },
      shift: { floatCents: 20_000 },
    })
    await page.close()
  })

  it('at a 1366 x 768 kiosk the player types the short code and buys a card, a quick-pick slip and an e-instant ticket', async () => {
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.getByTestId('kiosk-cards').waitFor()
    expect(await page.getByTestId('kiosk-home').getAttribute('data-section')).toBe('cards')
    expect(await page.getByTestId('kiosk-face-value').textContent()).toMatch(/Bs\s5,00/)
    await expectNothingClipped(page)
    expect(await page.getByTestId('kiosk-confirm').isDisabled()).toBe(true)

    // A mistyped code is refused in words, beside the field: no voucher has it, check what was typed.
    await page.getByTestId('kiosk-voucher-code').fill('2222-3333-4444')
    await page.getByTestId('kiosk-voucher-check').click()
    await expect
      .poll(() => page.getByTestId('kiosk-voucher-problem').getAttribute('data-problem'))
      .toBe('voucher_not_found')
    expect(await page.getByTestId('kiosk-voucher-problem').textContent()).toContain('Vale no encontrado')

    // The short code as printed, typed by hand.
    await page.getByTestId('kiosk-voucher-code').fill(shortCode.toLowerCase())
    await page.getByTestId('kiosk-voucher-check').click()
    await expect.poll(() => page.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s50,00/)

    await page.getByTestId('kiosk-cards-plus').click()
    expect(await page.getByTestId('kiosk-cards-value').textContent()).toBe('1')
    await page.getByTestId('tab-slips').click()
    await page.getByTestId('lotto-grid').waitFor()
    await page.getByTestId('lotto-quick').click()
    expect(await page.getByTestId('kiosk-blocker').textContent()).toMatch(/nombre y apellidos/)
    await page.getByTestId('lotto-name').fill(PLAYER.name)
    await page.getByTestId('lotto-document').fill(PLAYER.document)
    await page.getByTestId('tab-instant').click()
    await page.getByTestId('instant-home').waitFor()
    await page.getByTestId('instant-count-plus').click()

    // Bs 5 card + Bs 5 board + Bs 10 ticket = Bs 20 of Bs 50: change Bs 30. The age answer is the last thing missing.
    expect(await page.getByTestId('kiosk-total').textContent()).toMatch(/Bs\s20,00/)
    expect(await page.getByTestId('kiosk-change').textContent()).toMatch(/Bs\s30,00/)
    expect(await page.getByTestId('kiosk-blocker').textContent()).toMatch(/edad/)
    expect(await page.getByTestId('kiosk-confirm').isDisabled()).toBe(true)
    await page.getByTestId('kiosk-age-yes').click()
    expect(await page.getByTestId('kiosk-confirm').isDisabled()).toBe(false)
    for (const s of ['cards', 'slips', 'instant'])
      expect(await page.getByTestId(`tab-${s}-count`).textContent()).toBe('1')

    // Three sizes, each with the basket whole: age question and buy button in view, nothing scrolled or cut.
    for (const [w, h, section] of [
      [1366, 768, 'instant'],
      [1920, 1080, 'slips'],
      [1080, 1920, 'cards'],
    ] as const) {
      await page.setViewportSize({ width: w, height: h })
      await page.getByTestId(`tab-${section}`).click()
      await expectNothingClipped(page)
      await page.screenshot({ path: join(SCREENSHOTS, `kiosk-one-${w}x${h}.png`) })
    }
    await page.setViewportSize({ width: 1366, height: 768 })
    await page.getByTestId('tab-slips').click()
    await expectNothingClipped(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-one-1366x768-slips.png') })
    // English on the same basket, words only.
    await page.getByTestId('lang-en').click()
    await expect.poll(() => page.getByTestId('kiosk-confirm').textContent()).toBe('BUY AND PRINT')
    await expectNothingClipped(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-one-1366x768-en.png') })
    expect(screenLeaks((await page.locator('body').textContent()) ?? '')).toEqual([])
    await page.getByTestId('lang-es').click()

    printer.clear()
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/kiosk/purchases'))
    await page.getByTestId('kiosk-confirm').click()
    const purchase = await (await answer).json()
    await page.getByTestId('kiosk-done').waitFor()
    expect(purchase).toMatchObject({ amountCents: 2000, count: 1, change: { amountCents: 3000, status: 'active' } })
    bought.receipt = purchase.slips[0]
    bought.instant = purchase.instant[0]
    expect(bought.receipt).toMatchObject({ player: PLAYER, boards: [{ quickPick: true }], amountCents: 500 })
    expect(await page.getByTestId('kiosk-card').count()).toBe(1)
    expect(await page.getByTestId('kiosk-slip-number').textContent()).toBe(bought.receipt.receiptNumber)
    expect(await page.getByTestId('kiosk-change-voucher').textContent()).toMatch(/Bs\s30,00/)
    expect(await page.getByTestId('kiosk-change-code').textContent()).toBe(purchase.change.shortCode)
    await page.getByTestId('instant-scratch-all').click()
    await expect.poll(() => page.getByTestId('instant-result').textContent()).toMatch(/Premio de Bs\s10,00/)
    await expectInViewport(page, 'kiosk-finish')
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-one-done-1366x768.png') })
    expect(screenLeaks((await page.locator('body').textContent()) ?? '')).toEqual([])

    // The voucher is spent; the change voucher it printed is the one the server holds.
    const check = await api(
      server.url,
      'POST',
      '/api/vouchers/check',
      { code: shortCode },
      { authorization: `Device ${kioskCredential}` },
    )
    expect(check.body.status).toBe('spent')

    // The printed job: card, slip receipt (every LNS-6 field the player needs), e-instant ticket, change voucher.
    const job = printer.received()
    const text = decodeEscPos(job).lines.join('\n')
    for (const s of [
      bought.receipt.receiptNumber,
      PLAYER.name,
      'Loto 6/49',
      'Sorteo',
      purchase.cards[0].serial,
      bought.instant.serial,
      purchase.change.shortCode,
    ])
      expect(text).toContain(s)
    // INS-10: the paper's "Boleto" line is the ticket's inventory code, the second code the cashier scans to pay.
    bought.instantSerial = /Boleto\s+(\d{4}-\d{6}-\d{3}-\d)/.exec(text)?.[1]
    expect(bought.instantSerial).toBe(bought.instant.serial)
    if (!haveZbar) return
    const codes = await readPrintedQrs(job, work)
    expect(codes.map((c) => c.slice(0, 7))).toEqual(['BLL1.C.', 'BLL1.L.', 'BLL1.I.', 'BLL1.V.'])
    expect(codes).toEqual([
      purchase.cards[0].code,
      bought.receipt.code,
      bought.instant.qr,
      expect.stringMatching(/^BLL1\.V\./),
    ])
    ;[bought.cardCode, bought.slipCode, bought.instantCode] = codes
    await page.close()
  })

  it('the cashier pays the winning slip and e-instant ticket against their printed codes, once', async () => {
    if (!haveZbar) return
    // The lotto draw: sales closed, the tómbola's balls are the slip's quick pick (first category), settled.
    expect(
      (
        await api(
          server.url,
          'POST',
          `/api/lotto/draws/${drawId}/close`,
          { earlyReason: 'Prueba de caja: sorteo anticipado autorizado' },
          as(director),
        )
      ).status,
    ).toBe(200)
    skew += 31 * 60_000
    for (const ball of bought.receipt.boards[0].numbers)
      expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/balls`, { ball }, as(director))).status).toBe(
        200,
      )
    expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/settle`, undefined, as(director))).status).toBe(
      200,
    )

    const slipCheck = await api(
      server.url,
      'POST',
      '/api/tickets/validate',
      { code: bought.slipCode },
      as(cashierToken),
    )
    expect(slipCheck.status, JSON.stringify(slipCheck.body)).toBe(200)
    const slipPaid = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: bought.slipCode, payeeName: PLAYER.name, payeeDocument: PLAYER.document },
      as(cashierToken),
    )
    expect(slipPaid.status, JSON.stringify(slipPaid.body)).toBe(200)
    expect(slipPaid.body.payout.kind).toBe('lotto')

    // INS-10: the QR alone (a photo of the paper's code) does not pay; with the serial printed on the same paper it does.
    const qrOnly = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: bought.instantCode, payeeName: PLAYER.name, payeeDocument: PLAYER.document },
      as(cashierToken),
    )
    expect(qrOnly.status).toBe(422)
    expect(qrOnly.body.error.code).toBe('INVENTORY_CODE_REQUIRED')
    const ticketPaid = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      {
        code: bought.instantCode,
        inventoryCode: bought.instantSerial,
        payeeName: PLAYER.name,
        payeeDocument: PLAYER.document,
      },
      as(cashierToken),
    )
    expect(ticketPaid.status, JSON.stringify(ticketPaid.body)).toBe(200)
    for (const [code, inventoryCode] of [
      [bought.slipCode, undefined],
      [bought.instantCode, bought.instantSerial],
    ]) {
      const again = await api(
        server.url,
        'POST',
        '/api/tickets/pay',
        { code, inventoryCode, payeeName: PLAYER.name, payeeDocument: PLAYER.document },
        as(cashierToken),
      )
      expect(again.status).toBeGreaterThanOrEqual(400)
    }
    // Both payouts left the drawer of her station.
    const day = await api(server.url, 'GET', '/api/shifts/current', undefined, as(cashierToken))
    expect(day.body.shift).toBeTruthy()
  })

  it('the game voided before its first ball: the cashier refunds the kiosk card once, in cash', async () => {
    if (!haveZbar) return
    const { bingo } = server.services
    // Enough cards for the game to start (BNG-21), then the blower fails before the first ball and cannot be fixed.
    await bingo.sell({ gameId: setup.gameId, count: 30, channel: 'counter' })
    await bingo.closeSales({ gameId: setup.gameId })
    const suspend = await api(
      server.url,
      'POST',
      `/api/games/${setup.gameId}/incidents`,
      {
        kind: 'device-failure-before-first-ball',
        note: 'El bombo no arranca',
        confirm: { username: 'jefa', password: PASSWORD },
      },
      as(floor),
    )
    expect(suspend.status, JSON.stringify(suspend.body)).toBe(200)
    const annul = await api(
      server.url,
      'POST',
      `/api/games/${setup.gameId}/incidents`,
      {
        kind: 'unresolved-suspension',
        note: 'Sin técnico disponible',
        reason: 'El bombo no pudo repararse',
        confirm: { username: 'jefa', password: PASSWORD },
      },
      as(floor),
    )
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    expect((await bingo.getGameState(setup.gameId)).status).toBe('void')

    const scan = await api(server.url, 'POST', '/api/tickets/validate', { code: bought.cardCode }, as(cashierToken))
    expect(scan.body).toMatchObject({ status: 'void', refundCents: 500 })
    const refund = await api(server.url, 'POST', '/api/refunds/cards', { code: bought.cardCode }, as(cashierToken))
    expect(refund.status, JSON.stringify(refund.body)).toBe(201)
    expect(refund.body).toMatchObject({ amountCents: 500, method: 'cash' })
    const twice = await api(server.url, 'POST', '/api/refunds/cards', { code: bought.cardCode }, as(cashierToken))
    expect(twice.status).toBe(409)
    expect(twice.body.error.code).toBe('ALREADY_REFUNDED')

    // With the game void the kiosk opens on what is still on sale (the scratch tickets) and offers no cards, in words.
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.getByTestId('instant-home').waitFor()
    await page.getByTestId('tab-cards').click()
    await page.getByTestId('kiosk-state').waitFor()
    expect(screenLeaks((await page.locator('body').textContent()) ?? '')).toEqual([])
    await page.close()
  })

  it('the old /lotto/ and /instant/ addresses open the one kiosk on their section, still enrolled', async () => {
    // 19:00 on the draw's day: sales of the lotto draw close by the clock, whatever the tests before did with it.
    skew += Math.max(0, Date.parse('2026-03-02T19:00:01-04:00') - clock.now().getTime())
    const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/instant/?hall=${setup.hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.waitForURL(/\/kiosk\/\?.*section=raspaditas/)
    await page.getByTestId('instant-home').waitFor()
    expect(await page.getByTestId('kiosk-home').getAttribute('data-section')).toBe('instant')
    await page.goto(`${server.url}/lotto/?hall=${setup.hallId}`)
    await page.waitForURL(/\/kiosk\/\?.*section=boletos/)
    // The credential kept from the first load still works: the lotto section says its draw is closed now.
    await page.getByTestId('lotto-no-draw').waitFor()
    expect(await page.getByTestId('kiosk-home').getAttribute('data-section')).toBe('slips')
    await page.close()
  })
})
