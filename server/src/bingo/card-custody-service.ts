/**
 * Use cases of a card's custody after its game (BNG-87/88/89/92): collect the non-winning cards, archive the
 * winners, hold a card as evidence (a cashier holding a tampered card, BNG-92), release it on the authority's
 * decision, destroy what may be destroyed. Each move runs in one transaction, moves the card only from the state it
 * was read in, and is journaled (card.custody) with the person who made it. The rules are card-custody.ts; the SQL
 * is store.ts. Payouts and refunds read the state (cashdesk/payouts.ts, cashdesk/refunds.ts) and a payout archives
 * the card it pays (`archiveOnPayout`).
 */
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { getProfile } from '../shared/profile.ts'
import { hallProfile } from './betting-plan.ts'
import {
  CardCustody,
  assertCustodyMove,
  nextCustody,
  type CustodyAction,
  type CustodyFacts,
  type TamperReason,
} from './card-custody.ts'
import {
  cardCustodyById,
  cardCustodyOfGame,
  forfeitPrizesOfCard,
  markPrizesNotPresented,
  setCardCustody,
  type CardInCustody,
} from './store/custody.ts'
import { hallProfileSettings } from './store/halls.ts'
import { BULK_COLLECT } from './store/sales.ts'
import { gameById } from './store/games.ts'
import { awardsStayInHall } from './context.ts'
import { narrowOrAll, ScopesTooNarrow } from '../db/scopes.ts'
import { assertActsInHallOf } from '../access/acting-hall.ts'

export interface CustodyView {
  cardId: string
  serial: string
  gameId: string
  hallId: string
  state: CardCustody
  reason: string | null
  authorityRef: string | null
  changedAt: string | null
  changedBy: string | null
  hasPrizes: boolean
}

function viewOf(r: CardInCustody): CustodyView {
  return {
    cardId: r.cardId,
    serial: r.serial,
    gameId: r.gameId,
    hallId: r.hallId,
    state: (r.state ?? CardCustody.Sold) as CardCustody,
    reason: r.reason,
    authorityRef: r.authorityRef,
    changedAt: r.changedAt,
    changedBy: r.changedBy,
    hasPrizes: r.prizes > 0,
  }
}

/** `claimDays`: the prize claim period (BOLILLO_PRIZE_CLAIM_DAYS); an unpaid prize past it no longer counts. */
function factsOf(r: CardInCustody, at = '', claimDays = 0): CustodyFacts {
  const claimOpen =
    r.finishedAt !== null && at < new Date(Date.parse(r.finishedAt) + claimDays * 86_400_000).toISOString()
  return {
    state: (r.state ?? CardCustody.Sold) as CardCustody,
    gameEnded: r.gameStatus === 'finished' || r.gameStatus === 'void',
    hasPrizes: r.prizes > 0,
    hasUnpaidPrizes: r.unpaidPrizes > 0 && claimOpen,
    endedAt: r.finishedAt,
  }
}

/** BNG-77 / BNG-87 (b): the hall's archive period for winning cards (the profile's retentionDays). */
export async function retentionDaysOfHall(sql: Sql, hallId: string): Promise<number> {
  const hall = await hallProfileSettings(sql, hallId)
  const profile = hall ? getProfile(hall.profileId) : undefined
  if (!hall || !profile) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
  return hallProfile(profile, hall.settings).retentionDays
}

/** One card's move inside the caller's transaction; journaled. */
async function moveTx(
  tx: Sql,
  r: CardInCustody,
  action: CustodyAction,
  e: {
    at: string
    by: string
    reason: string | null
    authorityRef?: string | null
    journalType?: string
    extra?: Record<string, unknown>
    claimDays?: number
  },
): Promise<CustodyView> {
  const facts = factsOf(r, e.at, e.claimDays ?? 0)
  const to = assertCustodyMove(facts, action, e.at, await retentionDaysOfHall(tx, r.hallId))
  const moved = await setCardCustody(tx, {
    cardId: r.cardId,
    gameId: r.gameId,
    hallId: r.hallId,
    from: r.state,
    state: to,
    reason: e.reason,
    authorityRef: e.authorityRef ?? null,
    at: e.at,
    by: e.by,
  })
  if (!moved) throw new DomainError('CONFLICT', `card ${r.serial} changed custody at the same moment`)
  await appendJournal(tx, {
    at: e.at,
    type: e.journalType ?? 'card.custody',
    scope: `hall:${r.hallId}/game:${r.gameId}`,
    payload: {
      cardId: r.cardId,
      serial: r.serial,
      gameId: r.gameId,
      action,
      from: facts.state,
      to,
      reason: e.reason,
      authorityRef: e.authorityRef ?? null,
      by: e.by,
      ...e.extra,
      rule: action === 'hold' && e.journalType === 'card.tampered' ? 'BNG-92' : 'BNG-87',
    },
  })
  return {
    ...viewOf(r),
    state: to,
    reason: e.reason,
    authorityRef: e.authorityRef ?? null,
    changedAt: e.at,
    changedBy: e.by,
  }
}

