/**
 * Simultaneous bingo (Cantabria BNG-100, RNG-30; CFG-36): one game, one draw, many halls. The game belongs to the
 * central hall's session; each participating hall joins it with a series of its own printed from the game's master
 * set and a range of card numbers no other hall of the game holds, and sells into the one game. Every card sold is a
 * row of `cards` for that game, so the database's UNIQUE (game_id, card_key) refuses a repeated card whichever hall
 * sells it, and the draw, the claims and the prizes are the ordinary ones (BNG-100: "under the ordinary bingo
 * rules"). Each hall's screens follow the game live through socket.io rooms (realtime/multi-node.ts).
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { GameAction, assertLegal } from './game.ts'
import { insertSoldCards } from './games.ts'
import type { Game, SoldCard } from './types.ts'
import type { CardLayout } from './card.ts'
import { chosenLayoutOf } from './modalities.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import {
  addSimultaneousCardsSold,
  advanceGameHallCursor,
  advanceSeriesCursorForHallSale,
  gameHallOf,
  gameHallsCardsSold,
  gameHallsOfGame,
  insertGameHall,
  overlappingGameHall,
  simultaneousFirstSeries,
  bonusGameById,
  simultaneousHallById,
  simultaneousSeriesById,
  simultaneousSeriesOfHall,
} from './store/simultaneous.ts'

export const gameScope = (g: { hallId: string; sessionId: string; id: string }) =>
  `hall:${g.hallId}/session:${g.sessionId}/game:${g.id}`

export async function loadGameRow(tx: Sql, gameId: string): Promise<Game> {
  const g = await bonusGameById(tx, gameId)
  if (!g) throw new DomainError('GAME_NOT_FOUND', `game ${gameId} not found`, { gameId })
  return g
}

export interface JoinInput {
  gameId: string
  hallId: string
  seriesId: string
  fromCardNo: number
  toCardNo: number
}

/** A hall joins a simultaneous game with its own range of the game's master set (BNG-100: no card repeats). */
export async function joinGameTx(tx: Sql, input: JoinInput, at: string): Promise<Game> {
  const game = await loadGameRow(tx, input.gameId)
  if (game.status !== 'announced' && game.status !== 'on_sale')
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `halls join a simultaneous game before its sales close (it is ${game.status})`,
    )
  const first = await simultaneousFirstSeries(tx, game.id)
  if (!first) throw new DomainError('VALIDATION_FAILED', `game ${game.id} has no series`)
  const host = (await simultaneousHallById(tx, game.hallId))!
  const hall = await simultaneousHallById(tx, input.hallId)
  if (!hall) throw new DomainError('NOT_FOUND', `hall ${input.hallId} not found`, { hallId: input.hallId })
  if (hall.profileId !== host.profileId || hall.currency !== host.currency) {
    throw new DomainError(
      'VALIDATION_FAILED',
      "every hall of a simultaneous game plays under the central hall's profile and currency (BNG-100)",
      { rule: 'BNG-100' },
    )
  }
  const series = await simultaneousSeriesOfHall(tx, input.seriesId, hall.id)
  if (!series) throw new DomainError('NOT_FOUND', `series ${input.seriesId} not found in hall ${hall.id}`)
  if (series.masterSetId !== first.masterSetId)
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      "every hall sells from the game's master set, so no card repeats across halls (BNG-100)",
      { rule: 'BNG-100' },
    )
  if (series.faceValueCents !== first.faceValueCents)
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      "one game, one face value: the series must have the game's face value",
      { rule: 'BNG-100' },
    )
  const { fromCardNo: from, toCardNo: to } = input
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || from > to || to > series.cardCount) {
    throw new DomainError('VALIDATION_FAILED', `the range must satisfy 1 <= from <= to <= ${series.cardCount}`, {
      field: 'fromCardNo',
    })
  }
  if (from < series.nextCardNo)
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      `series ${series.code} has already sold up to card ${series.nextCardNo - 1} (BNG-12)`,
      { rule: 'BNG-12' },
    )
  if (game.cardsSold !== (await gameHallsCardsSold(tx, game.id)))
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      'the game already sold cards as a one-hall game; halls join before the first sale',
    )
  const clash = await overlappingGameHall(tx, game.id, series.masterSetId, from, to)
  if (clash)
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      `cards ${from}-${to} overlap hall ${clash.hallId}'s ${clash.fromCardNo}-${clash.toCardNo} (BNG-100: no card repeats)`,
      { rule: 'BNG-100', hallId: clash.hallId },
    )
  await insertGameHall(tx, {
    gameId: game.id,
    hallId: hall.id,
    seriesId: series.id,
    masterSetId: series.masterSetId,
    from,
    to,
    at,
  })
  await appendJournal(tx, {
    at,
    type: 'simultaneous.hall_joined',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      hallId: hall.id,
      hallName: hall.name,
      series: series.code,
      fromCardNo: from,
      toCardNo: to,
      rule: 'BNG-100',
    },
  })
  return game
}

