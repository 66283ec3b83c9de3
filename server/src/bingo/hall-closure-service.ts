/**
 * BNG-65 (004 Bingo V.2.a): "En los casos de cierre de una sala de bingo por cualquier circunstancia, las cantidades
 * acumuladas para el pago del premio prima de bingo deberán ponerse a disposición de la Consejería competente en
 * materia de economía y hacienda para su ingreso en la cuenta general de ingresos del Gobierno de Cantabria."
 *
 * Closing a hall for good: the director, with a second person present (like every destructive action), once no
 * session is open. The prima fund is settled in the same transaction: it leaves the fund to the recipient the
 * profile names (`primaOnHallClosure`), recorded in the prima ledger and journaled with the amount, the recipient and
 * the handover reference. From then on the hall opens no session, announces no game and sells no card (hooks).
 */
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { getProfile } from '../shared/profile.ts'
import { hallProfile } from './betting-plan.ts'
import type { BingoHooks } from './types.ts'
import { primaByHall, stateOf } from './prima-service.ts'
import { openSessionIdOfHall } from './store/games.ts'
import { hallClosure, hallProfileSettings, insertHallClosure } from './store/halls.ts'
import { appendPrimaLedgerEntry, updatePrimaState } from './store/prima.ts'

async function assertHallOpen(sql: Sql, hallId: string): Promise<void> {
  refuseClosed(hallId, (await hallClosure(sql, hallId))?.closedAt ?? null)
}

function refuseClosed(hallId: string, closedAt: string | null): void {
  if (closedAt !== null)
    throw new DomainError('HALL_CLOSED', `hall ${hallId} was closed at ${closedAt}`, {
      hallId,
      closedAt,
      rule: 'BNG-65',
    })
}

/** A closed hall opens no session, announces no game, sells no card. */
export const hallClosureHooks: BingoHooks = {
  sessionOpened: (tx, e) => assertHallOpen(tx, e.hallId),
  gameAnnounced: (tx, e) => assertHallOpen(tx, e.hallId),
  // BNG-65: the closure as the sale read it with its game, in its own transaction (a kiosk sale), else read here.
  cardsSelling: async (tx, e) =>
    e.joined ? refuseClosed(e.game.hallId, e.joined.hallClosedAt) : assertHallOpen(tx, e.game.hallId),
}

export function createHallClosureService(deps: { db: Database; clock: { now(): Date } }) {
  const { db } = deps

  async function closeHall(input: {
    hallId: string
    reason: string
    handoverRef: string | null
    by: string
    witness: string
  }): Promise<{ hallId: string; closedAt: string; primaHandedOverCents: number; primaRecipient: string | null }> {
    return db.transaction(async (tx) => {
      const hall = await hallProfileSettings(tx, input.hallId)
      const base = hall ? getProfile(hall.profileId) : undefined
      if (!hall || !base) throw new DomainError('NOT_FOUND', `hall ${input.hallId} not found`, { hallId: input.hallId })
      const profile = hallProfile(base, hall.settings)
      await assertHallOpen(tx, input.hallId)
      const session = await openSessionIdOfHall(tx, input.hallId)
      if (session)
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `session ${session} is open: it is closed (with its minutes) before the hall`,
          { sessionId: session, rule: 'BNG-65' },
        )
      const at = deps.clock.now().toISOString()
      const scope = `hall:${input.hallId}`
      // Issue 24 point 1: the fund handed over is the one the server wrote (a raised fund is refused, ROW_TAMPERED).
      const prima = await primaByHall(tx, input.hallId)
      const fund = prima ? prima.fundCents : 0
      const recipient = profile.primaOnHallClosure
      if (fund > 0) {
        if (!recipient)
          throw new DomainError(
            'RULE_DISABLED',
            "this hall's rules name no recipient for an accumulated prima fund on closure",
            { fundCents: fund, rule: 'BNG-65' },
          )
        if (!input.handoverRef)
          throw new DomainError(
            'VALIDATION_FAILED',
            "the prima fund is handed over against a reference (the deposit or the authority's receipt)",
            { field: 'handoverRef', rule: 'BNG-65' },
          )
        // BNG-65: the accumulated prima leaves the fund for the Consejería; no later game can award it.
        await updatePrimaState(tx, input.hallId, { ...stateOf(prima!), fundCents: 0, amountChangeable: false }, at)
        await appendPrimaLedgerEntry(tx, input.hallId, {
          kind: 'payment',
          gameId: null,
          amountCents: -fund,
          fundAfterCents: 0,
          detail: { handover: 'hall_closure', recipient, handoverRef: input.handoverRef, rule: 'BNG-65' },
          at,
        })
        await appendJournal(tx, {
          at,
          type: 'prima.handed_over',
          scope,
          payload: {
            hallId: input.hallId,
            amountCents: fund,
            recipient,
            handoverRef: input.handoverRef,
            by: input.by,
            witness: input.witness,
            rule: 'BNG-65',
          },
        })
      }
      await insertHallClosure(tx, {
        hallId: input.hallId,
        at,
        by: input.by,
        witness: input.witness,
        reason: input.reason,
        primaFundCents: fund,
        primaRecipient: fund > 0 ? recipient : null,
        handoverRef: input.handoverRef,
      })
      await appendJournal(tx, {
        at,
        type: 'hall.closed',
        scope,
        payload: {
          hallId: input.hallId,
          reason: input.reason,
          primaHandedOverCents: fund,
          primaRecipient: fund > 0 ? recipient : null,
          by: input.by,
          witness: input.witness,
          rule: 'BNG-65',
        },
      })
      return {
        hallId: input.hallId,
        closedAt: at,
        primaHandedOverCents: fund,
        primaRecipient: fund > 0 ? recipient : null,
      }
    })
  }

  return { closeHall }
}
