import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lotteryPlan, rafflePlan } from '../../../test/helpers/lottery-plans.ts'
import { drawKey, pickFromSorted, shuffleOrder } from '../shared/draw-proof.ts'
import {
  exactWinners,
  formatNumber,
  fractionTicketId,
  isPrm4Exempt,
  lotteryLiabilityCents,
  lotteryPrizesFor,
  lotteryWinningNumbers,
  normalizeLotteryPlan,
  normalizeRafflePlan,
  parseFractionTicketId,
  parseLotteryPlan,
  validateLotteryPlan,
  validateRafflePlan,
  winningTicketCount,
  type LotteryPlanInput,
  type RafflePlanInput,
} from './rules.ts'

const lotteryRules = (input: LotteryPlanInput) =>
  validateLotteryPlan(normalizeLotteryPlan(input)).map((p) => `${p.field}:${p.rule}`)
const raffleRules = (input: RafflePlanInput) =>
  validateRafflePlan(normalizeRafflePlan(input)).map((p) => `${p.field}:${p.rule}`)

describe('lottery plan (LOT-4, LOT-12, LOT-25, CFG-39)', () => {
  it('accepts the sample plan and states the winning tickets (LOT-16 (5))', () => {
    expect(lotteryRules(lotteryPlan())).toEqual([])
    const plan = parseLotteryPlan(lotteryPlan())
    // 2 exact + 2 approximations + 99 three-digit endings + 9,999 one-digit endings, each in 2 series.
    expect(winningTicketCount(plan)).toBe((1 + 1 + 2 + 99 + 9_999) * 2)
  })
  it('refuses an issue over the licensed maximum of tickets (LOT-12)', () => {
    expect(lotteryRules(lotteryPlan({ licensedMaxTickets: 199_999 }))).toContain('series:LOT-12')
  })
  it('refuses prizes and prices that do not divide into equal fractions (LOT-25, LOT-15)', () => {
    expect(lotteryRules(lotteryPlan({ ticketPriceCents: 10_005 }))).toContain('ticketPriceCents:LOT-15')
    const p = lotteryPlan()
    p.prizes[0] = { ...p.prizes[0], amountCents: 100_000_005 }
    expect(lotteryRules(p)).toContain('prizes[0].amountCents:LOT-25')
  })
  it('refuses a prize structure that can cost more than the budget (LOT-4)', () => {
    const p = lotteryPlan({ budgetCents: lotteryLiabilityCents(normalizeLotteryPlan(lotteryPlan())) - 1 })
    expect(lotteryRules(p)).toEqual(['budgetCents:LOT-4'])
  })
  it('refuses derived prizes without an exact source, and endings as long as the number', () => {
    const p = lotteryPlan()
    p.prizes = [...p.prizes, { code: 'X', name: 'x', rule: { type: 'ending', of: 'T1', digits: 5 }, amountCents: 10 }]
    expect(lotteryRules(p)).toEqual(expect.arrayContaining(['prizes[5].rule.of:LOT-4', 'prizes[5].rule.digits:LOT-4']))
  })
  it('LOT-13: a traditional lottery is national: a territory is refused; a popular one may be limited (LOT-28)', () => {
    expect(lotteryRules(lotteryPlan({ territory: 'La Paz' }))).toEqual(['territory:LOT-13'])
    expect(lotteryRules(lotteryPlan({ territory: '  ' }))).toEqual([])
    expect(lotteryRules(lotteryPlan({ kind: 'popular', territory: 'La Paz' }))).toEqual([])
  })
  it('LOT-30: where the profile pays cash prizes only (Cantabria), a prize in goods or in kind is refused', () => {
    const p = lotteryPlan()
    p.prizes = [
      ...p.prizes,
      {
        code: 'M1',
        name: 'Motocicleta',
        rule: { type: 'exact' },
        amountCents: 1_500_000,
        kind: 'goods',
        goods: { description: 'Moto', class: 'movable', invoiceRef: 'F-1' },
        source: 'operator',
      },
    ]
    const whole = { ...p, fractions: 1, ticketPriceCents: 1_000 }
    const rules = (profile?: { prizeKinds: readonly ('cash' | 'goods' | 'in-kind')[] }) =>
      validateLotteryPlan(normalizeLotteryPlan(whole), profile).map((x) => `${x.field}:${x.rule}`)
    expect(rules()).toEqual([])
    expect(rules({ prizeKinds: ['cash', 'goods', 'in-kind'] })).toEqual([])
    expect(rules({ prizeKinds: ['cash'] })).toEqual(['prizes[5].kind:LOT-30'])
    expect(validateLotteryPlan(normalizeLotteryPlan(lotteryPlan()), { prizeKinds: ['cash'] })).toEqual([])
  })
  it('requires the territory of a regional lottery (LOT-28) and 60 claim days (LOT-23)', () => {
    expect(lotteryRules(lotteryPlan({ kind: 'regional' }))).toContain('territory:LOT-28')
    expect(lotteryRules(lotteryPlan({ claimDeadline: '2025-04-29T23:59:59-04:00' }))).toContain('claimDeadline:LOT-23')
  })
})

