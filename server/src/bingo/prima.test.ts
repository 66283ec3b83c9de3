import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import {
  PRIMA_RULES_CANTABRIA as R,
  accruePrima,
  changePrimaAmount,
  initialPrimaState,
  primaAmountProblems,
  primaAnnouncement,
  primaDeduction,
  reversePrima,
  settlePrima,
  validatePrimaAmounts,
  type PrimaState,
} from './prima.ts'

const code = (f: () => unknown) => {
  try {
    f()
    return 'OK'
  } catch (err) {
    return err instanceof DomainError ? err.code : 'THROW'
  }
}

describe('prima amounts (BNG-59: 50 to 1,000 in multiples of 50)', () => {
  it('accepts 50, 100, ..., 1,000 and nothing else', () => {
    for (let units = 50; units <= 1000; units += 50) expect(primaAmountProblems(units * 100)).toEqual([])
    expect(primaAmountProblems(0)).not.toEqual([])
    expect(primaAmountProblems(4_999)).not.toEqual([])
    expect(primaAmountProblems(2_500)).not.toEqual([]) // 25: below 50
    expect(primaAmountProblems(7_500)).not.toEqual([]) // 75: not a multiple of 50
    expect(primaAmountProblems(105_000)).not.toEqual([]) // 1,050: above 1,000
    expect(primaAmountProblems(5_001)).not.toEqual([])
    expect(primaAmountProblems(1.5)).not.toEqual([])
  })

  it('validates a hall list: at least one amount, no repeats', () => {
    expect(validatePrimaAmounts([100_000, 5_000, 50_000])).toEqual([5_000, 50_000, 100_000])
    expect(code(() => validatePrimaAmounts([]))).toBe('VALIDATION_FAILED')
    expect(code(() => validatePrimaAmounts([5_000, 5_000]))).toBe('VALIDATION_FAILED')
    expect(code(() => validatePrimaAmounts([5_000, 120_000]))).toBe('VALIDATION_FAILED')
  })

  it('is valid exactly for multiples of 5,000 cents in 5,000..100,000', () =>
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 300_000 }), (cents) => {
        const valid = cents >= 5_000 && cents <= 100_000 && cents % 5_000 === 0
        expect(primaAmountProblems(cents).length === 0).toBe(valid)
      }),
    ))
})

describe('prima funding (BNG-58: 6 % of face value x cards sold)', () => {
  it('deducts 6 % of the sales of each game, rounded down to the cent', () => {
    expect(primaDeduction(1000, 500)).toBe(30_000) // 1,000 cards x 5.00 = 5,000.00 -> 300.00
    expect(primaDeduction(200, 1000)).toBe(12_000) // 2,000.00 -> 120.00
    expect(primaDeduction(7, 33)).toBe(13) // 2.31 x 6 % = 0.1386 -> 0.13
    expect(primaDeduction(0, 500)).toBe(0)
  })
})

/** One whole game: announce, close sales (deduct), bingo at `atBall`. */
function play(state: PrimaState, cardsSold: number, face: number, atBall: number, winners = ['A-00001']) {
  const announced = primaAnnouncement(state)
  const accrued = accruePrima(state, primaDeduction(cardsSold, face))
  const settled = settlePrima(accrued, announced, { atBall, winnerSerials: winners })
  return { announced, ...settled }
}

