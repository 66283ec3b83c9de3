import { TEST_LICENCE, TEST_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { certifyTestSoftware } from '../../../test/helpers/device-marks.ts'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqlite } from '../db/sqlite-runtime.ts'
import { migrate } from '../db/migrate.ts'
import type { Database } from '../db/database.ts'
import { createDemoBeacon, drawRoundFor } from '../shared/beacon.ts'
import type { BeaconValue } from '../shared/beacon-source.ts'
import { luckyNumbersV2 } from '../shared/draw-proof-v2.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'
import { code } from '../../../test/helpers/error-code.ts'
import { createBonusService } from './bonus-service.ts'
import { verifyLuckyProof, type LuckyProofV2 } from './pots.ts'
import { createBingoService, type BingoHooks, type Game } from './service.ts'
import { gameById } from './store/games.ts'

/**
 * The lucky ball's seed is sealed (DESIGN.md "Sealed secrets", context `lucky-seed|<gameId>`), and in a
 * bolillo-draw-v2 game its numbers are fixed only from the verified beacon round (bolillo-lucky-v2, BNG-67, RNG-28).
 */
const dirs: string[] = []
const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const demo = createDemoBeacon(new Uint8Array(32).fill(7))
const beaconValue = (round: number, signer = demo): BeaconValue => {
  const r = signer.sign(round)
  return {
    ...r,
    source: 'demo',
    demo: true,
    scheme: 'demo',
    chainHash: signer.key.chainHash,
    publicKey: signer.key.publicKey,
  } as BeaconValue
}

/**
 * A bingo service on a SQLite file. `v2` simulates the v2 draw of the other half of issue 15: the game row carries
 * the beacon round fixed at close (games.beacon_round), and the lucky ball waits for `beaconVerified`.
 */
async function setup(v2: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-lucky-sealed-'))
  dirs.push(dir)
  const db = await openSqlite(join(dir, 'bolillo.sqlite'), { synchronous: 'FULL' })
  dbs.push(db)
  await migrate(db)
  const clock = { now: () => new Date('2026-11-21T20:00:00.400Z') }
  const entropy = { name: 'test', randomBytes: (n: number) => randomBytes(n) }
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  await certifyTestSoftware(db, clock)
  const bonus = createBonusService({ db, clock, entropy, sealer })
  const round = drawRoundFor(Math.floor(clock.now().getTime() / 1000))
  const withRound = (g: Game): Game => ({ ...g, beaconRound: round })
  const hooks: BingoHooks = v2
    ? { ...bonus.hooks, salesClosed: (tx, e) => bonus.hooks.salesClosed!(tx, { ...e, game: withRound(e.game) }) }
    : bonus.hooks
  const bingo = createBingoService({ db, clock, entropy, hooks: [hooks] })
  const hall = await bingo.createHall({
    name: 'Sala Tunari',
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
  const set = await bingo.createMasterSet({ count: 300, seed: 'lucky-sealed' })
  const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
  await bonus.createPot({
    authorisationRef: 'AJ-RA-2025-0077',
    name: 'Bola loca',
    kind: 'lucky',
    contributionBp: 100,
    seedCents: 2_000,
    condition: { luckyPrizes: ['line', 'bingo'], numbers: 2 },
    hallIds: [hall.id],
  })
  const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
  await bingo.openSales(g.gameId)
  await bingo.sell({ gameId: g.gameId, count: 50, channel: 't' })
  let closed = await bingo.closeSales({ gameId: g.gameId })
  // Through the real draw (setup(false)): the v2 lucky ball is fixed when the game's beacon round is verified.
  if (!v2) closed = await bingo.obtainBeacon(g.gameId)
  const finish = async () => {
    let s = await bingo.getGameState(g.gameId)
    while (s.status !== 'finished')
      s = s.window ? await bingo.closeWindow(g.gameId) : (await bingo.drawNext(g.gameId)).state
  }
  return { db, dir, bingo, bonus, sealer, gameId: g.gameId, closed, round, withRound, finish }
}

/** Every byte of the data directory's files (database, WAL, anything else), as one buffer. */
function everything(dir: string): Buffer {
  return Buffer.concat(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name))),
  )
}