describe('lottery prizes: exact number, approximations and terminations', () => {
  const plan = normalizeLotteryPlan(lotteryPlan())
  const winning = { P1: 4217, P2: 88_217 }
  const codes = (n: number) => lotteryPrizesFor(plan, winning, n).map((p) => p.code)

  it('pays the exact numbers', () => {
    expect(codes(4217)).toEqual(['P1'])
    // 88217 ends in 217 and 7 like the first prize: it collects those endings too.
    expect(codes(88_217)).toEqual(['P2', 'T3', 'T1'])
  })
  it('pays the approximations ±1 and not ±2, and not the first prize itself', () => {
    expect(codes(4216)).toEqual(['A1'])
    expect(codes(4218)).toEqual(['A1'])
    expect(codes(4215)).toEqual([])
    expect(codes(4219)).toEqual([])
    expect(codes(4227)).toEqual(['T1'])
  })
  it('pays the terminations of three and one digits', () => {
    expect(codes(99_217)).toEqual(['T3', 'T1'])
    expect(codes(217)).toEqual(['T3', 'T1'])
    expect(codes(17)).toEqual(['T1'])
    expect(codes(12_347)).toEqual(['T1'])
    expect(codes(12_348)).toEqual([])
  })
  it('pays an approximation at the edge of the range only inside it', () => {
    const edge = lotteryWinningNumbers(plan, { P1: 0, P2: 5 })
    expect(edge.find((w) => w.number === 1)?.prizes.map((p) => p.code)).toEqual(['A1'])
    expect(edge.some((w) => w.number < 0)).toBe(false)
  })
  it('pays beginnings (comienzo) on the zero-padded number', () => {
    const p = normalizeLotteryPlan(lotteryPlan())
    p.prizes = [
      p.prizes[0],
      { code: 'B2', name: 'Comienzo', rule: { type: 'beginning', of: 'P1', digits: 2 }, amountCents: 1000 },
    ]
    expect(lotteryPrizesFor(p, { P1: 4217 }, 4999).map((x) => x.code)).toEqual(['B2'])
    expect(lotteryPrizesFor(p, { P1: 4217 }, 5000).map((x) => x.code)).toEqual([])
    expect(lotteryPrizesFor(p, { P1: 4217 }, 4000).map((x) => x.code)).toEqual(['B2'])
    expect(lotteryPrizesFor(p, { P1: 4217 }, 400).map((x) => x.code)).toEqual([])
  })
  it('enumerates exactly the numbers the rules give prizes to (property: equals a scan of the whole range)', () => {
    const small = normalizeLotteryPlan(lotteryPlan({ numbering: { from: 37, to: 2_468, digits: 4 } }))
    small.prizes = [
      ...small.prizes,
      { code: 'B1', name: 'Comienzo', rule: { type: 'beginning', of: 'P2', digits: 1 }, amountCents: 10 },
    ]
    fc.assert(
      fc.property(fc.integer({ min: 37, max: 2_468 }), fc.integer({ min: 37, max: 2_468 }), (a, b) => {
        fc.pre(a !== b)
        const w = { P1: a, P2: b }
        const fast = lotteryWinningNumbers(small, w)
        const scan: Array<{ number: number; prizes: unknown[] }> = []
        for (let n = 37; n <= 2_468; n++) {
          const prizes = lotteryPrizesFor(small, w, n)
          if (prizes.length) scan.push({ number: n, prizes })
        }
        expect(fast).toEqual(scan)
      }),
      { numRuns: 60 },
    )
  })
  it('draws the exact numbers as a draw among M tickets: value v is the v-th number of the sorted list', () => {
    const key = drawKey(
      new Uint8Array(32).fill(7),
      'ltr_test',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '',
    )
    const numbering = { from: 0, to: 999, digits: 3 }
    const viaList = pickFromSorted(
      Array.from({ length: 1000 }, (_, i) => formatNumber(i, numbering)),
      key,
      2,
    )
    const w = exactWinners({ prizes: plan.prizes, numbering }, shuffleOrder(key, 1000).slice(0, 2))
    expect([formatNumber(w.P1, numbering), formatNumber(w.P2, numbering)]).toEqual(viaList)
  })
  it('builds and parses fraction ticket ids', () => {
    const id = fractionTicketId('ltr_ab12', 4217, 2, 10, plan.numbering)
    expect(id).toBe('ltr_ab12-04217-02-10')
    expect(parseFractionTicketId(id)).toEqual({
      drawId: 'ltr_ab12',
      number: 4217,
      series: 2,
      fraction: 10,
      numberText: '04217',
    })
  })
})

