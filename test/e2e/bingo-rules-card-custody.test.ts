import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  secondPerson,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 18, over real HTTP with authentication on and real credentials:
 * - BNG-87/88/89: a sold card's life after its game: collected (returned) or archived as a winner, held as evidence,
 *   released only by the director on the authority's decision, destroyed with a second person present; winners
 *   not before the archive period (the profile's retentionDays); a destroyed card is neither paid nor refunded.
 * - BNG-92: the cashier holds a presented card found altered or not matching its code: the prize is not paid.
 */
describe('card custody after the game (BNG-87/88/89, BNG-92)', () => {
  let s: RulesServer
  let cashier: Till
  let hallId: string
  let seriesId: string
  let sessionId: string
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await s.server.services.db.get<{ n: number }>(sql, params))?.n ?? 0)
  const asCashier = (method: string, path: string, b?: unknown) => api(s.server.url, method, path, b, cashier.headers)

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    ;({ hallId, seriesId } = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Custodia',
      seed: 'custody',
      cards: 400,
    }))
    sessionId = await openSession(s, hallId)
    cashier = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
  })
  afterAll(async () => s?.server.cleanup())

  async function playedGame(cards = 40) {
    const g = await gameOnSale(s, sessionId, [seriesId], cards)
    await playToTheEnd(s.server.services, g.gameId)
    const winners = await winningCodes(s.server.services, g.gameId)
    const winnerIds = new Set(winners.map((w) => w.cardId))
    const cardsOfGame = await s.server.services.db.all<{ id: string; serial: string }>(
      'SELECT id, serial FROM cards WHERE game_id = ? ORDER BY serial',
      [g.gameId],
    )
    const losers = cardsOfGame
      .filter((c) => !winnerIds.has(c.id))
      .map((c) => ({ ...c, code: s.server.services.cashdesk.payouts.cardCode(c.id) }))
    return { gameId: g.gameId, winners, losers }
  }

  it("BNG-92: the cashier holds a tampered winning card; its prize is not paid and no cash leaves the drawer, nor after the director releases it on the authority's decision", async () => {
    const { winners } = await playedGame()
    const w = winners[0]
    expect((await asCashier('POST', '/api/tickets/validate', { code: w.code })).body.status).toBe('winner')

    // A kiosk's credential and a stranger cannot hold a card.
    const kiosk = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    expect(
      (
        await api(
          s.server.url,
          'POST',
          '/api/tickets/tampered',
          { code: w.code, reason: 'altered_marks' },
          { authorization: `Device ${kiosk.credential}` },
        )
      ).status,
    ).toBe(403)
    expect(
      (await api(s.server.url, 'POST', '/api/tickets/tampered', { code: w.code, reason: 'altered_marks' })).status,
    ).toBe(401)
    expect((await asCashier('POST', '/api/tickets/tampered', { code: w.code, reason: 'pencil' })).status).toBe(400)

    const held = await asCashier('POST', '/api/tickets/tampered', {
      code: w.code,
      reason: 'code_mismatch',
      note: 'el número impreso no coincide con el código',
    })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    expect(held.body).toMatchObject({ state: 'evidence', reason: 'tampered:code_mismatch', changedBy: 'Rosa Vargas' })
    const rec = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'card.tampered' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({
      serial: w.serial,
      from: 'sold',
      to: 'evidence',
      rule: 'BNG-92',
      stationId: cashier.station.id,
      actor: { name: 'Rosa Vargas', role: 'cashier' },
    })

    // The scan says so and the payout is refused, in Spanish, with nothing written.
    expect((await asCashier('POST', '/api/tickets/validate', { code: w.code })).body.status).toBe('held')
    const pay = await asCashier('POST', '/api/tickets/pay', {
      code: w.code,
      payeeName: 'Juana Flores',
      payeeDocument: 'CI 3344556',
    })
    expect(pay.status).toBe(423)
    expect(pay.body.error.code).toBe('CARD_HELD')
    expect(pay.body.error.message).toMatch(/retenido como prueba/)
    expect(await n("SELECT COUNT(*) AS n FROM prizes WHERE card_id = ? AND status = 'paid'", [w.cardId])).toBe(0)
    expect(await n('SELECT COUNT(*) AS n FROM payouts WHERE card_id = ?', [w.cardId])).toBe(0)
    expect(
      await n("SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout' AND shift_id = ?", [
        cashier.shiftId,
      ]),
    ).toBe(0)
    // Held cards are not destroyed, and only the director releases them, citing the authority's decision.
    expect(
      (await s.call('jefa', 'POST', '/api/cards/destroy', { code: w.code }, secondPerson('mesa2'))).body.error.code,
    ).toBe('CARD_CUSTODY_REFUSED')
    expect(
      (
        await s.call('mesa1', 'POST', '/api/cards/release', {
          code: w.code,
          reason: 'revisado',
          authorityRef: 'AJ-123',
        })
      ).status,
    ).toBe(403)
    expect(
      (await s.call('jefa', 'POST', '/api/cards/release', { code: w.code, reason: 'revisado por la AJ' })).status,
    ).toBe(400)
    const released = await s.call('jefa', 'POST', '/api/cards/release', {
      code: w.code,
      reason: 'la AJ resolvió que el cartón es válido',
      authorityRef: 'AJ/DJ/RES/77/2026',
    })
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    expect(released.body).toMatchObject({ state: 'winner_archive', authorityRef: 'AJ/DJ/RES/77/2026' })
    // BNG-91 / BNG-92 (002 §6.1.7 (2) "invalidados para premios"): released, an altered card's prize stays
    // forfeited. This test paid it after the release before; the audit (BNG-71/91/92) found that to be the bug.
    const paid = await asCashier('POST', '/api/tickets/pay', {
      code: w.code,
      payeeName: 'Juana Flores',
      payeeDocument: 'CI 3344556',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(409)
    expect(paid.body.error.code).toBe('PRIZE_FORFEITED')
    expect(await n('SELECT COUNT(*) AS n FROM payouts WHERE card_id = ?', [w.cardId])).toBe(0)
  })

  it('BNG-87/88: after the game non-winning cards are returned and winners archived; returned cards are destroyed with a witness, winners not before retentionDays; a destroyed card is not paid', async () => {
    // Before the game ends, nothing is collected.
    const onSale = await gameOnSale(s, sessionId, [seriesId], 30)
    const early = s.server.services.cashdesk.payouts.cardCode(
      (await s.server.services.db.get<{ id: string }>('SELECT id FROM cards WHERE game_id = ? LIMIT 1', [
        onSale.gameId,
      ]))!.id,
    )
    const refused = await asCashier('POST', '/api/cards/collect', { code: early })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('CARD_CUSTODY_REFUSED')
    await playToTheEnd(s.server.services, onSale.gameId)

    const { gameId, winners, losers } = await playedGame(30)
    // The locutor collects the played cards (BNG-88: handed back before the next game).
    const collected = await s.call('locutor', 'POST', `/api/games/${gameId}/card-custody/collect`, {})
    expect(collected.status, JSON.stringify(collected.body)).toBe(200)
    expect(collected.body).toMatchObject({ returned: losers.length, archived: winners.length })
    const states = (await s.call('mesa2', 'GET', `/api/games/${gameId}/card-custody`)).body.cards as Array<{
      serial: string
      state: string
      hasPrizes: boolean
    }>
    expect(states).toHaveLength(losers.length + winners.length)
    for (const c of states) expect(c.state).toBe(c.hasPrizes ? 'winner_archive' : 'returned')

    // Destruction: the director or jefe de sala, with a second person present.
    expect(
      (
        await s.call('mesa1', 'POST', `/api/games/${gameId}/card-custody/destroy`, {
          reason: 'destrucción tras la partida',
        })
      ).status,
    ).toBe(403)
    const alone = await s.call('jefa', 'POST', `/api/games/${gameId}/card-custody/destroy`, {
      reason: 'destrucción tras la partida',
    })
    expect(alone.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const destroyed = await s.call(
      'jefa',
      'POST',
      `/api/games/${gameId}/card-custody/destroy`,
      { reason: 'destrucción tras la partida' },
      secondPerson('mesa2'),
    )
    expect(destroyed.status, JSON.stringify(destroyed.body)).toBe(200)
    expect(destroyed.body).toMatchObject({ destroyed: losers.length, kept: winners.length })
    const rec = JSON.parse(
      (await s.server.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'card.destroyed' ORDER BY seq DESC LIMIT 1",
      ))!.payload,
    )
    expect(rec).toMatchObject({ gameId, by: 'Marta Quispe', witness: 'Ana Choque', rule: 'BNG-87' })
    expect(rec.destroyed).toHaveLength(losers.length)

    // A destroyed card is nothing any more: scanned as destroyed, not collected again, not held.
    expect((await asCashier('POST', '/api/tickets/validate', { code: losers[0].code })).body.status).toBe('destroyed')
    expect(
      (await s.call('mesa1', 'POST', '/api/cards/hold', { code: losers[0].code, reason: 'reclamación de un jugador' }))
        .body.error.code,
    ).toBe('CARD_CUSTODY_REFUSED')

    // BNG-87 (b): an archived winner stays at least retentionDays (183 in BO-2025); the winner is paid meanwhile.
    const w = winners[0]
    const early2 = await s.call('jefa', 'POST', '/api/cards/destroy', { code: w.code }, secondPerson('mesa2'))
    expect(early2.status).toBe(409)
    expect(early2.body.error.code).toBe('CARD_CUSTODY_REFUSED')
    expect(
      (
        await asCashier('POST', '/api/tickets/pay', {
          code: w.code,
          payeeName: 'Juana Flores',
          payeeDocument: 'CI 3344556',
        })
      ).status,
    ).toBe(200)
    await s.at('2027-05-20T18:00:00Z') // 181 days after the game: still archived
    expect((await s.call('jefa', 'POST', '/api/cards/destroy', { code: w.code }, secondPerson('mesa2'))).status).toBe(
      409,
    )
    await s.at('2027-05-23T18:00:00Z') // 184 days
    const late = await s.call('jefa', 'POST', '/api/cards/destroy', { code: w.code }, secondPerson('mesa2'))
    expect(late.status, JSON.stringify(late.body)).toBe(200)
    expect(late.body.state).toBe('destroyed')
  })

  it('BNG-87: a destroyed winning card is not paid (its prize stays unpaid, no cash moves)', async () => {
    await s.at('2027-06-01T18:00:00Z')
    await cashier.relogin()
    const { gameId, winners } = await playedGame(30)
    await s.call('mesa1', 'POST', `/api/games/${gameId}/card-custody/collect`, {})
    await s.at('2028-01-01T18:00:00Z') // past the claim period and the archive period
    await cashier.relogin()
    const w = winners[0]
    expect((await s.call('jefa', 'POST', '/api/cards/destroy', { code: w.code }, secondPerson('mesa2'))).status).toBe(
      200,
    )
    const pay = await asCashier('POST', '/api/tickets/pay', {
      code: w.code,
      payeeName: 'Juana Flores',
      payeeDocument: 'CI 3344556',
    })
    expect(pay.status).toBe(410)
    expect(pay.body.error.code).toBe('CARD_DESTROYED')
    expect(await n("SELECT COUNT(*) AS n FROM prizes WHERE card_id = ? AND status = 'paid'", [w.cardId])).toBe(0)
  })

  it("BNG-86/87: a voided game's card held as evidence is not refunded; a refunded card is handed back (returned)", async () => {
    await s.at('2028-02-01T18:00:00Z')
    await cashier.relogin()
    const g = await gameOnSale(s, sessionId, [seriesId], 4)
    await voidBeforeFirstBall(s, g.gameId)
    const cards = await s.server.services.db.all<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? ORDER BY serial',
      [g.gameId],
    )
    const [held, refunded] = cards.map((c) => s.server.services.cashdesk.payouts.cardCode(c.id))
    expect(
      (
        await s.call('mesa1', 'POST', '/api/cards/hold', {
          code: held,
          reason: 'reclamación de un jugador sobre la anulación',
        })
      ).status,
    ).toBe(200)
    const refused = await asCashier('POST', '/api/refunds/cards', { code: held, to: 'cash' })
    expect(refused.status).toBe(423)
    expect(refused.body.error.code).toBe('CARD_HELD')
    expect(await n('SELECT COUNT(*) AS n FROM refunds WHERE ticket_id = ?', [cards[0].id])).toBe(0)
    const ok = await asCashier('POST', '/api/refunds/cards', { code: refunded, to: 'cash' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const states = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/card-custody`)).body.cards as Array<{
      cardId: string
      state: string
    }>
    expect(states.find((c) => c.cardId === cards[1].id)!.state).toBe('returned')
  })
})
