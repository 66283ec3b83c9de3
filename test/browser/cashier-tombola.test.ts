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
 * PRM-2 in real Chromium, authentication on as shipped: a tómbola's winner whose object was already taken by another
 * winner is shown the objects still there, chooses one at the cashier's station, and it is handed over once.
 */
const PASSWORD = 'correct horse battery'

browserSuite('the cashier hands a tómbola winner the object they choose (PRM-2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  let hallId = ''
  let credential = ''
  let drawId = ''
  let jefa = ''
  const codes = new Map<number, string>()
  let winning: Record<string, number> = {}

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
    const objects = [
      ['T1', 'Bicicleta', 'Bicicleta de montaña'],
      ['T2', 'Cesta', 'Cesta de productos de Cantabria'],
      ['T3', 'Jamón', 'Jamón ibérico de bellota'],
    ]
    const prizes = objects.map(([code, name, description], i) => ({
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
        gameCode: 'TOMBSJ',
        numbering: { from: 1, to: 30, digits: 2 },
        ticketPriceCents: 3_000,
        prizes,
      }),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    drawId = created.body.drawId
    // Every number sold at the association's booth, for cash into José's shift.
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
    // The draw night: the three objects drawn at once; the winner of the ham takes the bicycle at the booth.
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await auth.login('jefa', PASSWORD)).token}`
    for (const step of ['close', 'draw', 'settle'])
      expect(
        (await boss('POST', `/api/lottery/draws/${drawId}/${step}`, step === 'close' ? {} : undefined)).status,
      ).toBe(200)
    winning = (await boss('GET', `/api/lottery/draws/${drawId}`)).body.result.winning
    await booth.relogin()
    const first = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: codes.get(winning.T3), payeeName: 'Pilar Sainz Ortiz', payeeDocument: '72000111X', objectCode: 'T1' },
      booth.headers,
    )
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    credential = (await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId })).credential
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('shows the winner of the bicycle the two objects left, hands over the one chosen, and the register records it', async () => {
    const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
    await page.goto(`${server.url}/cashier/?hall=${hallId}&device=${encodeURIComponent(credential)}`)
    await page.getByTestId('shift-user').fill('rosa')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-float').fill('0')
    await page.getByTestId('shift-open').click()
    await page.getByTestId('shift-open-since').waitFor()

    await page.getByTestId('cashier-code').fill(codes.get(winning.T1)!)
    await page.getByTestId('cashier-check').click()
    await page.getByTestId('cashier-choices').waitFor()
    // No internal id before a person: the ticket card shows the game, draw and number printed on the ticket.
    const card = (await page.getByTestId('cashier-ticket').textContent()) ?? ''
    expect(card).toContain('Número')
    expect(card).not.toMatch(INTERNAL_ID)
    const offered = (await page.getByTestId('cashier-choices').textContent()) ?? ''
    expect(offered).toContain('Cesta de productos de Cantabria')
    expect(offered).toContain('Jamón ibérico de bellota')
    expect(offered).not.toContain('Bicicleta')
    // The bicycle drawn for his ticket is gone: the banner asks for a choice, then shows the object chosen.
    expect(await page.getByTestId('cashier-status-amount').textContent()).toBe('Elija un objeto')
    expect((await page.locator('body').textContent()) ?? '').not.toContain('Bicicleta de montaña')
    await page.getByTestId('cashier-payee-name').fill('Juan Pérez Cobo')
    await page.getByTestId('cashier-payee-document').fill('13000222K')
    // His own object is gone: nothing is handed over until he chooses.
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(true)
    await page.getByTestId('cashier-choice-T3').check()
    expect(await page.getByTestId('cashier-status-amount').textContent()).toBe('Jamón: Jamón ibérico de bellota')
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-tombola-choice.png') })
    expect(await page.getByTestId('cashier-pay').isDisabled()).toBe(false)
    await page.getByTestId('cashier-pay').click()
    await page.getByTestId('cashier-receipt').waitFor()
    // The receipt drawn on screen names the station and the person logged in, not the address's ids.
    expect(await page.getByTestId('cashier-person').textContent()).toBe('Rosa Gómez')
    const body = (await page.locator('body').textContent()) ?? ''
    expect(body).toContain('Jamón ibérico de bellota')
    expect(screenLeaks(body)).toEqual([])
    // Nor on the receipt drawn on screen: neither the payout's id nor the ticket's.
    const src = (await page.getByTestId('cashier-receipt-preview').getAttribute('src')) ?? ''
    const receipt = decodeURIComponent(src.slice(src.indexOf(',') + 1))
    expect(receipt).toContain('PAGO DE PREMIO')
    expect(receipt).not.toMatch(INTERNAL_ID)
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-tombola-done.png') })

    const register = (
      await api(server.url, 'GET', `/api/lottery/prize-register?drawId=${drawId}`, undefined, { authorization: jefa })
    ).body.entries
    expect(register.map((e: any) => [e.payee.name, e.prizes.map((p: any) => p.code)])).toEqual(
      expect.arrayContaining([
        ['Pilar Sainz Ortiz', ['T1']],
        ['Juan Pérez Cobo', ['T3']],
      ]),
    )
    expect(register).toHaveLength(2)
    await page.close()
  })
})
