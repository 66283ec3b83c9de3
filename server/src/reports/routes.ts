/**
 * HTTP routes of the back office's reports (issue 17 point 2): sales and prizes by product, day and game with the
 * payout ratio against the plan (JSON for the charts, the same figures as a PDF), a ball set's frequencies over its
 * life, and the master sets a director picks a series from.
 */
import { z } from 'zod'
import { needs, param, pdf, type App, type AppContext } from '../http/context.ts'
import { pickLang } from '../http/messages.ts'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { createReportsService } from './service.ts'
import { hallZoneRow } from './store.ts'
import { scopedHall } from '../http/hall-scope.ts'
import { getProfile } from '../shared/profile.ts'
import { hallZoneOf } from '../shared/time-zone.ts'

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const reportQuery = z.object({
  from: day.optional(),
  to: day.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  hallId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  lang: z.enum(['es', 'en']).optional(),
})

function query<T extends z.ZodType>(c: AppContext, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query())
  if (!parsed.success)
    throw new DomainError('VALIDATION_FAILED', 'the query does not match the expected fields', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    })
  return parsed.data
}

export function registerReportsRoutes(app: App, services: Services): void {
  // The server's clock, as every use case: a report's default period ends on the server's today, not the machine's.
  const reports = createReportsService({ db: services.db, now: () => services.clock.now() })
  // Issue 17 point 4: the PDF's times on the hall's clock (the operator's profile zone for a report of every hall).
  const zoneOf = async (hallId: string | undefined) => {
    const fallback = getProfile(services.config.profileId)?.timeZone ?? 'UTC'
    if (!hallId) return fallback
    const row = await hallZoneRow(services.db, hallId)
    return hallZoneOf(row?.settings, getProfile(row?.profile_id ?? '')?.timeZone ?? fallback)
  }
  app.get('/api/reports/sales', needs('minutes.read'), async (c) => {
    const { lang: _lang, ...q } = query(c, reportQuery)
    return c.json(await reports.salesReport({ ...q, hallId: scopedHall(c, q.hallId) }))
  })
  app.get('/api/reports/sales.pdf', needs('minutes.read'), async (c) => {
    const { lang, ...raw } = query(c, reportQuery)
    const q = { ...raw, hallId: scopedHall(c, raw.hallId) }
    return pdf(
      c,
      await reports.salesReportPdf(q, lang ?? pickLang(c.req.header('accept-language')), await zoneOf(q.hallId)),
      `ventas-y-premios-${q.from ?? ''}-${q.to ?? ''}.pdf`,
    )
  })
  app.get('/api/ball-sets/:setId/frequencies', needs('minutes.read'), async (c) =>
    c.json(await reports.ballFrequencies(param(c, 'setId'))),
  )
  app.get('/api/master-sets', needs('hall.admin'), async (c) => c.json({ masterSets: await reports.masterSets() }))
}
