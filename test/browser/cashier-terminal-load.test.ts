import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS } from '../helpers/browser.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import { paidHallWithTerminal } from '../helpers/terminals.ts'
import { openPrintFile } from '../../printer/src/printers.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { screenLeaks } from '../helpers/screen-text.ts'

/**
 * Issue 27 in real Chromium, authentication on: the cashier, logged in at her enrolled station with her shift open,
 * counts the cash and loads it onto a bingo terminal of her hall (confirmed first, in Spanish). The first load starts
 * the terminal's session, the second adds to its balance; the cash is in her drawer and each load is journaled.
 */
browserSuite('the cashier loads cash credit onto a bingo terminal (issue 27)', () => {
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

  it('counts the cash, confirms, and the terminal starts a session; a second load adds to its balance', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/cashier/?hall=${hall.hallId}&device=${encodeURIComponent(hall.station.credential)}`)
    await page.getByTestId('shift-user').fill('cajera')
    await page.getByTestId('shift-password').fill(PASSWORD)
    await page.getByTestId('shift-enter').click()
    await page.getByTestId('shift-open-since').waitFor()
    const drawer = async () =>
      Number(
        (
          await server.services.db.get<{ s: number | null }>(
            'SELECT SUM(amount_cents) AS s FROM cash_movements WHERE station_id = ?',
            [hall.station.id],
          )
        )?.s ?? 0,
      )
    const before = await drawer()

    await page.getByTestId('tab-sell').click()
    await page.getByTestId('note-plus-10000').click()
    await page.getByTestId('note-plus-10000').click()
    await page.getByTestId('terminal-select').selectOption(terminal.id)
    expect(await page.getByTestId('terminal-select').textContent()).toContain('Terminal 7 · esperando jugador')
    // Starting a session asks the cashier to confirm the player's age (GEN-23); the server refuses without it.
    await page.getByTestId('terminal-load-button').click()
    await page.getByTestId('terminal-load-confirm-yes').click()
    await expect.poll(() => page.getByTestId('cashier-error').getAttribute('data-code')).toBe('AGE_NOT_CONFIRMED')
    // The server's words in Spanish, without its English detail for the log ("... of age before any sale").
    expect(await page.getByTestId('cashier-error').textContent()).not.toMatch(/before any sale/)
    expect(await drawer()).toBe(before)

    await page.getByTestId('terminal-age').check()
    await page.getByTestId('terminal-load-button').click()
    const text = (await page.getByTestId('terminal-load-confirm-text').textContent()) ?? ''
    expect(text).toMatch(/Bs\s200,00 en efectivo entran en su caja y se suman al saldo de Terminal 7/)
    expect(text).toContain('empieza una sesión de juego')
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-terminal-load-confirm.png') })
    // "No" goes back and loads nothing.
    await page.getByTestId('terminal-load-confirm-no').click()
    expect(await drawer()).toBe(before)
    await page.getByTestId('terminal-load-button').click()
    await page.getByTestId('terminal-load-confirm-yes').click()
    await page.getByTestId('terminal-loaded').waitFor()
    expect(await page.getByTestId('terminal-loaded').textContent()).toContain('Cargado en Terminal 7')
    expect(await page.getByTestId('terminal-loaded-balance').textContent()).toMatch(/Saldo del terminal: Bs\s200,00/)
    // The session's voucher (a lost session is recovered against it): on screen by its printed code, and printed
    // at this station's printer naming the terminal, as any voucher she sells; no internal id on screen.
    const shown = (await page.getByTestId('terminal-loaded-code').textContent())!.trim()
    const original = await server.services.db.get<{ voucher_id: string }>(
      'SELECT voucher_id FROM terminal_sessions WHERE terminal_id = ?',
      [terminal.id],
    )
    expect(await server.services.cashdesk.vouchers.resolveVoucherId(server.services.db, shown)).toBe(
      original!.voucher_id,
    )
    expect(await page.getByTestId('terminal-loaded-printed').textContent()).toBe('Vale impreso')
    expect(screenLeaks((await page.getByTestId('terminal-loaded').textContent()) ?? '')).toEqual([])
    const papers = () =>
      readdirSync(join(server.dataDir, 'prints'))
        .filter((f) => f.endsWith('.escpos.sealed'))
        .map((f) =>
          decodeEscPos(openPrintFile(server.services.sealer, join(server.dataDir, 'prints', f))).lines.map((l) =>
            l.trim(),
          ),
        )
        .filter((lines) => lines.some((l) => l.startsWith('Cargado en')))
    const [paper] = papers()
    expect(papers()).toHaveLength(1)
    expect(paper).toContain(shown)
    expect(paper.join('\n')).toMatch(/Cargado en\s+Terminal 7/)
    expect(paper.join('\n')).toMatch(/Bs\s200,00/)
    expect(paper.join('\n')).not.toMatch(/\b(?:dev|u|ts|v)_[a-z0-9]{6,}/)
    await page.screenshot({ path: join(SCREENSHOTS, 'cashier-terminal-loaded.png') })

    // The terminal sees the balance; the cash is in her drawer.
    const as = { 'accept-language': 'es', authorization: `Device ${terminal.credential}` }
    const state = await api(server.url, 'GET', '/api/terminal/state', undefined, as)
    expect(state.body.session.balanceCents).toBe(20_000)
    expect(await drawer()).toBe(before + 20_000)

    // A second load onto the open session: the balance rises, no second session.
    await page.getByTestId('terminal-load-new').click()
    await page.getByTestId('note-plus-5000').click()
    await expect.poll(() => page.getByTestId('terminal-select').textContent()).toContain('saldo Bs')
    await page.getByTestId('terminal-select').selectOption(terminal.id)
    expect(await page.getByTestId('terminal-age').count()).toBe(0)
    await page.getByTestId('terminal-load-button').click()
    expect(await page.getByTestId('terminal-load-confirm-text').textContent()).not.toContain('empieza')
    await page.getByTestId('terminal-load-confirm-yes').click()
    await page.getByTestId('terminal-loaded').waitFor()
    expect(await page.getByTestId('terminal-loaded-balance').textContent()).toMatch(/Bs\s250,00/)
    // Each load's voucher is printed: the second one too, with its own code.
    const second = (await page.getByTestId('terminal-loaded-code').textContent())!.trim()
    expect(second).not.toBe(shown)
    expect(papers()).toHaveLength(2)
    expect(papers().some((p) => p.includes(second))).toBe(true)
    const after = await api(server.url, 'GET', '/api/terminal/state', undefined, as)
    expect(after.body.session.id).toBe(state.body.session.id)
    expect(after.body.session.balanceCents).toBe(25_000)
    expect(after.body.session.ledger.map((l: { kind: string }) => l.kind)).toEqual(['opened', 'loaded'])
    expect(await drawer()).toBe(before + 25_000)
    const journaled = await server.services.db.all<{ type: string }>(
      "SELECT type FROM journal WHERE type IN ('terminal.session_opened', 'terminal.credit_loaded') ORDER BY seq",
    )
    expect(journaled.map((r) => r.type)).toEqual(['terminal.session_opened', 'terminal.credit_loaded'])
    const v = await server.services.verifyJournal()
    expect(v.ok, JSON.stringify(v)).toBe(true)
    await page.close()
  })
})
