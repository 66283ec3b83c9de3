import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 26 in the back office, real Chromium at 1366 x 768, authentication on, a real director: the rules built as
 * API only, now recorded through the forms. PRM-9: a successive promotional plan (its draws' dates, each prize tied
 * to its draw, the bases' word on winners) planned from the raffle form, its draws and their state shown, and the
 * second draw refused before the first. LOT-22 / LNS-23 / PRM-11: a goods prize's class, backing and source in the
 * lottery and lotto forms; real estate refused on screen in Spanish. Screenshots: admin-prize-plans-*.png.
 */
const PASSWORD = 'contraseña segura 1'
const START = Date.parse('2026-03-10T14:00:00Z')
const startedAt = Date.now()
let skew = 0
const clock = { now: () => new Date(START + (Date.now() - startedAt) + skew) }
const HOUR = 3_600_000

browserSuite(
  'issue 26: successive raffle plans and goods prizes from the back office forms (auth on, Chromium)',
  () => {
    let server: Awaited<ReturnType<typeof startTestServer>>
    let browser: Browser
    let token = ''
    const ids: string[] = []

    const call = (method: string, path: string, body?: unknown) =>
      api(server.url, method, path, body, { authorization: `Bearer ${token}`, 'accept-language': 'es' })

    beforeAll(async () => {
      ensureBuilt(['admin'], ['admin', 'web'])
      mkdirSync(SCREENSHOTS, { recursive: true })
      server = await startTestServer({ auth: 'on' }, { clock })
      const u = await server.services.auth.createUser({
        username: 'jefa',
        displayName: 'Marta Quispe',
        role: 'director',
        password: PASSWORD,
      })
      ids.push(u.id)
      token = (await server.services.auth.login('jefa', PASSWORD)).token
      const hall = await call('POST', '/api/halls', {
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        playingPositions: 200,
      })
      expect(hall.status, JSON.stringify(hall.body)).toBe(201)
      ids.push(hall.body.id)
      browser = await launchChromium()
    }, 120_000)
    afterAll(async () => {
      await browser?.close()
      await server?.cleanup()
    })

    async function open(tab: 'lotto' | 'lottery' | 'raffle'): Promise<Page> {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await page.goto(`${server.url}/admin/?lang=es#/draws`)
      await page.fill('input[name=username]', 'jefa')
      await page.fill('input[name=password]', PASSWORD)
      await page.click('[data-testid=login] button[type=submit]')
      await page.getByTestId('nav').waitFor()
      await page.click(`[data-testid=tab-${tab}]`)
      return page
    }
    /** A "YYYY-MM-DDTHH:MM" `hours` from the page's now, on the hall's clock (La Paz, UTC-04:00, no DST). */
    const local = (hours: number) =>
      new Date(clock.now().getTime() + hours * HOUR - 4 * HOUR).toISOString().slice(0, 16)
    /** Types values into inputs named `${prefix}-${key}`; a date is typed day first into its two fields. */
    async function fill(form: Locator, prefix: string, values: Record<string, string>) {
      for (const [k, v] of Object.entries(values)) {
        const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})$/.exec(v)
        if (!m) {
          await form.locator(`input[name=${prefix}-${k}]`).fill(v)
          continue
        }
        await form.locator(`input[name=${prefix}-${k}-date]`).fill(`${m[3]}/${m[2]}/${m[1]}`)
        await form.locator(`input[name=${prefix}-${k}-time]`).fill(m[4]!)
      }
    }
    async function errorOf(form: Locator): Promise<string> {
      await form.getByTestId('error').waitFor()
      return ((await form.getByTestId('error').textContent()) ?? '').replace(/\s+/g, ' ').trim()
    }
    /** No error code, permission name or internal id on the screen. */
    async function noLeaks(page: Page) {
      const text = await page.evaluate(() => document.body.innerText)
      expect(screenLeaks(text)).toEqual([])
      expect(text).not.toMatch(/VALIDATION_FAILED|DRAW_OUT_OF_ORDER|prizes\[|categories\[|draws\[/)
      for (const id of ids) expect(text, `internal id ${id} on screen`).not.toContain(id)
    }
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `admin-prize-plans-${name}.png`), fullPage: true })

    it('PRM-9: plans a successive promotional draw from the raffle form (dates, prize per draw, winners out), shows its draws and their state; draws out of order are refused in Spanish, and the second draw is not closed while the first is open', async () => {
      const page = await open('raffle')
      await page.click('[data-testid=new-raffle-plan]')
      const form = page.getByTestId('raffle-plan-form')
      await form.getByTestId('raffle-mode').selectOption('successive')
      // A promotional draw is free: no price to type, no raffle class.
      expect(await form.locator('input[name=raffle-price]').count()).toBe(0)
      expect(await form.getByTestId('raffle-classification').count()).toBe(0)
      await fill(form, 'raffle', {
        communicationRef: 'COM-AJ-2026-0091',
        organiser: 'Supermercados Illimani S.A.',
        name: 'Promoción Compra y Gana',
        gameCode: 'PROMOCYG',
        drawNumber: '10',
        from: '1',
        to: '500',
        currency: 'BOB',
        salesStartAt: local(-1),
        salesCloseAt: local(48),
        drawAt: local(50),
        claimDeadline: local(24 * 80),
        drawPlace: 'Sucursal central, La Paz',
        paymentPlace: 'Sucursal central, La Paz',
        authority: 'Gerente de marketing',
        director: 'Director del Sorteo',
        moderator: 'Moderador',
        notary: 'Notaría N.º 5',
        prizeName: 'Primer premio',
        prizeDescription: 'Televisor 55 pulgadas',
        prizeValue: '4000',
        prizeDepositedAt: local(-2),
        prizeDepositPlace: 'Vitrina de la sucursal central',
        prizeInvoiceRef: 'FAC-2026-201',
      })
      await form.getByTestId('raffle-prize-source').selectOption('operator')
      await form.getByTestId('raffle-winners-stay-in').selectOption('no')
      // The second draw dated BEFORE the first: refused by the server, said in Spanish.
      await fill(form, 'raffle', { 'draw-2': local(49) })
      await form.getByTestId('raffle-add-prize').click()
      await fill(form, 'raffle', {
        'prize-2-name': 'Segundo premio',
        'prize-2-description': 'Bicicleta de montaña',
        'prize-2-value': '2500',
        'prize-2-depositedAt': local(-2),
        'prize-2-depositPlace': 'Vitrina de la sucursal central',
        'prize-2-invoiceRef': 'FAC-2026-202',
      })
      await form.getByTestId('raffle-prize-2-source').selectOption('sponsor')
      expect(await form.getByTestId('raffle-prize-2-draw').inputValue()).toBe('1')
      await form.getByTestId('raffle-plan-submit').click()
      const refused = await errorOf(form)
      expect(refused).toContain('Los sorteos van en orden de fecha, uno después de otro')
      await noLeaks(page)
      await shot(page, 'successive-refused')
      expect((await call('GET', '/api/lottery/draws?product=raffle')).body.draws).toEqual([])

      await fill(form, 'raffle', { 'draw-2': local(50 + 24 * 7) })
      await form.getByTestId('raffle-plan-submit').click()
      await page.getByTestId('plan-draws').waitFor()
      const listed = (await call('GET', '/api/lottery/draws?product=raffle')).body.draws as any[]
      expect(listed).toHaveLength(2)
      for (const d of listed) ids.push(d.drawId)
      const byIndex = [...listed].sort((a, b) => a.plan.round.index - b.plan.round.index)
      expect(byIndex.map((d) => [d.plan.round.index, d.plan.prizes.map((p: any) => [p.code, p.source])])).toEqual([
        [1, [['R1', 'operator']]],
        [2, [['R2', 'sponsor']]],
      ])
      expect(byIndex[0].plan).toMatchObject({ kind: 'promotional', successive: true, winnersStayIn: false })
      expect(Date.parse(byIndex[1].plan.drawAt) - Date.parse(byIndex[0].plan.drawAt)).toBe(7 * 24 * HOUR)
      // The plan's draws, in order, with their dates, prizes and state.
      const rows = await page.getByTestId('plan-draws').locator('tbody tr').allInnerTexts()
      expect(rows).toHaveLength(2)
      expect(rows[0]).toMatch(/^Sorteo 1 de 2.*Primer premio/s)
      expect(rows[1]).toMatch(/^Sorteo 2 de 2.*Segundo premio/s)
      await noLeaks(page)
      await shot(page, 'successive-planned')

      // PRM-9 through the API: past the close of sales, the second draw is not closed while the first is open.
      skew = 49 * HOUR
      token = (await server.services.auth.login('jefa', PASSWORD)).token
      const early = await call('POST', `/api/lottery/draws/${byIndex[1].drawId}/close`, {})
      expect(early.status).toBe(409)
      expect(early.body.error.code).toBe('DRAW_OUT_OF_ORDER')
      expect(early.body.error.message).not.toMatch(/PRM-|draw \d of/)
      skew = 0
      await page.close()
    })

    it('LOT-22 / PRM-11: a lottery prize in goods: real estate refused on screen in Spanish; a movable good with its invoice from a sponsor is planned', async () => {
      const page = await open('lottery')
      await page.click('[data-testid=new-lottery-plan]')
      const form = page.getByTestId('lottery-plan-form')
      await fill(form, 'plan', {
        institution: 'Lotería Nacional de Beneficencia y Salubridad',
        name: 'Sorteo de la Moto',
        gameCode: 'LNBMOTO',
        drawNumber: '2470',
        issue: 'Emisión 2026-02',
        from: '00',
        to: '99',
        series: '1',
        fractions: '1',
        price: '50',
        currency: 'BOB',
        budget: '100000',
        salesStartAt: local(-1),
        salesCloseAt: local(48),
        drawAt: local(50),
        claimDeadline: local(24 * 70),
        drawPlace: 'Salón de sorteos, La Paz',
        paymentPlace: 'Oficinas de la Lotería, La Paz',
        regulationUrl: 'https://loteria.example.bo/reglamento/2470',
        authorisationRef: 'AJ-RA-2026-2470',
        securityMarks: 'Holograma y tinta UV',
        authority: 'Gerente General',
        director: 'Director del Sorteo',
        moderator: 'Moderador',
        notary: 'Notaría N.º 12',
      })
      await form.locator('input[name=prize-name-0]').fill('Primer Premio')
      await form.locator('input[name=prize-amount-0]').fill('1000')
      await form.getByRole('button', { name: 'Añadir un premio' }).click()
      await form.locator('input[name=prize-name-1]').fill('Premio en bienes')
      await form.locator('input[name=prize-amount-1]').fill('1500')
      await form.getByTestId('prize-kind-1').selectOption('goods')
      await form.getByTestId('prize-1-goods').waitFor()
      await fill(form, 'prize-1', { description: 'Departamento en Sopocachi', invoiceRef: 'Factura 2026-31' })
      await form.getByTestId('prize-1-class').selectOption('real-estate')
      await form.getByTestId('prize-1-source').selectOption('sponsor')
      await form.getByTestId('plan-submit').click()
      expect(await errorOf(form)).toContain('No se pueden ofrecer bienes inmuebles como premio.')
      await noLeaks(page)
      await shot(page, 'lottery-real-estate-refused')
      expect((await call('GET', '/api/lottery/draws?product=lottery')).body.draws).toEqual([])

      await fill(form, 'prize-1', { description: 'Motocicleta 125 cc 0 km' })
      await form.getByTestId('prize-1-class').selectOption('movable')
      await form.getByTestId('plan-submit').click()
      await page.getByTestId('draws-table').getByText('Sorteo de la Moto').waitFor()
      const planned = (await call('GET', '/api/lottery/draws?product=lottery')).body.draws[0]
      ids.push(planned.drawId)
      expect(planned.plan.prizes[1]).toMatchObject({
        kind: 'goods',
        source: 'sponsor',
        goods: { description: 'Motocicleta 125 cc 0 km', class: 'movable', invoiceRef: 'Factura 2026-31' },
      })
      await noLeaks(page)
      await page.close()
    })

    it('LNS-23 / PRM-11: a lotto category in goods: a registrable good backed by commitment and certificate, provided by the operator, is planned; without its source the form says so', async () => {
      const page = await open('lotto')
      await page.click('[data-testid=new-lotto-draw]')
      const form = page.getByTestId('new-lotto-plan')
      for (const [k, v] of Object.entries({
        operator: 'Lotería Nacional de Beneficencia y Salubridad',
        authorisationRef: 'AJ-RA-2026-0539',
        drawPlace: 'Salón de sorteos, La Paz',
        paymentPlace: 'Oficinas de la Lotería, La Paz',
        regulationUrl: 'https://loteria.example.bo/loto',
        authority: 'Gerente General',
        director: 'Director del Sorteo',
        moderator: 'Moderador',
        notary: 'Notaría N.º 12',
      }))
        await form.locator(`input[name=${k}]`).fill(v)
      await form.getByTestId('lotto-goods-toggle').check()
      await fill(form, 'lotto-goods', {
        matches: '2',
        unitValue: '12000',
        description: 'Motocicleta 125 cc 0 km',
      })
      await form.getByTestId('lotto-goods-class').selectOption('registrable')
      await fill(form, 'lotto-goods', {
        commitmentRef: 'Compromiso de propiedad 2026-4',
        supplierCertificateRef: 'Certificado del proveedor 8841',
      })
      await form.locator('button[type=submit]').click()
      expect(await errorOf(form)).toBe('Revise: Quién pone el premio.')
      await shot(page, 'lotto-goods-no-source')
      await form.getByTestId('lotto-goods-source').selectOption('operator')
      await form.locator('button[type=submit]').click()
      await page.getByTestId('draws-table').getByText('Loto 5/39').waitFor()
      const planned = (await call('GET', '/api/lotto/draws')).body.draws[0]
      ids.push(planned.drawId)
      expect(planned.plan.categories[3]).toMatchObject({
        matches: 2,
        prize: {
          type: 'goods',
          class: 'registrable',
          source: 'operator',
          commitmentRef: 'Compromiso de propiedad 2026-4',
          supplierCertificateRef: 'Certificado del proveedor 8841',
          unitValueCents: 1_200_000,
        },
      })
      await noLeaks(page)
      await page.close()
    })

    it('CFG-4 / GEN-23: an exclusion names its international list where the profile has lists (UIF), and is recorded; where it has none the field is absent and the API refuses one', async () => {
      const page = await pageOnClock(browser, clock, { width: 1366, height: 768 })
      await page.goto(`${server.url}/admin/?lang=es#/exclusions`)
      await page.fill('input[name=username]', 'jefa')
      await page.fill('input[name=password]', PASSWORD)
      await page.click('[data-testid=login] button[type=submit]')
      const form = page.getByTestId('exclusion-form')
      await form.locator('input[name=ex-listSource]').waitFor()
      expect(await form.textContent()).toContain('Lista internacional de origen (UIF)')
      await form.locator('input[name=ex-document]').fill('4455667 LP')
      await form.locator('input[name=ex-name]').fill('Juan Pérez Mamani')
      await form.locator('input[name=ex-reason]').fill('Figura en la lista del Consejo de Seguridad')
      await form.locator('input[name=ex-listSource]').fill('UIF, lista ONU 1267, corte 2026-03-01')
      // A person on a list is prohibited, never self-excluded: said before anything is sent.
      await form.getByTestId('ex-kind').selectOption('self_excluded')
      await form.getByTestId('ex-submit').click()
      expect(await errorOf(form)).toBe(
        'Solo si la persona figura en una lista internacional; entonces el tipo es prohibición.',
      )
      await form.getByTestId('ex-kind').selectOption('prohibited')
      await form.getByTestId('ex-submit').click()
      await page.getByTestId('exclusions-table').getByText('UIF, lista ONU 1267, corte 2026-03-01').waitFor()
      const listed = (await call('GET', '/api/players/exclusions')).body
      expect(listed.internationalLists).toEqual({ authority: 'UIF' })
      expect(listed.exclusions).toEqual([
        expect.objectContaining({
          name: 'Juan Pérez Mamani',
          kind: 'prohibited',
          listSource: 'UIF, lista ONU 1267, corte 2026-03-01',
        }),
      ])
      ids.push(listed.exclusions[0].id)
      await noLeaks(page)
      await shot(page, 'exclusion-list-source')
      await page.close()

      // A profile that names no international lists (Cantabria): the field is absent, and the API refuses a list.
      const spain = await startTestServer({ auth: 'on', profileId: 'ES-CB-2010' }, { clock })
      try {
        await spain.services.auth.createUser({
          username: 'jefa',
          displayName: 'Marta Quispe',
          role: 'director',
          password: PASSWORD,
        })
        const es = await pageOnClock(browser, clock, { width: 1366, height: 768 })
        await es.goto(`${spain.url}/admin/?lang=es#/exclusions`)
        await es.fill('input[name=username]', 'jefa')
        await es.fill('input[name=password]', PASSWORD)
        await es.click('[data-testid=login] button[type=submit]')
        const esForm = es.getByTestId('exclusion-form')
        await esForm.locator('input[name=ex-reason]').waitFor()
        expect(await esForm.locator('input[name=ex-listSource]').count()).toBe(0)
        expect(await esForm.textContent()).not.toContain('Lista internacional')
        await shot(es, 'exclusion-no-lists')
        await es.close()
        const auth = `Bearer ${(await spain.services.auth.login('jefa', PASSWORD)).token}`
        const r = await api(
          spain.url,
          'POST',
          '/api/players/exclusions',
          { document: '12345678Z', name: 'Ana López', kind: 'prohibited', reason: 'Lista', listSource: 'ONU 1267' },
          { authorization: auth, 'accept-language': 'es' },
        )
        expect(r.status).toBeGreaterThanOrEqual(400)
        expect(r.body.error.details).toMatchObject({ field: 'listSource', rule: 'CFG-4' })
      } finally {
        await spain.cleanup()
      }
    })
  },
)
