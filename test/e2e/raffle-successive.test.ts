import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProof } from '../../server/src/shared/draw-proof-v2.ts'
import type { RafflePlanInput } from '../../server/src/lottery/rules.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649, rafflePlan } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * PRM-9 (004 G.II "De tracto sucesivo. Consiste en la celebración de un sorteo de forma sucesiva en varias fechas")
 * over real HTTP with authentication on: a promotional draw held on three dates, each with its own prizes. The plan
 * is checked (every prize in one draw, dates in order, the claim period after the last draw, the bases' word on
 * winners); each draw is closed, drawn with its own verifiable proof, settled and published on its own, in order;
 * the tickets sold for the first draw take part in every draw (less earlier winners where the bases say so), and a
 * prize is paid at the cash desk's one door only once its own draw is settled.
 */
const PASSWORD = 'correct horse battery'
const payee = { payeeName: 'Ana García López', payeeDocument: '12345678Z' }

/** A free promotional draw of 50 numbers held on 10, 17 and 24 June, one goods prize each. */
function successivePlan(overrides: Partial<RafflePlanInput> = {}): RafflePlanInput {
  const base = rafflePlan({
    kind: 'promotional',
    classification: 'promotional',
    gameCode: 'PROMOSUC',
    drawNumber: 10,
    ticketPriceCents: 0,
    communicationRef: 'COM-CB-2025-0091',
    numbering: { from: 1, to: 50, digits: 2 },
    salesStartAt: '2025-06-01T10:00:00+02:00',
    salesCloseAt: '2025-06-10T20:00:00+02:00',
    drawAt: '2025-06-10T22:00:00+02:00',
    claimDeadline: '2025-08-23T23:59:59+02:00',
  })
  return {
    ...base,
    prizes: [
      ...base.prizes,
      {
        ...base.prizes[1],
        code: 'R3',
        name: 'Tercer premio',
        description: 'Lote de libros',
        invoiceRef: 'FAC-2025-120',
      },
    ],
    successive: true,
    winnersStayIn: false,
    draws: [
      { drawAt: '2025-06-10T22:00:00+02:00', prizeCodes: ['R1'] },
      { drawAt: '2025-06-17T22:00:00+02:00', prizeCodes: ['R2'] },
      { drawAt: '2025-06-24T22:00:00+02:00', prizeCodes: ['R3'] },
    ],
    ...overrides,
  }
}

