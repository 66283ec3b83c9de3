/**
 * Issue 26 in real Chromium, authentication on, real people and enrolled devices: three rules that only the API could
 * set now have the director's forms in the back office, each saying what is on record in words, asking before
 * recording with what follows, and showing a refusal in words. Each is recorded through the screen, then the rule is
 * proved through the API:
 * - GEN-4 / GEN-7 / BNG-9: a kiosk given a printer of its own without its AJ seal sells nothing; sealed, it sells.
 * - CFG-7: a game's own limits, and a channel's, refuse a counter or kiosk purchase beyond them.
 * - RNG-32: an RNG game is refused once the draw engine's certificate is withdrawn, and announced once it is recorded
 *   again for the running build.
 * A cashier or a floor manager sees none of these forms and the API answers them 403.
 * Screenshots (1366x768) in test-output/screenshots/admin-equipment-*.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { everyChannelHall, type EveryChannelHall } from '../helpers/every-channel-hall.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api } from '../helpers/server.ts'

browserSuite('the director’s forms for printers, game limits and certified software (issue 26)', () => {
  let s: RulesServer
  let w: EveryChannelHall
  let browser: Browser
  let page: Page
  const shot = (name: string, fullPage = false) =>
    page.screenshot({ path: join(SCREENSHOTS, `admin-equipment-${name}.png`), fullPage })
  const noLeaks = async () => expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])

  beforeAll(async () => {
    ensureBuilt(['admin'], ['admin/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    w = await everyChannelHall(s, { seed: 'admin-equipment' })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
    await page.goto(`${s.server.url}/admin/#/staff`)
    await page.fill('input[name=username]', 'jefa')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('[data-testid=login] button[type=submit]')
    await page.getByTestId('enrolled-table').waitFor()
  }, 180_000)
  afterAll(async () => {
    await page?.close()
    await browser?.close()
    await s?.server.cleanup()
  })

  it('a kiosk given its own printer without the AJ seal sells nothing; the seal recorded on screen, it sells (GEN-7)', async () => {
    const row = page.getByTestId('enrolled-table').locator('tr').filter({ hasText: 'Kiosco 1' })
    // On record: the operator's shared sealed printer, in words.
    expect(await row.getByTestId('device-printer').innerText()).toBe(
      'Impresora de tickets (pruebas) (compartida del operador) marcas completas',
    )
    await row.getByTestId('edit-printer').click()
    const form = page.getByTestId('device-printer-form')
    await form.waitFor()
    expect(await form.innerText()).toContain('Código de precinto de seguridad (exigido en esta sala)')
    await form.locator('input[name=printerName]').fill('Impresora Kiosco 1')
    await form.locator('input[name=printerModel]').fill('TM-T20')
    await form.locator('button[type=submit]').click()
    const dialog = page.getByTestId('confirm')
    await dialog.waitFor()
    const said = await dialog.innerText()
    expect(said).toContain('¿Registrar la impresora de «Kiosco 1»?')
    expect(said).toContain('«Kiosco 1» imprimirá en «Impresora Kiosco 1»: sin marcas registradas.')
    expect(said).toContain(
      'Con estas marcas el equipo seguirá sin vender ni pagar: a su impresora le falta el precinto.',
    )
    await shot('printer-confirm-es')
    await page.getByTestId('confirm-ok').click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => row.getByTestId('device-printer').innerText())
      .toBe('Impresora Kiosco 1 (propia) no puede vender: a su impresora le falta el precinto')
    await noLeaks()
    await row.scrollIntoViewIfNeeded()
    await shot('printer-missing-es')

    // The rule, through the API: the kiosk's purchase is refused for its printer, and its voucher stays whole.
    const refused = await w.channels().kiosk()
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'PRINTER_MARKS_MISSING',
    ])
    expect(refused.voucherStatus).toBe('active')
    const printers = (await s.call('jefa', 'GET', '/api/devices?kind=printer')).body.devices as Array<{
      name: string
      servesDeviceId: string | null
      hallId: string | null
      model: string | null
    }>
    expect(printers.find((p) => p.name === 'Impresora Kiosco 1')).toMatchObject({
      servesDeviceId: w.kiosk.id,
      hallId: w.hall.hallId,
      model: 'TM-T20',
    })

    // The director records its seal on the same printer (corrected, not a second one): the kiosk sells.
    await row.getByTestId('edit-printer').click()
    expect(await form.innerText()).toContain('Corrige la ficha de su impresora propia «Impresora Kiosco 1».')
    await form.locator('input[name=printerSeal]').fill('AJ-IMP-2026-0042')
    await form.locator('button[type=submit]').click()
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain(
      '«Kiosco 1» imprimirá en «Impresora Kiosco 1»: precinto AJ-IMP-2026-0042.',
    )
    expect(await dialog.innerText()).toContain('Con estas marcas, el equipo puede vender y pagar.')
    await page.getByTestId('confirm-ok').click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => row.getByTestId('device-printer').innerText())
      .toBe('Impresora Kiosco 1 (propia) marcas completas')
    const after = (await s.call('jefa', 'GET', '/api/devices?kind=printer')).body.devices as Array<{ name: string }>
    expect(after.filter((p) => p.name === 'Impresora Kiosco 1')).toHaveLength(1)
    const sold = await w.channels().kiosk()
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await shot('printer-done-es')
  })

  it('a game’s own limits and a channel’s, recorded on the hall’s page, refuse a purchase beyond them (CFG-7)', async () => {
    await page.goto(`${s.server.url}/admin/#/halls`)
    await page.getByTestId('halls-table').getByText('Sala Illimani', { exact: true }).click()
    const panel = page.getByTestId('game-limits')
    await expect
      .poll(() => panel.getByTestId('game-limits-state').innerText())
      .toBe('Partida n.º 1 (en venta). Sin límites propios Esta partida se vende con los límites de la sala.')
    expect(await panel.getByTestId('game-limits-hall').innerText()).toMatch(
      /^Límites de la sala: de 1 a 50 cartones por compra, \d+ como máximo por jugador y partida\.$/,
    )
    await panel.scrollIntoViewIfNeeded()
    await shot('game-limits-none-es')

    // A maximum above the hall's is said in words before anything is asked or sent.
    await panel.locator('input[name=gameLimitsRef]').fill('AJ-RA-PLAN-2026-7 (partida 1)')
    await panel.locator('input[name=gameMin]').fill('1')
    await panel.locator('input[name=gameMax]').fill('60')
    await panel.locator('input[name=gamePlayer]').fill('60')
    await panel.getByTestId('game-limits-form').locator('button[type=submit]').click()
    expect(await panel.getByTestId('game-limits-problem').innerText()).toBe(
      'La partida: el máximo por compra no puede superar el de la sala (50).',
    )
    expect(await page.getByTestId('confirm').count()).toBe(0)
    // A channel typed in part is named.
    await panel.locator('input[name=gameMax]').fill('2')
    await panel.locator('input[name=gamePlayer]').fill('4')
    await panel.locator('input[name=kiosk-min]').fill('1')
    await panel.getByTestId('game-limits-form').locator('button[type=submit]').click()
    expect(await panel.getByTestId('game-limits-problem').innerText()).toBe(
      'Faltan límites del canal «En el quiosco»: escriba los tres o deje los tres vacíos.',
    )
    await panel.locator('input[name=kiosk-max]').fill('1')
    await panel.locator('input[name=kiosk-player]').fill('1')
    await panel.getByTestId('game-limits-form').locator('button[type=submit]').click()
    const dialog = page.getByTestId('confirm')
    await dialog.waitFor()
    const said = await dialog.innerText()
    expect(said).toContain('¿Registrar los límites de la partida n.º 1?')
    expect(said).toContain(
      'Desde la próxima compra, cada compra de esta partida será de 1 a 2 cartones y un jugador no tendrá más de 4 cartones en ella.',
    )
    expect(said).toContain('Por canal: En el quiosco: de 1 a 1 cartones por compra, 1 como máximo por jugador.')
    expect(said).toContain('Quedan registrados con la referencia AJ-RA-PLAN-2026-7 (partida 1).')
    await shot('game-limits-confirm-es')
    await page.getByTestId('confirm-ok').click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => panel.getByTestId('game-limits-state').innerText())
      .toBe(
        'Partida n.º 1 (en venta). Límites propios Registrados con la referencia AJ-RA-PLAN-2026-7 (partida 1): de 1 a 2 cartones por compra, 4 como máximo por jugador.',
      )
    expect(await panel.getByTestId('game-limits-channel-kiosk').innerText()).toBe(
      'En el quiosco: de 1 a 1 cartones por compra, 1 como máximo por jugador.',
    )
    await noLeaks()
    await shot('game-limits-done-es')

    // The rule, through the API: what the screen recorded is what the game posts and what every sale is held to.
    expect((await s.call('auditor', 'GET', `/api/games/${w.gameId}`)).body.gameBets).toEqual({
      authorisationRef: 'AJ-RA-PLAN-2026-7 (partida 1)',
      minCardsPerPurchase: 1,
      maxCardsPerPurchase: 2,
      maxCardsPerPlayer: 4,
      channels: { kiosk: { minCardsPerPurchase: 1, maxCardsPerPurchase: 1, maxCardsPerPlayer: 1 } },
    })
    const before = await w.cardsSold(w.gameId)
    const three = await api(
      s.server.url,
      'POST',
      `/api/games/${w.gameId}/sales`,
      { ageConfirmed: true, count: 3 },
      w.counter.headers,
    )
    expect([three.status, three.body.error?.code], JSON.stringify(three.body)).toEqual([422, 'BET_OUT_OF_LIMITS'])
    const kiosk = await w.channels().kiosk()
    expect([kiosk.status, kiosk.body.error?.code], JSON.stringify(kiosk.body)).toEqual([422, 'BET_OUT_OF_LIMITS'])
    expect(await w.cardsSold(w.gameId)).toBe(before)
    const two = await w.channels().counter()
    expect(two.status, JSON.stringify(two.body)).toBe(201)
    expect(await w.cardsSold(w.gameId)).toBe(before + 2)

    // In English, the same record in English.
    await page.click('[data-testid=lang-en]')
    await expect
      .poll(() => panel.getByTestId('game-limits-state').innerText())
      .toBe(
        'Game no. 1 (on sale). Own limits Recorded under reference AJ-RA-PLAN-2026-7 (partida 1): 1 to 2 cards per purchase, at most 4 per player.',
      )
    await panel.getByTestId('game-limits-state').scrollIntoViewIfNeeded()
    await shot('game-limits-done-en')
    await page.click('[data-testid=lang-es]')

    // Once the game's sale is over the server refuses any change: the dialog says so in words, never a code.
    // (BNG-21: the game's minimum participation, ten cards, sold two at a time under its own limits.)
    while ((await w.cardsSold(w.gameId)) < 10) expect((await w.channels().counter()).status).toBe(201)
    const closed = await s.call('mesa1', 'POST', `/api/games/${w.gameId}/sales/close`)
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    await panel.getByTestId('game-limits-remove').click()
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain(
      'Desde la próxima compra, la partida se vende con los límites de la sala, sin límites propios ni por canal.',
    )
    await page.getByTestId('confirm-ok').click()
    await expect
      .poll(() => dialog.getByTestId('error').innerText())
      .toBe(
        'La venta de la partida n.º 1 ya terminó: sus límites quedan como estaban y ya no se cambian. Actualice la página.',
      )
    await noLeaks()
    await shot('game-limits-refused-es')
    await page.getByTestId('confirm-cancel').click()
    await dialog.waitFor({ state: 'detached' })
    expect((await s.call('auditor', 'GET', `/api/games/${w.gameId}`)).body.gameBets.maxCardsPerPurchase).toBe(2)
  })

  it('an RNG game is refused once the certificate is withdrawn on screen, and announced once recorded for the running build (RNG-32)', async () => {
    const running = (await s.call('auditor', 'GET', '/api/software')).body.running as Array<{
      component: string
      version: string
      buildSha256: string
    }>
    const engine = running.find((b) => b.component === 'draw-engine')!
    await page.goto(`${s.server.url}/admin/#/software`)
    await page.getByTestId('software-running-table').waitFor()
    expect(await page.getByTestId('running-hash-draw-engine').innerText()).toBe(engine.buildSha256)
    expect(await page.getByTestId('section-title').innerText()).toBe('Software certificado')
    await shot('software-es', true)

    // Withdraw the test server's certificate of the draw engine for Bolivia (2025), through the screen.
    const row = page
      .getByTestId('software-records-table')
      .locator('tr')
      .filter({ hasText: 'Motor de sorteo por software' })
      .filter({ hasText: 'Bolivia (2025)' })
    expect(await row.count()).toBe(1)
    await row.getByTestId('software-withdraw').click()
    const wform = page.getByTestId('software-withdraw-form')
    await wform.locator('button[type=submit]').click()
    expect(await page.getByTestId('software-withdraw-problem').innerText()).toBe('Escriba el motivo de la retirada.')
    await wform.locator('input[name=withdrawReason]').fill('certificado caducado')
    await wform.locator('button[type=submit]').click()
    const dialog = page.getByTestId('confirm')
    await dialog.waitFor()
    const said = await dialog.innerText()
    expect(said).toContain('¿Retirar el certificado CERT-PRUEBA-SOFTWARE?')
    expect(said).toContain('Desde ahora no vale para Motor de sorteo por software en Bolivia (2025).')
    expect(said).toContain('no se podrá anunciar ninguna partida que lo necesite')
    await shot('software-withdraw-confirm-es')
    await page.getByTestId('confirm-ok').click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => row.getByTestId('software-status').innerText())
      .toMatch(/^Retirado el .*: certificado caducado$/)

    // The rule, through the API: a Bolivian RNG game is refused, in words.
    const h = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sucre', seed: 'admin-equipment-sucre' })
    const sessionId = await openSession(s, h.hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [h.seriesId], drawSource: 'rng' })
    const refused = await announce()
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'SOFTWARE_NOT_CERTIFIED',
    ])

    // Record the certificate through the screen: the version and the fingerprint are the running build's.
    const form = page.getByTestId('software-form')
    await form.locator('button[type=submit]').click()
    expect(await page.getByTestId('software-problem').innerText()).toBe(
      'Escriba la referencia del certificado y el laboratorio.',
    )
    await form.getByTestId('software-component').selectOption('draw-engine')
    await form.getByTestId('software-jurisdiction').selectOption('BO-2025')
    await form.locator('input[name=certificateRef]').fill('AJ-CC-2026-0042')
    await form.locator('input[name=laboratory]').fill('GLI Europe')
    expect(await page.getByTestId('software-build').innerText()).toContain(engine.buildSha256)
    await form.locator('button[type=submit]').click()
    await dialog.waitFor()
    const asked = await dialog.innerText()
    expect(asked).toContain('¿Registrar el certificado AJ-CC-2026-0042?')
    expect(asked).toContain(
      `Queda registrado para Motor de sorteo por software, versión ${engine.version}, huella ${engine.buildSha256.slice(0, 8)}…${engine.buildSha256.slice(-8)}, en Bolivia (2025), emitido por GLI Europe.`,
    )
    expect(asked).toContain('Con él se pueden anunciar en las salas de Bolivia (2025)')
    await shot('software-record-confirm-es')
    await page.getByTestId('confirm-ok').click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('running-certified-draw-engine').innerText())
      .toContain('Bolivia (2025): AJ-CC-2026-0042')
    await noLeaks()
    await shot('software-done-es', true)
    const records = (await s.call('auditor', 'GET', '/api/software')).body.records as Array<Record<string, unknown>>
    expect(records.find((r) => r.certificateRef === 'AJ-CC-2026-0042')).toMatchObject({
      component: 'draw-engine',
      jurisdiction: 'BO-2025',
      version: engine.version,
      buildSha256: engine.buildSha256,
      laboratory: 'GLI Europe',
      status: 'active',
    })
    const announced = await announce()
    expect(announced.status, JSON.stringify(announced.body)).toBe(201)
    const software = (await s.call('auditor', 'GET', `/api/games/${announced.body.gameId}`)).body.software
    expect(software).toContainEqual(
      expect.objectContaining({ component: 'draw-engine', certificateRef: 'AJ-CC-2026-0042' }),
    )

    await page.click('[data-testid=lang-en]')
    await expect.poll(() => page.getByTestId('section-title').innerText()).toBe('Certified software')
    await shot('software-done-en', true)
    await page.click('[data-testid=lang-es]')
  })

  it('a cashier or a floor manager sees none of these forms, and the API refuses them', async () => {
    for (const who of ['cajera', 'mesa1'] as const) {
      const p = await browser.newPage({ viewport: { width: 1366, height: 768 } })
      await p.goto(`${s.server.url}/admin/#/software`)
      await p.fill('input[name=username]', who)
      await p.fill('input[name=password]', PASSWORD)
      await p.click('[data-testid=login] button[type=submit]')
      // A floor manager has sections (inspection); a cashier has none: either way, none of these.
      await expect
        .poll(async () => (await p.getByTestId('nav').count()) + (await p.getByTestId('login-error').count()))
        .toBeGreaterThan(0)
      for (const id of [
        'nav-software',
        'nav-staff',
        'nav-halls',
        'software-form',
        'device-printer-form',
        'game-limits',
      ])
        expect(await p.getByTestId(id).count(), `${who}: ${id}`).toBe(0)
      await p.close()
      const limits = await s.call(who, 'PUT', `/api/games/${w.gameId}/sale-limits`, {
        limits: {
          authorisationRef: 'AJ-FALSA',
          minCardsPerPurchase: 1,
          maxCardsPerPurchase: 50,
          maxCardsPerPlayer: 50,
        },
      })
      expect(limits.status, who).toBe(403)
      const printer = await s.call(who, 'POST', '/api/devices', {
        id: 'IMP-FALSA',
        kind: 'printer',
        name: 'Impresora falsa',
        hallId: w.hall.hallId,
        servesDeviceId: w.kiosk.id,
        sealCode: 'AJ-FALSO',
      })
      expect(printer.status, who).toBe(403)
      const cert = await s.call(who, 'POST', '/api/software', {
        component: 'draw-engine',
        jurisdiction: 'BO-2025',
        version: '1',
        buildSha256: 'ab'.repeat(32),
        certificateRef: 'FALSO',
        laboratory: 'x',
      })
      expect(cert.status, who).toBe(403)
      const records = (await s.call('auditor', 'GET', '/api/software')).body.records as Array<{ id: string }>
      expect((await s.call(who, 'POST', `/api/software/${records[0]!.id}/withdraw`, { reason: 'x' })).status).toBe(403)
    }
    expect((await s.call('jefa', 'GET', `/api/games/${w.gameId}`)).body.gameBets.maxCardsPerPurchase).toBe(2)
  })
})
