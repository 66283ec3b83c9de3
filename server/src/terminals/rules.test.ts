import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  effectiveTerms,
  missingFor,
  rankCards,
  reservedFrom,
  secondsUntilNextGame,
  spendVerdict,
  termsProblem,
  termsProblemFor,
} from './rules.ts'
import { BOLIVIA_2025, CANTABRIA_2010, type ElectronicBingoRules } from '../shared/profile.ts'
import { prizePools, splitPrize } from '../bingo/game.ts'

/** Issue 27: the pure rules of hall terminals, as properties (BNG-101, BNG-9, BNG-56). */
describe('terminal rules (issue 27)', () => {
  const terms = fc.record({
    maxCardCents: fc.integer({ min: 1, max: 2_000 }),
    maxGameCents: fc.integer({ min: 1, max: 50_000 }),
    maxSessionCents: fc.integer({ min: 1, max: 200_000 }),
  })

  it('never lets a sequence of purchases spend beyond the balance or any cap (per card, game, session)', () => {
    fc.assert(
      fc.property(
        terms,
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(
          fc.record({
            game: fc.integer({ min: 0, max: 3 }),
            face: fc.integer({ min: 1, max: 1_500 }),
            count: fc.integer({ min: 0, max: 30 }),
          }),
          { maxLength: 40 },
        ),
        (t, opening, buys) => {
          let balance = opening
          let session = 0
          const perGame = new Map<number, number>()
          for (const b of buys) {
            const v = spendVerdict({
              balanceCents: balance,
              faceValueCents: b.face,
              count: b.count,
              spentInGameCents: perGame.get(b.game) ?? 0,
              spentInSessionCents: session,
              terms: t,
            })
            if (!v.ok) {
              // The refusal says how many cards would have fitted, and that many do.
              if (v.maxCards > 0 && b.face <= t.maxCardCents)
                expect(
                  spendVerdict({
                    balanceCents: balance,
                    faceValueCents: b.face,
                    count: v.maxCards,
                    spentInGameCents: perGame.get(b.game) ?? 0,
                    spentInSessionCents: session,
                    terms: t,
                  }).ok,
                ).toBe(true)
              continue
            }
            expect(v.costCents).toBe(b.face * b.count)
            balance -= v.costCents
            session += v.costCents
            perGame.set(b.game, (perGame.get(b.game) ?? 0) + v.costCents)
            expect(b.face).toBeLessThanOrEqual(t.maxCardCents)
          }
          expect(balance).toBeGreaterThanOrEqual(0)
          expect(session).toBeLessThanOrEqual(t.maxSessionCents)
          for (const spent of perGame.values()) expect(spent).toBeLessThanOrEqual(t.maxGameCents)
          expect(opening - balance).toBe(session)
        },
      ),
    )
  })

  it('reserves the top share of a series for terminals and leaves paper at least one card', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100_000 }), fc.integer({ min: 1, max: 99 }), (count, pct) => {
        const from = reservedFrom(count, pct)
        expect(from).toBeGreaterThanOrEqual(2)
        expect(from).toBeLessThanOrEqual(count + 1)
        expect(count - from + 1).toBe(Math.floor((count * pct) / 100))
      }),
    )
  })

  it('pools depend on the cards sold, not on where they were sold, and a split of paper and virtual winners keeps every centavo', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        (paper, virtual, face, winnersVirtual) => {
          const pools = prizePools(paper + virtual, face, 1000, 5100)
          expect(pools).toEqual(prizePools(virtual + paper, face, 1000, 5100))
          const winners = winnersVirtual.map((v, i) => ({
            serial: `${v ? 'T' : 'P'}${String(i).padStart(4, '0')}`,
            cardId: `${v ? 'virtual' : 'paper'}-${i}`,
            atBall: 40,
          }))
          const split = splitPrize(pools.bingoCents, winners)
          expect(split.reduce((s, w) => s + w.amountCents, 0)).toBe(pools.bingoCents)
          const amounts = split.map((w) => w.amountCents)
          expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1)
        },
      ),
    )
  })

  it('ranks the card closest to its prize first, with the numbers it still needs', () => {
    const a = {
      rows: [
        [1, 2, 3, 4, 5],
        [10, 11, 12, 13, 14],
        [20, 21, 22, 23, 24],
      ],
    }
    const b = {
      rows: [
        [6, 7, 8, 9, 30],
        [31, 32, 33, 34, 35],
        [40, 41, 42, 43, 44],
      ],
    }
    const called = new Set([6, 7, 8, 9, 1])
    const ranked = rankCards([a, b], called, false)
    expect(ranked[0].card).toBe(b)
    expect(ranked[0].missing).toEqual([30])
    expect(missingFor(a.rows, called, 'bingo')).toHaveLength(14)
    expect(rankCards([a, b], called, true)[0].target).toBe('bingo')
  })

  it('refuses terms whose caps are out of order or whose reserved range is empty', () => {
    const ok = {
      markingMode: 'automatic' as const,
      maxCardCents: 600,
      maxGameCents: 20_000,
      maxSessionCents: 100_000,
      minGameSeconds: 180,
      prizeReturnBp: { min: 7000, max: 8500 },
      terminalRangePercent: 30,
    }
    expect(termsProblem(ok)).toBeNull()
    expect(termsProblem({ ...ok, maxGameCents: 500 })).toBe('maxGameCents')
    expect(termsProblem({ ...ok, terminalRangePercent: 0 })).toBe('terminalRangePercent')
    expect(termsProblem({ ...ok, prizeReturnBp: { min: 9000, max: 8000 } })).toBe('prizeReturnBp')
  })
})

