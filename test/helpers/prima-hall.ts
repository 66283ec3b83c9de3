/**
 * Issues 18 and 24: what the prima tests build alike, over real HTTP with authentication on: a Cantabrian hall
 * (ES-CB-2010, "Sala Pereda", 600 cards at 50.00) with a prima of 50.00, its session open and the cashier's till at
 * Caja 1; and a manual game whose first card's bingo is drawn, claimed and its ordinary prizes paid.
 */
import { expect } from 'vitest'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  PASSWORD,
  payTablePrizes,
  startRulesServer,
  type RulesServer,
} from './bingo-rules.ts'
import { openTill, type Till } from './till.ts'

export interface PrimaHall {
  s: RulesServer
  hallId: string
  seriesId: string
  sessionId: string
  cashier: Till
  /** The answer to the director's PUT of the hall's prima (the test asserts it). */
  prima: { status: number; body: unknown }
}

/** The server on 20 November 2026 at 18:00 UTC and the hall; `seed` names its master set. */
export async function primaHall(seed: string): Promise<PrimaHall> {
  const s = await startRulesServer('2026-11-20T18:00:00Z')
  const { hallId, seriesId } = await hallWithSeries(s, {
    profileId: 'ES-CB-2010',
    name: 'Sala Pereda',
    seed,
    cards: 600,
    faceValueCents: 5_000,
  })
  const prima = await s.call('jefa', 'PUT', `/api/halls/${hallId}/prima`, { amountsCents: [5_000], amountCents: 5_000 })
  const sessionId = await openSession(s, hallId)
  const cashier = await openTill(s.server.url, s.server.services, {
    hallId,
    username: 'cajera',
    password: PASSWORD,
    stationName: 'Caja 1',
    floatCents: 200_000,
  })
  return { s, hallId, seriesId, sessionId, cashier, prima }
}

/**
 * A manual game: `cards` sold, then the first card's numbers drawn and its bingo claimed; its prizes paid at the
 * table unless `tablePays` is false (the card then keeps them for the test to pay at the desk, whole).
 */
export async function playManualBingo(
  h: Pick<PrimaHall, 's' | 'seriesId' | 'sessionId'>,
  cards: number,
  options: { tablePays?: boolean } = {},
): Promise<{ gameId: string; serial: string; balls: number[] }> {
  const { s } = h
  const g = await gameOnSale(s, h.sessionId, [h.seriesId], cards, 'manual')
  expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
  const card = await s.server.services.db.get<{ numbers: string }>(
    'SELECT numbers FROM cards WHERE game_id = ? AND serial = ?',
    [g.gameId, g.serials[0]],
  )
  const balls = (JSON.parse(card!.numbers) as number[][]).flat().filter((n) => n > 0)
  for (const ball of balls)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
  expect(
    (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'bingo', serial: g.serials[0] })).body.ok,
  ).toBe(true)
  expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
  // BNG-71 (Cantabria): the game's prizes are paid before the next one, at the table, against the card.
  if (options.tablePays !== false) await payTablePrizes(s, g.gameId)
  return { gameId: g.gameId, serial: g.serials[0], balls }
}
