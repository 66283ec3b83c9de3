import { TEST_ES_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { verifyChain, type JournalRecord } from '../shared/journal-chain.ts'
import { createBingoService } from './service.ts'
import { readJournal } from '../shared/journal.ts'

/**
 * Two bingo services on one database stand for two server nodes: each keeps its own in-memory detector per game and
 * must revalidate it against storage before using it. A ball corrected on the other node keeps the ball count the
 * same (BNG-83: the number on the ball prevails), so the count alone is not enough; the last ball is compared too.
 */
const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

describe('a second node drawing and correcting balls of the same game', () => {
  it('rebuilds the detector when the other node corrected the last ball, so the next ball finds the right winners', async () => {
    const db = await openTestDatabase()
    dbs.push(db)
    const clock = { now: () => new Date('2026-11-21T20:00:00Z') }
    const entropy = { name: 'test', randomBytes: (n: number) => randomBytes(n) }
    const nodeA = createBingoService({ db, clock, entropy })
    const nodeB = createBingoService({ db, clock, entropy })
    const hall = await nodeA.createHall({
      name: 'Sala',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    const set = await nodeA.createMasterSet({ count: 100, seed: 'two-nodes' })
    const series = await nodeA.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    const session = await nodeA.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await nodeA.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })
    await nodeA.openSales(g.gameId)
    const cards = await nodeA.sell({ gameId: g.gameId, count: 5, channel: 't' })
    await nodeB.closeSales({ gameId: g.gameId })

    const y = cards[0]
    const numbers = y.rows.flat()
    const [n5, m] = [numbers[3], numbers[9]]
    const wrong = Array.from({ length: 90 }, (_, i) => i + 1).find(
      (n) => !cards.some((c) => c.rows.flat().includes(n)),
    )!
    // Node A calls every number of card Y but two, then a ball misread as a number on no card.
    for (const ball of numbers.filter((n) => n !== n5 && n !== m)) await nodeA.enterBall(g.gameId, ball)
    await nodeA.enterBall(g.gameId, wrong)
    // Node B corrects it: the ball was n5. The count of balls stays 14.
    const corrected = await nodeB.declareIncident({
      gameId: g.gameId,
      kind: 'caller-error',
      correctedBall: n5,
      note: 'era el ' + n5,
    })
    expect(corrected.balls.at(-1)).toBe(n5)
    expect(corrected.balls).toHaveLength(14)
    // Node A calls m, Y's last number: its detector must know n5 was called, not the misread number.
    await nodeA.enterBall(g.gameId, m)
    expect(await nodeA.silentWins(g.gameId)).toContainEqual({ serial: y.serial, kind: 'bingo', atBall: 15 })

    const records: JournalRecord[] = []
    for await (const r of readJournal(db)) records.push(r)
    expect(verifyChain(records).ok).toBe(true)
  })
})
