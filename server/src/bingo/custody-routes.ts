/**
 * Issue 18 routes of a card's custody after its game (BNG-87/88/89/92), the purge of records past their retention
 * (BNG-77) and the closure of a hall (BNG-65). A card is named by its signed code (the
 * hall guard resolves the code's hall), a game by its path. Who acted is the logged-in person (nameOf; the journal's
 * actor is actorOf), never a name from the body; a destruction names the second person present (records.witness).
 */
import { z } from 'zod'
import { body, nameOf, needs, param, principalOf, witnessOf, type App, type AppContext } from '../http/context.ts'
import { DomainError } from '../shared/errors.ts'
import { TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { Services } from '../services.ts'
import { TAMPER_REASONS } from './card-custody.ts'

const code = z.string().min(1).max(400)
const text = z.string().trim().min(3).max(1000)

export function registerCustodyRoutes(app: App, services: Services): void {
  const custody = services.custody

  /** The card a signed code names; a bad signature or another kind of ticket is refused. */
  function cardIdOf(value: string): string {
    const ref = verifyTicketCode(String(value).trim(), services.keys.publicKey)
    if (ref.kind !== TicketKind.card)
      throw new DomainError('VALIDATION_FAILED', 'the code is not a bingo card', { field: 'code' })
    return ref.id
  }
  const stationOf = (c: AppContext): string | null => (principalOf(c) as { device?: { id: string } }).device?.id ?? null

  app.get('/api/games/:gameId/card-custody', needs('minutes.read'), async (c) =>
    c.json({ cards: await custody.ofGame(param(c, 'gameId')) }),
  )

  // BNG-87/88: after the game the cards are collected (a winner goes to the archive instead).
  app.post('/api/cards/collect', needs('card.collect'), async (c) => {
    const b = await body(c, z.object({ code }).strict())
    return c.json(await custody.collect({ cardId: cardIdOf(b.code), by: nameOf(c, 'sin autenticación') }))
  })
  app.post('/api/games/:gameId/card-custody/collect', needs('card.collect'), async (c) => {
    await body(c, z.object({}).strict())
    return c.json(await custody.collectGame({ gameId: param(c, 'gameId'), by: nameOf(c, 'sin autenticación') }))
  })
  // BNG-87 (a): kept as evidence of a claim or incident.
  app.post('/api/cards/hold', needs('card.hold'), async (c) => {
    const b = await body(c, z.object({ code, reason: text }).strict())
    return c.json(
      await custody.move({
        cardId: cardIdOf(b.code),
        action: 'hold',
        reason: b.reason,
        by: nameOf(c, 'sin autenticación'),
      }),
    )
  })
  // BNG-92: the cashier holds a presented card found altered, or whose paper does not match its signed code.
  app.post('/api/tickets/tampered', needs('card.tampered'), async (c) => {
    const b = await body(
      c,
      z.object({ code, reason: z.enum(TAMPER_REASONS), note: z.string().max(1000).optional() }).strict(),
    )
    return c.json(
      await custody.markTampered({
        cardId: cardIdOf(b.code),
        reason: b.reason,
        note: b.note ?? null,
        by: nameOf(c, 'sin autenticación'),
        stationId: stationOf(c),
      }),
      201,
    )
  })
  // BNG-87 (a): released only by the director, on the authority's decision.
  app.post('/api/cards/release', needs('card.release'), async (c) => {
    const b = await body(c, z.object({ code, reason: text, authorityRef: z.string().trim().min(3).max(200) }).strict())
    return c.json(
      await custody.move({
        cardId: cardIdOf(b.code),
        action: 'release',
        reason: b.reason,
        authorityRef: b.authorityRef,
        by: nameOf(c, 'sin autenticación'),
      }),
    )
  })
  // BNG-71: the jefe de mesa records that a winner did not present the card before the next game; it stays payable.
  app.post('/api/games/:gameId/prizes/not-presented', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ note: text }).strict())
    return c.json(
      await custody.recordNotPresented({
        gameId: param(c, 'gameId'),
        note: b.note,
        by: nameOf(c, 'sin autenticación'),
      }),
    )
  })
  // BNG-87: destroyed in the presence of a second person.
  app.post('/api/cards/destroy', needs('card.destroy'), async (c) => {
    const b = await body(c, z.object({ code, witnessedBy: z.string().max(120).optional() }).strict())
    const witness = await witnessOf(c, 'records.witness', b.witnessedBy)
    return c.json(
      await custody.move({
        cardId: cardIdOf(b.code),
        action: 'destroy',
        reason: `witness: ${witness}`,
        by: nameOf(c, 'sin autenticación'),
      }),
    )
  })
  app.post('/api/games/:gameId/card-custody/destroy', needs('card.destroy'), async (c) => {
    const b = await body(c, z.object({ reason: text, witnessedBy: z.string().max(120).optional() }).strict())
    const witness = await witnessOf(c, 'records.witness', b.witnessedBy)
    return c.json(
      await custody.destroyGame({
        gameId: param(c, 'gameId'),
        by: nameOf(c, 'sin autenticación'),
        witness,
        reason: b.reason,
      }),
    )
  })

  // BNG-65: a hall closed for good by the director with a second person; its prima fund handed over.
  app.post('/api/halls/:hallId/close', needs('hall.close'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          reason: text,
          handoverRef: z.string().trim().min(3).max(200).optional(),
          witnessedBy: z.string().max(120).optional(),
        })
        .strict(),
    )
    const witness = await witnessOf(c, 'records.witness', b.witnessedBy)
    return c.json(
      await services.hallClosure.closeHall({
        hallId: param(c, 'hallId'),
        reason: b.reason,
        handoverRef: b.handoverRef ?? null,
        by: nameOf(c, 'sin autenticación'),
        witness,
      }),
    )
  })

  // BNG-77 / CFG-37: a closed session's records purged only after the retention period, with a second person.
  app.post('/api/sessions/:sessionId/purge', needs('records.purge'), async (c) => {
    const b = await body(c, z.object({ reason: text, witnessedBy: z.string().max(120).optional() }).strict())
    const witness = await witnessOf(c, 'records.witness', b.witnessedBy)
    return c.json(
      await services.retention.purgeSession({
        sessionId: param(c, 'sessionId'),
        by: nameOf(c, 'sin autenticación'),
        witness,
        reason: b.reason,
      }),
    )
  })
}
