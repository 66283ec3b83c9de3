import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, sellVoucher, type HallSetup } from '../helpers/cashdesk.ts'
import { paidHall, PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'

/**
 * Issue 23 (`draw.ball.stalled_printer.p99`), CFG-20 (002 §6.1.5: the balls are called "con el ritmo adecuado"): a
 * ball drawn over HTTP in one hall while paid kiosk sales of another hall are queued for the database is written
 * before them (TransactionOptions.priority, db/sqlite-shared.ts and db/group-commit.ts), not after every sale queued
 * ahead of it. Authentication on, an enrolled kiosk, a caller who logs in. The order is read from the journal (its
 * sequence is the order of the writes); no time is asserted.
 */
describe('a ball drawn while kiosk sales are queued', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let sales: PaidHall
  let balls: HallSetup
  let callerToken: string
  const es = { 'accept-language': 'es' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { services } = server
    sales = await paidHall(services, { name: 'Sala Illimani' })
    // Another hall's game in play: cards sold, sales closed, its first ball drawn.
    balls = await hallWithGameOnSale(services, { name: 'Sala Mururata' })
    await services.bingo.sell({ gameId: balls.gameId, count: 12, channel: 'counter' })
    await services.bingo.closeSales({ gameId: balls.gameId })
    await services.bingo.drawNext(balls.gameId)
    await services.auth.createUser({
      username: 'locutor',
      displayName: 'Pedro Flores',
      role: 'caller',
      password: PASSWORD,
    })
    callerToken = (await services.auth.login('locutor', PASSWORD)).token
  })
  afterAll(async () => server?.cleanup())

  it('writes the ball ahead of the sales queued before it (SQLite: all of them; PostgreSQL: all but the unit being written)', async () => {
    const { db } = server.services
    const asCashier = { ...es, authorization: `Bearer ${sales.cashierToken}` }
    const asKiosk = { ...es, authorization: `Device ${sales.kiosk.credential}` }
    const vouchers = []
    for (let i = 0; i < 4; i++) vouchers.push(await sellVoucher(server.url, sales.hallId, 500, {}, asCashier))
    // The kiosk is seen once first: its "last seen" time is a write of its own after its first request, which would
    // otherwise count among the writes queued below.
    await api(server.url, 'GET', `/api/kiosk/halls/${sales.hallId}/offer`, undefined, asKiosk)
    const seen = () =>
      db.get<{ at: string | null }>('SELECT last_seen_at AS at FROM device_credentials WHERE id = ?', [sales.kiosk.id])
    while (!(await seen())?.at) await new Promise((r) => setTimeout(r, 10))
    const start = Number((await db.get<{ n: number }>('SELECT MAX(seq) AS n FROM journal'))!.n)

    // Every write waits behind this one (SQLite: the one connection; PostgreSQL: the global lock, exclusively).
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    let holding = () => {}
    const begun = new Promise<void>((r) => (holding = r))
    const holder = db.transaction(async () => {
      holding()
      await held
    })
    await begun
    const bought = vouchers.map((v) =>
      api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: v.code, cards: { gameId: sales.gameId, count: 1 }, ageConfirmed: true },
        asKiosk,
      ),
    )
    // The sales' first batch is queued before the ball is asked for.
    await queuedWriters(db, 1)
    const ball = api(server.url, 'POST', `/api/games/${balls.gameId}/draw`, undefined, {
      ...es,
      authorization: `Bearer ${callerToken}`,
    })
    // And the ball's transaction waits too, behind them.
    await queuedWriters(db, 2)
    release()
    await holder
    const drawn = await ball
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200)
    for (const r of await Promise.all(bought)) expect(r.status, JSON.stringify(r.body)).toBe(201)

    const written = await db.all<{ type: string }>(
      "SELECT type FROM journal WHERE seq > ? AND type IN ('ball.called', 'voucher.redeemed') ORDER BY seq",
      [start],
    )
    const types = written.map((w) => w.type)
    expect(types.filter((t) => t === 'voucher.redeemed')).toHaveLength(4)
    const salesBeforeBall = types.indexOf('ball.called')
    // SQLite: the ball starts right after the held transaction. PostgreSQL grants its locks in the order asked: the
    // first batch asked before the ball, and it ends after the one unit it writes (the others follow the ball).
    if (db.engine === 'sqlite') expect(salesBeforeBall).toBe(0)
    else expect(salesBeforeBall).toBeLessThanOrEqual(1)
  })
})

/**
 * Until `n` writes wait behind the held transaction: SQLite counts its queued writes (Database.writerGate, the held
 * one included); PostgreSQL shows them as advisory locks not granted.
 */
async function queuedWriters(db: Awaited<ReturnType<typeof startTestServer>>['services']['db'], n: number) {
  for (;;) {
    const waiting =
      db.engine === 'sqlite'
        ? Atomics.load(db.writerGate!, 0) - 1
        : Number(
            (
              await db.get<{ n: number }>(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
              )
            )?.n ?? 0,
          )
    if (waiting >= n) return
    await new Promise((r) => setTimeout(r, 5))
  }
}
