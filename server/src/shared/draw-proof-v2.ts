/**
 * The `bolillo-draw-v2` draw proof (DESIGN.md "Contracts / Draw proof bolillo-draw-v2"). As v1, except that the
 * external entropy is no longer typed by staff: it is the randomness `X` of beacon round
 * `R = roundAt(close of sales) + 2`, verified against the beacon's BLS key before any ball is drawn.
 *
 * `K = HMAC-SHA256(key = S, msg = UTF-8("bolillo-draw-v2|" + gameId + "|" + D + "|" + R + "|" + X))`; the lucky
 * ball uses the prefix "bolillo-lucky-v2|" with its own seed. Stream and shuffle are v1's ({@link shuffleOrder}).
 *
 * Pure: seeds, times and beacon values arrive as arguments.
 */
import { createHmac } from 'node:crypto'
import { DomainError } from './errors.ts'
import {
  DRAW_PROOF_VERSION as DRAW_PROOF_V1,
  MAX_DRAW_SIZE,
  SEED_BYTES,
  commitmentOf,
  salesDigest as digestOf,
  shuffleOrder,
  sortByBytes,
  verifyDrawProof as verifyDrawProofV1,
} from './draw-proof.ts'
import {
  QUICKNET,
  QUICKNET_KEY,
  demoChainHash,
  drawRoundFor,
  isHex64,
  verifyBeaconSignature,
  type BeaconKey,
  type BeaconRound,
  type BeaconScheme,
} from './beacon.ts'

export const DRAW_PROOF_V2 = 'bolillo-draw-v2'
export const LUCKY_V2 = 'bolillo-lucky-v2'

/** The beacon part of a v2 proof. `publicKey` is present (and required) for the demo beacon. */
export interface ProofBeacon extends BeaconRound {
  scheme: BeaconScheme
  chainHash: string
  publicKey?: string
}

/** The JSON published after a v2 draw. */
export interface DrawProofV2 {
  version: typeof DRAW_PROOF_V2
  gameId: string
  commitment: string
  seed: string
  salesDigest: string
  /** ISO 8601 UTC, whole seconds: the close record's time. */
  closedAt: string
  beacon: ProofBeacon
  ballCount: number
  balls: number[]
  soldSerials?: string[]
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/

/** Whole Unix seconds of an ISO 8601 UTC time ("...Z"); fractions are cut. Throws on anything else. */
export function unixSecondsOf(iso: string): number {
  const ms = typeof iso === 'string' && ISO_UTC.test(iso) ? Date.parse(iso) : NaN
  if (Number.isNaN(ms)) throw invalid(`closedAt must be an ISO 8601 UTC time ending in "Z", got ${JSON.stringify(iso)}`)
  return Math.floor(ms / 1000)
}

/** ISO 8601 UTC text of whole Unix seconds, e.g. "2025-03-01T20:15:00Z". */
export function isoOfUnixSeconds(t: number): string {
  if (!Number.isSafeInteger(t)) throw invalid(`time must be whole Unix seconds, got ${t}`)
  return new Date(t * 1000).toISOString().replace('.000Z', 'Z')
}

/** `K` of a v2 draw. `randomness` is `X`, 64 lowercase hex. */
export function drawKeyV2(
  seed: Uint8Array,
  gameId: string,
  salesDigest: string,
  round: number,
  randomness: string,
): Buffer {
  return keyV2(DRAW_PROOF_V2, seed, gameId, salesDigest, round, randomness)
}

/** `KL` of a v2 lucky-ball draw (its own seed, prefix "bolillo-lucky-v2|"). */
export function luckyKeyV2(
  seed: Uint8Array,
  gameId: string,
  salesDigest: string,
  round: number,
  randomness: string,
): Buffer {
  return keyV2(LUCKY_V2, seed, gameId, salesDigest, round, randomness)
}

/** The first `count` values of the shuffle of 1..ballCount under {@link luckyKeyV2}. */
export function luckyNumbersV2(
  seed: Uint8Array,
  gameId: string,
  salesDigest: string,
  beacon: BeaconRound,
  ballCount: number,
  count: number,
): number[] {
  if (!Number.isInteger(count) || count < 1 || count > ballCount)
    throw invalid(`cannot draw ${count} lucky numbers out of ${ballCount}`)
  return shuffleOrder(luckyKeyV2(seed, gameId, salesDigest, beacon.round, beacon.randomness), ballCount).slice(0, count)
}

function keyV2(
  prefix: string,
  seed: Uint8Array,
  gameId: string,
  salesDigest: string,
  round: number,
  randomness: string,
): Buffer {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) throw invalid(`seed must be ${SEED_BYTES} bytes`)
  if (typeof gameId !== 'string' || gameId.length === 0 || gameId.includes('|') || LONE_SURROGATE.test(gameId)) {
    throw invalid(`gameId must be a non-empty string without "|", got ${JSON.stringify(gameId)}`)
  }
  if (!isHex64(salesDigest)) throw invalid('salesDigest must be 64 lowercase hex characters')
  if (!Number.isSafeInteger(round) || round < 1) throw invalid(`round must be a positive integer, got ${round}`)
  if (!isHex64(randomness)) throw invalid('beacon randomness must be 64 lowercase hex characters')
  return createHmac('sha256', seed).update(`${prefix}|${gameId}|${salesDigest}|${round}|${randomness}`, 'utf8').digest()
}

