import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, startFakePrinter, type HallSetup } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { testPostgresUrl } from '../helpers/database.ts'
import { openSqliteReadonly, type SqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { sealed } from '../helpers/device-marks.ts'
import type { Sql } from '../../server/src/db/database.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 23 point 5, over real HTTP with authentication on, enrolled kiosks and real TCP printers on 127.0.0.1:
 * a sale commits first and prints after, with no lock held.
 *
 * - A kiosk printer that accepts the connection and never reads: the purchase stands and is answered once the
 *   print gives up (PRINT_PENDING), and meanwhile another kiosk's purchase and a ball draw in another hall are
 *   answered. Proved by order (both answered while the stalled print is still pending), not by timings.
 * - A printer that refuses every job: each of twelve e-instant purchases is committed before its job reaches the
 *   printer (a second, read-only connection sees it), each is marked for reprint, none is lost.
 * - The reprint (POST /api/tickets/reprint) at a kiosk with the voucher that paid, or at the cash desk by the
 *   sale's reference: "REIMPRESIÓN n" on paper, the same signed code and card number, counted and journaled;
 *   refused for a ticket already printed, for a kiosk without the voucher, and for a station of another hall.
 */
describe('sales commit, then print (issue 23 point 5)', () => {
  const TIMEOUT_MS = 2500
  const printerOf: Record<string, string> = {}
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let other: HallSetup
  let stall: Awaited<ReturnType<typeof startFakePrinter>>
  let refuse: Awaited<ReturnType<typeof startFakePrinter>>
  let good: Awaited<ReturnType<typeof startFakePrinter>>
  let desk: Awaited<ReturnType<typeof startFakePrinter>>
  const kiosks: Record<'stall' | 'refuse' | 'good' | 'otherHall', { id: string; credential: string }> = {} as never
  let reader: SqliteConnection | null = null
  const es = { 'accept-language': 'es' }
  const asKiosk = (k: { credential: string }) => ({ ...es, authorization: `Device ${k.credential}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const rowOf = (ref: string) =>
    server.services.db.get<{ status: string; reprints: number; docs_sealed: string | null }>(
      'SELECT status, reprints, docs_sealed FROM ticket_prints WHERE id = ?',
      [ref],
    )

  async function voucher(amountCents: number): Promise<{ id: string; code: string }> {
    const r = await api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: hall.hallId, amountCents, cash: countOf(amountCents) },
      asCashier(),
    )
    expect(r.status).toBe(201)
    return r.body.voucher
  }
  const buyCard = (k: { credential: string }, code: string) =>
    api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: code, cards: { gameId: hall.gameId, count: 1 }, ageConfirmed: true },
      asKiosk(k),
    )

  beforeAll(async () => {
    ;[stall, refuse, good, desk] = await Promise.all([
      startFakePrinter('stall'),
      startFakePrinter('refuse'),
      startFakePrinter('ok'),
      startFakePrinter('ok'),
    ])
    // The map is read when a station first prints: filled below, once the devices are enrolled.
    // One place in the kiosk purchases' line (BOLILLO_SALE_CONCURRENCY; 16 by default): a stalled printer that kept
    // its kiosk's place while printing, or while its status is asked, would hold up every other kiosk's purchase.
    server = await startTestServer({
      auth: 'on',
      printers: printerOf,
      printerTimeoutMs: TIMEOUT_MS,
      saleConcurrency: 1,
    })
    hall = await paidHall(server.services)
    other = await hallWithGameOnSale(server.services, { name: 'Sala Sopocachi' })
    const { auth } = server.services
    kiosks.stall = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco lento', hallId: hall.hallId })
    kiosks.refuse = await auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco que rechaza',
      hallId: hall.hallId,
    })
    kiosks.good = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 2', hallId: hall.hallId })
    kiosks.otherHall = await auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Sopocachi',
      hallId: other.hallId,
    })
    printerOf[kiosks.stall.id] = stall.url
    printerOf[kiosks.refuse.id] = refuse.url
    printerOf[kiosks.good.id] = good.url
    printerOf[kiosks.otherHall.id] = good.url
    printerOf[hall.station.id] = desk.url
    if (!testPostgresUrl) reader = await openSqliteReadonly(join(server.dataDir, 'bolillo.sqlite'))
    // The other hall's game is in play: cards sold at its counter, sales closed, so a ball can be drawn.
    await server.services.paidSales.counterCards({
      gameId: other.gameId,
      count: 12,
      stationId: 'mesa-sopocachi',
      soldBy: 'test',
      ageConfirmed: true,
    })
    await server.services.bingo.closeSales({ gameId: other.gameId })
  })
  afterAll(async () => {
    reader?.close()
    await server?.cleanup()
    await Promise.all([stall, refuse, good, desk].map((p) => p?.close()))
  })

  it('answers a sale whose printer stalls once the print gives up, and meanwhile another kiosk sells and a ball is drawn', async () => {
    const mine = await voucher(500)
    const theirs = await voucher(500)
    let answered = false
    const started = Date.now()
    const stalled = buyCard(kiosks.stall, mine.code).then((r) => {
      answered = true
      return r
    })
    // The printer has the connection: the sale has committed and its print is under way (and stuck).
    await stall.connected(1)
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: mine.code }, asCashier())).body.status).toBe(
      'spent',
    )

    const sale = await buyCard(kiosks.good, theirs.code)
    expect(sale.status).toBe(201)
    expect(sale.body.print).toMatchObject({ printed: true, target: good.url })
    const ball = await api(server.url, 'POST', `/api/games/${other.gameId}/draw`, {}, asDirector())
    expect(ball.status).toBe(200)
    expect(ball.body.ball).toBeGreaterThanOrEqual(1)
    // Both were answered while the stalled print was still waiting for the printer.
    expect(answered).toBe(false)

    const r = await stalled
    expect(r.status).toBe(201)
    expect(r.body.print).toMatchObject({
      printed: false,
      code: 'PRINT_PENDING',
      ref: r.body.purchaseId,
      reason: 'no_response',
    })
    expect(r.body.print.message).toMatch(/^Su compra está registrada/)
    // Bounded by the printer's timeout (one status query), not by how long the printer stays stuck.
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS)
    expect(r.body.cards).toHaveLength(1)
    expect(await rowOf(r.body.purchaseId)).toMatchObject({ status: 'pending', reprints: 0 })
    // That kiosk's printer is now known stuck: its next player keeps his credit (asked outside any lock), and while
    // its printer is asked, another kiosk's purchase is answered (the question holds no place in the line).
    const next = await voucher(500)
    const more = await voucher(500)
    let refusedAnswered = false
    const refusing = buyCard(kiosks.stall, next.code).then((x) => {
      refusedAnswered = true
      return x
    })
    await stall.connected(2)
    expect((await buyCard(kiosks.good, more.code)).status).toBe(201)
    expect(refusedAnswered).toBe(false)
    const refused = await refusing
    expect(refused.status).toBe(503)
    expect(refused.body.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', details: { reason: 'no_response' } })
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: next.code }, asCashier())).body.status).toBe(
      'active',
    )
  })

  it('commits every purchase before its job reaches a printer that refuses them, and marks each for reprint (none lost)', async () => {
    const countCommitted = () =>
      Number(
        (reader!.prepare("SELECT COUNT(*) AS n FROM instant_sales WHERE channel = 'electronic'").get() as { n: number })
          .n,
      )
    const before = Number(
      (await server.services.db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM instant_sales WHERE channel = 'electronic'",
      ))!.n,
    )
    const seenAtJob: number[] = []
    // Each job's first byte: what a second connection (committed data only) sees at that moment.
    refuse.onJob = () => {
      if (reader) seenAtJob.push(countCommitted())
    }
    const refs: string[] = []
    for (let i = 0; i < 12; i++) {
      const v = await voucher(1000)
      const r = await api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: v.code, instant: { gameNo: hall.gameNo, count: 1 }, ageConfirmed: true },
        asKiosk(kiosks.refuse),
      )
      expect(r.status).toBe(201)
      expect(r.body.instant).toHaveLength(1)
      expect(r.body.print).toMatchObject({ printed: false, code: 'PRINT_PENDING' })
      expect((await api(server.url, 'POST', '/api/vouchers/check', { code: v.code }, asCashier())).body.status).toBe(
        'spent',
      )
      refs.push(r.body.purchaseId)
    }
    refuse.onJob = undefined
    const after = Number(
      (await server.services.db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM instant_sales WHERE channel = 'electronic'",
      ))!.n,
    )
    expect(after - before).toBe(12)
    for (const ref of refs) expect(await rowOf(ref)).toMatchObject({ status: 'pending', reprints: 0 })
    // No printer saw a ticket (its outcome) before its sale had committed: the i-th job found i+1 sales committed.
    if (reader) {
      expect(seenAtJob).toHaveLength(12)
      seenAtJob.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(before + i + 1))
    }
    const pending = await api(server.url, 'GET', '/api/tickets/reprints', undefined, asCashier())
    expect(pending.status).toBe(200)
    expect(pending.body.pending.map((p: { ref: string }) => p.ref)).toEqual(expect.arrayContaining(refs))
    const failures = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'ticket.print_failed'",
    )
    for (const ref of refs) expect(failures.some((f) => JSON.parse(f.payload).ref === ref)).toBe(true)
  })

  it('reprints at a kiosk with the voucher that paid: REIMPRESIÓN 1, the same code and card, counted and journaled; never twice', async () => {
    const v = await voucher(500)
    const cardsBefore = (await server.services.bingo.getGameState(hall.gameId)).cardsSold
    const bought = await buyCard(kiosks.refuse, v.code)
    expect(bought.body.print.code).toBe('PRINT_PENDING')
    const [card] = bought.body.cards
    const ref = bought.body.purchaseId

    // A kiosk shows the voucher; a reference alone is not enough there (anyone could read it off a screen).
    const byRef = await api(server.url, 'POST', '/api/tickets/reprint', { ref }, asKiosk(kiosks.good))
    expect(byRef.status).toBe(400)
    expect(byRef.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'voucherCode' } })
    // A kiosk of another hall is refused, and nothing is counted.
    const elsewhere = await api(
      server.url,
      'POST',
      '/api/tickets/reprint',
      { voucherCode: v.code },
      asKiosk(kiosks.otherHall),
    )
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.error.code).toBe('WRONG_HALL')
    expect(await rowOf(ref)).toMatchObject({ status: 'pending', reprints: 0 })

    good.clear()
    const r = await api(server.url, 'POST', '/api/tickets/reprint', { voucherCode: v.code }, asKiosk(kiosks.good))
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ ref, reprint: 1, print: { printed: true, target: good.url } })
    const job = decodeEscPos(good.received())
    expect(job.lines.filter((l) => l.includes('REIMPRESIÓN 1')).length).toBeGreaterThanOrEqual(1)
    expect(job.qr).toEqual([card.code])
    expect(job.lines.join('\n')).toContain(card.serial)
    // The same ticket: no new card taken, the series cursor where the sale left it (BNG-12).
    expect((await server.services.bingo.getGameState(hall.gameId)).cardsSold).toBe(cardsBefore + 1)
    expect(await rowOf(ref)).toEqual({ status: 'reprinted', reprints: 1, docs_sealed: null })
    const records = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'ticket.reprinted'",
    )
    const mine = records.map((x) => JSON.parse(x.payload)).filter((p) => p.ref === ref)
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({
      reprint: 1,
      stationId: kiosks.good.id,
      items: { cards: [card.id] },
      actor: { kind: 'device', id: kiosks.good.id },
    })

    // Printed once as a reprint: not again (a lost ticket is the lost/stolen procedure's).
    const again = await api(server.url, 'POST', '/api/tickets/reprint', { voucherCode: v.code }, asKiosk(kiosks.good))
    expect(again.status).toBe(409)
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'reprinted' } })
    expect((await rowOf(ref))!.reprints).toBe(1)
  })

  it('keeps a voucher sold at the till whose paper did not come out, and the cashier reprints it with the same code', async () => {
    desk.setMode('refuse')
    let sold: { status: number; body: any }
    try {
      sold = await api(
        server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 2_000, cash: countOf(2_000) },
        asCashier(),
      )
    } finally {
      desk.setMode('ok')
    }
    expect(sold.status).toBe(201)
    expect(sold.body.print).toMatchObject({ printed: false, code: 'PRINT_PENDING', ref: sold.body.voucher.id })
    // Sold: the cash is in the drawer and the voucher spendable, whether or not its paper came out.
    expect(
      (await api(server.url, 'POST', '/api/vouchers/check', { code: sold.body.voucher.code }, asCashier())).body,
    ).toMatchObject({ status: 'active', amountCents: 2_000 })
    desk.clear()
    const r = await api(server.url, 'POST', '/api/tickets/reprint', { ref: sold.body.voucher.id }, asCashier())
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ reprint: 1, items: { change: sold.body.voucher.id } })
    const job = decodeEscPos(desk.received())
    expect(job.lines.some((l) => l.includes('REIMPRESIÓN 1'))).toBe(true)
    expect(job.qr).toEqual([sold.body.voucher.code])
  })

  it('reprints at the cash desk by the sale reference, and refuses a ticket that printed', async () => {
    const failed = await buyCard(kiosks.refuse, (await voucher(500)).code)
    expect(failed.body.print.code).toBe('PRINT_PENDING')
    desk.clear()
    const r = await api(
      server.url,
      'POST',
      '/api/tickets/reprint',
      { ref: failed.body.purchaseId, stationId: kiosks.good.id },
      asCashier(),
    )
    expect(r.status).toBe(200)
    // Printed at the cashier's own station, whatever station the body named.
    expect(r.body).toMatchObject({ reprint: 1, print: { target: desk.url } })
    expect(decodeEscPos(desk.received()).lines.some((l) => l.includes('REIMPRESIÓN 1'))).toBe(true)

    const printed = await buyCard(kiosks.good, (await voucher(500)).code)
    expect(printed.body.print.printed).toBe(true)
    const refused = await api(server.url, 'POST', '/api/tickets/reprint', { ref: printed.body.purchaseId }, asCashier())
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'printed' } })
    expect(refused.body.error.message).toBeTruthy()
    // A display may not reprint anything.
    const display = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'display',
      name: 'Pantalla',
      hallId: hall.hallId,
    })
    const forbidden = await api(
      server.url,
      'POST',
      '/api/tickets/reprint',
      { ref: failed.body.purchaseId },
      { ...es, authorization: `Device ${display.credential}` },
    )
    expect(forbidden.status).toBe(403)
  })

  // Issue 23 point 5: a printed mark is one more unit of the sales' group commit, not a transaction of its own (on
  // PostgreSQL each took the journal's lock and flushed a commit about as often as the sales' batches did).
  it('marks printed tickets in the sales batches: no transaction of their own', async () => {
    const vouchers = [await voucher(500), await voucher(500), await voucher(500)]
    await server.services.cashdesk.prints.flushPrinted()
    const db = server.services.db
    const transaction = db.transaction
    // What each transaction ran: whether it was a group-commit batch, whether it marked tickets printed.
    const seen: Array<{ batch: boolean; marks: boolean }> = []
    db.transaction = ((fn, options) => {
      // A batch opens its first unit's savepoint with the transaction (on PostgreSQL in BEGIN's round trip).
      const t = { batch: options?.savepoint === 'group_unit', marks: false }
      seen.push(t)
      const spy = (tx: Sql): Sql => {
        const note = (sql: string) => {
          if (sql.includes('SAVEPOINT group_unit')) t.batch = true
          if (sql.startsWith("UPDATE ticket_prints SET status = 'printed'")) t.marks = true
        }
        return {
          all: (q, p) => (note(q), tx.all(q, p)),
          get: (q, p) => (note(q), tx.get(q, p)),
          run: (q, p) => (note(q), tx.run(q, p)),
        }
      }
      return transaction.call(db, (tx) => fn(spy(tx)), options)
    }) as typeof transaction
    try {
      const before = server.services.paidSales.stats()
      const refs: string[] = []
      for (const v of vouchers) {
        const r = await buyCard(kiosks.good, v.code)
        expect(r.status).toBe(201)
        expect(r.body.print.printed).toBe(true)
        refs.push(r.body.purchaseId)
      }
      // The marks are flushed shortly after the answers.
      for (let t = 0; t < 100 && (await rowOf(refs[2]))?.status !== 'printed'; t++)
        await new Promise((done) => setTimeout(done, 20))
      for (const ref of refs) expect(await rowOf(ref)).toMatchObject({ status: 'printed', docs_sealed: null })
      // Three sales and at least one unit of marks through the group commit; no mark outside its batches.
      expect(server.services.paidSales.stats().units - before.units).toBeGreaterThanOrEqual(4)
      expect(seen.filter((t) => t.marks).length).toBeGreaterThanOrEqual(1)
      expect(seen.filter((t) => t.marks && !t.batch)).toEqual([])
    } finally {
      db.transaction = transaction
    }
  })
})
