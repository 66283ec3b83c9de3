import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  payTablePrizes,
  secondPerson,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 18, BNG-65 (004 Bingo V.2.a), over real HTTP with authentication on: closing a Cantabrian hall for good hands
 * its accumulated prima fund to the Consejería de economía y hacienda (ledger and journal), by the director with a
 * second person, only once its session is closed; the closed hall opens no session and sells no card.
 */
describe('hall closure and the prima fund (BNG-65)', () => {
  let s: RulesServer
  let hallId: string
  let sessionId: string

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    let seriesId: string
    ;({ hallId, seriesId } = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Cierre',
      seed: 'closure',
      cards: 300,
      faceValueCents: 5_000,
    }))
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${hallId}/prima`, { amountsCents: [10_000], amountCents: 10_000 }))
        .status,
    ).toBe(200)
    sessionId = await openSession(s, hallId)
    // 20 cards x 50.00: 6 % = 60.00 into the prima fund at the close of sales (BNG-58), not yet on offer (100.00).
    const g = await gameOnSale(s, sessionId, [seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = await s.server.services.db.get<{ numbers: string }>(
      'SELECT numbers FROM cards WHERE game_id = ? AND serial = ?',
      [g.gameId, g.serials[0]],
    )
    for (const ball of (JSON.parse(card!.numbers) as number[][]).flat().filter((n) => n > 0))
      await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })
    expect(
      (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'bingo', serial: g.serials[0] })).body
        .ok,
    ).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    await payTablePrizes(s, g.gameId)
  })
  afterAll(async () => s?.server.cleanup())

  const close = (
    who: 'jefa' | 'mesa1',
    b: Record<string, unknown>,
    extra: Record<string, string> = secondPerson('mesa2'),
  ) => s.call(who, 'POST', `/api/halls/${hallId}/close`, b, extra)
  const closing = {
    reason: 'Cese de la actividad de la sala',
    handoverRef: 'Ingreso 2026/118 cuenta general Gobierno de Cantabria',
  }

  it('BNG-65: hands the accumulated prima to the Consejería when the hall closes, and refuses sessions afterwards', async () => {
    expect((await s.call('jefa', 'GET', `/api/halls/${hallId}/prima`)).body.prima.state.fundCents).toBe(6_000)
    // Not while a session (and its minutes) is open; not by the floor manager; not without a second person.
    const open = await close('jefa', closing)
    expect(open.status).toBe(409)
    expect(open.body.error.code).toBe('ILLEGAL_TRANSITION')
    expect(
      (
        await s.call(
          'mesa1',
          'POST',
          `/api/sessions/${sessionId}/close`,
          { recount: { ballsCounted: 90 } },
          secondPerson('jefa'),
        )
      ).status,
    ).toBe(200)
    expect((await close('mesa1', closing)).status).toBe(403)
    expect((await close('jefa', closing, {})).body.error.code).toBe('SECOND_PERSON_REQUIRED')
    expect((await close('jefa', { reason: closing.reason })).status).toBe(400) // the fund is handed over against a reference

    const closed = await close('jefa', closing)
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body).toMatchObject({
      primaHandedOverCents: 6_000,
      primaRecipient: expect.stringMatching(/Consejería .*economía y hacienda/),
    })
    const prima = (await s.call('jefa', 'GET', `/api/halls/${hallId}/prima`)).body.prima
    expect(prima.state.fundCents).toBe(0)
    const ledger = (await s.call('jefa', 'GET', `/api/halls/${hallId}/prima/ledger`)).body.ledger
    expect(ledger.at(-1)).toMatchObject({
      kind: 'payment',
      amountCents: -6_000,
      fundAfterCents: 0,
      detail: { handover: 'hall_closure', rule: 'BNG-65' },
    })
    const rec = JSON.parse(
      (await s.server.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'prima.handed_over'",
      ))!.payload,
    )
    expect(rec).toMatchObject({
      hallId,
      amountCents: 6_000,
      handoverRef: closing.handoverRef,
      by: 'Marta Quispe',
      witness: 'Ana Choque',
      actor: { name: 'Marta Quispe' },
    })

    // A closed hall opens no session (so announces no game and sells no card) and is not closed twice.
    const again = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      secondPerson('jefa'),
    )
    expect(again.status).toBe(409)
    expect(again.body.error).toMatchObject({ code: 'HALL_CLOSED', message: expect.stringMatching(/sala está cerrada/) })
    expect((await close('jefa', closing)).body.error.code).toBe('HALL_CLOSED')
  })
})
