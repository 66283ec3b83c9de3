import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 14 points 2, 3 and 6 over real HTTP with authentication on: journal records name the authenticated
 * person (never a body's name), the AML officer (GEN-9) and not a read-only auditor decides AML reports, a card
 * is blocked only by staff with its code or a documented report (LST-4, LST-5), and a director reverses a block
 * only with a second person's credential typed on the same screen.
 */
const PASSWORD = 'correct horse battery'
const secondPerson = (username: string, password = PASSWORD) => ({
  'x-bolillo-second-person': Buffer.from(`${username}:${password}`).toString('base64'),
})

describe('attribution, roles and blocking (issue 14 points 2, 3, 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup
  let till: Till
  const tokens = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(server.url, method, path, body, {
      authorization: `Bearer ${tokens.get(who)}`,
      'accept-language': 'es',
      ...headers,
    })
  const journal = async (type: string) =>
    (
      await server.services.db.all<{ payload: string }>('SELECT payload FROM journal WHERE type = ? ORDER BY seq', [
        type,
      ])
    ).map((r) => JSON.parse(r.payload))

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', amlThresholdCents: 1000, amlSmallShareBp: 3000 })
    setup = await hallWithGameOnSale(server.services)
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['jefe', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Pedro Flores', 'auditor'],
      ['oficial', 'Ana Choque', 'aml_officer'],
    ] as const
    for (const [username, displayName, role] of people) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD, halls: [setup.hallId] })
      tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)
    }
    // The cashier sells at her enrolled station, in her open shift (issue 13 point 5).
    till = await openTill(server.url, server.services, {
      hallId: setup.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
  })
  afterAll(async () => server?.cleanup())

  it('names the authenticated cashier on every record, whatever the body claims (issue 14 point 2)', async () => {
    const sale = await api(
      server.url,
      'POST',
      '/api/vouchers',
      {
        hallId: setup.hallId,
        amountCents: 2000,
        cash: countOf(2000),
        stationId: 'caja-9',
        cashierId: 'Directora de Bingo',
        buyerDocument: '4455667 LP',
      },
      till.headers,
    )
    expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    const [sold] = await journal('voucher.sold')
    expect(sold.actor).toMatchObject({ kind: 'person', name: 'Rosa Vargas', role: 'cashier' })
    expect(JSON.stringify(sold)).not.toContain('Directora de Bingo')
    // The drawer is the station she logged in at, not the one the body names.
    expect(JSON.stringify(sold)).not.toContain('caja-9')
    const moved = await server.services.db.all<{ station_id: string; shift_id: string }>(
      "SELECT station_id, shift_id FROM cash_movements WHERE kind LIKE 'voucher%'",
    )
    expect(moved).toEqual([{ station_id: till.station.id, shift_id: till.shiftId }])
  })

  it('lets the AML officer decide a report under her own name, and refuses the read-only auditor (GEN-9, GEN-17)', async () => {
    const list = await call('auditor', 'GET', '/api/aml/reports')
    expect(list.status).toBe(200)
    const report = list.body.reports[0]
    expect(report).toBeTruthy()
    const byAuditor = await call('auditor', 'POST', `/api/aml/reports/${report.id}/review`, {
      status: 'dismissed',
      note: 'perfil revisado',
      officer: 'Directora de Bingo',
    })
    expect([byAuditor.status, byAuditor.body.error.code]).toEqual([403, 'FORBIDDEN'])
    const byOfficer = await call('oficial', 'POST', `/api/aml/reports/${report.id}/review`, {
      status: 'dismissed',
      note: 'perfil revisado',
      officer: 'Directora de Bingo',
    })
    expect(byOfficer.status).toBe(200)
    const [reviewed] = await journal('aml.reviewed')
    expect(reviewed).toMatchObject({ officer: 'Ana Choque', actor: { name: 'Ana Choque', role: 'aml_officer' } })
  })

  it("blocks a card only by staff, with its code or a documented report, under the blocker's name (LST-4, LST-5)", async () => {
    await server.services.bingo.sell({ gameId: setup.gameId, count: 3, channel: 'test' })
    const cards = await server.services.db.all<{ id: string; serial: string }>(
      'SELECT id, serial FROM cards WHERE game_id = ? ORDER BY card_no',
      [setup.gameId],
    )
    const code = server.services.cashdesk.payouts.cardCode(cards[0].id)
    const byCashier = await call('cajera', 'POST', '/api/tickets/block', { code, reason: 'lost' })
    expect([byCashier.status, byCashier.body.error.code]).toEqual([403, 'FORBIDDEN'])
    const noProof = await call('jefe', 'POST', '/api/tickets/block', {
      gameId: setup.gameId,
      serial: cards[1].serial,
      reason: 'stolen',
    })
    expect([noProof.status, noProof.body.error.code]).toEqual([400, 'VALIDATION_FAILED'])
    const withReport = await call('jefe', 'POST', '/api/tickets/block', {
      gameId: setup.gameId,
      serial: cards[1].serial,
      reason: 'stolen',
      reportRef: 'FELCC-2026-118',
    })
    expect(withReport.status).toBe(201)
    const byCode = await call('jefe', 'POST', '/api/tickets/block', {
      code,
      reason: 'lost',
      reportedBy: 'Directora de Bingo',
    })
    expect(byCode.status).toBe(201)
    const blocked = await journal('ticket.blocked')
    expect(blocked.map((b) => b.reportedBy)).toEqual(['Luis Mamani', 'Luis Mamani'])
  })

  it('reverses a block only by a director with a second person, both journaled (issue 14 point 6)', async () => {
    const cards = await server.services.db.all<{ id: string; serial: string }>(
      'SELECT id, serial FROM cards WHERE game_id = ? ORDER BY card_no',
      [setup.gameId],
    )
    const code = server.services.cashdesk.payouts.cardCode(cards[0].id)
    const byJefe = await call('jefe', 'POST', '/api/tickets/unblock', { code, reason: 'el jugador encontró el cartón' })
    expect([byJefe.status, byJefe.body.error.code]).toEqual([403, 'FORBIDDEN'])
    // Without the second person, with herself as the second, with a wrong password: refused, nothing changes.
    for (const headers of [{}, secondPerson('jefa'), secondPerson('jefe', 'wrong password')]) {
      const r = await call(
        'jefa',
        'POST',
        '/api/tickets/unblock',
        { code, reason: 'el jugador encontró el cartón' },
        headers,
      )
      expect([r.status, r.body.error.code]).toEqual([403, 'SECOND_PERSON_REQUIRED'])
    }
    expect((await call('jefe', 'POST', '/api/tickets/validate', { code })).body).toMatchObject({ status: 'blocked' })
    const ok = await call(
      'jefa',
      'POST',
      '/api/tickets/unblock',
      { code, reason: 'el jugador encontró el cartón' },
      secondPerson('jefe'),
    )
    expect(ok.status).toBe(200)
    const [unblocked] = await journal('ticket.unblocked')
    expect(unblocked).toMatchObject({
      serial: cards[0].serial,
      by: 'Marta Quispe',
      witness: 'Luis Mamani',
      actor: { name: 'Marta Quispe', role: 'director' },
    })
    expect((await call('jefe', 'POST', '/api/tickets/validate', { code })).body.status).not.toBe('blocked')
  })
})