/** BNG-87/88: a card with the player handed to the hall: a winner goes to the archive, any other card is returned. */
function handBack(tx: Sql, r: CardInCustody, at: string, by: string, reason: string | null): Promise<CustodyView> {
  return moveTx(tx, r, factsOf(r).hasPrizes ? 'archive' : 'collect', { at, by, reason })
}

export function createCardCustodyService(deps: { db: Database; clock: { now(): Date }; prizeClaimDays: number }) {
  const { db } = deps
  const now = () => deps.clock.now().toISOString()

  async function rowOf(sql: Sql, cardId: string): Promise<CardInCustody> {
    const r = await cardCustodyById(sql, cardId)
    if (!r) throw new DomainError('TICKET_NOT_FOUND', `card ${cardId} was never sold`)
    return r
  }

  /**
   * Issue 23 point 5: a custody move writes custody rows, prizes and a record of one game, all its hall's: it locks
   * that hall alone, read before the transaction from the game (or the card's game: neither a card's game nor a
   * game's hall ever changes), never from the request. Every chain when the game is unknown (refused inside as
   * before) or its awards reach another hall's rows (awardsStayInHall: a simultaneous game, an interconnected pot,
   * which change only under the exclusive lock: found so inside, it runs again with every chain).
   */
  async function inGameHall<T>(of: { gameId: string } | { cardId: string }, fn: (tx: Sql) => Promise<T>) {
    const gameId = 'gameId' in of ? of.gameId : (await cardCustodyById(db, of.cardId))?.gameId
    const game = gameId ? await gameById(db, gameId) : undefined
    const scopes = game && (await awardsStayInHall(db, game)) ? [`hall:${game.hallId}`] : undefined
    return narrowOrAll(scopes, (s) =>
      db.transaction(
        async (tx) => {
          if (s && game && !(await awardsStayInHall(tx, game))) throw new ScopesTooNarrow()
          // Issue 23 point 3: a card held, released, marked tampered (its prizes forfeited), collected or destroyed
          // is its game's hall's: only someone of that hall moves it, decided here from the game as stored.
          if (game) assertActsInHallOf(game.hallId, { stationHalls: [], resource: 'card' })
          return fn(tx)
        },
        s ? { scopes: s } : undefined,
      ),
    )
  }

  /** Where a card is now. */
  async function custodyOf(cardId: string): Promise<CustodyView> {
    return viewOf(await rowOf(db, cardId))
  }

  /**
   * One card's move: collect, archive, hold (as evidence of a claim or incident, BNG-87 (a)), release (the
   * authority's decision, `authorityRef`), destroy.
   */
  async function move(input: {
    cardId: string
    action: CustodyAction
    by: string
    reason?: string | null
    authorityRef?: string | null
  }): Promise<CustodyView> {
    if ((input.action === 'hold' || input.action === 'release') && !input.reason?.trim())
      throw new DomainError('VALIDATION_FAILED', `${input.action} needs a reason`, { field: 'reason' })
    if (input.action === 'release' && !input.authorityRef?.trim())
      throw new DomainError(
        'VALIDATION_FAILED',
        "a card held as evidence is released only on the authority's decision (authorityRef)",
        { field: 'authorityRef', rule: 'BNG-87' },
      )
    return inGameHall({ cardId: input.cardId }, async (tx) =>
      moveTx(tx, await rowOf(tx, input.cardId), input.action, {
        at: now(),
        by: input.by,
        reason: input.reason?.trim() || null,
        authorityRef: input.authorityRef?.trim() || null,
        claimDays: deps.prizeClaimDays,
      }),
    )
  }

  /**
   * BNG-92: the cashier finds the presented card altered (marks that hide its number, over-lining, erasable marks,
   * damage) or its printed serial or numbers do not match what its signed code says. The card is kept as evidence:
   * its prize is not paid while held (payouts.ts refuses CARD_HELD).
   */
  async function markTampered(input: {
    cardId: string
    reason: TamperReason
    note?: string | null
    by: string
    stationId: string | null
  }): Promise<CustodyView> {
    return inGameHall({ cardId: input.cardId }, async (tx) => {
      const r = await rowOf(tx, input.cardId)
      const at = now()
      const view = await moveTx(tx, r, 'hold', {
        at,
        by: input.by,
        reason: `tampered:${input.reason}`,
        journalType: 'card.tampered',
        extra: { note: input.note?.trim() || null, stationId: input.stationId },
      })
      // BNG-91 (004 Bingo II.1.a "no serán válidos para premios"), BNG-92 (002 §6.1.7 (2) "invalidados para
      // premios") and BNG-71 (004 Bingo V.3, paid only against cards "íntegros y sin manipulaciones"): the prizes
      // of a card found altered are forfeited here, for good; releasing the card later does not make them payable.
      const forfeited = await forfeitPrizesOfCard(tx, r.cardId)
      if (forfeited.length > 0)
        await appendJournal(tx, {
          at,
          type: 'prize.forfeited',
          scope: `hall:${r.hallId}/game:${r.gameId}`,
          payload: {
            cardId: r.cardId,
            serial: r.serial,
            gameId: r.gameId,
            reason: `tampered:${input.reason}`,
            prizes: forfeited.map((f) => ({ id: f.id, kind: f.kind, amountCents: f.amountCents })),
            amountCents: forfeited.reduce((t, f) => t + f.amountCents, 0),
            by: input.by,
            rule: 'BNG-92',
          },
        })
      return view
    })
  }

  /**
   * BNG-71 (004 Bingo V.3 "Los premios se pagarán a la terminación de cada partida, siempre antes de comenzar la
   * siguiente ... contra la entrega de los correspondientes cartones"): when a winner has not presented the card by
   * the time the next game is to start, the jefe de mesa records so (journaled, with the note) and the hall goes on.
   * The decree forfeits only an altered card's prize: this one stays payable against the intact card within the
   * claim period, through the same payout.
   */
  async function recordNotPresented(input: { gameId: string; note: string; by: string }) {
    if (!input.note?.trim())
      throw new DomainError('VALIDATION_FAILED', 'state why the prize was not paid before the next game (BNG-71)', {
        field: 'note',
        rule: 'BNG-71',
      })
    return inGameHall({ gameId: input.gameId }, async (tx) => {
      const rows = await cardCustodyOfGame(tx, input.gameId)
      if (rows.length === 0) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} has no cards`)
      if (rows[0].gameStatus !== 'finished')
        throw new DomainError('ILLEGAL_TRANSITION', `game ${input.gameId} has not finished (BNG-71)`, {
          rule: 'BNG-71',
        })
      const at = now()
      const marked = await markPrizesNotPresented(tx, input.gameId, at)
      if (marked.length === 0)
        throw new DomainError('CONFLICT', `game ${input.gameId} has no unpaid prize to record (BNG-71)`, {
          rule: 'BNG-71',
        })
      const prizes = marked.map((m) => ({ serial: m.serial, kind: m.kind, amountCents: m.amountCents }))
      await appendJournal(tx, {
        at,
        type: 'prize.not_presented',
        scope: `hall:${rows[0].hallId}/game:${input.gameId}`,
        payload: { gameId: input.gameId, prizes, note: input.note.trim(), by: input.by, rule: 'BNG-71' },
      })
      return { gameId: input.gameId, recordedAt: at, prizes }
    })
  }

  /**
   * BNG-87/88: after a game the hall collects its cards: every card still with the players that did not win is
   * `returned`, every winner goes to the archive. Cards held as evidence stay held. One journal record.
   */
  async function collectGame(input: {
    gameId: string
    by: string
  }): Promise<{ gameId: string; returned: number; archived: number }> {
    return inGameHall({ gameId: input.gameId }, async (tx) => {
      const rows = await cardCustodyOfGame(tx, input.gameId)
      if (rows.length === 0) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} has no cards`)
      const at = now()
      const days = await retentionDaysOfHall(tx, rows[0].hallId)
      const returned: string[] = []
      const archived: string[] = []
      for (const r of rows) {
        if (r.state !== null) continue
        const facts = factsOf(r)
        const action: CustodyAction = facts.hasPrizes ? 'archive' : 'collect'
        const to = assertCustodyMove(facts, action, at, days)
        if (
          !(await setCardCustody(tx, {
            cardId: r.cardId,
            gameId: r.gameId,
            hallId: r.hallId,
            from: null,
            state: to,
            // BNG-15 / BNG-88: taken in bulk, not handed back by its player one by one (store/sales.ts).
            reason: BULK_COLLECT,
            authorityRef: null,
            at,
            by: input.by,
          }))
        )
          throw new DomainError('CONFLICT', `card ${r.serial} changed custody at the same moment`)
        ;(to === CardCustody.Returned ? returned : archived).push(r.serial)
      }
      await appendJournal(tx, {
        at,
        type: 'card.collected',
        scope: `hall:${rows[0].hallId}/game:${input.gameId}`,
        payload: { gameId: input.gameId, returned, archived, by: input.by, rule: 'BNG-87' },
      })
      return { gameId: input.gameId, returned: returned.length, archived: archived.length }
    })
  }

  /**
   * BNG-87: destroys a game's returned cards and, once their archive period has passed, its archived winners. Cards
   * held as evidence, winners still in their archive period and cards never collected are left as they are.
   */
  async function destroyGame(input: {
    gameId: string
    by: string
    witness: string
    reason: string
  }): Promise<{ gameId: string; destroyed: number; kept: number }> {
    return inGameHall({ gameId: input.gameId }, async (tx) => {
      const rows = await cardCustodyOfGame(tx, input.gameId)
      if (rows.length === 0) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} has no cards`)
      const at = now()
      const days = await retentionDaysOfHall(tx, rows[0].hallId)
      const destroyed: string[] = []
      let kept = 0
      for (const r of rows) {
        const verdict = nextCustody(factsOf(r, at, deps.prizeClaimDays), 'destroy', at, days)
        if ('refused' in verdict) {
          kept++
          continue
        }
        if (
          !(await setCardCustody(tx, {
            cardId: r.cardId,
            gameId: r.gameId,
            hallId: r.hallId,
            from: r.state,
            state: verdict.to,
            reason: null,
            authorityRef: null,
            at,
            by: input.by,
          }))
        )
          throw new DomainError('CONFLICT', `card ${r.serial} changed custody at the same moment`)
        destroyed.push(r.serial)
      }
      if (destroyed.length === 0)
        throw new DomainError(
          'CARD_CUSTODY_REFUSED',
          `no card of game ${input.gameId} may be destroyed now (collected non-winners after the game; winners after ${days} days)`,
          { rule: 'BNG-87' },
        )
      await appendJournal(tx, {
        at,
        type: 'card.destroyed',
        scope: `hall:${rows[0].hallId}/game:${input.gameId}`,
        payload: {
          gameId: input.gameId,
          destroyed,
          kept,
          by: input.by,
          witness: input.witness,
          reason: input.reason,
          rule: 'BNG-87',
        },
      })
      return { gameId: input.gameId, destroyed: destroyed.length, kept }
    })
  }

  /** BNG-87/88: one card handed back after its game: a winner goes to the archive, any other card is returned. */
  async function collect(input: { cardId: string; by: string }): Promise<CustodyView> {
    return inGameHall({ cardId: input.cardId }, async (tx) => {
      const r = await rowOf(tx, input.cardId)
      return handBack(tx, r, now(), input.by, null)
    })
  }

  /** Every card of a game and where it is (the minutes' annex, BNG-89). */
  async function ofGame(gameId: string): Promise<CustodyView[]> {
    return (await cardCustodyOfGame(db, gameId)).map(viewOf)
  }

  return { custodyOf, move, markTampered, recordNotPresented, collect, collectGame, destroyGame, ofGame }
}

export type CardCustodyService = ReturnType<typeof createCardCustodyService>

/**
 * BNG-71 / BNG-87 (b): the card a payout pays is handed over and archived, in the payout's transaction. A card
 * already archived stays so.
 */
export async function archiveOnPayout(tx: Sql, cardId: string, at: string, by: string): Promise<void> {
  const r = await cardCustodyById(tx, cardId)
  if (!r || r.state === CardCustody.WinnerArchive) return
  await moveTx(tx, r, 'archive', { at, by, reason: 'paid' })
}

/**
 * BNG-86 / BNG-88: a refunded card is handed back; in the refund's transaction it becomes `returned`. Refuses a card
 * held as evidence (CARD_HELD) or destroyed (CARD_DESTROYED): neither is refunded.
 */
export async function returnOnRefund(tx: Sql, cardId: string, at: string, by: string): Promise<void> {
  const r = await cardCustodyById(tx, cardId)
  if (!r) return
  if (r.state === CardCustody.Evidence)
    throw new DomainError('CARD_HELD', `card ${r.serial} is held as evidence: it is not refunded while held`, {
      reason: r.reason,
      rule: 'BNG-87',
    })
  if (r.state === CardCustody.Destroyed)
    throw new DomainError('CARD_DESTROYED', `card ${r.serial} was destroyed at ${r.changedAt}`, { rule: 'BNG-87' })
  // A card whose line was paid before the annulment (BNG-51) won: it goes to the archive, not to destruction.
  if (r.state === null) await handBack(tx, r, at, by, 'refunded')
}

/**
 * BNG-15 / BNG-88: a card handed back at the till or the table after its game (purchases.ts returnCards) is in the
 * hall's custody: returned, or archived if it won. A card already in custody, or whose game has not ended (handed
 * back while the game is still drawn), keeps its state.
 */
export async function collectOnReturn(tx: Sql, cardId: string, at: string, by: string): Promise<void> {
  const r = await cardCustodyById(tx, cardId)
  if (!r || r.state !== null) return
  if (!factsOf(r, at).gameEnded) return
  await handBack(tx, r, at, by, 'handed back (BNG-15)')
}