describe('lucky ball: sealed seed and bolillo-lucky-v2 (issue 15; BNG-67, RNG-28)', () => {
  it("never writes the lucky seed in clear, and a sealed seed does not open in another game's place", async () => {
    const { db, dir, bonus, sealer, gameId, closed, finish } = await setup(false)
    expect(closed.luckyBall!.numbers).toHaveLength(2)
    const row = await db.get<{ seed_hex: string; seed_sealed: string; version: string }>(
      'SELECT seed_hex, seed_sealed, version FROM lucky_draws WHERE game_id = ?',
      [gameId],
    )
    expect(row).toMatchObject({ seed_hex: '', version: 'bolillo-lucky-v2' })
    await finish()
    const proof = await bonus.luckyProof(gameId)
    expect(verifyLuckyProof(proof)).toEqual({ ok: true, errors: [] })
    // The proof is computed on request and never stored: the seed is nowhere in the files, in hex or raw.
    const files = everything(dir)
    expect(files.includes(Buffer.from(proof.seed, 'utf8'))).toBe(false)
    expect(files.includes(Buffer.from(proof.seed, 'hex'))).toBe(false)
    // Bound to its game: the ciphertext opens under `lucky-seed|<gameId>` only.
    expect(sealer.open(row!.seed_sealed, `lucky-seed|${gameId}`).toString('hex')).toBe(proof.seed)
    expect(() => sealer.open(row!.seed_sealed, 'lucky-seed|g_other')).toThrow()
    expect(() => sealer.open(row!.seed_sealed, `game-seed|${gameId}`)).toThrow()
  })

  it('fixes no lucky number before the beacon, refuses a wrong round or signature, and draws v2 from the verified round', async () => {
    const { db, bingo, bonus, gameId, closed, round, withRound, finish } = await setup(true)
    // DESIGN.md draw v2 point 3: no lucky number before X is verified.
    expect(closed.luckyBall).toMatchObject({ numbers: null })
    const game = withRound((await gameById(db, gameId))!)
    const hook = bonus.hooks.beaconVerified!
    const inTx = (b: BeaconValue) =>
      db.transaction((tx) => hook(tx, { game, beacon: b, at: new Date().toISOString(), scope: '' }))
    expect(await code(inTx(beaconValue(round + 1)))).toBe('INVALID_SIGNATURE')
    const forged = { ...beaconValue(round), signature: beaconValue(round + 5).signature }
    expect(await code(inTx(forged))).toBe('INVALID_SIGNATURE')
    const other = createDemoBeacon(new Uint8Array(32).fill(9))
    expect(
      await code(inTx({ ...beaconValue(round, other), publicKey: demo.key.publicKey, chainHash: demo.key.chainHash })),
    ).toBe('INVALID_SIGNATURE')
    expect((await bingo.getGameState(gameId)).luckyBall!.numbers).toBeNull()

    const good = beaconValue(round)
    await inTx(good)
    const numbers = (await bingo.getGameState(gameId)).luckyBall!.numbers!
    expect(numbers).toHaveLength(2)
    // A second beacon call changes nothing.
    await inTx(good)
    expect((await bingo.getGameState(gameId)).luckyBall!.numbers).toEqual(numbers)
    const drawn = await db.get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'lucky.drawn'")
    expect(JSON.parse(drawn!.payload)).toMatchObject({
      version: 'bolillo-lucky-v2',
      round,
      randomness: good.randomness,
      demo: true,
      numbers,
    })

    await finish()
    const proof = (await bonus.luckyProof(gameId)) as LuckyProofV2
    expect(proof).toMatchObject({
      version: 'bolillo-lucky-v2',
      numbers,
      beacon: { scheme: 'demo', round, signature: good.signature },
    })
    expect(luckyNumbersV2(Buffer.from(proof.seed, 'hex'), gameId, proof.salesDigest, good, 90, 2)).toEqual(numbers)
    expect(verifyLuckyProof(proof)).toEqual({ ok: true, errors: [] })
    const sig = proof.beacon.signature
    const tampered = { ...proof, beacon: { ...proof.beacon, signature: (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1) } }
    expect(verifyLuckyProof(tampered).ok).toBe(false)
    // The CLI checks a v2 proof offline, and still a v1 one (first test).
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-lucky-v2-'))
    dirs.push(dir)
    const cli = (p: unknown) => {
      writeFileSync(join(dir, 'p.json'), JSON.stringify(p))
      return spawnSync(
        process.execPath,
        [join(process.cwd(), 'bin', 'bolillo.mjs'), 'verify-lucky', join(dir, 'p.json')],
        { encoding: 'utf8' },
      )
    }
    expect(cli(proof)).toMatchObject({ status: 0, stdout: expect.stringMatching(/^OK: lucky ball/) })
    expect(cli(tampered)).toMatchObject({ status: 1, stdout: expect.stringMatching(/^FAILED/) })
  })
})
