/**
 * Issue 14 point 7: the inspector's read-only screen (/inspector/) in a real Chromium, authentication on, real
 * people. After a whole game played and paid, the inspector (BNG-97 view-only inspector) verifies the journal's chain, sees the
 * signed checkpoints, the session minutes with the game's draw proof, and the prize register; the screen only
 * reads (every request a GET, besides her login), and shows names, never codes or ids. A locutor is turned away.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameState } from '../../server/src/bingo/service.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

async function until<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    try {
      last = await read()
      if (JSON.stringify(last) === JSON.stringify(expected)) return
    } catch {
      /* not there yet */
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  expect.fail(`${what}: expected ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}`)
}

browserSuite('inspector screen, read only (issue 14 point 7)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let finished: GameState
  // The register has one row per payout: a card that won the line and the bingo is paid once, in one row.
  const paidCards = new Set<string>()
  const hallId = 'sajama'
  const tokens = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(server.url, method, path, body, { authorization: `Bearer ${tokens.get(who)}`, ...extra })

  async function login(page: Page, username: string): Promise<void> {
    await page.goto(`${server.url}/inspector/`)
    await page.getByTestId('login').waitFor()
    await page.getByTestId('login-user').fill(username)
    await page.getByTestId('login-password').fill(PASSWORD)
    await page.getByTestId('login-submit').click()
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['inspector'], ['display', 'web'])
    browser = await launchChromium()
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'inspector-screen' })
    await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    for (const [username, displayName, role] of [
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['ines', 'Inés Rojas', 'inspector'],
      ['pedro', 'Pedro Flores', 'caller'],
      ['directora', 'Elena Vargas', 'director'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    // A whole game, run and paid by the jefe de mesa over the API.
    // BNG-27: the jefe de mesa counts, the director witnesses with her own credential.
    const session = await call(
      'marta',
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { 'x-bolillo-second-person': Buffer.from(`directora:${PASSWORD}`).toString('base64') },
    )
    const game = await call('marta', 'POST', `/api/sessions/${session.body.id}/games`, {
      seriesIds: [(await call('marta', 'GET', `/api/halls/${hallId}`)).body.series[0].id],
    })
    const gameId = game.body.gameId as string
    await call('marta', 'POST', `/api/games/${gameId}/sales/open`)
    // Sold and paid at the table's enrolled station, in her open shift (issue 13 points 2, 5 and 6).
    const till = await openTill(server.url, server.services, {
      hallId,
      username: 'marta',
      password: PASSWORD,
      floatCents: 50_000,
    })
    tokens.set('marta@mesa1', till.token)
    await call('marta@mesa1', 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 30 })
    await call('marta', 'POST', `/api/games/${gameId}/sales/close`, {})
    for (let i = 0; i < 300; i++) {
      const s = (await call('marta', 'GET', `/api/games/${gameId}`)).body as GameState
      if (s.status === 'finished') break
      const r = s.window
        ? await call('marta', 'POST', `/api/games/${gameId}/window/close`)
        : await call('marta', 'POST', `/api/games/${gameId}/draw`)
      if (r.status === 409 && r.body.error.code === 'BEACON_PENDING') await new Promise((x) => setTimeout(x, 200))
    }
    finished = (await call('marta', 'GET', `/api/games/${gameId}`)).body
    expect(finished.status).toBe('finished')
    // One payout per card: a card that won the line and the bingo is paid both at once, and its second prize then
    // answers ALREADY_PAID (the draw is random, so whether that happens differs from run to run).
    for (const p of (await call('marta', 'GET', `/api/games/${gameId}/prizes`)).body.prizes) {
      // Against the card's signed code, as the player hands it over.
      const code = server.services.cashdesk.payouts.cardCode(p.card_id)
      const paid = await call('marta@mesa1', 'POST', `/api/prizes/${p.id}/pay`, { code })
      if (paidCards.has(p.card_id)) expect(paid.body.error?.code).toBe('ALREADY_PAID')
      else expect(paid.status).toBe(200)
      paidCards.add(p.card_id)
    }
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'shows the inspector the journal verified, the checkpoints, the minutes with the draw proof and the prize register, reading only',
    { timeout: 120_000 },
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
      const page = await ctx.newPage()
      const writes: string[] = []
      page.on('request', (r) => {
        if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/'))
          writes.push(`${r.method()} ${new URL(r.url()).pathname}`)
      })
      await login(page, 'ines')
      await until(
        'role in words',
        async () => norm(await page.getByTestId('inspector-role').textContent()),
        'Inspector (solo lectura)',
      )

      await page.getByTestId('verify-journal').click()
      await until('chain verified', () => page.getByTestId('journal-result').getAttribute('data-ok'), 'true')
      const verified = (await call('ines', 'GET', '/api/journal/verify')).body
      expect(norm(await page.getByTestId('journal-result').textContent())).toContain(`${verified.count} registros`)
      await until('checkpoints listed', async () => (await page.getByTestId('checkpoint').count()) > 0, true)
      expect(norm(await page.getByTestId('checkpoints').textContent())).toMatch(/fin de partida/)

      await until('minutes row', () => page.getByTestId('minutes-row').count(), 1)
      // The game's row states every prize it paid, so one game's row is the session's total.
      const minutes = (await call('ines', 'GET', `/api/sessions/${finished.sessionId}/minutes`)).body
      expect(minutes.totals.prizesPaidCents).toBeGreaterThan(0)
      expect(norm(await page.getByTestId('minutes-row-paid').textContent())).toBe(
        norm(await page.locator('[data-testid="minutes-table"] tfoot th').nth(3).textContent()),
      )
      expect(norm(await page.getByTestId('session-picker').textContent())).toMatch(/^Sala Sajama · sesión del /)
      await page.getByTestId('show-proof').click()
      await until(
        'proof balls',
        async () => norm(await page.getByTestId('proof-balls').textContent()),
        finished.balls.join(' · '),
      )

      await until(
        'register rows',
        async () => (await page.getByTestId('register-row').count()) === paidCards.size,
        true,
      )
      expect(norm(await page.getByTestId('register-table').textContent())).toContain(finished.winners[0].serial)
      await page.getByTestId('register-lotto').click()
      await page.getByTestId('register-empty').waitFor()
      await page.getByTestId('register-bingo').click()
      await page.getByTestId('register-table').waitFor()

      expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
      await settled(page)
      await page.screenshot({ path: join(SCREENSHOTS, 'inspector-1920x1080.png') })
      expect(writes).toEqual(['POST /api/auth/login'])
      await ctx.close()
    },
  )

  it('turns a locutor away in words: his role does not include inspection', { timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    const page = await ctx.newPage()
    await login(page, 'pedro')
    await page.getByTestId('not-for-role').waitFor()
    expect(norm(await page.getByTestId('not-for-role').textContent())).toBe(
      'Su función no incluye la inspección del diario ni de las actas.',
    )
    expect(await page.getByTestId('journal').count()).toBe(0)
    expect(screenLeaks(norm(await page.locator('body').textContent()))).toEqual([])
    await ctx.close()
  })
})