/** Inputs of a v2 draw. */
export interface DrawInputV2 {
  seed: Uint8Array
  gameId: string
  serials: readonly string[]
  /** Close of sales, whole Unix seconds. */
  closedAt: number
  /** The key the beacon round was checked against (quicknet, or a demo beacon's). */
  beaconKey: BeaconKey
  /** Round `drawRoundFor(closedAt)`, with its signature. */
  beacon: BeaconRound
  ballCount: number
}

/**
 * Full v2 draw. Re-checks that the round follows from `closedAt`, that the signature verifies and that the
 * randomness is SHA-256 of it, so no order is ever computed from an unverified beacon value.
 *
 * @throws DomainError VALIDATION_FAILED on a wrong round, a refused signature or bad inputs.
 */
export function drawOrderV2(input: DrawInputV2): {
  commitment: string
  salesDigest: string
  round: number
  order: number[]
} {
  const round = drawRoundFor(input.closedAt)
  if (input.beacon.round !== round)
    throw invalid(`the draw needs beacon round ${round} (close at ${input.closedAt}), got ${input.beacon.round}`)
  const check = verifyBeaconSignature(input.beaconKey, input.beacon.round, input.beacon.signature)
  if (!check.ok) throw new DomainError('INVALID_SIGNATURE', `beacon round ${round} refused: ${check.reason}`)
  if (check.round.randomness !== input.beacon.randomness)
    throw invalid('beacon randomness is not SHA-256 of its signature')
  const commitment = commitmentOf(input.seed)
  const digest = digestOf(input.serials)
  const key = drawKeyV2(input.seed, input.gameId, digest, round, check.round.randomness)
  return { commitment, salesDigest: digest, round, order: shuffleOrder(key, input.ballCount) }
}

/** Builds the published v2 proof of a draw whose first `calledCount` balls were called. */
export function buildDrawProofV2(input: DrawInputV2 & { calledCount: number; includeSerials?: boolean }): DrawProofV2 {
  const { commitment, salesDigest: digest, order } = drawOrderV2(input)
  if (!Number.isInteger(input.calledCount) || input.calledCount < 0 || input.calledCount > order.length) {
    throw invalid(`calledCount must be an integer in 0..${order.length}, got ${input.calledCount}`)
  }
  const beacon: ProofBeacon = {
    scheme: input.beaconKey.scheme,
    chainHash: input.beaconKey.chainHash,
    round: input.beacon.round,
    signature: input.beacon.signature,
    randomness: input.beacon.randomness,
  }
  if (input.beaconKey.scheme === 'demo') beacon.publicKey = input.beaconKey.publicKey
  const proof: DrawProofV2 = {
    version: DRAW_PROOF_V2,
    gameId: input.gameId,
    commitment,
    seed: Buffer.from(input.seed).toString('hex'),
    salesDigest: digest,
    closedAt: isoOfUnixSeconds(input.closedAt),
    beacon,
    ballCount: input.ballCount,
    balls: order.slice(0, input.calledCount),
  }
  if (input.includeSerials ?? true) proof.soldSerials = sortByBytes(input.serials)
  return proof
}

/** One finding, in both languages of the product. */
export interface Reason {
  code: string
  es: string
  en: string
}

