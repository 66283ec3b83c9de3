import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countOf } from '../helpers/cash.ts'
import { nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import {
  cashierHall,
  kioskCardsBoughtBy,
  PASSWORD,
  printedInstant,
  secondPersonHeader,
  type CashierHall,
} from '../helpers/cashier.ts'
import { plan649, registerLottoBallSets } from '../helpers/lottery-plans.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/**
 * The person of `document` is excluded the moment the next transaction begins (the payout's): the request-level check
 * of the body's documents, made before, saw no exclusion, so only the use case's own check can refuse.
 */
function excludedWhenThePayoutBegins(server: Server, document: string) {
  const db = server.services.db
  const transaction = db.transaction
  db.transaction = ((fn, options) => {
    db.transaction = transaction
    return server.services.players
      .exclude({ document, name: 'Jugador Excluido', kind: 'self_excluded', reason: 'exclusión en sala' }, 'pruebas')
      .then(() => transaction.call(db, fn, options))
  }) as typeof transaction
  return () => {
    db.transaction = transaction
  }
}

/**
 * GEN-23 / GEN-27 (issue 23 point 3: "the exclusion list is checked on the identities the use case reads"): every
 * payout asks the exclusion list, inside its own transaction, about the payee it records and the identified buyer of
 * what it pays (a card bought with a named voucher, a voucher whose buyer was recorded), in the hall of the card or
 * voucher, whatever the request body carries. An excluded buyer's winning card and voucher are refused with no
 * document in the body at all; nothing is paid, the drawer does not move, and the refusal is journaled in the hall's
 * chain; the same payout is made for a buyer who is not excluded. Over real HTTP, authentication on, enrolled
 * stations, people with passwords; on SQLite and on PostgreSQL (BOLILLO_TEST_DATABASE_URL).
 */
describe('GEN-23 / GEN-27: a payout asks the exclusion list about the buyer it reads, not only the body (auth on)', () => {
  let server: Server
  let h: CashierHall
  const EXCLUDED = 'CI 4100001 LP'
  const ADMITTED = 'CI 4100002 LP'
  /** The winning cards of a game whose every card the excluded buyer bought, and of one bought by the other. */
  let excludedCards: Awaited<ReturnType<typeof winningCodes>> = []
  const admittedCards: Awaited<ReturnType<typeof winningCodes>> = []
  let excludedGame = ''
  const vouchers: Record<'excluded' | 'admitted', string> = { excluded: '', admitted: '' }
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, params))!.n)
  /** What a payout would change: the payer's shift, the prizes paid and payouts made, the refusals in the hall's chain. */
  const ledger = async () => {
    const shift = (await h.call('cajero@caja2', 'GET', '/api/shifts/current')).body.shift
    return {
      expectedCents: shift.expectedCents as number,
      outCents: shift.outCents as number,
      payouts: await n('SELECT COUNT(*) AS n FROM payouts'),
      paidPrizes: await n('SELECT COUNT(*) AS n FROM prizes WHERE paid_at IS NOT NULL'),
      cashouts: await n("SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'voucher_cashout'"),
      refusals: await n("SELECT COUNT(*) AS n FROM journal WHERE type = 'player.refused' AND scope = ?", [
        `hall:${h.setup.hallId}`,
      ]),
    }
  }
  const refusedWithNothingPaid = async (
    r: { status: number; body: any },
    before: Awaited<ReturnType<typeof ledger>>,
  ) => {
    expect([r.status, r.body.error?.code], JSON.stringify(r.body.error ?? r.status)).toEqual([403, 'PLAYER_EXCLUDED'])
    // In Spanish, with no code or internal id on the screen.
    expect(r.body.error.message).toMatch(/exclu/i)
    expect(r.body.error.message).not.toMatch(/PLAYER_EXCLUDED|px_/)
    // Nothing paid, the drawer as it was, the refusal on record once in the hall's own chain.
    expect(await ledger()).toEqual({ ...before, refusals: before.refusals + 1 })
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 500_000 })).status).toBe(201)
    // One game whose every card the (soon excluded) buyer bought with a voucher naming him; one of the other buyer's.
    excludedGame = h.setup.gameId
    await kioskCardsBoughtBy(h, EXCLUDED, excludedGame, 40)
    await playToTheEnd(server.services, excludedGame)
    excludedCards = await winningCodes(server.services, excludedGame)
    // One card may win both the line and the bingo: play admitted buyers' games until two of their cards won. Each
    // round is another admitted player, since one who kept his cards of the last game buys none (BNG-15).
    for (let round = 0; round < 5 && admittedCards.length < 2; round++) {
      const admittedGame = await nextGameOnSale(server.services, h.setup)
      await kioskCardsBoughtBy(h, round === 0 ? ADMITTED : `CI 410010${round} LP`, admittedGame, 40)
      await playToTheEnd(server.services, admittedGame)
      admittedCards.push(...(await winningCodes(server.services, admittedGame)))
    }
    expect(admittedCards.length).toBeGreaterThanOrEqual(2)
    // A voucher of each buyer, to cash out.
    for (const [k, buyer] of [
      ['excluded', EXCLUDED],
      ['admitted', ADMITTED],
    ] as const) {
      const sold = await h.call('cajero@caja2', 'POST', '/api/vouchers', {
        hallId: h.setup.hallId,
        amountCents: 3000,
        cash: countOf(3000),
        buyerDocument: buyer,
      })
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      vouchers[k] = sold.body.voucher.code
    }
    // From here the hall's rules let a card be handed on to another player (BO-2013: no BNG-85 bar; its games are
    // played with a blower, so the games above were played under BO-2025): nothing but the exclusion checks stands
    // between an excluded buyer's card, or an excluded payee, and the drawer.
    await server.services.db.run("UPDATE halls SET profile_id = 'BO-2013' WHERE id = ?", [h.setup.hallId])
    // The hall's director excludes the first buyer after he bought (GEN-27: "desde el próximo pase").
    const excluded = await h.call('jefa', 'POST', '/api/players/exclusions', {
      document: EXCLUDED,
      name: 'Pedro Excluido',
      kind: 'self_excluded',
      reason: 'autoexclusión en sala',
      hallId: h.setup.hallId,
    })
    expect(excluded.status, JSON.stringify(excluded.body)).toBe(201)
  }, 180_000)
  afterAll(async () => server?.cleanup())

  it("GEN-23 / GEN-27: the excluded buyer's winning card is refused at the cash desk (POST /api/tickets/pay) with no document in the body; nothing paid, the refusal in the hall's chain", async () => {
    const [w] = excludedCards
    const before = await ledger()
    const r = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: w.code })
    await refusedWithNothingPaid(r, before)
    // Withheld, not forfeited: the card still reads as a winner.
    expect((await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: w.code })).body.status).toBe('winner')
    // A body that is not JSON reaches no payout at all.
    const text = await api(server.url, 'POST', '/api/tickets/pay', JSON.stringify({ code: w.code }), {
      authorization: `Bearer ${h.tokens.get('cajero@caja2')}`,
      'content-type': 'text/plain',
    })
    expect(text.status).toBe(415)
    expect(await ledger()).toEqual({ ...before, refusals: before.refusals + 1 })
  })

  it("GEN-23 / GEN-27: the same card is refused at the table's route (POST /api/prizes/:prizeId/pay) too", async () => {
    const [w] = excludedCards
    const prize = (await server.services.bingo.listPrizes(excludedGame)).find((p) => p.cardId === w.cardId)!
    const before = await ledger()
    const r = await h.call('cajero@caja2', 'POST', `/api/prizes/${prize.id}/pay`, { code: w.code })
    await refusedWithNothingPaid(r, before)
  })

  it('GEN-23 / GEN-27: a voucher whose recorded buyer is excluded is not cashed out (no document in the body); it keeps its credit', async () => {
    const before = await ledger()
    const r = await h.call('cajero@caja2', 'POST', '/api/vouchers/cashout', { code: vouchers.excluded })
    await refusedWithNothingPaid(r, before)
    const check = await h.call('cajero@caja2', 'POST', '/api/vouchers/check', { code: vouchers.excluded })
    expect(check.body.status ?? check.body.voucher?.status).toBe('active')
  })

  it('pays the buyer who is not excluded, by the same routes: his card and his voucher', async () => {
    const [w] = admittedCards
    const before = await ledger()
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: w.code,
      payeeName: 'Rosa Admitida',
      payeeDocument: ADMITTED,
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(w.amountCents)
    const cashed = await h.call('cajero@caja2', 'POST', '/api/vouchers/cashout', { code: vouchers.admitted })
    expect(cashed.status, JSON.stringify(cashed.body)).toBe(200)
    const after = await ledger()
    expect(after.outCents - before.outCents).toBe(w.amountCents + 3000)
    expect(after.refusals).toBe(before.refusals)
    expect(after.cashouts).toBe(before.cashouts + 1)
  })

  it('GEN-23: a payee excluded while the payout is under way (the buyer is not) is refused by the payout itself: a card and an instant ticket', async () => {
    // A card of the admitted buyer, collected by someone excluded after the request was read.
    const w = admittedCards[1]
    const cardPayee = 'CI 4100003 LP'
    const before = await ledger()
    let restore = excludedWhenThePayoutBegins(server, cardPayee)
    try {
      const r = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
        code: w.code,
        payeeName: 'Luis Excluido',
        payeeDocument: cardPayee,
      })
      await refusedWithNothingPaid(r, before)
    } finally {
      restore()
    }
    // A winning instant ticket (sold to no one named), presented by a payee excluded meanwhile.
    const tickets = await printedInstant(server.services, h.setup.hallId)
    const winner = tickets.find((t) => t.tier > 0)!
    const sold = await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
      ageConfirmed: true,
      code: winner.serial,
      hallId: h.setup.hallId,
    })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const instantPayouts = () => n('SELECT COUNT(*) AS n FROM instant_payouts')
    const paidBefore = await instantPayouts()
    const beforeInstant = await ledger()
    const instantPayee = 'CI 4100004 LP'
    restore = excludedWhenThePayoutBegins(server, instantPayee)
    try {
      const r = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
        code: winner.code,
        inventoryCode: winner.serial,
        payeeName: 'Eva Excluida',
        payeeDocument: instantPayee,
      })
      await refusedWithNothingPaid(r, beforeInstant)
    } finally {
      restore()
    }
    expect(await instantPayouts()).toBe(paidBefore)
  })
})