describe('PRM-9: a promotional draw of successive draws (tracto sucesivo), each drawn, settled, published and paid on its own (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  let till: Till
  async function login() {
    for (const u of ['jefa', 'mesa']) auth.set(u, `Bearer ${(await server.services.auth.login(u, PASSWORD)).token}`)
    await till?.relogin()
  }
  const desk = (path: string, code: string) =>
    api(server.url, 'POST', path, path.endsWith('/pay') ? { code, ...payee } : { code }, till.headers)
  /** Closes, draws by RNG and settles one draw; answers the winning number of each prize and the proof. */
  async function holdDraw(id: string) {
    const closed = await call('jefa', 'POST', `/api/lottery/draws/${id}/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const drawn = await call('jefa', 'POST', `/api/lottery/draws/${id}/draw`)
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200)
    const settled = await call('jefa', 'POST', `/api/lottery/draws/${id}/settle`)
    expect(settled.status, JSON.stringify(settled.body)).toBe(200)
    const proof = (await call('jefa', 'GET', `/api/lottery/draws/${id}/proof`)).body
    expect(verifyProof(proof)).toMatchObject({ ok: true, version: 'bolillo-draw-v2', errors: [] })
    expect(proof.salesDigest).toBe(closed.body.salesDigest)
    expect(proof.balls.map((v: number) => Number(proof.soldSerials[v - 1]))).toEqual(drawn.body.drawn)
    return { closed: closed.body, winning: settled.body.winning as Record<string, number>, proof }
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajero', 'Pedro Gómez', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(hall.status, JSON.stringify(hall.body)).toBe(201)
    till = await openTill(server.url, server.services, {
      hallId: hall.body.id,
      username: 'cajero',
      password: PASSWORD,
      floatCents: 10_000,
    })
  })
  afterAll(async () => server?.cleanup())

  it('PRM-9: refuses a successive plan that ties a prize to two draws or none, dates out of order, no word on winners, a claim period ending before 60 days after the last draw, or a raffle on several dates', async () => {
    const refused = async (plan: RafflePlanInput, field: string) => {
      const r = await call('jefa', 'POST', '/api/lottery/draws', plan)
      expect(r.status, field).toBe(400)
      const problems = r.body.error.details.problems as Array<{ field: string; rule: string }>
      expect(problems, field).toContainEqual(expect.objectContaining({ field, rule: 'PRM-9' }))
    }
    const good = successivePlan()
    await refused(
      {
        ...good,
        draws: [
          { drawAt: good.draws![0].drawAt, prizeCodes: ['R1', 'R2'] },
          { drawAt: good.draws![1].drawAt, prizeCodes: ['R2'] },
          { drawAt: good.draws![2].drawAt, prizeCodes: ['R3'] },
        ],
      },
      'draws[1].prizeCodes',
    )
    await refused({ ...good, draws: good.draws!.slice(0, 2) }, 'draws')
    await refused(
      {
        ...good,
        draws: [good.draws![0], good.draws![2], good.draws![1]],
      },
      'draws[2].drawAt',
    )
    await refused({ ...good, winnersStayIn: undefined }, 'winnersStayIn')
    await refused({ ...good, claimDeadline: '2025-08-09T23:59:59+02:00' }, 'claimDeadline')
    await refused(
      { ...good, draws: [{ ...good.draws![0], drawAt: '2025-06-11T22:00:00+02:00' }, ...good.draws!.slice(1)] },
      'draws[0].drawAt',
    )
    // 004 F.I: a rifa is "un sorteo" and a tómbola a simultaneous draw; only a combinación aleatoria is successive.
    await refused(
      { ...good, kind: 'raffle', classification: 'benefica', ticketPriceCents: 500, communicationRef: null },
      'successive',
    )
    // A cashier plans nothing.
    expect((await api(server.url, 'POST', '/api/lottery/draws', good, till.headers)).status).toBe(403)
    expect((await call('jefa', 'GET', '/api/lottery/draws')).body.draws).toHaveLength(0)
  })

  it('PRM-9: three draws in order, each with its own proof, extracto and acta; tickets of the first in every draw, earlier winners out; each prize paid once its own draw is settled', async () => {
    t = Date.parse('2025-06-01T12:00:00+02:00')
    await login()
    const created = await call('jefa', 'POST', '/api/lottery/draws', successivePlan())
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const ids = (created.body.successiveDraws as Array<{ drawId: string; index: number; drawAt: string }>).map(
      (d) => d.drawId,
    )
    expect(created.body.successiveDraws.map((d: { index: number; drawAt: string }) => [d.index, d.drawAt])).toEqual([
      [1, '2025-06-10T22:00:00+02:00'],
      [2, '2025-06-17T22:00:00+02:00'],
      [3, '2025-06-24T22:00:00+02:00'],
    ])
    expect(ids[0]).toBe(created.body.drawId)
    // Each draw is planned with its own prizes and its own commitment.
    const views = await Promise.all(ids.map(async (id) => (await call('jefa', 'GET', `/api/lottery/draws/${id}`)).body))
    expect(views.map((v) => v.plan.prizes.map((p: { code: string }) => p.code))).toEqual([['R1'], ['R2'], ['R3']])
    expect(new Set(views.map((v) => v.commitment)).size).toBe(3)

    // The tickets are sold for the first draw; a later draw sells none.
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${ids[0]}/tickets`,
      { ageConfirmed: true, numbers: [1, 2, 3, 4, 5, 6] },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect(sold.body.tickets[0].draws.map((d: { drawAt: string }) => d.drawAt)).toEqual([
      '2025-06-10T22:00:00+02:00',
      '2025-06-17T22:00:00+02:00',
      '2025-06-24T22:00:00+02:00',
    ])
    const codes = new Map<number, string>(sold.body.tickets.map((x: any) => [Number(x.number), x.code]))
    const later = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${ids[1]}/tickets`,
      { ageConfirmed: true, numbers: [7] },
      till.headers,
    )
    expect(later.status).toBe(400)
    expect(later.body.error.details.rule).toBe('PRM-9')

    // Sales closed before the first draw; the second is not closed before the first is settled.
    t = Date.parse('2025-06-10T21:00:00+02:00')
    await login()
    const early = await call('jefa', 'POST', `/api/lottery/draws/${ids[1]}/close`, {})
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('DRAW_OUT_OF_ORDER')
    // A cashier neither closes nor draws.
    expect((await api(server.url, 'POST', `/api/lottery/draws/${ids[0]}/close`, {}, till.headers)).status).toBe(403)

    const first = await holdDraw(ids[0])
    expect(first.closed.ticketsInPlay).toBe(6)
    expect(first.proof.soldSerials).toEqual(['01', '02', '03', '04', '05', '06'])
    const w1 = first.winning.R1

    // Draw 1's winner is paid now, before draw 2, at the cash desk; everyone else waits for draw 2.
    t = Date.parse('2025-06-11T10:00:00+02:00')
    await login()
    const v1 = await desk('/api/tickets/validate', codes.get(w1)!)
    expect(v1.body).toMatchObject({ outcome: 'WIN', drawId: ids[0], goods: ['Primer premio: Bicicleta de montaña'] })
    const paid1 = await desk('/api/tickets/pay', codes.get(w1)!)
    expect(paid1.status, JSON.stringify(paid1.body)).toBe(200)
    const again = await desk('/api/tickets/pay', codes.get(w1)!)
    expect(again.status).toBe(409)
    const others = [1, 2, 3, 4, 5, 6].filter((n) => n !== w1)
    expect((await desk('/api/tickets/validate', codes.get(others[0])!)).body.outcome).toBe('PENDING')

    // Draw 2: the tickets of the first draw less its winner (winnersStayIn false); its own proof.
    t = Date.parse('2025-06-17T21:30:00+02:00')
    await login()
    const c2 = await call('jefa', 'POST', `/api/lottery/draws/${ids[1]}/close`, {})
    expect(c2.status, JSON.stringify(c2.body)).toBe(200)
    expect(c2.body.ticketsInPlay).toBe(5)
    const d2 = await call('jefa', 'POST', `/api/lottery/draws/${ids[1]}/draw`)
    expect(d2.status, JSON.stringify(d2.body)).toBe(200)
    const w2 = d2.body.drawn[0] as number
    expect(w2).not.toBe(w1)
    // Drawn but not settled: not yet payable (its own draw settles it).
    expect((await desk('/api/tickets/validate', codes.get(w2)!)).body.outcome).toBe('PENDING')
    expect((await desk('/api/tickets/pay', codes.get(w2)!)).body.error.code).toBe('PRIZE_PENDING')
    expect((await call('jefa', 'POST', `/api/lottery/draws/${ids[1]}/settle`)).status).toBe(200)
    const proof2 = (await call('jefa', 'GET', `/api/lottery/draws/${ids[1]}/proof`)).body
    expect(verifyProof(proof2)).toMatchObject({ ok: true, errors: [] })
    expect(proof2.soldSerials).toEqual(others.map((n) => String(n).padStart(2, '0')))
    expect(proof2.successive).toMatchObject({ index: 2, of: 3, firstDrawId: ids[0], winnersStayIn: false })
    expect(proof2.commitment).not.toBe(first.proof.commitment)

    // Each draw's extracto and acta are its own and say which draw of the plan they are.
    const ex2 = (await call('jefa', 'GET', `/api/lottery/draws/${ids[1]}/extracto`)).body
    expect(ex2.successive).toEqual({ index: 2, of: 3, winnersStayIn: false })
    expect(ex2.winning).toEqual({ R2: String(w2).padStart(2, '0') })
    expect(ex2.ticketsInPlay).toBe(5)
    for (const [path, text] of [
      [`/api/lottery/draws/${ids[1]}/extracto.pdf`, 'Sorteo 2 de 3'],
      [`/api/lottery/draws/${ids[1]}/acta.pdf`, 'Sorteo 2 de 3'],
      [`/api/lottery/draws/${ids[0]}/extracto.pdf`, 'Sorteo 1 de 3'],
    ] as const) {
      const pdf = await fetch(`${server.url}${path}`, { headers: { authorization: auth.get('jefa')! } })
      expect(pdf.status, path).toBe(200)
      const file = join(mkdtempSync(join(tmpdir(), 'bolillo-prm9-')), 'doc.pdf')
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
      const out = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
      expect(out, path).toContain(text)
      expect(out, path).toContain('no participan')
    }

    const v2 = await desk('/api/tickets/validate', codes.get(w2)!)
    expect(v2.body).toMatchObject({
      outcome: 'WIN',
      drawId: ids[1],
      goods: ['Segundo premio: Cesta de productos de Cantabria'],
    })
    expect((await desk('/api/tickets/pay', codes.get(w2)!)).status).toBe(200)
    // Draw 1's winner is out of draw 2 and 3: paid, and nothing more to wait for but draw 3.
    expect((await desk('/api/tickets/validate', codes.get(w1)!)).body.outcome).toBe('PENDING')

    // Draw 3: four tickets left.
    t = Date.parse('2025-06-24T21:30:00+02:00')
    await login()
    const third = await holdDraw(ids[2])
    expect(third.closed.ticketsInPlay).toBe(4)
    expect(third.proof.soldSerials).not.toContain(String(w1).padStart(2, '0'))
    expect(third.proof.soldSerials).not.toContain(String(w2).padStart(2, '0'))
    const w3 = third.winning.R3
    expect((await desk('/api/tickets/pay', codes.get(w3)!)).status).toBe(200)
    expect((await desk('/api/tickets/validate', codes.get(w1)!)).body.outcome).toBe('ALREADY_PAID')
    const loser = others.find((n) => n !== w2 && n !== w3)!
    expect((await desk('/api/tickets/validate', codes.get(loser)!)).body.outcome).toBe('NO_WIN')

    // The prize register: one row per draw, under the draw that gave the prize (numbered 10, 11, 12).
    const register = (await call('jefa', 'GET', '/api/lottery/prize-register')).body.entries as Array<{
      gameCode: string
      drawNumber: number
      ticketNumber: string
    }>
    const rows = register.filter((r) => r.gameCode === 'PROMOSUC')
    expect(rows.map((r) => [r.drawNumber, r.ticketNumber])).toEqual(
      [w1, w2, w3].map((n, i) => [10 + i, `${ids[0]}-${String(n).padStart(2, '0')}`]),
    )
    expect((await call('jefa', 'GET', '/api/journal/verify')).body.ok).toBe(true)
  })

  it('PRM-9: where the bases keep winners in play, a ticket may win again and is paid once per draw', async () => {
    t = Date.parse('2025-06-01T12:00:00+02:00')
    await login()
    const plan = successivePlan({
      gameCode: 'PROMOSIG',
      winnersStayIn: true,
      draws: [
        { drawAt: '2025-06-10T22:00:00+02:00', prizeCodes: ['R1'] },
        { drawAt: '2025-06-17T22:00:00+02:00', prizeCodes: ['R2', 'R3'] },
      ],
    })
    const created = await call('jefa', 'POST', '/api/lottery/draws', plan)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const ids = created.body.successiveDraws.map((d: { drawId: string }) => d.drawId) as string[]
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${ids[0]}/tickets`,
      { ageConfirmed: true, numbers: [8, 9] },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const codes = new Map<number, string>(sold.body.tickets.map((x: any) => [Number(x.number), x.code]))
    t = Date.parse('2025-06-10T21:00:00+02:00')
    await login()
    const first = await holdDraw(ids[0])
    t = Date.parse('2025-06-17T21:30:00+02:00')
    await login()
    // Both tickets are in draw 2, which gives two prizes: the winner of draw 1 wins again.
    const second = await holdDraw(ids[1])
    expect(second.closed.ticketsInPlay).toBe(2)
    const w1 = first.winning.R1
    expect(Object.values(second.winning)).toContain(w1)
    const v = await desk('/api/tickets/validate', codes.get(w1)!)
    expect(v.body).toMatchObject({ outcome: 'WIN', drawId: ids[0] })
    expect((await desk('/api/tickets/pay', codes.get(w1)!)).status).toBe(200)
    expect((await desk('/api/tickets/validate', codes.get(w1)!)).body).toMatchObject({ outcome: 'WIN', drawId: ids[1] })
    expect((await desk('/api/tickets/pay', codes.get(w1)!)).status).toBe(200)
    expect((await desk('/api/tickets/pay', codes.get(w1)!)).body.error.code).toBe('ALREADY_PAID')
  })

  it('PRM-9 / LOT-21: a later draw withdrawn with the AJ reference gives no prize, and the draws after it go on', async () => {
    t = Date.parse('2025-06-01T12:00:00+02:00')
    await login()
    const created = await call('jefa', 'POST', '/api/lottery/draws', successivePlan({ gameCode: 'PROMOCAN' }))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const ids = created.body.successiveDraws.map((d: { drawId: string }) => d.drawId) as string[]
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${ids[0]}/tickets`,
      { ageConfirmed: true, numbers: [20, 21, 22] },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const codes = new Map<number, string>(sold.body.tickets.map((x: any) => [Number(x.number), x.code]))
    t = Date.parse('2025-06-10T21:00:00+02:00')
    await login()
    const first = await holdDraw(ids[0])
    const cancelled = await call('jefa', 'POST', `/api/lottery/draws/${ids[1]}/cancel`, {
      kind: 'withdrawal',
      authorisationRef: 'COM-CB-2025-0091/B',
      reason: 'Premio del segundo sorteo no entregado por el patrocinador',
    })
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
    t = Date.parse('2025-06-24T21:30:00+02:00')
    await login()
    const third = await holdDraw(ids[2])
    expect(third.closed.ticketsInPlay).toBe(2)
    const losers = [20, 21, 22].filter((n) => n !== first.winning.R1 && n !== third.winning.R3)
    expect(losers).toHaveLength(1)
    expect((await desk('/api/tickets/validate', codes.get(losers[0])!)).body.outcome).toBe('NO_WIN')
  })

  it('PRM-9: a successive plan is planned all or none: a fault at its last draw leaves none of its draws planned', async () => {
    // A fault injected in the real database at the third draw's row (a full disk, a lost connection): planned one
    // transaction per draw, the first two stayed planned without the third.
    const db = server.services.db
    if (db.engine === 'sqlite')
      await db.run(
        `CREATE TRIGGER fail_third_draw BEFORE INSERT ON lottery_draws WHEN NEW.game_code = 'PROMOATO' AND NEW.draw_no = 32
         BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
      )
    else {
      await db.run(
        `CREATE FUNCTION fail_third_draw() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.game_code = 'PROMOATO' AND NEW.draw_no = 32 THEN RAISE EXCEPTION 'injected fault'; END IF;
         RETURN NEW; END $$`,
      )
      await db.run(
        'CREATE TRIGGER fail_third_draw BEFORE INSERT ON lottery_draws FOR EACH ROW EXECUTE FUNCTION fail_third_draw()',
      )
    }
    try {
      const r = await call(
        'jefa',
        'POST',
        '/api/lottery/draws',
        successivePlan({ gameCode: 'PROMOATO', drawNumber: 30 }),
      )
      expect(r.status).not.toBe(201)
    } finally {
      await db.run(
        db.engine === 'sqlite' ? 'DROP TRIGGER fail_third_draw' : 'DROP TRIGGER fail_third_draw ON lottery_draws',
      )
    }
    const rows = await db.all("SELECT draw_no FROM lottery_draws WHERE game_code = 'PROMOATO'")
    expect(rows).toEqual([])
    // Nothing half-planned blocks the plan once the fault is gone.
    const again = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      successivePlan({ gameCode: 'PROMOATO', drawNumber: 30 }),
    )
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect(await db.all("SELECT draw_no FROM lottery_draws WHERE game_code = 'PROMOATO'")).toHaveLength(3)
  })

  it('PRM-11 / LNS-23: a lotto goods prize is planned only with who provides it, never from expired business-promotion prizes', async () => {
    t = Date.parse('2025-02-20T12:00:00-04:00')
    await login()
    const withGoods = (source?: string) => {
      const p = plan649({ gameCode: 'LOTOMOTO' })
      const goods = {
        type: 'goods',
        description: 'Motocicleta 125 cc',
        unitValueCents: 900_000,
        class: 'registrable',
        invoiceRef: 'F-77',
      }
      p.categories = [
        ...p.categories.slice(0, 3),
        { ...p.categories[3], prize: (source ? { ...goods, source } : goods) as never },
      ]
      return p
    }
    for (const source of [undefined, 'expired-promotion']) {
      const r = await call('jefa', 'POST', '/api/lotto/draws', withGoods(source))
      expect(r.status, String(source)).toBe(400)
      expect(r.body.error.details.problems, String(source)).toContainEqual(
        expect.objectContaining({ field: 'categories[3].prize.source', rule: 'PRM-11' }),
      )
    }
    const ok = await call('jefa', 'POST', '/api/lotto/draws', withGoods('sponsor'))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const view = (await call('jefa', 'GET', `/api/lotto/draws/${ok.body.drawId ?? ok.body.id}`)).body
    expect(view.plan.categories[3].prize).toMatchObject({ type: 'goods', source: 'sponsor' })
  })
})
