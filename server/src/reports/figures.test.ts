import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildReport, payoutBp, planBpOf, PRODUCTS, type Figure } from './figures.ts'

const figure = (over: Partial<Figure>): Figure => ({
  product: 'bingo',
  day: '2026-11-20',
  gameKey: 'g1',
  label: 'Sala',
  gameNo: 1,
  currency: 'BOB',
  salesCents: 0,
  prizesCents: 0,
  planBp: null,
  ...over,
})

describe('sales and prizes report figures (issue 17 point 2)', () => {
  it("reads each plan's prize share: bingo line + bingo (BNG-56), the lotto prize pool (LOT-5), an instant design's fund (INS-1)", () => {
    expect(planBpOf('bingo', '6100')).toBe(6100)
    expect(planBpOf('lotto', JSON.stringify({ prizePoolBp: 5000 }))).toBe(5000)
    expect(
      planBpOf(
        'instant',
        JSON.stringify({
          ticketCount: 1000,
          priceCents: 100,
          tiers: [
            { amountCents: 1000, count: 30 },
            { amountCents: 200, count: 100 },
          ],
        }),
      ),
    ).toBe(5000)
    expect(planBpOf('lottery', '{"prizes":[]}')).toBeNull()
    expect(planBpOf('lotto', 'not json')).toBeNull()
  })

  it("adds sales and prizes by product, day and game, with the plan weighted by each game's sales", () => {
    const r = buildReport(
      [
        figure({ gameKey: 'g1', salesCents: 30_000, planBp: 6100 }),
        figure({ gameKey: 'g1', prizesCents: 18_300, planBp: 6100 }),
        figure({ gameKey: 'g2', gameNo: 2, day: '2026-11-21', salesCents: 10_000, prizesCents: 7_000, planBp: 7000 }),
        figure({ product: 'lotto', gameKey: 'd1', label: 'LOTO649', gameNo: 101, salesCents: 10_000, planBp: 5000 }),
      ],
      { from: '2026-11-20', to: '2026-11-21' },
    )
    expect(r.products).toEqual([
      { product: 'bingo', salesCents: 40_000, prizesCents: 25_300, payoutBp: 6325, planBp: 6325 },
      { product: 'lotto', salesCents: 10_000, prizesCents: 0, payoutBp: 0, planBp: 5000 },
    ])
    expect(r.days.map((d) => [d.day, d.salesCents, d.byProduct.lotto.salesCents])).toEqual([
      ['2026-11-20', 40_000, 10_000],
      ['2026-11-21', 10_000, 0],
    ])
    expect(r.games.map((g) => [g.product, g.gameNo, g.payoutBp])).toEqual([
      ['bingo', 1, 6100],
      ['lotto', 101, 0],
      ['bingo', 2, 7000],
    ])
    expect(payoutBp(1, 0)).toBeNull()
  })

  it('never adds money of two currencies: one report, one currency (the one with most money unless asked)', () => {
    const figures = [figure({ salesCents: 100 }), figure({ currency: 'EUR', gameKey: 'e', salesCents: 50 })]
    expect(buildReport(figures, { from: 'a', to: 'b' })).toMatchObject({
      currency: 'BOB',
      currencies: ['BOB', 'EUR'],
      totals: { salesCents: 100 },
    })
    expect(buildReport(figures, { from: 'a', to: 'b', currency: 'EUR' }).totals.salesCents).toBe(50)
  })

  it("property: totals by product, by day and by game all add up to the report's totals", () => {
    const arb = fc.array(
      fc.record({
        product: fc.constantFrom(...PRODUCTS),
        day: fc.constantFrom('2026-11-01', '2026-11-02', '2026-11-03'),
        gameKey: fc.constantFrom('a', 'b', 'c'),
        label: fc.constant('x'),
        gameNo: fc.option(fc.nat(20), { nil: null }),
        currency: fc.constant('BOB'),
        salesCents: fc.nat(1_000_000),
        prizesCents: fc.nat(1_000_000),
        planBp: fc.option(fc.nat(10_000), { nil: null }),
      }),
      { maxLength: 40 },
    )
    fc.assert(
      fc.property(arb, (figures) => {
        const r = buildReport(figures, { from: '2026-11-01', to: '2026-11-03' })
        const sum = (xs: Array<{ salesCents: number; prizesCents: number }>) =>
          xs.reduce((s, x) => [s[0] + x.salesCents, s[1] + x.prizesCents], [0, 0])
        const total = [r.totals.salesCents, r.totals.prizesCents]
        expect(sum(figures)).toEqual(total)
        expect(sum(r.products)).toEqual(total)
        expect(sum(r.days)).toEqual(total)
        expect(sum(r.games)).toEqual(total)
        for (const d of r.days) expect(sum(Object.values(d.byProduct))).toEqual([d.salesCents, d.prizesCents])
        for (const p of r.products) if (p.planBp !== null) expect(p.planBp).toBeGreaterThanOrEqual(0)
      }),
    )
  })

  it("gives each drawer its float, in, out, expected, count and difference, in the report's currency only", () => {
    const shift = {
      station: 'Caja 1',
      cashier: 'Rosa',
      currency: 'BOB',
      open: false,
      openedAt: '2026-11-20T12:00:00Z',
      closedAt: '2026-11-20T20:00:00Z',
      floatCents: 50_000,
      inCents: 40_000,
      outCents: 5_000,
      expectedCents: 85_000,
      countedCents: 84_950,
      differenceCents: -50,
    }
    const r = buildReport([figure({ salesCents: 1 })], { from: '2026-11-20', to: '2026-11-20' }, [
      shift,
      {
        ...shift,
        station: 'Mesa 1',
        open: true,
        closedAt: null,
        inCents: 10_000,
        outCents: 2_500,
        expectedCents: null,
        countedCents: null,
        differenceCents: null,
      },
      { ...shift, station: 'Caja EUR', currency: 'EUR' },
    ])
    expect(
      r.drawers.map((d) => [
        d.station,
        d.floatCents,
        d.inCents,
        d.outCents,
        d.expectedCents,
        d.countedCents,
        d.differenceCents,
      ]),
    ).toEqual([
      ['Caja 1', 50_000, 40_000, 5_000, 85_000, 84_950, -50],
      // An open shift: what its movements say now, nothing counted yet.
      ['Mesa 1', 50_000, 10_000, 2_500, 57_500, null, null],
    ])
  })
})