/** A participating hall sells `count` cards of its range, correlatively (BNG-12), into the one game. All or nothing. */
export async function sellInHallTx(
  tx: Sql,
  input: { gameId: string; hallId: string; count: number; channel: string },
  newId: (p: string) => string,
  at: string,
): Promise<{ game: Game; cards: SoldCard[] }> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > 100_000)
    throw new DomainError('VALIDATION_FAILED', 'count must be 1..100000', { field: 'count' })
  const game = await loadGameRow(tx, input.gameId)
  assertLegal(GameAction.Sell, game.status, game.id)
  // BNG-98: a hall's range hands out printed cards; a game whose player chooses his numbers is not sold this way.
  if (chosenLayoutOf(JSON.parse(game.layout) as CardLayout))
    throw new DomainError(
      'CHOSEN_NUMBERS_CHANNEL',
      `in game ${game.id} the player chooses his numbers: it is not sold from a hall's range (BNG-98)`,
      { rule: 'BNG-98' },
    )
  const gh = await gameHallOf(tx, game.id, input.hallId)
  if (!gh)
    throw new DomainError('NOT_FOUND', `hall ${input.hallId} does not play game ${game.id}`, { hallId: input.hallId })
  const series = (await simultaneousSeriesById(tx, gh.seriesId))!
  // Issue 24 point 1: sold at the face value the server wrote (see sellTx).
  await assertRowsSealed(tx, 'games', [game.id])
  await assertRowsSealed(tx, 'series', [series.id])
  const from = gh.nextCardNo
  const available = gh.toCardNo - from + 1
  if (input.count > available)
    throw new DomainError('SERIES_EXHAUSTED', `only ${available} cards left in hall ${input.hallId}'s range`, {
      available,
    })
  const to = from + input.count - 1
  const cards = await insertSoldCards(
    tx,
    {
      gameId: game.id,
      seriesId: series.id,
      seriesCode: series.code,
      seriesCardCount: series.cardCount,
      masterSetId: gh.masterSetId,
      from,
      to,
      channel: input.channel,
      at,
    },
    newId,
  )
  if (!(await advanceGameHallCursor(tx, game.id, input.hallId, from, input.count)))
    throw new DomainError('CONFLICT', `hall ${input.hallId}'s cursor moved during the sale`)
  // The hall's series cursor follows, so its later one-hall games never sell these cards again (BNG-12).
  await advanceSeriesCursorForHallSale(tx, series.id, to + 1, at)
  await addSimultaneousCardsSold(tx, game.id, input.count)
  await appendJournal(tx, {
    at,
    type: 'cards.sold',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      hallId: input.hallId,
      channel: input.channel,
      count: cards.length,
      amountCents: cards.length * game.faceValueCents,
      serials: cards.map((c) => c.serial),
      cardIds: cards.map((c) => c.id),
    },
  })
  return { game, cards }
}

/** The halls of a game and their sales; a one-hall game has none. */
export async function hallSales(
  tx: Sql,
  game: Game,
): Promise<Array<{ hallId: string; cardsSold: number; salesCents: number; simultaneous: boolean }>> {
  const halls = await gameHallsOfGame(tx, game.id)
  if (halls.length === 0)
    return [
      {
        hallId: game.hallId,
        cardsSold: game.cardsSold,
        salesCents: game.cardsSold * game.faceValueCents,
        simultaneous: false,
      },
    ]
  return halls.map((h) => ({
    hallId: h.hallId,
    cardsSold: h.cardsSold,
    salesCents: h.cardsSold * game.faceValueCents,
    simultaneous: true,
  }))
}
