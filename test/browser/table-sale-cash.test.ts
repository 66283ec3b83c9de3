/**
 * GEN-17 (issue 24 point 6) in a real Chromium, authentication on, an enrolled table station and real people: a table
 * sale over the small-notes limit used to be refused with CASH_COUNT_REQUIRED because the console sent no count. The
 * console now takes the cash note by note (large touch targets, Spanish first); "Vender" stays disabled until the
 * count equals the amount due, and the sale goes with its count (small notes and coins, other notes), is accepted,
 * and the cash intake records the denominations.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameState } from '../../server/src/bingo/service.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const textOf = async (page: Page, id: string) => norm(await page.getByTestId(id).first().textContent({ timeout: 5000 }))

async function until<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    try {
      last = await read()
      if (JSON.stringify(last) === JSON.stringify(expected)) return
    } catch {
      /* not there yet */
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  expect.fail(`${what}: expected ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}`)
}

browserSuite('a table sale over the GEN-17 limit goes with its note count (issue 24 point 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const hallId = 'oruro'
  let table: { id: string; credential: string }
  const tokens = new Map<string, string>()

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['caller'], ['display', 'web'])
    browser = await launchChromium()
    // UIF threshold Bs 1.000, small-notes share 30 %: the limit is Bs 300; 40 cards at Bs 10 are Bs 400.
    server = await startTestServer({ auth: 'on', amlThresholdCents: 100_000, amlSmallShareBp: 3000 })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Oruro',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'table-sale-cash' })
    await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    for (const [username, displayName, role] of [
      ['pedro', 'Pedro Flores', 'caller'],
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['directora', 'Elena Vargas', 'director'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    table = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Mesa 1', hallId })
    const session = await api(
      server.url,
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      {
        authorization: `Bearer ${tokens.get('marta')}`,
        'x-bolillo-second-person': Buffer.from(`directora:${PASSWORD}`).toString('base64'),
      },
    )
    expect(session.status).toBe(201)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'the locutor counts Bs 400 note by note (the sale waits until the count equals the amount), and the sale is accepted with its count',
    { timeout: 240_000 },
    async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 1024 } })).newPage()
      await page.goto(`${server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(table.credential)}`)
      await page.getByTestId('login').waitFor()
      await page.getByTestId('login-user').fill('pedro')
      await page.getByTestId('login-password').fill(PASSWORD)
      await page.getByTestId('login-submit').click()
      await page.getByTestId('caller-role').waitFor()
      // The jefe announces on his console with her own password; he opens sales and his table's till.
      await page.getByTestId('announce').click()
      await page.getByTestId('authorise').waitFor()
      await page.getByTestId('authorise-user').fill('marta')
      await page.getByTestId('authorise-password').fill(PASSWORD)
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('open-sales').click()
      await page.getByTestId('till-float').fill('50')
      await page.getByTestId('till-open').click()
      await page.getByTestId('till-open-shift').waitFor()
      const gameId = (await api<{ currentGameId: string }>(server.url, 'GET', `/api/halls/${hallId}`)).body
        .currentGameId
      // CFG-7: the locutor at the table's station sells on the table channel, and the panel says so.
      expect(await textOf(page, 'sale-heading')).toBe('Venta en mesa')

      await page.getByTestId('sell-count').fill('40')
      await page.getByTestId('cash-count').waitFor()
      expect(await textOf(page, 'cash-due')).toMatch(/^Bs\.?\s?400,00$/)
      // Nothing counted: the sale is not offered.
      expect(await page.getByTestId('sell').isDisabled()).toBe(true)
      expect(await textOf(page, 'cash-state')).toMatch(/^Falta: Bs\.?\s?400,00$/)
      // Bs 200 + Bs 100 + five Bs 20 (Bs 100 in small notes, under the limit: no document needed).
      await page.getByTestId('note-plus-20000').click()
      await page.getByTestId('note-plus-10000').click()
      for (let i = 0; i < 6; i++) await page.getByTestId('note-plus-2000').click()
      expect(await textOf(page, 'cash-state')).toMatch(/^Sobra: Bs\.?\s?20,00$/)
      expect(await page.getByTestId('sell').isDisabled()).toBe(true)
      await page.getByTestId('note-minus-2000').click()
      expect(await textOf(page, 'cash-state')).toBe('Cuadra con el importe')
      expect(await textOf(page, 'cash-small')).toMatch(/^Bs\.?\s?100,00$/)
      expect(await textOf(page, 'cash-other')).toMatch(/^Bs\.?\s?300,00$/)
      // GEN-23: the cash is right, but no sale until the person at the table ticks that the player is of age.
      expect(await page.getByTestId('sell').isDisabled()).toBe(true)
      expect(await page.locator('label:has([data-testid="sell-age"])').textContent()).toBe(
        'El jugador es mayor de edad: he visto su documento (GEN-23)',
      )
      await page.getByTestId('sell-age').check()
      expect(await page.getByTestId('sell').isDisabled()).toBe(false)
      await settled(page, { animations: false }) // the screenshot ends them
      await page.screenshot({ path: join(SCREENSHOTS, 'table-sale-cash-count.png'), animations: 'disabled' })
      await page.getByTestId('sell').click()
      await until(
        'sold',
        async () =>
          (
            await api<GameState>(server.url, 'GET', `/api/games/${gameId}`, undefined, {
              authorization: `Bearer ${tokens.get('marta')}`,
            })
          ).body.cardsSold,
        40,
      )
      expect(await page.getByTestId('error-banner').count()).toBe(0)
      // The intake records its denominations (GEN-17); the count is cleared for the next sale.
      const intake = (await server.services.db.get<Record<string, unknown>>(
        "SELECT amount_cents, small_cents, other_cents, station_id FROM cash_intakes WHERE source = 'counter_sale'",
      ))!
      expect({
        amount: Number(intake.amount_cents),
        small: Number(intake.small_cents),
        other: Number(intake.other_cents),
        station: intake.station_id,
      }).toEqual({ amount: 40_000, small: 10_000, other: 30_000, station: table.id })
      await until('count cleared', async () => /^Bs\.?\s?0,00$/.test(await textOf(page, 'cash-received')), true)
      // The tick is per sale: the next player is asked again.
      expect(await page.getByTestId('sell-age').isChecked()).toBe(false)
      await page.screenshot({ path: join(SCREENSHOTS, 'table-sale-cash-sold.png'), animations: 'disabled' })
    },
  )

  it(
    'CFG-7: a cashier logged in at the cash desk "Caja 1" sells on the counter channel: the panel reads "Venta en caja"',
    { timeout: 120_000 },
    async () => {
      await server.services.auth.createUser({
        username: 'rosa',
        displayName: 'Rosa Vargas',
        role: 'cashier',
        password: PASSWORD,
      })
      const desk = await server.services.auth.enrolDevice({
        ...sealed(),
        kind: 'cashier_station',
        name: 'Caja 1',
        hallId,
      })
      for (const lang of ['es', 'en'] as const) {
        const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage()
        const q = lang === 'en' ? '&lang=en' : ''
        await page.goto(`${server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(desk.credential)}${q}`)
        await page.getByTestId('login').waitFor()
        await page.getByTestId('login-user').fill('rosa')
        await page.getByTestId('login-password').fill(PASSWORD)
        await page.getByTestId('login-submit').click()
        await page.getByTestId('sale-heading').waitFor()
        expect(await textOf(page, 'sale-heading')).toBe(lang === 'es' ? 'Venta en caja' : 'Cash desk sale')
        // Her till is the desk's, not a table's.
        expect(await textOf(page, 'till-open')).toBe(lang === 'es' ? 'Abrir caja' : 'Open the till')
        expect(await textOf(page, 'till-closed')).not.toMatch(/mesa|table/i)
        if (lang === 'es') {
          await settled(page, { animations: false })
          await page.screenshot({ path: join(SCREENSHOTS, 'caller-desk-sale-heading.png'), animations: 'disabled' })
        }
        await page.close()
      }
    },
  )
})
