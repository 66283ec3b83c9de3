/**
 * Hall display and caller console in a real Chromium against the real server (issue #4). Games are run from the
 * caller console (its buttons and keyboard shortcuts) while a second page, the hall display, is checked after
 * every step; a third suite kills and restarts the server mid-game and watches the display come back.
 *
 * Needs Chromium (CHROMIUM_PATH or /usr/bin/chromium). Under CI=true a missing browser fails; elsewhere the suite
 * is skipped with a message. Builds the screens first when dist/ is missing or older than display/.
 */
import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import type { GameState } from '../../server/src/bingo/service.ts'
import { formatMoney } from '../../server/src/shared/money.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

const SHOTS = SCREENSHOTS
const suite = browserSuite

// ------------------------------------------------------------------------------------------------ helpers

const launch = launchChromium

/** Spaces of any kind (Intl uses no-break spaces) as plain spaces. */
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

async function textOf(page: Page, testId: string): Promise<string> {
  return norm(await page.getByTestId(testId).first().textContent({ timeout: 5000 }))
}

/** Waits until `read()` returns `expected`, then returns; on timeout fails with the last value read. */
async function until<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    try {
      last = await read()
      if (JSON.stringify(last) === JSON.stringify(expected)) return
    } catch {
      // element not there yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  expect.fail(`${what}: expected ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}`)
}

const untilText = (page: Page, testId: string, expected: string, timeoutMs?: number) =>
  until(`[data-testid=${testId}]`, () => textOf(page, testId), expected, timeoutMs)

async function litCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('board').getAttribute('data-lit', { timeout: 5000 }))
}

async function stateOf(url: string, gameId: string): Promise<GameState> {
  return (await (await fetch(`${url}/api/games/${gameId}`)).json()) as GameState
}

/** The console has no request in flight (it ignores a second action until the first one is answered). */
async function idle(caller: Page): Promise<void> {
  await until('console idle', () => caller.getByTestId('caller').getAttribute('data-busy'), '')
}

/** Confirms the open dialog with Enter, as the caller does, once the console can act on it. */
async function confirmWithEnter(caller: Page): Promise<void> {
  await caller.getByTestId('confirm-dialog').waitFor()
  await idle(caller)
  await caller.keyboard.press('Enter')
  await until('dialog closed', () => caller.getByTestId('confirm-dialog').count(), 0)
}

/** Nothing focused, so shortcuts reach the console rather than a field. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** What the hall must read after every ball: state word, ball, count, lit board cells, last balls. */
async function expectDisplayShowsBalls(display: Page, balls: number[], state = 'EN JUEGO'): Promise<void> {
  const n = balls.length
  await untilText(display, 'extraction-count', String(n))
  expect(await textOf(display, 'current-ball')).toBe(String(balls[n - 1]))
  // While a winner is shown the card takes the board's place; the winner may arrive just after the ball, so the
  // board is read until it shows the n balls, or the winner's card has replaced it.
  await until(
    `board lit with ${n} balls, or a winner shown`,
    async () => ((await display.getByTestId('winner-panel').count()) > 0 ? n : await litCount(display)),
    n,
  )
  // The ball comes first; the full state (a claim window, say) follows it.
  await untilText(display, 'state', state)
  const last = await display.getByTestId('last-ball').allTextContents()
  expect(last.map(Number)).toEqual(balls.slice(Math.max(0, n - 6), n - 1).reverse())
}

async function markedCells(page: Page, serial: string): Promise<number> {
  return page.locator(`[data-testid="winner"][data-serial="${serial}"] [data-marked="true"]`).count()
}

function calledIn(rows: number[][], balls: number[]): number {
  const called = new Set(balls)
  return rows.flat().filter((n) => called.has(n)).length
}

async function shot(page: Page, name: string, viewport?: { width: number; height: number }): Promise<void> {
  if (viewport) await page.setViewportSize(viewport)
  await settled(page, { animations: false }) // the screenshot ends them
  await page.screenshot({ path: join(SHOTS, name), animations: 'disabled' })
}

// ------------------------------------------------------------------------------------------------ suites

