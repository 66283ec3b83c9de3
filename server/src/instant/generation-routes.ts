/**
 * Generation of an instant game in the background with its progress (issue 17: the back office's live bar). The
 * POST answers 202 at once; GET .../generations/:gameNo tells tickets done, the total and when it started, from
 * which the screen shows the rate and the time left. The seed comes from the entropy source, as in
 * POST /api/instant/games (RNG-27): a body carrying one is refused by name. Jobs live in this process only; the
 * batch itself is in storage, and a batch left `generating` by a crash is generated again from its sealed seed.
 */
import { z } from 'zod'
import { body, needs, principalOf, type App, type AppContext } from '../http/context.ts'
import { DomainError } from '../shared/errors.ts'
import { messages, pickLang } from '../http/messages.ts'
import type { Services } from '../services.ts'
import { checkDesign, type InstantDesign } from './design.ts'
import { typedSeedRefused } from './games.ts'

interface Job {
  gameNo: number
  status: 'running' | 'done' | 'failed'
  done: number
  total: number
  startedAt: string
  updatedAt: string
  code?: string
  message?: { es: string; en: string }
}

const GAME_EXISTS = {
  es: 'Ya existe un juego de raspadita con ese número.',
  en: 'An instant game with that number already exists.',
}

/** Progress steps: about 200 updates per game, at least one per 1,000 tickets. */
const stepOf = (total: number) => Math.max(1_000, Math.floor(total / 200))

export function registerInstantGenerationRoutes(app: App, services: Services): void {
  const jobs = new Map<number, Job>()

  function gameNoOf(c: AppContext): number {
    const n = Number(c.req.param('gameNo'))
    if (!Number.isInteger(n) || n < 1 || n > 9999)
      throw new DomainError('VALIDATION_FAILED', 'game number must be 1..9999')
    return n
  }

  app.post('/api/instant/generations', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z.object({ design: z.record(z.string(), z.unknown()), seed: z.unknown().optional() }).strict(),
    )
    if (b.seed !== undefined) throw typedSeedRefused()
    const design = b.design as unknown as InstantDesign
    const gameNo = Number(design.gameNo)
    const total = Number(design.ticketCount)
    if (!Number.isInteger(gameNo) || gameNo < 1 || gameNo > 9999)
      throw new DomainError('VALIDATION_FAILED', 'game number must be 1..9999', { field: 'gameNo' })
    if (total > 1_000_000)
      throw new DomainError(
        'VALIDATION_FAILED',
        'over HTTP at most 1,000,000 tickets: use npx bolillo instant generate',
      )
    // INS-1: a design that breaks a rule is refused now, with every problem named, not after the 202.
    checkDesign(design)
    if (jobs.get(gameNo)?.status === 'running') throw new DomainError('CONFLICT', `game ${gameNo} is being generated`)
    const who = principalOf(c)
    const at = new Date().toISOString()
    const job: Job = { gameNo, status: 'running', done: 0, total, startedAt: at, updatedAt: at }
    jobs.set(gameNo, job)
    void services.instant
      .generateBatch({
        design,
        by: { kind: who.kind, id: who.id },
        progressEvery: stepOf(total),
        onProgress: async (done) => {
          job.done = done
          job.updatedAt = new Date().toISOString()
          // Let the progress requests in between two steps: the storage driver never yields on its own.
          await new Promise((resolve) => setImmediate(resolve))
        },
      })
      .then(
        () => {
          job.status = 'done'
          job.done = total
          job.updatedAt = new Date().toISOString()
        },
        (err: unknown) => {
          job.status = 'failed'
          job.updatedAt = new Date().toISOString()
          const code = err instanceof DomainError ? err.code : 'INTERNAL'
          job.code = code
          // A batch of that number already there is the usual CONFLICT here: said as such, not as a race.
          job.message =
            code === 'CONFLICT' ? GAME_EXISTS : (messages[code as keyof typeof messages] ?? messages.INTERNAL)
          if (!(err instanceof DomainError)) services.log.error('instant generation failed', err)
        },
      )
    return c.json({ gameNo, status: 'running', total }, 202)
  })

  app.get('/api/instant/generations/:gameNo', needs('lottery.admin'), (c) => {
    const job = jobs.get(gameNoOf(c))
    if (!job) throw new DomainError('NOT_FOUND', 'no generation of that game in this server')
    const lang = pickLang(c.req.header('accept-language'))
    const { message, ...rest } = job
    return c.json({ ...rest, ...(message ? { message: message[lang] } : {}) })
  })
}
