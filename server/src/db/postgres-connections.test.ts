import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshPostgresUrl, testPostgresUrl } from '../../../test/helpers/database.ts'
import type { Database } from './database.ts'
import { openPostgres } from './postgres.ts'

/**
 * A query sent through the Database (not through the `tx` its transaction gave) from inside one of its open
 * transactions runs on that transaction's connection: with a pool of one connection, held by the transaction, it
 * would otherwise wait forever. It sees the transaction's own writes, as on SQLite's one connection. Work the body
 * left running that queries after the commit goes to the pool again. `strayQueries: 'throw'` refuses such a query.
 */
describe.runIf(testPostgresUrl)('PostgreSQL: queries through the Database inside its own transaction', () => {
  let db: Database
  let strict: Database
  beforeAll(async () => {
    const url = await freshPostgresUrl()
    db = openPostgres(url, { max: 1 })
    await db.run('CREATE TABLE IF NOT EXISTS pool_probe (k TEXT PRIMARY KEY, v INTEGER NOT NULL)')
    strict = openPostgres(url, { max: 1, strayQueries: 'throw' })
  })
  afterAll(async () => {
    await db?.close()
    await strict?.close()
  })

  const bounded = <T>(p: Promise<T>, ms = 5000): Promise<T> =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hung ${ms} ms`)), ms))])

  it('run on the transaction connection (a pool of one does not hang) and see its uncommitted writes', async () => {
    const seen = await bounded(
      db.transaction(
        async (tx) => {
          await tx.run('INSERT INTO pool_probe (k, v) VALUES (?, ?)', ['a', 1])
          // Nested helpers, timers and all: the async context is the transaction's.
          await new Promise((r) => setTimeout(r, 1))
          await db.run('UPDATE pool_probe SET v = v + 1 WHERE k = ?', ['a'])
          return db.get<{ v: number }>('SELECT v FROM pool_probe WHERE k = ?', ['a'])
        },
        { scopes: ['hall:probe'] },
      ),
    )
    expect(seen?.v).toBe(2)
    expect((await db.get<{ v: number }>('SELECT v FROM pool_probe WHERE k = ?', ['a']))?.v).toBe(2)
  })

  it('roll back with the transaction', async () => {
    await expect(
      bounded(
        db.transaction(async () => {
          await db.run('INSERT INTO pool_probe (k, v) VALUES (?, ?)', ['b', 1])
          throw new Error('refused')
        }),
      ),
    ).rejects.toThrow('refused')
    expect(await db.get('SELECT v FROM pool_probe WHERE k = ?', ['b'])).toBeUndefined()
  })

  it('go to the pool again once the transaction has ended (work the body left running)', async () => {
    let later: Promise<unknown> = Promise.resolve()
    await bounded(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO pool_probe (k, v) VALUES (?, ?)', ['c', 1])
        later = new Promise((r) => setTimeout(r, 50)).then(() =>
          db.get<{ v: number }>('SELECT v FROM pool_probe WHERE k = ?', ['c']),
        )
      }),
    )
    expect(await bounded(later)).toEqual({ v: 1 })
    // The connection went back to the pool outside any transaction: the next one starts cleanly.
    expect(await bounded(db.transaction((tx) => tx.get<{ n: number }>('SELECT 1 AS n')))).toEqual({ n: 1 })
  })

  it("is refused as a programming error with strayQueries 'throw', and the transaction rolls back", async () => {
    await expect(
      bounded(
        strict.transaction(async (tx) => {
          await tx.run('INSERT INTO pool_probe (k, v) VALUES (?, ?)', ['d', 1])
          await strict.get('SELECT 1 AS n')
        }),
      ),
    ).rejects.toThrow(/inside its own open transaction/)
    expect(await strict.get('SELECT v FROM pool_probe WHERE k = ?', ['d'])).toBeUndefined()
  })

  it("leaves another Database's queries on its own pool", async () => {
    // Two nodes in one process: a query of node B inside node A's transaction is node B's, on B's pool.
    const r = await bounded(db.transaction(async () => strict.get<{ n: number }>('SELECT 1 AS n')))
    expect(r).toEqual({ n: 1 })
  })
})
