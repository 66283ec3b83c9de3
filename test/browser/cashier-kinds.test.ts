import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { browserSuite, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { packPrintData } from '../../server/src/instant/files.ts'
import { groupCode } from '../../server/src/instant/codes.ts'
import { checkDesign, type InstantDesign } from '../../server/src/instant/design.ts'
import { formatMoney } from '../../server/src/shared/money.ts'
import { plan649, registerLottoBallSets, registerTombola } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { printRunSeed } from '../helpers/instant.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

/**
 * The cashier station with every kind of ticket it pays (§8, INS-5, INS-11, LNS-25), in real Chromium against a
 * real server: an instant ticket validated by its hidden code typed in groups of four and a lotto receipt read by
 * the scanner are each shown as what they are (Raspadita, Boleto de lotto), with their identifying data and the
 * outcome in one big word and the amount; the payee's first and last names and document are asked for; they are
 * paid once with a receipt, and the second scan says YA PAGADO with when and where. Screenshots at 1920 x 1080 in
 * test-output/screenshots.
 */
const suite = browserSuite

const SHOTS = SCREENSHOTS

/** A keyboard-wedge scanner: the code as one burst of keydown events, then Enter (see kiosk.test.ts). */
async function wedgeScan(page: Page, code: string) {
  await page.evaluate((text) => {
    const target = document.activeElement ?? document.body
    for (const key of [...text, 'Enter'])
      target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  }, code)
}

const statusOf = (page: Page) => page.getByTestId('cashier-status').getAttribute('data-status')
const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).textContent()) ?? '').replace(/\s+/g, ' ').trim()
const imageLoaded = (page: Page) =>
  page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="cashier-receipt-preview"]') as HTMLImageElement | null
    return Boolean(img?.complete && img.naturalWidth > 0)
  })

// A small pre-printed instant game (test/e2e/instant.test.ts): 10 packs of 50.
const design: InstantDesign = {
  gameNo: 812,
  name: 'Raspa Illimani',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 500,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 100_000, count: 1 },
    { amountCents: 5000, count: 10 },
    { amountCents: 2000, count: 50 },
    { amountCents: 1000, count: 80 },
  ],
  payoutShareBp: { min: 5000, max: 8000 },
  packRules: {
    lowTiers: { maxAmountCents: 2000, minPerPack: 5 },
    topTiers: { minAmountCents: 100_000, maxPerPack: 1, notFirstOrLast: true },
  },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}
/** The best prize of pack 1, found from the batch's seed as an auditor opens it (the server takes the seed itself). */
function bestOfPack1(seed: Buffer) {
  const tickets = [...packPrintData(checkDesign(design), seed)].flatMap((p) =>
    p.serials.map((serial, i) => ({ serial, pack: p.packNo, code: p.codes[i], tier: p.tiers[i] })),
  )
  return tickets.filter((t) => t.pack === 1 && t.tier > 0).sort((a, b) => a.tier - b.tier)[0]
}
let instantWinner: ReturnType<typeof bestOfPack1>
let instantAmount = 0

