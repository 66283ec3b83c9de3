/**
 * Issue 29 point 5 "one clock", in real Chromium with authentication on: the browser runs on Tokyo's clock, thirteen
 * hours from the hall's (La Paz), so a time shown on the browser's clock is told apart from the hall's on any date.
 * The lottery operator's lotto draw screen (draw time and close of sales, in the list and the detail) and the
 * inspector's journal (its signed checkpoints) show La Paz time with the zone named, never Tokyo's.
 * Screenshots in test-output/screenshots/one-clock-*.png.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'

const PASSWORD = 'una-clave-larga-1'
// 14:00 UTC: 10:00 in La Paz, 23:00 in Tokyo (a time on the wrong clock differs in the hour on any date).
const START = Date.parse('2026-03-10T14:00:00Z')
const startedAt = Date.now()
const clock = { now: () => new Date(START + (Date.now() - startedAt)) }
const HOUR = 3_600_000
const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()

browserSuite('one clock: the hall’s, with its zone named, on the back office and the inspector (issue 29)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const tokens = new Map<string, string>()
  let plan: { salesCloseAt: string; drawAt: string }

  const call = async (who: string, method: string, path: string, body?: unknown) => {
    const r = await api(server.url, method, path, body, { authorization: `Bearer ${tokens.get(who)}` })
    if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  const page = async (): Promise<Page> => {
    const p = await browser.newPage({ viewport: { width: 1920, height: 1080 }, timezoneId: 'Asia/Tokyo' })
    await p.clock.setSystemTime(clock.now())
    return p
  }
  const laPaz = (iso: string) => `${formatInZone(iso, 'America/La_Paz')} (La Paz, UTC-04:00)`
  const tokyo = (iso: string) => formatInZone(iso, 'Asia/Tokyo')

  beforeAll(async () => {
    ensureBuilt(['admin', 'inspector'], ['admin/src', 'display/src/inspector', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, bingo } = server.services
    // A hall on the Bolivian profile: its clock is La Paz's.
    await bingo.createHall({
      id: 'sajama',
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    for (const [username, displayName, role] of [
      ['operador', 'Jorge Condori', 'lottery_operator'],
      ['ines', 'Inés Rojas', 'inspector'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString()
    plan = { salesCloseAt: at(HOUR), drawAt: at(2 * HOUR) }
    const draw = await call(
      'operador',
      'POST',
      '/api/lotto/draws',
      plan649({ salesStartAt: at(-24 * HOUR), claimDeadline: at(62 * 24 * HOUR), ...plan }),
    )
    // The answer names the clock the plan is read in (the server's side of the fix).
    expect(draw.timeZone).toBe('America/La_Paz')
    await call('operador', 'POST', `/api/lotto/draws/${draw.drawId}/close`, {
      earlyReason: 'Cierre anticipado ordenado por la autoridad',
    })
    // A signed journal checkpoint (as the timer signs one): the inspector's journal lists it with its time.
    expect(await server.services.checkpoints.checkpoint('timer')).not.toBeNull()
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it(
    'shows the lotto draw time and close of sales on La Paz’s clock, zone named, never Tokyo’s',
    { timeout: 60_000 },
    async () => {
      const p = await page()
      await p.goto(`${server.url}/admin/`)
      await p.fill('input[name=username]', 'operador')
      await p.fill('input[name=password]', PASSWORD)
      await p.click('[data-testid=login] button[type=submit]')
      await p.click('[data-testid=nav-draws]')
      await p.getByTestId('draws-table').getByText('Loto 6/49').waitFor()
      await p.getByTestId('draw-detail').waitFor()
      const list = norm(await p.getByTestId('draws-table').textContent())
      expect(list).toContain(laPaz(plan.drawAt))
      expect(list).not.toContain(tokyo(plan.drawAt))
      const detail = norm(await p.getByTestId('draw-detail').textContent())
      // 12:00 and 11:00 in La Paz; 01:00 and 00:00 the next day in Tokyo.
      expect(detail).toContain(laPaz(plan.drawAt))
      expect(detail).toContain(laPaz(plan.salesCloseAt))
      for (const iso of [plan.drawAt, plan.salesCloseAt]) expect(detail).not.toContain(tokyo(iso))
      await p.screenshot({ path: join(SCREENSHOTS, 'one-clock-lotto-draw-es.png') })

      // A new plan is typed on the hall's clock, the zone named beside the field: the value offered (one day ahead)
      // is La Paz's wall clock, not Tokyo's.
      await p.click('[data-testid=new-lotto-draw]')
      const form = p.getByTestId('new-lotto-plan')
      await form.waitFor()
      expect(norm(await form.textContent())).toContain('(La Paz, UTC-04:00)')
      // Issue 29 point 4: offered as the hall writes it, the day first (dd/mm/aaaa) and the time on 24 h.
      const offeredDay = await form.locator('input[name=salesCloseAt-date]').inputValue()
      const offeredTime = await form.locator('input[name=salesCloseAt-time]').inputValue()
      const dayAhead = new Date(clock.now().getTime() + 24 * HOUR).toISOString()
      // Minutes may tick between the page's reading and this one: compare the date and the hour.
      const wall = formatInZone(dayAhead, 'America/La_Paz', 'seconds')
      expect(offeredDay).toBe(wall.slice(0, 10))
      expect(offeredTime.slice(0, 2)).toBe(wall.slice(11, 13))
      await p.close()
    },
  )

  it(
    "types a lotto draw's times day first and on 24 h on La Paz's clock, zone named, in a browser whose locale is en-US (issue 29 point 4)",
    { timeout: 60_000 },
    async () => {
      // A browser in English (United States) on Los Angeles's clock (UTC-07:00 in March, three hours from La Paz;
      // New York is on UTC-04:00 like La Paz then): its own picker would read mm/dd/yyyy and AM/PM.
      const context = await browser.newContext({
        locale: 'en-US',
        timezoneId: 'America/Los_Angeles',
        viewport: { width: 1920, height: 1080 },
      })
      const p = await context.newPage()
      await p.clock.setSystemTime(clock.now())
      await p.goto(`${server.url}/admin/?lang=es`)
      await p.fill('input[name=username]', 'operador')
      await p.fill('input[name=password]', PASSWORD)
      await p.click('[data-testid=login] button[type=submit]')
      await p.click('[data-testid=nav-draws]')
      await p.click('[data-testid=new-lotto-draw]')
      const form = p.getByTestId('new-lotto-plan')
      await form.waitFor()
      // No browser picker: a typed day and a typed time per date, the hall's convention and zone said beside them.
      expect(await form.locator('input[type=date], input[type=datetime-local], input[type=time]').count()).toBe(0)
      for (const k of ['salesCloseAt', 'drawAt']) {
        expect(norm(await form.getByTestId(`${k}-field`).textContent())).toContain('(La Paz, UTC-04:00)')
        expect(await form.locator(`input[name=${k}-date]`).getAttribute('placeholder')).toBe('dd/mm/aaaa')
        expect(await form.locator(`input[name=${k}-time]`).getAttribute('placeholder')).toBe('hh:mm')
      }
      const typeInto = async (name: string, text: string) => {
        await form.locator(`input[name=${name}]`).fill('')
        await form.locator(`input[name=${name}]`).click()
        await p.keyboard.type(text)
      }
      for (const [k, v] of Object.entries({
        name: 'Loto de Pascua',
        gameCode: 'PASCUA',
        drawNumber: '7',
        operator: 'Lotería Nacional de Beneficencia y Salubridad',
        authorisationRef: 'AJ-RA-2026-0007',
        drawPlace: 'Salón de sorteos, La Paz',
        paymentPlace: 'Cajas de la sala',
        regulationUrl: 'https://loteria.example.bo/reglamento/loto',
        authority: 'Gerente General',
        director: 'Director del Sorteo',
        moderator: 'Moderador',
        notary: 'Notaría N.º 12',
      }))
        await form.locator(`input[name=${k}]`).fill(v)
      // Typed the en-US way (month first, PM): no day and time of the hall; the field says what to type and the
      // form sends nothing.
      await typeInto('drawAt-date', '03/14/2026')
      await typeInto('drawAt-time', '7:00 PM')
      expect(norm(await form.getByTestId('drawAt-hint').textContent())).toBe(
        'Escriba el día como dd/mm/aaaa y la hora de 0:00 a 23:59, en hora de la sala.',
      )
      expect(await form.locator('input[name=drawAt-date]').getAttribute('aria-invalid')).toBe('true')
      await form.locator('button[type=submit]').click()
      expect(norm(await form.getByTestId('error').textContent())).toBe(
        'Escriba el día como dd/mm/aaaa y la hora de 0:00 a 23:59, en hora de la sala.',
      )
      const named = async () =>
        (await call('operador', 'GET', '/api/lotto/draws')).draws.filter((d: any) => d.plan.name === 'Loto de Pascua')
      expect(await named()).toHaveLength(0)
      // As the hall writes it: sales close at 18:30 and the draw is at 19:00 on 14 March.
      await typeInto('salesCloseAt-date', '14/03/2026')
      await typeInto('salesCloseAt-time', '18:30')
      await typeInto('drawAt-date', '14/03/2026')
      await typeInto('drawAt-time', '19:00')
      expect(await form.getByTestId('drawAt-hint').count()).toBe(0)
      await p.screenshot({ path: join(SCREENSHOTS, 'one-clock-lotto-plan-en-US-1920x1080.png') })
      await form.locator('button[type=submit]').click()
      await p.getByTestId('draws-table').getByText('Loto de Pascua').waitFor()
      const [planned] = await named()
      // 19:00 and 18:30 in La Paz (UTC-04:00), not on the browser's clock (Los Angeles: 02:00 and 01:30 UTC).
      expect(Date.parse(planned.plan.drawAt)).toBe(Date.parse('2026-03-14T23:00:00Z'))
      expect(Date.parse(planned.plan.salesCloseAt)).toBe(Date.parse('2026-03-14T22:30:00Z'))
      await context.close()
    },
  )

  it(
    'shows the inspector’s journal checkpoints on La Paz’s clock, zone named, never Tokyo’s',
    { timeout: 60_000 },
    async () => {
      const res = await fetch(`${server.url}/api/journal/checkpoints`, {
        headers: { authorization: `Bearer ${tokens.get('ines')}` },
      })
      const list = (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { at: string })
      expect(list.length).toBeGreaterThan(0)
      const p = await page()
      await p.goto(`${server.url}/inspector/`)
      await p.getByTestId('login').waitFor()
      await p.getByTestId('login-user').fill('ines')
      await p.getByTestId('login-password').fill(PASSWORD)
      await p.getByTestId('login-submit').click()
      await p.getByTestId('checkpoint').first().waitFor()
      const text = norm(await p.getByTestId('checkpoints').textContent())
      for (const cp of list) {
        expect(text).toContain(`${formatInZone(cp.at, 'America/La_Paz', 'seconds')} (La Paz, UTC-04:00)`)
        expect(text).not.toContain(formatInZone(cp.at, 'Asia/Tokyo', 'seconds'))
      }
      await p.screenshot({ path: join(SCREENSHOTS, 'one-clock-inspector-journal-es.png') })
      await p.close()
    },
  )
})
