import { TEST_ES_SALE_RULES, TEST_SALE_RULES, testLicence } from './sale-rules.ts'
import { expect } from 'vitest'
import type { Config } from '../../server/src/config.ts'
import { api, startTestServer } from './server.ts'
import { openTill, type Till } from './till.ts'

/**
 * A server with authentication on, real people (one per role) and a clock the test moves: the set-up of the
 * issue 18 bingo rule tests (test/e2e/bingo-rules-*.test.ts).
 */
export const PASSWORD = 'correct horse battery'
export const PEOPLE = [
  ['jefa', 'Marta Quispe', 'director'],
  ['mesa1', 'Luis Mamani', 'floor_manager'],
  ['mesa2', 'Ana Choque', 'floor_manager'],
  ['locutor', 'Pedro Flores', 'caller'],
  ['cajera', 'Rosa Vargas', 'cashier'],
  ['auditor', 'Eva Rojas', 'auditor'],
] as const
export type Who = (typeof PEOPLE)[number][0]

export async function startRulesServer(startAt: string, config: Partial<Config> = {}) {
  let t = Date.parse(startAt)
  const clock = { now: () => new Date(t) }
  const server = await startTestServer({ auth: 'on', ...config }, { clock })
  const tokens = new Map<string, string>()
  for (const [username, displayName, role] of PEOPLE)
    await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
  // Issue 13: the jefe de mesa sells at the table's enrolled station, in her open shift (one per hall).
  const tills = new Map<string, Till>()
  const login = async () => {
    for (const [u] of PEOPLE) tokens.set(u, (await server.services.auth.login(u, PASSWORD)).token)
    for (const t of tills.values()) await t.relogin()
  }
  await login()
  const headers = (who: Who) => ({ authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' })
  const call = (who: Who, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(server.url, method, path, body, { ...headers(who), ...extra })
  return {
    server,
    call,
    headers,
    /** The table station of `hallId` with mesa1 logged in at it and her shift open. */
    async till(hallId: string): Promise<Till> {
      let t = tills.get(hallId)
      if (!t) {
        t = await openTill(server.url, server.services, { hallId, username: 'mesa1', password: PASSWORD })
        tills.set(hallId, t)
      }
      return t
    },
    /** Moves the clock to `iso` and logs everyone in again (a session expires with the clock). */
    async at(iso: string) {
      t = Date.parse(iso)
      await login()
    },
    now: () => new Date(t),
  }
}
export type RulesServer = Awaited<ReturnType<typeof startRulesServer>>

/** A hall with one series of a fresh master set, both created by the director. */
/** A Plan de Apuestas a Bolivian hall is created with (BNG-52: no shares without one). */
export const TEST_PLAN = {
  authorisationRef: 'AJ-RA-PRUEBA-1',
  shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
  // BNG-52 / CFG-28: the share of the takings the hall's pots may take.
  potsBp: 1000,
  commissionBp: 0,
}

export async function hallWithSeries(
  s: RulesServer,
  input: {
    profileId: 'BO-2025' | 'ES-CB-2010'
    name: string
    cards?: number
    seed: string
    faceValueCents?: number
    playingPositions?: number
    noPlan?: boolean
    /** GEN-18 / BNG-40: create the Bolivian hall without its AJ-approved bet limits (it then sells no card). */
    noSaleRules?: boolean
    /** GEN-1 / GEN-3: create the hall without its licence or authorisation reference (it then sells no card). */
    noLicence?: boolean
    noBallSets?: boolean
  },
) {
  const bo = input.profileId === 'BO-2025'
  const plan = {
    ...(bo && !input.noPlan ? { bettingPlan: TEST_PLAN } : {}),
    ...(bo && !input.noSaleRules ? { saleRules: TEST_SALE_RULES } : {}),
    // BNG-10 / CFG-15: the face values the Consejería set, recorded like the licence unless the test omits them.
    ...(!bo ? { saleRules: TEST_ES_SALE_RULES } : {}),
    // GEN-1 (the AJ's licence) and GEN-3 (the Consejería's authorisation) alike: recorded unless the test omits it.
    ...(!input.noLicence ? { licence: testLicence(input.profileId) } : {}),
  }
  const hall = await s.call('jefa', 'POST', '/api/halls', {
    name: input.name,
    profileId: input.profileId,
    playingPositions: input.playingPositions ?? 200,
    ...plan,
  })
  expect(hall.status, JSON.stringify(hall.body)).toBe(201)
  const set = await s.call('jefa', 'POST', '/api/master-sets', { count: input.cards ?? 300, seed: input.seed })
  expect(set.status).toBe(201)
  const series = await s.call('jefa', 'POST', `/api/halls/${hall.body.id}/series`, {
    code: 'A',
    masterSetId: set.body.id,
    faceValueCents: input.faceValueCents ?? 500,
  })
  expect(series.status).toBe(201)
  if (!input.noBallSets) {
    await registerBallSets(s, hall.body.id)
    await registerExtractor(s, hall.body.id)
  }
  return { hallId: hall.body.id as string, masterSetId: set.body.id as string, seriesId: series.body.id as string }
}

/**
 * The hall's balls, as a hall that plays manual games has them (BNG-24/25/26): an active set and a reserve set,
 * type-approved with the manufacturer's guaranteed games. Returns their ids.
 */
export async function registerBallSets(
  s: RulesServer,
  hallId: string,
  opts: { ballCount?: number; bothReserve?: boolean } = {},
): Promise<{ activeId: string; reserveId: string }> {
  const ids: string[] = []
  const name = opts.ballCount ? `Juego de ${opts.ballCount} bolas` : 'Juego'
  for (const [label, status] of [
    [`${name} 1`, opts.bothReserve ? 'reserve' : 'active'],
    [`${name} 2 (reserva)`, 'reserve'],
  ] as const) {
    const r = await s.call('jefa', 'POST', `/api/halls/${hallId}/ball-sets`, {
      label,
      approvalNo: 'HOM-BOLAS-1',
      guaranteedGames: 3000,
      status,
      ...(opts.ballCount ? { ballCount: opts.ballCount } : {}),
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    ids.push(r.body.id)
  }
  return { activeId: ids[0], reserveId: ids[1] }
}

/** The X-Bolillo-Second-Person header: `username` confirms with their own password on the requester's screen. */
export const secondPerson = (username: Who, password = PASSWORD) => ({
  'x-bolillo-second-person': Buffer.from(`${username}:${password}`, 'utf8').toString('base64'),
})

/** The jefe de mesa recounts the balls and the director witnesses it with her credential (BNG-27). */
export async function openSession(s: RulesServer, hallId: string): Promise<string> {
  const r = await s.call(
    'mesa1',
    'POST',
    `/api/halls/${hallId}/sessions`,
    { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
    secondPerson('jefa'),
  )
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id
}

/** Announces a game, opens its sales and sells `cards`; returns the game id and the serials sold. */
export async function gameOnSale(
  s: RulesServer,
  sessionId: string,
  seriesIds: string[],
  cards: number,
  drawSource: 'rng' | 'manual' = 'rng',
): Promise<{ gameId: string; serials: string[] }> {
  const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds, drawSource })
  expect(g.status, JSON.stringify(g.body)).toBe(201)
  const gameId = g.body.gameId as string
  expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
  const hallId = (await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.hallId as string
  const sold = await api(
    s.server.url,
    'POST',
    `/api/games/${gameId}/sales`,
    { ageConfirmed: true, count: cards },
    (await s.till(hallId)).headers,
  )
  expect(sold.status, JSON.stringify(sold.body)).toBe(201)
  return { gameId, serials: sold.body.cards.map((c: { serial: string }) => c.serial) }
}

/**
 * Ends a game before its first ball: suspended for a device failure, then annulled with refund by two people
 * (BNG-80); each entry signed by the jefe de mesa and the director (BNG-74, which Cantabria does not ask for).
 */
export async function voidBeforeFirstBall(s: RulesServer, gameId: string): Promise<void> {
  const director = { username: 'jefa', password: PASSWORD }
  const sus = await s.call('mesa1', 'POST', `/api/games/${gameId}/incidents`, {
    kind: 'device-failure-before-first-ball',
    note: 'fallo de prueba',
    confirm: director,
  })
  expect(sus.status, JSON.stringify(sus.body)).toBe(200)
  const v = await s.call('mesa1', 'POST', `/api/games/${gameId}/incidents`, {
    kind: 'unresolved-suspension',
    reason: 'avería sin resolver',
    confirm: director,
  })
  expect(v.status, JSON.stringify(v.body)).toBe(200)
  expect(v.body.status).toBe('void')
}

/** BNG-30/31: the hall's manual drum with its seal, Certificado de Cumplimiento and type-approval number (CFG-8). */
export async function registerExtractor(
  s: RulesServer,
  hallId: string,
  id = `BOMBO-${hallId}`.slice(0, 40),
): Promise<string> {
  const r = await s.call('jefa', 'POST', '/api/devices', {
    id,
    kind: 'blower',
    name: 'Bombo manual',
    hallId,
    sealCode: `AJ-PRE-${id}`.slice(0, 40),
    certificateId: 'CC-BOMBO-1',
    typeApprovalNo: 'HOM-BOMBO-1',
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return id
}

/**
 * BNG-71: the table pays the game's line and bingo before the next game, through the one door every prize goes
 * through (cashdesk/payouts.ts): each winning card's signed code presented at the hall's table station (`s.till`,
 * mesa1 logged in, her shift open), out of her drawer. A card is paid whole: any bonus prize it carries with them.
 * Returns the payouts' answers.
 */
export async function payTablePrizes(
  s: RulesServer,
  gameId: string,
  payee: { payeeName: string; payeeDocument: string } = { payeeName: 'Ana Ruiz', payeeDocument: '12345678Z' },
): Promise<Array<{ amountCents: number; prizes: Array<{ id: string; kind: string }> }>> {
  const db = s.server.services.db
  const hall = await db.get<{ hall_id: string }>('SELECT hall_id FROM games WHERE id = ?', [gameId])
  const prizes = await db.all<{ id: string; card_id: string }>(
    "SELECT id, card_id FROM prizes WHERE game_id = ? AND status = 'awarded' ORDER BY id",
    [gameId],
  )
  const till = await s.till(hall!.hall_id)
  const paid: Array<{ amountCents: number; prizes: Array<{ id: string; kind: string }> }> = []
  const cards = new Set<string>()
  for (const p of prizes) {
    if (cards.has(p.card_id)) continue
    cards.add(p.card_id)
    const r = await api(
      s.server.url,
      'POST',
      `/api/prizes/${p.id}/pay`,
      { code: s.server.services.cashdesk.payouts.cardCode(p.card_id), ...payee },
      till.headers,
    )
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    paid.push(r.body.payout ?? r.body)
  }
  return paid
}
