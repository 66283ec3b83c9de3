/**
 * Routes of the reprint after a loss or theft and of the exchange of sold tickets (LST-1 (a), LST-2 (a), LST-4,
 * LST-5; reissue.ts).
 */
import { z } from 'zod'
import { actorOf, body, needs, param as p, type App } from '../http/context.ts'
import type { Services } from '../services.ts'

export function registerReissueRoutes(app: App, services: Services): void {
  const lottery = services.lottery
  // LST-1 (a): the reprint the AJ authorised for a reported range, by the lottery administration.
  app.post('/api/lottery/draws/:drawId/reissues', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          mode: z.enum(['new-numbering', 'full-reprint']),
          lostRangeId: z.string().min(1).max(80),
          authorisationRef: z.string().max(120),
          schedule: z.array(z.object({ act: z.string().max(200), at: z.string().max(40) }).strict()).max(20),
          designNote: z.string().max(500).optional(),
          replacement: z
            .object({
              from: z.number().int(),
              to: z.number().int(),
              seriesFrom: z.number().int().optional(),
              seriesTo: z.number().int().optional(),
            })
            .strict()
            .optional(),
        })
        .strict(),
    )
    return c.json(await lottery.recordReissue(p(c, 'drawId'), b, actorOf(c)), 201)
  })
  app.get('/api/lottery/draws/:drawId/reissues', needs('report.read'), async (c) =>
    c.json({ reissues: await lottery.listReissues(p(c, 'drawId')) }),
  )
  // LST-4 (1): the holder presents the sold paper at a cash desk and takes its reprint; no money moves.
  app.post('/api/lottery/tickets/exchange', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ code: z.string().min(1).max(400) }).strict())
    return c.json(await lottery.exchange(b.code, actorOf(c)))
  })
}
