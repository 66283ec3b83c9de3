/**
 * GEN-1 (002 §1) and GEN-18 / BNG-40 (002 §1.2.1.1, §6.1.5) in real Chromium, authentication on, real people and an
 * enrolled counter: a Bolivian hall the director creates in the back office sells nothing (the counter's sale is
 * refused with OPERATING_LICENCE_REQUIRED, then BET_LIMITS_NOT_AUTHORISED) until she records, on the hall's page,
 * the reference of its AJ Operating Licence and its bet limits with the AJ's reference. Each form says in words what
 * is on record, asks before recording with what follows, and shows a refusal in words (never a code or an id).
 * Then the same sale goes through, under the recorded limits. A cashier or a floor manager cannot record either.
 * Screenshots in test-output/screenshots/admin-sale-authorisation-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import {
  PASSWORD,
  TEST_PLAN,
  openSession,
  registerBallSets,
  registerExtractor,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

browserSuite('the hall’s operating licence and bet limits in the back office (GEN-1, GEN-18)', () => {
  let s: RulesServer
  let browser: Browser
  let page: Page
  let hallId = ''
  let gameId = ''
  let counter: Till

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await page?.close()
    await browser?.close()
    await s?.server.cleanup()
  })

  const sell = (count: number) =>
    api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count }, counter.headers)
  const cardsSold = async () => (await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold as number

  it(
    'a hall created in the back office cannot sell; the director records the licence and the limits; the sale goes through',
    { timeout: 150_000 },
    async () => {
      page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
      await page.goto(`${s.server.url}/admin/#/halls`)
      await page.fill('input[name=username]', 'jefa')
      await page.fill('input[name=password]', PASSWORD)
      await page.click('[data-testid=login] button[type=submit]')
      await page.getByTestId('new-hall').waitFor()
      await page.fill('[data-testid=new-hall] input[name=hallName]', 'Sala Achumani')
      await page.click('[data-testid=new-hall] button[type=submit]')
      await expect.poll(() => page.getByTestId('hall-detail').locator('h2').first().innerText()).toBe('Sala Achumani')
      const halls = (await s.call('jefa', 'GET', '/api/halls')).body.halls as Array<{ id: string; name: string }>
      hallId = halls.find((h) => h.name === 'Sala Achumani')!.id
      expect(hallId).toBeTruthy()

      const licence = page.getByTestId('operating-licence')
      const limits = page.getByTestId('bet-limits')
      await expect
        .poll(() => licence.getByTestId('operating-licence-state').innerText())
        .toContain('Sin licencia registrada: la sala no puede vender.')
      expect(await limits.getByTestId('bet-limits-state').innerText()).toContain(
        'Sin límites aprobados registrados: la sala no puede vender.',
      )
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-none-es.png'), fullPage: true })

      // The rest of the hall's set-up, as the director and the floor do it: plan, cards, balls, session, a game on sale.
      expect((await s.call('jefa', 'PUT', `/api/halls/${hallId}/betting-plan`, TEST_PLAN)).status).toBe(200)
      const set = await s.call('jefa', 'POST', '/api/master-sets', { count: 300, seed: 'achumani' })
      const series = await s.call('jefa', 'POST', `/api/halls/${hallId}/series`, {
        code: 'A',
        masterSetId: set.body.id,
        faceValueCents: 500,
      })
      expect(series.status, JSON.stringify(series.body)).toBe(201)
      await registerBallSets(s, hallId)
      await registerExtractor(s, hallId)
      const sessionId = await openSession(s, hallId)
      const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [series.body.id] })
      expect(g.status, JSON.stringify(g.body)).toBe(201)
      gameId = g.body.gameId
      expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
      counter = await openTill(s.server.url, s.server.services, {
        hallId,
        username: 'cajera',
        password: PASSWORD,
        stationName: 'Caja 1',
        floatCents: 10_000,
      })

      // GEN-1: no licence on record, the counter sells nothing.
      const noLicence = await sell(2)
      expect(noLicence.status, JSON.stringify(noLicence.body)).toBe(409)
      expect(noLicence.body.error.code).toBe('OPERATING_LICENCE_REQUIRED')

      // A playing-positions count that is not a whole number is said in words, and nothing is asked or sent.
      await licence.locator('input[name=licenceRef]').fill('AJ-LO-2026-0042')
      await licence.locator('input[name=licencePositions]').fill('ciento')
      await licence.locator('button[type=submit]').click()
      expect(await licence.getByTestId('licence-problem').innerText()).toBe(
        'Los puestos de juego son un número entero, de 1 en adelante.',
      )
      expect(await page.getByTestId('confirm').count()).toBe(0)
      await licence.locator('input[name=licencePositions]').fill('180')
      await licence.locator('button[type=submit]').click()
      const dialog = page.getByTestId('confirm')
      await dialog.waitFor()
      const said = await dialog.innerText()
      expect(said).toContain('¿Registrar la Licencia de Operaciones de Sala Achumani?')
      expect(said).toContain(
        'La licencia AJ-LO-2026-0042 queda registrada para esta sala: es la que le permite vender.',
      )
      expect(said).toContain('con 180 puestos de juego')
      // The limits are still missing: the confirmation says the hall will still not sell.
      expect(said).toContain('La sala seguirá sin vender hasta que registre también sus apuestas mínima y máxima')
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-licence-confirm-es.png') })
      // Cancel records nothing.
      await page.getByTestId('confirm-cancel').click()
      await dialog.waitFor({ state: 'detached' })
      expect((await s.call('jefa', 'GET', `/api/halls/${hallId}/rules`)).body.licence).toBeNull()
      // CFG-21: this licence allows the system's claims; the director says so, and the confirmation names what follows.
      expect(said).toContain('El sistema no cantará por los jugadores: cada jugador canta su línea o su bingo.')
      await licence.getByTestId('licence-auto-claims-field').selectOption('yes')
      await licence.locator('button[type=submit]').click()
      await dialog.waitFor()
      expect(await dialog.innerText()).toContain(
        'El sistema cantará por los jugadores las líneas y bingos de sus cartones en cuanto se formen.',
      )
      await page.getByTestId('confirm-ok').click()
      await dialog.waitFor({ state: 'detached' })
      await expect
        .poll(() => licence.getByTestId('operating-licence-state').innerText())
        .toMatch(
          /^Registrada Licencia AJ-LO-2026-0042, registrada el .*24.*2026.*Mínimo de participación: por cartones\./,
        )
      expect(await licence.getByTestId('licence-auto-claims').innerText()).toBe(
        'La licencia autoriza que el sistema cante por los jugadores, y la sala los tiene activados.',
      )
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-licence-recorded-es.png') })
      const rules = (await s.call('jefa', 'GET', `/api/halls/${hallId}/rules`)).body
      expect(rules.licence).toMatchObject({
        authorisationRef: 'AJ-LO-2026-0042',
        minimumBasis: 'cards',
        autoClaims: true,
      })
      expect(rules.autoClaim).toBe(true)
      expect(rules.playingPositions).toBe(180)
      const plan = rules.plans.find((p: { kind: string }) => p.kind === 'licence')
      expect(plan.createdBy.name ?? plan.createdBy.displayName ?? JSON.stringify(plan.createdBy)).toMatch(/Marta/)

      // GEN-18: the licence alone is not enough; the counter is still refused, now for the bet limits.
      const noLimits = await sell(2)
      expect(noLimits.status, JSON.stringify(noLimits.body)).toBe(409)
      expect(noLimits.body.error.code).toBe('BET_LIMITS_NOT_AUTHORISED')
      expect(await cardsSold()).toBe(0)

      // A minimum above the maximum is said in words before anything is asked.
      await limits.locator('input[name=limitsRef]').fill('AJ-RA-2026-0311')
      await limits.locator('input[name=limitsMin]').fill('12')
      await limits.locator('input[name=limitsMax]').fill('10')
      await limits.locator('input[name=limitsPlayer]').fill('30')
      await limits.locator('button[type=submit]').click()
      expect(await limits.getByTestId('limits-problem').innerText()).toBe(
        'El mínimo por compra no puede superar al máximo por compra.',
      )
      expect(await dialog.count()).toBe(0)
      // The server's refusal (a reference too short for the AJ's) is shown in the dialog in words, no code.
      await limits.locator('input[name=limitsRef]').fill('AJ')
      await limits.locator('input[name=limitsMin]').fill('2')
      await limits.locator('button[type=submit]').click()
      await dialog.waitFor()
      await page.getByTestId('confirm-ok').click()
      await expect.poll(() => dialog.getByTestId('error').innerText()).toBe('Los datos enviados no son válidos.')
      expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
      await page.getByTestId('confirm-cancel').click()
      await dialog.waitFor({ state: 'detached' })

      await limits.locator('input[name=limitsRef]').fill('AJ-RA-2026-0311')
      await limits.locator('button[type=submit]').click()
      await dialog.waitFor()
      const saidLimits = await dialog.innerText()
      expect(saidLimits).toContain('¿Registrar las apuestas mínima y máxima de Sala Achumani?')
      expect(saidLimits).toContain(
        'Se aplican desde la próxima compra, en todos los canales, con la resolución AJ-RA-2026-0311.',
      )
      expect(saidLimits).toContain('Cada compra será de 2 a 10 cartones y un jugador no tendrá más de 30 cartones')
      expect(saidLimits).not.toContain('seguirá sin vender')
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-limits-confirm-es.png') })
      await page.getByTestId('confirm-ok').click()
      await dialog.waitFor({ state: 'detached' })
      await expect
        .poll(() => limits.getByTestId('bet-limits-state').innerText())
        .toMatch(
          /^Aprobadas Resolución AJ-RA-2026-0311, registrada el .*: de 2 a 10 cartones por compra, 30 como máximo por jugador y partida\./,
        )
      expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-done-es.png'), fullPage: true })

      // Now the same counter sells, and under the limits just recorded: 1 card is below the minimum of 2.
      const below = await sell(1)
      expect(below.status, JSON.stringify(below.body)).toBe(422)
      expect(below.body.error.code).toBe('BET_OUT_OF_LIMITS')
      const sold = await sell(2)
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      expect(sold.body.cards).toHaveLength(2)
      expect(await cardsSold()).toBe(2)
    },
  )

  it('a cashier or a floor manager cannot record the licence or the limits', async () => {
    for (const who of ['cajera', 'mesa1', 'locutor'] as const) {
      const l = await s.call(who, 'PUT', `/api/halls/${hallId}/licence`, {
        authorisationRef: 'AJ-LO-FALSA',
        minimumBasis: 'positions',
        playingPositions: 5,
      })
      expect(l.status, who).toBe(403)
      const r = await s.call(who, 'PUT', `/api/halls/${hallId}/sale-rules`, {
        authorisationRef: 'AJ-RA-FALSA',
        minCardsPerPurchase: 1,
        maxCardsPerPurchase: 100,
        maxCardsPerPlayer: 100,
      })
      expect(r.status, who).toBe(403)
    }
    const rules = (await s.call('jefa', 'GET', `/api/halls/${hallId}/rules`)).body
    expect(rules.licence.authorisationRef).toBe('AJ-LO-2026-0042')
    expect(rules.bets).toMatchObject({ authorisationRef: 'AJ-RA-2026-0311', maxCardsPerPurchase: 10 })
  })

  it('in English the page says what is on record', async () => {
    await page.click('[data-testid=lang-en]')
    await expect
      .poll(() => page.getByTestId('operating-licence-state').innerText())
      .toMatch(/^On record Licence AJ-LO-2026-0042, recorded on /)
    expect(await page.getByTestId('bet-limits-state').innerText()).toMatch(
      /Resolution AJ-RA-2026-0311, recorded on .*: 2 to 10 cards per purchase, at most 30 per player and game\./,
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-sale-authorisation-done-en.png'), fullPage: true })
  })
})