describe('raffles, tombolas and promotional draws (PRM-1 to PRM-10)', () => {
  it('accepts the sample raffle, exempt from authorisation (PRM-4)', () => {
    expect(raffleRules(rafflePlan())).toEqual([])
    expect(isPrm4Exempt(normalizeRafflePlan(rafflePlan()))).toBe(true)
  })
  it('requires authorisation above 1,500 EUR or when not non-profit (PRM-4)', () => {
    expect(raffleRules(rafflePlan({ nonProfit: false }))).toEqual(['authorisationRef:PRM-4'])
    expect(raffleRules(rafflePlan({ nonProfit: false, authorisationRef: 'CANT-2025-77' }))).toEqual([])
  })
  it('PRM-1 / PRM-2: a raffle or tómbola is drawn among tickets sold only; "issued" is for free promotional draws', () => {
    expect(raffleRules(rafflePlan({ drawAmong: 'issued' }))).toContain('drawAmong:PRM-1')
    expect(raffleRules(rafflePlan({ kind: 'tombola', drawAmong: 'issued' }))).toContain('drawAmong:PRM-1')
    expect(raffleRules(rafflePlan({ drawAmong: 'sold' }))).not.toContain('drawAmong:PRM-1')
    expect(
      raffleRules(
        rafflePlan({
          kind: 'promotional',
          classification: 'promotional',
          ticketPriceCents: 0,
          communicationRef: 'COM-2025-5',
          drawAmong: 'issued',
        }),
      ),
    ).not.toContain('drawAmong:PRM-1')
  })

  it('refuses tickets worth less than the prizes (PRM-3) and cash prizes in a raffle (PRM-1)', () => {
    expect(raffleRules(rafflePlan({ ticketPriceCents: 200 }))).toContain('ticketPriceCents:PRM-3')
    const p = rafflePlan()
    p.prizes[1] = { ...p.prizes[1], kind: 'cash' }
    expect(raffleRules(p)).toContain('prizes[1].kind:PRM-1')
  })
  it("PRM-10: a cash prize of a promotional draw is deposited in a bank, with the bank's slip; PRM-11: never an expired promotion prize", () => {
    const promo = {
      kind: 'promotional' as const,
      classification: 'promotional' as const,
      ticketPriceCents: 0,
      communicationRef: 'COM-2025-5',
    }
    const p = rafflePlan(promo)
    p.prizes = [{ ...p.prizes[0], kind: 'cash', valueCents: 50_000, depositPlace: 'Banco Santander' }]
    expect(raffleRules(p)).toEqual(['prizes[0].bankDepositRef:PRM-10'])
    p.prizes = [{ ...p.prizes[0], bankDepositRef: 'Santander, resguardo 2025-0417' }]
    expect(raffleRules(p)).toEqual([])
    p.prizes = [{ ...p.prizes[0], source: 'expired-promotion' }]
    expect(raffleRules(p)).toEqual(['prizes[0].source:PRM-11'])
  })
  it('refuses prizes not deposited before sales start (PRM-6)', () => {
    const p = rafflePlan()
    p.prizes[0] = { ...p.prizes[0], depositedAt: '2025-06-02T10:00:00+02:00' }
    expect(raffleRules(p)).toEqual(['prizes[0].depositedAt:PRM-6'])
  })
  it('requires a free promotional draw with its prior communication (PRM-7, PRM-8)', () => {
    expect(raffleRules(rafflePlan({ kind: 'promotional', classification: 'promotional' }))).toEqual(
      expect.arrayContaining(['ticketPriceCents:PRM-8', 'communicationRef:PRM-8']),
    )
    expect(
      raffleRules(
        rafflePlan({
          kind: 'promotional',
          classification: 'promotional',
          ticketPriceCents: 0,
          communicationRef: 'COM-2025-5',
        }),
      ),
    ).toEqual([])
  })
})

