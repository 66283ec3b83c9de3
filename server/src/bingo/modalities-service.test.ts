import { TEST_LICENCE, TEST_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { verifyProof } from '../shared/draw-proof-v2.ts'
import { DomainError } from '../shared/errors.ts'
import { layoutForModality, type Modality } from './modalities.ts'
import { createBingoService, type SoldCard } from './service.ts'

/**
 * Other modalities from the same card model (BNG-98, BNG-101 to BNG-103): a game takes its layout and ball count
 * from the master set its series was printed from, and plays to the end with the right winners. The hall sells
 * virtual cards at terminals and the system marks and claims them (electronic bingo, BNG-101: the BO-2025
 * profile's automatic claims).
 */
const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

/** Independent oracle: the first ball count at which any card has a complete row / every number, and who. */
function expectedWinners(cards: SoldCard[], balls: number[]) {
  const firstAt = (done: (c: SoldCard, called: Set<number>) => boolean) => {
    const called = new Set<number>()
    for (let i = 0; i < balls.length; i++) {
      called.add(balls[i])
      const who = cards.filter((c) => done(c, called)).map((c) => c.serial)
      if (who.length) return { atBall: i + 1, serials: who.sort() }
    }
    return null
  }
  return {
    line: firstAt((c, called) => c.rows.some((r) => r.every((n) => called.has(n)))),
    bingo: firstAt((c, called) => c.rows.every((r) => r.every((n) => called.has(n)))),
  }
}

describe('modalities play to the end with the right winners', () => {
  const cases: Array<{ modality: Modality; params?: Record<string, number>; ballCount: number; numbers: number }> = [
    { modality: 'bingo-75', ballCount: 75, numbers: 25 },
    { modality: 'bingo-plus', ballCount: 100, numbers: 20 },
    { modality: 'bingo-plus', params: { rows: 1, perRow: 5 }, ballCount: 100, numbers: 5 },
    { modality: 'derived', params: { ballCount: 48, rows: 2, perRow: 4 }, ballCount: 48, numbers: 8 },
    { modality: 'fast', params: { ballCount: 30, picks: 5 }, ballCount: 30, numbers: 5 },
  ]
  for (const c of cases) {
    it(`${c.modality} ${JSON.stringify(c.params ?? {})}: ${c.ballCount} balls, cards of ${c.numbers} numbers`, async () => {
      const db = await openTestDatabase()
      dbs.push(db)
      const bingo = createBingoService({
        db,
        clock: { now: () => new Date('2026-11-21T20:00:00Z') },
        entropy: { name: 'test', randomBytes: (n) => randomBytes(n) },
      })
      const hall = await bingo.createHall({
        name: 'Sala Electrónica',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
      const layout = layoutForModality(c.modality, c.params)
      const set = await bingo.createMasterSet({ count: 400, seed: `mod-${c.modality}`, layout })
      const series = await bingo.createSeries({
        hallId: hall.id,
        code: 'V',
        masterSetId: set.id,
        faceValueCents: 200,
        layoutAuthorisationRef: 'AJ-LIC-PRUEBA-1',
      })
      const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
      const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
      expect(g.ballCount).toBe(c.ballCount)
      await bingo.openSales(g.gameId)
      const cards = [
        ...(await bingo.sell({ gameId: g.gameId, count: 150, channel: 'terminal:1' })),
        ...(await bingo.sell({ gameId: g.gameId, count: 100, channel: 'terminal:2' })),
      ]
      expect(cards.every((card) => card.rows.flat().length === c.numbers)).toBe(true)
      await bingo.closeSales({ gameId: g.gameId })
      let s = await bingo.getGameState(g.gameId)
      while (s.status !== 'finished')
        s = s.window ? await bingo.closeWindow(g.gameId) : (await bingo.drawNext(g.gameId)).state
      expect(s.balls.every((b) => b >= 1 && b <= c.ballCount)).toBe(true)
      expect(new Set(s.balls).size).toBe(s.balls.length)
      const want = expectedWinners(cards, s.balls)
      const lines = s.winners.filter((w) => w.kind === 'line')
      const bingos = s.winners.filter((w) => w.kind === 'bingo')
      expect(lines.map((w) => w.serial).sort()).toEqual(want.line!.serials)
      expect(lines.every((w) => w.atBall === want.line!.atBall)).toBe(true)
      expect(bingos.map((w) => w.serial).sort()).toEqual(want.bingo!.serials)
      expect(bingos.every((w) => w.atBall === want.bingo!.atBall)).toBe(true)
      expect(want.bingo!.atBall).toBe(s.balls.length) // the game ends with the bingo
      expect(lines.reduce((t, w) => t + w.amountCents!, 0)).toBe(s.linePoolCents)
      expect(bingos.reduce((t, w) => t + w.amountCents!, 0)).toBe(s.bingoPoolCents)
      const proof = await bingo.getProof(g.gameId)
      expect(proof.ballCount).toBe(c.ballCount)
      // bolillo-draw-v2 with the service's demo beacon (issue 15): it verifies, and says it is a demo beacon.
      expect(proof.version).toBe('bolillo-draw-v2')
      expect(verifyProof(proof)).toMatchObject({ ok: true, errors: [], demoBeacon: true })
    })
  }

  it('refuses a second series printed for another layout in the same game', async () => {
    const db = await openTestDatabase()
    dbs.push(db)
    const bingo = createBingoService({
      db,
      clock: { now: () => new Date('2026-11-21T20:00:00Z') },
      entropy: { name: 'test', randomBytes: (n) => randomBytes(n) },
    })
    const hall = await bingo.createHall({
      name: 'Sala',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const s75 = await bingo.createMasterSet({ count: 50, seed: 'a', layout: layoutForModality('bingo-75') })
    const s90 = await bingo.createMasterSet({ count: 50, seed: 'b' })
    const a = await bingo.createSeries({
      hallId: hall.id,
      code: 'A',
      masterSetId: s75.id,
      faceValueCents: 200,
      layoutAuthorisationRef: 'AJ-LIC-PRUEBA-1',
    })
    const b = await bingo.createSeries({ hallId: hall.id, code: 'B', masterSetId: s90.id, faceValueCents: 200 })
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g1 = await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id] })
    await bingo.openSales(g1.gameId)
    await bingo.sell({ gameId: g1.gameId, count: 20, channel: 't' })
    await bingo.closeSales({ gameId: g1.gameId })
    let s = await bingo.getGameState(g1.gameId)
    while (s.status !== 'finished')
      s = s.window ? await bingo.closeWindow(g1.gameId) : (await bingo.drawNext(g1.gameId)).state
    const g2 = await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id] })
    const err = await bingo.addSeries(g2.gameId, b.id).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DomainError)
    expect((err as DomainError).code).toBe('SERIES_RULE_VIOLATED')
  })
})
