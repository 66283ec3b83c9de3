/**
 * Issue 17 point 5 in a real Chromium over a real socket.io connection, authentication on: the hall display
 * follows an incident without a reload. The floor manager declares a device failure before the first ball
 * (BNG-80) over HTTP; the open display page shows what happened and how the game goes on, in Spanish, with no
 * raw id, and the awarded-prize tiles are never struck through.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { DEMO_BETTING_PLAN } from '../../server/src/bingo/betting-plan.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

const PASSWORD = 'clave-de-pruebas-17'

browserSuite('hall display follows an incident without a reload (issue 17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let gameId: string
  let displayCred: string
  let jefe: Record<string, string>

  beforeAll(async () => {
    ensureBuilt(['display'], ['display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    const hall = await bingo.createHall({
      id: 'sala',
      name: 'Sala de pruebas',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      bettingPlan: DEMO_BETTING_PLAN,
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'incident-display' })
    const a = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    await equipForManualGames(server.services, hall.id)
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id], drawSource: 'manual' })
    gameId = game.gameId
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 20, channel: 'demo' })
    displayCred = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla sala', hallId: hall.id }))
      .credential
    await auth.createUser({ username: 'jefa', displayName: 'Jefa de Mesa', role: 'floor_manager', password: PASSWORD })
    // BNG-74: the Director de Bingo co-signs every incident entry of a Bolivian hall, and confirms an annulment
    // with her own password (issue 15 point 4).
    await auth.createUser({
      username: 'directora',
      displayName: 'Directora de Bingo',
      role: 'director',
      password: PASSWORD,
    })
    jefe = { authorization: `Bearer ${(await auth.login('jefa', PASSWORD)).token}` }
    browser = await launchChromium()
  }, 120_000)
  async function call(method: string, path: string, b?: unknown) {
    const r = await api(server.url, method, path, b, jefe)
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300)
    return r.body
  }
  const textOf = async (page: Page, testId: string) =>
    ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('shows what happened and how the game goes on as soon as the incident is recorded (BNG-80)', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    let loads = 0
    page.on('load', () => {
      loads++
    })
    await page.goto(`${server.url}/display/?hall=sala&device=${displayCred}`)
    await expect
      .poll(() => page.getByTestId('display').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('on_sale')
    expect(await page.getByTestId('incident').count()).toBe(0)
    const loadsBefore = loads

    const r = await api(
      server.url,
      'POST',
      `/api/games/${gameId}/incidents`,
      {
        kind: 'device-failure-before-first-ball',
        note: 'El extractor no arranca',
        confirm: { username: 'directora', password: PASSWORD },
      },
      jefe,
    )
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300)

    await expect
      .poll(() => page.getByTestId('display').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('suspended')
    const notice = (await page.getByTestId('notice').textContent()) ?? ''
    expect(notice).toMatch(/suspendida/i)
    expect(notice).toContain('Conserve sus cartones')
    expect(notice).not.toMatch(/device-failure|suspended\b/)
    expect(loads).toBe(loadsBefore)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-incident-landscape.png') })

    await page.setViewportSize({ width: 1080, height: 1920 })
    await page.screenshot({ path: join(SCREENSHOTS, 'display-incident-portrait.png') })
    // An awarded prize is never shown struck through.
    const decoration = await page.evaluate(() =>
      [...document.querySelectorAll('.hd-tile__value')].map((e) => getComputedStyle(e).textDecorationLine),
    )
    expect(decoration).not.toContain('line-through')
    await page.setViewportSize({ width: 1920, height: 1080 })

    // The failure is repaired: the floor manager resumes the game and the hall reads that it goes on.
    const resumed = await api(server.url, 'POST', `/api/games/${gameId}/resume`, {}, jefe)
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200)
    await expect
      .poll(() => page.getByTestId('display').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('on_sale')
    await page.getByTestId('incident').waitFor({ timeout: 10_000 })
    expect(await textOf(page, 'incident-what')).toBe('Avería de los dispositivos antes de la primera bola')
    expect(await textOf(page, 'incident-how')).toBe(
      'Avería reparada: la partida se reanuda y sus cartones siguen en juego.',
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'display-incident-resumed.png') })

    // After the first ball the blower fails again: the remaining balls are drawn by hand (BNG-81), said at once.
    await call('POST', `/api/games/${gameId}/sales/close`, {})
    await call('POST', `/api/games/${gameId}/balls`, { ball: 17 })
    await expect.poll(() => page.getByTestId('current-ball').textContent(), { timeout: 10_000 }).toContain('17')
    await call('POST', `/api/games/${gameId}/incidents`, {
      kind: 'device-failure-after-first-ball',
      note: 'El extractor se para',
      confirm: { username: 'directora', password: PASSWORD },
    })
    await expect
      .poll(() => page.getByTestId('incident').getAttribute('data-kind'), { timeout: 10_000 })
      .toBe('device-failure-after-first-ball')
    expect(await textOf(page, 'incident-what')).toBe('Avería de los dispositivos tras la primera bola')
    expect(await textOf(page, 'incident-how')).toBe('La partida sigue: las bolas que faltan se extraen a mano.')
    await page.screenshot({ path: join(SCREENSHOTS, 'display-incident-manual.png') })

    // A ball irregularity annuls the game: only as two people with a reason (issue 15 point 4). The jefa alone is
    // refused and the display does not change; confirmed by the director, the hall reads the annulment and refund.
    const alone = await api(
      server.url,
      'POST',
      `/api/games/${gameId}/incidents`,
      { kind: 'ball-irregularity', note: 'Bola 33 deformada', reason: 'Bola deformada' },
      jefe,
    )
    expect(alone.status).toBeGreaterThanOrEqual(400)
    expect(await page.getByTestId('display').getAttribute('data-status')).toBe('drawing')
    await call('POST', `/api/games/${gameId}/incidents`, {
      kind: 'ball-irregularity',
      note: 'Bola 33 deformada',
      reason: 'La bola 33 está deformada',
      confirm: { username: 'directora', password: PASSWORD },
    })
    await expect.poll(() => page.getByTestId('display').getAttribute('data-status'), { timeout: 10_000 }).toBe('void')
    const annulled = (await page.getByTestId('notice').innerText()).replace(/\s+/g, ' ')
    expect(annulled).toContain('Irregularidad en las bolas o en el extractor')
    expect(annulled).toContain('La bola 33 está deformada')
    expect(annulled).toMatch(/devuel|reembols/i)
    const screen = await page.evaluate(() => document.body.innerText)
    expect(screenLeaks(screen)).toEqual([])
    expect(screen).not.toContain(gameId)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-incident-void.png') })
    // All of it over the open socket: the page never reloaded.
    expect(loads).toBe(loadsBefore)
    await page.close()
  }, 90_000)
})
