import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { openTill } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 14 point 8 over real HTTP with authentication on: self-excluded and prohibited players (GEN-23, GEN-27),
 * found by their identity document however it is spelled, are refused at a voucher sale above the ID threshold,
 * a named lotto slip sale and a payout that asks for an ID; lifting the exclusion admits them again.
 */
const PASSWORD = 'correct horse battery'

describe('exclusion list at sales and payouts (issue 14 point 8)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup
  const tokens = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' })
  let exclusionId = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    setup = await hallWithGameOnSale(server.services)
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['oficial', 'Ana Choque', 'aml_officer'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD, halls: [setup.hallId] })
      tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)
    }
    // The cashier works logged in at her enrolled station with her shift open (issue 13 point 5).
    tokens.set(
      'cajera',
      (
        await openTill(server.url, server.services, {
          hallId: setup.hallId,
          username: 'cajera',
          password: PASSWORD,
          stationName: 'Caja 1',
        })
      ).token,
    )
  })
  afterAll(async () => server?.cleanup())

  it('lets the AML officer or director list a player, and not a cashier', async () => {
    const entry = {
      document: '12.345.678-LP',
      name: 'Juan Pérez',
      kind: 'self_excluded',
      reason: 'autoexclusión firmada en sala',
    }
    expect((await call('cajera', 'POST', '/api/players/exclusions', entry)).status).toBe(403)
    const r = await call('oficial', 'POST', '/api/players/exclusions', entry)
    expect(r.status).toBe(201)
    // Issue 24 point 6: kept as typed for display, matched by its key (the issuing department is not part of it).
    expect(r.body.document).toBe('12.345.678-LP')
    expect(r.body.documentKey).toBe('12345678')
    exclusionId = r.body.id
  })

  it('refuses the excluded player at a voucher sale, a named lotto slip and a payout, in Spanish (GEN-23, GEN-27)', async () => {
    const sale = await call('cajera', 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 2_000_000,
      cash: countOf(2_000_000),
      stationId: 'caja-1',
      cashierId: 'x',
      buyerDocument: '12345678 lp',
    })
    expect([sale.status, sale.body.error.code]).toEqual([403, 'PLAYER_EXCLUDED'])
    expect(sale.body.error.message).toMatch(/excluida del juego/)
    const slip = await call('cajera', 'POST', '/api/lotto/draws/any/slips', {
      ageConfirmed: true,
      player: { name: 'Juan Pérez', document: '12345678-LP' },
    })
    expect([slip.status, slip.body.error.code]).toEqual([403, 'PLAYER_EXCLUDED'])
    const payout = await call('cajera', 'POST', '/api/tickets/pay', {
      code: 'BLL1.C.x.y',
      stationId: 'caja-1',
      cashierId: 'x',
      payeeDocument: '12345678LP',
      payeeName: 'Juan Pérez',
    })
    // A payout is decided by the payout itself, from what it pays and to whom (a prize is withheld, a stake refunded:
    // payout-exclusion.test.ts, refund-exclusion.test.ts): a code that is no ticket pays nothing, whoever presents it.
    expect([payout.status, payout.body.error.code]).toEqual([422, 'INVALID_SIGNATURE'])
    const refused = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'player.refused'",
    )
    expect(refused.length).toBe(2)
    // The journal keeps the refusal and who served, not the player's document.
    expect(refused.map((r) => r.payload).join()).not.toContain('12345678')
    expect(JSON.parse(refused[0].payload).actor).toMatchObject({ name: 'Rosa Vargas' })
    // Another player is served.
    const other = await call('cajera', 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 2_000_000,
      cash: countOf(2_000_000),
      stationId: 'caja-1',
      cashierId: 'x',
      buyerDocument: '7654321 LP',
    })
    expect(other.status).toBe(201)
  })

  it("GEN-21 (4): the excluded player lodges a complaint in the hall's book, and is still refused a card sale, a voucher, a named slip and a payout (GEN-23, GEN-27)", async () => {
    const complaint = await call('cajera', 'POST', `/api/halls/${setup.hallId}/complaints`, {
      playerName: 'Juan Pérez',
      playerDocument: '12345678 LP',
      text: 'No me dejaron comprar cartones: pido que revisen mi autoexclusión.',
    })
    expect(complaint.status, JSON.stringify(complaint.body)).toBe(201)
    const book = await call('jefa', 'GET', `/api/halls/${setup.hallId}/complaints`)
    expect(JSON.stringify(book.body)).toContain('pido que revisen mi autoexclusión')
    // Exclusion still bars play: the card sale names the player, the voucher its buyer, the slip its player (a prize is
    // barred by the payout itself: payout-exclusion.test.ts).
    const refusals = await server.services.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM journal WHERE type = 'player.refused'",
    )
    for (const [path, sale] of [
      [`/api/games/${setup.gameId}/sales`, { count: 1, ageConfirmed: true, playerDocument: '12.345.678' }],
      [
        '/api/vouchers',
        { hallId: setup.hallId, amountCents: 2_000_000, cash: countOf(2_000_000), buyerDocument: '12345678' },
      ],
      ['/api/lotto/draws/any/slips', { ageConfirmed: true, player: { name: 'Juan Pérez', document: '12345678' } }],
    ] as const) {
      const r = await call('cajera', 'POST', path, sale)
      expect([path, r.status, r.body.error?.code]).toEqual([path, 403, 'PLAYER_EXCLUDED'])
    }
    const after = await server.services.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM journal WHERE type = 'player.refused'",
    )
    expect(Number(after!.n) - Number(refusals!.n)).toBe(3)
  })

  it('admits the player again once the exclusion is lifted (journaled)', async () => {
    expect((await call('jefa', 'POST', `/api/players/exclusions/${exclusionId}/lift`)).status).toBe(200)
    const sale = await call('cajera', 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 2_000_000,
      cash: countOf(2_000_000),
      stationId: 'caja-1',
      cashierId: 'x',
      buyerDocument: '12345678LP',
    })
    expect(sale.status).toBe(201)
    expect(
      await server.services.db.get("SELECT 1 AS x FROM journal WHERE type = 'player.exclusion-lifted'"),
    ).toBeTruthy()
  })

  it("CFG-4 / GEN-23 (6): a person on an international list (Bolivia 2025: the UIF's) is prohibited with the list named, and refused at a sale", async () => {
    const entry = {
      document: '9988776 SC',
      name: 'Pedro Rojas',
      reason: 'UIF: persona en lista internacional',
      listSource: 'UIF, lista consolidada ONU 1267, corte 2026-11-01',
    }
    // A list entry is a prohibition, never a self-exclusion.
    const self = await call('oficial', 'POST', '/api/players/exclusions', { ...entry, kind: 'self_excluded' })
    expect(self.status, JSON.stringify(self.body)).toBe(400)
    expect(self.body.error.details).toMatchObject({ field: 'kind', rule: 'GEN-23' })
    const r = await call('oficial', 'POST', '/api/players/exclusions', { ...entry, kind: 'prohibited' })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const listed = (await call('jefa', 'GET', '/api/players/exclusions')).body.exclusions as Array<{
      id: string
      listSource: string | null
    }>
    expect(listed.find((e) => e.id === r.body.id)).toMatchObject({ listSource: entry.listSource })
    const rec = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'player.excluded' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ listSource: entry.listSource, authority: 'UIF', rule: 'GEN-23' })
    const sale = await call('cajera', 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 2_000_000,
      cash: countOf(2_000_000),
      stationId: 'caja-1',
      cashierId: 'x',
      buyerDocument: '9988776',
    })
    expect([sale.status, sale.body.error.code]).toEqual([403, 'PLAYER_EXCLUDED'])
  })
})

