import { describe, expect, it } from 'vitest'
import type { GameState } from '../server/src/bingo/service.ts'
import { mergeBall, mergeState } from './feed-merge.ts'

function state(over: Partial<GameState> = {}): GameState {
  return {
    gameId: 'g1',
    hallId: 'h',
    hallName: 'Sala',
    sessionId: 's',
    orderNo: 1,
    status: 'drawing',
    profileId: 'BO-2025',
    currency: 'BOB',
    faceValueCents: 1000,
    ballCount: 90,
    cardsSold: 50,
    totalCents: 50000,
    linePoolCents: 5000,
    bingoPoolCents: 25500,
    lineClosed: false,
    window: null,
    drawSource: 'rng',
    commitment: 'c'.repeat(64),
    balls: [5, 17],
    lastBall: 17,
    series: [],
    soldRanges: null,
    winners: [],
    rejectedClaims: [],
    isLastGame: false,
    voidReason: null,
    seq: 10,
    times: { createdAt: '', salesOpenedAt: null, salesClosedAt: null, firstBallAt: null, finishedAt: null },
    ...over,
  }
}

describe('mergeState', () => {
  it('takes a newer full state of the watched game', () => {
    const next = state({ seq: 11, balls: [5, 17, 33] })
    expect(mergeState(state(), 'g1', next)).toBe(next)
  })

  it('ignores an older state and a state of another game', () => {
    expect(mergeState(state(), 'g1', state({ seq: 9 }))).toBeNull()
    expect(mergeState(state(), 'g1', state({ gameId: 'g0', seq: 99 }))).toBeNull()
  })

  it('takes the first state when nothing is shown yet', () => {
    const s = state()
    expect(mergeState(null, null, s)).toBe(s)
  })
})

describe('mergeBall', () => {
  it('shows the next ball at once, before the full state', () => {
    const r = mergeBall(state(), { gameId: 'g1', seq: 12, ball: 44, count: 3 })
    expect(r.gap).toBe(false)
    expect(r.state?.balls).toEqual([5, 17, 44])
    expect(r.state?.lastBall).toBe(44)
    expect(r.state?.seq).toBe(12)
  })

  it('turns a closed sale into a game in play with the first ball', () => {
    const r = mergeBall(state({ status: 'sales_closed', balls: [], lastBall: null }), {
      gameId: 'g1',
      seq: 12,
      ball: 8,
      count: 1,
    })
    expect(r.state?.status).toBe('drawing')
  })

  it('ignores a ball it already shows and reports a gap when one was missed', () => {
    expect(mergeBall(state(), { gameId: 'g1', seq: 10, ball: 17, count: 2 })).toEqual({ state: null, gap: false })
    expect(mergeBall(state(), { gameId: 'g1', seq: 14, ball: 60, count: 4 })).toEqual({ state: null, gap: true })
  })

  it('ignores balls of other games', () => {
    expect(mergeBall(state(), { gameId: 'g2', seq: 14, ball: 60, count: 1 }).state).toBeNull()
  })
})