suite('hall display and caller console: a BO-2025 game run from the console (RNG, automatic claims, login)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let ctx: BrowserContext
  let display: Page
  let caller: Page
  const hallId = 'illimani'
  const money = (c: number) => norm(formatMoney(c, 'BOB', 'es'))
  /** Issue 13: the console at the table is the enrolled cashier station 'Mesa 1' of the hall. */
  let table: { id: string; credential: string }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ensureBuilt(['display', 'caller'], ['display'])
    browser = await launch()
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'browser-display-1' })
    await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    await auth.createUser({
      username: 'jefe',
      displayName: 'Jefe de Mesa Quispe',
      role: 'floor_manager',
      password: 'jefe-de-mesa-1',
    })
    // The director witnesses the ball recount with her own credential on the console (BNG-27, issue 14 point 2).
    await auth.createUser({
      username: 'directora',
      displayName: 'Directora Mamani',
      role: 'director',
      password: 'directora-de-bingo-1',
    })
    table = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Mesa 1', hallId })
    ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    display = await ctx.newPage()
    caller = await ctx.newPage()
    await display.goto(`${server.url}/display/?hall=${hallId}`)
    await caller.goto(`${server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(table.credential)}`)
  })
  afterAll(async () => {
    await ctx?.close()
    await browser?.close()
    await server?.cleanup()
  })

  it('runs a whole game from the console while the hall display follows every step', { timeout: 240_000 }, async () => {
    await untilText(display, 'state', 'Esperando la próxima partida')

    // Staff log in (authentication is on) at the table's station, then open the session with the ball recount.
    await untilText(caller, 'caller-station', 'Mesa 1')
    await caller.getByTestId('login-open').click()
    await caller.getByTestId('login-user').fill('jefe')
    await caller.getByTestId('login-password').fill('jefe-de-mesa-1')
    await caller.getByTestId('login-submit').click()
    // Issue 14 point 7: the role in words, never its code; issue 13: the station she is logged in at.
    await untilText(caller, 'caller-user', 'Jefe de Mesa Quispe Jefe de Mesa · Mesa 1')
    expect(await textOf(caller, 'caller-role')).toBe('Jefe de Mesa · Mesa 1')
    await caller.getByTestId('recount-balls').fill('90')
    await caller.getByTestId('recount-by').fill('directora')
    await caller.getByTestId('recount-pass').fill('directora-de-bingo-1')
    // BNG-41: every item of the equipment check is ticked before the session opens.
    for (const item of ['extractor', 'cctv', 'displays', 'sound']) await caller.getByTestId(`check-${item}`).check()
    await caller.getByTestId('open-session').click()
    await until(
      'session open',
      async () => (await api(server.url, 'GET', `/api/halls/${hallId}`)).body.openSessionId !== null,
      true,
    )
    const opened = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'session.opened' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(opened!.payload).recount).toMatchObject({
      countedBy: 'Jefe de Mesa Quispe',
      confirmedBy: 'Directora Mamani',
    })

    // Announce: the display shows the next game, its price and commitment.
    await caller.getByTestId('announce').click()
    await untilText(display, 'state', 'PRÓXIMA PARTIDA')
    const gameId = (await display.getByTestId('display').getAttribute('data-game'))!
    let state = await stateOf(server.url, gameId)
    expect(await textOf(display, 'face-value')).toBe(money(1000))
    // BNG-40 / GEN-18: the bets the hall posts, as its public information gives them, and whose authorisation.
    const posted = (await api(server.url, 'GET', `/api/halls/${state.hallId}`)).body.bets
    expect(state.bets).toEqual(posted)
    expect(await textOf(display, 'bets')).toBe(`${posted.minCardsPerPurchase}–${posted.maxCardsPerPurchase}`)
    expect(await textOf(display, 'bets-note')).toBe(
      // The hall sells only under limits recorded with the AJ's reference (GEN-18): the display names it.
      `máx. ${posted.maxCardsPerPlayer} por jugador · Autorización ${posted.authorisationRef}`,
    )
    expect(await display.getByTestId('commitment').getAttribute('title')).toBe(state.commitment)
    expect(await textOf(display, 'commitment-full')).toBe(state.commitment.replace(/(.{8})(?=.)/g, '$1 '))

    await caller.getByTestId('open-sales').click()
    await untilText(display, 'state', 'EN VENTA')

    // Sound starts off (browsers speak only after a gesture); one click turns the spoken calls on.
    const sound = display.getByTestId('sound-toggle')
    if (await sound.count()) {
      expect(await sound.getAttribute('aria-pressed')).toBe('false')
      await sound.click()
      expect(await sound.getAttribute('aria-pressed')).toBe('true')
    }

    // Issue 13: the table takes no cash before its shift is open: the console says so and offers no sale.
    await caller.getByTestId('till-closed').waitFor()
    expect(await caller.getByTestId('sell').count()).toBe(0)
    expect(await textOf(caller, 'till-closed')).toContain('La caja de la mesa está cerrada')
    await shot(caller, 'caller-sales-till-closed-1920x1080.png')
    // She counts the float (Bs 100) and opens her table shift from the console.
    await caller.getByTestId('till-float').fill('100')
    await caller.getByTestId('till-open').click()
    await caller.getByTestId('till-open-shift').waitFor()
    const shift = (await server.services.db.get<{
      id: string
      float_cents: number
      cashier_name: string
      station_id: string
    }>("SELECT id, float_cents, cashier_name, station_id FROM cashier_shifts WHERE status = 'open'"))!
    expect(shift).toMatchObject({ float_cents: 10_000, cashier_name: 'Jefe de Mesa Quispe', station_id: table.id })
    expect(await textOf(caller, 'till-expected')).toBe(money(10_000))

    // 40 cards at the table from the console, 20 more through a kiosk: the hall sees the count grow.
    await caller.getByTestId('sell-count').fill('40')
    // GEN-17: the cash received, counted note by note (Bs 400: two Bs 200 notes).
    await caller.getByTestId('note-plus-20000').click()
    await caller.getByTestId('note-plus-20000').click()
    await caller.getByTestId('sell-age').check()
    await caller.getByTestId('sell').click()
    await untilText(display, 'cards-sold', '40')
    // The sale's cash is a movement of her shift at the table's station (issue 13 point 5), and the drawer shows it.
    const sold = await server.services.db.all<{ shift_id: string; station_id: string; amount_cents: number }>(
      "SELECT shift_id, station_id, amount_cents FROM cash_movements WHERE kind = 'counter_sale'",
    )
    expect(sold.map((m) => ({ ...m, amount_cents: Number(m.amount_cents) }))).toEqual([
      { shift_id: shift.id, station_id: table.id, amount_cents: 40_000 },
    ])
    await untilText(caller, 'till-expected', money(50_000))
    await shot(caller, 'caller-sales-till-open-1920x1080.png')
    // The same person at a console that is no enrolled station: told in words, no sale offered.
    {
      const elsewhere = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
      const other = await elsewhere.newPage()
      await other.goto(`${server.url}/caller/?hall=${hallId}`)
      await other.getByTestId('login-user').fill('jefe')
      await other.getByTestId('login-password').fill('jefe-de-mesa-1')
      await other.getByTestId('login-submit').click()
      await other.getByTestId('till-no-station').waitFor()
      expect(await textOf(other, 'till-no-station')).toMatch(/^Esta consola no es una caja registrada de la mesa/)
      expect(await other.getByTestId('sell').count()).toBe(0)
      expect(await other.getByTestId('till-open').count()).toBe(0)
      await shot(other, 'caller-sales-no-station-1920x1080.png')
      await elsewhere.close()
    }
    await server.services.bingo.sell({ gameId, count: 20, channel: 'kiosk:1' })
    await untilText(display, 'cards-sold', '60')
    expect(await textOf(display, 'line-prize')).toBe('—')

    // Close of sales, confirmed with Enter: prize amounts appear (BNG-16, BNG-56). Nobody types entropy any more: the
    // close fixes the public beacon round (bolillo-draw-v2), which the hall and the console show.
    expect(await caller.getByTestId('entropy').count()).toBe(0)
    await caller.getByTestId('close-sales').click()
    await confirmWithEnter(caller)
    await untilText(display, 'state', 'VENTA CERRADA')
    expect(await textOf(display, 'cards-sold')).toBe('60')
    expect(await textOf(display, 'line-prize')).toBe(money(6000))
    expect(await textOf(display, 'bingo-prize')).toBe(money(30600))
    expect(await textOf(display, 'extraction-count')).toBe('0')
    expect(await litCount(display)).toBe(0)
    const closedState = await stateOf(server.url, gameId)
    expect(closedState.beacon!.round).toBeGreaterThan(0)
    // BNG-17 / BNG-18: the numbers sold as runs per series: the hall reads them on the panel, the jefe reads the
    // Bolivian formula from the console.
    const runs = closedState.soldRanges!
    expect(runs.reduce((n, r) => n + r.count, 0)).toBe(60)
    const inPlay = await textOf(display, 'in-play')
    for (const r of runs) expect(inPlay).toContain(`${r.from}–${r.to}`)
    const announcement = await textOf(caller, 'caller-announcement')
    expect(announcement).toContain('Tickets autorizados vendidos, 60 cartones vendidos, de la serie')
    for (const r of runs) expect(announcement).toContain(`del número ${r.from} al ${r.to}`)
    expect(announcement).toContain(`Premio de línea: ${money(6000)}. Premio de bingo: ${money(30600)}.`)
    await shot(caller, 'caller-sales-announcement-1920x1080.png')
    expect(await display.getByTestId('beacon').count()).toBe(1)
    // The test hall reaches no relay: the labelled demo beacon signs round R, and both screens say so plainly.
    await until('beacon verified', async () => (await stateOf(server.url, gameId)).beacon!.status, 'verified')
    const verified = (await stateOf(server.url, gameId)).beacon!
    await untilText(display, 'beacon-label', `Ronda del faro ${verified.round}`)
    await untilText(display, 'beacon-value', `${verified.randomness!.slice(0, 16).replace(/(.{4})(?=.)/g, '$1 ')}…`)
    expect(await textOf(display, 'beacon-note')).toBe('FARO DE DEMOSTRACIÓN (no público)')
    await untilText(caller, 'caller-beacon-note', 'FARO DE DEMOSTRACIÓN (no público)')

    // Draw with Space until the line window opens (the BO-2025 profile claims sold cards itself).
    await blur(caller)
    let shotsTaken = false
    for (let i = 0; i < 90; i++) {
      const before = state.balls.length
      await idle(caller)
      await caller.keyboard.press('Space')
      await until('ball drawn', async () => (await stateOf(server.url, gameId)).balls.length, before + 1)
      state = await stateOf(server.url, gameId)
      const word = state.status === 'line_window' ? 'LÍNEA' : 'EN JUEGO'
      await expectDisplayShowsBalls(display, state.balls, word)
      expect(await textOf(display, 'current-ball-words')).toMatch(/^el [a-záéíóú ]+$/)
      await untilText(caller, 'caller-count', String(state.balls.length))
      if (state.balls.length === 12 && !shotsTaken) {
        shotsTaken = true
        await shot(display, 'display-1920x1080.png')
        await shot(caller, 'caller-1920x1080.png')
        await shot(display, 'display-3840x2160.png', { width: 3840, height: 2160 })
        await shot(display, 'display-portrait-1080x1920.png', { width: 1080, height: 1920 })
        await display.setViewportSize({ width: 1920, height: 1080 })
        await shot(caller, 'caller-3840x2160.png', { width: 3840, height: 2160 })
        await caller.setViewportSize({ width: 1920, height: 1080 })
      }
      if (state.status === 'line_window') break
    }
    expect(state.status).toBe('line_window')

    // The line: winning cards as 3x9 grids with the called numbers marked, serials, the pool, "¿alguna línea más?".
    await untilText(display, 'window-question', '¿ALGUNA LÍNEA MÁS?')
    const lineWinners = state.winners.filter((w) => w.kind === 'line')
    expect(lineWinners.length).toBeGreaterThan(0)
    for (const w of lineWinners.slice(0, 4)) {
      expect(
        await display
          .locator(`[data-testid="winner"][data-serial="${w.serial}"] [data-testid="winner-serial"]`)
          .textContent(),
      ).toBe(w.serial)
      // Issue 29 point 10: the extraction's number, not read as a ball's ("con la bola 75").
      expect(
        await display
          .locator(`[data-testid="winner"][data-serial="${w.serial}"] [data-testid="winner-draw"]`)
          .textContent(),
      ).toBe(`en la extracción ${w.atBall}`)
      expect(await markedCells(display, w.serial)).toBe(calledIn(w.rows, state.balls))
      expect(await display.locator(`[data-testid="winner"][data-serial="${w.serial}"] td`).count()).toBe(27)
      expect(
        norm(
          await display
            .locator(`[data-testid="winner"][data-serial="${w.serial}"] [data-testid="winner-prize"]`)
            .textContent(),
        ),
      ).toBe(money(6000))
    }
    await untilText(caller, 'caller-state', 'LÍNEA')
    await shot(display, 'display-line-1920x1080.png')

    // C closes the window (confirmed with Enter): the line is split, play resumes.
    await idle(caller)
    await blur(caller)
    await caller.keyboard.press('c')
    await confirmWithEnter(caller)
    await untilText(display, 'state', 'EN JUEGO')
    expect(await display.getByTestId('winner-panel').count()).toBe(0)
    await until('line prizes listed on the console', () => caller.getByTestId('prize').count(), lineWinners.length)

    // On to the bingo.
    state = await stateOf(server.url, gameId)
    for (let i = 0; i < 90 && state.status === 'drawing'; i++) {
      const before = state.balls.length
      await idle(caller)
      await caller.keyboard.press('Space')
      await until('ball drawn', async () => (await stateOf(server.url, gameId)).balls.length, before + 1)
      state = await stateOf(server.url, gameId)
      await expectDisplayShowsBalls(display, state.balls, state.status === 'bingo_window' ? 'BINGO' : 'EN JUEGO')
    }
    expect(state.status).toBe('bingo_window')
    await untilText(display, 'window-question', '¿ALGÚN BINGO MÁS?')
    const bingoWinners = state.winners.filter((w) => w.kind === 'bingo')
    for (const w of bingoWinners.slice(0, 4)) expect(await markedCells(display, w.serial)).toBe(15)
    await untilText(caller, 'caller-state', 'BINGO')
    await shot(display, 'display-bingo-1920x1080.png')

    await caller.getByTestId('close-window').click()
    await confirmWithEnter(caller)
    await untilText(display, 'state', 'PARTIDA TERMINADA')
    state = await stateOf(server.url, gameId)
    for (const w of state.winners.filter((x) => x.kind === 'bingo').slice(0, 4)) {
      const prize = display.locator(`[data-testid="winner"][data-serial="${w.serial}"] [data-testid="winner-prize"]`)
      expect(norm(await prize.textContent())).toBe(money(w.amountCents!))
    }

    // Pay every prize at the console against its card's code, typed as the scanner does, out of the jefe's open
    // table shift (issue 13 point 6: a prize id alone pays nothing); the console and the hall see the winners paid.
    await until('all prizes listed', () => caller.getByTestId('prize').count(), state.winners.length)
    const { cardCode } = server.services.cashdesk.payouts
    const prizeRows = await server.services.db.all<{
      id: string
      card_id: string
      serial: string
      amount_cents: number
    }>(
      'SELECT p.id, p.card_id, c.serial, p.amount_cents FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? ORDER BY p.id',
      [gameId],
    )
    const cards = [...new Map(prizeRows.map((p) => [p.card_id, p])).values()]
    // Pay with no code: refused in Spanish, nothing paid; the server refuses it as well (a prize id alone pays nothing).
    await caller.locator(`[data-testid="prize"][data-serial="${cards[0].serial}"] [data-testid="pay"]`).first().click()
    await until(
      'code field focused',
      () => caller.evaluate(() => document.activeElement?.getAttribute('data-testid')),
      'pay-code',
    )
    await caller.keyboard.press('Enter')
    await untilText(
      caller,
      'error-message',
      'Escanee o escriba el código del cartón premiado: sin él no se paga el premio.',
    )
    const token = await caller.evaluate(() => sessionStorage.getItem('bolillo.caller.token'))
    const bare = await api(
      server.url,
      'POST',
      `/api/prizes/${cards[0].id}/pay`,
      {},
      { authorization: `Bearer ${token}`, 'accept-language': 'es' },
    )
    expect(bare.body.error).toMatchObject({
      code: 'CODE_REQUIRED',
      message: 'El premio se paga solo contra el código firmado de ese mismo cartón o boleto.',
    })
    // Another card's code: the server's refusal, in Spanish on the console, never its code.
    const stranger =
      cards.length > 1
        ? cards[1].card_id
        : (await server.services.db.get<{ id: string }>('SELECT id FROM cards WHERE id <> ? AND game_id = ? LIMIT 1', [
            cards[0].card_id,
            gameId,
          ]))!.id
    await caller.getByTestId('pay-code').fill(cardCode(stranger))
    await caller.keyboard.press('Enter')
    await untilText(
      caller,
      'error-message',
      'El premio se paga solo contra el código firmado de ese mismo cartón o boleto.',
    )
    expect(await textOf(caller, 'error-banner')).not.toContain('CODE_REQUIRED')
    expect(await caller.locator('[data-testid="prize"][data-status="paid"]').count()).toBe(0)
    for (const card of cards) {
      await idle(caller)
      await caller
        .locator(`[data-testid="prize"][data-serial="${card.serial}"][data-status="awarded"] [data-testid="pay"]`)
        .first()
        .click()
      await caller.getByTestId('pay-code').fill(cardCode(card.card_id))
      await caller.keyboard.press('Enter')
      await until(
        `card ${card.serial} paid`,
        () => caller.locator(`[data-testid="prize"][data-serial="${card.serial}"][data-status="awarded"]`).count(),
        0,
      )
    }
    await until(
      'prizes paid',
      () => caller.locator('[data-testid="prize"][data-status="paid"]').count(),
      state.winners.length,
    )
    await until(
      'paid badge on the display',
      () => display.locator('.hd-badge--paid').count(),
      Math.min(4, state.winners.filter((w) => w.kind === 'bingo').length),
    )
    // Every payout left the drawer of her table shift.
    const paidOut = prizeRows.reduce((sum, p) => sum + Number(p.amount_cents), 0)
    const outs = await server.services.db.all<{ shift_id: string; amount_cents: number }>(
      "SELECT shift_id, amount_cents FROM cash_movements WHERE kind = 'prize_payout'",
    )
    expect(outs.length).toBe(cards.length)
    expect(outs.every((m) => m.shift_id === shift.id)).toBe(true)
    expect(outs.reduce((sum, m) => sum + Number(m.amount_cents), 0)).toBe(-paidOut)

    // The game over, she closes the table shift with the drawer counted 50 centavos short: the console asks for a
    // note, then shows the difference to the centavo as the server counted it.
    const expected = 10_000 + 40_000 - paidOut
    await untilText(caller, 'till-expected', money(expected))
    await caller.getByTestId('till-counted').fill(((expected - 50) / 100).toFixed(2).replace('.', ','))
    await caller.getByTestId('till-close').click()
    await untilText(
      caller,
      'error-message',
      `El cajón no cuadra por ${money(-50)}: escriba en la nota por qué antes de cerrar.`,
    )
    await caller.getByTestId('till-note').fill('Faltan 50 centavos de cambio')
    await caller.getByTestId('till-close').click()
    await caller.getByTestId('till-closed-result').waitFor()
    expect(await textOf(caller, 'till-difference')).toBe(money(-50))
    await shot(caller, 'caller-till-closed-result-1920x1080.png')
    expect(
      await server.services.db.get('SELECT status, counted_cents, difference_cents FROM cashier_shifts WHERE id = ?', [
        shift.id,
      ]),
    ).toMatchObject({ status: 'closed', difference_cents: -50 })

    // The running minutes: one game, 60 cards.
    await blur(caller)
    await caller.keyboard.press('a')
    await caller.getByTestId('minutes-table').waitFor()
    await until('minutes row', () => caller.getByTestId('minutes-row').count(), 1)
    expect(norm(await caller.getByTestId('minutes-row').first().textContent())).toContain('60')
    await shot(caller, 'caller-minutes-1920x1080.png')
    await caller.keyboard.press('Escape')
    await until('minutes closed', () => caller.getByTestId('minutes').count(), 0)

    // The next game: the hall display switches to it by itself ('hall:game').
    await caller.getByTestId('announce').click()
    await untilText(display, 'game-no', '2')
    await untilText(display, 'state', 'PRÓXIMA PARTIDA')
    expect(await textOf(display, 'extraction-count')).toBe('0')
    expect(await litCount(display)).toBe(0)
    // The new game has no beacon round until its own close of sales.
    expect(await display.getByTestId('beacon').count()).toBe(0)
  })
})

