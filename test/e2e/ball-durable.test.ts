import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../server/src/db/database.ts'
import { openDatabase } from '../../server/src/services.ts'
import { markDemo } from '../../server/src/demo.ts'
import { api, startTestServer, testConfig } from '../helpers/server.ts'
import { hallWithGameOnSale } from '../helpers/cashdesk.ts'

/**
 * Issue 23 point 5: a ball drawn while kiosks sell must not stop the server in an fsync on the event loop (SQLite
 * synchronous = FULL, the shipped setting). Its commit defers the sync to the WAL sync thread (durable(), shared with
 * the paid sales' batches), and neither the caller's answer nor any screen sees the ball before that sync is done:
 * a ball shown is a ball on disk. Here the sync is held back by the test, over real HTTP with authentication on.
 */
describe('a ball is committed without an fsync on the event loop, and shown and answered only once on disk', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let auth: Record<string, string>
  let gameId = ''
  const steps: string[] = []
  let hold: Promise<void> | null = null
  let letGo: () => void = () => undefined

  beforeAll(async () => {
    const overrides = {
      auth: 'on' as const,
      databaseUrl: null,
      sqliteSynchronous: 'FULL' as const,
      dataDir: mkdtempSync(join(tmpdir(), 'bolillo-ball-durable-')),
    }
    const inner = await openDatabase(testConfig(overrides))
    // The storage as shipped, with its WAL sync held while `hold` is set; each step is recorded in order.
    const db: Database = Object.assign(Object.create(inner) as Database, {
      transaction: ((fn, options) => {
        if (hold && options?.deferSync) steps.push('committed with the sync deferred')
        return inner.transaction(fn, options)
      }) as Database['transaction'],
      durable: async () => {
        if (hold) {
          steps.push('sync asked')
          await hold
        }
        await inner.durable!()
      },
    })
    server = await startTestServer(overrides, { db })
    const { auth: access, bingo } = server.services
    await access.createUser({
      username: 'mesa',
      displayName: 'Jefe de Mesa Luis Mamani',
      role: 'floor_manager',
      password: 'correct horse battery',
    })
    auth = { authorization: `Bearer ${(await access.login('mesa', 'correct horse battery')).token}` }
    const hall = await hallWithGameOnSale(server.services, { cards: 100, name: 'Sala Sajama' })
    gameId = hall.gameId
    await bingo.sell({ gameId, count: 10, channel: 'counter' })
    // Signed by the local demo beacon: the first ball does not wait for a public round.
    await markDemo(server.services, [{ hallId: hall.hallId }])
    await bingo.closeSales({ gameId })
    server.services.onEvent((e) => {
      if (hold && e.type === 'game:changed' && e.reason === 'ball') steps.push('shown')
    })
  })
  afterAll(async () => {
    letGo()
    await server?.cleanup()
  })

  it('waits for the WAL sync before the screens and the caller hear of the ball', async () => {
    hold = new Promise<void>((resolve) => {
      letGo = () => {
        steps.push('synced')
        resolve()
      }
    })
    const answer = api(server.url, 'POST', `/api/games/${gameId}/draw`, undefined, auth).then((r) => {
      steps.push('answered')
      return r
    })
    // Until the ball's transaction asks for the sync (or, were it to fsync in its commit, until it answers).
    while (!steps.includes('sync asked') && !steps.includes('answered')) await new Promise((r) => setTimeout(r, 5))
    // Committed already: the ball is in the database while its sync is still held.
    const called = await server.services.db.all('SELECT ball FROM balls WHERE game_id = ?', [gameId])
    letGo()
    const r = await answer
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(called.map((c: any) => Number(c.ball))).toEqual([r.body.ball])
    expect(steps).toEqual(['committed with the sync deferred', 'sync asked', 'synced', 'shown', 'answered'])
  })
})
