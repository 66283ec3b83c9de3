import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { rafflePlan } from '../helpers/lottery-plans.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

/** An internal id (a raffle or lottery ticket, a payout, a lottery, a lotto slip's row): never shown to a person. */
const INTERNAL_ID = /\b(rfl|lpay|lot|lto)_[a-z0-9]/

/**
 * PRM-2 in real Chromium, authentication on as shipped: a tómbola by points. The cashier scans a ticket and the screen
 * says what it is worth; the holder's other tickets are added, the points add up on screen, the object is named, and
 * one hand-over uses them all.
 */
const PASSWORD = 'correct horse battery'

browserSuite('the cashier hands over a tómbola object against tickets whose points reach its figure (PRM-2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  let hallId = ''
  let credential = ''
  let drawId = ''
  let jefa = ''
  const codes = new Map<number, string>()
  let fives: number[] = []
  let ones: number[] = []

  beforeAll(async () => {
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth } = server.services
    for (const [username, displayName, role] of [
      ['jefa', 'Elena Ruiz', 'director'],
      ['pepe', 'José Sainz', 'cashier'],
      ['rosa', 'Rosa Gómez', 'cashier'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
    }
    jefa = `Bearer ${(await auth.login('jefa', PASSWORD)).token}`
    const boss = (method: string, path: string, body?: unknown) =>
      api(server.url, method, path, body, { authorization: jefa })
    hallId = (
      await boss('POST', '/api/halls', {
        name: 'Sala Pereda',
        profileId: 'ES-CB-2010',
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
        saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
        playingPositions: 100,
      })
    ).body.id
    const base = rafflePlan()
    const prizes = [
      ['T1', 'Bicicleta', 'Bicicleta de montaña'],
      ['T2', 'Cesta', 'Cesta de productos de Cantabria'],
    ].map(([code, name, description], i) => ({
      ...base.prizes[0],
      code,
      name,
      description,
      valueCents: 10_000 * (i + 1),
    }))
    const created = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        kind: 'tombola',
        gameCode: 'TOMBPTS',
        numbering: { from: 1, to: 30, digits: 2 },
        ticketPriceCents: 3_000,
        prizes,
        points: {
          basesRef: 'Bases de la tómbola de San Juan, art. 6',
          hallId,
          totalPoints: 14,
          tiers: [
            { count: 2, points: 5 },
            { count: 4, points: 1 },
          ],
          figures: { T1: 7, T2: 3 },
        },
      } as never),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    drawId = created.body.drawId
    const booth = await openTill(server.url, server.services, {
      hallId,
      username: 'pepe',
      password: PASSWORD,
      stationName: 'Caseta',
      floatCents: 0,
    })
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${drawId}/tickets`,
      { ageConfirmed: true, numbers: Array.from({ length: 30 }, (_, i) => i + 1) },
      booth.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const x of sold.body.tickets) codes.set(Number(x.number), x.code)
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await auth.login('jefa', PASSWORD)).token}`
    for (const step of ['close', 'draw', 'settle'])
      expect(
        (await boss('POST', `/api/lottery/draws/${drawId}/${step}`, step === 'close' ? {} : undefined)).status,
      ).toBe(200)
    const list = (await boss('GET', `/api/lottery/draws/${drawId}/extracto`)).body.points.tickets as Array<{
      number: string
      points: number
    }>
    fives = list.filter((x) => x.points === 5).map((x) => Number(x.number))
    ones = list.filter((x) => x.points === 1).map((x) => Number(x.number))
    credential = (await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId })).credential
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('shows what each ticket is worth, adds them up, and hands over the bicycle once for 5 + 1 + 1 points', async () => {
    const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
    await page.goto(`${server.url}/cashier/?hall=${hallId}&device=${encodeURIComponent(credential)}`)
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-float').fill('0')
    await page.getByTestId('shift-open').click()
    await page.getByTestId('shift-open-since').waitFor()

    await page.getByTestId('cashier-code').fill(codes.get(fives[0])!)
    await page.getByTestId('cashier-check').click()
    await page.getByTestId('cashier-points').waitFor()
    // No internal id before a person: the ticket card shows the game, draw and number printed on the ticket.
    const card = (await page.getByTestId('cashier-ticket').textContent()) ?? ''
    expect(card).toContain('Número')
    expect(card).not.toMatch(INTERNAL_ID)
    expect((await page.locator('body').textContent()) ?? '').toContain('Vale 5 puntos')
    const offered = (await page.getByTestId('cashier-choices').textContent()) ?? ''
    expect(offered).toContain('Bicicleta de montaña (7 puntos)')
    expect(offered).toContain('Cesta de productos de Cantabria (3 puntos)')
    await page.getByTestId('cashier-payee-name').fill('Juan Pérez Cobo')
    await page.getByTestId('cashier-payee-document').fill('13000222K')
    // Nothing is handed over until the holder names the object.
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    for (const n of ones.slice(0, 2)) {
      await page.getByTestId('cashier-points-add').fill(codes.get(n)!)
      await page.getByTestId('cashier-points-add-button').click()
      await page.getByText(`Boleto ${String(n).padStart(2, '0')}: 1 punto`).waitFor()
    }
    expect(await page.getByTestId('cashier-points-total').textContent()).toBe('Total: 7 puntos')
    await page.getByTestId('cashier-choice-T1').check()
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-tombola-points.png') })
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(false)
    expect(await page.getByTestId('cashier-pay').textContent()).toBe('ENTREGAR PREMIO')
    await page.getByTestId('cashier-pay').click()
    await page.getByTestId('cashier-receipt').waitFor()
    const body = (await page.locator('body').textContent()) ?? ''
    expect(body).toContain('Bicicleta de montaña')
    // The receipt drawn on screen lists every ticket used, with its points.
    const src = (await page.getByTestId('cashier-receipt-preview').getAttribute('src')) ?? ''
    const receipt = decodeURIComponent(src.slice(src.indexOf(',') + 1))
    for (const n of [fives[0], ...ones.slice(0, 2)])
      expect(receipt).toContain(`Boleto usado ${String(n).padStart(2, '0')}`)
    expect(receipt).toContain('5 puntos')
    // Nor on paper: neither the payout's id nor the ticket's.
    expect(receipt).toContain('PAGO DE PREMIO')
    expect(receipt).not.toMatch(INTERNAL_ID)
    expect(receipt.split('1 punto<').length - 1).toBe(2)
    expect(screenLeaks(body)).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-tombola-points-done.png') })

    const register = (
      await api(server.url, 'GET', `/api/lottery/prize-register?drawId=${drawId}`, undefined, { authorization: jefa })
    ).body.entries
    expect(register.map((e: any) => [e.payee.name, e.prizes.map((p: any) => p.code)])).toEqual([
      ['Juan Pérez Cobo', ['T1']],
    ])
    // Every ticket presented is used: each now reads as used at the desk.
    for (const n of [fives[0], ...ones.slice(0, 2)]) {
      const v = await api(server.url, 'POST', '/api/tickets/validate', { code: codes.get(n) }, { authorization: jefa })
      expect(v.body.view.verdict, String(n)).toBe('paid')
    }
    await page.close()
  })
})
