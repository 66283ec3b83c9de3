import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, plan649, registerLotteryBallSets, registerLottoBallSets } from '../helpers/lottery-plans.ts'

/**
 * Issue 23 point 6: lotto and numbered lotteries share one draw lifecycle; what differs is passed in as the line's
 * rules. Each test here drives a lotto draw and a numbered-lottery draw through one shared piece and checks the same
 * rule holds for both, over real HTTP with authentication on and real people:
 * - the close of sales (LNS-13): never before the plan's close time, unless the line allows an early close with a
 *   recorded reason (lotto) - a numbered lottery never closes early;
 * - the device of a manual draw (LNS-8, LOT-18): every ball or number is entered from a registered, certified,
 *   active device of the draw's hall, read from the registry as it is entered, and named in the journal.
 */
const PASSWORD = 'correct horse battery'
const DATES = {
  salesStartAt: '2025-03-01T08:00:00-04:00',
  salesCloseAt: '2025-03-08T19:00:00-04:00',
  drawAt: '2025-03-08T20:00:00-04:00',
  claimDeadline: '2025-05-07T23:59:59-04:00',
}

describe('one draw lifecycle for lotto and numbered lotteries (issue 23 point 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-02T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  async function login() {
    for (const username of ['jefa', 'auditor'])
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
  }
  /** The two draws, one per line, with the same dates, hall and tómbola. */
  const lines = { lotto: '', lottery: '' }
  const journal = async () =>
    (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{ type: string; payload: any }>

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    for (const [id, name] of [
      ['lapaz', 'Sala La Paz'],
      ['oruro', 'Sala Oruro'],
    ])
      expect(
        (await call('jefa', 'POST', '/api/halls', { id, name, profileId: 'BO-2025', playingPositions: 100 })).status,
      ).toBe(201)
    for (const [id, hallId, sealCode] of [
      ['tombola-lp', 'lapaz', 'AJ-T-0101'],
      ['tombola-or', 'oruro', 'AJ-T-0202'],
    ])
      expect(
        (
          await call('jefa', 'POST', '/api/devices', {
            id,
            kind: 'blower',
            name: `Tómbola ${hallId}`,
            hallId,
            sealCode,
            certificateId: `AJ-CERT-${sealCode}`,
          })
        ).status,
      ).toBe(201)
    await registerLottoBallSets(server.services)
    await registerLotteryBallSets(server.services, 5) // LOT-18: the digit sets a five-digit number is read from
    const lotto = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'GEMELO', drawMethod: 'manual', drawDevice: 'AJ-T-0101', drawHallId: 'lapaz', ...DATES }),
    )
    expect(lotto.status, JSON.stringify(lotto.body)).toBe(201)
    lines.lotto = lotto.body.drawId
    const lottery = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({ gameCode: 'GEMELA', drawMethod: 'manual', drawDevice: 'AJ-T-0101', drawHallId: 'lapaz', ...DATES }),
    )
    expect(lottery.status, JSON.stringify(lottery.body)).toBe(201)
    lines.lottery = lottery.body.drawId
  })
  afterAll(async () => server?.cleanup())

  it('LNS-13: no line closes its sales before the planned close without its allowance; lotto closes early only with a recorded reason, a numbered lottery never', async () => {
    t = Date.parse('2025-03-08T18:00:00-04:00')
    await login()
    // The same rule refuses both lines alike: 409, in Spanish, and the draw stays open.
    for (const [product, drawId] of Object.entries(lines)) {
      const r = await call('jefa', 'POST', `/api/${product}/draws/${drawId}/close`, {})
      expect([r.status, r.body.error?.code], product).toEqual([409, 'ILLEGAL_TRANSITION'])
      expect(r.body.error.details, product).toMatchObject({ rule: 'LNS-13', salesCloseAt: DATES.salesCloseAt })
      expect((await call('auditor', 'GET', `/api/${product}/draws/${drawId}`)).body.status, product).toBe('open')
    }
    // A blank reason is no reason; a numbered lottery takes no reason at all (its body is refused by name).
    const blank = await call('jefa', 'POST', `/api/lotto/draws/${lines.lotto}/close`, { earlyReason: '   ' })
    expect([blank.status, blank.body.error?.code]).toEqual([409, 'ILLEGAL_TRANSITION'])
    const reasoned = await call('jefa', 'POST', `/api/lottery/draws/${lines.lottery}/close`, {
      earlyReason: 'Sorteo adelantado',
    })
    expect(reasoned.status).toBe(400)
    expect((await call('auditor', 'GET', `/api/lottery/draws/${lines.lottery}`)).body.status).toBe('open')

    const early = await call('jefa', 'POST', `/api/lotto/draws/${lines.lotto}/close`, {
      earlyReason: 'Sorteo adelantado por resolución de la AJ',
    })
    expect(early.status, JSON.stringify(early.body)).toBe(200)
    expect((await journal()).find((r) => r.type === 'lotto.sales_closed')!.payload).toMatchObject({
      drawId: lines.lotto,
      early: 'Sorteo adelantado por resolución de la AJ',
      rule: 'LNS-13',
      actor: { role: 'director' },
    })

    // From the planned close on, the numbered lottery closes; nothing early is recorded for it.
    t = Date.parse('2025-03-08T19:00:00-04:00')
    await login()
    const onTime = await call('jefa', 'POST', `/api/lottery/draws/${lines.lottery}/close`, {})
    expect(onTime.status, JSON.stringify(onTime.body)).toBe(200)
    const closed = (await journal()).find((r) => r.type === 'lottery.sales_closed')!.payload
    expect(closed.drawId).toBe(lines.lottery)
    expect(closed).not.toHaveProperty('early')
  })

  it('LNS-8 / LOT-18: each line takes a ball or number only from a registered, certified, active device of its hall, read from the registry at every entry, and journals the device with its seal', async () => {
    t = Date.parse('2025-03-08T19:31:00-04:00')
    await login()
    const enter = (product: string, value: number, deviceId?: string) =>
      call(
        'jefa',
        'POST',
        product === 'lotto' ? `/api/lotto/draws/${lines.lotto}/balls` : `/api/lottery/draws/${lines.lottery}/numbers`,
        product === 'lotto' ? { ball: value, deviceId } : { number: value, deviceId },
      )
    const status = (status: string, reason: string) =>
      call('jefa', 'POST', '/api/devices/tombola-lp/status', { status, reason })
    expect((await status('suspended', 'Precinto roto')).status).toBe(200)
    for (const product of Object.keys(lines)) {
      const r = await enter(product, 7)
      expect([r.status, r.body.error?.code, r.body.error?.details?.problems], product).toEqual([
        422,
        'DEVICE_NOT_CERTIFIED',
        ['status-suspended'],
      ])
    }
    expect((await status('active', 'Precinto repuesto por la AJ')).status).toBe(200)
    for (const product of Object.keys(lines)) {
      const r = await enter(product, 7, 'AJ-T-0202')
      expect([r.status, r.body.error?.code], product).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
      expect(r.body.error.details.problems, product).toContain('other-hall')
      expect(r.body.error.message, product).not.toMatch(/DEVICE_NOT_CERTIFIED/)
    }
    for (const product of Object.keys(lines)) expect((await enter(product, 7)).status, product).toBe(200)
    const records = await journal()
    for (const [type, drawId] of [
      ['lotto.ball_drawn', lines.lotto],
      ['lottery.number_drawn', lines.lottery],
    ]) {
      const entered = records.filter((r) => r.type === type && r.payload.drawId === drawId)
      expect(
        entered.map((r) => [r.payload.device, r.payload.sealCode]),
        type,
      ).toEqual([['tombola-lp', 'AJ-T-0101']])
    }
  })

  it('shows a draw of either line with the same view: state, commitment, close, participation, times on the plan clock; the seed only once an RNG draw has ended, so never for a tómbola', async () => {
    const view = async (product: string) =>
      (await call('auditor', 'GET', `/api/${product}/draws/${lines[product as keyof typeof lines]}`)).body
    const frame = [
      'drawId',
      'product',
      'status',
      'plan',
      'commitment',
      'seed',
      'salesDigest',
      'close',
      'beacon',
      'participation',
      'times',
      'timeZone',
    ]
    const closed = Object.fromEntries(
      (await journal())
        .filter((r) => r.type.endsWith('.sales_closed'))
        .map((r) => [r.payload.drawId, r.payload.participationSha256]),
    )
    for (const [product, drawId] of Object.entries(lines)) {
      const v = await view(product)
      expect(Object.keys(v), product).toEqual(expect.arrayContaining(frame))
      expect(v, product).toMatchObject({
        drawId,
        product,
        status: 'closed',
        seed: null,
        close: null,
        beacon: null,
        participation: { sha256: closed[drawId] },
        timeZone: 'America/La_Paz',
      })
      expect(v.commitment, product).toMatch(/^[0-9a-f]{64}$/)
      expect(v.times.closedAt, product).toBe(v.participation.closedAt)
    }
    // The line's own counts of what is in play, in the same place.
    expect((await view('lotto')).participation).toMatchObject({ receipts: 0, plays: 0, salesCents: 0 })
    expect((await view('lottery')).participation).toMatchObject({ ticketsInPlay: 200_000, salesCents: 2_000_000_000 })

    for (const ball of [1, 2, 3, 4, 5])
      expect((await call('jefa', 'POST', `/api/lotto/draws/${lines.lotto}/balls`, { ball })).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${lines.lottery}/numbers`, { number: 12_345 })).status).toBe(
      200,
    )
    for (const product of Object.keys(lines)) {
      const v = await view(product)
      expect([v.status, v.seed], product).toEqual(['drawn', null])
      expect(Date.parse(v.times.drawnAt), product).toBe(t)
      expect(
        (await call('jefa', 'POST', `/api/${product}/draws/${lines[product as keyof typeof lines]}/settle`)).status,
        product,
      ).toBe(200)
      expect((await view(product)).status, product).toBe('settled')
    }
  })

  it('LOT-17 / LNS-17: the extracto and the minutes of either line are laid out on one frame: the institution, the means of extraction by its device, the claim period and the regulation, the incidents on the plan clock, the journal, the signatures', async () => {
    for (const [product, drawId] of Object.entries(lines))
      expect(
        (await call('jefa', 'POST', `/api/${product}/draws/${drawId}/incidents`, { note: 'Corte de luz de un minuto' }))
          .status,
        product,
      ).toBe(201)
    const text = async (product: string, doc: 'extracto' | 'acta') => {
      const res = await fetch(`${server.url}/api/${product}/draws/${lines[product as keyof typeof lines]}/${doc}.pdf`, {
        headers: { authorization: auth.get('auditor')! },
      })
      expect(res.status, `${product} ${doc}`).toBe(200)
      const file = join(server.dataDir, `${product}-${doc}.pdf`)
      writeFileSync(file, Buffer.from(await res.arrayBuffer()))
      const out = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      return out.replace(/\s+/g, ' ')
    }
    // The JSON of both documents states the shared facts alike (the frame's source).
    for (const [product, drawId] of Object.entries(lines)) {
      const e = (await call('auditor', 'GET', `/api/${product}/draws/${drawId}/extracto`)).body
      expect(e, product).toMatchObject({
        title: 'Extracto oficial de resultados',
        drawId,
        drawAt: DATES.drawAt,
        drawMethod: 'manual',
        drawDevice: 'tombola-lp',
        proof: null,
        claimDeadline: DATES.claimDeadline,
        legend: 'Actividad Autorizada y Fiscalizada por la Autoridad de Juegos',
        regulationUrl: expect.stringMatching(/^https:/),
        timeZone: 'America/La_Paz',
      })
      expect(e.publishedAt, product).toBe(
        (await call('auditor', 'GET', `/api/${product}/draws/${drawId}`)).body.times.settledAt,
      )
      const a = (await call('auditor', 'GET', `/api/${product}/draws/${drawId}/acta`)).body
      expect(
        a.signatures.map((x: { role: string }) => x.role),
        product,
      ).toEqual(['Máxima Autoridad Ejecutiva', 'Director del Sorteo', 'Moderador', 'Notario de Fe Pública'])
      expect(a.cancellation, product).toBeNull()
    }
    const docs: Record<string, { e: string; a: string }> = {}
    for (const product of Object.keys(lines))
      docs[product] = { e: await text(product, 'extracto'), a: await text(product, 'acta') }
    for (const product of Object.keys(lines)) {
      const { e, a } = docs[product]
      for (const s of [
        'Lotería Nacional de Beneficencia y Salubridad',
        'EXTRACTO OFICIAL DE RESULTADOS',
        'Tómbola o bolillero autorizado: tombola-lp',
        'Cobro de premios',
        '(mínimo 60 días, LOT-23)',
        'Reglamento https://',
        'Solo el extracto emitido por el operador, las reglas del juego y el Reglamento Específico son base para el pago de premios (LOT-17).',
        'Actividad Autorizada y Fiscalizada por la Autoridad de Juegos',
        'Horas de La Paz, UTC-04:00.',
      ])
        expect(e, `${product} extracto`).toContain(s)
      for (const s of [
        'Lotería Nacional de Beneficencia y Salubridad',
        'ACTA DEL SORTEO',
        'Emisión',
        'Tómbola o bolillero autorizado: tombola-lp',
        'Incidencias',
        '08/03/2025 19:31 Corte de luz de un minuto',
        'Diario',
        'Registros del sorteo',
        'Último registro #',
        'Firmas de los participantes',
        'Máxima Autoridad Ejecutiva',
        'Notario de Fe Pública N.º 12',
        'Horas de La Paz, UTC-04:00.',
      ])
        expect(a, `${product} acta`).toContain(s)
      expect(a, `${product} acta`).not.toContain('Sin incidencias')
    }
  })
})
