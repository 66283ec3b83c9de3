import { softwareBuild } from '../../server/src/equipment/software.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUICKNET, roundTime } from '../../server/src/shared/beacon.ts'
import { commitmentOf } from '../../server/src/shared/draw-proof.ts'
import { verifyProof } from '../../server/src/shared/draw-proof-v2.ts'
import { createSealer, sealingKeyFromBytes } from '../../server/src/shared/sealing.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 15, lotto by bolillo-draw-v2 over real HTTP with authentication on: the server fetches drand quicknet round
 * 657413 (DESIGN.md's published vector) from a relay on 127.0.0.1, the clock set so that the close of sales makes
 * it R. The seed is never in clear under DATA_DIR before the draw; the draw waits for R; a wrong signature typed
 * in is refused and journaled with who typed it; an annulment after the close is refused and D stays; the proof
 * verifies with `npx bolillo verify-draw`, and fails with one character of the signature changed.
 */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
// One second into round R - 2: the close of sales makes R the vector's round.
const CLOSE = roundTime(VECTOR.round - 2) + 1
const iso = (unix: number) => new Date(unix * 1000).toISOString()
/** ISO 8601 in whole seconds, as proofs and the close record state times. */
const isoSeconds = (unix: number) => iso(unix).replace('.000Z', 'Z')
const run = promisify(execFile)

/** Every file under `dir` (database, WAL, participation files, logs...). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('lotto bolillo-draw-v2 with a beacon relay', () => {
  let relay: Server
  const relayLog: string[] = []
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = (CLOSE - 86_400) * 1000
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  let auth: Record<string, string>
  let directorId: string
  let drawId: string
  let commitment: string
  let salesDigest: string
  const receipts: string[] = []
  const call = (method: string, path: string, body?: unknown) => api(server.url, method, path, body, auth)
  // Sessions follow the server's clock: moving it by hours means logging in again.
  // Issue 13: she logs in at an enrolled cash desk, whose drawer takes the cash of the slips she sells.
  let desk: { id: string; name: string; kind: 'cashier_station'; hallId: string } | undefined
  const at = async (ms: number) => {
    t = ms
    auth = {
      authorization: `Bearer ${(await server.services.auth.login('directora', 'correct horse battery', desk)).token}`,
    }
  }

  beforeAll(async () => {
    // A drand HTTP relay that has recorded only the vector's round.
    relay = createServer((req, res) => {
      relayLog.push(req.url ?? '')
      if (req.url === `/${QUICKNET.chainHash}/public/${VECTOR.round}`)
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VECTOR))
      else res.writeHead(404).end('{}')
    })
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
    const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`
    server = await startTestServer(
      { auth: 'on', databaseUrl: null, beaconRelays: [relayUrl], beaconTimeoutMs: 2000, demoBeacon: false },
      { clock: { now: () => new Date(t) }, sealer },
    )
    const user = await server.services.auth.createUser({
      username: 'directora',
      displayName: 'Directora del sorteo',
      role: 'director',
      password: 'correct horse battery',
    })
    directorId = user.id
    await server.services.bingo.createHall({
      id: 'sorteos',
      name: 'Sala de sorteos',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    desk = {
      id: (
        await server.services.auth.enrolDevice({
          ...sealed(),
          kind: 'cashier_station',
          name: 'Caja sorteos',
          hallId: 'sorteos',
        })
      ).id,
      name: 'Caja sorteos',
      kind: 'cashier_station',
      hallId: 'sorteos',
    }
    await at(t)
    // Her shift at the desk, with an empty float: the slips' cash is its movements.
    expect((await call('POST', '/api/shifts', { floatCents: 0 })).status).toBe(201)
  })
  afterAll(async () => {
    await server?.cleanup()
    relay?.closeAllConnections()
    relay?.close()
  })

  it('plans a draw whose seed is stored only sealed, and sells slips', async () => {
    const created = await call(
      'POST',
      '/api/lotto/draws',
      plan649({
        gameCode: 'LOTOV2',
        drawNumber: 1,
        issue: '2023-B',
        salesStartAt: iso(CLOSE - 2 * 86_400),
        salesCloseAt: iso(CLOSE),
        drawAt: iso(CLOSE + 3600),
        claimDeadline: iso(CLOSE + 70 * 86_400),
      }),
    )
    expect(created.status).toBe(201)
    drawId = created.body.drawId
    commitment = created.body.commitment
    for (let i = 0; i < 25; i++) {
      const r = await call('POST', `/api/lotto/draws/${drawId}/slips`, {
        ageConfirmed: true,
        quickPicks: 2,
        player: { name: `Jugador ${i}`, document: `${2_000_000 + i} LP` },
      })
      expect(r.status).toBe(201)
      receipts.push(r.body.receiptNumber)
    }
    // Issue 14 point 2: the seller is named on every slip record, though slips are written on the writer thread.
    const sold = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'lotto.slip_sold'",
    )
    expect(sold).toHaveLength(25)
    for (const r of sold)
      expect(JSON.parse(r.payload).actor).toMatchObject({
        kind: 'person',
        id: directorId,
        name: 'Directora del sorteo',
      })
    expect((await server.services.verifyJournal()).ok).toBe(true)
  })

  it('closes sales fixing D, t and R = 657413, with no entropy from anyone (DESIGN.md step 2)', async () => {
    await at(CLOSE * 1000 + 400)
    const typed = await call('POST', `/api/lotto/draws/${drawId}/close`, { externalEntropy: 'mi número de la suerte' })
    expect(typed.status).toBe(400)
    const closed = await call('POST', `/api/lotto/draws/${drawId}/close`, {})
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({
      closedAtUnix: CLOSE,
      beaconRound: VECTOR.round,
      beaconPublishedAt: isoSeconds(roundTime(VECTOR.round)),
      receipts: 25,
    })
    salesDigest = closed.body.salesDigest
    const rec = (await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'lotto.sales_closed'",
    ))!
    expect(JSON.parse(rec.payload)).toMatchObject({
      salesDigest,
      closedAt: isoSeconds(CLOSE),
      closedAtUnix: CLOSE,
      beaconRound: VECTOR.round,
      actor: { kind: 'person', id: directorId },
    })
  })

  it('keeps the seed out of every file under DATA_DIR in clear before the draw', async () => {
    const row = (await server.services.db.get<{ seed_sealed: string; seed_hex: string; commitment: string }>(
      'SELECT seed_sealed, seed_hex, commitment FROM lottery_draws WHERE id = ?',
      [drawId],
    ))!
    const seed = sealer.open(row.seed_sealed, `lotto-seed|${drawId}`)
    expect(commitmentOf(seed)).toBe(commitment)
    expect(row.seed_hex).toBe('')
    const needles = [
      Buffer.from(seed.toString('hex')),
      Buffer.from(seed.toString('hex').toUpperCase()),
      seed,
      Buffer.from(seed.toString('base64')),
    ]
    const files = filesUnder(server.dataDir)
    expect(files.some((f) => f.endsWith('bolillo.sqlite'))).toBe(true)
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const needle of needles) expect(bytes.includes(needle), `${file} holds the seed`).toBe(false)
    }
    // Nor does any answer about the draw.
    expect((await call('GET', `/api/lotto/draws/${drawId}`)).body.seed).toBeNull()
  })

  it('refuses an annulment after the close: D stays as closed', async () => {
    const r = await call('POST', `/api/lotto/slips/${receipts[3]}/annul`, { reason: 'Pedido del jugador' })
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('SALES_CLOSED')
    expect((await call('GET', `/api/lotto/draws/${drawId}`)).body.salesDigest).toBe(salesDigest)
  })

  it('waits for round R, and refuses a wrong typed signature, journaled with who typed it', async () => {
    await at((CLOSE + 2) * 1000)
    const early = await call('POST', `/api/lotto/draws/${drawId}/draw`)
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('BEACON_PENDING')
    expect(relayLog).toEqual([])
    const wrong = VECTOR.signature.slice(0, -1) + (VECTOR.signature.endsWith('b') ? 'c' : 'b')
    const refused = await call('POST', `/api/lotto/draws/${drawId}/beacon`, { signature: wrong })
    expect(refused.status).toBe(422)
    expect(refused.body.error.code).toBe('INVALID_SIGNATURE')
    const rows = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'lotto.beacon_refused'",
    )
    expect(rows.map((r) => JSON.parse(r.payload))).toEqual([
      expect.objectContaining({
        drawId,
        round: VECTOR.round,
        signature: wrong,
        source: 'staff',
        actor: expect.objectContaining({ kind: 'person', id: directorId, role: 'director' }),
      }),
    ])
    expect((await call('GET', `/api/lotto/draws/${drawId}`)).body).toMatchObject({
      status: 'closed',
      beacon: null,
      close: { beaconRound: VECTOR.round },
    })
  })

  it("draws from the relay's round once published, and its proof verifies with verify-draw", async () => {
    await at((roundTime(VECTOR.round) + 1) * 1000)
    // LNS-14: round R is out, but the participation file has not been public for the profile's 30 minutes yet.
    const held = await call('POST', `/api/lotto/draws/${drawId}/draw`)
    expect([held.status, held.body.error?.code]).toEqual([409, 'PUBLICATION_HOLD'])
    await at((CLOSE + 30 * 60 + 1) * 1000)
    const drawn = await call('POST', `/api/lotto/draws/${drawId}/draw`)
    expect(drawn.status).toBe(200)
    expect(new Set(relayLog)).toEqual(new Set([`/${QUICKNET.chainHash}/public/${VECTOR.round}`]))
    expect(drawn.body.balls).toHaveLength(6)
    expect(drawn.body.beacon).toMatchObject({
      scheme: 'drand-quicknet',
      round: VECTOR.round,
      signature: VECTOR.signature,
      randomness: VECTOR.randomness,
      demo: false,
    })
    const proof = (await call('GET', `/api/lotto/draws/${drawId}/proof`)).body
    expect(proof).toMatchObject({
      version: 'bolillo-draw-v2',
      gameId: drawId,
      commitment,
      salesDigest,
      closedAt: isoSeconds(CLOSE),
      ballCount: 49,
      balls: drawn.body.balls,
      beacon: { scheme: 'drand-quicknet', chainHash: QUICKNET.chainHash, ...VECTOR },
    })
    expect(proof.soldSerials).toHaveLength(25)
    expect(verifyProof(proof)).toMatchObject({
      ok: true,
      demoBeacon: false,
      notices: [],
      beacon: { round: VECTOR.round, publicRandomness: true },
    })
    const file = join(server.dataDir, 'lotto-proof.json')
    writeFileSync(file, JSON.stringify(proof))
    // Asynchronously: the server runs in this process.
    expect(
      (await run('npx', ['tsx', 'server/src/cli/main.ts', 'verify-draw', file], { encoding: 'utf8' })).stdout,
    ).toMatch(/^OK: the 6 balls .* drand quicknet round 657413, BLS signature verified/)
    const sig = proof.beacon.signature as string
    writeFileSync(
      file,
      JSON.stringify({
        ...proof,
        beacon: { ...proof.beacon, signature: sig.slice(0, 20) + (sig[20] === '0' ? '1' : '0') + sig.slice(21) },
      }),
    )
    const failed = await run('npx', ['tsx', 'server/src/cli/main.ts', 'verify-draw', file], { encoding: 'utf8' }).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stdout).toMatch(/^FAILED/)
    const rec = (await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'lotto.drawn'",
    ))!
    expect(JSON.parse(rec.payload)).toMatchObject({
      version: 'bolillo-draw-v2',
      balls: drawn.body.balls,
      actor: { kind: 'person', id: directorId },
      // Issue 26 (RNG-32 point 4): the draw log names the draw engine's version and build hash.
      software: {
        version: softwareBuild('draw-engine').version,
        buildSha256: softwareBuild('draw-engine').buildSha256,
      },
    })
    expect((await call('GET', '/api/journal/verify')).body.ok).toBe(true)
  })
})
