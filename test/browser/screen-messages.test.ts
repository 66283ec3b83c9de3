/**
 * Issue 14 point 7: no screen shows a user an English error code, a permission name or an internal id. Every
 * screen is opened in a real Chromium with authentication on and driven into a refusal (a device whose role may
 * not act there, a revoked credential, an unknown hall); what the page shows must be the server's message in the
 * screen's language, and `screenLeaks` must find nothing. Before this issue the cashier showed
 * "Su rol no permite esta operación. display may not ticket.validate", which this test refuses.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

browserSuite('no screen shows a code, a permission or an id (issue 14 point 7)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const hallId = 'potosi'
  let displayCredential = ''
  let revokedCredential = ''

  async function open(
    path: string,
    ready: (page: Page) => Promise<unknown>,
    shotName: string,
    httpRefusal = true,
  ): Promise<string> {
    const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'es-BO' })
    const page = await ctx.newPage()
    const refusals: number[] = []
    page.on('response', (r) => {
      if (r.status() >= 400) refusals.push(r.status())
    })
    await page.goto(`${server.url}${path}`)
    await ready(page)
    await page.waitForTimeout(500)
    const text = norm(await page.locator('body').textContent())
    await page.screenshot({ path: join(SCREENSHOTS, shotName) })
    await ctx.close()
    if (httpRefusal) expect(refusals.length, `${path} met no refusal: the test would prove nothing`).toBeGreaterThan(0)
    return text
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['kiosk', 'cashier', 'lotto', 'instant', 'display'], ['kiosk', 'display', 'web'])
    browser = await launchChromium()
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Potosí',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    displayCredential = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla de la sala', hallId }))
      .credential
    const revoked = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Quiosco retirado', hallId })
    await auth.revokeDevice(revoked.id)
    revokedCredential = revoked.credential
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'the cashier screen, used by a display device, says in Spanish that the role may not, without code or permission',
    { timeout: 60_000 },
    async () => {
      const text = await open(
        `/cashier/?hall=${hallId}&device=${encodeURIComponent(displayCredential)}`,
        async (page) => {
          await page.getByTestId('cashier-code').fill('A-00001')
          await page.getByTestId('cashier-check').click()
          await page.getByTestId('cashier-error').waitFor()
        },
        'messages-cashier.png',
      )
      expect(text).toContain('Su rol no permite esta operación.')
      expect(screenLeaks(text)).toEqual([])
    },
  )

  it(
    'the lotto, instant and sales kiosks with a revoked credential, and the hall display of an unknown hall, show words only',
    { timeout: 120_000 },
    async () => {
      const device = encodeURIComponent(revokedCredential)
      // /lotto/ and /instant/ open the one kiosk on their section (issue 13 point 1): the same refusal, in words.
      const lotto = await open(
        `/lotto/?hall=${hallId}&device=${device}`,
        (page) => page.getByTestId('kiosk-refused').waitFor(),
        'messages-lotto.png',
      )
      // Issue 29 point 7: says what happened to the station and what to do, not "Debe identificarse."
      expect(lotto).toContain('Este equipo ya no está autorizado')
      expect(screenLeaks(lotto)).toEqual([])
      const instant = await open(
        `/instant/?hall=${hallId}&device=${device}`,
        (page) => page.waitForLoadState('networkidle'),
        'messages-instant.png',
      )
      expect(screenLeaks(instant)).toEqual([])
      const kiosk = await open(
        `/kiosk/?hall=${hallId}&device=${device}`,
        (page) => page.waitForLoadState('networkidle'),
        'messages-kiosk.png',
      )
      expect(screenLeaks(kiosk)).toEqual([])
      // The hall display hears its refusal over the socket, not HTTP.
      const display = await open(
        '/display/?hall=no-such-hall',
        (page) => page.getByTestId('state').waitFor(),
        'messages-display.png',
        false,
      )
      expect(screenLeaks(display)).toEqual([])
      expect(display).not.toMatch(/not found|no such/i)
    },
  )
})