/** Result of {@link verifyProof}. */
export interface ProofVerification {
  ok: boolean
  /** The proof's version when recognised. */
  version: typeof DRAW_PROOF_V1 | typeof DRAW_PROOF_V2 | null
  /** The beacon of a v2 proof (null for v1, which had none). */
  beacon: { scheme: BeaconScheme; round: number; publicRandomness: boolean } | null
  /** True when the randomness came from a local demo beacon: valid arithmetic, but not a public draw. */
  demoBeacon: boolean
  /** Every problem found; empty when `ok`. */
  errors: Reason[]
  /** Facts a reader must be told even when `ok` (demo beacon, v1 entropy typed by staff). */
  notices: Reason[]
}

const MAX_BALL_ERRORS = 10

/**
 * Checks a published draw proof, v1 or v2 (any JSON value). Never throws. For v2: the shape, `SHA-256(seed) =
 * commitment`, `salesDigest` against `soldSerials` when present, `round = roundAt(closedAt) + 2`, the chain hash
 * and key of the scheme, the BLS signature, `randomness = SHA-256(signature)`, and the balls.
 */
export function verifyProof(proof: unknown): ProofVerification {
  if (typeof proof !== 'object' || proof === null || Array.isArray(proof)) {
    return result(null, null, [reason('shape', 'la prueba debe ser un objeto JSON', 'proof must be a JSON object')], [])
  }
  const p = proof as Record<string, unknown>
  if (p.version === DRAW_PROOF_V1) {
    const v1 = verifyDrawProofV1(proof)
    const errors = v1.errors.map((en) => reason('v1', `prueba bolillo-draw-v1 no válida: ${en}`, en))
    const notices = [
      reason(
        'v1-entropy',
        'prueba v1: la entropía externa la aportó el personal al cerrar la venta, no una baliza pública',
        'v1 proof: the external entropy was supplied by staff at close of sales, not by a public beacon',
      ),
    ]
    return result(DRAW_PROOF_V1, null, errors, notices)
  }
  if (p.version !== DRAW_PROOF_V2) {
    return result(
      null,
      null,
      [
        reason(
          'version',
          `versión desconocida ${describe(p.version)}; se esperaba ${DRAW_PROOF_V1} o ${DRAW_PROOF_V2}`,
          `unknown version ${describe(p.version)}; expected ${DRAW_PROOF_V1} or ${DRAW_PROOF_V2}`,
        ),
      ],
      [],
    )
  }
  return verifyV2(p)
}