describe('CFG-4: a profile that names no international lists takes no entry from one (Cantabria)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  afterAll(async () => server?.cleanup())

  it("refuses an exclusion with a list source (422, in Spanish) and takes the hall's own prohibition", async () => {
    server = await startTestServer({ auth: 'on', profileId: 'ES-CB-2010' })
    await server.services.auth.createUser({
      username: 'oficial',
      displayName: 'Ana Choque',
      role: 'aml_officer',
      password: PASSWORD,
    })
    const token = (await server.services.auth.login('oficial', PASSWORD)).token
    const post = (body: unknown) =>
      api(server.url, 'POST', '/api/players/exclusions', body, {
        authorization: `Bearer ${token}`,
        'accept-language': 'es',
      })
    const entry = { document: '12345678Z', name: 'Luis Gómez', kind: 'prohibited', reason: 'prohibición de la sala' }
    const listed = await post({ ...entry, listSource: 'UIF, lista ONU 1267' })
    expect(listed.status, JSON.stringify(listed.body)).toBe(422)
    expect(listed.body.error).toMatchObject({ code: 'RULE_DISABLED', details: { field: 'listSource', rule: 'CFG-4' } })
    expect(listed.body.error.message).toMatch(/[a-záéíóúñ]/)
    expect((await post(entry)).status).toBe(201)
  })
})
