/**
 * Issue 14 point 7 in a real Chromium, authentication on, real people: the caller console follows the role logged
 * in. A locutor sees his own actions (sales, draw, claims) and, marked, the jefe's actions a jefe authorises on
 * his console with her own username and password without logging him out; the journal names both. An inspector
 * (the regulator's inspector) gets a read-only console: no announce, draw or pay buttons. No screen shows a code, permission or id.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameState } from '../../server/src/bingo/service.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { screenLeaks as leaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

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
const textOf = async (page: Page, id: string) => norm(await page.getByTestId(id).first().textContent({ timeout: 5000 }))
const untilText = (page: Page, id: string, expected: string) =>
  until(`[data-testid=${id}]`, () => textOf(page, id), expected)
const idle = (page: Page) => until('console idle', () => page.getByTestId('caller').getAttribute('data-busy'), '')
const shot = async (page: Page, name: string) => {
  await settled(page, { animations: false }) // the screenshot ends them
  await page.screenshot({ path: join(SCREENSHOTS, name), animations: 'disabled' })
}

browserSuite('caller console by role (issue 14 point 7)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const hallId = 'uyuni'
  /** Issue 13: the console at the table is the hall's enrolled cashier station 'Mesa 1'. */
  let table: { id: string; credential: string }
  const tokens = new Map<string, string>()
  const as = (who: string) => ({ authorization: `Bearer ${tokens.get(who)}` })
  const stateOf = async (gameId: string) => (await api<GameState>(server.url, 'GET', `/api/games/${gameId}`)).body

  async function login(page: Page, username: string): Promise<void> {
    await page.getByTestId('login-user').fill(username)
    await page.getByTestId('login-password').fill(PASSWORD)
    await page.getByTestId('login-submit').click()
    await page.getByTestId('caller-role').waitFor()
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ensureBuilt(['caller'], ['display', 'web'])
    browser = await launchChromium()
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: hallId,
      name: 'Sala Uyuni',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'caller-roles' })
    await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    for (const [username, displayName, role] of [
      ['pedro', 'Pedro Flores', 'caller'],
      ['marta', 'Marta Quispe', 'floor_manager'],
      ['ines', 'Inés Rojas', 'inspector'],
      ['directora', 'Elena Vargas', 'director'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    table = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Mesa 1', hallId })
    // The jefe opened the session from her own console; the locutor takes over the game at his.
    // BNG-27: she counts the balls, the director witnesses it with her own credential.
    const session = await api(
      server.url,
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { ...as('marta'), ...{ 'x-bolillo-second-person': Buffer.from(`directora:${PASSWORD}`).toString('base64') } },
    )
    expect(session.status).toBe(201)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'a locutor sees only his actions, sells in his own table shift; the jefe authorises closing the window on his console with her password; the journal names both',
    { timeout: 240_000 },
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
      const page = await ctx.newPage()
      // Every refusal the console runs into while the locutor works (it must not poll what he may not read).
      const refused: string[] = []
      page.on('response', (r: Response) => {
        if (r.status() === 401 || r.status() === 403)
          refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`)
      })
      await page.goto(`${server.url}/caller/?hall=${hallId}&device=${encodeURIComponent(table.credential)}`)
      // Authentication on and nobody logged in (the station's credential alone is no one): the console asks for a login straight away.
      await page.getByTestId('login').waitFor()
      await login(page, 'pedro')
      await untilText(page, 'caller-user', 'Pedro Flores Locutor · Mesa 1')
      expect(await textOf(page, 'caller-session')).toBe('abierta')

      // No game yet: announcing is the jefe's (marked), the minutes are not offered at all.
      await page.getByTestId('announce').waitFor()
      expect(await textOf(page, 'announce')).toContain('Autoriza el jefe')
      expect(await page.getByTestId('show-minutes').count()).toBe(0)
      expect(await page.getByTestId('minutes-pdf').count()).toBe(0)
      // The jefe announces on his console: her password, his session untouched.
      await page.getByTestId('announce').click()
      await page.getByTestId('authorise').waitFor()
      await page.getByTestId('authorise-user').fill('marta')
      await page.getByTestId('authorise-password').fill(PASSWORD)
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('open-sales').waitFor()
      const gameId = (await api<{ currentGameId: string }>(server.url, 'GET', `/api/halls/${hallId}`)).body
        .currentGameId

      // His own actions, unmarked: open sales, open his table shift, sell at the table, draw (closing sales is marked).
      expect(await textOf(page, 'open-sales')).not.toContain('Autoriza el jefe')
      await page.getByTestId('open-sales').click()
      // Issue 13: no sale before his own shift is open at the table's station; he opens it with the counted float.
      await page.getByTestId('till-closed').waitFor()
      expect(await page.getByTestId('sell').count()).toBe(0)
      expect(await textOf(page, 'till-open')).toBe('Abrir caja de la mesa')
      await page.getByTestId('till-float').fill('50')
      await page.getByTestId('till-open').click()
      await page.getByTestId('till-open-shift').waitFor()
      await page.getByTestId('sell-count').fill('40')
      // GEN-17: the cash received, counted note by note (Bs 400: two Bs 200 notes).
      await page.getByTestId('note-plus-20000').click()
      await page.getByTestId('note-plus-20000').click()
      await page.getByTestId('sell-age').check()
      await page.getByTestId('sell').click()
      await until('sold', async () => (await stateOf(gameId)).cardsSold, 40)
      // The sale's cash is a movement of the locutor's shift at 'Mesa 1' (BNG-96: whoever sells at the table keeps its cash).
      const shift = (await server.services.db.get<{
        id: string
        cashier_name: string
        station_id: string
        float_cents: number
      }>("SELECT id, cashier_name, station_id, float_cents FROM cashier_shifts WHERE status = 'open'"))!
      expect({ ...shift, float_cents: Number(shift.float_cents) }).toMatchObject({
        cashier_name: 'Pedro Flores',
        station_id: table.id,
        float_cents: 5_000,
      })
      const sold = await server.services.db.all<{ shift_id: string; amount_cents: number }>(
        "SELECT shift_id, amount_cents FROM cash_movements WHERE kind = 'counter_sale'",
      )
      expect(sold.map((m) => ({ shift_id: m.shift_id, amount_cents: Number(m.amount_cents) }))).toEqual([
        { shift_id: shift.id, amount_cents: 40_000 },
      ])
      // BNG-97: the locutor does not close sales alone: the button is marked and the jefe authorises it here.
      expect(await textOf(page, 'close-sales')).toContain('Autoriza el jefe')
      await page.getByTestId('close-sales').click()
      await page.getByTestId('confirm-dialog').waitFor()
      await page.getByTestId('authorise').waitFor()
      await page.getByTestId('authorise-user').fill('marta')
      await page.getByTestId('authorise-password').fill(PASSWORD)
      await page.getByTestId('confirm-ok').click()
      await until('beacon verified', async () => (await stateOf(gameId)).beacon?.status, 'verified', 20_000)

      let state = await stateOf(gameId)
      for (let i = 0; i < 90 && state.status !== 'line_window'; i++) {
        await idle(page)
        await page.getByTestId('draw-next').click()
        await until('ball drawn', async () => (await stateOf(gameId)).balls.length, state.balls.length + 1)
        state = await stateOf(gameId)
      }
      expect(state.status).toBe('line_window')

      // Everything on screen is either his own or marked for the jefe; the jefe-only ones are exactly those marked.
      await page.getByTestId('close-window').waitFor()
      expect(await textOf(page, 'close-window')).toContain('Autoriza el jefe')
      expect(await textOf(page, 'incident-declare')).toContain('Autoriza el jefe')
      expect(await page.getByTestId('claim-submit').count()).toBe(1)
      expect(await textOf(page, 'claim-submit')).not.toContain('Autoriza el jefe')
      expect(await page.getByTestId('shortcuts').textContent()).not.toContain('acta')
      expect(leaks(norm(await page.locator('body').textContent()))).toEqual([])

      // She types a wrong password first: refused in Spanish inside the dialog, nothing changes, he stays logged in.
      await page.getByTestId('close-window').click()
      await page.getByTestId('authorise').waitFor()
      await page.getByTestId('authorise-user').fill('marta')
      await page.getByTestId('authorise-password').fill('not her password')
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('authorise-error').waitFor()
      const refusal = await textOf(page, 'authorise-error')
      expect(refusal).toMatch(/segunda persona/)
      expect(leaks(refusal)).toEqual([])
      expect(await page.getByTestId('authorise-password').inputValue()).toBe('')
      expect((await stateOf(gameId)).status).toBe('line_window')
      await untilText(page, 'caller-user', 'Pedro Flores Locutor · Mesa 1')
      await shot(page, 'caller-locutor-authorise-1920x1080.png')

      // Her own password: the window closes, the line is split, and the locutor is still the one logged in.
      await page.getByTestId('authorise-password').fill(PASSWORD)
      await page.getByTestId('confirm-ok').click()
      await until('dialog closed', () => page.getByTestId('confirm-dialog').count(), 0)
      await until('play resumed', async () => (await stateOf(gameId)).status, 'drawing')
      await untilText(page, 'caller-user', 'Pedro Flores Locutor · Mesa 1')
      await page.getByTestId('draw-next').waitFor()
      await until('line prize listed', async () => (await page.getByTestId('prize').count()) > 0, true)
      // Paying is the jefe's on this console too: marked, never a plain button.
      expect(await textOf(page, 'pay')).toContain('Autoriza el jefe')
      // A prize is paid only against its card's code: Pay asks for it, and without one it is refused in Spanish before
      // the jefe is asked for anything.
      await page.getByTestId('pay').first().click()
      await until(
        'code field focused',
        () => page.evaluate(() => document.activeElement?.getAttribute('data-testid')),
        'pay-code',
      )
      await page.keyboard.press('Enter')
      await untilText(
        page,
        'error-message',
        'Escanee o escriba el código del cartón premiado: sin él no se paga el premio.',
      )
      expect(await page.getByTestId('confirm-dialog').count()).toBe(0)
      expect(await page.locator('[data-testid="prize"][data-status="paid"]').count()).toBe(0)
      await shot(page, 'caller-pay-code-1920x1080.png')
      await page.getByTestId('pay-cancel').click()
      await page.keyboard.press('Escape')
      await shot(page, 'caller-locutor-1920x1080.png')

      // The journal names both: the locutor who acted and the jefe who authorised.
      const records = (await api(server.url, 'GET', '/api/journal?limit=1000', undefined, as('ines'))).body
        .records as Array<{ type: string; payload: any }>
      const awarded = records.find(
        (r) => r.type === 'prize.awarded' && r.payload.gameId === gameId && r.payload.kind === 'line',
      )!
      expect(awarded.payload.actor).toMatchObject({
        name: 'Pedro Flores',
        role: 'caller',
        authorisedBy: { name: 'Marta Quispe', role: 'floor_manager' },
      })
      const announced = records.find((r) => r.type === 'game.announced' && r.payload.gameId === gameId)!
      expect(announced.payload.actor).toMatchObject({
        name: 'Pedro Flores',
        role: 'caller',
        authorisedBy: { name: 'Marta Quispe', role: 'floor_manager' },
      })
      // His own draws name him alone.
      const called = records.find((r) => r.type === 'ball.called' && r.payload.gameId === gameId)!
      expect(called.payload.actor).toMatchObject({ name: 'Pedro Flores', role: 'caller' })
      expect(called.payload.actor.authorisedBy).toBeUndefined()

      // The only refusal he met is her mistyped password: nothing polled behind his back.
      expect(refused).toEqual([`403 POST /api/games/${gameId}/window/close`])
      await ctx.close()
    },
  )

  it(
    'an inspector gets a read-only console: minutes, but no announce, draw, claim, incident or pay',
    { timeout: 60_000 },
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
      const page = await ctx.newPage()
      await page.goto(`${server.url}/caller/?hall=${hallId}`)
      await page.getByTestId('login').waitFor()
      await login(page, 'ines')
      await untilText(page, 'caller-role', 'Inspector (solo lectura)')
      await page.getByTestId('session').waitFor()
      for (const id of [
        'announce',
        'draw-next',
        'claim-submit',
        'incident-declare',
        'pay',
        'pay-all',
        'close-window',
        'open-sales',
        'sell',
        'close-session',
        'last-game',
        'needs-jefe',
        'paid-by',
      ]) {
        expect(await page.getByTestId(id).count(), id).toBe(0)
      }
      expect(await page.getByTestId('show-minutes').count()).toBe(1)
      await page.getByTestId('show-minutes').click()
      await page.getByTestId('minutes-table').waitFor()
      expect(leaks(norm(await page.locator('body').textContent()))).toEqual([])
      await page.getByTestId('minutes-close').click()
      await shot(page, 'caller-inspector-1920x1080.png')
      await ctx.close()
    },
  )
})
