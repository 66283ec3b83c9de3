import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from '../helpers/cashier.ts'
import { plan649, registerLottoBallSets } from '../helpers/lottery-plans.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/**
 * GEN-21 (5) / GEN-23 (issue 23 point 3): a refund returns a player's own stake, so an excluded buyer gets it back,
 * and the hall's chain says a person on the list was refunded; a prize stays withheld from him. Decided in the
 * payout's transaction from the buyer the slip records, never from the body. Real HTTP, authentication on, an
 * enrolled station, a manual draw; on SQLite and PostgreSQL.
 */
describe('GEN-21 / GEN-23: an excluded buyer is refunded his stake, never paid a prize (auth on)', () => {
  let server: Server
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let jefa = ''
  let till: Till
  const EXCLUDED = 'CI 4300001 LP'
  const slips: Record<'annulled' | 'winning', { code: string; receipt: string; price: number }> = {
    annulled: { code: '', receipt: '', price: 0 },
    winning: { code: '', receipt: '', price: 0 },
  }
  const boss = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: jefa, 'accept-language': 'es' })
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, params))!.n)
  const expected = async () =>
    (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift.expectedCents as number
  const journalOf = (type: string) =>
    server.services.db.all<{ scope: string; payload: string }>(
      'SELECT scope, payload FROM journal WHERE type = ? ORDER BY seq',
      [type],
    )
  const payToBuyer = (code: string) =>
    api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code, payeeName: 'Pedro Excluido', payeeDocument: EXCLUDED },
      till.headers,
    )

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null, checkpointIntervalMs: 0 }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await server.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
    })
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    // LNS-8: a manual draw on a registered, sealed tómbola.
    expect(
      (
        await boss('POST', '/api/devices', {
          id: 'tombola-8',
          kind: 'blower',
          name: 'Tómbola de sorteos',
          sealCode: 'AJ-T-0008',
          certificateId: 'AJ-CERT-2024-08',
        })
      ).status,
    ).toBe(201)
    const d = await boss(
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'REINT', drawNumber: 1, drawMethod: 'manual', drawDevice: 'AJ-T-0008' }),
    )
    expect(d.status, JSON.stringify(d.body)).toBe(201)
    const drawId = d.body.drawId as string
    // Two named slips of the same buyer: one annulled before the close (LNS-21: its price back), one with three of
    // the balls drawn (C3).
    for (const [k, board] of [
      ['annulled', [20, 21, 22, 30, 31, 32]],
      ['winning', [1, 2, 3, 40, 41, 42]],
    ] as const) {
      const s = await server.services.lotto.sellSlip({
        drawId,
        boards: [[...board]],
        player: { name: 'Pedro Excluido', document: EXCLUDED },
        channel: 'counter',
      })
      slips[k] = { code: s.code, receipt: s.receiptNumber, price: s.amountCents }
    }
    const annul = await boss('POST', `/api/lotto/slips/${slips.annulled.receipt}/annul`, {
      reason: 'Error de impresión en terminal 3',
    })
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    t = Date.parse('2025-03-08T19:01:00-04:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    expect((await boss('POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
    t += 30 * 60_000
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    await registerLottoBallSets(server.services)
    // LNS-21: a slip was annulled, so the notarial act listing it comes before the draw.
    const act = await boss('POST', `/api/lotto/draws/${drawId}/notarial-act`, {
      notary: 'Notaría de Fe Pública N.º 12',
      actNumber: 'AN-2025-0312',
    })
    expect(act.status, JSON.stringify(act.body)).toBe(201)
    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await boss('POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
    expect((await boss('POST', `/api/lotto/draws/${drawId}/settle`)).status).toBe(200)
    // The buyer is excluded by the hall after the draw.
    const excluded = await boss('POST', '/api/players/exclusions', {
      document: EXCLUDED,
      name: 'Pedro Excluido',
      kind: 'self_excluded',
      reason: 'autoexclusión en sala',
      hallId: 'lapaz',
    })
    expect(excluded.status, JSON.stringify(excluded.body)).toBe(201)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it("GEN-21 (5): the excluded buyer's annulled slip is refunded to him, out of the drawer, once; the hall's chain records a person on the list refunded", async () => {
    const before = await expected()
    const r = await payToBuyer(slips.annulled.code)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.payout.amountCents).toBe(slips.annulled.price)
    expect(before - (await expected())).toBe(slips.annulled.price)
    const marks = await journalOf('player.refunded_excluded')
    expect(marks).toHaveLength(1)
    expect(marks[0].scope).toBe('hall:lapaz')
    expect(JSON.parse(marks[0].payload)).toMatchObject({
      kind: 'self_excluded',
      amountCents: slips.annulled.price,
      rule: 'GEN-21',
    })
    // No refusal: it was paid.
    expect(await journalOf('player.refused')).toHaveLength(0)
    // Once.
    const again = await payToBuyer(slips.annulled.code)
    expect(again.status).toBe(409)
    expect(before - (await expected())).toBe(slips.annulled.price)
  })

  it('GEN-23 / GEN-27: his winning slip is still withheld when he presents it himself: 403, nothing paid, the refusal journaled', async () => {
    const before = await expected()
    const payouts = await n('SELECT COUNT(*) AS n FROM lottery_payouts')
    const r = await payToBuyer(slips.winning.code)
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([403, 'PLAYER_EXCLUDED'])
    expect(await expected()).toBe(before)
    expect(await n('SELECT COUNT(*) AS n FROM lottery_payouts')).toBe(payouts)
    expect(await journalOf('player.refused')).toHaveLength(1)
    expect(await journalOf('player.refunded_excluded')).toHaveLength(1)
  })
})