/**
 * GEN-23 / GEN-27 on the operator's draw games: a named lotto slip's buyer is read by the payout itself (the slip's
 * player), so a slip whose buyer is excluded is not paid to anyone, even to a third person the buyer authorised with a
 * supervisor's override (GEN-26), whose document alone is in the body. The list asked is that of the hall whose drawer
 * pays (a slip is the operator's, paid at any of its cash desks: LOT-25). Real HTTP, authentication on, an enrolled
 * station, a manual draw; on SQLite and PostgreSQL.
 */
describe('GEN-23 / GEN-27: a named lotto slip whose buyer is excluded is not paid, whoever collects it (auth on)', () => {
  let server: Server
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let jefa = ''
  let till: Till
  const slips: Record<'excluded' | 'admitted', string> = { excluded: '', admitted: '' }
  const EXCLUDED = 'CI 4200001 LP'
  const boss = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: jefa, 'accept-language': 'es' })
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, params))!.n)
  const ledger = async () => ({
    expectedCents: (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift
      .expectedCents as number,
    payouts: await n('SELECT COUNT(*) AS n FROM lottery_payouts'),
    refusals: await n("SELECT COUNT(*) AS n FROM journal WHERE type = 'player.refused' AND scope = 'hall:lapaz'"),
  })
  /** Paid to a third person the buyer authorised, under the director's override: the body names only that person. */
  const payToThirdPerson = (code: string) =>
    api(
      server.url,
      'POST',
      '/api/tickets/pay',
      {
        code,
        payeeName: 'Carla Tercera',
        payeeDocument: 'CI 4200009 LP',
        payeeAuthorisation: 'Carta de autorización firmada por el comprador',
      },
      { ...till.headers, ...secondPersonHeader('jefa') },
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
          id: 'tombola-7',
          kind: 'blower',
          name: 'Tómbola de sorteos',
          sealCode: 'AJ-T-0007',
          certificateId: 'AJ-CERT-2024-07',
        })
      ).status,
    ).toBe(201)
    const d = await boss(
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'EXCLU', drawNumber: 1, drawMethod: 'manual', drawDevice: 'AJ-T-0007' }),
    )
    expect(d.status, JSON.stringify(d.body)).toBe(201)
    const drawId = d.body.drawId as string
    // Two named slips with three of the balls drawn (1..6): C3 each.
    for (const [k, document, board] of [
      ['excluded', EXCLUDED, [1, 2, 3, 40, 41, 42]],
      ['admitted', 'CI 4200002 LP', [4, 5, 6, 43, 44, 45]],
    ] as const) {
      const s = await server.services.lotto.sellSlip({
        drawId,
        boards: [[...board]],
        player: { name: 'Comprador Nombrado', document },
        channel: 'counter',
      })
      slips[k] = s.code
    }
    t = Date.parse('2025-03-08T19:01:00-04:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    expect((await boss('POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
    t += 30 * 60_000
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    await registerLottoBallSets(server.services)
    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await boss('POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
    expect((await boss('POST', `/api/lotto/draws/${drawId}/settle`)).status).toBe(200)
    // The buyer of the first slip is excluded by the hall after the draw.
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

  it("GEN-23 / GEN-27: the excluded buyer's winning slip is refused at the cash desk though the body names only an authorised third person; nothing paid, the refusal in the paying hall's chain", async () => {
    const before = await ledger()
    const r = await payToThirdPerson(slips.excluded)
    expect([r.status, r.body.error?.code], JSON.stringify(r.body.error ?? r.status)).toEqual([403, 'PLAYER_EXCLUDED'])
    expect(r.body.error.message).not.toMatch(/PLAYER_EXCLUDED|px_/)
    expect(await ledger()).toEqual({ ...before, refusals: before.refusals + 1 })
    expect((await server.services.lotto.validate(slips.excluded)).outcome).toBe('WIN')
  })

  it('pays the slip of a buyer who is not excluded by the same route and override', async () => {
    const before = await ledger()
    const r = await payToThirdPerson(slips.admitted)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const after = await ledger()
    expect(after.payouts).toBe(before.payouts + 1)
    expect(before.expectedCents - after.expectedCents).toBe(r.body.payout.amountCents)
    expect(after.refusals).toBe(before.refusals)
  })
})
