/**
 * Issue 18 routes of a hall's complaints book (BNG-72, GEN-21) and manual-book markers (BNG-76). Under
 * /api/halls/:hallId, so the hall guard (access/halls.ts) checks the hall, and a body's sessionId, against the
 * person's halls. The writer is always the logged-in person (actorOf), never a name from the body.
 */
import { z } from 'zod'
import { actorOf, body, forReader, needs, type App, type AppContext } from '../http/context.ts'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'

const param = (c: AppContext, name: string): string => c.req.param(name) ?? ''
const id = z.string().min(1).max(80)

export function registerComplaintsRoutes(app: App, services: Services): void {
  const book = services.complaints

  app.post('/api/halls/:hallId/complaints', needs('complaints.record'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          playerName: z.string().max(120),
          playerDocument: z.string().max(40).optional(),
          playerContact: z.string().max(120).optional(),
          text: z.string().max(4000),
          sessionId: id.optional(),
          gameNo: z.number().int().optional(),
        })
        .strict(),
    )
    return c.json(await book.record(param(c, 'hallId'), b, actorOf(c)), 201)
  })
  // The inspector and the auditor read the book (minutes.read); they never write in it.
  app.get('/api/halls/:hallId/complaints', needs('minutes.read'), async (c) => {
    const status = c.req.query('status')
    if (status !== undefined && status !== 'pending' && status !== 'answered')
      throw new DomainError('VALIDATION_FAILED', 'status is pending or answered')
    // Issue 24 point 2: the complainant's document to the roles that read identities (aml.identity), masked for the rest.
    return c.json({ complaints: forReader(c, await book.list(param(c, 'hallId'), status)) })
  })
  app.post('/api/halls/:hallId/complaints/:number/answer', needs('complaints.answer'), async (c) => {
    const number = Number(param(c, 'number'))
    if (!Number.isInteger(number) || number < 1)
      throw new DomainError('VALIDATION_FAILED', 'a complaint number is a whole number from 1')
    const b = await body(c, z.object({ answer: z.string().max(4000) }).strict())
    return c.json(await book.answer(param(c, 'hallId'), number, b.answer, actorOf(c)))
  })

  // BNG-76: the range of games played on the manual auxiliary book while the system was down.
  app.post('/api/halls/:hallId/sessions/:sessionId/manual-book', needs('game.incident'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          fromGame: z.number().int(),
          resumedAtGame: z.number().int().nullable(),
          reason: z.string().max(1000),
          folios: z.string().max(200),
        })
        .strict(),
    )
    return c.json(await book.recordManualBook(param(c, 'hallId'), param(c, 'sessionId'), b, actorOf(c)), 201)
  })
  app.get('/api/halls/:hallId/manual-book', needs('minutes.read'), async (c) =>
    c.json({ entries: await book.manualBookEntries(param(c, 'hallId')) }),
  )
}
