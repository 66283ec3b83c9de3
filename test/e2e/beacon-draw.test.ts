import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUICKNET, createDemoBeacon, demoSecretKeyFrom, roundTime } from '../../server/src/shared/beacon.ts'
import { verifyProof } from '../../server/src/shared/draw-proof-v2.ts'
import { readJournal } from '../../server/src/shared/journal.ts'
import { api, connect, startTestServer, waitFor } from '../helpers/server.ts'

/**
 * The server path of bolillo-draw-v2 (issue 15, DESIGN.md points 2 and 3) over real HTTP: three drand relays on
 * 127.0.0.1 named in BOLILLO_BEACON_RELAYS (one answers late, one serves a wrong signature, one serves the recorded
 * quicknet round 657413), an injected clock whose close of sales fixes R = 657413, authentication on.
 */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
// A well-formed signature of the right round under another key: only the BLS check tells it apart.
const forged = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(7))).sign(VECTOR.round)

const relays: Server[] = []
const asked: string[] = []
async function relay(kind: 'late' | 'wrong' | 'good'): Promise<string> {
  const server = createServer((req, res) => {
    asked.push(`${kind} ${req.url}`)
    if (req.url !== `/${QUICKNET.chainHash}/public/${VECTOR.round}`) {
      res.writeHead(404).end('{}')
      return
    }
    const body =
      kind === 'wrong'
        ? { round: VECTOR.round, signature: forged.signature, randomness: forged.randomness }
        : { round: VECTOR.round, signature: VECTOR.signature, randomness: VECTOR.randomness }
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (kind === 'late') setTimeout(send, 5000)
    else send()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  relays.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('bolillo-draw-v2 bingo game with beacon relays over real HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let socket: Socket
  let urls: { late: string; wrong: string; good: string }
  let auth: Record<string, string>
  let gameId: string
  // Within round R − 2 = 657411: a close of sales now fixes R = 657413.
  let clockMs = roundTime(VECTOR.round - 2) * 1000 + 1200
  const clock = { now: () => new Date(clockMs) }

  beforeAll(async () => {
    urls = { late: await relay('late'), wrong: await relay('wrong'), good: await relay('good') }
    server = await startTestServer(
      { auth: 'on', beaconRelays: [urls.late, urls.wrong, urls.good], beaconTimeoutMs: 400, demoBeacon: false },
      { clock },
    )
    const { auth: access, bingo } = server.services
    await access.createUser({
      username: 'jefa',
      displayName: 'Jefa de Mesa Rosa Mamani',
      role: 'floor_manager',
      password: 'correct horse battery',
    })
    auth = { authorization: `Bearer ${(await access.login('jefa', 'correct horse battery')).token}` }
    const hall = await bingo.createHall({
      name: 'Sala Titicaca',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'beacon-e2e' })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    gameId = (await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })).gameId
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 150, channel: 'counter' })
    socket = await connect(server.url)
    expect((await socket.emitWithAck('game:watch', { gameId })).ok).toBe(true)
  })
  afterAll(async () => {
    socket?.close()
    await server?.cleanup()
    for (const r of relays) {
      r.closeAllConnections()
      r.close()
    }
  })

  async function journal() {
    const out = []
    for await (const r of readJournal(server.services.db)) out.push(r)
    return out
  }

  it('fixes D, t and R at the close, publishes them to the hall, and refuses a draw until round R is out', async () => {
    const shown = waitFor(socket, 'game:state', (s: any) => s.gameId === gameId && s.status === 'sales_closed')
    const closed = await api(server.url, 'POST', `/api/games/${gameId}/sales/close`, {}, auth)
    expect(closed.status).toBe(200)
    expect(closed.body.beacon).toEqual({
      round: VECTOR.round,
      publishedAt: new Date(roundTime(VECTOR.round) * 1000).toISOString().replace('.000Z', 'Z'),
      status: 'awaiting',
      scheme: 'drand-quicknet',
      demo: false,
    })
    const state = await shown
    expect(state).toMatchObject({
      salesDigest: closed.body.salesDigest,
      closedAt: closed.body.closedAt,
      beacon: { round: VECTOR.round, status: 'awaiting' },
    })
    const close = (await journal()).find((r) => r.type === 'sales.closed')!
    expect(close.payload).toMatchObject({
      salesDigest: closed.body.salesDigest,
      beaconRound: VECTOR.round,
      closedAt: closed.body.closedAt,
    })

    const early = await api(server.url, 'POST', `/api/games/${gameId}/draw`, undefined, auth)
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('BEACON_PENDING')
    expect(early.body.error.message).toMatch(/faro público/)
    expect(asked).toEqual([]) // nobody asks a relay for a round before its time
  })

  it('refuses a wrong typed signature (422) and journals it with the person who typed it', async () => {
    const wrong = await api(server.url, 'POST', `/api/games/${gameId}/beacon`, { signature: forged.signature }, auth)
    expect(wrong.status).toBe(422)
    expect(wrong.body.error.code).toBe('INVALID_SIGNATURE')
    const refused = (await journal()).filter(
      (r) => r.type === 'beacon.refused' && (r.payload as any).source === 'staff',
    )
    expect(refused).toHaveLength(1)
    expect(refused[0].payload).toMatchObject({
      gameId,
      round: VECTOR.round,
      actor: { kind: 'person', name: 'Jefa de Mesa Rosa Mamani', role: 'floor_manager' },
    })
    const noPermission = await api(server.url, 'POST', `/api/games/${gameId}/beacon`, { signature: VECTOR.signature })
    expect(noPermission.status).toBe(401)
  })

  it('once round R is published, skips the late relay, refuses and journals the wrong one, and draws from the good one', async () => {
    clockMs = roundTime(VECTOR.round) * 1000 + 2000
    const r = await api(server.url, 'POST', `/api/games/${gameId}/draw`, undefined, auth)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.state.beacon).toEqual({
      round: VECTOR.round,
      publishedAt: expect.any(String),
      status: 'verified',
      randomness: VECTOR.randomness,
      scheme: 'drand-quicknet',
      demo: false,
    })
    const records = await journal()
    const fromRelay = records.filter((x) => x.type === 'beacon.refused' && (x.payload as any).source === 'relay')
    expect(fromRelay.length).toBeGreaterThanOrEqual(1)
    expect(
      fromRelay.every(
        (x) => (x.payload as any).relay === urls.wrong && (x.payload as any).signature === forged.signature,
      ),
    ).toBe(true)
    const beacon = records.filter((x) => x.type === 'game.beacon')
    expect(beacon).toHaveLength(1)
    expect(beacon[0].payload).toMatchObject({
      round: VECTOR.round,
      randomness: VECTOR.randomness,
      scheme: 'drand-quicknet',
      source: urls.good,
    })
    // The beacon was fixed before the first ball.
    expect(beacon[0].seq).toBeLessThan(records.find((x) => x.type === 'ball.called')!.seq)
    expect(asked).toContain(`good /${QUICKNET.chainHash}/public/${VECTOR.round}`)
  })

  it('plays to the end, and the published v2 proof verifies against the quicknet key', async () => {
    for (let i = 0; i < 200; i++) {
      const s = (await api(server.url, 'GET', `/api/games/${gameId}`, undefined, auth)).body
      if (s.status === 'finished') break
      const res = s.window
        ? await api(server.url, 'POST', `/api/games/${gameId}/window/close`, undefined, auth)
        : await api(server.url, 'POST', `/api/games/${gameId}/draw`, undefined, auth)
      expect(res.status).toBe(200)
    }
    const proof = (await api(server.url, 'GET', `/api/games/${gameId}/proof`, undefined, auth)).body
    expect(proof).toMatchObject({
      version: 'bolillo-draw-v2',
      beacon: { scheme: 'drand-quicknet', chainHash: QUICKNET.chainHash, ...VECTOR },
    })
    expect(verifyProof(proof)).toMatchObject({ ok: true, demoBeacon: false, errors: [] })
    expect((await server.services.verifyJournal()).ok).toBe(true)
  })
})
