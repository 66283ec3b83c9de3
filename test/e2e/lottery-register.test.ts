import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTicketCode, TicketKind } from '../../server/src/shared/ticket-code.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions } from '../helpers/lottery-print.ts'
import { lotteryPlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 13 point 3 over real HTTP with authentication on, real people and enrolled devices: a numbered lottery's
 * signed fraction codes leave the server only in a print run of the lottery administration, before the close of
 * sales (LOT-12, LOT-26); each carries a tag keyed by the sealed per-issue secret; the issue register records print
 * runs, fractions distributed to each seller and returned; only fractions distributed and not returned are
 * payable; a reprint voids the earlier code (LST-1, LST-4). Each leak of the review refused with a 4xx of its own.
 */
const PASSWORD = 'correct horse battery'

describe('numbered lottery issue register: codes only from print runs, payable only when distributed (issue 13 point 3)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  let drawId = ''
  let sellerA = { id: '', name: 'Agencia Norte' }
  let sellerB = { id: '', name: 'Agencia Sur' }
  const codes = new Map<string, string>()
  let firstCodeOf3 = ''

  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const pay = (who: string, code: string) =>
    call(who, 'POST', '/api/tickets/pay', {
      code,
      stationId: 'ignorada',
      cashierId: 'ignorado',
      payeeName: 'Juana Flores Quispe',
      payeeDocument: '3344556 LP',
    })
  /** Prizes are paid by a cashier logged in at an enrolled station with an open shift (issue 13 point 5). */
  async function cashierAt(station: 'cajaA' | 'cajaB', username: string) {
    const login = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username, password: PASSWORD },
      { authorization: auth.get(station)! },
    )
    expect(login.status).toBe(200)
    auth.set(`${username}@${station}`, `Bearer ${login.body.token}`)
    const shift = await call(`${username}@${station}`, 'POST', '/api/shifts', { floatCents: 5_000_000 })
    expect(shift.status).toBe(201)
  }
  const codeOf = (n: number, f: number) => codes.get(`${n}/${f}`)!

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['cajero', 'Juan Condori', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const
    for (const [username, displayName, role] of people) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    const hall = await api(
      server.url,
      'POST',
      '/api/halls',
      { name: 'Sala Illimani', profileId: 'BO-2025', playingPositions: 200 },
      { authorization: auth.get('jefa')! },
    )
    expect(hall.status).toBe(201)
    for (const [name, kind] of [
      ['kiosco', 'kiosk'],
      ['cajaA', 'cashier_station'],
      ['cajaB', 'cashier_station'],
    ] as const) {
      const d = await server.services.auth.enrolDevice({
        ...sealed(),
        kind,
        name: name === 'cajaA' ? sellerA.name : name === 'cajaB' ? sellerB.name : 'Kiosco 1',
        hallId: hall.body.id,
      })
      auth.set(name, `Device ${d.credential}`)
      if (name === 'cajaA') sellerA = { ...sellerA, id: d.id }
      if (name === 'cajaB') sellerB = { ...sellerB, id: d.id }
    }
    const plan = lotteryPlan({
      gameCode: 'LNBREG',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 2,
      licensedMaxTickets: 1000,
      drawMethod: 'manual',
      drawDevice: await registerTombola(server.services),
      prizes: [
        { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 },
        { code: 'P2', name: 'Segundo Premio', rule: { type: 'exact' }, amountCents: 500_000 },
        { code: 'P3', name: 'Tercer Premio', rule: { type: 'exact' }, amountCents: 200_000 },
      ],
    })
    const created = await call('jefa', 'POST', '/api/lottery/draws', plan)
    expect(created.status).toBe(201)
    drawId = created.body.drawId
  })
  afterAll(async () => server?.cleanup())

  /** The test clock jumps weeks ahead: people log in again (their sessions expire on that clock). */
  async function relogin() {
    for (const username of ['jefa', 'cajera', 'auditor'])
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
  }

  it('LOT-26: the per-fraction code route any kiosk or cashier could call is gone (404), for every state of the draw', async () => {
    for (const who of ['kiosco', 'cajaA', 'cajera', 'jefa']) {
      const r = await call(who, 'GET', `/api/lottery/draws/${drawId}/tickets/5/1/1`)
      expect(r.status, who).toBe(404)
      expect(JSON.stringify(r.body ?? '')).not.toMatch(/BLL1\.T\./)
      expect((await call(who, 'GET', `/api/lottery/draws/${drawId}/tickets?from=5&to=5`)).status, who).toBe(404)
      expect((await call(who, 'GET', `/api/lottery/draws/${drawId}/tickets/5/1/1/ticket.pdf`)).status, who).toBe(404)
    }
  })

  it('LOT-12: only the lottery administration runs a print job; a kiosk, a cashier station, a cashier and an auditor are refused (403)', async () => {
    for (const who of ['kiosco', 'cajaA', 'cajera', 'auditor']) {
      const r = await call(who, 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 9 })
      expect(r.status, who).toBe(403)
      expect(r.body.error.code).toBe('FORBIDDEN')
      expect(r.body.error.message).not.toMatch(/lottery\.admin/)
    }
    const run = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 9 })
    expect(run.status).toBe(201)
    expect(run.body).toMatchObject({ runNo: 1, printed: 20, reprinted: 0 })
    for (const x of printedFractions(server, run.body)) codes.set(`${Number(x.number)}/${x.fraction}`, x.code)
    expect(codeOf(3, 1)).toMatch(/^BLL1\.T\.ltr_[a-z0-9]+-03-01-01-r1-[0-9a-f]{16}\./)
    firstCodeOf3 = codeOf(3, 1)
  })

  it('LST-1 / LST-4: printing a printed fraction again needs a reason (409 without), and the reprint voids the earlier code', async () => {
    const again = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 3, to: 3 })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('CONFLICT')
    const reprint = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, {
      from: 3,
      to: 3,
      reason: 'billete dañado en imprenta',
    })
    expect(reprint.status).toBe(201)
    expect(reprint.body).toMatchObject({ runNo: 2, printed: 2, reprinted: 2 })
    for (const x of printedFractions(server, reprint.body)) codes.set(`${Number(x.number)}/${x.fraction}`, x.code)
    expect(codeOf(3, 1)).not.toBe(firstCodeOf3)
    expect(codeOf(3, 1)).toMatch(/-03-01-01-r2-/)
  })

  it('distributes printed fractions to enrolled sellers only, once each, and records returns before the close (LOT-12)', async () => {
    expect(
      (
        await call('cajaA', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 0,
          to: 4,
          sellerId: sellerA.id,
        })
      ).status,
    ).toBe(403)
    const a = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
      from: 0,
      to: 4,
      sellerId: sellerA.id,
    })
    expect(a.status).toBe(201)
    expect(a.body).toMatchObject({ fractions: 10, seller: { id: sellerA.id, name: sellerA.name } })
    // Each fraction goes to one seller; an unprinted range cannot be distributed; a person is not a seller.
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 4,
          to: 6,
          sellerId: sellerB.id,
        })
      ).status,
    ).toBe(409)
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 20,
          to: 21,
          sellerId: sellerB.id,
        })
      ).status,
    ).toBe(409)
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 5,
          to: 6,
          sellerId: 'usr_nadie',
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 5,
          to: 6,
          sellerId: sellerB.id,
        })
      ).status,
    ).toBe(201)
    // Seller A hands back fraction 2 of number 4; seller B the whole ticket 6.
    const partial = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/returns`, {
      from: 4,
      to: 4,
      fractionFrom: 2,
      fractionTo: 2,
      sellerId: sellerA.id,
    })
    expect(partial.status).toBe(201)
    expect(partial.body.fractionsReturned).toBe(1)
    expect(
      (await call('jefa', 'POST', `/api/lottery/draws/${drawId}/returns`, { from: 6, to: 6, sellerId: sellerB.id }))
        .body.fractionsReturned,
    ).toBe(2)
    const register = await call('auditor', 'GET', `/api/lottery/draws/${drawId}/register`)
    expect(register.status).toBe(200)
    expect(register.body.issue).toMatchObject({ fractions: 200, printed: 20, undistributed: 6 })
    expect(register.body.printRuns.map((r: any) => [r.runNo, r.fractions, r.reprinted])).toEqual([
      [1, 20, 0],
      [2, 2, 2],
    ])
    expect(register.body.printRuns[1]).toMatchObject({
      reason: 'billete dañado en imprenta',
      by: { kind: 'person', role: 'director' },
    })
    const bySeller = Object.fromEntries(register.body.sellers.map((s: any) => [s.sellerName, s]))
    expect(bySeller[sellerA.name]).toMatchObject({ distributed: 10, returned: 1, sold: 9, amountDueCents: 9 * 5_000 })
    expect(bySeller[sellerB.name]).toMatchObject({ distributed: 4, returned: 2, sold: 2, amountDueCents: 2 * 5_000 })
    // The register and the journal name runs and counts, never a code.
    expect(JSON.stringify(register.body)).not.toMatch(/BLL1\./)
    const journal = await call('jefa', 'GET', '/api/journal?limit=1000')
    expect(journal.status).toBe(200)
    expect(JSON.stringify(journal.body)).not.toMatch(/BLL1\.T\./)
  })

  it('after the close of sales no print run leaves the server (409), and the draw is entered from the tómbola', async () => {
    t = Date.parse('2025-03-01T18:00:00-04:00')
    await relogin()
    const closed = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/close`, {})
    expect(closed.status).toBe(200)
    const late = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 50, to: 50 })
    expect(late.status).toBe(409)
    expect(late.body.error.code).toBe('SALES_CLOSED')
    for (const n of [3, 4, 7])
      expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/numbers`, { number: n })).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/settle`)).status).toBe(200)
  })

  it('LOT-26 / LST-4: a reprinted-away code, a returned fraction and an undistributed fraction are refused at the cashier (409), a distributed one is paid once', async () => {
    await cashierAt('cajaA', 'cajera')
    await cashierAt('cajaB', 'cajero')
    const old = await pay('cajera@cajaA', firstCodeOf3)
    expect(old.status).toBe(409)
    expect(old.body.error.code).toBe('TICKET_VOID')
    expect(old.body.error.detail).toMatch(/reprinted/)
    const returned = await pay('cajera@cajaA', codeOf(4, 2))
    expect(returned.status).toBe(409)
    expect(returned.body.error.detail).toMatch(/returned/)
    const undistributed = await pay('cajero@cajaB', codeOf(7, 1))
    expect(undistributed.status).toBe(409)
    expect(undistributed.body.error.detail).toMatch(/never distributed/)
    const v = await call('cajaA', 'POST', '/api/tickets/validate', { code: codeOf(3, 1) })
    expect(v.body).toMatchObject({ outcome: 'WIN', amountCents: 500_000 })
    const paid = await pay('cajera@cajaA', codeOf(3, 1))
    expect(paid.status).toBe(200)
    expect(paid.body.payout).toMatchObject({ kind: 'lottery', amountCents: 500_000 })
    expect((await pay('cajero@cajaB', codeOf(3, 1))).body.error.code).toBe('ALREADY_PAID')
    expect((await pay('cajero@cajaB', codeOf(4, 1))).status).toBe(200)
    // A kiosk does not pay prizes at all.
    expect((await pay('kiosco', codeOf(3, 2))).status).toBe(403)
  })

  it('a code signed with the operator key but without the sealed per-issue secret is refused as forged (422)', async () => {
    const real = codeOf(3, 2).split('.')[2]
    const guessed = real.replace(/-[0-9a-f]{16}$/, '-0123456789abcdef')
    const forged = encodeTicketCode({ kind: TicketKind.lottery, id: guessed }, server.services.keys.privateKey)
    const r = await pay('cajera@cajaA', forged)
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('INVALID_SIGNATURE')
    expect(r.body.error.detail).toMatch(/issue tag/)
    // Nor does the old form without a print run (what the removed route handed out) pay.
    const bare = encodeTicketCode(
      { kind: TicketKind.lottery, id: real.replace(/-r\d+-[0-9a-f]{16}$/, '') },
      server.services.keys.privateKey,
    )
    expect((await pay('cajera@cajaA', bare)).status).toBe(409)
  })
})
