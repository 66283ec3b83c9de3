/**
 * Issue 29 point 7 in real Chromium, authentication on, on the demo: the director sees every enrolled station of her
 * halls (the demo's five included) after a reload, revokes the kiosk (confirmed in the page with its consequence:
 * it stops selling at once) and enrols it again (a new link shown once; the old credential dead, the new one opens
 * the kiosk). In Spanish and English at 1920 x 1080, with no code, permission name or internal id on screen.
 * Screenshots in test-output/screenshots/admin-devices-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedDemoHall, DEMO_PASSWORD } from '../../server/src/demo.ts'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-03-14T23:30:00Z') + (Date.now() - started)) }

browserSuite('the director’s list of enrolled stations: revoke and enrol again (issue 29 point 7)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let kiosk = ''
  const ids: string[] = []

  beforeAll(async () => {
    ensureBuilt(['admin', 'kiosk'], ['admin/src', 'kiosk/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on', seedDemo: true }, { clock })
    await seedDemoHall(server.services)
    const demo = JSON.parse(readFileSync(join(server.services.config.dataDir, 'demo-credentials.json'), 'utf8'))
    const devices = demo.devices as { name: string; credential: string }[]
    kiosk = devices.find((d) => d.name === 'Kiosco 1')!.credential
    ids.push(...devices.map((d) => d.credential.split('.')[0]))
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  const device = (credential: string, lang = 'es') =>
    api(server.url, 'GET', '/api/auth/me', undefined, {
      authorization: `Device ${credential}`,
      'accept-language': lang,
    })
  /**
   * Issue 29 point 5: the back office's browser runs on Tokyo's clock, thirteen hours from the hall's (La Paz), so a
   * time shown on the browser's clock is told apart from the hall's on any date.
   */
  async function login(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 }, timezoneId: 'Asia/Tokyo' })
    await page.clock.setSystemTime(clock.now())
    await page.goto(`${server.url}/admin/#/staff`)
    await page.fill('input[name=username]', 'director')
    await page.fill('input[name=password]', DEMO_PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('enrolled-table').waitFor()
    return page
  }
  async function directorHeaders() {
    return { authorization: `Bearer ${(await server.services.auth.login('director', DEMO_PASSWORD)).token}` }
  }
  const row = (page: Page, name: string) => page.getByTestId('enrolled-table').locator('tr', { hasText: name })
  async function clean(page: Page) {
    const text = await page.evaluate(() => document.body.innerText)
    expect(screenLeaks(text)).toEqual([])
    for (const id of ids) expect(text, `internal id ${id} on screen`).not.toContain(id)
    return text
  }

  it(
    'lists the demo’s stations by name, kind, hall and last seen, after a reload too; revokes the kiosk after a confirmation',
    { timeout: 90_000 },
    async () => {
      // The kiosk has been at work: the list says when it was last seen.
      expect((await device(kiosk)).status).toBe(200)
      // Its time is written just after the answer (nobody waits on it): the list is opened once it is.
      const kioskSeen = async () =>
        (await api(server.url, 'GET', '/api/auth/devices', undefined, await directorHeaders())).body.devices.find(
          (d: { name: string }) => d.name === 'Kiosco 1',
        )?.lastSeenAt
      await expect.poll(kioskSeen, { timeout: 5_000 }).toBeTruthy()
      const page = await login()
      for (const name of ['Kiosco 1', 'Caja 1', 'Pantalla sala', 'Terminal 1', 'Terminal 2'])
        await row(page, name).waitFor()
      await page.reload()
      await row(page, 'Terminal 2').waitFor()
      const k = (await row(page, 'Kiosco 1').innerText()).replace(/\s+/g, ' ')
      expect(k).toContain('Quiosco')
      expect(k).toContain('activo')
      expect(k).not.toContain('nunca')
      // Enrolled and last seen on the hall's clock with its zone named, not the browser's (Tokyo).
      const listed = (await api(server.url, 'GET', '/api/auth/devices', undefined, await directorHeaders())).body
        .devices as { name: string; enrolledAt: string; lastSeenAt: string }[]
      const kioskRow = listed.find((d) => d.name === 'Kiosco 1')!
      for (const at of [kioskRow.enrolledAt, kioskRow.lastSeenAt]) {
        expect(k).toContain(`${formatInZone(at, 'America/La_Paz')} (La Paz, UTC-04:00)`)
        expect(k).not.toContain(formatInZone(at, 'Asia/Tokyo'))
      }
      expect((await row(page, 'Caja 1').innerText()).replace(/\s+/g, ' ')).toContain('Caja')
      await clean(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-devices-list-es.png') })

      // Cancel first: nothing happens.
      await row(page, 'Kiosco 1').getByTestId('revoke').click()
      await page.getByTestId('confirm').waitFor()
      await page.getByTestId('confirm-cancel').click()
      expect(await page.getByTestId('confirm').count()).toBe(0)
      expect((await device(kiosk)).status).toBe(200)

      await row(page, 'Kiosco 1').getByTestId('revoke').click()
      const dialog = (await page.getByTestId('confirm').innerText()).replace(/\s+/g, ' ')
      expect(dialog).toContain('¿Revocar el puesto Kiosco 1?')
      expect(dialog).toContain('deja de vender y de operar en el acto')
      await clean(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-devices-revoke-es.png') })
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('stations').getByText('Puesto Kiosco 1 revocado: ya no puede operar.').waitFor()
      // The list reloads after the notice: wait for the row to say it.
      await row(page, 'Kiosco 1').filter({ hasText: 'revocado' }).waitFor()
      expect(await row(page, 'Kiosco 1').innerText()).toContain('revocado')
      expect(await row(page, 'Kiosco 1').getByTestId('revoke').count()).toBe(0)
      // The stolen kiosk is refused at once, in words.
      const refused = await device(kiosk)
      expect(refused.status).toBe(401)
      expect(refused.body.error.message).toContain('Este equipo ya no está autorizado')
      // The others keep working; a reload shows the kiosk still revoked.
      await page.reload()
      expect(await row(page, 'Kiosco 1').innerText()).toContain('revocado')
      expect(await row(page, 'Caja 1').innerText()).toContain('activo')
      await page.close()
    },
  )

  it(
    'enrols the kiosk again: a new link shown once opens the kiosk; the old credential stays dead',
    { timeout: 90_000 },
    async () => {
      const page = await login()
      await row(page, 'Kiosco 1').getByTestId('reenrol').click()
      const dialog = (await page.getByTestId('confirm').innerText()).replace(/\s+/g, ' ')
      expect(dialog).toContain('¿Volver a enrolar el puesto Kiosco 1?')
      expect(dialog).toContain('se muestra una sola vez')
      await page.getByTestId('confirm-ok').click()
      const link = (await page.getByTestId('enrol-link').getAttribute('href'))!
      expect(await page.getByTestId('issued').innerText()).toContain('Credencial nueva de Kiosco 1')
      await clean(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-devices-reenrolled-es.png') })
      const fresh = new URL(link).searchParams.get('device')!
      expect(new URL(link).pathname).toBe('/kiosk/')
      expect(fresh).not.toBe(kiosk)
      expect((await device(fresh)).status).toBe(200)
      expect((await device(kiosk)).status).toBe(401)
      expect(await row(page, 'Kiosco 1').innerText()).toContain('activo')
      // The link opens the kiosk as that station.
      const station = await pageOnClock(browser, clock, { width: 1080, height: 1920 })
      await station.goto(link)
      await station.getByTestId('kiosk-home').waitFor({ timeout: 15_000 })
      await station.close()
      // Shown once: after a reload the link is gone, the station is listed.
      await page.reload()
      await row(page, 'Kiosco 1').waitFor()
      expect(await page.getByTestId('enrol-link').count()).toBe(0)
      await page.close()
    },
  )

  it('reads in English: the list, the revoke question and its consequence', { timeout: 60_000 }, async () => {
    const page = await login()
    await page.click('[data-testid=lang-en]')
    await page.getByTestId('stations').getByText('Enrolled stations').waitFor()
    const head = await page.getByTestId('enrolled-table').locator('thead').innerText()
    expect(head.toLowerCase()).toContain('last seen')
    expect((await row(page, 'Caja 1').innerText()).replace(/\s+/g, ' ')).toContain('Cash desk')
    expect((await row(page, 'Caja 1').innerText()).replace(/\s+/g, ' ')).toMatch(
      /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(La Paz, UTC-04:00\)/,
    )
    await row(page, 'Caja 1').getByTestId('revoke').click()
    const dialog = (await page.getByTestId('confirm').innerText()).replace(/\s+/g, ' ')
    expect(dialog).toContain('Revoke station Caja 1?')
    expect(dialog).toContain('stops selling and operating at once')
    await clean(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-devices-revoke-en.png') })
    await page.getByTestId('confirm-cancel').click()
    expect(await row(page, 'Caja 1').innerText()).toContain('active')
    await page.close()
  })

  it(
    'enrols a kiosk only with its seal code, says so in words, and records the seal of a station enrolled before (issue 26, GEN-7)',
    { timeout: 90_000 },
    async () => {
      const page = await login()
      const head = await page.getByTestId('enrolled-table').locator('thead').innerText()
      expect(head.toLowerCase()).toContain('código de precinto')
      expect(head.toLowerCase()).toContain('n.º de homologación')
      expect(await row(page, 'Pantalla sala').getByTestId('device-seal').innerText()).toBe('DEMO-PRECINTO-3')
      // Without its seal the server refuses the kiosk (Bolivia, GEN-7); the form says what is missing.
      const form = page.getByTestId('enrol-device')
      await form.locator('input[name=deviceName]').fill('Kiosco 2')
      await form.locator('button[type=submit]').click()
      await page
        .getByTestId('stations')
        .getByText(
          'La normativa de la sala exige el código de precinto de seguridad (AJ) para dar de alta este equipo.',
        )
        .waitFor()
      expect(await row(page, 'Kiosco 2').count()).toBe(0)
      await form.locator('input[name=sealCode]').fill('AJ-KIOSCO-2')
      await form.locator('button[type=submit]').click()
      await page.getByTestId('issued').waitFor()
      expect(await row(page, 'Kiosco 2').getByTestId('device-seal').innerText()).toBe('AJ-KIOSCO-2')
      // A station as migration 0190 left the ones enrolled before it: flagged, and its seal recorded from the list.
      const caja = (
        (await api(server.url, 'GET', '/api/auth/devices', undefined, await directorHeaders())).body.devices as {
          id: string
          name: string
        }[]
      ).find((d) => d.name === 'Caja 1')!
      await server.services.db.run('UPDATE device_credentials SET seal_code = NULL WHERE id = ?', [caja.id])
      await page.reload()
      expect(await row(page, 'Caja 1').getByTestId('device-missing-marks').innerText()).toBe('falta: precinto')
      await clean(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-devices-seal-es.png') })
      await row(page, 'Caja 1').getByTestId('edit-marks').click()
      const marks = page.getByTestId('device-marks')
      expect(await marks.innerText()).toContain('Precinto y homologación de Caja 1')
      await marks.locator('input[name=markSealCode]').fill('AJ-CAJA-1')
      // A slow list (a busy server) must not let "guardados" stand beside the row as it was before.
      await page.route('**/api/auth/devices', (r) =>
        r.request().method() === 'GET' ? setTimeout(() => void r.continue(), 400) : r.continue(),
      )
      await marks.locator('button[type=submit]').click()
      await page.getByTestId('stations').getByText('Datos de Caja 1 guardados.').waitFor()
      expect(await row(page, 'Caja 1').getByTestId('device-seal').innerText()).toBe('AJ-CAJA-1')
      expect(await row(page, 'Caja 1').getByTestId('device-missing-marks').count()).toBe(0)
      await page.close()
    },
  )
})
