import { createHash, createHmac } from 'node:crypto'
import { bls12_381 } from '@noble/curves/bls12-381.js'

/**
 * An independent checker of `npx bolillo demo --json --with-cards` output, written from DESIGN.md alone
 * (it imports nothing from the server): the bolillo-draw-v2 proof's beacon round follows from the close time, its
 * BLS signature verifies (quicknet's published key, or the demo beacon's own key), the proof reproduces the balls,
 * the winners are exactly the cards that completed a row (line) or the card (bingo) at the first ball where any
 * did, and the amounts sum exactly to the pools.
 */
const QUICKNET = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  genesis: 1692803367,
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
}
const DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'

export interface DemoBeacon {
  scheme: string
  chainHash: string
  round: number
  signature: string
  randomness: string
  publicKey?: string
}

export interface DemoOutput {
  gameId: string
  cardsSold: number
  faceValue: number
  linePool: number
  bingoPool: number
  balls: number[]
  proof: {
    version: string
    gameId: string
    commitment: string
    seed: string
    salesDigest: string
    closedAt: string
    beacon: DemoBeacon
    ballCount: number
    balls: number[]
  }
  winners: Array<{ kind: 'line' | 'bingo'; serial: string; numbers: number[][]; atBall: number; amount: number }>
  cards: Array<{ serial: string; numbers: number[][] }>
}

export function checkDemo(out: DemoOutput): string[] {
  const problems: string[] = []
  const p = out.proof
  const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')
  const seed = Buffer.from(p.seed, 'hex')
  if (sha(seed) !== p.commitment) problems.push('commitment is not SHA-256(seed)')
  const serials = out.cards.map((c) => c.serial).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const digest = sha(serials.join('\n'))
  if (digest !== p.salesDigest) problems.push('sales digest does not match the sold cards')
  if (p.version !== 'bolillo-draw-v2') problems.push(`proof version is ${p.version}, not bolillo-draw-v2`)
  // The beacon round: the second after the one running at the close (whole Unix seconds, UTC).
  const t = Math.floor(Date.parse(p.closedAt) / 1000)
  if (!/Z$/.test(p.closedAt) || p.beacon.round !== Math.floor((t - QUICKNET.genesis) / 3) + 1 + 2)
    problems.push('beacon round does not follow from closedAt')
  const publicKey = p.beacon.scheme === 'drand-quicknet' ? QUICKNET.publicKey : (p.beacon.publicKey ?? '')
  if (p.beacon.scheme === 'drand-quicknet' && p.beacon.chainHash !== QUICKNET.chainHash)
    problems.push('not the quicknet chain')
  if (p.beacon.scheme === 'demo' && p.beacon.chainHash !== sha(`bolillo-demo-beacon|${publicKey}`))
    problems.push('demo chain hash does not match its key')
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(p.beacon.round))
  let signed = false
  try {
    const sigs = bls12_381.shortSignatures
    signed = sigs.verify(
      Buffer.from(p.beacon.signature, 'hex'),
      sigs.hash(createHash('sha256').update(message).digest(), DST),
      Buffer.from(publicKey, 'hex'),
    )
  } catch {
    signed = false
  }
  if (!signed) problems.push('beacon signature does not verify')
  if (sha(Buffer.from(p.beacon.signature, 'hex')) !== p.beacon.randomness)
    problems.push('beacon randomness is not SHA-256 of the signature')
  const key = createHmac('sha256', seed)
    .update(Buffer.from(`bolillo-draw-v2|${out.gameId}|${digest}|${p.beacon.round}|${p.beacon.randomness}`, 'utf8'))
    .digest()
  // Stream of HMAC blocks read as big-endian uint32.
  let block = 0
  let buf = Buffer.alloc(0)
  let off = 0
  const next = () => {
    if (off + 4 > buf.length) {
      const i = Buffer.alloc(4)
      i.writeUInt32BE(block++)
      buf = createHmac('sha256', key).update(i).digest()
      off = 0
    }
    const v = buf.readUInt32BE(off)
    off += 4
    return v
  }
  const a = Array.from({ length: p.ballCount }, (_, i) => i + 1)
  for (let j = p.ballCount - 1; j >= 1; j--) {
    const m = j + 1
    const limit = 2 ** 32 - (2 ** 32 % m)
    let u = next()
    while (u >= limit) u = next()
    const r = u % m
    ;[a[j], a[r]] = [a[r], a[j]]
  }
  const expected = a.slice(0, out.balls.length)
  if (JSON.stringify(expected) !== JSON.stringify(out.balls)) problems.push('balls do not follow from the proof')
  if (JSON.stringify(p.balls) !== JSON.stringify(out.balls)) problems.push('proof balls differ from the game balls')

  // Brute force: replay the balls and find the first ball at which any card has a full row, then a full card.
  const called = new Set<number>()
  let lineAt = 0
  let bingoAt = 0
  let lineWinners: string[] = []
  let bingoWinners: string[] = []
  out.balls.forEach((ball, i) => {
    called.add(ball)
    if (!lineAt) {
      const w = out.cards.filter((c) => c.numbers.some((row) => row.every((n) => called.has(n)))).map((c) => c.serial)
      if (w.length) {
        lineAt = i + 1
        lineWinners = w
      }
    }
    if (!bingoAt) {
      const w = out.cards.filter((c) => c.numbers.every((row) => row.every((n) => called.has(n)))).map((c) => c.serial)
      if (w.length) {
        bingoAt = i + 1
        bingoWinners = w
      }
    }
  })
  if (bingoAt !== out.balls.length)
    problems.push(`the game should end at the first bingo (ball ${bingoAt}), it drew ${out.balls.length}`)
  const got = (kind: string) => out.winners.filter((w) => w.kind === kind)
  const same = (x: string[], y: string[]) => JSON.stringify([...x].sort()) === JSON.stringify([...y].sort())
  if (
    !same(
      got('line').map((w) => w.serial),
      lineWinners,
    )
  )
    problems.push(`line winners ${got('line').map((w) => w.serial)} != expected ${lineWinners}`)
  if (
    !same(
      got('bingo').map((w) => w.serial),
      bingoWinners,
    )
  )
    problems.push(`bingo winners ${got('bingo').map((w) => w.serial)} != expected ${bingoWinners}`)
  if (got('line').some((w) => w.atBall !== lineAt)) problems.push('a line winner has the wrong atBall')
  if (got('bingo').some((w) => w.atBall !== bingoAt)) problems.push('a bingo winner has the wrong atBall')
  const sum = (kind: string) => got(kind).reduce((s, w) => s + w.amount, 0)
  const total = out.cardsSold * out.faceValue
  if (out.linePool !== Math.floor((total * 1000) / 10000)) problems.push('line pool is not 10 % of sales')
  if (out.bingoPool !== Math.floor((total * 5100) / 10000)) problems.push('bingo pool is not 51 % of sales')
  if (sum('line') !== out.linePool) problems.push(`line amounts sum to ${sum('line')}, pool ${out.linePool}`)
  if (sum('bingo') !== out.bingoPool) problems.push(`bingo amounts sum to ${sum('bingo')}, pool ${out.bingoPool}`)
  for (const w of out.winners) {
    const card = out.cards.find((c) => c.serial === w.serial)
    if (!card || JSON.stringify(card.numbers) !== JSON.stringify(w.numbers))
      problems.push(`winner ${w.serial} numbers differ from the sold card`)
  }
  return problems
}
