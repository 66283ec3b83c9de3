import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { rafflePlan } from '../../../test/helpers/lottery-plans.ts'
import { code } from '../../../test/helpers/error-code.ts'
import type { Database } from '../db/database.ts'
import { roundTime } from '../shared/beacon.ts'
import { createBeaconSource } from '../shared/beacon-source.ts'
import { verifyProof } from '../shared/draw-proof-v2.ts'
import { loadOrCreateKeys } from '../shared/keys.ts'
import { refusePersonEntropy } from '../shared/lottery-draw-v2.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'
import type { EntropySource } from '../shared/clock.ts'
import { createLotteryService } from './service.ts'

/**
 * bolillo-draw-v2 for raffles and lotteries at the service level (DESIGN.md "Draw proof bolillo-draw-v2" step 2
 * and 3): nothing after the close changes the list a draw is made on, and a beacon signature typed in by staff is
 * verified, kept, or refused and journaled with who typed it.
 */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
// A close one second into round R - 2 makes R the vector's round.
const CLOSE = roundTime(VECTOR.round - 2) + 1
const iso = (unix: number) => new Date(unix * 1000).toISOString()
const STAFF = { kind: 'person', id: 'usr_director', role: 'director' }

/** The same bytes for the same label: two halls built from it plan the same draw ids and the same seeds. */
function replayable(label: string): EntropySource {
  let counter = 0
  return {
    name: `replay:${label}`,
    randomBytes(n) {
      const out = Buffer.alloc(n)
      for (let o = 0; o < n; o += 32)
        createHash('sha256')
          .update(`${label}|${counter++}`)
          .digest()
          .copy(out, o, 0, Math.min(32, n - o))
      return out
    },
  }
}

const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

