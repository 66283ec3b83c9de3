/**
 * Issue 27, BNG-101 in real Chromium, authentication on, on the demo: the director records the hall's terminal terms
 * in the back office, where the Bolivian profile leaves them to the authority. Terms that do not say what a
 * terminal's disconnection does to its cards are refused in the form with their own words (what to choose), not the
 * generic "Los datos enviados no son válidos", in Spanish and English, and nothing is recorded; chosen, they are saved.
 * Screenshots in test-output/screenshots/admin-terminal-terms-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedDemoHall, DEMO_PASSWORD } from '../../server/src/demo.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { startTestServer } from '../helpers/server.ts'

browserSuite('the hall’s terminal terms in the back office (issue 27, BNG-101)', () => {
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

  const recorded = async () =>
    (await server.services.db.get<{ reference: string; terms: string }>(
      'SELECT reference, terms FROM terminal_terms WHERE hall_id = ?',
      [hallId],
    )) ?? null

  async function fill(page: Page) {
    const panel = page.getByTestId('terminal-terms')
    await panel.locator('input[name=terms-reference]').fill('AJ-RND-2026-0117')
    await panel.getByTestId('terms-marking').selectOption('automatic')
    await panel.locator('input[name=terms-maxCard]').fill('6')
    await panel.locator('input[name=terms-maxGame]').fill('50')
    await panel.locator('input[name=terms-maxSession]').fill('200')
    await panel.locator('input[name=terms-minGame]').fill('0')
    await panel.locator('input[name=terms-returnMin]').fill('60')
    await panel.locator('input[name=terms-returnMax]').fill('85')
    await panel.locator('input[name=terms-range]').fill('25')
  }

  it('refuses terms without the disconnection rule in their own words, records nothing, then saves them', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/admin/#/halls`)
    await page.fill('input[name=username]', 'director')
    await page.fill('input[name=password]', DEMO_PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    const panel = page.getByTestId('terminal-terms')
    await panel.waitFor()
    const before = await recorded()
    await fill(page)
    await panel.getByTestId('terms-disconnect').selectOption('')
    await panel.getByTestId('terms-save').click()
    const error = panel.getByTestId('error')
    await error.waitFor()
    const said = await error.innerText()
    expect(said).toContain('Los términos deben decir qué pasa con los cartones de un terminal que se desconecta')
    expect(said).toContain('«Si el terminal se desconecta»')
    expect(said).not.toContain('Los datos enviados no son válidos')
    expect(await recorded()).toEqual(before)
    await panel.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-terminal-terms-refused-es.png') })

    // In English, the same refusal in English.
    await page.click('[data-testid=lang-en]')
    await panel.getByTestId('terms-save').click()
    await expect
      .poll(() => error.innerText())
      .toContain("The terms must state what happens to a disconnected terminal's cards")
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-terminal-terms-refused-en.png') })
    await page.click('[data-testid=lang-es]')

    await panel.getByTestId('terms-disconnect').selectOption('play-on-credit')
    await panel.getByTestId('terms-save').click()
    await expect
      .poll(() => panel.getByTestId('terminal-terms-state').innerText())
      .toBe('Registrados con la resolución AJ-RND-2026-0117.')
    expect(await error.count()).toBe(0)
    const row = await recorded()
    expect(row?.reference).toBe('AJ-RND-2026-0117')
    expect(JSON.parse(row!.terms)).toMatchObject({ onDisconnect: 'play-on-credit', maxCardCents: 600 })
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-terminal-terms-saved-es.png') })
    await page.close()
  })
})
