import { TEST_LICENCE, TEST_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import fc from 'fast-check'
import { createHash, randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { code } from '../../../test/helpers/error-code.ts'
import type { Database } from '../db/database.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'
import { createBeaconSource } from '../shared/beacon-source.ts'
import { drawRoundFor, roundTime } from '../shared/beacon.ts'
import { buildDrawProof, drawOrder, salesDigest, verifyDrawProof } from '../shared/draw-proof.ts'
import { verifyProof } from '../shared/draw-proof-v2.ts'
import { readJournal } from '../shared/journal.ts'
import { createBingoService } from './service.ts'
import { loadSessionMinutes } from './minutes.ts'

/**
 * bolillo-draw-v2 for bingo games through the real service and storage (DESIGN.md "Draw proof bolillo-draw-v2",
 * "Sealed secrets"; issue 15): the seed and the order are only ever stored sealed, the close fixes D, t and R, no
 * ball comes before round R is verified, a wrong typed signature is refused and journaled with who typed it.
 */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
const STAFF = { kind: 'person', id: 'u_caller', name: 'Ana Quispe', role: 'caller' }

const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

/** A clock standing within round R − 2 until moved: a close of sales then fixes R = 657413. */
function roundClock() {
  let ms = roundTime(VECTOR.round - 2) * 1000 + 1500
  return {
    now: () => new Date(ms),
    set: (t: number) => {
      ms = t
    },
  }
}

async function setup(opts: { quicknetOnly?: boolean } = {}) {
  const db = await openTestDatabase()
  dbs.push(db)
  const clock = roundClock()
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  // Quicknet only, with a relay that is never reachable: the value can come only from staff typing it in.
  const beacon = opts.quicknetOnly
    ? createBeaconSource({ relays: ['http://127.0.0.1:9'], timeoutMs: 200, demo: null })
    : undefined
  const bingo = createBingoService({
    db,
    clock,
    sealer,
    beacon,
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
  const set = await bingo.createMasterSet({ count: 200, seed: 'v2-test' })
  const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
  return { db, bingo, clock, sealer, series, session }
}

async function journal(db: Database) {
  const out = []
  for await (const r of readJournal(db)) out.push(r)
  return out
}

async function playToEnd(bingo: ReturnType<typeof createBingoService>, gameId: string) {
  for (let i = 0; i < 300; i++) {
    const s = await bingo.getGameState(gameId)
    if (s.status === 'finished' || s.status === 'void') return s
    if (s.window) await bingo.closeWindow(gameId)
    else await bingo.drawNext(gameId)
  }
  throw new Error('game did not end')
}

describe('bolillo-draw-v2 bingo game', () => {
  it('keeps the seed and the order sealed, fixes D, t and R at close, waits for round R and takes the typed signature', async () => {
    const { db, bingo, clock, sealer, series, session } = await setup({ quicknetOnly: true })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    const row = await db.get<Record<string, any>>('SELECT * FROM games WHERE id = ?', [g.gameId])
    expect(row!.seed_hex).toBe('')
    const seed = sealer.open(row!.seed_sealed, `game-seed|${g.gameId}`)
    expect(createHash('sha256').update(seed).digest('hex')).toBe(g.commitment)
    // Sealed for this game only: under another game's context it does not open.
    expect(() => sealer.open(row!.seed_sealed, 'game-seed|g_other')).toThrow()
    expect(g.beacon).toBeNull()

    await bingo.openSales(g.gameId)
    const cards = await bingo.sell({ gameId: g.gameId, count: 60, channel: 't' })
    const closed = await bingo.closeSales({ gameId: g.gameId })
    const t = Math.floor(clock.now().getTime() / 1000)
    expect(drawRoundFor(t)).toBe(VECTOR.round)
    expect(closed.beacon).toEqual({
      round: VECTOR.round,
      publishedAt: new Date(roundTime(VECTOR.round) * 1000).toISOString().replace('.000Z', 'Z'),
      status: 'awaiting',
      scheme: 'drand-quicknet',
      demo: false,
    })
    expect(closed.salesDigest).toBe(salesDigest(cards.map((c) => c.serial)))
    const records = await journal(db)
    const close = records.find((r) => r.type === 'sales.closed')!
    expect(close.payload).toMatchObject({ salesDigest: closed.salesDigest, closedAtUnix: t, beaconRound: VECTOR.round })
    expect(close.payload).not.toHaveProperty('externalEntropy')
    const afterClose = await db.get<Record<string, any>>(
      'SELECT draw_order, draw_order_sealed, external_entropy FROM games WHERE id = ?',
      [g.gameId],
    )
    expect(afterClose).toEqual({ draw_order: null, draw_order_sealed: null, external_entropy: null })

    // Round R is not published yet: no ball.
    expect(await code(bingo.drawNext(g.gameId))).toBe('BEACON_PENDING')
    // Published, but no relay answers and this hall has no demo beacon: still no ball.
    clock.set(roundTime(VECTOR.round) * 1000 + 1000)
    expect(await code(bingo.drawNext(g.gameId))).toBe('DEVICE_UNAVAILABLE')
    // A wrong signature (one character changed) is refused and journaled with who typed it.
    const wrong = VECTOR.signature.slice(0, -1) + (VECTOR.signature.endsWith('b') ? 'c' : 'b')
    expect(await code(bingo.acceptTypedBeacon({ gameId: g.gameId, signature: wrong, actor: STAFF }))).toBe(
      'INVALID_SIGNATURE',
    )
    const refused = (await journal(db)).filter((r) => r.type === 'beacon.refused')
    expect(refused).toHaveLength(1)
    expect(refused[0].payload).toMatchObject({ gameId: g.gameId, round: VECTOR.round, source: 'staff', actor: STAFF })
    expect((await bingo.getGameState(g.gameId)).beacon!.status).toBe('awaiting')

    // The right one, typed with spaces and in capitals as people copy it.
    const typed = VECTOR.signature.toUpperCase().replace(/(.{16})/g, '$1 ')
    const verified = await bingo.acceptTypedBeacon({ gameId: g.gameId, signature: typed, actor: STAFF })
    expect(verified.beacon).toMatchObject({
      round: VECTOR.round,
      status: 'verified',
      randomness: VECTOR.randomness,
      scheme: 'drand-quicknet',
      demo: false,
    })
    const beaconRecord = (await journal(db)).find((r) => r.type === 'game.beacon')!
    expect(beaconRecord.payload).toMatchObject({
      round: VECTOR.round,
      randomness: VECTOR.randomness,
      scheme: 'drand-quicknet',
      source: 'staff',
      actor: STAFF,
    })
    const sealedOrder = await db.get<Record<string, any>>(
      'SELECT draw_order, draw_order_sealed FROM games WHERE id = ?',
      [g.gameId],
    )
    expect(sealedOrder!.draw_order).toBeNull()
    const order = JSON.parse(sealer.openText(sealedOrder!.draw_order_sealed, `draw-order|${g.gameId}`)) as number[]

    const first = await bingo.drawNext(g.gameId)
    expect(first.ball).toBe(order[0])
    const end = await playToEnd(bingo, g.gameId)
    expect(end.balls).toEqual(order.slice(0, end.balls.length))
    const proof = (await bingo.getProof(g.gameId)) as any
    expect(proof).toMatchObject({
      version: 'bolillo-draw-v2',
      gameId: g.gameId,
      commitment: g.commitment,
      seed: seed.toString('hex'),
      salesDigest: closed.salesDigest,
      closedAt: new Date(t * 1000).toISOString().replace('.000Z', 'Z'),
      beacon: {
        scheme: 'drand-quicknet',
        round: VECTOR.round,
        signature: VECTOR.signature,
        randomness: VECTOR.randomness,
      },
      balls: end.balls,
    })
    expect(proof.beacon).not.toHaveProperty('publicKey')
    expect(verifyProof(proof)).toMatchObject({ ok: true, demoBeacon: false, errors: [] })
    // Nowhere in the database, while the game is on, was the seed or the order in clear (checked on the final rows).
    const dump =
      JSON.stringify(await db.all('SELECT * FROM games')) + JSON.stringify(await db.all('SELECT * FROM journal'))
    expect(dump).not.toContain(seed.toString('hex'))
  })

  it('refuses the proof while the game is on, and tells a demo beacon plainly', async () => {
    const { db, bingo, series, session } = await setup()
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 40, channel: 't' })
    await bingo.closeSales({ gameId: g.gameId })
    expect(await code(bingo.getProof(g.gameId))).toBe('ILLEGAL_TRANSITION')
    await bingo.drawNext(g.gameId)
    const s = await bingo.getGameState(g.gameId)
    expect(s.beacon).toMatchObject({
      status: 'verified',
      scheme: 'demo',
      demo: true,
      randomness: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    await playToEnd(bingo, g.gameId)
    const proof = (await bingo.getProof(g.gameId)) as any
    expect(proof.beacon).toMatchObject({ scheme: 'demo', publicKey: expect.stringMatching(/^[0-9a-f]{192}$/) })
    const v = verifyProof(proof)
    expect(v).toMatchObject({ ok: true, demoBeacon: true })
    expect(v.notices.map((n) => n.es).join(' ')).toMatch(/DEMOSTRACIÓN/)
    // The minutes carry the round and say it was the demo beacon (DESIGN.md point 9).
    const minutes = await loadSessionMinutes(db, session.id)
    expect(minutes.games[0].beacon).toEqual({
      round: proof.beacon.round,
      closedAt: proof.closedAt,
      randomness: proof.beacon.randomness,
      scheme: 'demo',
      demo: true,
    })
  })

  it('a typed signature for a round the game does not use is refused, whatever its form', async () => {
    const { bingo, clock, series, session } = await setup({ quicknetOnly: true })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 40, channel: 't' })
    clock.set(roundTime(VECTOR.round - 1) * 1000) // R = 657414: the vector's signature is for another round
    await bingo.closeSales({ gameId: g.gameId })
    expect(await code(bingo.acceptTypedBeacon({ gameId: g.gameId, signature: VECTOR.signature, actor: STAFF }))).toBe(
      'INVALID_SIGNATURE',
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (junk) => {
        expect(await code(bingo.acceptTypedBeacon({ gameId: g.gameId, signature: junk, actor: STAFF }))).toBe(
          'INVALID_SIGNATURE',
        )
      }),
      { numRuns: 25 },
    )
    expect((await bingo.getGameState(g.gameId)).beacon!.status).toBe('awaiting')
    expect(await code(bingo.drawNext(g.gameId))).not.toBe('OK')
  })

  it('a game closed under v1 before the upgrade plays from its clear order and keeps its v1 proof', async () => {
    const { db, bingo, series, session } = await setup()
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(g.gameId)
    const cards = await bingo.sell({ gameId: g.gameId, count: 40, channel: 't' })
    // What a v1 close left in the row: the seed and the order in clear, the entropy typed by staff, no beacon round.
    const seed = randomBytes(32)
    const serials = cards.map((c) => c.serial)
    const v1 = drawOrder({ seed, gameId: g.gameId, serials, externalEntropy: 'notario 3-5-1', ballCount: 90 })
    await db.run(
      "UPDATE games SET status = 'sales_closed', seed_hex = ?, seed_sealed = NULL, commitment = ?, sales_digest = ?, external_entropy = ?, draw_order = ?, sales_closed_at = ?, line_pool_cents = 2000, bingo_pool_cents = 10200 WHERE id = ?",
      [
        seed.toString('hex'),
        v1.commitment,
        v1.salesDigest,
        'notario 3-5-1',
        JSON.stringify(v1.order),
        new Date().toISOString(),
        g.gameId,
      ],
    )
    const end = await playToEnd(bingo, g.gameId)
    expect(end.beacon).toBeNull()
    const proof = (await bingo.getProof(g.gameId)) as any
    expect(proof.version).toBe('bolillo-draw-v1')
    expect(proof.balls).toEqual(v1.order.slice(0, end.balls.length))
    expect(verifyDrawProof(proof)).toEqual({ ok: true, errors: [] })
    expect(proof).toMatchObject({
      seed: buildDrawProof({
        seed,
        gameId: g.gameId,
        serials,
        externalEntropy: 'notario 3-5-1',
        ballCount: 90,
        calledCount: 0,
      }).seed,
    })
  })
})
