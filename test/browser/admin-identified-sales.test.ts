/**
 * Issue 26, GEN-25 in real Chromium, authentication on, on the demo: the director sees on the hall's page whether
 * the hall sells only to identified players, and switches it on or off only after a confirmation in the page that
 * says what follows (every channel refuses an anonymous buyer; switched off, an excluded person can buy by giving no
 * document). Cancel changes nothing; the confirmed change is the server's (its rules and the journal, by her name).
 * A cashier or a floor manager cannot change it. Spanish and English at 1920 x 1080; screenshots in
 * test-output/screenshots/admin-identified-sales-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedDemoHall, DEMO_PASSWORD } from '../../server/src/demo.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

browserSuite('the hall’s identified-sales setting in the back office (GEN-25)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on', seedDemo: true })
    hallId = (await seedDemoHall(server.services)).hallId
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  const as = async (username: string) => ({
    authorization: `Bearer ${(await server.services.auth.login(username, DEMO_PASSWORD)).token}`,
    'accept-language': 'es',
  })
  const required = async () =>
    (await api(server.url, 'GET', `/api/halls/${hallId}/rules`, undefined, await as('director'))).body
      .identifiedSales as boolean

  async function login(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/admin/#/halls`)
    await page.fill('input[name=username]', 'director')
    await page.fill('input[name=password]', DEMO_PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('identified-sales').waitFor()
    return page
  }

  it(
    'shows the setting, asks with its consequence before switching it on, and Cancel changes nothing',
    { timeout: 90_000 },
    async () => {
      const page = await login()
      const panel = page.getByTestId('identified-sales')
      await expect.poll(() => panel.getByTestId('identified-sales-state').innerText()).toMatch(/^No exigida/)
      await panel.getByTestId('identified-sales-toggle').click()
      const dialog = page.getByTestId('confirm')
      await dialog.waitFor()
      const said = await dialog.innerText()
      expect(said).toContain('¿Exigir jugador identificado en Sala de pruebas?')
      expect(said).toContain('Desde ahora no se vende nada a un comprador anónimo en esta sala.')
      expect(said).toContain('La caja, la mesa, el kiosco y los terminales rechazarán toda venta')
      expect(said).toContain('lista de excluidos')
      await page.getByTestId('confirm-cancel').click()
      await page.getByTestId('confirm').waitFor({ state: 'detached' })
      expect(await required()).toBe(false)

      await panel.getByTestId('identified-sales-toggle').click()
      await dialog.waitFor()
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-identified-sales-confirm-es.png') })
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('confirm').waitFor({ state: 'detached' })
      await expect.poll(() => panel.getByTestId('identified-sales-state').innerText()).toMatch(/^Exigida/)
      expect(await required()).toBe(true)
      const rec = await server.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'hall.identified_sales_set' ORDER BY seq DESC LIMIT 1",
      )
      expect(JSON.parse(rec!.payload)).toMatchObject({ hallId, before: false, required: true, rule: 'GEN-25' })
      expect(JSON.parse(rec!.payload).actor.name).toBeTruthy()
      const text = await page.evaluate(() => document.body.innerText)
      expect(screenLeaks(text)).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-identified-sales-on-es.png') })
      await page.close()
    },
  )

  it('a cashier or a floor manager cannot change it; the setting stays as the director left it', async () => {
    for (const who of ['cajero', 'jefe', 'locutor']) {
      const r = await api(
        server.url,
        'PUT',
        `/api/halls/${hallId}/identified-sales`,
        { required: false },
        await as(who),
      )
      expect(r.status, who).toBe(403)
    }
    expect(await required()).toBe(true)
  })

  it('in English, switching it off says that an excluded person can then buy by giving no document', async () => {
    const page = await login()
    await page.click('[data-testid=lang-en]')
    const panel = page.getByTestId('identified-sales')
    await expect.poll(() => panel.getByTestId('identified-sales-state').innerText()).toMatch(/^Required/)
    await panel.getByTestId('identified-sales-toggle').click()
    const dialog = page.getByTestId('confirm')
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain('an excluded person can buy by not giving one')
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-identified-sales-release-en.png') })
    await page.getByTestId('confirm-ok').click()
    await expect.poll(() => panel.getByTestId('identified-sales-state').innerText()).toMatch(/^Not required/)
    expect(await required()).toBe(false)
    await page.close()
  })
})
