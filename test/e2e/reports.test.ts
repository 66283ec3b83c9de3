import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

/**
 * The back office's server side (issue 17), over real HTTP with authentication on and real people: the sales and
 * prizes report (JSON and PDF) with the payout ratio against the plan, a ball set's frequencies (BNG-24), the master
 * sets list, and an instant game generated in the background with progress answered while it runs (RNG-27: the
 * seed is never typed). Runs on SQLite and, with BOLILLO_TEST_DATABASE_URL, on PostgreSQL.
 */
const PASSWORD = 'contraseña segura 1'
const HOUR = 3_600_000
// The server's clock: a fixed La Paz morning, then real time, so that the sales and the report fall on one day
// whatever the real date (the report's days and its default `to` come from the clock).
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2026-06-15T10:00:00-04:00') + (Date.now() - started)) }
const iso = (ms: number) => new Date(clock.now().getTime() + ms).toISOString()

describe('back-office reports and generation progress (issue 17)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const tokens = new Map<string, string>()
  let hallId = ''
  let setId = ''
  const as = (user: string) => ({ authorization: `Bearer ${tokens.get(user)}`, 'accept-language': 'es' })
  async function call(user: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
    const r = await api(server.url, method, path, body, { ...as(user), ...extra })
    if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['inspector', 'Carmen Rojas', 'auditor'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)
    }
    hallId = (
      await call('jefa', 'POST', '/api/halls', {
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 200,
        bettingPlan: {
          authorisationRef: 'AJ-RA-PRUEBA-1',
          shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
        },
      })
    ).id
    setId = (
      await call('jefa', 'POST', `/api/halls/${hallId}/ball-sets`, {
        label: 'Juego A',
        gameLimit: 1000,
        status: 'active',
      })
    ).id
    // BNG-25: a reserve set before any ball is drawn by hand.
    await call('jefa', 'POST', `/api/halls/${hallId}/ball-sets`, { label: 'Juego B', status: 'reserve' })
    // BNG-30: the certified drum the balls come from.
    await call('jefa', 'POST', '/api/devices', {
      id: 'BOMBO-1',
      kind: 'blower',
      name: 'Bombo manual',
      hallId,
      sealCode: 'AJ-PRE-0001',
      certificateId: 'CC-0001',
    })
    const master = await call('jefa', 'POST', '/api/master-sets', { count: 300, seed: 'reports' })
    const series = await call('jefa', 'POST', `/api/halls/${hallId}/series`, {
      code: 'A',
      masterSetId: master.id,
      faceValueCents: 500,
    })
    // BNG-27: the jefe de mesa counts, the director witnesses with her own credential.
    const session = await call(
      'mesa',
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { 'x-bolillo-second-person': Buffer.from(`jefa:${PASSWORD}`).toString('base64') },
    )
    // One game with balls typed in from the blower (counted against the ball set), played to its end.
    const g = await call('mesa', 'POST', `/api/sessions/${session.id}/games`, {
      seriesIds: [series.id],
      drawSource: 'manual',
    })
    await call('mesa', 'POST', `/api/games/${g.gameId}/sales/open`)
    // Cards and slips are sold for cash at the table's enrolled station, in the jefe de mesa's open shift (issue 13).
    tokens.set(
      'mesa@mesa1',
      (await openTill(server.url, server.services, { hallId, username: 'mesa', password: PASSWORD })).token,
    )
    await call('mesa@mesa1', 'POST', `/api/games/${g.gameId}/sales`, { ageConfirmed: true, count: 40 })
    await call('mesa', 'POST', `/api/games/${g.gameId}/sales/close`, {})
    let ball = 0
    for (let i = 0; i < 300; i++) {
      const s = await call('mesa', 'GET', `/api/games/${g.gameId}`)
      if (s.status === 'finished') break
      if (s.window) await call('mesa', 'POST', `/api/games/${g.gameId}/window/close`)
      else await call('mesa', 'POST', `/api/games/${g.gameId}/balls`, { ball: ++ball })
    }
    const lotto = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({
        salesStartAt: iso(-HOUR),
        salesCloseAt: iso(HOUR),
        drawAt: iso(2 * HOUR),
        claimDeadline: iso(62 * 24 * HOUR),
      }),
    )
    await call('mesa@mesa1', 'POST', `/api/lotto/draws/${lotto.drawId}/slips`, {
      ageConfirmed: true,
      quickPicks: 3,
      player: { name: 'Ana Choque', document: 'CI 1' },
    })
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('reports sales and prizes by product, day and game, with the payout ratio against the plan (BNG-56, LOT-5)', async () => {
    const r = await call('inspector', 'GET', '/api/reports/sales')
    const today = '2026-06-15'
    expect(r).toMatchObject({ to: today, currency: 'BOB' })
    // 40 cards at Bs 5; line 10 % + bingo 51 % of Bs 200 awarded.
    expect(r.products).toEqual([
      { product: 'bingo', salesCents: 20_000, prizesCents: 12_200, payoutBp: 6100, planBp: 6100 },
      { product: 'lotto', salesCents: 1_500, prizesCents: 0, payoutBp: 0, planBp: 5000 },
    ])
    expect(r.days).toHaveLength(1)
    expect(r.days[0]).toMatchObject({
      day: today,
      salesCents: 21_500,
      byProduct: { bingo: { salesCents: 20_000 }, lotto: { salesCents: 1_500 } },
    })
    expect(r.games.map((g: any) => [g.product, g.label, g.gameNo])).toEqual([
      ['bingo', 'Sala Illimani', 1],
      ['lotto', 'LOTO649', 101],
    ])
    // A hall's report shows only what is kept per hall.
    expect(
      (await call('inspector', 'GET', `/api/reports/sales?hallId=${hallId}`)).products.map((p: any) => p.product),
    ).toEqual(['bingo'])
    // A range with nothing in it, and a range that is not one.
    expect((await call('inspector', 'GET', '/api/reports/sales?from=2020-01-01&to=2020-01-31')).products).toEqual([])
    const bad = await api(
      server.url,
      'GET',
      '/api/reports/sales?from=2026-12-01&to=2026-11-01',
      undefined,
      as('inspector'),
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('Los datos enviados no son válidos.')
  })

  it('gives the same figures as a PDF, and refuses the report to a cashier', async () => {
    const res = await fetch(`${server.url}/api/reports/sales.pdf?lang=es`, { headers: as('inspector') })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    // Issue 17 point 4: the hall's report speaks the hall's clock (La Paz), not UTC: the shift's opening time as
    // the table's clock showed it, and the zone named once.
    const hallPdf = await fetch(`${server.url}/api/reports/sales.pdf?lang=es&hallId=${hallId}`, {
      headers: as('inspector'),
    })
    const file = join(server.dataDir, 'ventas.pdf')
    writeFileSync(file, Buffer.from(await hallPdf.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain('La Paz, UTC-04:00')
    const shift = (await call('inspector', 'GET', `/api/shifts?hallId=${hallId}`)).shifts[0]
    expect(text).toContain(formatInZone(shift.openedAt ?? shift.opened_at, 'America/La_Paz'))
    expect(text).not.toMatch(/\d{2}:\d{2} UTC/)
    expect((await api(server.url, 'GET', '/api/reports/sales', undefined, as('cajera'))).status).toBe(403)
    expect((await api(server.url, 'GET', '/api/reports/sales')).status).toBe(401)
  })

  it('counts each ball of a set over its life, with the chi-square test of equal chances (BNG-24)', async () => {
    const f = await call('inspector', 'GET', `/api/ball-sets/${setId}/frequencies`)
    expect(f).toMatchObject({ label: 'Juego A', ballCount: 90, games: 1 })
    expect(f.counts).toHaveLength(90)
    // Balls 1..n were typed in order: each of them once, none after.
    const n = f.balls
    expect(f.counts.slice(0, n)).toEqual(new Array(n).fill(1))
    expect(f.counts.slice(n).every((c: number) => c === 0)).toBe(true)
    expect(f.expected).toBeCloseTo(n / 90, 10)
    expect(f.chiSquare.df).toBe(89)
    expect((await api(server.url, 'GET', '/api/ball-sets/nope/frequencies', undefined, as('inspector'))).status).toBe(
      404,
    )
  })

  it('lists master sets for the director only', async () => {
    const list = await call('jefa', 'GET', '/api/master-sets')
    expect(list.masterSets).toEqual([expect.objectContaining({ cardCount: 300, seriesCount: 1 })])
    expect((await api(server.url, 'GET', '/api/master-sets', undefined, as('inspector'))).status).toBe(403)
  })

  it('generates an instant game in the background and answers its progress while it runs (RNG-27: no typed seed)', async () => {
    const design = {
      gameNo: 321,
      name: 'Raspa Titicaca',
      currency: 'BOB',
      priceCents: 1000,
      ticketCount: 200_000,
      packSize: 100,
      playStyle: { type: 'match-three' },
      tiers: [
        { amountCents: 500_000, count: 10 },
        { amountCents: 50_000, count: 300 },
        { amountCents: 5_000, count: 6_000 },
        { amountCents: 2_000, count: 15_000 },
        { amountCents: 1_000, count: 40_000 },
      ],
      payoutShareBp: { min: 4500, max: 7000 },
      claimDays: 90,
      salesEndAt: '2099-12-31T23:59:59-04:00',
      authorisationRef: 'AJ-RA-2025-0042',
      back: { issuer: 'Lotería Nacional', paymentPlace: 'Cajas de la sala' },
    }
    const typed = await api(
      server.url,
      'POST',
      '/api/instant/generations',
      { design, seed: 'ab'.repeat(32) },
      as('jefa'),
    )
    expect(typed.body.error.code).toBe('TYPED_SEED_REFUSED')
    // INS-1: a design outside its declared payout is refused before anything starts.
    const refused = await api(
      server.url,
      'POST',
      '/api/instant/generations',
      { design: { ...design, payoutShareBp: { min: 100, max: 200 } } },
      as('jefa'),
    )
    expect(refused.status).toBe(400)
    expect((await api(server.url, 'POST', '/api/instant/generations', { design }, as('mesa'))).status).toBe(403)
    const started = await api(server.url, 'POST', '/api/instant/generations', { design }, as('jefa'))
    expect(started).toMatchObject({ status: 202, body: { gameNo: 321, status: 'running', total: 200_000 } })
    const seen: number[] = []
    let last: any
    for (let i = 0; i < 2000; i++) {
      last = await call('jefa', 'GET', '/api/instant/generations/321')
      seen.push(last.done)
      if (last.status !== 'running') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(last).toMatchObject({ status: 'done', done: 200_000, total: 200_000 })
    // Answered part-way at least once, and never going backwards.
    expect(seen.some((d) => d > 0 && d < 200_000)).toBe(true)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(Date.parse(last.updatedAt)).toBeGreaterThanOrEqual(Date.parse(last.startedAt))
    const game = await call('jefa', 'GET', '/api/instant/games/321')
    expect(game).toMatchObject({ gameNo: 321, status: 'ready', ticketCount: 200_000, packCount: 2_000 })
    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).records
    expect(journal.find((r: any) => r.type === 'instant.batch_generated')?.payload).toMatchObject({
      gameNo: 321,
      by: { kind: 'person' },
      rule: 'RNG-27',
    })
    // The same game again: the failure is said in words on the progress.
    await call('jefa', 'POST', '/api/instant/generations', { design })
    for (let i = 0; i < 200; i++) {
      last = await call('jefa', 'GET', '/api/instant/generations/321')
      if (last.status !== 'running') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(last).toMatchObject({
      status: 'failed',
      code: 'CONFLICT',
      message: 'Ya existe un juego de raspadita con ese número.',
    })
  }, 120_000)
})