suite('caller console: ES-CB-2010 manual blower, claims by serial, errors, incidents and session close', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let ctx: BrowserContext
  let display: Page
  let caller: Page
  let gameId: string
  const hallId = 'altamira'
  const money = (c: number) => norm(formatMoney(c, 'EUR', 'es'))

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ensureBuilt(['display', 'caller'], ['display'])
    browser = await launch()
    server = await startTestServer()
    const { bingo } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Altamira',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 120,
    })
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: 'correct horse battery',
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'browser-display-2' })
    const series = await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 150 })
    await equipForManualGames(server.services, hallId)
    const session = await bingo.openSession({ hallId, recount: { ballsCounted: 90, confirmedBy: 'Jefa de Sala' } })
    const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })
    gameId = game.gameId
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 30, channel: 'counter' })
    await bingo.closeSales({ gameId })
    ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    display = await ctx.newPage()
    caller = await ctx.newPage()
    await display.goto(`${server.url}/display/?hall=${hallId}`)
    await caller.goto(`${server.url}/caller/?hall=${hallId}`)
  })
  afterAll(async () => {
    await ctx?.close()
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'enters balls by keypad, refuses a wrong claim, verifies a line by serial, annuls and closes the session',
    { timeout: 120_000 },
    async () => {
      const { bingo } = server.services
      await untilText(display, 'state', 'VENTA CERRADA')
      expect(await textOf(display, 'cards-sold')).toBe('30')
      expect(await textOf(display, 'line-prize')).toBe(money(450)) // 10 % of 30 x 1.50
      await untilText(caller, 'caller-state', 'VENTA CERRADA')

      // The first row of card A-00001, called by typing each number and Enter.
      const winner = (await bingo.getCard(gameId, 'A-00001'))!
      const balls = winner.rows[0]
      await blur(caller)
      for (let i = 0; i < balls.length; i++) {
        await caller.keyboard.type(String(balls[i]))
        await untilText(caller, 'manual-display', String(balls[i]))
        await caller.keyboard.press('Enter')
        await expectDisplayShowsBalls(display, balls.slice(0, i + 1))
        await untilText(caller, 'manual-display', '—')
        await idle(caller)
      }

      // A ball already out: the API's refusal in large print.
      await caller.keyboard.type(String(balls[0]))
      await caller.keyboard.press('Enter')
      await untilText(caller, 'error-message', 'Esa bola ya salió en esta partida.')
      // Issue 14 point 7: the message in Spanish, never the code.
      expect(await textOf(caller, 'error-banner')).not.toContain('BALL_ALREADY_DRAWN')
      await caller.keyboard.press('Escape')
      await until('error dismissed', () => caller.getByTestId('error-banner').count(), 0)

      // L, a serial that has not won, Enter: refused with the reason, on the console and on the hall display.
      const called = new Set(balls)
      let loser = ''
      for (let n = 2; n <= 30 && !loser; n++) {
        const serial = `A-${String(n).padStart(5, '0')}`
        const c = (await bingo.getCard(gameId, serial))!
        if (!c.rows.some((r) => r.every((x) => called.has(x)))) loser = serial
      }
      // A player calls: the caller stops the game (BNG-46), the hall sees COMPROBANDO, the serial field takes focus.
      await caller.getByTestId('claim-stop').click()
      await untilText(display, 'state', 'COMPROBANDO')
      await until(
        'serial field focused',
        () => caller.evaluate(() => document.activeElement?.getAttribute('data-testid')),
        'claim-serial',
      )
      await caller.keyboard.type(loser)
      await caller.keyboard.press('Enter')
      await untilText(caller, 'claim-verdict', 'SIN PREMIO')
      expect(await textOf(caller, 'claim-reason')).toBe('ninguna fila completa')
      expect(await caller.locator('[data-testid="claim-card"] td').count()).toBe(27)
      await untilText(display, 'claim-rejected', `Cartón ${loser}: SIN PREMIO (ninguna fila completa)`)
      // No prize: play resumes (BNG-49).
      await caller.getByTestId('claim-resume').click()
      await untilText(display, 'state', 'EN JUEGO')

      // L, the winning serial, Enter: verified; the hall sees the card-matrix with its five marked numbers (BNG-35).
      await idle(caller)
      await caller.keyboard.press('l')
      await caller.keyboard.type('a-00001')
      await caller.keyboard.press('Enter')
      await untilText(caller, 'claim-verdict', 'PREMIADO')
      expect(await caller.locator('[data-testid="claim-card"] [data-marked="true"]').count()).toBe(5)
      await untilText(display, 'state', 'LÍNEA')
      await untilText(display, 'window-question', '¿ALGUNA LÍNEA MÁS?')
      expect(await markedCells(display, 'A-00001')).toBe(5)
      expect(
        norm(
          await display
            .locator('[data-testid="winner"][data-serial="A-00001"] [data-testid="winner-prize"]')
            .textContent(),
        ),
      ).toBe(money(450))

      // A caller's error: the regulation paragraph and its outcome are on screen before confirming (BNG-84).
      await caller.getByTestId('incident-kind').selectOption('caller-error')
      expect(await textOf(caller, 'incident-text')).toMatch(/^Prevalecerá siempre el número de la bola extraída/)
      expect(await textOf(caller, 'incident-outcome')).toContain('prevalece la bola extraída')
      await caller.getByTestId('incident-note').fill('Se cantó 61 por 16; corregido en el acto')
      await caller.getByTestId('incident-declare').click()
      expect(norm(await caller.getByTestId('confirm-dialog').textContent())).toContain('Prevalecerá siempre')
      await confirmWithEnter(caller)

      // C + Enter: the line is awarded; play resumes.
      await idle(caller)
      await blur(caller)
      await caller.keyboard.press('c')
      await confirmWithEnter(caller)
      await untilText(display, 'state', 'EN JUEGO')
      const lineTile = display.locator('.hd-tile', { has: display.getByTestId('line-prize') })
      expect(await lineTile.getAttribute('class')).toContain('hd-tile--done')
      expect(norm(await lineTile.textContent())).toContain('A-00001')

      // A ball irregularity annuls the game with a full refund (BNG-82, BNG-86).
      await caller.getByTestId('incident-kind').selectOption('ball-irregularity')
      expect(await textOf(caller, 'incident-text')).toContain('bolas duplicadas')
      // Issue 15 point 4: no annulment without a reason and a second person's username and password.
      expect(await caller.getByTestId('incident-declare').isDisabled()).toBe(true)
      await caller.getByTestId('annul-reason').fill('Falta la bola 33 en el bombo')
      await caller.getByTestId('annul-user').fill('jefa')
      await caller.getByTestId('annul-password').fill('correct horse battery')
      await caller.getByTestId('incident-declare').click()
      await confirmWithEnter(caller)
      await untilText(display, 'state', 'PARTIDA ANULADA')
      expect(await textOf(display, 'notice')).toContain('Se devuelve el importe íntegro de los cartones')
      expect(await textOf(display, 'annul-reason')).toContain('Falta la bola 33 en el bombo')
      // The second person's password does not stay on the console once the annulment is done.
      await until('annul password field gone', () => caller.getByTestId('annul-password').count(), 0)
      await shot(display, 'display-void-1920x1080.png')

      // English on request.
      const en = await ctx.newPage()
      await en.goto(`${server.url}/display/?hall=${hallId}&lang=en`)
      await untilText(en, 'state', 'GAME ANNULLED')
      await en.close()

      // Close the session with the final recount (required by this profile, BNG-27); the minutes open.
      await caller.getByTestId('close-recount-balls').fill('90')
      // Issue 29 point 10: closing the gaming session never reads like logging out ("Salir").
      expect(await caller.getByTestId('close-session').textContent()).toContain('Cerrar la sesión de juego')
      await caller.getByTestId('close-session').click()
      await caller.getByTestId('confirm-dialog').waitFor()
      expect(await caller.getByTestId('confirm-dialog').textContent()).toContain(
        'Se cierra la sesión de juego y su acta, para siempre',
      )
      await confirmWithEnter(caller)
      await caller.getByTestId('minutes-table').waitFor()
      await until('minutes row', () => caller.locator('[data-testid="minutes-row"][data-status="void"]').count(), 1)
      await untilText(caller, 'caller-session', 'Sin sesión abierta')
      const m = await server.services.minutes.sessionMinutes((await stateOf(server.url, gameId)).sessionId)
      expect(m.closedAt).not.toBeNull()
      expect(m.games[0].incidents.map((i) => i.kind)).toEqual(['caller-error', 'ball-irregularity'])
      expect(m.games[0].annulment).toMatchObject({
        confirmedBy: 'Marta Quispe',
        reason: 'Falta la bola 33 en el bombo',
      })
    },
  )
})

