import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649, registerLottoBallSets } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * Issue 18, lotto rules over real HTTP with authentication on:
 * - LNS-4: money rolled over follows its category code, or the next plan's explicit carryMap; a plan that would
 *   drop it is refused (ROLLOVER_UNMAPPED), and the extracto states the carried-in amount.
 * - LNS-22 / LOT-21: an authorised withdrawal or renunciation cancels a draw not yet drawn; each slip is refunded
 *   the price of its boards for that draw, once, at a cashier against its code, out of the open shift's drawer.
 */
const PASSWORD = 'correct horse battery'

describe('lotto carry-over and cancellation (issue 18, auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  let till: Till
  async function login() {
    for (const username of ['jefa', 'mesa', 'auditor'])
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    if (till) await till.relogin()
  }
  // LNS-8: the tómbola is a registered, sealed and certified device, named by its seal code.
  const manual = { drawMethod: 'manual' as const, drawDevice: 'AJ-T-0007' }
  // One pari-mutuel category that nobody can win with balls 1..6 drawn against boards far from them.
  const shares = (code: string, name: string) => [
    { code, name, matches: 6, prize: { type: 'share' as const, bp: 10_000 } },
  ]

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null }, { clock })
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const
    for (const [username, displayName, role] of people)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    // LNS-9: the 49-ball set and its reserve the manual draws are made with.
    await registerLottoBallSets(server.services)
    await server.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
    })
    await login()
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 10_000,
    })
    const tombola = await call('jefa', 'POST', '/api/devices', {
      id: 'tombola-7',
      kind: 'blower',
      name: 'Tómbola de sorteos',
      sealCode: 'AJ-T-0007',
      certificateId: 'AJ-CERT-2024-07',
    })
    expect(tombola.status).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  async function drawAndSettle(drawId: string) {
    expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
    // LNS-14: the draw waits the profile's hold after the participation file is published.
    t += 30 * 60_000
    await login()
    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
    return call('jefa', 'POST', `/api/lotto/draws/${drawId}/settle`)
  }

  it('LNS-4: a plan whose categories drop the rolled-over money is refused; an explicit carryMap takes it, and the extracto states the carried-in amount', async () => {
    // Draw 1 (category MAYOR), sold but unwon: its pool rolls over.
    const d1 = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'CARRY', drawNumber: 1, ...manual, categories: shares('MAYOR', 'Premio Mayor') }),
    )
    expect(d1.status).toBe(201)
    await server.services.lotto.sellSlip({
      drawId: d1.body.drawId,
      boards: [[40, 41, 42, 43, 44, 45]],
      player: { name: 'Ana Quispe', document: '445566 LP' },
      channel: 'counter',
    })
    // Draw 2 renames the category: without a map the money would disappear silently, so the plan is refused.
    const lost = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'CARRY', drawNumber: 2, ...manual, categories: shares('ORO', 'Oro Mágico') }),
    )
    expect(lost.status).toBe(409)
    expect(lost.body.error.code).toBe('ROLLOVER_UNMAPPED')
    expect(lost.body.error.detail).toMatch(/MAYOR.*LNS-4/)
    const badMap = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'CARRY',
        drawNumber: 2,
        ...manual,
        categories: shares('ORO', 'Oro Mágico'),
        carryMap: { MAYOR: 'NADA' },
      }),
    )
    expect(badMap.status).toBe(400)
    expect(badMap.body.error.details.problems[0]).toMatchObject({ field: 'carryMap.MAYOR', rule: 'LNS-4' })
    const d2 = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'CARRY',
        drawNumber: 2,
        ...manual,
        salesStartAt: '2025-03-01T08:00:00-04:00',
        salesCloseAt: '2025-03-09T19:00:00-04:00',
        drawAt: '2025-03-09T20:00:00-04:00',
        claimDeadline: '2025-05-08T23:59:59-04:00',
        categories: shares('ORO', 'Oro Mágico'),
        carryMap: { MAYOR: 'ORO' },
      }),
    )
    expect(d2.status).toBe(201)

    t = Date.parse('2025-03-08T20:05:00-04:00')
    await login()
    const s1 = await drawAndSettle(d1.body.drawId)
    expect(s1.status).toBe(200)
    const rolled = s1.body.categories[0].carryOutCents as number
    expect(rolled).toBe(250) // one board of 500, half to the pool, nobody won
    t = Date.parse('2025-03-09T20:05:00-04:00')
    await login()
    const s2 = await drawAndSettle(d2.body.drawId)
    expect(s2.status).toBe(200)
    expect(s2.body.categories[0]).toMatchObject({ code: 'ORO', carryInCents: rolled, carryOutCents: rolled })
    const ex = await call('auditor', 'GET', `/api/lotto/draws/${d2.body.drawId}/extracto`)
    expect(ex.body.carriedInCents).toBe(rolled)
    expect(ex.body.carriedIn).toEqual([{ from: 'MAYOR', to: 'ORO', cents: rolled }])
    expect(ex.body.categories[0].carryInCents).toBe(rolled)
    const pdf = await fetch(`${server.url}/api/lotto/draws/${d2.body.drawId}/extracto.pdf`, {
      headers: { authorization: auth.get('auditor')! },
    })
    expect(pdf.status).toBe(200)
  })

  it('LNS-4: when a cancelled draw sits between, the carry passes on to the next draw (guarded at settlement, never dropped)', async () => {
    // Draw 3 keeps ORO; draw 2 rolled 250 + 0 sales over under ORO.
    const d3 = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'CARRY',
        drawNumber: 3,
        ...manual,
        salesStartAt: '2025-03-09T20:10:00-04:00',
        salesCloseAt: '2025-03-12T19:00:00-04:00',
        drawAt: '2025-03-12T20:00:00-04:00',
        claimDeadline: '2025-05-11T23:59:59-04:00',
        categories: shares('ORO', 'Oro Mágico'),
      }),
    )
    expect(d3.status).toBe(201)
    const cancelled = await call('jefa', 'POST', `/api/lotto/draws/${d3.body.drawId}/cancel`, {
      kind: 'renunciation',
      authorisationRef: 'AJ-RA-2025-0400',
      reason: 'Renuncia autorizada por la AJ',
    })
    expect(cancelled.status).toBe(200)
    const d4 = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'CARRY',
        drawNumber: 4,
        ...manual,
        salesStartAt: '2025-03-09T20:10:00-04:00',
        salesCloseAt: '2025-03-13T19:00:00-04:00',
        drawAt: '2025-03-13T20:00:00-04:00',
        claimDeadline: '2025-05-12T23:59:59-04:00',
        categories: shares('ORO', 'Oro Mágico'),
      }),
    )
    expect(d4.status).toBe(201)
    t = Date.parse('2025-03-13T20:05:00-04:00')
    await login()
    const s4 = await drawAndSettle(d4.body.drawId)
    expect(s4.status).toBe(200)
    expect(s4.body.categories[0]).toMatchObject({ code: 'ORO', carryInCents: 250 })
  })

  describe('LNS-22 / LOT-21: cancellation (withdrawal or renunciation) and the refund of its slips', () => {
    let drawId = ''
    let next = ''
    let single = { code: '', receiptNumber: '' }
    let spanning = { code: '', receiptNumber: '' }

    beforeAll(async () => {
      t = Date.parse('2025-03-14T10:00:00-04:00')
      await login()
      const dates = (day: number) => ({
        salesStartAt: '2025-03-14T08:00:00-04:00',
        salesCloseAt: `2025-03-${day}T19:00:00-04:00`,
        drawAt: `2025-03-${day}T20:00:00-04:00`,
        claimDeadline: '2025-05-30T23:59:59-04:00',
      })
      const a = await call(
        'jefa',
        'POST',
        '/api/lotto/draws',
        plan649({ gameCode: 'CANCEL', drawNumber: 1, ...manual, ...dates(20), maxDrawsPerSlip: 2 }),
      )
      const b = await call(
        'jefa',
        'POST',
        '/api/lotto/draws',
        plan649({ gameCode: 'CANCEL', drawNumber: 2, ...manual, ...dates(27), maxDrawsPerSlip: 2 }),
      )
      drawId = a.body.drawId
      next = b.body.drawId
      const sale = async (boards: number[][], draws: number) =>
        (
          await api(
            server.url,
            'POST',
            `/api/lotto/draws/${drawId}/slips`,
            { ageConfirmed: true, boards, draws, player: { name: 'Ana Quispe', document: '445566 LP' } },
            till.headers,
          )
        ).body
      single = await sale(
        [
          [1, 2, 3, 4, 5, 6],
          [7, 8, 9, 10, 11, 12],
        ],
        1,
      ) // 2 boards x 500, draw 1 only
      spanning = await sale([[13, 14, 15, 16, 17, 18]], 2) // 1 board x 500 for draws 1 and 2
      expect(single.code).toBeTruthy()
      expect(spanning.code).toBeTruthy()
    })

    it('LNS-22: only the director (lottery.admin) cancels, with the AJ authorisation reference and a reason; never a drawn draw', async () => {
      const body = {
        kind: 'withdrawal',
        authorisationRef: 'AJ-RA-2025-0500',
        reason: 'Desistimiento solicitado por el gobierno municipal',
      }
      expect(
        (await call('jefa', 'POST', `/api/lotto/draws/${drawId}/cancel`, { ...body, authorisationRef: '' })).status,
      ).toBe(400)
      for (const who of ['mesa', 'auditor'])
        expect((await call(who, 'POST', `/api/lotto/draws/${drawId}/cancel`, body)).status, who).toBe(403)
      expect((await api(server.url, 'POST', `/api/lotto/draws/${drawId}/cancel`, body, till.headers)).status).toBe(403)
      const ok = await call('jefa', 'POST', `/api/lotto/draws/${drawId}/cancel`, body)
      expect(ok.status).toBe(200)
      expect(ok.body.status).toBe('cancelled')
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/cancel`, body)).status).toBe(409)
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(409)
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/settle`)).status).toBe(409)
      const sale = await api(
        server.url,
        'POST',
        `/api/lotto/draws/${drawId}/slips`,
        { ageConfirmed: true, boards: [[1, 2, 3, 4, 5, 6]], player: { name: 'Ana Quispe', document: '445566 LP' } },
        till.headers,
      )
      expect(sale.status).toBe(409)
      const journal = (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Array<{
        type: string
        payload: any
      }>
      const acta = await call('auditor', 'GET', `/api/lotto/draws/${drawId}/acta`)
      expect(acta.body.cancellation).toMatchObject({
        kind: 'withdrawal',
        authorisationRef: 'AJ-RA-2025-0500',
        slipsToRefund: 2,
        refundCents: 1500,
      })
      const pdf = await fetch(`${server.url}/api/lotto/draws/${drawId}/acta.pdf`, {
        headers: { authorization: auth.get('auditor')! },
      })
      expect(pdf.status).toBe(200)
      mkdirSync('test-output/lotto-cancel', { recursive: true })
      writeFileSync('test-output/lotto-cancel/acta.pdf', Buffer.from(await pdf.arrayBuffer()))
      expect(
        journal.find((r) => r.type === 'lotto.draw_cancelled' && r.payload.drawId === drawId)!.payload,
      ).toMatchObject({
        kind: 'withdrawal',
        authorisationRef: 'AJ-RA-2025-0500',
        slipsToRefund: 2,
        refundCents: 1500,
        rule: 'LNS-22',
        actor: { kind: 'person', role: 'director' },
      })
    })

    it("LNS-22: each slip is refunded its boards' price for the cancelled draw, once, at the cashier against its code, out of the open shift's drawer", async () => {
      const before = (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift
        .expectedCents as number
      const v = await api(server.url, 'POST', '/api/tickets/validate', { code: single.code }, till.headers)
      expect(v.body).toMatchObject({ outcome: 'REFUND_ONLY', amountCents: 1000 })
      expect(v.body.reason).toMatch(/LNS-22/)
      const payee = { payeeName: 'Ana Quispe', payeeDocument: '445566 LP' }
      const paid = await api(server.url, 'POST', '/api/tickets/pay', { code: single.code, ...payee }, till.headers)
      expect(paid.status).toBe(200)
      expect(paid.body.payout).toMatchObject({ outcome: 'REFUND_ONLY', amountCents: 1000 })
      const again = await api(server.url, 'POST', '/api/tickets/pay', { code: single.code, ...payee }, till.headers)
      expect(again.status).toBe(409)
      expect(again.body.error.code).toBe('ALREADY_PAID')
      // The two-draw slip gets back only what it paid for the cancelled draw; draw 2 still plays.
      const span = await api(server.url, 'POST', '/api/tickets/pay', { code: spanning.code, ...payee }, till.headers)
      expect(span.body.payout).toMatchObject({ outcome: 'REFUND_ONLY', amountCents: 500 })
      expect(span.body.payout.payouts).toEqual([expect.objectContaining({ drawId, amountCents: 500 })])
      expect(
        (await api(server.url, 'POST', '/api/tickets/validate', { code: spanning.code }, till.headers)).body.outcome,
      ).toBe('PENDING')
      const after = (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift
        .expectedCents as number
      expect(before - after).toBe(1500)
      const journal = (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Array<{
        type: string
        payload: any
      }>
      expect(journal.filter((r) => r.type === 'lotto.refund_paid' && r.payload.drawId === drawId)).toHaveLength(2)
      expect(next).toBeTruthy()
    })
  })
})
