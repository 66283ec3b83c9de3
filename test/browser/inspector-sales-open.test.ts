/**
 * The inspector's minutes on the demo (authentication on, the demo's inspector account): the demo's game is on sale
 * with cards sold. The minutes take a game's cards and takings from its close of sales (BNG-17), so before it the
 * row must not read "0 cartones · Bs 0,00 · en juego" (a regulator would read an empty game already in play): it
 * reads "—" and says the sale is not closed. Screenshot in test-output/screenshots/inspector-sales-open.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedDemoHall, DEMO_PASSWORD } from '../../server/src/demo.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()

browserSuite('the inspector’s minutes of a game still on sale', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''

  beforeAll(async () => {
    ensureBuilt(['inspector'], ['display', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on', seedDemo: true })
    hallId = (await seedDemoHall(server.services)).hallId
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('reads "—" for cards and takings and says the sale is not closed', async () => {
    const hall = (await api(server.url, 'GET', `/api/halls/${hallId}`)).body
    expect((await api(server.url, 'GET', `/api/games/${hall.currentGameId}`)).body).toMatchObject({
      status: 'on_sale',
    })
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/inspector/`)
    await page.getByTestId('login-user').fill('inspector')
    await page.getByTestId('login-password').fill(DEMO_PASSWORD)
    await page.getByTestId('login-submit').click()
    const row = page.getByTestId('minutes-row')
    await row.waitFor()
    const cells = (await row.locator('td').allTextContents()).map(norm)
    expect(cells.slice(0, 3)).toEqual(['1', '—', '—'])
    expect(norm(await page.getByTestId('minutes-row-state').textContent())).toBe('venta sin cerrar: cifras al cierre')
    expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'inspector-sales-open.png') })
    await page.close()
  })
})