function verifyV2(p: Record<string, unknown>): ProofVerification {
  const errors: Reason[] = []
  const notices: Reason[] = []
  const bad = (code: string, es: string, en: string) => errors.push(reason(code, es, en))

  const gameIdOk =
    typeof p.gameId === 'string' && p.gameId.length > 0 && !p.gameId.includes('|') && !LONE_SURROGATE.test(p.gameId)
  if (!gameIdOk)
    bad(
      'gameId',
      `gameId debe ser texto no vacío sin "|", es ${describe(p.gameId)}`,
      `gameId must be a non-empty string without "|", got ${describe(p.gameId)}`,
    )
  const seedOk = isHex64(p.seed)
  if (!seedOk)
    bad('seed', 'seed debe tener 64 caracteres hexadecimales en minúscula', 'seed must be 64 lowercase hex characters')
  const commitmentOk = isHex64(p.commitment)
  if (!commitmentOk)
    bad(
      'commitment',
      'commitment debe tener 64 caracteres hexadecimales en minúscula',
      'commitment must be 64 lowercase hex characters',
    )
  const digestOk = isHex64(p.salesDigest)
  if (!digestOk)
    bad(
      'salesDigest',
      'salesDigest debe tener 64 caracteres hexadecimales en minúscula',
      'salesDigest must be 64 lowercase hex characters',
    )
  const ballCountOk =
    Number.isInteger(p.ballCount) && (p.ballCount as number) >= 1 && (p.ballCount as number) <= MAX_DRAW_SIZE
  if (!ballCountOk)
    bad(
      'ballCount',
      `ballCount debe ser un entero en 1..${MAX_DRAW_SIZE}`,
      `ballCount must be an integer in 1..${MAX_DRAW_SIZE}, got ${describe(p.ballCount)}`,
    )
  const ballsOk =
    Array.isArray(p.balls) &&
    p.balls.every((b) => Number.isInteger(b)) &&
    (!ballCountOk || p.balls.length <= (p.ballCount as number))
  if (!ballsOk)
    bad(
      'balls',
      'balls debe ser una lista de enteros no más larga que ballCount',
      'balls must be an array of integers no longer than ballCount',
    )

  let closedAt: number | null = null
  try {
    closedAt = unixSecondsOf(p.closedAt as string)
  } catch {
    bad(
      'closedAt',
      `closedAt debe ser una hora ISO 8601 en UTC terminada en "Z", es ${describe(p.closedAt)}`,
      `closedAt must be an ISO 8601 UTC time ending in "Z", got ${describe(p.closedAt)}`,
    )
  }

  if (seedOk && commitmentOk) {
    const actual = commitmentOf(Buffer.from(p.seed as string, 'hex'))
    if (actual !== p.commitment)
      bad(
        'commitment',
        `el compromiso publicado no es SHA-256(seed) = ${actual}: la semilla no es la comprometida`,
        `commitment does not match SHA-256(seed) = ${actual}: the seed is not the committed one`,
      )
  }

  if (p.soldSerials !== undefined) {
    if (!Array.isArray(p.soldSerials) || !p.soldSerials.every((s) => typeof s === 'string')) {
      bad(
        'soldSerials',
        'soldSerials debe ser una lista de textos',
        'soldSerials must be an array of strings when present',
      )
    } else {
      try {
        const actual = digestOf(p.soldSerials as string[])
        if (digestOk && actual !== p.salesDigest)
          bad(
            'salesDigest',
            `salesDigest no corresponde a los ${p.soldSerials.length} cartones vendidos (dan ${actual})`,
            `salesDigest does not match the ${p.soldSerials.length} soldSerials, which give ${actual}`,
          )
      } catch (e) {
        bad(
          'soldSerials',
          `soldSerials no es una lista de ventas válida: ${(e as Error).message}`,
          `soldSerials are not a valid sale list: ${(e as Error).message}`,
        )
      }
    }
  }

  // Beacon.
  const b = p.beacon as Record<string, unknown> | undefined
  let beaconInfo: ProofVerification['beacon'] = null
  let demo = false
  let randomnessOk = false
  if (typeof b !== 'object' || b === null || Array.isArray(b)) {
    bad('beacon', 'falta el objeto beacon (baliza)', 'beacon must be an object')
  } else {
    const scheme = b.scheme
    const round = b.round
    const roundOk = Number.isSafeInteger(round) && (round as number) >= 1
    if (!roundOk)
      bad(
        'beacon.round',
        'beacon.round debe ser un entero positivo',
        `beacon.round must be a positive integer, got ${describe(round)}`,
      )
    let key: BeaconKey | null = null
    if (scheme === 'drand-quicknet') {
      if (b.chainHash !== QUICKNET.chainHash)
        bad(
          'beacon.chainHash',
          `beacon.chainHash no es la cadena quicknet de drand (${QUICKNET.chainHash})`,
          `beacon.chainHash is not drand quicknet's (${QUICKNET.chainHash})`,
        )
      if (b.publicKey !== undefined && b.publicKey !== QUICKNET.publicKey)
        bad(
          'beacon.publicKey',
          'beacon.publicKey no es la clave pública de quicknet',
          'beacon.publicKey is not the quicknet public key',
        )
      key = QUICKNET_KEY
    } else if (scheme === 'demo') {
      demo = true
      if (typeof b.publicKey !== 'string') {
        bad(
          'beacon.publicKey',
          'una baliza de demostración debe incluir su clave pública',
          'a demo beacon must carry its public key',
        )
      } else {
        if (b.chainHash !== demoChainHash(b.publicKey))
          bad(
            'beacon.chainHash',
            'beacon.chainHash no corresponde a la clave de la baliza de demostración',
            'beacon.chainHash does not match the demo beacon key',
          )
        key = { scheme: 'demo', chainHash: demoChainHash(b.publicKey), publicKey: b.publicKey }
      }
      notices.push(
        reason(
          'demo-beacon',
          'BALIZA DE DEMOSTRACIÓN: la aleatoriedad viene de una clave local del servidor, no de una baliza pública; este sorteo no es un sorteo público verificable',
          'DEMO BEACON: the randomness comes from a local key of the server, not from a public beacon; this is not a publicly verifiable draw',
        ),
      )
    } else {
      bad(
        'beacon.scheme',
        `beacon.scheme debe ser "drand-quicknet" o "demo", es ${describe(scheme)}`,
        `beacon.scheme must be "drand-quicknet" or "demo", got ${describe(scheme)}`,
      )
    }
    if (scheme === 'drand-quicknet' || scheme === 'demo')
      beaconInfo = { scheme, round: round as number, publicRandomness: scheme === 'drand-quicknet' }

    if (roundOk && closedAt !== null) {
      let expected: number | null = null
      try {
        expected = drawRoundFor(closedAt)
      } catch {
        bad(
          'closedAt',
          'closedAt es anterior al inicio de la cadena quicknet',
          'closedAt is before the quicknet genesis',
        )
      }
      if (expected !== null && expected !== round) {
        bad(
          'beacon.round',
          `la ronda ${round as number} no es la que corresponde al cierre de ventas ${p.closedAt as string}: debía ser la ${expected}`,
          `round ${round as number} does not follow from closedAt ${p.closedAt as string}: it must be ${expected}`,
        )
      }
    }
    if (key && roundOk) {
      const check = verifyBeaconSignature(key, round as number, b.signature as string)
      if (!check.ok) {
        bad(
          'beacon.signature',
          `la firma BLS de la ronda ${round as number} no es válida (${demo ? 'clave de demostración' : 'clave pública de quicknet'}): ${check.reason}`,
          `the BLS signature of round ${round as number} is not valid (${demo ? 'demo key' : 'quicknet public key'}): ${check.reason}`,
        )
      } else if (check.round.randomness !== b.randomness) {
        bad(
          'beacon.randomness',
          `beacon.randomness no es SHA-256 de la firma (${check.round.randomness})`,
          `beacon.randomness is not SHA-256 of the signature (${check.round.randomness})`,
        )
      } else {
        randomnessOk = true
      }
    }
  }

  if (seedOk && gameIdOk && digestOk && ballCountOk && ballsOk && randomnessOk && b) {
    const key = drawKeyV2(
      Buffer.from(p.seed as string, 'hex'),
      p.gameId as string,
      p.salesDigest as string,
      b.round as number,
      b.randomness as string,
    )
    const order = shuffleOrder(key, p.ballCount as number)
    const balls = p.balls as number[]
    let mismatches = 0
    for (let i = 0; i < balls.length; i++) {
      if (balls[i] === order[i]) continue
      mismatches++
      if (mismatches <= MAX_BALL_ERRORS)
        bad(
          'balls',
          `la bola nº ${i + 1} es ${balls[i]} pero la prueba da ${order[i]}`,
          `ball #${i + 1} is ${balls[i]} but the proof stream gives ${order[i]}`,
        )
    }
    if (mismatches > MAX_BALL_ERRORS)
      bad(
        'balls',
        `... y ${mismatches - MAX_BALL_ERRORS} bolas más difieren`,
        `... and ${mismatches - MAX_BALL_ERRORS} more balls differ`,
      )
  }

  return { ...result(DRAW_PROOF_V2, beaconInfo, errors, notices), demoBeacon: demo }
}