describe('LOT-4: prizes by progression', () => {
  const base = (step: number, numbering = { from: 0, to: 99_999, digits: 5 }) =>
    normalizeLotteryPlan(
      lotteryPlan({
        numbering,
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1_000_000,
        prizes: [
          { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 },
          { code: 'G', name: 'Progresión', rule: { type: 'progression', of: 'P1', step }, amountCents: 10_000 },
        ],
      }),
    )
  it('wins exactly the numbers a whole number of steps from the first prize, never the first prize itself, inside the range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: 2, max: 400 }),
        fc.integer({ min: 1, max: 999 }),
        (from, step, width) => {
          const numbering = { from, to: from + width, digits: 4 }
          const plan = base(step, numbering)
          const s = from + ((step * 7 + width) % (width + 1))
          const got = lotteryWinningNumbers(plan, { P1: s })
            .filter((w) => w.prizes.some((p) => p.code === 'G'))
            .map((w) => w.number)
          const expected: number[] = []
          for (let n = numbering.from; n <= numbering.to; n++)
            if (n !== s && Math.abs(n - s) % step === 0) expected.push(n)
          expect(got).toEqual(expected)
          // The budget's worst case is never exceeded.
          expect(got.length).toBeLessThanOrEqual(Math.floor(width / step))
        },
      ),
    )
  })
  it('refuses a step that reaches no other number, or of 1 (every number)', () => {
    const p = (step: number) =>
      validateLotteryPlan(base(step, { from: 0, to: 99, digits: 2 })).map((x) => `${x.field}:${x.rule}`)
    expect(p(100)).toContain('prizes[1].rule.step:LOT-4')
    expect(p(1)).toContain('prizes[1].rule.step:LOT-4')
    expect(p(10)).toEqual([])
  })
})

describe('LOT-22: prizes in goods', () => {
  const goodsPlan = (goods: Record<string, unknown> | null, over: Partial<LotteryPlanInput> = {}) =>
    lotteryRules(
      lotteryPlan({
        series: 1,
        fractions: 1,
        numbering: { from: 0, to: 99, digits: 2 },
        licensedMaxTickets: 1000,
        prizes: [
          {
            code: 'P1',
            name: 'Primer Premio',
            rule: { type: 'exact' },
            amountCents: 1_000_000,
            kind: 'goods',
            goods: goods as any,
            source: 'operator',
          },
        ],
        ...over,
      }),
    )
  it('accepts goods backed by an invoice, and a registrable good by a commitment with the supplier certificate', () => {
    expect(goodsPlan({ description: 'Refrigerador', class: 'movable', invoiceRef: 'Factura 4411' })).toEqual([])
    expect(
      goodsPlan({
        description: 'Automóvil',
        class: 'registrable',
        commitmentRef: 'Compromiso 1',
        supplierCertificateRef: 'Cert. 2',
      }),
    ).toEqual([])
  })
  it('refuses real estate, goods with no backing or description, and goods split into fractions', () => {
    expect(goodsPlan({ description: 'Casa', class: 'real-estate', invoiceRef: 'F-1' })).toEqual([
      'prizes[0].goods.class:LOT-22',
    ])
    expect(goodsPlan({ description: 'Automóvil', class: 'registrable', commitmentRef: 'Compromiso 1' })).toEqual([
      'prizes[0].goods.invoiceRef:LOT-22',
    ])
    expect(goodsPlan(null)).toEqual(['prizes[0].goods:LOT-22'])
    expect(
      goodsPlan(
        { description: 'Refrigerador', class: 'movable', invoiceRef: 'F' },
        { fractions: 2, ticketPriceCents: 10_000 },
      ),
    ).toEqual(['prizes[0].kind:LOT-25'])
  })
  it('a number that wins a prize in goods is owed the goods, not their value in cash', () => {
    const plan = normalizeLotteryPlan(
      lotteryPlan({
        series: 1,
        fractions: 1,
        prizes: [
          {
            code: 'P1',
            name: 'Auto',
            rule: { type: 'exact' },
            amountCents: 1_000_000,
            kind: 'goods',
            goods: { description: 'Automóvil', class: 'movable', invoiceRef: 'F-9' },
            source: 'operator',
          },
        ],
      }),
    )
    expect(lotteryPrizesFor(plan, { P1: 5 }, 5)).toEqual([
      { code: 'P1', name: 'Auto', amountCents: 0, goods: 'Automóvil' },
    ])
  })
})
