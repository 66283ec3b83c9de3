import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

/** Issue 9: exact outcomes under contention, over real HTTP. */
describe('races', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => server?.cleanup())

  async function gameOnSale(cards: number) {
    const { bingo } = server.services
    const hall = await bingo.createHall({
      name: 'Sala carrera',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: cards })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'R', masterSetId: set.id, faceValueCents: 200 })
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(game.gameId)
    return { ...game, seriesId: series.id }
  }

  it('50 concurrent sales of the last 30 cards of a series: exactly 30 sold, contiguous, no duplicate', async () => {
    const game = await gameOnSale(100)
    await server.services.bingo.sell({ gameId: game.gameId, count: 70, channel: 'counter' })
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(server.url, 'POST', `/api/games/${game.gameId}/sales`, {
          ageConfirmed: true,
          count: 1,
          channel: `kiosk:${i}`,
        }),
      ),
    )
    const ok = results.filter((r) => r.status === 201)
    const refused = results.filter((r) => r.status !== 201)
    expect(ok).toHaveLength(30)
    expect(refused).toHaveLength(20)
    expect(new Set(refused.map((r) => r.body.error.code))).toEqual(new Set(['SERIES_EXHAUSTED']))
    const serials = ok.map((r) => r.body.cards[0].serial).sort()
    expect(serials).toEqual(Array.from({ length: 30 }, (_, i) => `R-${String(71 + i).padStart(5, '0')}`))
    const state = (await api(server.url, 'GET', `/api/games/${game.gameId}`)).body
    expect(state.series[0].to).toBe(100)
  })

  it('50 concurrent payouts of one prize: paid exactly once', async () => {
    const game = await gameOnSale(50)
    const { bingo } = server.services
    await bingo.sell({ gameId: game.gameId, count: 50, channel: 'counter' })
    await bingo.closeSales({ gameId: game.gameId })
    for (let i = 0; i < 200; i++) {
      const s = await bingo.getGameState(game.gameId)
      if (s.status === 'finished') break
      if (s.window) await bingo.closeWindow(game.gameId)
      else await bingo.drawNext(game.gameId)
    }
    const prizes = await bingo.listPrizes(game.gameId)
    const prize = prizes[0]
    const code = server.services.cashdesk.payouts.cardCode(prize.cardId)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(server.url, 'POST', `/api/prizes/${prize.id}/pay`, { paidBy: `caja-${i}`, code }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'ALREADY_PAID')).toHaveLength(49)
    const paidRecords = await server.services.db.all("SELECT payload FROM journal WHERE type = 'prize.paid'")
    expect(paidRecords.filter((r: any) => JSON.parse(r.payload).prizeId === prize.id)).toHaveLength(1)
  })
})