describe('prima activation, ball limit and award (BNG-60, BNG-62, BNG-63, BNG-64)', () => {
  it('activates in the game after the fund reaches the amount, grows the limit by one ball per game until won, then resets to 50', () => {
    // The hall chose 500.00; each game sells 1,000 cards at 5.00, so 300.00 goes into the fund per game.
    let s = initialPrimaState(50_000)
    const g1 = play(s, 1000, 500, 30)
    expect(g1.announced).toEqual({ active: false, amountCents: 50_000, ballLimit: 50, fundCents: 0 })
    expect(g1.award).toBeNull() // a bingo at ball 30, but the prima is not on offer yet
    s = g1.state
    expect(s.fundCents).toBe(30_000)

    const g2 = play(s, 1000, 500, 30)
    // 300.00 < 500.00 at the announcement: still not on offer; the fund reaches 600.00 during this game.
    expect(g2.announced.active).toBe(false)
    s = g2.state
    expect(s.fundCents).toBe(60_000)

    // BNG-60: active in the game immediately after; BNG-62: ball 50 first, then 51, 52, ... while not won.
    const g3 = play(s, 1000, 500, 55)
    expect(g3.announced).toEqual({ active: true, amountCents: 50_000, ballLimit: 50, fundCents: 60_000 })
    expect(g3.award).toBeNull()
    s = g3.state
    const g4 = play(s, 1000, 500, 53)
    expect(g4.announced.ballLimit).toBe(51)
    expect(g4.award).toBeNull()
    s = g4.state
    const g5 = play(s, 1000, 500, 60)
    expect(g5.announced.ballLimit).toBe(52)
    s = g5.state
    // Won with ball 53 when the limit is 53; three simultaneous winners split 500.00 with the remainder rule.
    const g6 = play(s, 1000, 500, 53, ['B-00007', 'A-00100', 'A-00002'])
    expect(g6.announced).toMatchObject({ active: true, ballLimit: 53 })
    expect(g6.award).toEqual({
      amountCents: 50_000,
      atBall: 53,
      ballLimit: 53,
      accumulatedGames: 6,
      winners: [
        { serial: 'A-00002', amountCents: 16_667 },
        { serial: 'A-00100', amountCents: 16_667 },
        { serial: 'B-00007', amountCents: 16_666 },
      ],
    })
    s = g6.state
    // BNG-63: continued funding; 6 x 300.00 - 500.00 = 1,300.00 stays for later primas. The limit resets to 50.
    expect(s).toMatchObject({ fundCents: 130_000, ballLimit: 50, cycleGames: 0, unwonGames: 0 })
    // Still at least 500.00 in the fund: the next game offers the prima again, at ball 50.
    const g7 = play(s, 1000, 500, 50)
    expect(g7.announced).toEqual({ active: true, amountCents: 50_000, ballLimit: 50, fundCents: 130_000 })
    expect(g7.award?.accumulatedGames).toBe(1)
  })

  it('raises the limit by exactly one ball per game offered and not won, for any run of games', () =>
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 40 }), (bingoBalls) => {
        let s: PrimaState = { ...initialPrimaState(5_000), fundCents: 5_000 }
        let expected = 50
        for (const atBall of bingoBalls) {
          const { announced, state, award } = play(s, 1000, 100, atBall)
          expect(announced.active).toBe(true) // 6 % of 1,000.00 (60.00) each game keeps the fund above 50.00
          expect(announced.ballLimit).toBe(expected)
          if (atBall <= expected) {
            expect(award?.amountCents).toBe(5_000)
            expected = 50
          } else {
            expect(award).toBeNull()
            expected += 1
          }
          s = state
        }
      }),
    ))

  it('can keep the limit after an award when so configured', () => {
    const keep = { ...R, resetAfterAward: 'keep' as const }
    const s: PrimaState = { ...initialPrimaState(5_000), fundCents: 5_000, ballLimit: 57 }
    const r = settlePrima(s, primaAnnouncement(s), { atBall: 40, winnerSerials: ['A-1'] }, keep)
    expect(r.state.ballLimit).toBe(57)
  })

  it('reverses the deduction of a void game without moving the limit', () => {
    const s = accruePrima(initialPrimaState(5_000), 1_200)
    const r = reversePrima(s, 1_200)
    expect(r).toMatchObject({ fundCents: 0, cycleGames: 0, ballLimit: 50 })
  })

  it('allows another amount only after the one in force was awarded, before the next cycle starts (BNG-61)', () => {
    const amounts = [5_000, 10_000, 50_000]
    let s = initialPrimaState(5_000)
    s = changePrimaAmount(s, 10_000, amounts) // nothing deducted yet
    s = accruePrima(s, 3_000)
    expect(code(() => changePrimaAmount(s, 5_000, amounts))).toBe('ILLEGAL_TRANSITION')
    s = accruePrima(s, 8_000)
    const won = settlePrima(s, primaAnnouncement(s), { atBall: 45, winnerSerials: ['A-1'] })
    expect(won.award?.amountCents).toBe(10_000)
    s = changePrimaAmount(won.state, 50_000, amounts)
    expect(s.amountCents).toBe(50_000)
    expect(code(() => changePrimaAmount(s, 7_500, amounts))).toBe('VALIDATION_FAILED')
    expect(code(() => changePrimaAmount(s, 100_000, amounts))).toBe('VALIDATION_FAILED') // valid, but not the hall's
  })

  it('never creates or loses a cent in a split', () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }).map((units) => units * 5_000),
        fc.uniqueArray(fc.stringMatching(/^[A-Z]-\d{5}$/), { minLength: 1, maxLength: 30 }),
        (amount, serials) => {
          const s: PrimaState = { ...initialPrimaState(amount), fundCents: amount }
          const { award } = settlePrima(s, primaAnnouncement(s), { atBall: 10, winnerSerials: serials })
          expect(award!.winners.reduce((t, w) => t + w.amountCents, 0)).toBe(amount)
          expect(
            Math.max(...award!.winners.map((w) => w.amountCents)) -
              Math.min(...award!.winners.map((w) => w.amountCents)),
          ).toBeLessThanOrEqual(1)
        },
      ),
    ))
})