describe('secondsUntilNextGame (BNG-101, CFG-33: minimum game duration)', () => {
  const start = '2026-03-10T20:00:00.000Z'
  it('holds the next game with virtual cards until the minimum has passed since the previous one started', () => {
    expect(secondsUntilNextGame(start, '2026-03-10T20:00:00.000Z', 180)).toBe(180)
    expect(secondsUntilNextGame(start, '2026-03-10T20:02:59.001Z', 180)).toBe(1)
    expect(secondsUntilNextGame(start, '2026-03-10T20:03:00.000Z', 180)).toBe(0)
    expect(secondsUntilNextGame(start, '2026-03-10T21:00:00.000Z', 180)).toBe(0)
  })
  it('never holds the first game, nor any game when the terms set no minimum', () => {
    expect(secondsUntilNextGame(null, start, 180)).toBe(0)
    expect(secondsUntilNextGame(start, start, 0)).toBe(0)
  })
})

describe("a terminal's disconnection, per jurisdiction (issue 27, BNG-101)", () => {
  const base = {
    markingMode: 'automatic' as const,
    maxCardCents: 600,
    maxGameCents: 20_000,
    maxSessionCents: 100_000,
    minGameSeconds: 180,
    prizeReturnBp: { min: 7000, max: 8500 },
    terminalRangePercent: 30,
  }
  const reference = 'Resolución de la Consejería 12/2026'

  it("Cantabria leaves it to the Consejería (004 Bingo VI.2): the hall's record must state it, under the reference", () => {
    const rules = CANTABRIA_2010.electronicBingo
    expect(rules.disconnection.mode).toBeNull()
    expect(rules.disconnection.source).toContain('004 Bingo VI.2')
    expect(rules.disconnection.source).toContain('operativa de este juego')
    expect(termsProblemFor(rules, base)).toBe('onDisconnect')
    expect(effectiveTerms(rules, { reference, terms: base })).toEqual({ refused: 'terms_missing' })
    const stated = { ...base, onDisconnect: 'play-on-credit' as const }
    expect(termsProblemFor(rules, stated)).toBeNull()
    expect(effectiveTerms(rules, { reference, terms: stated })).toEqual({ terms: stated, reference })
    // Stated, but with no reference of the authority: no terms at all.
    expect(effectiveTerms(rules, { reference: '  ', terms: stated })).toEqual({ refused: 'terms_missing' })
  })

  it('Bolivia leaves it to the AJ the same way; a mode no text knows is refused', () => {
    expect(BOLIVIA_2025.electronicBingo.disconnection.mode).toBeNull()
    expect(termsProblemFor(BOLIVIA_2025.electronicBingo, base)).toBe('onDisconnect')
    expect(termsProblem({ ...base, onDisconnect: 'void-cards' as never })).toBe('onDisconnect')
  })

  it("where a text fixes the rule, it applies whatever a hall's record says, and the record need not state it", () => {
    const fixed: ElectronicBingoRules = {
      allowed: true,
      authority: null,
      autoClaim: false,
      terms: base,
      disconnection: { mode: 'play-on-credit', source: 'a text that says so' },
    }
    expect(termsProblemFor(fixed, base)).toBeNull()
    expect(effectiveTerms(fixed, null)).toEqual({ terms: { ...base, onDisconnect: 'play-on-credit' }, reference: null })
  })
})
