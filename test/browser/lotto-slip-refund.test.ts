/**
 * Issue 29 point 1, the cancelled lotto draw's slip (LNS-22, LOT-21) in a real Chromium, authentication on: the
 * refund of its price goes through the cash desk's one door for a presented ticket (ticket-desk.ts `pay`, the lotto
 * line answering REFUND_ONLY), and the cashier now reads its consequence and confirms before the cash leaves the
 * drawer, which gives exactly the slip's price.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2025-03-14T10:00:00-04:00') + (Date.now() - started)) }

browserSuite("a cancelled lotto draw's slip refunded at the cashier, confirmed first (issue 29 point 1)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let till: Till
  let slip = { code: '', receiptNumber: '' }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['cashier'], ['kiosk', 'web'])
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await server.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
    })
    const jefa = { authorization: `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}` }
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 10_000,
    })
    const device = await api(
      server.url,
      'POST',
      '/api/devices',
      { id: 'tombola-7', kind: 'blower', name: 'Tómbola', sealCode: 'AJ-T-0007', certificateId: 'AJ-CERT-2024-07' },
      jefa,
    )
    expect(device.status).toBe(201)
    const draw = await api(
      server.url,
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'CANCEL',
        drawNumber: 1,
        drawMethod: 'manual',
        drawDevice: 'AJ-T-0007',
        salesStartAt: '2025-03-14T08:00:00-04:00',
        salesCloseAt: '2025-03-20T19:00:00-04:00',
        drawAt: '2025-03-20T20:00:00-04:00',
        claimDeadline: '2025-05-30T23:59:59-04:00',
      }),
      jefa,
    )
    expect(draw.status, JSON.stringify(draw.body)).toBe(201)
    const sold = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${draw.body.drawId}/slips`,
      {
        ageConfirmed: true,
        boards: [[1, 2, 3, 4, 5, 6]],
        draws: 1,
        player: { name: 'Ana Quispe', document: '445566 LP' },
      },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    slip = sold.body
    const cancel = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${draw.body.drawId}/cancel`,
      { kind: 'withdrawal', authorisationRef: 'AJ-RA-2025-0500', reason: 'Desistimiento del sorteo' },
      jefa,
    )
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
    browser = await launchChromium()
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'Spanish, 1366x768: SOLO REEMBOLSO, the confirm says the consequence, the drawer gives exactly the price',
    { timeout: 90_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await page.goto(`${server.url}/cashier/?hall=lapaz&device=${encodeURIComponent(till.station.credential)}`)
      await page.getByTestId('shift-login').waitFor()
      await page.getByTestId('shift-user').fill('cajera')
      await page.getByTestId('shift-password').fill(PASSWORD)
      await page.getByTestId('shift-enter').click()
      await page.getByTestId('shift-bar').waitFor()
      const expected = async () =>
        (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift
          .expectedCents as number
      const before = await expected()
      await page.getByTestId('cashier-code').click()
      await page.keyboard.type(slip.code)
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('refund')
      const name = page.getByTestId('cashier-payee-name')
      if (await name.count()) {
        await name.fill('Ana Quispe')
        await page.getByTestId('cashier-payee-document').fill('445566 LP')
      }
      await page.getByTestId('cashier-pay').click()
      expect(norm(await page.getByTestId('cashier-confirm').textContent())).toContain('¿Reembolsar este boleto?')
      await page.getByTestId('cashier-confirm-no').waitFor()
      const text = norm(await page.getByTestId('cashier-confirm-text').textContent())
      expect(text).toMatch(/^Entregará Bs\.?\s?5,00 en efectivo de su caja\. El boleto queda reembolsado/)
      expect(await expected()).toBe(before)
      await page.screenshot({ path: join(SCREENSHOTS, 'refund-lotto-confirm-es-1366x768.png') })
      await page.getByTestId('cashier-confirm-yes').click()
      await expect.poll(() => page.getByTestId('cashier-status').getAttribute('data-status')).toBe('done')
      expect(norm(await page.getByTestId('cashier-status-title').textContent())).toBe('REEMBOLSADO')
      expect(await expected()).toBe(before - 500)
      await page.close()
    },
  )
})
