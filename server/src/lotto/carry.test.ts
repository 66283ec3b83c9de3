import { describe, expect, it } from 'vitest'
import { normalizeLottoPlan, unreceivedCarryCodes, validateLottoPlan, type LottoCategory } from './plan.ts'
import { placeCarry, settleLotto } from './rules.ts'
import { plan649 } from '../../../test/helpers/lottery-plans.ts'

const share = (code: string, bp = 10_000): LottoCategory => ({
  code,
  name: `Categoría ${code}`,
  matches: 6,
  prize: { type: 'share', bp },
})

describe('LNS-4: rolled-over money follows its category or the explicit carryMap, never lost silently', () => {
  it('LNS-4: a next plan without the old code and without a map cannot receive it; keeping the code or mapping it can', () => {
    const previous = normalizeLottoPlan(plan649({ categories: [share('MAYOR')] }))
    expect(unreceivedCarryCodes(previous, { categories: [share('ORO')] })).toEqual(['MAYOR'])
    expect(unreceivedCarryCodes(previous, { categories: [share('ORO')], carryMap: { MAYOR: 'ORO' } })).toEqual([])
    expect(unreceivedCarryCodes(previous, { categories: [share('MAYOR')] })).toEqual([])
    // A fixed category of the same code cannot take pari-mutuel money.
    expect(
      unreceivedCarryCodes(previous, {
        categories: [
          { code: 'MAYOR', name: 'Fijo', matches: 6, prize: { type: 'fixed', amountCents: 100 } },
          share('ORO'),
        ],
      }),
    ).toEqual(['MAYOR'])
    // A previous plan that leaves unwon shares to the operator rolls nothing over.
    expect(unreceivedCarryCodes({ ...previous, unwonShares: 'operator' }, { categories: [share('ORO')] })).toEqual([])
  })

  it('LNS-4: a carryMap must point at a pari-mutuel category of the plan', () => {
    const problems = validateLottoPlan(normalizeLottoPlan(plan649({ carryMap: { MAYOR: 'C3' } })))
    expect(problems.map((p) => `${p.field}:${p.rule}`)).toEqual(['carryMap.MAYOR:LNS-4'])
  })

  it('LNS-4: placeCarry moves mapped money, keeps same-code money, and returns what it cannot place instead of dropping it', () => {
    const placed = placeCarry(
      { MAYOR: 700, ORO: 50, PLATA: 30 },
      { categories: [share('ORO')], carryMap: { MAYOR: 'ORO' } },
    )
    expect(placed.carryIn).toEqual({ ORO: 750 })
    expect(placed.moves).toEqual([
      { from: 'MAYOR', to: 'ORO', cents: 700 },
      { from: 'ORO', to: 'ORO', cents: 50 },
    ])
    expect(placed.unplaced).toEqual([{ code: 'PLATA', cents: 30 }])
    // Conservation: what was carried out is placed or reported, to the centavo.
    const s = settleLotto({
      plan: { categories: [share('ORO')], prizePoolBp: 5000, unwonShares: 'rollover', picks: 6 },
      salesCents: 1000,
      carryInCents: placed.carryIn,
      matches: Uint8Array.from([6]),
    })
    expect(s.categories[0]).toMatchObject({ carryInCents: 750, totalCents: 500 + 750 })
  })
})
