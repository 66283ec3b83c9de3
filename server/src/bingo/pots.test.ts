import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { drawKey, salesDigest, shuffleOrder } from '../shared/draw-proof.ts'
import {
  completingBall,
  luckyCommitment,
  luckyNumbers,
  potCommission,
  potConditionText,
  potContribution,
  potDefinitionProblems,
  scaleAward,
  splitAward,
  verifyLuckyProof,
  type PotDefinition,
} from './pots.ts'

const progressive: PotDefinition = {
  kind: 'progressive',
  contributionBp: 200,
  reserveBp: 0,
  seedCents: 100_000,
  maxCents: null,
  condition: { prize: 'bingo', scale: [{ withinBalls: 40, shareBp: 10_000 }] },
}

describe('pot definitions and public conditions (BNG-55, CFG-28 to CFG-31)', () => {
  it('accepts a progressive, an interconnected scale and a lucky ball, and refuses nonsense', () => {
    expect(potDefinitionProblems(progressive)).toEqual([])
    expect(
      potDefinitionProblems({
        ...progressive,
        kind: 'interconnected',
        condition: {
          prize: 'bingo',
          scale: [
            { withinBalls: 40, shareBp: 10_000 },
            { withinBalls: 45, shareBp: 5_000 },
          ],
        },
      }),
    ).toEqual([])
    expect(
      potDefinitionProblems({
        ...progressive,
        kind: 'lucky',
        condition: { luckyPrizes: ['line', 'bingo'], numbers: 1 },
      }),
    ).toEqual([])
    expect(potDefinitionProblems({ ...progressive, contributionBp: 0 })).not.toEqual([])
    expect(
      potDefinitionProblems({
        ...progressive,
        condition: {
          prize: 'bingo',
          scale: [
            { withinBalls: 45, shareBp: 5_000 },
            { withinBalls: 40, shareBp: 10_000 },
          ],
        },
      }),
    ).not.toEqual([])
    expect(
      potDefinitionProblems({ ...progressive, kind: 'lucky', condition: { luckyPrizes: [], numbers: 1 } }),
    ).not.toEqual([])
    expect(potDefinitionProblems({ ...progressive, maxCents: 50_000 })).not.toEqual([]) // below its seed
  })

  it('states the conditions and the share of the card price in words for the public', () => {
    expect(potConditionText(progressive, 'Bs')).toBe(
      'bingo en 40 bolas o menos: 100 % del pozo. Se financia con el 2 % del valor facial de los cartones vendidos.',
    )
    expect(
      potConditionText({ ...progressive, kind: 'lucky', condition: { luckyPrizes: ['line'], numbers: 1 } }),
    ).toMatch(/^Bola loca: .*línea premiada es la bola loca/)
  })
})

describe('contributions (RNG-21, BNG-66)', () => {
  it('takes the share of the sales, splits off the reserve and fills the reserve beyond the maximum', () => {
    expect(potContribution(200_000, { mainCents: 0, reserveCents: 0 }, progressive)).toEqual({
      mainCents: 4_000,
      reserveCents: 0,
    })
    expect(potContribution(200_000, { mainCents: 0, reserveCents: 0 }, { ...progressive, reserveBp: 2_500 })).toEqual({
      mainCents: 3_000,
      reserveCents: 1_000,
    })
    expect(
      potContribution(200_000, { mainCents: 99_000, reserveCents: 0 }, { ...progressive, maxCents: 100_000 }),
    ).toEqual({ mainCents: 1_000, reserveCents: 3_000 })
    expect(
      potContribution(200_000, { mainCents: 100_000, reserveCents: 0 }, { ...progressive, maxCents: 100_000 }),
    ).toEqual({ mainCents: 0, reserveCents: 4_000 })
  })

  it('never creates or loses a cent of the contribution', () =>
    fc.assert(
      fc.property(
        fc.nat(100_000_000),
        fc.nat(10_000_000),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.option(fc.integer({ min: 1, max: 20_000_000 })),
        (sales, main, contributionBp, reserveBp, maxCents) => {
          const c = potContribution(
            sales,
            { mainCents: main, reserveCents: 0 },
            { contributionBp, reserveBp, maxCents },
          )
          expect(c.mainCents + c.reserveCents).toBe(Math.floor((sales * contributionBp) / 10_000))
          expect(c.mainCents).toBeGreaterThanOrEqual(0)
          if (maxCents !== null) expect(main + c.mainCents <= Math.max(maxCents, main)).toBe(true)
        },
      ),
    ))
})

describe('awards (BNG-66 ball scale, RNG-22 split)', () => {
  const scale = {
    prize: 'bingo' as const,
    scale: [
      { withinBalls: 40, shareBp: 10_000 },
      { withinBalls: 45, shareBp: 5_000 },
    ],
  }
  it('pays the first step the ball count meets, and nothing beyond the scale', () => {
    expect(scaleAward(scale, 38, 123_457)).toEqual({ step: scale.scale[0], amountCents: 123_457 })
    expect(scaleAward(scale, 40, 123_457)?.amountCents).toBe(123_457)
    expect(scaleAward(scale, 41, 123_457)).toEqual({ step: scale.scale[1], amountCents: 61_728 })
    expect(scaleAward(scale, 46, 123_457)).toBeNull()
    expect(scaleAward(scale, 10, 0)).toBeNull()
  })

  it('splits equally by serial with the leftover cents to the lowest serials', () => {
    expect(
      splitAward(10_001, [{ serial: 'B-00002' }, { serial: 'A-00009' }, { serial: 'A-00010' }]).map((w) => [
        w.serial,
        w.amountCents,
      ]),
    ).toEqual([
      ['A-00009', 3_334],
      ['A-00010', 3_334],
      ['B-00002', 3_333],
    ])
  })
})

