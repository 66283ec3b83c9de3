import { expect } from 'vitest'
import { api, startTestServer } from './server.ts'

/**
 * A server with authentication on, real people (one per role) and a clock the test moves: the set-up of the
 * issue 18 bingo rule tests (test/e2e/bingo-rules-*.test.ts).
 */
export const PASSWORD = 'correct horse battery'
export const PEOPLE = [
  ['jefa', 'Marta Quispe', 'director'], ['mesa1', 'Luis Mamani', 'floor_manager'], ['mesa2', 'Ana Choque', 'floor_manager'],
  ['locutor', 'Pedro Flores', 'caller'], ['cajera', 'Rosa Vargas', 'cashier'], ['auditor', 'Eva Rojas', 'auditor'],
] as const
export type Who = (typeof PEOPLE)[number][0]

export async function startRulesServer(startAt: string) {
  let t = Date.parse(startAt)
  const clock = { now: () => new Date(t) }
  const server = await startTestServer({ auth: 'on' }, { clock })
  const tokens = new Map<string, string>()
  for (const [username, displayName, role] of PEOPLE) await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
  const login = async () => { for (const [u] of PEOPLE) tokens.set(u, (await server.services.auth.login(u, PASSWORD)).token) }
  await login()
  const headers = (who: Who) => ({ authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' })
  const call = (who: Who, method: string, path: string, body?: unknown) => api(server.url, method, path, body, headers(who))
  return {
    server, call, headers,
    /** Moves the clock to `iso` and logs everyone in again (a session expires with the clock). */
    async at(iso: string) { t = Date.parse(iso); await login() },
    now: () => new Date(t),
  }
}
export type RulesServer = Awaited<ReturnType<typeof startRulesServer>>

/** A hall with one series of a fresh master set, both created by the director. */
export async function hallWithSeries(s: RulesServer, input: { profileId: 'BO-2025' | 'ES-CB-2010'; name: string; cards?: number; seed: string; faceValueCents?: number; playingPositions?: number }) {
  const hall = await s.call('jefa', 'POST', '/api/halls', { name: input.name, profileId: input.profileId, playingPositions: input.playingPositions ?? 200 })
  expect(hall.status, JSON.stringify(hall.body)).toBe(201)
  const set = await s.call('jefa', 'POST', '/api/master-sets', { count: input.cards ?? 300, seed: input.seed })
  expect(set.status).toBe(201)
  const series = await s.call('jefa', 'POST', `/api/halls/${hall.body.id}/series`, { code: 'A', masterSetId: set.body.id, faceValueCents: input.faceValueCents ?? 500 })
  expect(series.status).toBe(201)
  return { hallId: hall.body.id as string, masterSetId: set.body.id as string, seriesId: series.body.id as string }
}

export async function openSession(s: RulesServer, hallId: string): Promise<string> {
  const r = await s.call('mesa1', 'POST', `/api/halls/${hallId}/sessions`, { recount: { ballsCounted: 90, confirmedBy: 'Luis Mamani' } })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id
}

/** Announces a game, opens its sales and sells `cards`; returns the game id and the serials sold. */
export async function gameOnSale(s: RulesServer, sessionId: string, seriesIds: string[], cards: number, drawSource: 'rng' | 'manual' = 'rng'): Promise<{ gameId: string; serials: string[] }> {
  const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds, drawSource })
  expect(g.status, JSON.stringify(g.body)).toBe(201)
  const gameId = g.body.gameId as string
  expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
  const sold = await s.call('locutor', 'POST', `/api/games/${gameId}/sales`, { count: cards })
  expect(sold.status, JSON.stringify(sold.body)).toBe(201)
  return { gameId, serials: sold.body.cards.map((c: { serial: string }) => c.serial) }
}

/** Ends a game before its first ball: suspended for a device failure, then annulled with refund by two people (BNG-80). */
export async function voidBeforeFirstBall(s: RulesServer, gameId: string): Promise<void> {
  const sus = await s.call('mesa1', 'POST', `/api/games/${gameId}/incidents`, { kind: 'device-failure-before-first-ball', note: 'fallo de prueba' })
  expect(sus.status, JSON.stringify(sus.body)).toBe(200)
  const v = await s.call('mesa1', 'POST', `/api/games/${gameId}/incidents`, { kind: 'unresolved-suspension', reason: 'avería sin resolver', confirm: { username: 'mesa2', password: PASSWORD } })
  expect(v.status, JSON.stringify(v.body)).toBe(200)
  expect(v.body.status).toBe('void')
}
