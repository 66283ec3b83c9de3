/**
 * Issue 15, point 2 for bingo: nothing under DATA_DIR reveals the seed of a game on sale (DESIGN.md "Sealed
 * secrets"), so a copy of the database, its WAL, the logs or a backup cannot foresee the draw. A real server
 * announces a game and sells cards, logs at debug level into DATA_DIR/logs, and a backup is taken into
 * DATA_DIR/backups while the game is still on sale (the printed tickets are scanned by instant-sealed.test.ts). The seed is then opened with the server's sealer, checked against the published commitment, and
 * every file under DATA_DIR is searched for it in every spelling. The same search on the code before sealing (seed
 * in `games.seed_hex`) finds it in the database.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupSqlite } from '../../server/src/cli/backup.ts'
import type { Logger } from '../../server/src/log.ts'
import { testPostgresUrl } from '../helpers/database.ts'
import { filesUnder, findNeedles, secretNeedles } from '../helpers/secret-scan.ts'
import { startTestServer } from '../helpers/server.ts'

function fileLogger(file: string): Logger {
  const at = (level: string) => (msg: string, extra?: unknown) => {
    // A late line after cleanup has nowhere to go.
    try {
      appendFileSync(file, JSON.stringify({ level, msg, extra: extra instanceof Error ? extra.message : extra }) + '\n')
    } catch {
      /* removed */
    }
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

// SQLite only: with PostgreSQL the database is not under DATA_DIR.
describe.skipIf(testPostgresUrl)('the seed of a bingo game on sale is sealed in DATA_DIR', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-bingo-sealed-'))
    mkdirSync(join(dataDir, 'logs'), { recursive: true })
    writeFileSync(join(dataDir, 'logs', 'server.log'), '')
    s = await startTestServer({ dataDir, logLevel: 'debug' }, { log: fileLogger(join(dataDir, 'logs', 'server.log')) })
  })
  afterAll(async () => {
    await s?.cleanup()
  })

  it('keeps no preimage of the commitment in the database, WAL, logs or backups', async () => {
    const { bingo, db, sealer } = s.services
    const hall = await bingo.createHall({
      name: 'Sala Sellada',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'bingo-sealed' })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'S', masterSetId: set.id, faceValueCents: 500 })
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 30, channel: 'counter' })
    await backupSqlite(s.dataDir, join(s.dataDir, 'backups', 'bolillo-backup.sqlite'))

    const state = await bingo.getGameState(g.gameId)
    expect(state.status).toBe('on_sale')
    const row = await db.get<{ seed_hex: string; seed_sealed: string }>(
      'SELECT seed_hex, seed_sealed FROM games WHERE id = ?',
      [g.gameId],
    )
    const seed = sealer.open(row!.seed_sealed, `game-seed|${g.gameId}`)
    // The sealed value is this game's seed: its hash is the commitment shown to the hall (DESIGN.md draw v2 point 1).
    expect(createHash('sha256').update(seed).digest('hex')).toBe(state.commitment)
    expect(row!.seed_hex).toBe('')

    const files = filesUnder(s.dataDir).filter((f) => !f.includes(`${join(s.dataDir, 'keys')}`))
    expect(files.some((f) => f.endsWith('bolillo.sqlite-wal'))).toBe(true)
    expect(files.some((f) => f.includes(join(s.dataDir, 'backups')))).toBe(true)
    expect(findNeedles(files, secretNeedles('game seed', seed))).toEqual([])
    // The scan is not blind: the same needles are found where the seed would have been written in clear.
    const plantedFile = join(s.dataDir, 'logs', 'planted.log')
    writeFileSync(plantedFile, `seed=${seed.toString('hex')}\n`)
    expect(findNeedles([plantedFile], secretNeedles('game seed', seed))).not.toEqual([])
  })
})