describe('the ball that completes a combination (BNG-64, BNG-67)', () => {
  const rows = [
    [1, 12, 25],
    [33, 47, 58],
    [60, 71, 89],
  ]
  it('finds the last ball of the earliest complete row for a line, and of the card for a bingo', () => {
    const balls = [33, 60, 71, 47, 58, 2, 89, 1, 12, 25]
    expect(completingBall(rows, balls, 'line')).toEqual({ ball: 58, atBall: 5 })
    expect(completingBall(rows, balls, 'bingo')).toEqual({ ball: 25, atBall: 10 })
    expect(completingBall(rows, balls.slice(0, 4), 'line')).toBeNull()
  })
})

describe('lucky ball draw (RNG-28: independent of the extractor)', () => {
  const seed = new Uint8Array(32).fill(7)
  const digest = salesDigest(['A-00001', 'A-00002'])
  it('is reproducible from the published values, and the proof checks', () => {
    const numbers = luckyNumbers(seed, 'g_1', digest, 'beacon', 90, 2)
    expect(numbers).toEqual(luckyNumbers(seed, 'g_1', digest, 'beacon', 90, 2))
    expect(numbers.every((n) => n >= 1 && n <= 90)).toBe(true)
    expect(new Set(numbers).size).toBe(2)
    const proof = {
      version: 'bolillo-lucky-v1',
      gameId: 'g_1',
      commitment: luckyCommitment(seed),
      seed: Buffer.from(seed).toString('hex'),
      salesDigest: digest,
      externalEntropy: 'beacon',
      ballCount: 90,
      count: 2,
      numbers,
    }
    expect(verifyLuckyProof(proof)).toEqual({ ok: true, errors: [] })
    expect(verifyLuckyProof({ ...proof, numbers: [numbers[1], numbers[0]] }).ok).toBe(false)
    expect(verifyLuckyProof({ ...proof, seed: '00'.repeat(32) }).ok).toBe(false)
  })

  it('uses its own label: even with the draw seed it does not give the draw order', () => {
    // Were the same seed ever used, the label alone keeps the two streams apart.
    const drawOrder = shuffleOrder(drawKey(seed, 'g_1', digest, ''), 90)
    const lucky = luckyNumbers(seed, 'g_1', digest, '', 90, 90)
    expect(lucky).not.toEqual(drawOrder)
  })
})

describe('RNG-21: the operator commission approved in the Plan de Apuestas', () => {
  const def = { contributionBp: 200, reserveBp: 2_500, maxCents: null }
  it('RNG-21: takes the commission from what the sales put in; only the remainder goes to the main pot and the reserve', () => {
    // 2 % of 100,000 = 2,000 put in; 10 % of it = 200 to the operator; 1,800 left: 450 to the reserve, 1,350 to the pot.
    expect(potCommission(100_000, { ...def, commissionBp: 1_000 })).toBe(200)
    expect(potContribution(100_000, { mainCents: 0, reserveCents: 0 }, { ...def, commissionBp: 1_000 })).toEqual({
      mainCents: 1_350,
      reserveCents: 450,
    })
    expect(potContribution(100_000, { mainCents: 0, reserveCents: 0 }, def)).toEqual({
      mainCents: 1_500,
      reserveCents: 500,
    })
  })
  it('RNG-21: commission + pot + reserve always add up to what the sales put in, and the commission is never all of it', () =>
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.integer({ min: 0, max: 10_000 }),
        (sales, contributionBp, commissionBp, reserveBp) => {
          const d = { contributionBp, commissionBp, reserveBp, maxCents: null }
          const c = potContribution(sales, { mainCents: 0, reserveCents: 0 }, d)
          const gross = Math.floor((sales * contributionBp) / 10_000)
          return (
            c.mainCents + c.reserveCents + potCommission(sales, d) === gross && c.mainCents >= 0 && c.reserveCents >= 0
          )
        },
      ),
    ))
  it('RNG-21: a commission of the whole contribution, or outside 0..9999 bp, is refused', () => {
    const base = {
      kind: 'progressive' as const,
      contributionBp: 200,
      reserveBp: 0,
      seedCents: 0,
      maxCents: null,
      condition: { prize: 'bingo' as const, scale: [{ withinBalls: 50, shareBp: 10_000 }] },
    }
    expect(potDefinitionProblems({ ...base, commissionBp: 10_000 }).join()).toMatch(/commissionBp/)
    expect(potDefinitionProblems({ ...base, commissionBp: -1 }).join()).toMatch(/commissionBp/)
    expect(potDefinitionProblems({ ...base, commissionBp: 1_500 })).toEqual([])
  })
})
