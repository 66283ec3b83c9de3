/**
 * The kiosk's answer to a typed voucher code, in real Chromium with authentication on and an enrolled kiosk: a short
 * code with one wrong character matches no voucher and is said as a code to check ("Vale no encontrado"), not as a
 * voucher of another hall; a real voucher of another hall is said to be of another hall, and its amount is not shown
 * to this hall's kiosk (the server answers WRONG_HALL from the voucher's hall, not from anything the kiosk sends).
 * The right code then gives the credit. Screenshots in test-output/screenshots/kiosk-voucher-code-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { hallWithGameOnSale, sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'

browserSuite('the kiosk says a mistyped voucher code apart from a voucher of another hall', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''
  let kioskCredential = ''
  let ours = { code: '', shortCode: '' }
  let theirs = { code: '', shortCode: '' }

  beforeAll(async () => {
    ensureBuilt(['kiosk'], ['kiosk/src/kiosk', 'kiosk/kiosk', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { auth } = server.services
    const illimani = await hallWithGameOnSale(server.services, { name: 'Sala Illimani' })
    const alto = await hallWithGameOnSale(server.services, { name: 'Sala El Alto' })
    hallId = illimani.hallId
    kioskCredential = (await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })).credential
    for (const [username, hall] of [
      ['rosa', illimani.hallId],
      ['ana', alto.hallId],
    ] as const)
      await auth.createUser({ username, displayName: username, role: 'cashier', password: PASSWORD, halls: [hall] })
    const sell = async (username: string, hall: string) => {
      const till = await openTill(server.url, server.services, { hallId: hall, username, password: PASSWORD })
      const v = await sellVoucher(server.url, hall, 5_000, { stationId: till.station.id }, till.headers)
      return { code: v.code, shortCode: v.shortCode }
    }
    ours = await sell('rosa', illimani.hallId)
    theirs = await sell('ana', alto.hallId)
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  /** The short code with one character changed (to another of the alphabet's characters). */
  const mistyped = (short: string) => {
    const i = short.length - 1
    return short.slice(0, i) + (short[i] === '2' ? '3' : '2')
  }

  it('a mistyped short code is "not found"; another hall’s voucher is "of another hall"; the right one gives credit', async () => {
    const page = await pageOnClock(browser, server.services.clock, { width: 1366, height: 768 })
    await page.goto(`${server.url}/kiosk/?hall=${hallId}&device=${encodeURIComponent(kioskCredential)}`)
    await page.getByTestId('kiosk-cards').waitFor()
    const problem = page.getByTestId('kiosk-voucher-problem')
    const typeCode = async (code: string) => {
      await page.getByTestId('kiosk-voucher-code').fill(code)
      await page.getByTestId('kiosk-voucher-check').click()
    }

    await typeCode(mistyped(ours.shortCode))
    await expect.poll(() => problem.getAttribute('data-problem')).toBe('voucher_not_found')
    const said = (await problem.innerText()).replace(/\s+/g, ' ')
    expect(said).toContain('Vale no encontrado.')
    expect(said).toContain('Ningún vale tiene este código. Revise lo que escribió')
    expect(said).not.toContain('otra sala')
    expect(said).not.toContain('esta sala')
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-voucher-code-not-found-es.png') })

    await typeCode(theirs.shortCode)
    await expect.poll(() => problem.getAttribute('data-problem')).toBe('voucher_other_hall')
    const other = (await problem.innerText()).replace(/\s+/g, ' ')
    expect(other).toContain('Vale de otra sala.')
    expect(other).toContain('Este vale es de otra sala: solo se usa allí.')
    expect(other).not.toMatch(/50,00/)
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-voucher-code-other-hall-es.png') })

    await typeCode(ours.shortCode)
    await expect.poll(() => page.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s50,00/)
    expect(await problem.count()).toBe(0)
    await page.close()
  })

  it('the kiosk cannot read another hall’s voucher through the API, by its QR code or its short code', async () => {
    const kiosk = { authorization: `Device ${kioskCredential}`, 'accept-language': 'es' }
    for (const code of [theirs.code, theirs.shortCode]) {
      const r = await api(server.url, 'POST', '/api/vouchers/check', { code }, kiosk)
      expect([r.status, r.body.error?.code]).toEqual([403, 'WRONG_HALL'])
      expect(JSON.stringify(r.body)).not.toContain('5000')
    }
    const unknown = await api(server.url, 'POST', '/api/vouchers/check', { code: mistyped(ours.shortCode) }, kiosk)
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'TICKET_NOT_FOUND'])
    const own = await api(server.url, 'POST', '/api/vouchers/check', { code: ours.shortCode }, kiosk)
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({ status: 'active', amountCents: 5_000 })
  })
})
