import { TEST_LICENCE, TEST_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { certifyTestSoftware } from '../../../test/helpers/device-marks.ts'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { createBingoService, type SoldCard } from './service.ts'
import { createBonusService } from './bonus-service.ts'
import { loadSessionMinutes } from './minutes.ts'
import { code } from '../../../test/helpers/error-code.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'

/** Simultaneous bingo (BNG-100): one game and one draw, cards sold by several halls, none repeated. */
const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

describe('simultaneous game across halls (BNG-100, RNG-30)', () => {
  it('lets each hall sell a disjoint range of one master set into the one game, plays it, and attributes the winners per hall', async () => {
    const db = await openTestDatabase()
    dbs.push(db)
    const clock = { now: () => new Date('2026-11-21T20:00:00Z') }
    const entropy = { name: 'test', randomBytes: (n: number) => randomBytes(n) }
    await certifyTestSoftware(db, clock)
    const bonus = createBonusService({ db, clock, entropy, sealer: createSealer(sealingKeyFromBytes(randomBytes(32))) })
    const bingo = createBingoService({ db, clock, entropy, hooks: [bonus.hooks] })
    const set = await bingo.createMasterSet({ count: 3000, seed: 'simultaneous' })
    const otherSet = await bingo.createMasterSet({ count: 100, seed: 'other' })
    const halls = [] as Array<{ id: string; series: string }>
    for (const [name, codeName] of [
      ['Central La Paz', 'A'],
      ['Sala El Alto', 'B'],
      ['Sala Oruro', 'C'],
      ['Sala Potosí', 'D'],
    ]) {
      const h = await bingo.createHall({
        name,
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        // BNG-52: pots only within the Plan de Apuestas' approved share.
        bettingPlan: {
          authorisationRef: 'AJ-RA-PRUEBA-1',
          shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
          potsBp: 1000,
          commissionBp: 0,
        },
      })
      const s = await bingo.createSeries({ hallId: h.id, code: codeName, masterSetId: set.id, faceValueCents: 1000 })
      halls.push({ id: h.id, series: s.id })
    }
    const stray = await bingo.createSeries({
      hallId: halls[3].id,
      code: 'X',
      masterSetId: otherSet.id,
      faceValueCents: 1000,
    })
    const pot = await bonus.createPot({
      authorisationRef: 'AJ-RA-2025-0077',
      name: 'Pozo interconectado',
      kind: 'interconnected',
      contributionBp: 100,
      condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [halls[0].id],
    })
    await bonus.addPotHall(pot.id, halls[1].id)

    const session = await bingo.openSession({
      hallId: halls[0].id,
      recount: { ballsCounted: 90, confirmedBy: 'central' },
    })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [halls[0].series] })
    await bonus.joinGame({
      gameId: g.gameId,
      hallId: halls[0].id,
      seriesId: halls[0].series,
      fromCardNo: 1,
      toCardNo: 1000,
    })
    await bonus.joinGame({
      gameId: g.gameId,
      hallId: halls[1].id,
      seriesId: halls[1].series,
      fromCardNo: 1001,
      toCardNo: 2000,
    })
    await bonus.joinGame({
      gameId: g.gameId,
      hallId: halls[2].id,
      seriesId: halls[2].series,
      fromCardNo: 2001,
      toCardNo: 3000,
    })
    // No card may repeat: an overlapping range and a series of another master set are refused.
    expect(
      await code(
        bonus.joinGame({
          gameId: g.gameId,
          hallId: halls[3].id,
          seriesId: halls[3].series,
          fromCardNo: 1990,
          toCardNo: 2010,
        }),
      ),
    ).toBe('SERIES_RULE_VIOLATED')
    expect(
      await code(
        bonus.joinGame({ gameId: g.gameId, hallId: halls[3].id, seriesId: stray.id, fromCardNo: 1, toCardNo: 10 }),
      ),
    ).toBe('SERIES_RULE_VIOLATED')
    expect(
      await code(
        bonus.joinGame({
          gameId: g.gameId,
          hallId: halls[1].id,
          seriesId: halls[1].series,
          fromCardNo: 2500,
          toCardNo: 2600,
        }),
      ),
    ).not.toBe('OK')

    await bingo.openSales(g.gameId)
    expect(await code(bingo.sell({ gameId: g.gameId, count: 1, channel: 't' }))).toBe('ILLEGAL_TRANSITION')
    const sold: Record<string, SoldCard[]> = {}
    sold[halls[0].id] = await bonus.sellInHall({
      gameId: g.gameId,
      hallId: halls[0].id,
      count: 120,
      channel: 'counter',
    })
    sold[halls[1].id] = await bonus.sellInHall({ gameId: g.gameId, hallId: halls[1].id, count: 90, channel: 'kiosk:1' })
    sold[halls[2].id] = await bonus.sellInHall({ gameId: g.gameId, hallId: halls[2].id, count: 60, channel: 'counter' })
    expect(sold[halls[1].id][0].serial).toBe('B-01001')
    expect(sold[halls[2].id].at(-1)!.serial).toBe('C-02060')
    expect(await code(bonus.sellInHall({ gameId: g.gameId, hallId: halls[3].id, count: 1, channel: 'counter' }))).toBe(
      'NOT_FOUND',
    )

    // The database itself refuses a second copy of a card in the game, whichever hall would sell it.
    const row = await db.get<Record<string, unknown>>('SELECT * FROM cards WHERE id = ?', [sold[halls[1].id][0].id])
    await expect(
      db.run(
        'INSERT INTO cards (id, game_id, series_id, card_no, serial, master_set_id, card_key, numbers, status, channel, sold_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          'c_copy',
          g.gameId,
          halls[2].series,
          2999,
          'C-02999',
          row!.master_set_id,
          row!.card_key,
          row!.numbers,
          'sold',
          't',
          'now',
        ],
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' })

    let s = await bingo.closeSales({ gameId: g.gameId })
    expect(s.cardsSold).toBe(270)
    expect(s.halls!.map((h) => [h.seriesCode, h.cardsSold])).toEqual([
      ['A', 120],
      ['B', 90],
      ['C', 60],
    ])
    // Interconnected pot: 1 % of each participating hall's own sales (BNG-66); Oruro is not in it.
    const detail = await bonus.getPot(pot.id)
    expect(detail.ledger.map((l) => [l.kind, l.hallId, l.mainCents])).toEqual([
      ['contribution', halls[0].id, 1_200],
      ['contribution', halls[1].id, 900],
    ])

    while (s.status !== 'finished')
      s = s.window ? await bingo.closeWindow(g.gameId) : (await bingo.drawNext(g.gameId)).state
    const all = Object.values(sold).flat()
    const called = new Set(s.balls)
    const bingos = s.winners.filter((w) => w.kind === 'bingo')
    expect(bingos.map((w) => w.serial).sort()).toEqual(
      all
        .filter((c) => c.rows.flat().every((n) => called.has(n)))
        .map((c) => c.serial)
        .sort(),
    )
    const hallOfSeries: Record<string, string> = { A: halls[0].id, B: halls[1].id, C: halls[2].id }
    for (const w of s.winners)
      expect(s.winnerHalls!.find((x) => x.cardId === w.cardId)?.hallId).toBe(hallOfSeries[w.serial[0]])
    // The pot pays only the winners whose card a participating hall sold.
    const potWinners = s.bonusWinners!.filter((b) => b.source === 'interconnected')
    expect(potWinners.map((b) => b.serial).sort()).toEqual(
      bingos
        .filter((w) => w.serial[0] !== 'C')
        .map((w) => w.serial)
        .sort(),
    )

    const minutes = await loadSessionMinutes(db, session.id)
    expect(minutes.games[0].halls!.map((h) => h.cardsSold)).toEqual([120, 90, 60])
    expect(minutes.games[0].cardsSold).toBe(270)
  })
})
