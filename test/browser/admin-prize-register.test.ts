/**
 * Issue 29 (the prize register with its payments) in real Chromium at 1920 x 1080, authentication on, enrolled
 * stations: a game is played and its winners paid at Caja 1 by the cashier, one to a named payee; the director opens
 * Inspección and reads the register of prizes paid: every payment with its hall and game, the card's serial, the
 * amount, the payee, the time on the hall's clock (the browser runs on Tokyo's, thirteen hours away) with the zone
 * named, and the total; the PDF button downloads the same register. In Spanish and English, with no code or internal
 * id on screen. Screenshots in test-output/screenshots/admin-prize-register-*.png.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { paidHall, PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T23:40:00Z') + (Date.now() - started)) }
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

browserSuite('the register of prizes paid, read in the back office (issue 29)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hall: PaidHall
  const paid: Array<{ serial: string; amountCents: number; paidAt: string; payee: string | null }> = []
  const ids: string[] = []

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    hall = await paidHall(server.services)
    const cashier = { authorization: `Bearer ${hall.cashierToken}`, 'accept-language': 'es' }
    const sold = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { count: 30, ageConfirmed: true },
      cashier,
    )
    expect(sold.status).toBe(201)
    await playToTheEnd(server.services, hall.gameId)
    const winners = await winningCodes(server.services, hall.gameId)
    expect(winners.length).toBeGreaterThan(0)
    for (const [i, w] of winners.entries()) {
      const payee = i === 0 ? { payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' } : {}
      const r = await api(server.url, 'POST', '/api/tickets/pay', { code: w.code, ...payee }, cashier)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      ids.push(r.body.payout.payoutId)
    }
    const register = await api(server.url, 'GET', '/api/prize-register', undefined, {
      authorization: `Bearer ${hall.directorToken}`,
    })
    for (const row of register.body.rows)
      paid.push({ serial: row.serial, amountCents: row.amountCents, paidAt: row.paidAt, payee: row.payeeName })
    ids.push(hall.hallId, hall.gameId, hall.sessionId, hall.station.id, hall.kiosk.id)
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  /** The director at a back office whose browser runs on Tokyo's clock. */
  async function openRegister(lang: 'es' | 'en'): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 }, timezoneId: 'Asia/Tokyo' })
    await page.clock.setSystemTime(clock.now())
    await page.goto(`${server.url}/admin/?lang=${lang}#/inspection`)
    await page.fill('input[name=username]', 'jefa')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('register-table').waitFor()
    return page
  }
  async function clean(page: Page) {
    const text = await page.evaluate(() => document.body.innerText)
    expect(screenLeaks(text)).toEqual([])
    for (const id of ids) expect(text, `internal id ${id} on screen`).not.toContain(id)
  }

  it('lists every payment: hall and game, serial, amount, payee, the hall’s time with its zone, and the total', async () => {
    const page = await openRegister('es')
    const table = page.getByTestId('register-table')
    expect(await table.locator('tbody tr').count()).toBe(paid.length)
    expect(norm(await table.locator('thead').innerText()).toLowerCase()).toContain('cartón')
    for (const p of paid) {
      const row = norm(await table.locator('tr', { hasText: p.serial }).innerText())
      expect(row).toContain('Sala Illimani · Partida nº 1')
      expect(row).toContain(norm(formatMoney(p.amountCents, 'BOB', 'es')))
      expect(row).toContain(formatInZone(p.paidAt, 'America/La_Paz'))
      expect(row).not.toContain(formatInZone(p.paidAt, 'Asia/Tokyo'))
      if (p.payee) expect(row).toContain(p.payee)
    }
    expect(norm(await page.getByTestId('register-zone').innerText())).toBe('Horas de la sala: La Paz, UTC-04:00.')
    const total = paid.reduce((s, p) => s + p.amountCents, 0)
    expect(norm(await page.getByTestId('register-total').innerText())).toContain(norm(formatMoney(total, 'BOB', 'es')))
    await clean(page)
    await page.getByTestId('registers').screenshot({ path: join(SCREENSHOTS, 'admin-prize-register-es.png') })

    // "PDF": the same register on paper, on the hall's clock.
    let pdf: Buffer | null = null
    await page.route('**/prize-register.pdf*', async (route) => {
      const r = await route.fetch({ timeout: 60_000 })
      pdf = await r.body()
      await route.fulfill({ response: r, body: pdf })
    })
    const popup = page.waitForEvent('popup', { timeout: 60_000 })
    await page.getByTestId('registers').getByRole('button', { name: 'Descargar PDF' }).click()
    await popup
    const file = join(server.dataDir, 'registro-de-premios.pdf')
    writeFileSync(file, pdf!)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    for (const p of paid) {
      expect(text).toContain(p.serial)
      expect(text).toContain(formatInZone(p.paidAt, 'America/La_Paz').slice(-5))
    }
    expect(text).toContain('Juana Mamani')
    for (const id of ids) expect(text).not.toContain(id)
    await page.close()
  })

  it('reads in English: headings, the zone note and the rows', async () => {
    const page = await openRegister('en')
    const head = norm(await page.getByTestId('register-table').locator('thead').innerText()).toLowerCase()
    expect(head).toContain('amount')
    expect(head).toContain('payee')
    expect(head).toContain('card')
    expect(norm(await page.getByTestId('register-zone').innerText())).toBe("The hall's times: La Paz, UTC-04:00.")
    const first = norm(await page.getByTestId('register-table').locator('tr', { hasText: paid[0].serial }).innerText())
    expect(first).toContain(formatInZone(paid[0].paidAt, 'America/La_Paz'))
    await clean(page)
    await page.getByTestId('registers').screenshot({ path: join(SCREENSHOTS, 'admin-prize-register-en.png') })
    await page.close()
  })
})
