import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cashierHall, PASSWORD, printedDesign, printedInstant, type CashierHall } from '../helpers/cashier.ts'
import { plan649, rafflePlan, registerLottoBallSets } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { tamper } from '../helpers/tamper.ts'

/**
 * Issue 24 point 1, the lotto, raffle and instant lines, over real HTTP with authentication on and enrolled stations:
 * the rows those lines pay from (a slip's winning plays and payouts, a raffle's sales and payouts, an instant
 * ticket's state, sale and payout) are sealed like the cash desk's. A bare SQL statement on the database (its own
 * connection, as someone with the database would) that raises a prize, marks a ticket sold, or un-pays a paid one is
 * refused at POST /api/tickets/pay with ROW_TAMPERED and a `row.tampered` record, and `npx bolillo verify-journal`
 * names the row. Runs on SQLite (lotto sales on the writer thread) and on PostgreSQL with BOLILLO_TEST_DATABASE_URL.
 */
const run = promisify(execFile)
const bin = join(process.cwd(), 'bin', 'bolillo.mjs')
type Server = Awaited<ReturnType<typeof startTestServer>>

async function verifyCli(server: Server): Promise<{ code: number; stdout: string }> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: server.dataDir,
    BOLILLO_AUTH: 'on',
  }
  if (server.services.config.databaseUrl) env.DATABASE_URL = server.services.config.databaseUrl
  try {
    const r = await run(process.execPath, [bin, 'verify-journal'], { env, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout: r.stdout }
  } catch (err: any) {
    return { code: err.code as number, stdout: String(err.stdout) }
  }
}

async function refusalsOf(server: Server, table: string, id: string) {
  return (await server.services.db.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered'"))
    .map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }>; actor?: unknown })
    .filter((p) => p.rows.some((x) => x.table === table && x.id === id))
}

const countOf = async (server: Server, sql: string, params: unknown[] = []) =>
  Number((await server.services.db.get<{ n: number }>(sql, params))!.n)

describe('lotto: a slip whose prize was raised, or that was un-paid, is not paid (issue 24 point 1)', () => {
  let server: Server
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let jefa = ''
  let till: Till
  let drawId = ''
  const slips: Array<{ code: string; receipt: string }> = []
  const payee = { payeeName: 'Ana Quispe', payeeDocument: '445566 LP' }
  const boss = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: jefa, 'accept-language': 'es' })
  const pay = (code: string) => api(server.url, 'POST', '/api/tickets/pay', { code, ...payee }, till.headers)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null, checkpointIntervalMs: 0 }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await server.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
    })
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    // LNS-8: a manual draw on a registered, sealed tómbola.
    expect(
      (
        await boss('POST', '/api/devices', {
          id: 'tombola-7',
          kind: 'blower',
          name: 'Tómbola de sorteos',
          sealCode: 'AJ-T-0007',
          certificateId: 'AJ-CERT-2024-07',
        })
      ).status,
    ).toBe(201)
    const d = await boss(
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'SELLO', drawNumber: 1, drawMethod: 'manual', drawDevice: 'AJ-T-0007' }),
    )
    expect(d.status, JSON.stringify(d.body)).toBe(201)
    drawId = d.body.drawId
    // Two slips with three of the balls drawn (1..6): C3, a fixed Bs 10 each.
    for (const board of [
      [1, 2, 3, 40, 41, 42],
      [4, 5, 6, 43, 44, 45],
    ]) {
      const s = await server.services.lotto.sellSlip({
        drawId,
        boards: [board],
        player: { name: 'Ana Quispe', document: '445566 LP' },
        channel: 'counter',
      })
      slips.push({ code: s.code, receipt: s.receiptNumber })
    }
    // LNS-13: sales close at the plan's time.
    t = Date.parse('2025-03-08T19:01:00-04:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const closed = await boss('POST', `/api/lotto/draws/${drawId}/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    t += 30 * 60_000
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    // LNS-9: the manual draw is made with a registered ball set and its reserve.
    await registerLottoBallSets(server.services)
    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await boss('POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
    const settled = await boss('POST', `/api/lotto/draws/${drawId}/settle`)
    expect(settled.status, JSON.stringify(settled.body)).toBe(200)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('an untouched lotto verifies: the slips (sold on the writer thread), winning plays and payouts are sealed', async () => {
    const v = await server.services.verifyJournal()
    expect(v.rows.problems).toEqual([])
    expect(v.ok).toBe(true)
    expect(
      await countOf(server, "SELECT COUNT(*) AS n FROM row_seals WHERE tbl = 'lotto_slips' AND row_id IN (?, ?)", [
        slips[0].receipt,
        slips[1].receipt,
      ]),
    ).toBe(2)
    expect(await countOf(server, "SELECT COUNT(*) AS n FROM row_seals WHERE tbl = 'lotto_wins'")).toBe(2)
  })

  it('a winning play whose amount was raised in the database is refused at the cash desk (ROW_TAMPERED, journaled) and listed by verify-journal', async () => {
    const [slip] = slips
    await tamper(server, 'UPDATE lotto_wins SET amount_cents = ? WHERE receipt = ?', [250_000, slip.receipt])
    const refused = await pay(slip.code)
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error.code).toBe('ROW_TAMPERED')
    expect(refused.body.error.message).toMatch(/no coinciden con su sello/)
    const key = `${drawId}|${slip.receipt}|1`
    const [refusal] = await refusalsOf(server, 'lotto_wins', key)
    expect(refusal.actor).toMatchObject({ kind: 'person' })
    // Nothing paid, no cash moved.
    expect(await countOf(server, 'SELECT COUNT(*) AS n FROM lottery_payouts')).toBe(0)
    expect(await countOf(server, "SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout'")).toBe(0)
    const cli = await verifyCli(server)
    expect(cli.code).toBe(1)
    expect(cli.stdout).toContain(`FAILED row lotto_wins ${key}:`)
    // Put back as the server wrote it, the same path pays it (Bs 10).
    await tamper(server, 'UPDATE lotto_wins SET amount_cents = ? WHERE receipt = ?', [1000, slip.receipt])
    const paid = await pay(slip.code)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(1000)
  })

  it('a paid slip made unpaid again (its play reset, its payout deleted) is not paid twice', async () => {
    const [, slip] = slips
    expect((await pay(slip.code)).status).toBe(200)
    expect((await pay(slip.code)).body.error.code).toBe('ALREADY_PAID')
    await tamper(server, 'UPDATE lotto_wins SET paid_at = NULL WHERE receipt = ?', [slip.receipt])
    await tamper(server, 'DELETE FROM lottery_payouts WHERE ticket_id = ?', [slip.receipt])
    const again = await pay(slip.code)
    expect(again.status, JSON.stringify(again.body)).toBe(409)
    expect(again.body.error.code).toBe('ROW_TAMPERED')
    // Refused at its first altered row (the play made unpaid); verify lists the deleted payout too.
    expect(await refusalsOf(server, 'lotto_wins', `${drawId}|${slip.receipt}|1`)).toHaveLength(1)
    expect(await countOf(server, 'SELECT COUNT(*) AS n FROM lottery_payouts WHERE ticket_id = ?', [slip.receipt])).toBe(
      0,
    )
    const v = await server.services.verifyJournal()
    expect(v.rows.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'lotto_wins', id: `${drawId}|${slip.receipt}|1` }),
        expect.objectContaining({
          table: 'lottery_payouts',
          id: `${drawId}|${slip.receipt}`,
          what: expect.stringMatching(/missing from the table/),
        }),
      ]),
    )
  })
})

