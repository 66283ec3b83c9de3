/**
 * Issue 18: what a card purchase must satisfy besides the game being on sale, checked inside the sale's own
 * transaction by every path that sells cards to a player (kiosk against a voucher, counter and table for cash,
 * a simultaneous game's hall range: cashdesk/paid-sales.ts), and the hall's door: who enters, when entry closes.
 *
 * - GEN-1: where the profile asks (Bolivia), only once the hall's operating licence reference is recorded.
 * - BNG-40 / GEN-18 / CFG-16: the hall's posted minimum and maximum bets (sale-rules.ts), per purchase and, for an
 *   identified player, per player and game; where the profile asks (Bolivia 2025), only once the hall recorded them
 *   with the authority's reference.
 * - BNG-93: no more players than the hall's seated playing positions, neither let in at the door nor holding cards.
 * - BNG-19 (Cantabria): from the reading of the game's data on, no one enters and no card is sold for that game.
 * - BNG-15 / BNG-88 (Bolivia): a player whose cards of the previous game were not handed back buys none.
 *
 * "A player" is who the system can recognise: at a kiosk, the chain of vouchers a purchase is paid from (a voucher
 * and the change vouchers it gives), or the identity document recorded on it; at a counter or table, the identity
 * document the seller records (`playerDocument`). A cash purchase by someone unnamed is checked as one purchase.
 */
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertReadRowsSealed, currentRowSeals, rowTampered } from '../shared/row-seals.ts'
import { GameAction, GameStatus, assertLegal } from './game.ts'
import type { CardLayout } from './card.ts'
import { chosenLayoutOf } from './modalities.ts'
import {
  assertBetLimitsAuthorised,
  assertFaceValueAuthorised,
  assertOperatingLicence,
  assertWithinBetLimits,
  gameLimitsFor,
  type GameSaleLimits,
  type SaleChannel,
} from './sale-rules.ts'
import { gameSaleLimitsWithSeal, saleLimitsJoined } from './store/sale-limits.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { collectOnReturn } from './card-custody-service.ts'
import {
  emit,
  gameScope,
  hallOf,
  loadGame,
  loadSession,
  profiledHall,
  sessionScope,
  type BingoContext,
  type Tx,
} from './context.ts'
import type { Hall } from './store/halls.ts'
import { toGame, type GameRow } from './store/games.ts'
import type { Sql } from '../db/database.ts'
import {
  purchaseStanding,
  unreturnedCardsOfPlayer,
  insertPlayerCards,
  markEntryClosed,
  peopleInSession,
  entryClosedGameOfSession,
  insertHallEntry,
  cardById,
  cardReturned,
  insertCardReturn,
} from './store/sales.ts'

export interface PurchaseInput {
  gameId: string
  hallId: string
  count: number
  playerKey: string | null
  /**
   * CFG-7: the channel the sale is made through, from who or what sells (the seller's role at a till, the enrolled
   * kiosk or terminal), never from the request's body: the game's limits for that channel apply.
   */
  channel: SaleChannel
  /**
   * The hall's row as the caller read it in this same transaction (issue 23 point 5: a kiosk sale reads its hall
   * once); read here when absent or of another hall.
   */
  hall?: Hall
  /** The game's row as the caller read it in this same transaction; read here when absent or of another game. */
  gameRow?: GameRow
}

/**
 * BNG-98 / CFG-32 (002 §6.1.9: "Los medios de juego y medios de acceso al juego deberán estar claramente establecidos
 * en la Licencia"): where the buyer can say his numbers, a chosen-number game is sold: the cash desk's counter (the
 * cashier takes them from the player) and the kiosk (the player taps them). The caller's table sells printed cards
 * and a terminal's virtual cards are handed out by the series' terminal range: neither sells such a game.
 */
export const CHOSEN_NUMBER_CHANNELS: readonly SaleChannel[] = ['counter', 'kiosk']

/**
 * BNG-98: the channel of a purchase against the game's card format. The numbers themselves are checked where the
 * cards are made (games.ts chosenCardsOf, in the same transaction).
 */
function admitChosenNumbers(layoutJson: string, input: PurchaseInput): void {
  if (!chosenLayoutOf(JSON.parse(layoutJson) as CardLayout)) return
  if (!CHOSEN_NUMBER_CHANNELS.includes(input.channel))
    throw new DomainError(
      'CHOSEN_NUMBERS_CHANNEL',
      `in game ${input.gameId} the player chooses his numbers: it is sold at the counter or the kiosk, not at the ${input.channel} (BNG-98)`,
      { channel: input.channel, channels: CHOSEN_NUMBER_CHANNELS, rule: 'BNG-98' },
    )
}

