import { createHash, createHmac } from 'node:crypto'

/**
 * An independent checker of `npx bolillo demo --json --with-cards` output, written from DESIGN.md alone
 * (it imports nothing from the server): the proof reproduces the balls, the winners are exactly the cards
 * that completed a row (line) or the card (bingo) at the first ball where any did, and the amounts sum
 * exactly to the pools.
 */
export interface DemoOutput {
  gameId: string
  cardsSold: number
  faceValue: number
  linePool: number
  bingoPool: number
  balls: number[]
  proof: { version: string; gameId: string; commitment: string; seed: string; salesDigest: string; externalEntropy: string; ballCount: number; balls: number[] }
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
  const key = createHmac('sha256', seed).update(Buffer.from(`bolillo-draw-v1|${out.gameId}|${digest}|${p.externalEntropy}`, 'utf8')).digest()
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
      if (w.length) { lineAt = i + 1; lineWinners = w }
    }
    if (!bingoAt) {
      const w = out.cards.filter((c) => c.numbers.every((row) => row.every((n) => called.has(n)))).map((c) => c.serial)
      if (w.length) { bingoAt = i + 1; bingoWinners = w }
    }
  })
  if (bingoAt !== out.balls.length) problems.push(`the game should end at the first bingo (ball ${bingoAt}), it drew ${out.balls.length}`)
  const got = (kind: string) => out.winners.filter((w) => w.kind === kind)
  const same = (x: string[], y: string[]) => JSON.stringify([...x].sort()) === JSON.stringify([...y].sort())
  if (!same(got('line').map((w) => w.serial), lineWinners)) problems.push(`line winners ${got('line').map((w) => w.serial)} != expected ${lineWinners}`)
  if (!same(got('bingo').map((w) => w.serial), bingoWinners)) problems.push(`bingo winners ${got('bingo').map((w) => w.serial)} != expected ${bingoWinners}`)
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
    if (!card || JSON.stringify(card.numbers) !== JSON.stringify(w.numbers)) problems.push(`winner ${w.serial} numbers differ from the sold card`)
  }
  return problems
}