suite('hall display across a server restart', () => {
  let browser: Browser
  let page: Page
  const cleanups: Array<() => Promise<void>> = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ensureBuilt(['display', 'caller'], ['display'])
    browser = await launch()
  })
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined)
    await browser?.close()
  })

  it(
    'opens mid-game correct at once, shows the cut, and returns to the same balls after the restart',
    { timeout: 90_000 },
    async () => {
      const first = await startTestServer()
      let firstClosed = false
      cleanups.push(async () => {
        if (!firstClosed) await first.close()
      })
      const { bingo } = first.services
      await bingo.createHall({
        id: 'restart',
        name: 'Sala Restart',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
      const set = await bingo.createMasterSet({ count: 100, seed: 'browser-display-3' })
      const series = await bingo.createSeries({
        hallId: 'restart',
        code: 'R',
        masterSetId: set.id,
        faceValueCents: 2000,
      })
      const session = await bingo.openSession({ hallId: 'restart', recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
      const { gameId } = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
      await bingo.openSales(gameId)
      await bingo.sell({ gameId, count: 15, channel: 'counter' })
      await bingo.closeSales({ gameId })
      for (let i = 0; i < 7; i++) await bingo.drawNext(gameId)
      const before = await bingo.getGameState(gameId)

      page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
      // Watched by game id this time.
      await page.goto(`${first.url}/display/?game=${gameId}`)
      await expectDisplayShowsBalls(page, before.balls)
      expect(await textOf(page, 'cards-sold')).toBe('15')

      // The server goes away: the display says so and keeps the last state on screen.
      await first.close()
      firstClosed = true
      await page.getByTestId('offline').waitFor({ timeout: 10_000 })
      expect(await textOf(page, 'extraction-count')).toBe('7')

      // Same data, same port: the display reconnects, watches again and shows the same game.
      const second = await startTestServer({
        dataDir: first.dataDir,
        port: first.port,
        databaseUrl: first.services.config.databaseUrl,
      })
      cleanups.push(() => second.cleanup())
      await until('back online', () => page.getByTestId('offline').count(), 0, 20_000)
      await expectDisplayShowsBalls(page, before.balls)
      expect(await textOf(page, 'line-prize')).toBe(norm(formatMoney(before.linePoolCents!, 'BOB', 'es')))

      // And it follows the next ball drawn by the new server.
      await second.services.bingo.drawNext(gameId)
      const after = await second.services.bingo.getGameState(gameId)
      expect(after.balls.slice(0, 7)).toEqual(before.balls)
      await expectDisplayShowsBalls(page, after.balls, after.status === 'line_window' ? 'LÍNEA' : 'EN JUEGO')
    },
  )
})