async function hall() {
  const db = await openTestDatabase()
  dbs.push(db)
  let t = (CLOSE - 86_400) * 1000
  const refused: unknown[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-lottery-'))
  const lottery = createLotteryService({
    db,
    clock: { now: () => new Date(t) },
    keys: loadOrCreateKeys(dataDir),
    dataDir,
    entropy: replayable('ids'),
    seedEntropy: replayable('seeds'),
    sealer: createSealer(sealingKeyFromBytes(Buffer.alloc(32, 7))),
    // No relay and no demo beacon: only a typed signature lets this hall draw.
    beacon: createBeaconSource({ relays: [], demo: null, onRefused: (r) => refused.push(r) }),
    softwareDraw: { profileAllows: false, authorisationRef: 'AJ-RA-PRUEBAS-RNG' },
  })
  const plan = rafflePlan({
    salesStartAt: iso(CLOSE - 10 * 86_400),
    salesCloseAt: iso(CLOSE),
    drawAt: iso(CLOSE + 7200),
    claimDeadline: iso(CLOSE + 70 * 86_400),
  })
  plan.prizes = plan.prizes.map((p) => ({ ...p, depositedAt: iso(CLOSE - 11 * 86_400) }))
  const draw = await lottery.createRaffle(plan)
  // The lottery line sells only inside the cash desk's transaction; here, one of the test's own (no cash desk built).
  await db.transaction((tx) => lottery.sellRaffleTicketsWithin(tx, draw.drawId, { count: 40, channel: 'counter' }))
  return {
    db,
    lottery,
    drawId: draw.drawId,
    refused,
    at: (unix: number) => {
      t = unix * 1000
    },
  }
}

describe('raffle draw by bolillo-draw-v2', () => {
  it('waits for a typed signature, refuses a wrong one with who typed it, keeps the right one and draws from it', async () => {
    const h = await hall()
    h.at(CLOSE)
    const closed = await h.lottery.closeSales(h.drawId, STAFF)
    expect(closed).toMatchObject({ closedAtUnix: CLOSE, beaconRound: VECTOR.round, ticketsInPlay: 40 })
    h.at(CLOSE + 60)
    // No relay, no demo beacon: the hall waits (DESIGN.md point 8).
    expect(await code(h.lottery.drawRng(h.drawId, STAFF))).toBe('DEVICE_UNAVAILABLE')
    const wrong =
      VECTOR.signature.slice(0, 10) + (VECTOR.signature[10] === 'a' ? 'b' : 'a') + VECTOR.signature.slice(11)
    expect(await code(h.lottery.recordBeacon(h.drawId, wrong, STAFF))).toBe('INVALID_SIGNATURE')
    const refusals = await h.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'raffle.beacon_refused'",
    )
    expect(refusals.map((r) => JSON.parse(r.payload))).toEqual([
      expect.objectContaining({
        drawId: h.drawId,
        round: VECTOR.round,
        signature: wrong,
        source: 'staff',
        actor: STAFF,
      }),
    ])
    expect(h.refused).toHaveLength(1)
    expect((await h.lottery.getDraw(h.drawId)).beacon).toBeNull()

    const kept = await h.lottery.recordBeacon(h.drawId, VECTOR.signature.toUpperCase(), STAFF)
    expect(kept.beacon).toMatchObject({
      scheme: 'drand-quicknet',
      round: VECTOR.round,
      randomness: VECTOR.randomness,
      demo: false,
      source: 'staff',
    })
    expect(await code(h.lottery.recordBeacon(h.drawId, VECTOR.signature, STAFF))).toBe('CONFLICT')
    const drawn = await h.lottery.drawRng(h.drawId, STAFF)
    expect(drawn.drawn).toHaveLength(2)
    const proof = await h.lottery.getProof(h.drawId)
    expect(verifyProof(proof)).toMatchObject({
      ok: true,
      version: 'bolillo-draw-v2',
      demoBeacon: false,
      beacon: { round: VECTOR.round, publicRandomness: true },
    })
    expect(proof).toMatchObject({ gameId: h.drawId, ballCount: 40, beacon: { signature: VECTOR.signature } })
    const rec = await h.db.get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'raffle.drawn'")
    expect(JSON.parse(rec!.payload)).toMatchObject({
      version: 'bolillo-draw-v2',
      actor: STAFF,
      beacon: { round: VECTOR.round },
    })
  })

  it('draws the same winners whatever tickets are reported lost or stolen after the close (D is fixed)', async () => {
    const run = async (after: number[]) => {
      const h = await hall()
      h.at(CLOSE)
      const closed = await h.lottery.closeSales(h.drawId, STAFF)
      h.at(CLOSE + 60)
      for (const n of after) {
        const r = await h.lottery.reportLostStolen(h.drawId, {
          kind: 'stolen',
          from: n,
          to: n,
          discoveredAt: iso(CLOSE + 30),
          reportedToAjAt: iso(CLOSE + 30),
          distributed: true,
          policeReportRef: 'DEN-1',
          remedy: 'none',
          notice: `Boleto ${n}`,
        })
        expect(r.afterClose).toBe(true)
      }
      await h.lottery.recordBeacon(h.drawId, VECTOR.signature, STAFF)
      const drawn = await h.lottery.drawRng(h.drawId, STAFF)
      const proof = await h.lottery.getProof(h.drawId)
      expect(verifyProof(proof).ok).toBe(true)
      expect(proof.salesDigest).toBe(closed.salesDigest)
      expect(proof.soldSerials).toHaveLength(40)
      await h.db.close()
      dbs.splice(dbs.indexOf(h.db), 1)
      return { drawId: h.drawId, drawn: drawn.drawn, balls: proof.balls }
    }
    const baseline = await run([])
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (after) => {
          // Even the very tickets the baseline drew: reporting them stolen blocks their payment, it does not redraw.
          const again = await run([...after, ...baseline.drawn.slice(0, 1)].filter((n, i, a) => a.indexOf(n) === i))
          expect(again).toEqual(baseline)
        },
      ),
      { numRuns: 4 },
    )
  })

  it("refuses a person's entropy at the close in plain words", () => {
    expect(() => refusePersonEntropy({ externalEntropy: 'dados 4-2-6' })).toThrow(
      /externalEntropy is no longer accepted/,
    )
    expect(() => refusePersonEntropy({ entropySource: 'notario' })).toThrow(/entropySource is no longer accepted/)
    expect(() => refusePersonEntropy({})).not.toThrow()
  })
})
