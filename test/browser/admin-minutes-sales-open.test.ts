/**
 * BNG-17: the back office's minutes (Control › Inspección) of the demo hall, whose game is on sale with cards sold.
 * The minutes take a game's cards and takings from its close of sales, so before it the row must not read
 * "0 cartones · Bs 0,00" (an empty game to whoever reads it): it reads "—" and says the sale is not closed, as the
 * inspector's minutes do; the total says the game on sale is not in it. Authentication on, the demo's director.
 * Screenshot in test-output/screenshots/admin-minutes-sales-open.png.
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

browserSuite('the back office’s minutes of a game still on sale (BNG-17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hallId = ''

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on', seedDemo: true })
    hallId = (await seedDemoHall(server.services)).hallId
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  for (const lang of ['es', 'en'] as const)
    it(`${lang}: the game on sale reads "—" for cards and takings and says its figures come at the close`, async () => {
      const hall = (await api(server.url, 'GET', `/api/halls/${hallId}`)).body
      const game = (await api(server.url, 'GET', `/api/games/${hall.currentGameId}`)).body
      expect(game).toMatchObject({ status: 'on_sale' })
      expect(game.cardsSold).toBeGreaterThan(0)
      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
      await page.goto(`${server.url}/admin/${lang === 'en' ? '?lang=en' : ''}`)
      await page.fill('input[name=username]', 'director')
      await page.fill('input[name=password]', DEMO_PASSWORD)
      await page.click('[data-testid=login] button[type=submit]')
      await page.getByTestId('nav').waitFor()
      await page.click('[data-testid=nav-inspection]')
      const table = page.getByTestId('minutes-games')
      await table.waitFor()
      const cells = (await table.locator('tbody tr').first().locator('td').allTextContents()).map(norm)
      expect(cells.slice(0, 3)).toEqual([
        '1',
        '—',
        lang === 'es' ? '— · venta sin cerrar: cifras al cierre' : '— · sales not closed: figures at the close',
      ])
      expect(norm(await page.getByTestId('minutes-total-sales-open').textContent())).toBe(
        lang === 'es'
          ? '· sin la partida en venta (sus cifras, al cierre)'
          : '· without the game on sale (its figures at the close)',
      )
      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await table.scrollIntoViewIfNeeded()
      if (lang === 'es') await page.screenshot({ path: join(SCREENSHOTS, 'admin-minutes-sales-open.png') })
      await page.close()
    })
})