/** Checks a purchase before any card is taken; throws the rule's error. Runs inside the sale's transaction. */
export async function admitPurchase(_ctx: BingoContext, sql: Sql, input: PurchaseInput): Promise<void> {
  const game = input.gameRow?.id === input.gameId ? toGame(input.gameRow) : await loadGame(sql, input.gameId)
  // A game not on sale answers as before (SALES_NOT_OPEN, SALES_CLOSED), whatever the purchase.
  assertLegal(GameAction.Sell, game.status, game.id)
  admitChosenNumbers(game.layout, input)
  const { hall, profile } = input.hall?.id === input.hallId ? profiledHall(input.hall) : await hallOf(sql, input.hallId)
  // BNG-19: the hall's entry closed for this game; the reading of its data has begun and its sale is over.
  if (game.entryClosedAt) {
    throw new DomainError(
      'HALL_ENTRY_CLOSED',
      `entry to the hall closed for game ${game.id} at ${game.entryClosedAt}: no card is sold for it (BNG-19)`,
      { gameId: game.id, closedAt: game.entryClosedAt, rule: 'BNG-19' },
    )
  }
  const settings = JSON.parse(hall.settings || '{}') as HallRuleSettings
  // GEN-1: no sale before the hall's operating licence is on record, whatever plan or limits it has.
  assertOperatingLicence(profile, settings.licence?.authorisationRef ?? null)
  // GEN-18 / BNG-40: limits bind only with the authority's reference; the profile's defaults are none.
  const saleRules = settings.saleRules
  assertBetLimitsAuthorised(profile, saleRules?.authorisationRef ?? null)
  // BNG-10 / CFG-15: the game's face value among the hall's authorised values as they stand now, not as they stood
  // when its series was created.
  assertFaceValueAuthorised(profile, game.faceValueCents)
  // The player's cards, the hall's seated players and the previous game, read together (one round trip).
  const standing = await purchaseStanding(sql, game.id, hall.id, input.playerKey)
  if (!standing) throw new DomainError('GAME_NOT_FOUND', `game ${game.id} not found`, { gameId: game.id })
  const heldBefore = input.playerKey ? standing.held : null
  assertWithinBetLimits(profile, { count: input.count, heldBefore, faceValueCents: game.faceValueCents })
  // CFG-7 (002 §1.2.1.1 "respecto de cada juego"): the game's own limits, or its channel's, within the hall's.
  // Issue 24 point 1: the game's limits as the server recorded them (raised, or the row deleted, behind the journal:
  // the sale is refused, ROW_TAMPERED, journaled), read with their seal: with the game's row where the caller joined
  // them in (a kiosk sale, same transaction), else in a statement of their own.
  const joined = input.gameRow?.id === input.gameId ? saleLimitsJoined(input.gameRow) : undefined
  const read = joined ?? (await gameSaleLimitsWithSeal(sql, game.id))
  if (read.row) assertReadRowsSealed(sql, 'game_sale_limits', [read.row])
  else if (read.sealSeq !== null && currentRowSeals())
    throw rowTampered([
      {
        table: 'game_sale_limits',
        id: game.id,
        what: `sealed by journal record #${read.sealSeq} but missing from the table (deleted outside the server)`,
      },
    ])
  const own = read.row ? (JSON.parse(String(read.row.limits)) as GameSaleLimits | null) : null
  const limits = gameLimitsFor(own, input.channel)
  if (own && limits) {
    assertWithinBetLimits(profile, {
      count: input.count,
      heldBefore,
      faceValueCents: game.faceValueCents,
      limits,
      scope: own.channels[input.channel] ? { of: 'channel', channel: input.channel } : { of: 'game' },
    })
  }
  // BNG-93 (002 §6.1.4.2.3 "El número máximo de jugadores será el total de posiciones sentadas"): a new player of
  // this game takes a seat; there are no more players than seats (no standing play). A buyer nobody names cannot be
  // told from another, so each unnamed purchase takes a seat of its own (recordPurchase).
  if (!input.playerKey || heldBefore === 0) {
    const players = standing.players
    if (players >= hall.playingPositions) {
      throw new DomainError(
        'HALL_FULL',
        `the ${hall.playingPositions} playing positions of hall ${hall.id} are taken for this game (BNG-93)`,
        { playingPositions: hall.playingPositions, players, rule: 'BNG-93' },
      )
    }
  }
  // BNG-15: the previous game's cards are handed back before buying ("Es requisito para adquirir cartones en una
  // partida, el retiro de los cartones jugados en la partida anterior"). The system knows them for a recognised
  // player; a card counts as handed back once staff scanned it in (POST /api/cards/returns).
  if (input.playerKey && profile.previousCardsReturnedToBuy) {
    const previous = standing.previous
    if (previous) {
      const kept = await unreturnedCardsOfPlayer(sql, previous.id, input.playerKey)
      if (kept.length > 0) {
        throw new DomainError(
          'PREVIOUS_CARDS_NOT_RETURNED',
          `the player has not handed back ${kept.length} cards of game ${previous.order_no}: ${kept.slice(0, 10).join(', ')} (BNG-15)`,
          { gameId: previous.id, serials: kept, rule: 'BNG-15' },
        )
      }
    }
  }
}

