/**
 * Issue 29 point 9 in real Chromium, authentication on, at an enrolled kiosk (portrait 1080 x 1920 in Spanish,
 * landscape 1366 x 768 in English): a touch kiosk has no keyboard, so the voucher's printed short code is typed only
 * by tapping the on-screen keyboard's keys (Spanish layout, large keys, Borrar, Aceptar) and the player buys a
 * card with it; the lotto player's name and document open the keyboard with letters, accents and space. The voucher
 * field is as wide as its placeholder; "Usar la cámara" without a camera says, in the screen's language, to type
 * the code instead (never the browser's English error); every character of an empty state is in DejaVu Sans, the
 * only font a kiosk may have (no missing-glyph box). Screenshots in test-output/screenshots/kiosk-keyboard-*.png.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { hallWithGameOnSale, sellVoucher, type HallSetup } from '../helpers/cashdesk.ts'
import { plan649, registerTombola } from '../helpers/lottery-plans.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'correct horse battery'
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-02T10:00:00-04:00') + (Date.now() - started)) }

/** Whether DejaVu Sans (fonts-dejavu-core, what CI and a kiosk image have) draws the character. */
const inDejaVu = (ch: string) =>
  execFileSync('fc-list', [`:charset=${ch.codePointAt(0)!.toString(16)}`, 'family'], { encoding: 'utf8' })
    .split('\n')
    .some((f) => f.split(',').includes('DejaVu Sans'))

