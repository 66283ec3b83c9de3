import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { connect, startTestServer, waitFor } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'

/**
 * Issue 23 point 5: during sales the hub sent a game's full state every 50 ms, and read it (every ball, claim and
 * prize of the game) whether or not any screen watched. A game nobody watches is not read; a screen that watches it,
 * its game or its hall, gets the state after a sale as before. SQLite, one node (the in-memory adapter); with joined
 * nodes every change is still read, for screens this node cannot see.
 */
describe('the realtime hub reads the state of watched games only', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: HallSetup
  const reads: string[] = []
  const sockets: Socket[] = []

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await hallWithGameOnSale(server.services, { faceValueCents: 500, cards: 400 })
    const bingo = server.services.bingo
    const read = bingo.getGameState
    bingo.getGameState = (gameId: string) => {
      reads.push(gameId)
      return read(gameId)
    }
  })
  afterAll(async () => {
    for (const s of sockets) s.close()
    await server?.cleanup()
  })

  const sell = (count: number) =>
    server.services.paidSales.counterCards({
      gameId: hall.gameId,
      count,
      stationId: 'mesa-1',
      soldBy: 'jefe-de-mesa',
      ageConfirmed: true,
    })
  const settle = () => new Promise((r) => setTimeout(r, 200))

  it('reads no state for a sale in a game no screen watches', async () => {
    if (server.services.db.engine !== 'sqlite') return
    await settle()
    reads.length = 0
    await sell(2)
    await sell(1)
    await settle()
    expect(reads).toEqual([])
  })

  it("sends the state after a sale to a screen watching the game, and to one watching the game's hall", async () => {
    const gameScreen = await connect(server.url)
    const hallScreen = await connect(server.url)
    sockets.push(gameScreen, hallScreen)
    const watched = await gameScreen.emitWithAck('game:watch', { gameId: hall.gameId })
    expect(watched.ok).toBe(true)
    const before = watched.data.cardsSold as number
    const hallWatch = await hallScreen.emitWithAck('hall:watch', { hallId: hall.hallId })
    expect(hallWatch.ok).toBe(true)
    const onGame = waitFor(gameScreen, 'game:state', (s: any) => s.gameId === hall.gameId && s.cardsSold === before + 3)
    const onHall = waitFor(hallScreen, 'game:state', (s: any) => s.gameId === hall.gameId && s.cardsSold === before + 3)
    await sell(3)
    await Promise.all([onGame, onHall])
    expect(reads).toContain(hall.gameId)
  })

  it('stops reading once the last screen has gone', async () => {
    if (server.services.db.engine !== 'sqlite') return
    for (const s of sockets.splice(0)) s.close()
    await settle()
    reads.length = 0
    await sell(1)
    await settle()
    expect(reads).toEqual([])
  })
})
