/**
 * Issue 29: the cashier finds a bingo card by its serial within a chosen game, as the serial is heard in the hall
 * ("41", "A41", "A-00041"), to see its state: sold and waiting for its game, winner of what, paid (when, where, by
 * whom), annulled and refunded or not, lost, held. It is a look, never a way to pay or refund: a winning serial is
 * announced in the hall, so anyone knows it (BNG-71, BNG-73); the answer is never payable and carries nothing that
 * would let a code be made from it (no card id, no printed code). To pay, the cashier scans the card's QR or types
 * the code printed under it, and the payout path (payouts.ts) decides as for any scan.
 *
 * The hall is decided from the game and the card read, against the station and the acting principal
 * (access/acting-hall.ts), never from the request.
 */
import type { Database, Sql } from '../db/database.ts'
import { findCard } from '../bingo/context.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import type { Clock } from '../shared/clock.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import type { PayoutService } from './payouts.ts'
import { cardGamesOfHall, cardJoin, gameOfLookup, joinedHallsOfGame, type CardGameRow } from './store.ts'
import { readAnswer, type ScanView } from './ticket-answer.ts'

/** How many of the hall's newest games the cashier chooses from. */
const GAMES_LISTED = 40

export interface CardLookupDeps {
  db: Database
  clock: Clock
  payouts: Pick<PayoutService, 'evaluate'>
  /** The names a person reads for a station and a person id (as the scan's YA PAGADO shows them). */
  names: { station(id: string): Promise<string>; person(id: string): Promise<string> }
}

/** Passes when the station and the acting principal act in one of `hallIds`; else the refusal for the first. */
async function assertActsInOneOf(tx: Sql, hallIds: string[], stationId?: string | null): Promise<void> {
  let first: unknown = null
  for (const hallId of hallIds) {
    try {
      await assertActsInHall(tx, hallId, { stationId, resource: 'game' })
      return
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'WRONG_HALL') throw err
      first ??= err
    }
  }
  throw first
}

export function createCardLookup(deps: CardLookupDeps) {
  const { db, clock, payouts, names } = deps

  /** The games of the hall of station `stationId` (or of `hallId` with no enrolled station) that sold cards. */
  async function games(at: { hallId: string; stationId?: string | null }): Promise<CardGameRow[]> {
    // Issue 23 point 5: a read of one hall's rows, no write: it locks that hall alone, never every hall.
    return db.transaction(
      async (tx) => {
        await assertActsInHall(tx, at.hallId, { stationId: at.stationId, resource: 'game' })
        return cardGamesOfHall(tx, at.hallId, GAMES_LISTED)
      },
      { scopes: [`hall:${at.hallId}`] },
    )
  }

  /**
   * Issue 23 point 5: the chain a look-up writes, the hall of the card looked up (the hall that sold it, in a
   * simultaneous game), read before the transaction from the game and the serial, never from the request; the
   * operator's (no row written) when they name no card. Nothing is refused here: the transaction decides, and a card
   * found there in another chain runs it again with every chain.
   */
  async function lookupScopes(gameId: string, serial: string): Promise<string[]> {
    const game = await gameOfLookup(db, gameId)
    const card = game ? await findCard(db, game.id, { serial }).catch(() => undefined) : undefined
    const hallId = card ? (await cardJoin(db, card.id))?.cardHallId : undefined
    return [hallId ? `hall:${hallId}` : OPERATOR_CHAIN]
  }

  /**
   * The state of the card with serial `serial` in game `gameId`, journaled with who looked (§8 records every scan;
   * a look is recorded the same way). TICKET_NOT_FOUND when the game sold no such card; SERIAL_AMBIGUOUS when the
   * number alone matches cards of several series (the serials to choose from are in the error).
   */
  async function bySerial(input: {
    gameId: string
    serial: string
    stationId?: string | null
    cashierId?: string | null
  }): Promise<{ view: ScanView }> {
    const view = await narrowOrAll(await lookupScopes(input.gameId, input.serial), (scopes) =>
      db.transaction((tx) => lookupWithin(tx, input), scopes ? { scopes } : undefined),
    )
    // BNG-71: found by its public serial, it is never paid or refunded from this answer.
    const out: ScanView = { ...view, payable: false }
    if (out.paid)
      out.paid = {
        ...out.paid,
        stationId: out.paid.stationId && (await names.station(out.paid.stationId)),
        cashierId: out.paid.cashierId && (await names.person(out.paid.cashierId)),
      }
    return { view: out }
  }

  async function lookupWithin(
    tx: Sql,
    input: { gameId: string; serial: string; stationId?: string | null; cashierId?: string | null },
  ): Promise<ScanView> {
    const game = await gameOfLookup(tx, input.gameId)
    if (!game) throw new DomainError('GAME_NOT_FOUND', 'no such game')
    // The game's hall first, so a game of another hall says nothing of its cards: its host's, or a hall that takes
    // part in it when it is a simultaneous game (BNG-100).
    await assertActsInOneOf(tx, [game.hallId, ...(await joinedHallsOfGame(tx, game.id))], input.stationId)
    const card = await findCard(tx, game.id, { serial: input.serial })
    if (!card)
      throw new DomainError('TICKET_NOT_FOUND', `no card ${input.serial.trim()} was sold in game ${game.orderNo}`, {
        serial: input.serial.trim(),
        gameNo: game.orderNo,
      })
    const at = clock.now().toISOString()
    const st = await payouts.evaluate(tx, card.id, at)
    if (st.status === 'invalid') throw new DomainError('TICKET_NOT_FOUND', st.detail)
    // A card of a simultaneous game belongs to the hall that sold it (its series' hall): another hall of the game
    // does not see it.
    await assertActsInHall(tx, st.cardHallId, { stationId: input.stationId, resource: 'card' })
    requireChain(`hall:${st.cardHallId}`)
    await appendJournal(tx, {
      at,
      type: 'ticket.looked_up',
      scope: `hall:${st.cardHallId}`,
      payload: {
        ticketId: st.ticketId,
        kind: 'card',
        gameId: game.id,
        serial: st.serial,
        status: st.status,
        stationId: input.stationId ?? null,
        cashierId: input.cashierId ?? null,
        rule: 'BNG-71',
      },
    })
    return readAnswer(st)
  }

  return { games, bySerial }
}

export type CardLookup = ReturnType<typeof createCardLookup>
