import { describe, expect, it } from 'vitest'
import type { JournalRecord } from '../shared/journal-chain.ts'
import { minutesFromJournal } from './minutes.ts'
import { FIGURES, FIGURE_NAMES, figureKind } from './patterns.ts'

/** A session's journal, as the minutes read it: only seq, at, type and payload matter to them. */
function journal(entries: Array<{ type: string; payload: Record<string, unknown> }>): JournalRecord[] {
  return entries.map((e, i) => ({
    seq: i + 1,
    at: new Date(Date.UTC(2026, 10, 23, 20, 0, i)).toISOString(),
    type: e.type,
    scope: 'hall:h1/session:s1',
    payload: e.payload,
    prevHash: '0'.repeat(64),
    hash: String(i + 1).padStart(64, '0'),
  })) as unknown as JournalRecord[]
}

const opened = {
  type: 'session.opened',
  payload: { sessionId: 's1', hallId: 'h1', hallName: 'Sala Sajama', profileId: 'BO-2025', recount: null },
}

/** Deterministic pseudo-random amounts (an LCG), so the test is the same on every run. */
function lcg(seed: number): () => number {
  let x = seed
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648
}

describe('session minutes: each prize on the line of what it is (BNG-73 (6)-(8), CFG-13)', () => {
  it('a paid figure prize is counted under figures with its Spanish name, never under the pots', () => {
    const m = minutesFromJournal(
      journal([
        opened,
        { type: 'game.announced', payload: { gameId: 'g1', orderNo: 1, faceValueCents: 500, commitment: 'c' } },
        {
          type: 'sales.closed',
          payload: {
            gameId: 'g1',
            ranges: [{ series: 'A', from: 1, to: 10 }],
            cardsSold: 10,
            totalCents: 5000,
            linePoolCents: 500,
            bingoPoolCents: 2300,
            figurePools: [{ figure: 'four-corners', poolCents: 250 }],
            salesDigest: 'd',
          },
        },
        {
          type: 'prize.awarded',
          payload: {
            gameId: 'g1',
            kind: 'figure:four-corners',
            winners: [{ serial: 'A-0001', amountCents: 250, atBall: 4 }],
          },
        },
        { type: 'prize.paid', payload: { gameId: 'g1', kind: 'figure:four-corners', amountCents: 250 } },
        { type: 'prize.paid', payload: { gameId: 'g1', kind: 'line', amountCents: 500 } },
        { type: 'prize.paid', payload: { gameId: 'g1', kind: 'bingo', amountCents: 2300 } },
      ]),
    )
    const g = m.games[0]
    expect(g.jackpotsPaidCents).toBe(0)
    expect(g.figuresPaidCents).toBe(250)
    expect(g.figures).toEqual([{ figure: 'four-corners', name: 'Cuatro esquinas', poolCents: 250, paidCents: 250 }])
    expect(g.winners).toEqual([{ kind: 'figure:four-corners', serial: 'A-0001', amountCents: 250, atBall: 4 }])
    expect(m.totals).toMatchObject({
      prizesPaidCents: 3050,
      linePaidCents: 500,
      bingoPaidCents: 2300,
      figuresPaidCents: 250,
      jackpotsPaidCents: 0,
      figures: [{ figure: 'four-corners', name: 'Cuatro esquinas', paidCents: 250 }],
    })
  })

  it('totals paid = line + bingo + figures + bonus prizes, to the centavo, per game and per session', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = lcg(seed)
      const cents = () => Math.floor(rnd() * 1_000_000) + 1
      const entries: Array<{ type: string; payload: Record<string, unknown> }> = [opened]
      const expected = { line: 0, bingo: 0, figures: 0, bonus: 0 }
      const perFigure = new Map<string, number>()
      const games = 1 + Math.floor(rnd() * 5)
      for (let n = 1; n <= games; n++) {
        const gameId = `g${n}`
        entries.push({ type: 'game.announced', payload: { gameId, orderNo: n, faceValueCents: 500, commitment: 'c' } })
        const paid = 1 + Math.floor(rnd() * 8)
        for (let i = 0; i < paid; i++) {
          const amountCents = cents()
          const pick = Math.floor(rnd() * 4)
          if (pick === 3) {
            // Prima or a pot: paid by the bonus door, reported under pots / prima.
            const source = rnd() < 0.5 ? 'prima' : 'progressive'
            entries.push({
              type: 'bonus.paid',
              payload: { gameId, source, potId: source === 'prima' ? null : 'p1', name: 'Pozo', amountCents },
            })
            expected.bonus += amountCents
          } else if (pick === 2) {
            const figure = FIGURES[Math.floor(rnd() * FIGURES.length)]
            entries.push({ type: 'prize.paid', payload: { gameId, kind: figureKind(figure), amountCents } })
            expected.figures += amountCents
            perFigure.set(figure, (perFigure.get(figure) ?? 0) + amountCents)
          } else {
            const kind = pick === 0 ? 'line' : 'bingo'
            entries.push({ type: 'prize.paid', payload: { gameId, kind, amountCents } })
            expected[kind] += amountCents
          }
        }
      }
      const m = minutesFromJournal(journal(entries))
      const t = m.totals
      const all = expected.line + expected.bingo + expected.figures + expected.bonus
      expect(t.prizesPaidCents, `seed ${seed}`).toBe(all)
      expect([t.linePaidCents, t.bingoPaidCents, t.figuresPaidCents, t.jackpotsPaidCents], `seed ${seed}`).toEqual([
        expected.line,
        expected.bingo,
        expected.figures,
        expected.bonus,
      ])
      expect(t.linePaidCents! + t.bingoPaidCents! + t.figuresPaidCents! + t.jackpotsPaidCents!).toBe(t.prizesPaidCents)
      // Per game, the four lines add up to the session's total; per figure, to the figures' line.
      const byGame = m.games.reduce(
        (s, g) => s + g.linePaidCents + g.bingoPaidCents + (g.figuresPaidCents ?? 0) + g.jackpotsPaidCents,
        0,
      )
      expect(byGame).toBe(all)
      for (const g of m.games)
        expect((g.figures ?? []).reduce((s, f) => s + f.paidCents, 0)).toBe(g.figuresPaidCents ?? 0)
      expect(t.figures).toEqual(
        FIGURES.filter((f) => perFigure.has(f)).map((f) => ({
          figure: f,
          name: FIGURE_NAMES[f].es,
          paidCents: perFigure.get(f),
        })),
      )
    }
  })
})
