import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import { addDays, calendarDay, charityDueBy, isClaimExpired } from '../shared/lottery-common.ts'
import {
  matchProbability,
  normalizeLottoPlan,
  parseLottoPlan,
  validateLottoPlan,
  type LottoPlanInput,
  type LottoPrize,
} from './plan.ts'
import { plan649 } from '../../../test/helpers/lottery-plans.ts'

const problemsOf = (input: LottoPlanInput) => validateLottoPlan(normalizeLottoPlan(input))
const rulesOf = (input: LottoPlanInput) => problemsOf(input).map((p) => `${p.field}:${p.rule}`)

describe('lotto plan validation (LOT-5, §7.7, CFG-41)', () => {
  it('accepts a complete 6-of-49 plan and fills the defaults', () => {
    expect(problemsOf(plan649())).toEqual([])
    const p = parseLottoPlan(plan649())
    expect(p.drawCount).toBe(6)
    expect(p.unwonShares).toBe('rollover')
    expect(p.securityWarnings.length).toBeGreaterThan(0)
  })

  it('refuses to let the player select as many numbers as the range (LOT-5, LNS-1)', () => {
    expect(rulesOf(plan649({ picks: 49 }))).toContain('picks:LOT-5')
    expect(rulesOf(plan649({ picks: 50 }))).toContain('picks:LOT-5')
  })

  it('refuses drawing every ball loaded, or fewer than the player selects (LNS-1)', () => {
    expect(rulesOf(plan649({ drawCount: 49 }))).toContain('drawCount:LNS-1')
    expect(rulesOf(plan649({ drawCount: 5 }))).toContain('drawCount:LNS-1')
  })

  it('refuses pari-mutuel shares over 100 % of the pool', () => {
    const p = plan649()
    p.categories = p.categories.map((c) => (c.code === 'C4' ? { ...c, prize: { type: 'share', bp: 1600 } } : c))
    const problems = problemsOf(p)
    expect(problems.map((x) => x.field)).toContain('categories')
    expect(problems.find((x) => x.field === 'categories')?.message).toMatch(/101\.00 %/)
  })

  it('refuses a claim period under 60 calendar days from the draw date (LOT-23)', () => {
    const problems = problemsOf(plan649({ claimDeadline: '2025-05-06T23:59:59-04:00' }))
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'claimDeadline',
        rule: 'LOT-23',
        message: expect.stringMatching(/59 calendar days/),
      }),
    ])
    // LOT-23: 60 FULL days: 00:00 of the 60th day is not enough, its last second is.
    expect(problemsOf(plan649({ claimDeadline: '2025-05-07T00:00:00-04:00' })).map((x) => x.rule)).toEqual(['LOT-23'])
    expect(problemsOf(plan649({ claimDeadline: '2025-05-07T23:59:59-04:00' }))).toEqual([])
  })

  it('refuses a draw before the start of sales, and sales closing after the draw (LOT-4, LNS-13)', () => {
    expect(
      rulesOf(plan649({ drawAt: '2025-02-28T20:00:00-04:00', salesCloseAt: '2025-02-28T19:00:00-04:00' })),
    ).toEqual(expect.arrayContaining(['drawAt:LOT-4', 'salesCloseAt:LOT-4']))
    expect(rulesOf(plan649({ salesCloseAt: '2025-03-08T20:30:00-04:00' }))).toContain('salesCloseAt:LNS-13')
  })

  it('refuses fixed prizes over the budget, for one winner and for the expected winners', () => {
    expect(rulesOf(plan649({ budgetCents: 999 }))).toContain('budgetCents:LOT-5')
    // 1,000,000 plays x P(3 of 6) ~ 17,650 winners x Bs 10 = Bs 176,504 > Bs 50,000.
    const problems = problemsOf(plan649({ expectedPlays: 1_000_000 }))
    expect(problems).toEqual([
      expect.objectContaining({ field: 'budgetCents', message: expect.stringMatching(/expected to cost 17650\d\d\d/) }),
    ])
    expect(problemsOf(plan649({ expectedPlays: 200_000 }))).toEqual([])
  })

  it('refuses two categories for the same number of matches, and impossible matches (LNS-16, LNS-18)', () => {
    const p = plan649()
    p.categories = [
      ...p.categories,
      { code: 'X', name: 'Doble', matches: 3, prize: { type: 'fixed', amountCents: 10 } },
      { code: 'Y', name: 'Siete', matches: 7, prize: { type: 'fixed', amountCents: 10 } },
    ]
    expect(rulesOf(p)).toEqual(expect.arrayContaining(['categories[4].matches:LNS-18', 'categories[5].matches:LNS-16']))
  })

  it('refuses real estate as a goods prize by its declared class, not by the words of its description, and requires its backing (LOT-22, LNS-23)', () => {
    const withGoods = (prize: LottoPrize) => {
      const p = plan649()
      p.categories = [...p.categories.slice(0, 3), { code: 'C3', name: 'Premio en bienes', matches: 3, prize }]
      return rulesOf(p)
    }
    const goods = { type: 'goods', unitValueCents: 100, source: 'operator' } as const
    // 002 §7.3.10: "no podrán ofertarse premios consistentes en bienes inmuebles", whatever the good is called.
    expect(
      withGoods({ ...goods, description: 'Lote en Quillacollo', class: 'real-estate', invoiceRef: 'F-9' }),
    ).toContain('categories[3].prize.class:LOT-22')
    expect(withGoods({ ...goods, description: 'Casa en Cochabamba', class: 'movable', invoiceRef: '' })).toContain(
      'categories[3].prize.invoiceRef:LOT-22',
    )
    // A movable good whose name has "casa" in it is a good like any other (the old word list refused it).
    expect(
      withGoods({ ...goods, description: 'Casa de muñecas', class: 'movable', invoiceRef: 'F-10' }).filter((r) =>
        r.startsWith('categories[3]'),
      ),
    ).toEqual([])
    // A registrable good (a motorcycle) may be backed by the commitment document and the supplier's certificate.
    const moto = { ...goods, description: 'Motocicleta 150 cc', class: 'registrable' } as const
    expect(withGoods(moto)).toContain('categories[3].prize.invoiceRef:LOT-22')
    expect(
      withGoods({ ...moto, commitmentRef: 'DC-2026-14', supplierCertificateRef: 'CERT-881' }).filter((r) =>
        r.startsWith('categories[3]'),
      ),
    ).toEqual([])
    // PRM-11: no prize from expired prizes of business promotions.
    expect(
      withGoods({
        ...goods,
        description: 'Televisor',
        class: 'movable',
        invoiceRef: 'F-11',
        source: 'expired-promotion',
      }),
    ).toContain('categories[3].prize.source:LOT-22')
  })

  it('PRM-11 / LNS-23: a goods prize states who provides it, and an expired business-promotion prize is refused', () => {
    const goods = (source?: 'operator' | 'sponsor' | 'expired-promotion') => {
      const p = plan649()
      p.categories = [
        ...p.categories.slice(0, 3),
        {
          code: 'C3',
          name: 'Moto',
          matches: 3,
          prize: {
            type: 'goods',
            description: 'Motocicleta 125 cc',
            unitValueCents: 900_000,
            class: 'registrable',
            invoiceRef: 'F-77',
            source,
          },
        },
      ]
      return rulesOf(p)
    }
    expect(goods()).toContain('categories[3].prize.source:PRM-11')
    expect(goods('expired-promotion')).toContain('categories[3].prize.source:PRM-11')
    expect(goods('sponsor')).not.toContain('categories[3].prize.source:PRM-11')
    expect(goods('operator')).toEqual([])
  })

  it('refuses a range outside the licence (LNS-12) and a manual draw without its device (LNS-8)', () => {
    expect(rulesOf(plan649({ licensedRange: { min: 20, max: 45 } }))).toContain('range:LNS-12')
    expect(rulesOf(plan649({ drawMethod: 'manual' }))).toContain('drawDevice:LNS-8')
  })

  it('lists every problem at once and throws them in details', () => {
    const input = plan649({
      picks: 60,
      priceCents: 0,
      operator: '',
      staff: { authority: '', director: 'D', moderator: 'M', notary: 'N' },
    })
    try {
      parseLottoPlan(input)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError)
      const err = e as DomainError
      expect(err.code).toBe('VALIDATION_FAILED')
      const fields = (err.details as { problems: Array<{ field: string }> }).problems.map((p) => p.field)
      expect(fields).toEqual(expect.arrayContaining(['operator', 'priceCents', 'picks', 'staff.authority']))
    }
  })

  it('computes hypergeometric match probabilities', () => {
    expect(matchProbability(49, 6, 6, 6)).toBeCloseTo(1 / 13_983_816, 12)
    expect(matchProbability(49, 6, 6, 3)).toBeCloseTo(0.017650404, 8)
  })
})

describe('claim period dates (LOT-23, LOT-24)', () => {
  it('counts calendar days on the dates as written, and adds days keeping the offset', () => {
    expect(calendarDay('2025-05-07T23:59:59-04:00') - calendarDay('2025-03-08T20:00:00-04:00')).toBe(60)
    expect(addDays('2025-12-25T10:00:00-04:00', 10)).toBe('2026-01-04T10:00:00-04:00')
    expect(charityDueBy('2025-05-07T23:59:59-04:00')).toBe('2025-05-17T23:59:59-04:00')
  })
  it('expires after the deadline, not at it', () => {
    expect(isClaimExpired('2025-05-07T23:59:59-04:00', '2025-05-08T03:59:59.000Z')).toBe(false)
    expect(isClaimExpired('2025-05-07T23:59:59-04:00', '2025-05-08T04:00:00.000Z')).toBe(true)
  })
})