/** Records the cards sold to a recognised player (CFG-16 count, BNG-93 seats, BNG-15 return, BNG-85 buyer). */
export async function recordPurchase(
  ctx: BingoContext,
  sql: Sql,
  input: { gameId: string; hallId: string; playerKey: string | null; cardIds: string[] },
): Promise<void> {
  if (input.cardIds.length === 0) return
  const at = ctx.now()
  // BNG-93: an unnamed purchase is one player in one seat, keyed by its first card (admitPurchase counted it).
  const playerKey = input.playerKey ?? `anon:${input.cardIds[0]}`
  await insertPlayerCards(
    sql,
    input.cardIds.map((cardId) => ({
      cardId,
      gameId: input.gameId,
      hallId: input.hallId,
      playerKey,
      at,
    })),
  )
}

type Actor = { kind: string; id: string; name: string; role: string }

/**
 * BNG-19: closes the hall's entry for a game when the reading of its data begins. Sales are over from then on for
 * that game, and nobody is let in until it ends. Where the profile has the rule, the close of sales does it too.
 */
export async function closeHallEntry(
  ctx: BingoContext,
  input: { gameId: string; by: Actor },
): Promise<{ gameId: string; entryClosedAt: string }> {
  return ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    const { profile } = await hallOf(tx, game.hallId)
    if (!profile.hallEntryClosesForGame)
      throw new DomainError(
        'RULE_DISABLED',
        `profile ${profile.id} does not close the hall's entry during a game (BNG-19)`,
        { rule: 'BNG-19' },
      )
    if (game.status === GameStatus.Finished || game.status === GameStatus.Void)
      throw new DomainError('ILLEGAL_TRANSITION', `game ${game.id} is ${game.status}`, { gameId: game.id })
    if (game.entryClosedAt)
      throw new DomainError('ILLEGAL_TRANSITION', `the hall's entry is already closed for game ${game.id}`, {
        gameId: game.id,
        closedAt: game.entryClosedAt,
      })
    const at = ctx.now()
    await entryClosedWithin(ctx, tx, game, at, input.by)
    return { gameId: game.id, entryClosedAt: at }
  })
}

/** Marks the entry closed and journals it, once (BNG-19). */
export async function entryClosedWithin(
  _ctx: BingoContext,
  tx: Tx,
  game: { id: string; hallId: string; sessionId: string },
  at: string,
  by: Actor | { kind: 'system'; reason: string },
): Promise<void> {
  if (!(await markEntryClosed(tx, game.id, at))) return
  const rec = await appendJournal(tx, {
    at,
    type: 'hall.entry_closed',
    scope: gameScope(game),
    payload: { gameId: game.id, hallId: game.hallId, by, rule: 'BNG-19' },
  })
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'entry_closed' })
}

/**
 * BNG-93 / BNG-19: players let into (or out of) the hall during a session. Refused beyond the hall's seated
 * playing positions (HALL_FULL), and while entry is closed for a game (HALL_ENTRY_CLOSED).
 */
