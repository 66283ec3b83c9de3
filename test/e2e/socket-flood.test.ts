import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { io, type Socket } from 'socket.io-client'
import { SOCKET_LIMITS } from '../../server/src/realtime/limits.ts'
import { startFlood } from '../helpers/flood.ts'
import { startTestServer, waitFor } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 24 point 5: one anonymous socket sending 3,000 events took /api/health from 5 ms to 2.2 s. Now every event
 * is paid for from a token bucket of its socket and of its address before any handler runs. Real socket.io clients
 * flood from another process (several sockets claiming one address through the trusted proxy), while this process
 * measures /api/health over HTTP and a hall display, connected with its enrolled credential, keeps receiving state.
 * Authentication on.
 */
const FLOODER = '203.0.113.66'
const DISPLAY = '198.51.100.10'

function open(url: string, address: string, authorization?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { 'x-forwarded-for': address },
      ...(authorization ? { auth: { authorization } } : {}),
    })
    s.once('connect', () => resolve(s))
    s.once('connect_error', reject)
  })
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]

describe('socket.io with limits (issue 24 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let gameId = ''
  let hallId = ''
  let display: Socket

  beforeAll(async () => {
    // The flooder and the display are told apart by address, as behind the hall's reverse proxy.
    server = await startTestServer({ auth: 'on', trustedProxies: ['127.0.0.1', '::1'] })
    const { bingo, auth } = server.services
    const hall = await bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    hallId = hall.id
    const set = await bingo.createMasterSet({ count: 600, seed: 'socket-flood' })
    const series = await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    const session = await bingo.openSession({ hallId, recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' } })
    gameId = (await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })).gameId
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 10, channel: 'counter' })
    const enrolled = await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla sala', hallId })
    display = await open(server.url, DISPLAY, `Device ${enrolled.credential}`)
    const watched = await display.emitWithAck('hall:watch', { hallId })
    expect(watched).toMatchObject({ ok: true, data: { gameId } })
  }, 60_000)
  afterAll(async () => {
    display?.close()
    await server?.cleanup()
  })

  it('keeps /api/health answering through a 3,000-event flood from one socket and five more from its address', async () => {
    const health = async () => {
      const t = performance.now()
      const r = await fetch(`${server.url}/api/health`)
      await r.arrayBuffer()
      expect(r.status).toBe(200)
      return performance.now() - t
    }
    for (let i = 0; i < 20; i++) await health() // warm up
    const before: number[] = []
    for (let i = 0; i < 50; i++) before.push(await health())

    const states: number[] = []
    display.on('game:state', (s: { gameId: string; cardsSold: number }) => {
      if (s.gameId === gameId) states.push(s.cardsSold)
    })
    const flooded = startFlood(server.url, FLOODER, gameId, 6, 3000, 600)
    let flooding = true
    void flooded.done.finally(() => {
      flooding = false
    })
    // Only while the flood is on: from its first event until the flooder has seen all its sockets cut off.
    await flooded.started
    const during: number[] = []
    let sold = 10
    while (flooding) {
      during.push(await health())
      // Sales go on meanwhile: the display must see each one. The first comes with the first health check, so that a
      // flood cut off quickly (fewer than 40 checks; seen once in a full run) still has a sale to show.
      if (during.length % 40 === 1) {
        await server.services.bingo.sell({ gameId, count: 1, channel: 'counter' })
        sold++
      }
    }
    const result = await flooded.done
    const p99 = percentile(during, 99)
    process.stdout.write(
      `socket flood: ${result.sent} events from 6 anonymous sockets of one address; /api/health p50 ${percentile(before, 50).toFixed(1)} ms before, during p50 ${percentile(during, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms over ${during.length} requests in ${result.floodMs} ms; ${result.ok} events served, refused ${JSON.stringify(result.refused)}, ${result.disconnected} sockets disconnected\n`,
    )
    expect(result.sent).toBe(3000 + 5 * 600)
    expect(during.length).toBeGreaterThanOrEqual(20)
    // The flood must not take the event loop: before the limits one socket's 3,000 events held /api/health at
    // 2.2 s. The bound here is ten times the 50 ms goal so that a loaded CI machine cannot fail it; the p99 itself is
    // measured by `npm run bench` (bench/socket-flood.ts, flood.health.during.p99), not by a timed test.
    expect(p99).toBeLessThan(500)
    // The flooder got its small anonymous budget and no more: warned, refused, cut off.
    expect(result.ok).toBeLessThanOrEqual(SOCKET_LIMITS.address.capacity + 20)
    expect(result.refused.RATE_LIMITED).toBeGreaterThan(0)
    expect(result.warned).toBeGreaterThanOrEqual(1)
    expect(result.disconnected).toBe(6)
    // The display, on its own address, saw every sale and still asks freely.
    await waitFor(
      display,
      'game:state',
      (s: { gameId: string; cardsSold: number }) => s.gameId === gameId && s.cardsSold === sold,
      5000,
    ).catch(() => null)
    expect(states.at(-1)).toBe(sold)
    expect(sold).toBeGreaterThan(10)
    expect(await display.emitWithAck('game:watch', { gameId })).toMatchObject({ ok: true, data: { cardsSold: sold } })
  }, 120_000)

  it('refuses an oversized event, cuts off an oversized frame, and keeps a new flooder to its anonymous budget', async () => {
    const s = await open(server.url, '192.0.2.7')
    const big = await s.emitWithAck('game:watch', { gameId: 'x'.repeat(SOCKET_LIMITS.maxEventBytes + 100) })
    expect(big).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    const cut = new Promise<string>((r) => s.once('disconnect', (reason) => r(String(reason))))
    s.emit('game:watch', { gameId: 'x'.repeat(SOCKET_LIMITS.maxFrameBytes + 1024) })
    expect(await cut).toMatch(/transport close|server namespace disconnect|io server disconnect/)

    // A fresh anonymous socket from a fresh address: its own bucket allows a short burst, then refuses.
    const t = await open(server.url, '192.0.2.8')
    const answers = await Promise.all(Array.from({ length: 30 }, () => t.emitWithAck('game:watch', { gameId })))
    const ok = answers.filter((a) => a.ok).length
    expect(ok).toBeGreaterThanOrEqual(SOCKET_LIMITS.anonymousSocket.capacity - 1)
    expect(ok).toBeLessThanOrEqual(SOCKET_LIMITS.anonymousSocket.capacity + 2)
    expect(answers.filter((a) => !a.ok && a.error.code === 'RATE_LIMITED').length).toBe(30 - ok)
    t.close()
  })
})
