/**
 * CFG-20 / BNG-42 step 7 (issue 26) in a real Chromium, authentication on, the console an enrolled station: a ball
 * asked for before the hall's interval is refused, and the caller reads why in Spanish with the seconds to wait; once
 * the interval has passed the same key draws. The console keeps no copy of the hall's times: it shows the server's
 * refusal.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameState } from '../../server/src/bingo/service.ts'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'correct horse battery'
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
// The server's clock runs from a fixed evening (any real date passes); the test moves it on by `skip` ms.
const started = Date.now()
let skip = 0
const clock = { now: () => new Date(Date.parse('2026-03-14T21:30:00Z') + (Date.now() - started) + skip) }

async function until<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
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

browserSuite("caller console under the hall's calling rhythm (CFG-20)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const hallId = 'oruro'
  const stateOf = async (gameId: string) => (await api<GameState>(server.url, 'GET', `/api/games/${gameId}`)).body

  beforeAll(async () => {
    ensureBuilt(['caller'], ['display', 'web'])
    browser = await launchChromium()
    server = await startTestServer({ auth: 'on' }, { clock })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Oruro',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 400,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await bingo.setCallingTimes({
      hallId,
      times: {
        authorisationRef: 'AJ-RA-RITMO-1',
        minBallIntervalSeconds: 60,
        claimWindowSeconds: 0,
        suspensionMinutes: 0,
      },
      by: { kind: 'system', id: 'test', name: 'test', role: 'system' },
    })
    await auth.createUser({ username: 'marta', displayName: 'Marta Quispe', role: 'floor_manager', password: PASSWORD })
    const set = await bingo.createMasterSet({ count: 100, seed: 'caller-rhythm' })
    const seriesId = (await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })).id
    const sessionId = (await bingo.openSession({ hallId, recount: { ballsCounted: 90, confirmedBy: 'Marta Quispe' } }))
      .id
    const g = await bingo.announceGame({ sessionId, seriesIds: [seriesId] })
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 20, channel: 'counter' })
    await bingo.closeSales({ gameId: g.gameId })
    gameId = g.gameId
    table = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Mesa 1', hallId })
  }, 60_000)
  let gameId = ''
  let table: { credential: string }
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  const idle = (page: Page) => until('console idle', () => page.getByTestId('caller').getAttribute('data-busy'), '')

  it(
    'a second ball asked for at once is refused in Spanish with the seconds to wait, and drawn after the interval',
    { timeout: 120_000 },
    async () => {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await page.goto(`${server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(table.credential)}`)
      await page.getByTestId('login-user').fill('marta')
      await page.getByTestId('login-password').fill(PASSWORD)
      await page.getByTestId('login-submit').click()
      await page.getByTestId('caller-role').waitFor()
      await page.getByTestId('draw-next').waitFor()
      await idle(page)
      await page.getByTestId('draw-next').click()
      await until('first ball', async () => (await stateOf(gameId)).balls.length, 1)
      await idle(page)
      await page.getByTestId('draw-next').click()
      await page.getByTestId('error-message').waitFor()
      expect(norm(await page.getByTestId('error-message').textContent())).toMatch(
        /^Demasiado pronto para la siguiente bola: el ritmo de la sala deja al menos 60 segundos entre bolas para que todos marquen\. Espere (59|60) segundos\.$/,
      )
      expect((await stateOf(gameId)).balls).toHaveLength(1)
      skip += 61_000
      await idle(page)
      await page.getByTestId('draw-next').click()
      await until('second ball after the interval', async () => (await stateOf(gameId)).balls.length, 2)
    },
  )
})
