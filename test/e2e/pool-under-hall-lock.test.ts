import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { countOf } from '../helpers/cash.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'

/**
 * A server with a pool of 3 PostgreSQL connections (DATABASE_POOL_SIZE), authentication on, an enrolled kiosk and a
 * cashier at her enrolled station: more transactions queue on one hall's lock than the pool has connections (20 paid
 * kiosk purchases of a card and a lotto slip, GEN-13 / LNS-6, beside voucher sales and cash-outs of the same hall).
 * The first sale under the lock reads the lotto draw's plan, which is not cached yet, through the server's Database:
 * on the pool it would wait for a connection that every other transaction holds while waiting for that lock (the
 * paid-sales bench hung so); it runs on the sale's own connection (db/postgres.ts) and everything commits, once.
 * On SQLite the same requests run on its one connection.
 */
const POOL = 3
const SALES = 20
const CASHOUTS = 5
const VOUCHER_SALES = 5
const BOUND_MS = 60_000

describe('more transactions on one hall lock than pooled connections', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const es = { 'accept-language': 'es' }
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const player = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', databasePoolSize: POOL })
    hall = await paidHall(server.services)
  })
  afterAll(async () => server?.cleanup())

  it('commits every sale, cash-out and voucher sale once, within a bound', async () => {
    const { db } = server.services
    const count = async (sql: string, args: unknown[] = []) => Number((await db.get<{ n: number }>(sql, args))?.n ?? 0)
    const forSales = []
    for (let i = 0; i < SALES; i++) forSales.push(await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier()))
    const forCashout = []
    for (let i = 0; i < CASHOUTS; i++) forCashout.push(await sellVoucher(server.url, hall.hallId, 700, {}, asCashier()))
    // The kiosk is seen once first (its last-seen time is a write of its own, not one of the sales').
    await api(server.url, 'GET', `/api/kiosk/halls/${hall.hallId}/offer`, undefined, asKiosk())
    const before = {
      slips: await count('SELECT COUNT(*) AS n FROM lotto_slips'),
      cards: (await server.services.bingo.getGameState(hall.gameId)).cardsSold,
      vouchers: await count('SELECT COUNT(*) AS n FROM vouchers WHERE hall_id = ?', [hall.hallId]),
    }

    // The hall's lock is held while every request queues behind it; PostgreSQL is watched from a connection of the
    // test's own, since the server's pool is what they fill.
    const watcher = db.engine === 'postgres' ? await watch(server.services.config.databaseUrl!) : null
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    let holding = () => {}
    const begun = new Promise<void>((r) => (holding = r))
    const holder = db.transaction(
      async () => {
        holding()
        await held
      },
      { scopes: [`hall:${hall.hallId}`] },
    )
    await begun
    const purchases = forSales.map((v) =>
      api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        {
          voucherCode: v.code,
          ageConfirmed: true,
          cards: { gameId: hall.gameId, count: 1 },
          slips: [{ drawId: hall.drawId, quickPicks: 1, player }],
        },
        asKiosk(),
      ),
    )
    const cashouts = forCashout.map((v) =>
      api(server.url, 'POST', '/api/vouchers/cashout', { code: v.code }, asCashier()),
    )
    const sold = Array.from({ length: VOUCHER_SALES }, () =>
      api(
        server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 300, cash: countOf(300) },
        asCashier(),
      ),
    )
    try {
      // Every other pooled connection waits on the hall's lock before it is let go.
      if (watcher) await watcher.waiting(POOL - 1)
      else while (Atomics.load(db.writerGate!, 0) < 3) await new Promise((r) => setTimeout(r, 5))
      release()
      await holder
      const all = Promise.all([Promise.all(purchases), Promise.all(cashouts), Promise.all(sold)])
      const [p, c, s] = await Promise.race([
        all,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`not done within ${BOUND_MS} ms: the server hung`)), BOUND_MS),
        ),
      ])
      for (const r of p) expect(r.status, JSON.stringify(r.body)).toBe(201)
      for (const r of c) expect(r.status, JSON.stringify(r.body)).toBe(200)
      for (const r of s) expect(r.status, JSON.stringify(r.body)).toBe(201)
    } finally {
      await watcher?.end()
    }

    // Once each: every voucher paid one card and one slip, the cash-outs spent theirs, the sales wrote theirs.
    const paid = await db.all<{ ref: string; n: number }>(
      `SELECT payment_ref AS ref, COUNT(*) AS n FROM sale_payments WHERE payment_ref IN (${forSales.map(() => '?').join(', ')}) GROUP BY payment_ref`,
      forSales.map((v) => v.id),
    )
    expect(paid.map((r) => Number(r.n))).toEqual(Array(SALES).fill(2))
    expect(await count('SELECT COUNT(*) AS n FROM lotto_slips')).toBe(before.slips + SALES)
    expect((await server.services.bingo.getGameState(hall.gameId)).cardsSold).toBe(before.cards + SALES)
    for (const v of forCashout)
      expect((await api(server.url, 'POST', '/api/vouchers/check', { code: v.code }, asKiosk())).body.status).not.toBe(
        'active',
      )
    // The voucher sales' own, and each purchase's change voucher of Bs 0 if any: at least the sales'.
    expect(await count('SELECT COUNT(*) AS n FROM vouchers WHERE hall_id = ?', [hall.hallId])).toBeGreaterThanOrEqual(
      before.vouchers + VOUCHER_SALES,
    )
  }, 120_000)
})

/** Advisory locks not granted in the server's database, counted on a connection of the test's own. */
async function watch(url: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    async waiting(n: number) {
      for (;;) {
        const r = await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        if (Number(r.rows[0].n) >= n) return
        await new Promise((r) => setTimeout(r, 5))
      }
    },
    end: () => client.end(),
  }
}