browserSuite('the kiosk’s on-screen keyboard (issue 29 point 9)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let setup: HallSetup
  let till: Till
  let kiosk = ''

  beforeAll(async () => {
    ensureBuilt(['kiosk'], ['kiosk/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, lotto } = server.services
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 500, name: 'Sala Illimani' })
    kiosk = (await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })).credential
    await auth.createUser({
      username: 'rosa',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [setup.hallId],
    })
    till = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'rosa',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
    // A lotto draw on sale, so that the slips section shows the player's name and document.
    await lotto.createDraw(
      plan649({
        gameCode: 'LOTOTECLADO',
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services, 'AJ-T-0009'),
        salesStartAt: '2026-03-01T08:00:00-04:00',
        salesCloseAt: '2026-03-02T19:00:00-04:00',
        drawAt: '2026-03-02T20:00:00-04:00',
        claimDeadline: '2026-05-01T23:59:59-04:00',
      }),
    )
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  async function tapKeys(page: Page, text: string) {
    for (const ch of text)
      await (ch === ' ' ? page.getByTestId('osk-space') : page.getByTestId(`osk-key-${ch}`)).click()
  }
  /** The element lies wholly above the keyboard and inside the viewport. */
  async function aboveKeyboard(page: Page, testId: string) {
    const box = (await page.getByTestId(testId).boundingBox())!
    const osk = (await page.getByTestId('osk').boundingBox())!
    const vp = page.viewportSize()!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(osk.y + 1)
    expect(osk.y + osk.height).toBeLessThanOrEqual(vp.height + 1)
  }

  for (const [lang, width, height] of [
    ['es', 1080, 1920],
    ['en', 1366, 768],
  ] as const) {
    it(
      `${width}x${height} (${lang}): types the voucher code by tapping keys only, and buys a card`,
      { timeout: 90_000 },
      async () => {
        const voucher = await sellVoucher(server.url, setup.hallId, 2000, {}, till.headers)
        const page = await pageOnClock(browser, clock, { width, height })
        await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk)}`)
        await page.getByTestId('kiosk-home').waitFor({ timeout: 15_000 })
        if (lang === 'en') await page.getByTestId('lang-en').click()
        const T =
          lang === 'es'
            ? { camera: 'Escriba el código impreso en el vale', ok: 'Aceptar', del: 'Borrar' }
            : { camera: 'Type the code printed on the voucher', ok: 'OK', del: 'Delete' }

        // The field is at least as wide as its placeholder, in its own font.
        const fits = await page.getByTestId('kiosk-voucher-code').evaluate((el: HTMLInputElement) => {
          const s = getComputedStyle(el)
          const ctx = document.createElement('canvas').getContext('2d')!
          ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`
          const text =
            ctx.measureText(el.placeholder).width + el.placeholder.length * (parseFloat(s.letterSpacing) || 0)
          const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
          return { text, room }
        })
        expect(fits.room).toBeGreaterThanOrEqual(fits.text)

        // No camera here: the screen says what to do, in its language, not the browser's error.
        await page.getByTestId('camera-toggle').click()
        const cameraSays = await page.getByTestId('camera-error').innerText()
        expect(cameraSays).toContain(T.camera)
        expect(cameraSays).not.toMatch(/device|not found|NotFound|NotAllowed|Permission/i)

        // No keyboard until the field is touched; then the code is typed by tapping keys.
        expect(await page.getByTestId('osk').count()).toBe(0)
        await page.getByTestId('kiosk-voucher-code').click()
        await page.getByTestId('osk').waitFor()
        expect(await page.getByTestId('osk-ok').innerText()).toBe(T.ok)
        expect(await page.getByTestId('osk-delete').innerText()).toContain(T.del)
        // A key a player taps by mistake, deleted.
        await tapKeys(page, 'Q')
        await page.getByTestId('osk-delete').click()
        await tapKeys(page, voucher.shortCode)
        expect(await page.getByTestId('kiosk-voucher-code').inputValue()).toBe(voucher.shortCode)
        await aboveKeyboard(page, 'kiosk-voucher-code')
        const keyBox = (await page.getByTestId('osk-key-5').boundingBox())!
        expect(keyBox.height).toBeGreaterThanOrEqual(48)
        expect(keyBox.width).toBeGreaterThanOrEqual(48)
        expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
        await page.screenshot({ path: join(SCREENSHOTS, `kiosk-keyboard-voucher-${width}x${height}.png`) })
        await page.getByTestId('osk-ok').click()
        await page.getByTestId('kiosk-credit').waitFor()
        expect(await page.getByTestId('osk').count()).toBe(0)

        // The lotto player's name and document: letters, accents, space.
        await page.getByTestId('tab-slips').click()
        await page.getByTestId('lotto-name').click()
        await page.getByTestId('osk-space').waitFor()
        await tapKeys(page, 'ANA QUISPE')
        await page.getByTestId('osk-case').click()
        await tapKeys(page, 'Ñ')
        expect(await page.getByTestId('lotto-name').inputValue()).toBe('ANA QUISPEñ')
        await page.getByTestId('osk-delete').click()
        await page.getByTestId('lotto-document').click()
        await tapKeys(page, '4455667')
        expect(await page.getByTestId('lotto-document').inputValue()).toBe('4455667')
        expect(await page.getByTestId('lotto-name').inputValue()).toBe('ANA QUISPE')
        await aboveKeyboard(page, 'lotto-document')
        await page.screenshot({ path: join(SCREENSHOTS, `kiosk-keyboard-player-${width}x${height}.png`) })
        await page.getByTestId('osk-ok').click()
        expect(await page.getByTestId('osk').count()).toBe(0)

        // The purchase, paid with the voucher typed on screen. The hall's limit is named with its number, the server's.
        await page.getByTestId('tab-cards').click()
        const { bets } = await server.services.bingo.hallRules(setup.hallId)
        expect(await page.getByTestId('kiosk-cards-limits').innerText()).toBe(
          lang === 'es'
            ? `Hasta ${bets.maxCardsPerPurchase} cartones por compra`
            : `Up to ${bets.maxCardsPerPurchase} cards per purchase`,
        )
        await page.getByTestId('kiosk-cards-plus').click()
        await page.getByTestId('kiosk-age-yes').click()
        await page.getByTestId('kiosk-confirm').click()
        await page.getByTestId('kiosk-done').waitFor({ timeout: 20_000 })
        expect(await page.getByTestId('kiosk-done-total').innerText()).toMatch(/5,00|5\.00/)
        await page.close()
      },
    )
  }

  it('draws every character of an empty state with DejaVu Sans (no missing glyph)', { timeout: 60_000 }, async () => {
    const page = await pageOnClock(browser, clock, { width: 1080, height: 1920 })
    await page.goto(`${server.url}/kiosk/?hall=${setup.hallId}&device=${encodeURIComponent(kiosk)}`)
    await page.getByTestId('tab-instant').click()
    await page.getByTestId('instant-none').waitFor()
    const chars = new Set([...(await page.evaluate(() => document.body.innerText))].filter((c) => c.trim()))
    const missing = [...chars].filter((c) => !inDejaVu(c))
    expect(missing).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'kiosk-keyboard-empty-state.png') })
    await page.close()
  })
})
