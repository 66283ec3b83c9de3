import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions } from '../helpers/lottery-print.ts'
import { lotteryPlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * LST-1 (a), LST-2 (a), LST-4 (002 §7.5.1) over real HTTP with authentication on, real people and enrolled
 * stations: after a loss, the AJ-authorised reprint (a new numbering linked to the lost range, or a full reprint
 * with a new design under the authorised numbering, the lost numbers too); a sold fraction's paper stays valid
 * through a reprint and is exchanged on mere presentation; the papers of lost numbering are neither paid nor
 * exchanged; the reprint of a sold fraction pays nothing until its exchange. Every route that reaches the fraction's
 * value is driven: validate, pay, exchange.
 */
const PASSWORD = 'correct horse battery'

describe('lottery reprint after a loss and exchange of sold tickets (LST-1, LST-4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  let drawId = ''
  let seller = ''
  /** Codes by number and print run ("3@1"). */
  const codes = new Map<string, string>()
  let lostA = ''
  let lostB = ''

  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const keep = (tickets: Array<{ number: string; printRun: number; code: string }>) => {
    for (const x of tickets) codes.set(`${Number(x.number)}@${x.printRun}`, x.code)
  }
  const code = (n: number, run: number) => {
    const c = codes.get(`${n}@${run}`)
    expect(c, `${n}@${run}`).toBeTruthy()
    return c!
  }
  const pay = (code: string) =>
    call('cajera@caja', 'POST', '/api/tickets/pay', {
      code,
      payeeName: 'Juana Flores Quispe',
      payeeDocument: '3344556 LP',
    })
  const exchange = (who: string, code: string) => call(who, 'POST', '/api/lottery/tickets/exchange', { code })
  const schedule = [
    { act: 'entrega de materiales', at: '2025-02-15T09:00:00-04:00' },
    { act: 'inutilización de billetes mal impresos y guillotinado', at: '2025-02-16T09:00:00-04:00' },
  ]

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 200,
    })
    expect(hall.status).toBe(201)
    for (const [name, kind] of [
      ['kiosco', 'kiosk'],
      ['caja', 'cashier_station'],
    ] as const) {
      const d = await server.services.auth.enrolDevice({
        ...sealed(),
        kind,
        name: `Agencia ${name}`,
        hallId: hall.body.id,
      })
      auth.set(name, `Device ${d.credential}`)
      if (name === 'caja') seller = d.id
    }
    const created = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        gameCode: 'LNBLST',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1000,
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services),
        prizes: [
          { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 },
          { code: 'P2', name: 'Segundo Premio', rule: { type: 'exact' }, amountCents: 500_000 },
          { code: 'P3', name: 'Tercer Premio', rule: { type: 'exact' }, amountCents: 200_000 },
        ],
      }),
    )
    expect(created.status).toBe(201)
    drawId = created.body.drawId
    const run = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 19 })
    expect(run.status).toBe(201)
    keep(printedFractions(server, run.body))
    const d = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
      from: 0,
      to: 9,
      sellerId: seller,
    })
    expect(d.status).toBe(201)
    const report = (from: number, to: number) =>
      call('jefa', 'POST', `/api/lottery/draws/${drawId}/lost-stolen`, {
        kind: 'lost',
        from,
        to,
        discoveredAt: '2025-02-11T10:00:00-04:00',
        reportedToAjAt: '2025-02-12T10:00:00-04:00',
        distributed: false,
        remedy: from === 10 ? 'new-numbering' : 'full-reprint',
        notice: `Billetes ${from} a ${to} extraviados en imprenta`,
      })
    const a = await report(10, 11)
    expect(a.status).toBe(201)
    lostA = a.body.id
    const b = await report(12, 12)
    expect(b.status).toBe(201)
    lostB = b.body.id
  })
  afterAll(async () => server?.cleanup())

  it('LST-1 (a) new numbering: the same quantity inside the issue, never printed, with the AJ reference and the new schedule, linked to the lost range (LST-7)', async () => {
    const base = { mode: 'new-numbering', lostRangeId: lostA, authorisationRef: 'AJ-RA-2025-0777', schedule }
    const noRef = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      ...base,
      authorisationRef: ' ',
      replacement: { from: 50, to: 51 },
    })
    expect(noRef.status).toBe(400)
    expect(noRef.body.error.detail).toMatch(/AJ's authorisation/)
    const noSchedule = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      ...base,
      schedule: [],
      replacement: { from: 50, to: 51 },
    })
    expect(noSchedule.status).toBe(400)
    const wrongQuantity = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      ...base,
      replacement: { from: 50, to: 52 },
    })
    expect(wrongQuantity.status).toBe(400)
    const printedAlready = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      ...base,
      replacement: { from: 18, to: 19 },
    })
    expect(printedAlready.status).toBe(409)
    // A cashier and a kiosk record no reprint.
    for (const who of ['cajera', 'kiosco'])
      expect(
        (
          await call(who, 'POST', `/api/lottery/draws/${drawId}/reissues`, {
            ...base,
            replacement: { from: 50, to: 51 },
          })
        ).status,
      ).toBe(403)
    const ok = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      ...base,
      replacement: { from: 50, to: 51 },
    })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({
      mode: 'new-numbering',
      lostRange: { id: lostA, from: 10, to: 11, quantity: 2 },
      replacement: { from: 50, to: 51 },
      designVersion: 1,
      toReprint: 2,
      authorisationRef: 'AJ-RA-2025-0777',
    })
    const run = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 50, to: 51 })
    expect(run.status).toBe(201)
    expect(run.body).toMatchObject({ printed: 2, reprinted: 0, designVersion: 1 })
    // Under the design they were lost under, the lost numbers are still never printed again.
    const lostAgain = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, {
      from: 10,
      to: 12,
      reason: 'otra vez',
    })
    expect(lostAgain.status).toBe(409)
  })

  it('LST-1 (a) full reprint with a new design: the whole authorised numbering prints again, the lost numbers too, and the sold papers stay valid (LST-4)', async () => {
    const r = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/reissues`, {
      mode: 'full-reprint',
      lostRangeId: lostB,
      authorisationRef: 'AJ-RA-2025-0778',
      schedule,
      designNote: 'fondo verde, nueva imagen del Illimani',
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ mode: 'full-reprint', designVersion: 2, toReprint: 100 })
    const run = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, {
      from: 0,
      to: 99,
      reason: 'reimpresión total con nuevo diseño (AJ-RA-2025-0778)',
    })
    expect(run.status).toBe(201)
    // 100 numbers under design 2; the 10 distributed (0..9) printed for their exchange.
    expect(run.body).toMatchObject({ runNo: 3, designVersion: 2, printed: 100, forExchange: 10 })
    keep(printedFractions(server, run.body))
    expect(printedFractions(server, run.body).find((x) => x.number === '12')).toMatchObject({ designVersion: 2 })
    // Distribute the new design's 10..19 (the old papers of 10..12 are lost; 13..19 were never sold).
    expect(
      (await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, { from: 10, to: 19, sellerId: seller }))
        .status,
    ).toBe(201)
    const reg = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/register`)
    expect(reg.body.printRuns.map((x: any) => [x.runNo, x.designVersion])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
    ])
  })

  it('LST-4 (1): the holder of a sold ticket exchanges the old paper on presentation at a cash desk, once; the reprint pays nothing before', async () => {
    const login = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'cajera', password: PASSWORD },
      { authorization: auth.get('caja')! },
    )
    expect(login.status).toBe(200)
    auth.set('cajera@caja', `Bearer ${login.body.token}`)
    // Before its exchange the reprint of sold 3 is not a valid ticket (validate, exchange); the sold paper is.
    const before = await call('caja', 'POST', '/api/tickets/validate', { code: code(3, 3) })
    expect(before.body.outcome).toBe('VOID')
    expect(before.body.reason).toMatch(/exchange/)
    expect((await call('caja', 'POST', '/api/tickets/validate', { code: code(3, 1) })).body.outcome).toBe('PENDING')
    expect((await exchange('cajera@caja', code(3, 3))).status).toBe(409)
    // A kiosk exchanges nothing.
    expect((await exchange('kiosco', code(3, 1))).status).toBe(403)
    const ex = await exchange('cajera@caja', code(3, 1))
    expect(ex.status).toBe(200)
    expect(ex.body).toMatchObject({ oldRunNo: 1, newRunNo: 3, ticket: { number: '03', designVersion: 2 } })
    expect(JSON.stringify(ex.body)).not.toMatch(/BLL1\./)
    // Now the old paper is void and cannot be exchanged again; the new one is the ticket.
    const again = await exchange('cajera@caja', code(3, 1))
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('TICKET_VOID')
    expect((await call('caja', 'POST', '/api/tickets/validate', { code: code(3, 1) })).body.outcome).toBe('VOID')
    expect((await call('caja', 'POST', '/api/tickets/validate', { code: code(3, 3) })).body.outcome).toBe('PENDING')
    // A fraction never distributed has no sold paper to exchange; one sold after the reprint has nothing waiting.
    expect((await exchange('cajera@caja', code(30, 3))).body.error.code).toBe('TICKET_VOID')
    expect((await exchange('cajera@caja', code(15, 3))).body.error.code).toBe('CONFLICT')
  })

  it('LST-4 (2): the old paper of a lost number is neither exchanged nor paid; its new-design paper is', async () => {
    const lostOld = await exchange('cajera@caja', code(12, 1))
    expect(lostOld.status).toBe(423)
    expect(lostOld.body.error.code).toBe('TICKET_BLOCKED')
    expect((await call('caja', 'POST', '/api/tickets/validate', { code: code(12, 1) })).body.outcome).toBe(
      'REPORTED_LOST_STOLEN',
    )
    expect((await call('caja', 'POST', '/api/tickets/validate', { code: code(12, 3) })).body.outcome).toBe('PENDING')
  })

  it('after the draw: a sold paper never exchanged is paid and then not exchanged, its reprint is refused; the exchanged and the new-design lost number are paid; the lost paper is not', async () => {
    t = Date.parse('2025-03-01T18:00:00-04:00')
    for (const u of ['jefa', 'cajera']) auth.set(u, `Bearer ${(await server.services.auth.login(u, PASSWORD)).token}`)
    const login = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'cajera', password: PASSWORD },
      { authorization: auth.get('caja')! },
    )
    auth.set('cajera@caja', `Bearer ${login.body.token}`)
    expect((await call('cajera@caja', 'POST', '/api/shifts', { floatCents: 5_000_000 })).status).toBe(201)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/close`, {})).status).toBe(200)
    // The lost number 12, reprinted under the new design, is back in the draw.
    for (const n of [3, 12, 5])
      expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/numbers`, { number: n })).status, `${n}`).toBe(
        200,
      )
    expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/settle`)).status).toBe(200)

    // 5 was sold before the reprint and never exchanged: its sold paper wins; the reprint waiting for it does not.
    const reprint5 = await pay(code(5, 3))
    expect(reprint5.status).toBe(409)
    expect(reprint5.body.error.detail).toMatch(/exchange/)
    const sold5 = await pay(code(5, 1))
    expect(sold5.status).toBe(200)
    expect(sold5.body.payout).toMatchObject({ amountCents: 200_000 })
    expect((await exchange('cajera@caja', code(5, 1))).body.error.code).toBe('ALREADY_PAID')
    expect((await pay(code(5, 3))).status).toBe(409)

    // 3 was exchanged: the new paper is paid, the old one is void.
    expect((await pay(code(3, 1))).body.error.code).toBe('TICKET_VOID')
    expect((await pay(code(3, 3))).body.payout).toMatchObject({ amountCents: 1_000_000 })

    // 12: the old design's paper is blocked as lost, the new design's is paid.
    expect((await pay(code(12, 1))).body.error.code).toBe('TICKET_BLOCKED')
    expect((await pay(code(12, 3))).body.payout).toMatchObject({ amountCents: 500_000 })
  })

  it('§7.13 (INS-5, LST-4): the printable prize register lists each fraction paid with its number, the payee and a signature box, never a code', async () => {
    const get = (who: string) =>
      fetch(`${server.url}/api/lottery/prize-register.pdf?drawId=${drawId}`, {
        headers: { authorization: auth.get(who)! },
      })
    expect((await get('kiosco')).status).toBe(403)
    const r = await get('jefa')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/pdf/)
    const dir = join(process.cwd(), 'test-output', 'screenshots')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'lottery-prize-register.pdf')
    writeFileSync(file, Buffer.from(await r.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain('LIBRO DE REGISTRO DE PREMIOS OTORGADOS')
    // 5 (the sold paper), 3 (exchanged) and 12 (the new design), each once, with the payee's names and document.
    for (const n of ['05', '03', '12']) expect(text).toMatch(new RegExp(`${n} serie 1 fracci.n 1`))
    expect(text.match(/Juana Flores Quispe/g)).toHaveLength(3)
    expect(text).toContain('3344556 LP')
    expect(text).toContain('Firma del jugador')
    expect(text).not.toMatch(/BLL1|-r\d+-[0-9a-f]{16}/)
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, join(dir, 'lottery-prize-register')])
  })
})
