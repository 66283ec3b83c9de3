/**
 * bolillo-draw-v2 for bingo games (DESIGN.md "Draw proof bolillo-draw-v2", "Sealed secrets"): the seed is kept
 * sealed from its announcement; the close of sales fixes D, t and R; before the first ball the server obtains beacon
 * round R (relays, the demo hall's demo beacon, or a signature typed in by staff), verifies it, and only then computes
 * the draw order, which is stored sealed as well. No person supplies entropy (RNG-32; issue 15).
 */
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { QUICKNET_KEY, roundTime, verifyBeaconSignature, type BeaconKey, type BeaconScheme } from '../shared/beacon.ts'
import { drawOrderV2, isoOfUnixSeconds } from '../shared/draw-proof-v2.ts'
import type { BeaconValue } from '../shared/beacon-source.ts'
import { compareBytes } from './game.ts'
import { awardsStayInHall, emit, gameScope, loadGame, type BingoContext, type GameCache } from './context.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import { gameById, type Game, setGameBeacon } from './store/games.ts'
import { narrowOrAll, ScopesTooNarrow } from '../db/scopes.ts'
import { issuedSerials } from './store/sales.ts'
import type { Actor, BeaconState } from './types.ts'

/** Sealing contexts: a sealed value opens only for its own game and purpose. */
export const seedContext = (gameId: string) => `game-seed|${gameId}`
export const orderContext = (gameId: string) => `draw-order|${gameId}`

/** True for a game closed under v2 (its beacon round is fixed). Games closed under v1 keep their clear order. */
export const isV2 = (game: Game): boolean => game.beaconRound !== null

/** The game's seed S: opened from its sealed form, or the clear v1 column of a game announced before v2. */
export function seedOf(ctx: BingoContext, game: Game): Buffer {
  if (game.seedSealed) return ctx.sealer.open(game.seedSealed, seedContext(game.id))
  if (game.seedHex) return Buffer.from(game.seedHex, 'hex')
  throw new DomainError('CONFLICT', `game ${game.id} has no seed`)
}

/** The key a stored beacon round was verified against. */
export function beaconKeyOf(game: Game): BeaconKey {
  if (game.beaconScheme === 'demo')
    return { scheme: 'demo', chainHash: game.beaconChainHash ?? '', publicKey: game.beaconPublicKey ?? '' }
  return QUICKNET_KEY
}

/** What the hall sees of the beacon (null before the close of sales, and for v1 games). */
export function beaconStateOf(game: Game): BeaconState | null {
  if (!isV2(game)) return null
  const round = Number(game.beaconRound)
  const publishedAt = isoOfUnixSeconds(roundTime(round))
  if (game.beaconRandomness) {
    const scheme = (game.beaconScheme ?? 'drand-quicknet') as BeaconScheme
    return {
      round,
      publishedAt,
      status: 'verified',
      randomness: game.beaconRandomness,
      scheme,
      demo: scheme === 'demo',
    }
  }
  // Awaited: the public round is what the hall waits for; a demo value, if it comes to that, says so once verified.
  return { round, publishedAt, status: 'awaiting', scheme: 'drand-quicknet', demo: false }
}

/**
 * Round R of a closed game, verified and stored with the sealed order; nothing to do when already there.
 * @throws DomainError BEACON_PENDING before the round is published, DEVICE_UNAVAILABLE when no source gives it.
 */
export async function ensureBeacon(ctx: BingoContext, gameId: string): Promise<void> {
  const game = await loadGame(ctx.db, gameId)
  if (!isV2(game)) {
    if (game.drawOrder) return // a v1 game: its order was fixed at its close
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `sales of game ${gameId} are not closed yet: the beacon round is fixed at the close`,
    )
  }
  if (game.beaconRandomness) return
  // Outside any transaction: a relay may take seconds, and no lock is held while it answers.
  const value = await ctx.beacon.obtain(Number(game.beaconRound), ctx.deps.clock.now(), { hallId: game.hallId })
  await storeBeacon(ctx, gameId, value, { kind: 'server', id: 'server', name: 'server', role: 'server' })
}

/** DESIGN.md point 3: staff type round R's quicknet signature from any public source; a wrong one is refused and journaled. */
export async function acceptTypedBeacon(
  ctx: BingoContext,
  input: { gameId: string; signature: string; actor: Actor },
): Promise<void> {
  const game = await loadGame(ctx.db, input.gameId)
  if (!isV2(game))
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `game ${input.gameId} has no beacon round: its sales are not closed under bolillo-draw-v2`,
    )
  if (!game.beaconRandomness) {
    const round = Number(game.beaconRound)
    const signature = String(input.signature).replace(/\s+/g, '').toLowerCase()
    const check = verifyBeaconSignature(QUICKNET_KEY, round, signature)
    if (!check.ok) {
      // Its own transaction: the refusal stays in the journal although the request fails. Issue 23 point 5: one
      // record and no row, in the game's hall's chain: that hall's lock alone (a game's hall never changes).
      await ctx.tx(
        async (tx) => {
          const rec = await appendJournal(tx, {
            at: ctx.now(),
            type: 'beacon.refused',
            scope: gameScope(game),
            payload: {
              gameId: game.id,
              round,
              source: 'staff',
              signature: signature.slice(0, 200),
              reason: check.reason,
              actor: input.actor,
            },
          })
          emit(tx, {
            type: 'game:changed',
            gameId: game.id,
            hallId: game.hallId,
            seq: rec.seq,
            reason: 'beacon_refused',
          })
        },
        [chainOfScope(gameScope(game))],
      )
      throw new DomainError(
        'INVALID_SIGNATURE',
        `the signature typed for beacon round ${round} does not verify: ${check.reason}`,
        { round },
      )
    }
    await storeBeacon(ctx, input.gameId, ctx.beacon.acceptTyped(round, signature), input.actor)
  }
}