suite('the cashier pays every kind of ticket, in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let page: Page
  let hallId = ''
  // The lotto plan's dates are in March 2025: the server runs on a clock the test moves.
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const post = async (path: string, body: unknown, status = 200) => {
    const r = await api(server.url, 'POST', path, body)
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status)
    return r.body
  }

  beforeAll(async () => {
    if (!existsSync(resolve('dist/cashier/index.html')))
      execFileSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' })
    mkdirSync(SHOTS, { recursive: true })
    server = await startTestServer({}, { clock })
    hallId = (
      await server.services.bingo.createHall({
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 50,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
    ).id
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/cashier/?hall=${hallId}&station=caja-1`)
    await page.getByTestId('cashier-name').fill('Ana Quispe')
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('pays a winning instant ticket by its typed validation code once, with the payee in the register (INS-5, INS-11)', async () => {
    // The game generated, pack 1 shipped to the hall and activated there, the winning ticket sold by its inventory code.
    await post('/api/instant/games', { design }, 201)
    // The tickets as the print run has them (the audit route opens the seed only after the claim period, issue 24).
    instantWinner = bestOfPack1(await printRunSeed(server.services.db, server.services.sealer, design.gameNo))
    instantAmount = design.tiers[instantWinner.tier - 1].amountCents
    await post(`/api/instant/games/${design.gameNo}/packs/ship`, {
      fromPack: 1,
      toPack: 1,
      destination: 'caja-1',
      by: 'almacen',
    })
    await post('/api/instant/packs/activate', { gameNo: design.gameNo, packNo: 1, location: 'caja-1', by: 'caja-1' })
    await post(
      '/api/instant/sales',
      { ageConfirmed: true, code: server.services.instant.signCode(instantWinner.serial), stationId: 'caja-1', hallId },
      201,
    )

    // Typos the screen answers itself: a character missing, the inventory serial instead of the hidden code.
    await page.getByTestId('cashier-code').fill(groupCode(instantWinner.code).slice(0, -1))
    await page.getByTestId('cashier-check').click()
    await expect.poll(() => statusOf(page)).toBe('invalid')
    expect(await text(page, 'cashier-status-title')).toBe('NO VÁLIDO')
    expect(await text(page, 'cashier-status-note')).toContain('24 caracteres')
    await page.getByTestId('cashier-code').fill(instantWinner.serial)
    await page.getByTestId('cashier-check').click()
    await expect.poll(() => text(page, 'cashier-status-note')).toContain('código de inventario')

    // The hidden code as a person types it: lower case, in groups of four.
    await page.getByTestId('cashier-code').fill(groupCode(instantWinner.code).toLowerCase())
    await page.getByTestId('cashier-check').click()
    await expect.poll(() => statusOf(page)).toBe('winner')
    expect(await page.getByTestId('cashier-code').inputValue()).toBe(groupCode(instantWinner.code))
    expect(await page.getByTestId('cashier-status').getAttribute('data-kind')).toBe('instant')
    expect(await text(page, 'cashier-kind')).toBe('RASPADITA · Raspa Illimani')
    expect(await text(page, 'cashier-status-title')).toBe('GANADOR')
    const amount = formatMoney(instantAmount, 'BOB', 'es').replace(/\s+/g, ' ')
    expect(await text(page, 'cashier-status-amount')).toBe(amount)
    expect(await text(page, 'cashier-ticket-kind')).toBe('Raspadita')
    expect(await text(page, 'cashier-serial')).toContain(instantWinner.serial)
    expect(await text(page, 'cashier-fact-game')).toContain('0812 · Raspa Illimani')
    expect(await text(page, 'cashier-fact-category')).toContain(`Categoría ${instantWinner.tier}`)
    expect(await text(page, 'cashier-prizes')).not.toMatch(/instant/)

    // INS-5: the register needs first and last names and the document before the PAY button works.
    await page.getByTestId('cashier-id-required').waitFor()
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    await page.getByTestId('cashier-payee-name').fill('Rosa')
    await page.getByTestId('cashier-payee-document').fill('CI 4812377 LP')
    await page.getByTestId('cashier-payee-hint').waitFor()
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    await page.getByTestId('cashier-payee-name').fill('Rosa Condori Mamani')
    // INS-10: and the inventory code printed outside the scratch area, typed from the ticket in hand.
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    await page.getByTestId('cashier-inventory-code').fill(instantWinner.serial)
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(false)
    expect(await text(page, 'cashier-pay')).toBe(`PAGAR ${amount}`)
    await page.screenshot({ path: join(SHOTS, 'cashier-instant-winner.png') })

    await page.getByTestId('cashier-pay').click()
    await expect.poll(() => statusOf(page)).toBe('done')
    expect(await text(page, 'cashier-status-title')).toBe('PAGADO')
    expect(await page.getByTestId('cashier-receipt').getAttribute('data-receipt')).toBe('printed')
    await imageLoaded(page)
    await page.screenshot({ path: join(SHOTS, 'cashier-instant-paid.png') })
    const register = (await api(server.url, 'GET', `/api/instant/games/${design.gameNo}/register`)).body
    expect(JSON.stringify(register)).toContain('Rosa Condori Mamani')

    // The same ticket again, this time its signed QR through the scanner: YA PAGADO, when and where.
    await page.getByTestId('cashier-next').click()
    await wedgeScan(page, server.services.instant.signCode(instantWinner.code))
    await expect.poll(() => statusOf(page)).toBe('paid')
    expect(await text(page, 'cashier-status-title')).toBe('YA PAGADO')
    expect(await text(page, 'cashier-status-note')).toMatch(/^el \d\d\/\d\d\/\d{4} \d\d:\d\d · caja-1 · Ana Quispe$/)
    expect(await page.getByTestId('cashier-pay').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'cashier-instant-already-paid.png') })
  })

  it('pays a winning lotto receipt once, shows its game, draw, receipt and category, and says YA PAGADO after (LNS-25, §8)', async () => {
    // A 6/49 draw whose balls come from an authorised blower: the test enters them, so the winner is known.
    await registerLottoBallSets(server.services) // LNS-9: the set and reserve the balls come from
    const plan = plan649({
      drawMethod: 'manual',
      drawDevice: await registerTombola(server.services, 'AJ-ANF-0042'),
      categories: [
        { code: 'C6', name: 'Premio Mayor', matches: 6, prize: { type: 'share', bp: 6000 } },
        { code: 'C5', name: 'Súper Boleto', matches: 5, prize: { type: 'share', bp: 4000 } },
        { code: 'C4', name: 'Oro Mágico', matches: 4, prize: { type: 'fixed', amountCents: 123_456 } },
        { code: 'C3', name: 'Reintegro', matches: 3, prize: { type: 'fixed', amountCents: 1000 } },
      ],
    })
    const drawId = (await post('/api/lotto/draws', plan, 201)).drawId as string
    const sell = (boards: number[][], name: string) =>
      post(
        `/api/lotto/draws/${drawId}/slips`,
        { ageConfirmed: true, boards, player: { name, document: '4455667 LP' } },
        201,
      )
    const winner = await sell(
      [
        [30, 31, 32, 33, 34, 35],
        [1, 2, 3, 4, 40, 41],
      ],
      'Juana Flores',
    )
    const loser = await sell([[20, 21, 22, 23, 24, 25]], 'Pedro Choque')
    t = Date.parse('2025-03-08T19:00:00-04:00')
    await post(`/api/lotto/draws/${drawId}/close`, {})
    t = Date.parse('2025-03-08T20:00:00-04:00')
    for (const ball of [1, 2, 3, 4, 5, 6]) await post(`/api/lotto/draws/${drawId}/balls`, { ball })
    await post(`/api/lotto/draws/${drawId}/settle`, {})
    t = Date.parse('2025-03-09T10:30:00-04:00')

    await wedgeScan(page, winner.code)
    await expect.poll(() => statusOf(page)).toBe('winner')
    expect(await page.getByTestId('cashier-status').getAttribute('data-kind')).toBe('lotto')
    expect(await text(page, 'cashier-kind')).toBe('BOLETO DE LOTTO · Loto 6/49')
    expect(await text(page, 'cashier-status-title')).toBe('GANADOR')
    expect(await text(page, 'cashier-status-amount')).toBe('Bs 1.234,56')
    expect(await text(page, 'cashier-ticket-kind')).toBe('Boleto de lotto')
    expect(await text(page, 'cashier-serial')).toContain(winner.receiptNumber)
    expect(await text(page, 'cashier-fact-game')).toContain('Loto 6/49 (LOTO649)')
    expect(await text(page, 'cashier-fact-draw')).toContain('101')
    expect(await text(page, 'cashier-fact-category')).toContain('Oro Mágico (4 aciertos)')
    expect(await text(page, 'cashier-prizes')).toContain('Sorteo 101 · jugada 2 — Oro Mágico (4 aciertos)')
    await page.getByTestId('cashier-id-required').waitFor()
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    await page.getByTestId('cashier-payee-name').fill('Juana Flores Mamani')
    await page.getByTestId('cashier-payee-document').fill('4455667 LP')
    expect(await text(page, 'cashier-pay')).toBe('PAGAR Bs 1.234,56')
    await page.screenshot({ path: join(SHOTS, 'cashier-lotto-winner.png') })

    await page.getByTestId('cashier-pay').click()
    await expect.poll(() => statusOf(page)).toBe('done')
    expect(await text(page, 'cashier-status-amount')).toBe('Bs 1.234,56')
    // The station printer prints no lotto payout: the screen draws the receipt to print and sign.
    expect(await page.getByTestId('cashier-receipt').getAttribute('data-receipt')).toBe('none')
    await page.getByTestId('cashier-receipt-local').waitFor()
    await page.getByTestId('cashier-print').waitFor()
    await imageLoaded(page)
    await page.screenshot({ path: join(SHOTS, 'cashier-lotto-paid.png') })
    const register = (await api(server.url, 'GET', `/api/lotto/prize-register?drawId=${drawId}`)).body.entries
    expect(register).toEqual([
      expect.objectContaining({
        ticketNumber: winner.receiptNumber,
        amountCents: 123_456,
        stationId: 'caja-1',
        cashierId: 'Ana Quispe',
        payee: expect.objectContaining({ name: 'Juana Flores Mamani' }),
      }),
    ])

    await page.getByTestId('cashier-next').click()
    await wedgeScan(page, winner.code)
    await expect.poll(() => statusOf(page)).toBe('paid')
    expect(await text(page, 'cashier-status-title')).toBe('YA PAGADO')
    expect(await text(page, 'cashier-status-amount')).toBe('Bs 1.234,56')
    expect(await text(page, 'cashier-status-note')).toMatch(/^el \d\d\/\d\d\/\d{4} \d\d:\d\d · caja-1 · Ana Quispe$/)
    expect(await page.getByTestId('cashier-pay').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'cashier-lotto-already-paid.png') })
    // The same answer in English.
    await page.getByTestId('lang-en').click()
    expect(await text(page, 'cashier-status-title')).toBe('ALREADY PAID')
    expect(await text(page, 'cashier-kind')).toBe('LOTTO RECEIPT · Loto 6/49')
    await page.getByTestId('lang-es').click()

    // A receipt without a prize, and one whose signature was altered.
    await page.getByTestId('cashier-clear').click()
    await wedgeScan(page, loser.code)
    await expect.poll(() => statusOf(page)).toBe('not_winner')
    expect(await text(page, 'cashier-status-title')).toBe('NO PREMIADO')
    const sig = loser.code.slice(-86)
    await wedgeScan(page, loser.code.slice(0, -86) + (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))
    await expect.poll(() => statusOf(page)).toBe('invalid')
    expect(await text(page, 'cashier-status-title')).toBe('NO VÁLIDO')
    expect(await page.getByTestId('cashier-status').getAttribute('class')).toContain('c-banner--bad')
  })
})
