import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions } from '../helpers/lottery-print.ts'
import { lotteryPlan, rafflePlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * LOT-21 (002 §7.1.4 "desistimiento o renuncia ... previa autorización de la AJ") over real HTTP with authentication
 * on: a numbered lottery and a raffle are withdrawn or renounced by the director with the AJ reference, before the
 * draw begins; every ticket in the public's hands (a distributed fraction, a sold raffle ticket) is refunded its price
 * once, through the cash desk's one door (/api/tickets/pay) out of the open shift's drawer; a fraction never
 * distributed or returned unsold gets nothing.
 */
const PASSWORD = 'correct horse battery'

describe('LOT-21: cancellation of a lottery or raffle draw and the refund of its tickets (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  let boTill: Till
  let esTill: Till
  let lotteryId = ''
  let raffleId = ''
  let begunId = ''
  const fraction = new Map<string, string>()
  const raffleCodes: string[] = []
  const cancelBody = {
    kind: 'withdrawal',
    authorisationRef: 'AJ-RA-2025-0777',
    reason: 'Desistimiento solicitado por el gobierno municipal',
  }
  const plan = (gameCode: string) =>
    lotteryPlan({
      gameCode,
      numbering: { from: 0, to: 19, digits: 2 },
      series: 1,
      fractions: 2,
      ticketPriceCents: 2_000,
      licensedMaxTickets: 1000,
      drawMethod: 'manual',
      drawDevice: 'AJ-T-0042',
      budgetCents: 100_000,
      prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 10_000 }],
    })
  async function login() {
    for (const u of ['jefa', 'mesa']) auth.set(u, `Bearer ${(await server.services.auth.login(u, PASSWORD)).token}`)
    await boTill?.relogin()
    await esTill?.relogin()
  }
  const shiftCents = async (till: Till) =>
    (await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)).body.shift.expectedCents as number

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['cajero', 'Pedro Gómez', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    await registerTombola(server.services)
    const bo = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 100,
    })
    const es = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    boTill = await openTill(server.url, server.services, {
      hallId: bo.body.id,
      username: 'cajera',
      password: PASSWORD,
      floatCents: 50_000,
    })
    esTill = await openTill(server.url, server.services, {
      hallId: es.body.id,
      username: 'cajero',
      password: PASSWORD,
      floatCents: 50_000,
    })

    // A lottery of 20 numbers in 2 fractions at 20.00: numbers 0-9 distributed, 5-9 returned, 10-19 never distributed.
    const created = await call('jefa', 'POST', '/api/lottery/draws', plan('LNBCANC'))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    lotteryId = created.body.drawId
    const run = await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/print-runs`, { from: 0, to: 19 })
    expect(run.status).toBe(201)
    for (const x of printedFractions(server, run.body)) fraction.set(`${Number(x.number)}/${x.fraction}`, x.code)
    const seller = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Agencia',
      hallId: bo.body.id,
    })
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/distributions`, {
          from: 0,
          to: 9,
          sellerId: seller.id,
        })
      ).status,
    ).toBe(201)
    expect(
      (await call('mesa', 'POST', `/api/lottery/draws/${lotteryId}/returns`, { from: 5, to: 9, sellerId: seller.id }))
        .status,
    ).toBe(201)

    // A raffle of 40 tickets at 5.00 EUR: three sold at the counter.
    t = Date.parse('2025-06-01T12:00:00+02:00')
    await login()
    const raffle = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFACANC', numbering: { from: 1, to: 400, digits: 3 } }),
    )
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    raffleId = raffle.body.drawId
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${raffleId}/tickets`,
      { ageConfirmed: true, numbers: [1, 2, 3] },
      esTill.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    raffleCodes.push(...sold.body.tickets.map((x: { code: string }) => x.code))
  })
  afterAll(async () => server?.cleanup())

  it('LOT-21: only the director cancels, with the AJ authorisation reference and a reason; the draw then takes no sale, close or number', async () => {
    for (const id of [lotteryId, raffleId]) {
      const noRef = await call('jefa', 'POST', `/api/lottery/draws/${id}/cancel`, {
        ...cancelBody,
        authorisationRef: ' ',
      })
      expect(noRef.status).toBe(400)
      expect(noRef.body.error.details.problems[0]).toMatchObject({ field: 'authorisationRef', rule: 'LOT-21' })
      expect((await call('mesa', 'POST', `/api/lottery/draws/${id}/cancel`, cancelBody)).status).toBe(403)
      expect(
        (await api(server.url, 'POST', `/api/lottery/draws/${id}/cancel`, cancelBody, boTill.headers)).status,
      ).toBe(403)
      const ok = await call('jefa', 'POST', `/api/lottery/draws/${id}/cancel`, cancelBody)
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      expect(ok.body.status).toBe('cancelled')
      expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/cancel`, cancelBody)).status).toBe(409)
      expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(409)
    }
    const sale = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${raffleId}/tickets`,
      { ageConfirmed: true, numbers: [4] },
      esTill.headers,
    )
    expect(sale.status).toBe(409)
    const journal = (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.find((r) => r.type === 'lottery.draw_cancelled')!.payload).toMatchObject({
      drawId: lotteryId,
      authorisationRef: 'AJ-RA-2025-0777',
      fractionsToRefund: 10,
      refundCents: 10_000,
      rule: 'LOT-21',
      actor: { kind: 'person', role: 'director' },
    })
    expect(journal.find((r) => r.type === 'raffle.draw_cancelled')!.payload).toMatchObject({
      drawId: raffleId,
      ticketsToRefund: 3,
      refundCents: 1_500,
      rule: 'LOT-21',
    })
    // Issue 23 point 6: the minutes state the cancellation and what is refunded, as lotto's do (LNS-22); the
    // shared acta frame prints it under the incidents.
    for (const [id, toRefund, refundCents] of [
      [lotteryId, 10, 10_000],
      [raffleId, 3, 1_500],
    ] as const) {
      const acta = await call('jefa', 'GET', `/api/lottery/draws/${id}/acta`)
      expect(acta.status).toBe(200)
      expect(acta.body.cancellation).toMatchObject({
        authorisationRef: 'AJ-RA-2025-0777',
        kind: cancelBody.kind,
        toRefund,
        refundCents,
      })
      const pdf = await fetch(`${server.url}/api/lottery/draws/${id}/acta.pdf`, {
        headers: { authorization: auth.get('jefa')! },
      })
      expect(pdf.status).toBe(200)
      const file = join(mkdtempSync(join(tmpdir(), 'bolillo-acta-')), 'acta.pdf')
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
      expect(text).toContain('Sorteo cancelado')
      expect(text).toContain('AJ-RA-2025-0777')
      expect(text).toContain(`Billetes o fracciones a reintegrar ${toRefund} (`)
    }
  })

  it("LOT-21: a distributed fraction and a sold raffle ticket are refunded their price once, at the desk, out of the shift's drawer; a fraction never distributed or returned unsold gets nothing", async () => {
    // CFG-5: each hall takes the identity documents of its profile: a CI in La Paz, a DNI in Cantabria.
    const payee = (till: Till) =>
      till === esTill
        ? { payeeName: 'Ana García López', payeeDocument: '12345678Z' }
        : { payeeName: 'Ana Quispe Mamani', payeeDocument: '445566 LP' }
    const desk = (till: Till, path: string, code: string) =>
      api(server.url, 'POST', path, path.endsWith('/pay') ? { code, ...payee(till) } : { code }, till.headers)
    const before = await shiftCents(boTill)
    const v = await desk(boTill, '/api/tickets/validate', fraction.get('3/1')!)
    expect(v.body).toMatchObject({ outcome: 'REFUND_ONLY', amountCents: 1_000 })
    expect(v.body.view).toMatchObject({ verdict: 'refund', payable: true, refundCents: 1_000 })
    expect(v.body.reason).toMatch(/LOT-21/)
    const paid = await desk(boTill, '/api/tickets/pay', fraction.get('3/1')!)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.paid).toMatchObject({ refund: true, amountCents: 1_000 })
    const again = await desk(boTill, '/api/tickets/pay', fraction.get('3/1')!)
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('ALREADY_PAID')
    expect((await desk(boTill, '/api/tickets/validate', fraction.get('3/1')!)).body.view).toMatchObject({
      verdict: 'paid',
      refunded: true,
    })
    // The other fraction of the same number is its own paper.
    expect((await desk(boTill, '/api/tickets/pay', fraction.get('3/2')!)).status).toBe(200)
    for (const key of ['7/1', '15/2']) {
      const r = await desk(boTill, '/api/tickets/pay', fraction.get(key)!)
      expect(r.status, key).toBeGreaterThanOrEqual(400)
      expect(r.status, key).toBeLessThan(500)
    }
    expect(before - (await shiftCents(boTill))).toBe(2_000)

    const esBefore = await shiftCents(esTill)
    expect((await desk(esTill, '/api/tickets/validate', raffleCodes[0])).body.outcome).toBe('REFUND_ONLY')
    for (const code of raffleCodes) expect((await desk(esTill, '/api/tickets/pay', code)).status).toBe(200)
    expect((await desk(esTill, '/api/tickets/pay', raffleCodes[0])).status).toBe(409)
    expect(esBefore - (await shiftCents(esTill))).toBe(1_500)

    const journal = (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.filter((r) => r.type === 'lottery.refund_paid')).toHaveLength(2)
    expect(journal.filter((r) => r.type === 'raffle.refund_paid')).toHaveLength(3)
    // §8 / GEN-7 (issue 26): every scan at the desk is journaled as a bingo card's is: the ticket and its kind, the
    // outcome, the station with its seal and the cashier; the pay route's own judging is not a scan.
    const scans = journal.filter((r) => r.type === 'lottery.ticket_validated')
    expect(scans.map((r) => r.payload.outcome)).toEqual(['REFUND_ONLY', 'ALREADY_PAID'])
    expect(scans[0].payload).toMatchObject({
      kind: 'lottery',
      drawIds: [lotteryId],
      amountCents: 1_000,
      stationId: boTill.station.id,
      sealCode: expect.stringMatching(/^AJ-PRUEBA-/),
      actor: { kind: 'person', role: 'cashier' },
      rule: '§8',
    })
    expect(scans[0].payload.ticketId).toContain(lotteryId)
    expect(journal.find((r) => r.type === 'raffle.ticket_validated')!.payload).toMatchObject({
      kind: 'raffle',
      drawIds: [raffleId],
      outcome: 'REFUND_ONLY',
      stationId: esTill.station.id,
      sealCode: expect.stringMatching(/^AJ-PRUEBA-/),
    })
    const register = (await call('jefa', 'GET', '/api/lottery/prize-register')).body
    const rows = register.entries as Array<{ prizes: unknown[]; amountCents: number }>
    expect(rows.filter((r) => JSON.stringify(r.prizes).includes('LOT-21'))).toHaveLength(5)
  })

  it('LOT-21: a draw whose first number is in is not withdrawn (409): the draw has begun', async () => {
    t = Date.parse('2025-02-10T12:00:00-04:00')
    await login()
    const created = await call('jefa', 'POST', '/api/lottery/draws', plan('LNBBEGUN'))
    begunId = created.body.drawId
    t = Date.parse('2025-03-01T18:00:00-04:00')
    await login()
    expect((await call('jefa', 'POST', `/api/lottery/draws/${begunId}/close`, {})).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${begunId}/numbers`, { number: 7 })).status).toBe(200)
    const late = await call('jefa', 'POST', `/api/lottery/draws/${begunId}/cancel`, cancelBody)
    expect(late.status).toBe(409)
    expect(late.body.error.detail).toMatch(/LOT-21/)
  })
})