describe('raffle: a sale edited, or a payout deleted, is refused at the cash desk (issue 24 point 1)', () => {
  let server: Server
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  let jefa = ''
  let till: Till
  let drawId = ''
  const codes = new Map<number, string>()
  const boss = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: jefa, 'accept-language': 'es' })
  const pay = (n: number) =>
    api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: codes.get(n), payeeName: 'Pilar Sainz Ortiz', payeeDocument: '72000111X' },
      till.headers,
    )

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Elena Ruiz', 'director'],
      ['cajera', 'Rosa Gómez', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const hall = await boss('POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(hall.status).toBe(201)
    const raffle = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFASELLO', numbering: { from: 1, to: 40, digits: 2 }, ticketPriceCents: 3_000 }),
    )
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    drawId = raffle.body.drawId
    till = await openTill(server.url, server.services, {
      hallId: hall.body.id,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caseta 1',
      floatCents: 10_000,
    })
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${drawId}/tickets`,
      { ageConfirmed: true, numbers: Array.from({ length: 40 }, (_, i) => i + 1) },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const x of sold.body.tickets) codes.set(Number(x.number), x.code)
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    expect((await boss('POST', `/api/lottery/draws/${drawId}/close`, {})).status).toBe(200)
    expect((await boss('POST', `/api/lottery/draws/${drawId}/draw`)).status).toBe(200)
    expect((await boss('POST', `/api/lottery/draws/${drawId}/settle`)).status).toBe(200)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('a prize delivered whose payout row was deleted is not delivered again; a winning sale edited in the database is refused; verify-journal lists both', async () => {
    const v0 = await server.services.verifyJournal()
    expect(v0.rows.problems).toEqual([])
    expect(await countOf(server, "SELECT COUNT(*) AS n FROM row_seals WHERE tbl = 'lottery_sales'")).toBe(40)
    const winning = ((await boss('GET', `/api/lottery/draws/${drawId}`)).body.result ?? {}).winning as Record<
      string,
      number
    >
    const first = await pay(winning.R1)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const ticketId = (await server.services.db.get<{ ticket_id: string }>(
      'SELECT ticket_id FROM lottery_payouts WHERE draw_id = ?',
      [drawId],
    ))!.ticket_id
    await tamper(server, 'DELETE FROM lottery_payouts WHERE draw_id = ?', [drawId])
    const again = await pay(winning.R1)
    expect(again.status, JSON.stringify(again.body)).toBe(409)
    expect(again.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf(server, 'lottery_payouts', `${drawId}|${ticketId}`)).toHaveLength(1)

    // The second prize's sale row changed (its buyer, as if sold to someone else): refused, nothing delivered.
    const serial = (await server.services.db.get<{ serial: string }>(
      'SELECT serial FROM lottery_sales WHERE draw_id = ? AND number = ?',
      [drawId, winning.R2],
    ))!.serial
    await tamper(server, "UPDATE lottery_sales SET buyer_name = 'Otro Comprador' WHERE draw_id = ? AND serial = ?", [
      drawId,
      serial,
    ])
    const second = await pay(winning.R2)
    expect(second.status, JSON.stringify(second.body)).toBe(409)
    expect(second.body.error.code).toBe('ROW_TAMPERED')
    expect(await countOf(server, 'SELECT COUNT(*) AS n FROM lottery_payouts')).toBe(0)
    const cli = await verifyCli(server)
    expect(cli.code).toBe(1)
    expect(cli.stdout).toContain(`FAILED row lottery_payouts ${drawId}|${ticketId}:`)
    expect(cli.stdout).toContain(`FAILED row lottery_sales ${drawId}|${serial}:`)
  })
})

describe('instant: a ticket marked sold, or un-paid, behind the server is refused at the cash desk (issue 24 point 1)', () => {
  let server: Server
  let h: CashierHall
  let tickets: Awaited<ReturnType<typeof printedInstant>>
  let firstId = 0
  const payee = { payeeName: 'Juana Flores Mamani', payeeDocument: '3344556 LP' }
  const sell = (serial: string) =>
    h.call('cajero@caja2', 'POST', '/api/instant/sales', { ageConfirmed: true, code: serial, hallId: h.setup.hallId })
  // INS-10: both codes of the ticket presented, the hidden validation code and the inventory code outside.
  const pay = (x: { code: string; serial: string }) =>
    h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: x.code, inventoryCode: x.serial, ...payee })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 })
    h = await cashierHall(server.url, server.services)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 100_000 })).status).toBe(201)
    tickets = await printedInstant(server.services, h.setup.hallId)
    firstId = Number(
      (await server.services.db.get<{ first_id: number }>('SELECT first_id FROM instant_batches WHERE game_no = ?', [
        printedDesign.gameNo,
      ]))!.first_id,
    )
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('a winner never sold, marked sold in the database, is not paid (the ticket and its sale have no seal); verify-journal lists it', async () => {
    const winners = tickets.filter((x) => x.tier > 0)
    // A winner sold at the till is sealed with its sale (its id is the batch's first id plus its index).
    const sold = winners[0]
    expect((await sell(sold.serial)).status).toBe(201)
    expect(
      (await server.services.db.get<{ ticket_id: number }>('SELECT ticket_id FROM instant_sales'))!.ticket_id,
    ).toBe(firstId + tickets.indexOf(sold))
    expect((await server.services.verifyJournal()).rows.problems).toEqual([])
    // Someone with the database marks an unsold winner sold, with a sale row.
    const stolen = winners[1]
    const id = firstId + tickets.indexOf(stolen)
    await tamper(server, 'UPDATE instant_tickets SET status = 1 WHERE id = ?', [id])
    await tamper(
      server,
      'INSERT INTO instant_sales (ticket_id, batch_id, channel, hall_id, station_id, price_cents, sold_at) SELECT ?, id, ?, ?, ?, price_cents, ? FROM instant_batches WHERE game_no = ?',
      [id, 'printed', h.setup.hallId, h.devices.caja2.id, new Date().toISOString(), printedDesign.gameNo],
    )
    const refused = await pay(stolen)
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf(server, 'instant_tickets', String(id))).toHaveLength(1)
    expect(await countOf(server, 'SELECT COUNT(*) AS n FROM instant_payouts')).toBe(0)
    const cli = await verifyCli(server)
    expect(cli.code).toBe(1)
    expect(cli.stdout).toContain(`FAILED row instant_tickets ${id}: unsealed`)
    expect(cli.stdout).toContain(`FAILED row instant_sales ${id}: unsealed`)
    // The one sold at the till is paid.
    const paid = await pay(sold)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  })

  it('a paid ticket made unpaid again (state back to sold, payout deleted) is not paid twice', async () => {
    const sold = tickets.filter((x) => x.tier > 0)[0]
    const id = firstId + tickets.indexOf(sold)
    expect((await pay(sold)).body.error.code).toBe('ALREADY_PAID')
    await tamper(server, 'UPDATE instant_tickets SET status = 1 WHERE id = ?', [id])
    await tamper(server, 'DELETE FROM instant_payouts WHERE ticket_id = ?', [id])
    const again = await pay(sold)
    expect(again.status, JSON.stringify(again.body)).toBe(409)
    expect(again.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf(server, 'instant_tickets', String(id))).toHaveLength(1)
    const v = await server.services.verifyJournal()
    expect(v.rows.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          table: 'instant_tickets',
          id: String(id),
          what: expect.stringMatching(/do not match/),
        }),
        expect.objectContaining({
          table: 'instant_payouts',
          id: String(id),
          what: expect.stringMatching(/missing from the table/),
        }),
      ]),
    )
  })
})