function result(
  version: ProofVerification['version'],
  beacon: ProofVerification['beacon'],
  errors: Reason[],
  notices: Reason[],
): ProofVerification {
  return { ok: errors.length === 0, version, beacon, demoBeacon: beacon?.scheme === 'demo', errors, notices }
}

function reason(code: string, es: string, en: string): Reason {
  return { code, es, en }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function invalid(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message)
}

/** Plain text report of {@link verifyProof} for the CLI: a first line OK/FAILED, notices and errors in both languages. */
export function formatProofVerification(r: ProofVerification, proof: unknown): string {
  const p = (typeof proof === 'object' && proof !== null ? proof : {}) as Record<string, unknown>
  const balls = Array.isArray(p.balls) ? p.balls.length : 0
  const lines: string[] = []
  if (r.ok) {
    const source =
      r.version === DRAW_PROOF_V2
        ? r.demoBeacon
          ? `DEMO beacon round ${r.beacon?.round} (NOT public randomness)`
          : `drand quicknet round ${r.beacon?.round}, BLS signature verified`
        : 'external entropy supplied at close of sales'
    lines.push(
      `OK: the ${balls} balls of game ${String(p.gameId)} follow from the committed seed (${r.version}; ${source})`,
    )
    lines.push(
      `OK: las ${balls} bolas de la partida ${String(p.gameId)} salen de la semilla comprometida (${r.version})`,
    )
  } else {
    lines.push(`FAILED / NO VÁLIDA: ${r.version ?? 'unknown proof'}`)
    for (const e of r.errors) lines.push(`  - ${e.en}`, `    ${e.es}`)
  }
  for (const n of r.notices) lines.push(`NOTE: ${n.en}`, `AVISO: ${n.es}`)
  return lines.join('\n') + '\n'
}