/**
 * Issue 23 point 5: fixing the beacon (the draw order, the lucky numbers, their records) writes the game's rows and its
 * hall's chain, so it locks that hall alone when the game's awards stay in it (awardsStayInHall: a simultaneous game
 * or an interconnected pot reach other halls' rows), read again inside; every chain otherwise. The beacon is fetched
 * before, with no transaction held.
 */
async function storeBeacon(ctx: BingoContext, gameId: string, value: BeaconValue, actor: Actor): Promise<void> {
  const known = await gameById(ctx.db, gameId)
  const scopes = known && (await awardsStayInHall(ctx.db, known)) ? [`hall:${known.hallId}`] : undefined
  await narrowOrAll(scopes, (s) => storeBeaconWithin(ctx, gameId, value, actor, s))
}

async function storeBeaconWithin(
  ctx: BingoContext,
  gameId: string,
  value: BeaconValue,
  actor: Actor,
  scopes: readonly string[] | undefined,
): Promise<void> {
  await ctx.gameTx(
    gameId,
    async (tx) => {
      const game = await loadGame(tx, gameId)
      if (scopes && !(await awardsStayInHall(tx, game))) throw new ScopesTooNarrow()
      if (game.beaconRandomness) return // another request stored it first
      const round = Number(game.beaconRound)
      const key: BeaconKey =
        value.scheme === 'demo'
          ? { scheme: 'demo', chainHash: value.chainHash, publicKey: value.publicKey ?? '' }
          : QUICKNET_KEY
      const serials = (await issuedSerials(tx, gameId)).sort(compareBytes)
      // drawOrderV2 re-verifies the round, the BLS signature and the randomness: no order from an unverified value.
      const { salesDigest, order } = drawOrderV2({
        seed: seedOf(ctx, game),
        gameId,
        serials,
        closedAt: Number(game.closedAtUnix),
        beaconKey: key,
        beacon: value,
        ballCount: game.ballCount,
      })
      if (salesDigest !== game.salesDigest)
        throw new DomainError(
          'CONFLICT',
          `the cards of game ${gameId} no longer give the sales digest fixed at its close`,
        )
      const at = ctx.now()
      const stored = await setGameBeacon(tx, gameId, {
        round,
        signature: value.signature,
        randomness: value.randomness,
        scheme: value.scheme,
        chainHash: value.chainHash,
        publicKey: value.scheme === 'demo' ? (value.publicKey ?? null) : null,
        source: value.source,
        drawOrderSealed: ctx.sealer.seal(JSON.stringify(order), orderContext(gameId)),
        at,
      })
      if (!stored) return
      const rec = await appendJournal(tx, {
        at,
        type: 'game.beacon',
        scope: gameScope(game),
        payload: {
          gameId,
          round,
          signature: value.signature,
          randomness: value.randomness,
          scheme: value.scheme,
          chainHash: value.chainHash,
          demo: value.scheme === 'demo',
          source: value.source,
          actor,
        },
      })
      for (const h of ctx.deps.hooks ?? [])
        await h.beaconVerified?.(tx, { game: await loadGame(tx, gameId), beacon: value, at, scope: gameScope(game) })
      emit(tx, { type: 'game:changed', gameId, hallId: game.hallId, seq: rec.seq, reason: 'beacon' })
    },
    scopes,
  )
}

/** The draw order of a v2 game, opened once per node and kept with its detector (never written in clear). */
export function drawOrderOf(ctx: BingoContext, game: Game, cache: GameCache): number[] {
  if (cache.order) return cache.order
  if (!game.drawOrderSealed) throw new DomainError('CONFLICT', `game ${game.id} has no draw order yet`)
  cache.order = JSON.parse(ctx.sealer.openText(game.drawOrderSealed, orderContext(game.id))) as number[]
  return cache.order
}

/**
 * After a close of sales: fetch round R as soon as it can be had (at once from a demo beacon, at its publication
 * from relays), so the hall sees the beacon value before the first ball. Best effort: the draw obtains it anyway.
 */
export function scheduleBeacon(ctx: BingoContext, gameId: string, round: number): void {
  let attempts = 0
  const attempt = () => {
    attempts++
    ensureBeacon(ctx, gameId).catch((e) => {
      if (!(e instanceof DomainError) || attempts >= 20) return
      if (e.code === 'BEACON_PENDING')
        later(Math.max(0, roundTime(round) * 1000 - ctx.deps.clock.now().getTime()) + 250)
      else if (e.code === 'DEVICE_UNAVAILABLE') later(2000)
    })
  }
  const later = (ms: number) => {
    setTimeout(attempt, ms).unref?.()
  }
  later(0)
}