export async function recordEntry(
  ctx: BingoContext,
  input: { sessionId: string; direction: 'in' | 'out'; people: number; by: Actor },
): Promise<{ sessionId: string; present: number; playingPositions: number }> {
  if (!Number.isInteger(input.people) || input.people < 1 || input.people > 1000)
    throw new DomainError('VALIDATION_FAILED', 'people must be 1..1000', { field: 'people' })
  return ctx.tx(async (tx) => {
    const s = await loadSession(tx, input.sessionId)
    if (s.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `session ${s.id} is closed`)
    const { hall, profile } = await hallOf(tx, s.hallId)
    const present = await peopleInSession(tx, s.id)
    const positions = hall.playingPositions
    if (input.direction === 'in') {
      const closed = profile.hallEntryClosesForGame ? await entryClosedGameOfSession(tx, s.id) : undefined
      if (closed)
        throw new DomainError(
          'HALL_ENTRY_CLOSED',
          `entry to the hall closed at ${closed.entry_closed_at} for game ${closed.id}, until it ends (BNG-19)`,
          { gameId: closed.id, closedAt: closed.entry_closed_at, rule: 'BNG-19' },
        )
      if (present + input.people > positions)
        throw new DomainError(
          'HALL_FULL',
          `${present} players are seated of ${positions} playing positions: ${input.people} more cannot enter (BNG-93)`,
          { present, playingPositions: positions, rule: 'BNG-93' },
        )
    } else if (input.people > present) {
      throw new DomainError('VALIDATION_FAILED', `only ${present} players are recorded in the hall`, {
        field: 'people',
        present,
      })
    }
    const at = ctx.now()
    const after = input.direction === 'in' ? present + input.people : present - input.people
    await insertHallEntry(tx, {
      id: ctx.newId('he'),
      hallId: hall.id,
      sessionId: s.id,
      direction: input.direction,
      people: input.people,
      at,
      by: JSON.stringify(input.by),
    })
    await appendJournal(tx, {
      at,
      type: 'hall.entry',
      scope: sessionScope(s),
      payload: {
        sessionId: s.id,
        direction: input.direction,
        people: input.people,
        present: after,
        playingPositions: positions,
        by: input.by,
        rule: 'BNG-93',
      },
    })
    return { sessionId: s.id, present: after, playingPositions: positions }
  })
}

/**
 * BNG-15 / BNG-88: cards handed back to the hall's staff, by id (the route verified each card's signed code). A
 * card is handed back once, after its game's sales closed (before, it is still being played for).
 */
export async function returnCards(
  ctx: BingoContext,
  input: { cardIds: string[]; by: Actor; stationId: string | null },
): Promise<{ returned: Array<{ serial: string; gameId: string }>; already: string[] }> {
  return ctx.tx(async (tx) => {
    const at = ctx.now()
    const returned: Array<{ serial: string; gameId: string }> = []
    const already: string[] = []
    const byGame = new Map<string, string[]>()
    for (const id of [...new Set(input.cardIds)]) {
      const card = await cardById(tx, id)
      if (!card) throw new DomainError('TICKET_NOT_FOUND', `card ${id} not found`)
      if (await cardReturned(tx, id)) {
        already.push(card.serial)
        continue
      }
      const game = await loadGame(tx, card.gameId)
      if (game.status === GameStatus.Announced || game.status === GameStatus.OnSale) {
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `card ${card.serial} is on sale for game ${game.id}: it is handed back after the game`,
          { serial: card.serial, gameId: game.id },
        )
      }
      await insertCardReturn(tx, {
        cardId: id,
        gameId: game.id,
        at,
        by: JSON.stringify(input.by),
        stationId: input.stationId,
      })
      // BNG-87/88: a card handed back after its game is in the hall's custody too (returned, or archived if it won).
      await collectOnReturn(tx, id, at, input.by.name)
      returned.push({ serial: card.serial, gameId: game.id })
      byGame.set(game.id, [...(byGame.get(game.id) ?? []), card.serial])
    }
    for (const [gameId, serials] of byGame) {
      const game = await loadGame(tx, gameId)
      await appendJournal(tx, {
        at,
        type: 'cards.returned',
        scope: gameScope(game),
        payload: { gameId, serials, stationId: input.stationId, by: input.by, rule: 'BNG-15' },
      })
    }
    return { returned, already }
  })
}

/** The hall's door as a screen shows it: players present in the open session, and whether entry is closed. */
export async function doorOf(
  sql: Sql,
  sessionId: string | null,
): Promise<{ present: number; entryClosedForGame: string | null }> {
  if (!sessionId) return { present: 0, entryClosedForGame: null }
  return {
    present: await peopleInSession(sql, sessionId),
    entryClosedForGame: (await entryClosedGameOfSession(sql, sessionId))?.id ?? null,
  }
}
