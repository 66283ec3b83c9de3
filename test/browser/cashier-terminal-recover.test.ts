import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import { paidHallWithTerminal } from '../helpers/terminals.ts'
import { screenLeaks } from '../helpers/screen-text.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 27 in real Chromium, authentication on: a terminal session is lost (the terminal broke, the player left it).
 * The cashier, logged in at her enrolled station with her shift open, types the code of the voucher that opened the
 * session in the terminal section, confirms what follows, and the balance is issued as a change voucher printed at
 * her station: the amount on screen, the session closed as recovered, the terminal with no balance left. A mistyped
 * code and a second recovery of the same voucher are refused in words that say what they mean to her.
 */
browserSuite('the cashier recovers a lost terminal session’s balance against its voucher (issue 27)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let hall: PaidHall
  let terminal: { id: string; credential: string }

  beforeAll(async () => {
    ensureBuilt(['cashier'], ['kiosk/src/cashier', 'kiosk/cashier', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    ;({ hall, terminal } = await paidHallWithTerminal(server.services, 'Terminal 7'))
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
  })

  it('types the voucher code, confirms, and the balance comes back as a printed change voucher', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
    await page.goto(`${server.url}/cashier/?hall=${hall.hallId}&device=${encodeURIComponent(hall.station.credential)}`)
    await page.getByTestId('shift-user').fill('cajera')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-open-since').waitFor()

    // The session: Bs 100 loaded onto Terminal 7 at this desk; its voucher is what the player keeps.
    await page.getByTestId('tab-sell').click()
    await page.getByTestId('note-plus-10000').click()
    await page.getByTestId('terminal-select').selectOption(terminal.id)
    await page.getByTestId('terminal-age').check()
    await page.getByTestId('terminal-load-button').click()
    await page.getByTestId('terminal-load-confirm-yes').click()
    const code = (await page.getByTestId('terminal-loaded-code').textContent())!.trim()
    await page.getByTestId('terminal-load-new').click()
    const device = { 'accept-language': 'es', authorization: `Device ${terminal.credential}` }
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, device)).body.session.balanceCents).toBe(
      10_000,
    )
    const printsBefore = Number(
      (await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ticket_prints'))?.n ?? 0,
    )

    const recover = page.getByTestId('terminal-recover')
    // A mistyped code: no voucher has it, said so (not "no session at this terminal").
    const wrong = code.slice(0, -1) + (code.endsWith('2') ? '3' : '2')
    await recover.getByTestId('terminal-recover-code').fill(wrong)
    await recover.getByTestId('terminal-recover-button').click()
    await page.getByTestId('terminal-recover-confirm-yes').click()
    await expect
      .poll(() => page.getByTestId('cashier-error').innerText())
      .toBe('Ningún vale tiene este código. Revise lo que escribió (el código impreso bajo el QR del vale).')

    await recover.getByTestId('terminal-recover-code').fill(code)
    await recover.getByTestId('terminal-recover-button').click()
    const text = (await page.getByTestId('terminal-recover-confirm-text').textContent()) ?? ''
    expect(text).toContain('el terminal deja de jugar con ese saldo')
    expect(text).toContain('vale de cambio impreso en esta caja')
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-terminal-recover-confirm.png') })
    // "No" goes back and recovers nothing.
    await page.getByTestId('terminal-recover-confirm-no').click()
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, device)).body.session.balanceCents).toBe(
      10_000,
    )
    await recover.getByTestId('terminal-recover-button').click()
    await page.getByTestId('terminal-recover-confirm-yes').click()
    const done = page.getByTestId('terminal-recovered')
    await done.waitFor()
    expect(await done.innerText()).toContain('Saldo recuperado en un vale de cambio')
    expect(await page.getByTestId('terminal-recovered-amount').innerText()).toMatch(/Bs\s100,00/)
    expect(await page.getByTestId('terminal-recovered-printed').innerText()).toBe(
      'Vale de cambio impreso: entréguelo al jugador.',
    )
    const changeCode = (await page.getByTestId('terminal-recovered-code').innerText()).trim()
    expect(screenLeaks(await done.innerText())).toEqual([])
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-terminal-recovered.png') })

    // The server's record: the session recovered, its balance on a change voucher of the original, printed here.
    const s = await server.services.db.get<{ status: string; change_voucher_id: string; voucher_id: string }>(
      'SELECT status, change_voucher_id, voucher_id FROM terminal_sessions WHERE terminal_id = ?',
      [terminal.id],
    )
    expect(s!.status).toBe('recovered')
    const change = await server.services.cashdesk.vouchers.check(changeCode)
    expect(change).toMatchObject({
      id: s!.change_voucher_id,
      amountCents: 10_000,
      status: 'active',
      parentId: s!.voucher_id,
    })
    expect(
      Number((await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ticket_prints'))?.n ?? 0),
    ).toBe(printsBefore + 1)
    const state = await api(server.url, 'GET', '/api/terminal/state', undefined, device)
    expect(state.body.session?.status ?? null).not.toBe('open')

    // The same voucher a second time: nothing more to recover, said in her words.
    await page.getByTestId('terminal-recover-new').click()
    await recover.getByTestId('terminal-recover-code').fill(code)
    await recover.getByTestId('terminal-recover-button').click()
    await page.getByTestId('terminal-recover-confirm-yes').click()
    await expect
      .poll(() => page.getByTestId('cashier-error').innerText())
      .toMatch(/^Este vale no tiene una sesión de terminal abierta: ya se cerró o se recuperó/)
    expect(await page.getByTestId('terminal-recovered').count()).toBe(0)
    expect(screenLeaks(await page.evaluate(() => document.body.innerText))).toEqual([])
    await page.close()
  })
})
