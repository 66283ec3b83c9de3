import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, pageOnClock, SCREENSHOTS } from '../helpers/browser.ts'
import { lotteryPlan } from '../helpers/lottery-plans.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { solidPng } from '../helpers/png.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions } from '../helpers/lottery-print.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * The numbered-lottery back office (issue 29 point 8) in real Chromium at 1920 x 1080, against a real server with
 * authentication on and real people (a lottery operator, a director): the print shop's PDF of a range, returns
 * that name their seller and confirm their consequence, the issue and prize registers, the forms that plan a
 * lottery and a raffle, distribute a range and report a lost one, and a confirm before every irreversible step.
 * Screenshots in test-output/screenshots/admin-lottery-*.png.
 */
const PASSWORD = 'contraseña segura 1'
const START = Date.parse('2026-03-10T14:00:00Z')
const startedAt = Date.now()
/** Moved past the close of sales in the last test. */
let skew = 0
const clock = { now: () => new Date(START + (Date.now() - startedAt) + skew) }
const iso = (ms: number) => new Date(clock.now().getTime() + ms).toISOString()
const HOUR = 3_600_000
const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

browserSuite('the numbered-lottery back office, in Chromium with authentication on (issue 29 point 8)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  const tokens = new Map<string, string>()
  const ids: string[] = []
  let drawId = ''
  const sellers = { caja1: { id: '', name: 'Caja 1' }, kiosco: { id: '', name: 'Kiosco de la entrada' } }

  async function call(user: string, method: string, path: string, body?: unknown) {
    const r = await api(server.url, method, path, body, {
      authorization: `Bearer ${tokens.get(user)}`,
      'accept-language': 'es',
    })
    if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['operador', 'Jorge Condori', 'lottery_operator'],
    ] as const) {
      const u = await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      ids.push(u.id)
      tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)
    }
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 200,
    })
    ids.push(hall.id)
    for (const [key, kind] of [
      ['caja1', 'cashier_station'],
      ['kiosco', 'kiosk'],
    ] as const) {
      const d = await server.services.auth.enrolDevice({ ...sealed(), kind, name: sellers[key].name, hallId: hall.id })
      sellers[key].id = d.id
      ids.push(d.id)
    }
    const lottery = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        numbering: { from: 0, to: 9_999, digits: 4 },
        series: 1,
        fractions: 10,
        licensedMaxTickets: 10_000,
        salesStartAt: iso(-24 * HOUR),
        salesCloseAt: iso(24 * HOUR),
        drawAt: iso(25 * HOUR),
        claimDeadline: iso(90 * 24 * HOUR),
      }),
    )
    drawId = lottery.drawId
    ids.push(drawId)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  async function open(user: string, lang: 'es' | 'en' = 'es'): Promise<Page> {
    const page = await pageOnClock(browser, clock, { width: 1920, height: 1080 })
    await page.goto(`${server.url}/admin/?lang=${lang}#/draws`)
    await page.fill('input[name=username]', user)
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('nav').waitFor()
    await page.click('[data-testid=tab-lottery]')
    await page.getByTestId('draw-detail').waitFor()
    return page
  }
  /**
   * Types a plan form's values; a date ("YYYY-MM-DDTHH:MM") is typed as the hall writes it, the day first
   * (dd/mm/aaaa) and the time on 24 h, into its two fields (issue 29 point 4).
   */
  async function fillPlan(form: Locator, prefix: string, values: Record<string, string>) {
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
  /** No English error code, permission name, role code or internal id on the screen. */
  async function noLeaks(page: Page) {
    const text = await page.evaluate(() => document.body.innerText)
    expect(screenLeaks(text)).toEqual([])
    for (const id of ids.filter(Boolean)) expect(text, `internal id ${id} on screen`).not.toContain(id)
  }
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `admin-lottery-${name}.png`), fullPage: true })
  const textOf = async (page: Page, testId: string) =>
    ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()

  it('"Billetes en PDF" prints the range typed for the secure printer, entered in the register, and opens its proof without codes (LOT-12, LOT-15, LOT-26)', async () => {
    const page = await open('operador')
    const panel = page.getByTestId('print-run')
    await panel.locator('input[name=print-from]').fill('0')
    await panel.locator('input[name=print-to]').fill('4')
    expect(await textOf(page, 'print-covers')).toBe('El rango tiene 5 billetes, 50 fracciones.')
    // The PDF as the browser received it (the route passes the server's answer through untouched).
    let pdf: { status: number; type: string; body: Buffer; sha256: string } | null = null
    await page.route('**/print-runs', async (route) => {
      const r = await route.fetch({ timeout: 120_000 })
      pdf = {
        status: r.status(),
        type: r.headers()['content-type'] ?? '',
        body: await r.body(),
        sha256: r.headers()['x-print-file-sha256'] ?? '',
      }
      await route.fulfill({ response: r, body: pdf.body })
    })
    const popup = page.waitForEvent('popup', { timeout: 120_000 })
    await panel.getByTestId('print-pdf').click()
    await popup
    expect(pdf).toMatchObject({ status: 200, type: expect.stringContaining('application/pdf') })
    const file = join(server.dataDir, 'billetes.pdf')
    writeFileSync(file, pdf!.body)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    // The numbers printed are read from the control lines: a bare "0005" could also turn up inside a fraction's
    // random security code (16 hex digits), which once made this check fail by chance.
    const printed = new Set([...text.matchAll(/Control (\d{4})-\d{2}-\d{2} T1\b/g)].map((m) => m[1]))
    expect([...printed].sort()).toEqual(['0000', '0001', '0002', '0003', '0004'])
    expect(text).not.toMatch(/^\s*0005\s*$/m)
    expect(text).toContain('Sorteo Extraordinario de Carnaval')
    // Issue 29 point 6: the NO RASPAR zone names the fraction and its run, never the draw's record id; LOT-26: the
    // proof carries neither the run's tag nor any code of the secure printer's file (whose digest the answer named).
    expect(text).not.toContain(drawId)
    expect(text).not.toMatch(/\bltr_/)
    expect(text).toMatch(/Control 0000-01-01 T1\s/)
    expect(text).not.toMatch(/\b[0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4}\b/)
    expect(text).not.toContain('BLL1')
    const fractions = printedFractions(server, {
      runNo: 1,
      printFile: { folder: `lottery-${drawId}-T1`, name: `fractions-${drawId}-T1.csv`, sha256: pdf!.sha256 },
    })
    expect(fractions).toHaveLength(50)
    for (const f of fractions) for (const part of [f.code, f.code.split('.')[3]]) expect(text).not.toContain(part)
    execFileSync('pdftoppm', [
      '-r',
      '70',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      '-png',
      file,
      join(SCREENSHOTS, 'admin-lottery-ticket-sheet'),
    ])
    expect(await textOf(page, 'ok')).toBe(
      'Tiraje enviado a la imprenta segura; prueba en PDF (sin códigos) abierta: 50 fracciones.',
    )
    // The server entered the run in the issue register.
    const register = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)
    expect(register.issue.printed).toBe(50)
    expect(register.printRuns.map((r: any) => [r.runNo, r.from, r.to, r.fractions])).toEqual([[1, 0, 4, 50]])
    // The same range again: the screen asks for the reason of a reprint, and the confirm states what it voids.
    await panel.getByTestId('print-pdf').click()
    await page.getByText('Ya hay 50 fracciones impresas en ese rango. Para reimprimirlas escriba el motivo.').waitFor()
    await panel.locator('input[name=print-reason]').fill('Billetes dañados en imprenta')
    await panel.getByTestId('print-pdf').click()
    await page.getByTestId('confirm-dialog').waitFor()
    expect(await textOf(page, 'confirm-dialog')).toContain('dejan de valer')
    await shot(page, 'reprint-confirm')
    await page.getByTestId('confirm-cancel').click()
    expect((await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)).printRuns).toHaveLength(1)
    await noLeaks(page)
    await shot(page, 'print')
    await page.close()
    // The rest of the first ten numbers, as the print shop's JSON run.
    await call('operador', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 5, to: 9 })
  })

  it('"Registrar devolución" names the seller, pre-fills no range, counts the fractions and confirms the consequence (LOT-12)', async () => {
    for (const [key, from, to] of [
      ['kiosco', 0, 4],
      ['caja1', 5, 9],
    ] as const)
      await call('operador', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
        from,
        to,
        sellerId: sellers[key].id,
      })
    const page = await open('operador')
    const panel = page.getByTestId('returns')
    // Nothing chosen, nothing typed: the button cannot return anything.
    expect(await panel.locator('input[name=return-from]').inputValue()).toBe('')
    expect(await panel.locator('input[name=return-to]').inputValue()).toBe('')
    expect(await panel.getByTestId('record-return').isDisabled()).toBe(true)
    await panel.getByTestId('return-seller').selectOption({ label: 'Caja 1' })
    expect(await textOf(page, 'seller-holds')).toBe('Caja 1 tiene ahora: 0005–0009 (50 fracciones).')
    // The old default range 0-9 reaches the kiosk's fractions too: said, and refused before the server is asked.
    await panel.locator('input[name=return-from]').fill('0')
    await panel.locator('input[name=return-to]').fill('9')
    expect(await textOf(page, 'return-covers')).toBe(
      'La devolución cubre 100 fracciones, pero Caja 1 tiene como mucho 50 de ellas: ajuste el rango.',
    )
    expect(await panel.getByTestId('record-return').isDisabled()).toBe(true)
    await shot(page, 'return-short')
    await panel.locator('input[name=return-from]').fill('5')
    await panel.locator('input[name=return-to]').fill('5')
    expect(await textOf(page, 'return-covers')).toBe('La devolución cubre 10 fracciones, todas en manos de Caja 1.')
    await panel.getByTestId('record-return').click()
    await page.getByTestId('confirm-dialog').waitFor()
    const said = await textOf(page, 'confirm-dialog')
    expect(said).toContain('Caja 1 devuelve 10 fracciones: números 0005.')
    expect(said).toContain('no se venden ni se pagan aunque salgan premiadas')
    expect(said).toContain('No se puede deshacer.')
    await shot(page, 'return-confirm')
    // Cancel stores nothing.
    await page.getByTestId('confirm-cancel').click()
    const before = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)
    expect(before.sellers.find((x: any) => x.sellerName === 'Caja 1').returned).toBe(0)
    await panel.getByTestId('record-return').click()
    await page.getByTestId('confirm-ok').click()
    await panel.getByTestId('ok').waitFor()
    expect(await textOf(page, 'ok')).toBe('Devolución registrada: 10 fracciones de Caja 1.')
    const after = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)
    const caja = after.sellers.find((x: any) => x.sellerName === 'Caja 1')
    const kiosk = after.sellers.find((x: any) => x.sellerName === 'Kiosco de la entrada')
    expect(caja).toMatchObject({ distributed: 50, returned: 10, sold: 40 })
    expect(kiosk).toMatchObject({ distributed: 50, returned: 0 })
    // The form is empty again and the seller's holding is updated.
    expect(await panel.locator('input[name=return-from]').inputValue()).toBe('')
    // The holding is read again from the register after the answer: wait for it rather than race it.
    await expect
      .poll(() => textOf(page, 'seller-holds'), { timeout: 15_000 })
      .toBe('Caja 1 tiene ahora: 0006–0009 (40 fracciones).')
    await noLeaks(page)
    await shot(page, 'return-done')
    await page.close()
  })

  it('in English: the return form and its confirm speak English, and the refusal of the server too', async () => {
    const page = await open('operador', 'en')
    const panel = page.getByTestId('returns')
    await panel.getByTestId('return-seller').selectOption({ label: 'Kiosco de la entrada' })
    expect(await textOf(page, 'seller-holds')).toBe('Kiosco de la entrada now holds: 0000–0004 (50 fractions).')
    await panel.locator('input[name=return-from]').fill('4')
    await panel.locator('input[name=return-to]').fill('4')
    await panel.locator('input[name=return-fraction-from]').fill('3')
    await panel.locator('input[name=return-fraction-to]').fill('3')
    expect(await textOf(page, 'return-covers')).toBe(
      'The return covers 1 fractions, all in the hands of Kiosco de la entrada.',
    )
    await panel.getByTestId('record-return').click()
    expect(await textOf(page, 'confirm-dialog')).toContain('This cannot be undone.')
    await page.getByTestId('confirm-ok').click()
    await panel.getByTestId('ok').waitFor()
    expect(await textOf(page, 'ok')).toBe('Return recorded: 1 fractions from Kiosco de la entrada.')
    // The same fraction again: the server refuses it in English, naming the seller and the counts.
    await panel.getByTestId('return-seller').selectOption({ label: 'Kiosco de la entrada' })
    await panel.locator('input[name=return-from]').fill('4')
    await panel.locator('input[name=return-to]').fill('4')
    await panel.locator('input[name=return-fraction-from]').fill('3')
    await panel.locator('input[name=return-fraction-to]').fill('3')
    await panel.getByTestId('record-return').click()
    await page.getByTestId('confirm-ok').click()
    await panel.getByTestId('error').waitFor()
    expect(await textOf(page, 'error')).toMatch(
      /^Kiosco de la entrada does not hold all of that range: of 1 fractions it holds 0 not yet returned\./,
    )
    await noLeaks(page)
    await shot(page, 'return-en')
    await page.close()
  })

  it("the register replaces the developer's placeholder: print runs, each seller's fractions and debt, the prizes paid (LOT-25)", async () => {
    const page = await open('jefa')
    const register = page.getByTestId('register')
    await register.waitFor({ timeout: 5000 }).catch(async (e) => {
      await shot(page, 'register-missing')
      throw e
    })
    const body = await page.evaluate(() => document.body.innerText)
    expect(body).not.toContain('cuando el servidor lo ofrezca')
    expect(await textOf(page, 'register-issue')).toContain('Fracciones impresas100')
    const rows = await register
      .getByTestId('register-sellers')
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())),
      )
    expect(rows).toEqual([
      ['Caja 1', '50', '10', '40', 'Bs 400,00', '0006–0009 (40 fracciones)'],
      ['Kiosco de la entrada', '50', '1', '49', 'Bs 490,00', '0000–0003 (40 fracciones), 0004 (9 fracciones)'],
      ['Total', '100', '11', '89', 'Bs 890,00', ''],
    ])
    const runs = await register
      .getByTestId('register-runs')
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())),
      )
    expect(runs.map((r) => r.slice(0, 7))).toEqual([
      ['1', '0000–0004', '1', '50', '0', '—', 'Jorge Condori'],
      ['2', '0005–0009', '1', '50', '0', '—', 'Jorge Condori'],
    ])
    expect(await textOf(page, 'prize-register')).toBe('Aún no se pagó ningún premio de este sorteo.')
    // The printable prize book of this draw opens as a PDF.
    let status = 0
    let type = ''
    await page.route('**/prize-register.pdf*', async (route) => {
      const r = await route.fetch()
      status = r.status()
      type = r.headers()['content-type'] ?? ''
      await route.fulfill({ response: r })
    })
    const popup = page.waitForEvent('popup')
    await register.getByTestId('prize-register-pdf').click()
    await popup
    expect([status, type]).toEqual([200, 'application/pdf'])
    await noLeaks(page)
    await shot(page, 'register')
    await page.close()
  })

  it('distributes a printed range to a seller chosen by name, and says why an unprinted one is refused (LOT-12)', async () => {
    const page = await open('operador')
    const panel = page.getByTestId('distribute')
    await panel.getByTestId('distribute-seller').selectOption({ label: 'Caja 1 · Sala Illimani' })
    await panel.locator('input[name=distribute-from]').fill('10')
    await panel.locator('input[name=distribute-to]').fill('14')
    await panel.getByTestId('distribute-submit').click()
    await panel.getByTestId('error').waitFor()
    expect(await textOf(page, 'error')).toBe(
      'Solo se entregan fracciones impresas y no entregadas: en ese rango hay 50 sin imprimir y 0 ya entregadas o devueltas. Ajuste el rango.',
    )
    await call('operador', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 10, to: 14 })
    await panel.getByTestId('distribute-submit').click()
    await panel.getByTestId('ok').waitFor()
    expect(await textOf(page, 'ok')).toBe('Entregadas 50 fracciones a Caja 1.')
    const register = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)
    expect(register.sellers.find((x: any) => x.sellerName === 'Caja 1')).toMatchObject({ distributed: 100 })
    await noLeaks(page)
    await shot(page, 'distribute')
    await page.close()
  })

  it('reports a stolen range: asks for the police complaint, confirms that it is never paid, and lists it publicly (LST-3, LST-5)', async () => {
    const page = await open('operador')
    const panel = page.getByTestId('lost-stolen')
    await panel.getByTestId('lost-kind').selectOption('stolen')
    await panel.locator('input[name=lost-from]').fill('20')
    await panel.locator('input[name=lost-to]').fill('29')
    await panel.getByTestId('lost-distributed').selectOption('no')
    // Issue 29 point 4: each date typed as the hall writes it, day first and on 24 h.
    await panel.locator('input[name=lost-discovered-date]').fill('10/03/2026')
    await panel.locator('input[name=lost-discovered-time]').fill('09:00')
    await panel.locator('input[name=lost-reported-date]').fill('10/03/2026')
    await panel.locator('input[name=lost-reported-time]').fill('11:00')
    await panel.getByTestId('lost-remedy').selectOption('new-numbering')
    await panel.locator('input[name=lost-notice]').fill('Robo de billetes en el traslado a imprenta')
    await panel.getByTestId('lost-submit').click()
    await panel.getByTestId('error').waitFor()
    expect(await textOf(page, 'error')).toBe('Revise: Denuncia policial o fiscal (si fue robo).')
    await panel.locator('input[name=lost-police]').fill('FELCC-LP-2026-118')
    await panel.getByTestId('lost-submit').click()
    await page.getByTestId('confirm-dialog').waitFor()
    const said = await textOf(page, 'confirm-dialog')
    expect(said).toContain('Se denuncian 10 billetes: números 0020–0029.')
    expect(said).toContain('no se pagan aunque salgan premiados')
    await shot(page, 'stolen-confirm')
    await page.getByTestId('confirm-ok').click()
    await panel.getByTestId('ok').waitFor()
    expect(await textOf(page, 'ok')).toBe('Rango denunciado: 10 billetes, números 0020–0029. Ya no se pagan.')
    const notice = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/lost-stolen`)
    expect(notice.ranges).toEqual([expect.objectContaining({ kind: 'stolen', from: '0020', to: '0029', quantity: 10 })])
    await noLeaks(page)
    await page.close()
  })

  it('closing the sales of the lottery asks first and says it cannot be reopened; Cancel leaves it on sale', async () => {
    // Before its time the close cannot even be asked for (a lottery closes at its planned time), and says when.
    let page = await open('operador')
    expect(await page.getByTestId('close-sales').isDisabled()).toBe(true)
    expect(await textOf(page, 'closes-at')).toMatch(
      // Issue 29: on the hall's clock (14:00 UTC is 10:00 in La Paz), its zone named, not the browser's.
      /^La venta se cierra a partir de su hora fijada: 11\/03\/2026 10:0\d \(La Paz, UTC-04:00\)\.$/,
    )
    await page.close()
    skew = 24 * HOUR + 60_000
    for (const user of ['jefa', 'operador']) tokens.set(user, (await server.services.auth.login(user, PASSWORD)).token)
    page = await open('operador')
    await page.click('[data-testid=close-sales]')
    const said = await textOf(page, 'confirm-dialog')
    expect(said).toContain('Se cierra la venta de Sorteo Extraordinario de Carnaval · Sorteo nº 2451.')
    expect(said).toContain('La venta no se puede volver a abrir.')
    await shot(page, 'close-confirm')
    await page.click('[data-testid=confirm-cancel]')
    expect((await call('jefa', 'GET', `/api/lottery/draws/${drawId}`)).status).toBe('open')
    await page.click('[data-testid=close-sales]')
    await page.click('[data-testid=confirm-ok]')
    await page.getByTestId('draw-now').waitFor()
    expect((await call('jefa', 'GET', `/api/lottery/draws/${drawId}`)).status).toBe('closed')
    // Issue 29: the closed lottery counts the tickets in play (issued, less returned and reported ones: sold or held
    // by a seller), never as "sold"; their face value is not called sales.
    const inPlay = (await call('jefa', 'GET', `/api/lottery/draws/${drawId}`)).participation.ticketsInPlay
    const participation = (await page.getByTestId('participation').innerText()).replace(/\s+/g, ' ')
    expect(participation).toContain(`Billetes en juego ${inPlay.toLocaleString('es')}`)
    expect(participation).toContain('Valor de los billetes en juego')
    expect(participation).not.toMatch(/Vendid|Ventas/)
    await shot(page, 'closed')
    // The draw asks too, and says the result is final; the return and print forms are gone after the close.
    await page.click('[data-testid=draw-now]')
    expect(await textOf(page, 'confirm-dialog')).toContain('es definitivo')
    await page.click('[data-testid=confirm-cancel]')
    expect(await page.getByTestId('returns').count()).toBe(0)
    expect(await page.getByTestId('print-run').count()).toBe(0)
    await noLeaks(page)
    await page.close()
    const en = await open('operador', 'en')
    const inEnglish = (await en.getByTestId('participation').innerText()).replace(/\s+/g, ' ')
    expect(inEnglish).toContain(`Tickets in play ${inPlay.toLocaleString('en')}`)
    expect(inEnglish).toContain('Value of the tickets in play')
    expect(inEnglish).not.toMatch(/\bSold\b|\bSales\b/)
    await en.close()
  })

  it('plans a numbered lottery from the form: Spanish labels for every field, the refusal named by field (LOT-4)', async () => {
    const page = await open('jefa')
    await page.click('[data-testid=new-lottery-plan]')
    const form = page.getByTestId('lottery-plan-form')
    await form.getByTestId('plan-submit').click()
    expect(await textOf(page, 'error')).toMatch(/^Revise: Institución, Nombre de la lotería, Código del juego/)
    /** A datetime-local value `hours` from the page's now, in the page's own zone. */
    const local = (hours: number) =>
      page.evaluate((h) => {
        const d = new Date(Date.now() + h * 3_600_000)
        const p = (n: number) => String(n).padStart(2, '0')
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
      }, hours)
    const values: Record<string, string> = {
      institution: 'Lotería Nacional de Beneficencia y Salubridad',
      name: 'Sorteo de la Alasita',
      gameCode: 'ALASITA',
      drawNumber: '2460',
      issue: 'Emisión 2026-01',
      from: '0000',
      to: '9999',
      series: '1',
      fractions: '3',
      price: '20',
      currency: 'BOB',
      budget: '200000',
      salesStartAt: await local(-1),
      salesCloseAt: await local(48),
      drawAt: await local(50),
      claimDeadline: await local(24 * 70),
      drawPlace: 'Salón de sorteos, La Paz',
      paymentPlace: 'Oficinas de la Lotería, La Paz',
      regulationUrl: 'https://loteria.example.bo/reglamento/2460',
      authorisationRef: 'AJ-RA-2026-2460',
      securityMarks: 'Holograma y tinta UV',
      authority: 'Gerente General',
      director: 'Director del Sorteo',
      moderator: 'Moderador',
      notary: 'Notaría N.º 12',
    }
    await fillPlan(form, 'plan', values)
    await form.locator('input[name=prize-name-0]').fill('Primer Premio')
    await form.locator('input[name=prize-amount-0]').fill('100000')
    // Bs 20 does not divide into 3 fractions: the server refuses and the form names the field, in Spanish.
    await form.getByTestId('plan-submit').click()
    await form.getByTestId('error').waitFor()
    expect(await textOf(page, 'error')).toContain('Precio del billete')
    expect(await form.locator('input[name=plan-price]').getAttribute('aria-invalid')).toBe('true')
    await noLeaks(page)
    await shot(page, 'plan-refused')
    await form.locator('input[name=plan-fractions]').fill('10')
    await form.getByTestId('plan-submit').click()
    await page.getByTestId('draws-table').getByText('Sorteo de la Alasita').waitFor()
    const planned = (await call('jefa', 'GET', '/api/lottery/draws?product=lottery')).draws.find(
      (d: any) => d.plan.name === 'Sorteo de la Alasita',
    )
    expect(planned.plan).toMatchObject({
      gameCode: 'ALASITA',
      numbering: { from: 0, to: 9999, digits: 4 },
      fractions: 10,
      ticketPriceCents: 2000,
    })
    ids.push(planned.drawId)
    await noLeaks(page)
    await page.close()
  })

  it('plans a raffle from the form; a prize worth more than the tickets issued is refused by its field and rule (PRM-3)', async () => {
    const page = await open('jefa')
    await page.click('[data-testid=tab-raffle]')
    await page.click('[data-testid=new-raffle-plan]')
    const form = page.getByTestId('raffle-plan-form')
    await form.getByTestId('raffle-plan-submit').click()
    // PRM-11: who provides the prize is asked too.
    expect(await textOf(page, 'error')).toMatch(
      /^Revise: Organizador, Nombre de la rifa, .*Clase de rifa, Quién pone el premio\.$/,
    )
    const local = (hours: number) =>
      page.evaluate((h) => {
        const d = new Date(Date.now() + h * 3_600_000)
        const p = (n: number) => String(n).padStart(2, '0')
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
      }, hours)
    await form.getByTestId('raffle-classification').selectOption('benefica')
    await form.getByTestId('raffle-prize-source').selectOption('operator')
    const values: Record<string, string> = {
      organiser: 'Asociación de Vecinos de Sopocachi',
      name: 'Rifa de la bicicleta',
      gameCode: 'RIFABICI',
      drawNumber: '1',
      from: '1',
      to: '500',
      price: '5',
      currency: 'BOB',
      salesStartAt: await local(-1),
      salesCloseAt: await local(48),
      drawAt: await local(50),
      claimDeadline: await local(24 * 70),
      drawPlace: 'Sede vecinal, La Paz',
      paymentPlace: 'Sede vecinal, La Paz',
      authority: 'Presidenta de la asociación',
      director: 'Director del Sorteo',
      moderator: 'Moderador',
      notary: 'Notaría N.º 3',
      prizeName: 'Primer premio',
      prizeDescription: 'Bicicleta de montaña',
      prizeValue: '3000',
      prizeDepositedAt: await local(-2),
      prizeDepositPlace: 'Escaparate de la sede',
      prizeInvoiceRef: 'FAC-2026-77',
    }
    await fillPlan(form, 'raffle', values)
    await form.getByTestId('raffle-plan-submit').click()
    await form.getByTestId('error').waitFor()
    expect(await textOf(page, 'error')).toBe(
      'Revise: Precio del boleto (PRM-3), Autorización de la autoridad (si no está exenta) (PRM-4).',
    )
    await noLeaks(page)
    await shot(page, 'raffle-plan-refused')
    await form.locator('input[name=raffle-price]').fill('10')
    await form.locator('input[name=raffle-authorisationRef]').fill('AJ-RIFA-2026-31')
    await form.getByTestId('raffle-plan-submit').click()
    await page.getByTestId('draws-table').getByText('Rifa de la bicicleta').waitFor()
    const planned = (await call('jefa', 'GET', '/api/lottery/draws?product=raffle')).draws.find(
      (d: any) => d.plan.name === 'Rifa de la bicicleta',
    )
    expect(planned.plan).toMatchObject({ classification: 'benefica', ticketPriceCents: 1000 })
    expect(planned.plan.prizes[0]).toMatchObject({ description: 'Bicicleta de montaña', valueCents: 300_000 })
    ids.push(planned.drawId)
    await noLeaks(page)
    await page.close()
  })

  it("types a plan's dates day first and on 24 h on the hall's clock, its zone named, in a browser whose locale is en-US (issue 29 point 4)", async () => {
    // A browser set up in English (United States) and Los Angeles time: its own date picker would read mm/dd/yyyy and
    // AM/PM, and its clock (UTC-07:00 in March) differs from La Paz's (UTC-04:00), as New York's does not that day.
    const context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'America/Los_Angeles',
      viewport: { width: 1920, height: 1080 },
    })
    const page = await context.newPage()
    await page.clock.setSystemTime(clock.now())
    await page.goto(`${server.url}/admin/?lang=es#/draws`)
    await page.fill('input[name=username]', 'jefa')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('nav').waitFor()
    await page.click('[data-testid=tab-lottery]')
    await page.click('[data-testid=new-lottery-plan]')
    const form = page.getByTestId('lottery-plan-form')
    await form.waitFor()
    // No browser picker: two typed fields per date, the hall's convention and its zone said beside them.
    expect(await form.locator('input[type=date], input[type=datetime-local], input[type=time]').count()).toBe(0)
    expect(norm(await form.getByTestId('plan-drawAt-field').textContent())).toContain('(La Paz, UTC-04:00)')
    expect(await form.locator('input[name=plan-drawAt-date]').getAttribute('placeholder')).toBe('dd/mm/aaaa')
    expect(await form.locator('input[name=plan-drawAt-time]').getAttribute('placeholder')).toBe('hh:mm')
    // Typed the en-US way (month first, PM): not a day and time of the hall; said what to type, and refused.
    await form.locator('input[name=plan-drawAt-date]').click()
    await page.keyboard.type('03/14/2026')
    await form.locator('input[name=plan-drawAt-time]').click()
    await page.keyboard.type('7:00 PM')
    expect(norm(await form.getByTestId('plan-drawAt-hint').textContent())).toBe(
      'Escriba el día como dd/mm/aaaa y la hora de 0:00 a 23:59, en hora de la sala.',
    )
    expect(await form.locator('input[name=plan-drawAt-date]').getAttribute('aria-invalid')).toBe('true')
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-plan-dates-en-US-refused-1920x1080.png') })
    await fillPlan(form, 'plan', {
      institution: 'Lotería Nacional de Beneficencia y Salubridad',
      name: 'Sorteo de Pascua',
      gameCode: 'PASCUA',
      drawNumber: '2461',
      issue: 'Emisión 2026-02',
      from: '0000',
      to: '9999',
      series: '1',
      fractions: '10',
      price: '20',
      currency: 'BOB',
      budget: '200000',
      salesStartAt: '2026-03-12T09:00',
      salesCloseAt: '2026-03-14T18:30',
      claimDeadline: '2026-05-30T18:00',
      drawPlace: 'Salón de sorteos, La Paz',
      paymentPlace: 'Oficinas de la Lotería, La Paz',
      regulationUrl: 'https://loteria.example.bo/reglamento/2461',
      authorisationRef: 'AJ-RA-2026-2461',
      securityMarks: 'Holograma y tinta UV',
      authority: 'Gerente General',
      director: 'Director del Sorteo',
      moderator: 'Moderador',
      notary: 'Notaría N.º 12',
    })
    await form.locator('input[name=prize-name-0]').fill('Primer Premio')
    await form.locator('input[name=prize-amount-0]').fill('100000')
    // The draw at 19:00 on 14 March, as the hall writes it.
    await form.locator('input[name=plan-drawAt-date]').fill('')
    await form.locator('input[name=plan-drawAt-date]').click()
    await page.keyboard.type('14/03/2026')
    await form.locator('input[name=plan-drawAt-time]').fill('')
    await form.locator('input[name=plan-drawAt-time]').click()
    await page.keyboard.type('19:00')
    expect(await form.getByTestId('plan-drawAt-hint').count()).toBe(0)
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-plan-dates-en-US-1920x1080.png') })
    await form.getByTestId('plan-submit').click()
    await page.getByTestId('draws-table').getByText('Sorteo de Pascua').waitFor()
    const planned = (await call('jefa', 'GET', '/api/lottery/draws?product=lottery')).draws.find(
      (d: any) => d.plan.name === 'Sorteo de Pascua',
    )
    ids.push(planned.drawId)
    // 19:00 and 18:30 in La Paz (UTC-04:00), whatever the browser's zone (New York) and locale.
    expect(Date.parse(planned.plan.drawAt)).toBe(Date.parse('2026-03-14T23:00:00Z'))
    expect(Date.parse(planned.plan.salesCloseAt)).toBe(Date.parse('2026-03-14T22:30:00Z'))
    expect(Date.parse(planned.plan.claimDeadline)).toBe(Date.parse('2026-05-30T22:00:00Z'))
    await noLeaks(page)
    await context.close()

    // In English the same fields say the hall's convention in English words.
    const en = await open('jefa', 'en')
    await en.click('[data-testid=new-lottery-plan]')
    const enForm = en.getByTestId('lottery-plan-form')
    expect(await enForm.locator('input[name=plan-drawAt-date]').getAttribute('placeholder')).toBe('dd/mm/yyyy')
    expect(norm(await enForm.getByTestId('plan-drawAt-field').textContent())).toContain('(La Paz, UTC-04:00)')
    await en.screenshot({ path: join(SCREENSHOTS, 'admin-plan-dates-en-1920x1080.png') })
    await en.close()
  })

  it('CFG-39: uploads the AJ logo as a PNG and previews the image the server holds; a file that is not an image, or not a real PNG, is refused in Spanish', async () => {
    const page = await open('operador')
    const logo = page.getByTestId('artwork-aj-logo')
    await logo.waitFor()
    expect(norm(await page.getByTestId('artwork-status-aj-logo').textContent())).toMatch(/^Sin imagen/)
    expect(await page.getByTestId('artwork-preview-aj-logo').count()).toBe(0)
    const file = page.getByTestId('artwork-file-aj-logo')

    await file.setInputFiles({ name: 'logo.txt', mimeType: 'text/plain', buffer: Buffer.from('no soy una imagen') })
    await logo.getByTestId('error').waitFor()
    expect(norm(await logo.getByTestId('error').textContent())).toBe(
      '«logo.txt» no es una imagen: elija un archivo PNG.',
    )
    // Named and typed as a PNG, but not one: the server's refusal, in Spanish.
    await file.setInputFiles({ name: 'falso.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a no es un PNG') })
    await logo.getByTestId('error').getByText('La imagen debe ser un archivo PNG válido.').waitFor()
    expect((await call('operador', 'GET', '/api/lottery/artwork')).artwork[0]).toMatchObject({
      kind: 'aj-logo',
      onRecord: false,
    })

    const png = solidPng(40, 20, [0, 90, 160])
    await file.setInputFiles({ name: 'logo-aj.png', mimeType: 'image/png', buffer: png })
    await logo.getByTestId('ok').waitFor()
    const preview = page.getByTestId('artwork-preview-aj-logo')
    await preview.waitFor()
    await page.waitForFunction(
      () => (document.querySelector('[data-testid=artwork-preview-aj-logo]') as HTMLImageElement | null)?.complete,
    )
    // The preview is the image the server now holds, decoded by the browser at its size.
    expect(await preview.getAttribute('src')).toBe(`data:image/png;base64,${png.toString('base64')}`)
    expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([40, 20])
    expect(norm(await page.getByTestId('artwork-status-aj-logo').textContent())).toMatch(/^Registrada: 1 KiB/)
    expect((await call('operador', 'GET', '/api/lottery/artwork')).artwork[0]).toMatchObject({
      kind: 'aj-logo',
      onRecord: true,
      bytes: png.length,
    })
    await page.getByTestId('lottery-artwork').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-lottery-artwork-1920x1080.png') })
    await page.close()
  })
})
