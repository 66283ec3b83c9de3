import { describe, expect, it } from 'vitest'
import { CardCustody, nextCustody, type CustodyAction, type CustodyFacts } from './card-custody.ts'

const ended = '2026-01-01T20:00:00.000Z'
const facts = (f: Partial<CustodyFacts>): CustodyFacts => ({
  state: CardCustody.Sold,
  gameEnded: true,
  hasPrizes: false,
  hasUnpaidPrizes: false,
  endedAt: ended,
  ...f,
})
const to = (f: Partial<CustodyFacts>, action: CustodyAction, at = '2026-01-02T00:00:00.000Z') => {
  const r = nextCustody(facts(f), action, at, 183)
  return 'to' in r ? r.to : 'refused'
}

describe('card custody transitions (BNG-87/88/89, BNG-92)', () => {
  it('BNG-87/88: collects a non-winning card only after its game; a winner is archived instead', () => {
    expect(to({}, 'collect')).toBe('returned')
    expect(to({ gameEnded: false }, 'collect')).toBe('refused')
    expect(to({ hasPrizes: true }, 'collect')).toBe('refused')
    expect(to({ hasPrizes: true }, 'archive')).toBe('winner_archive')
    expect(to({}, 'archive')).toBe('refused')
  })

  it('BNG-87 (a) / BNG-92: holds any card not destroyed as evidence; it is released to where it belongs, never destroyed while held', () => {
    for (const state of [CardCustody.Sold, CardCustody.Returned, CardCustody.WinnerArchive])
      expect(to({ state }, 'hold')).toBe('evidence')
    expect(to({ state: CardCustody.Evidence }, 'hold')).toBe('refused')
    expect(to({ state: CardCustody.Evidence }, 'destroy')).toBe('refused')
    expect(to({ state: CardCustody.Evidence, hasPrizes: true }, 'release')).toBe('winner_archive')
    expect(to({ state: CardCustody.Evidence }, 'release')).toBe('returned')
    expect(to({ state: CardCustody.Evidence, gameEnded: false }, 'release')).toBe('sold')
  })

  it('BNG-87: destroys returned cards after the game, archived winners only after the archive period, nothing twice', () => {
    expect(to({ state: CardCustody.Sold }, 'destroy')).toBe('refused')
    expect(to({ state: CardCustody.Returned }, 'destroy')).toBe('destroyed')
    expect(to({ state: CardCustody.WinnerArchive, hasPrizes: true }, 'destroy', '2026-07-02T19:59:59.000Z')).toBe(
      'refused',
    )
    expect(to({ state: CardCustody.WinnerArchive, hasPrizes: true }, 'destroy', '2026-07-03T20:00:00.000Z')).toBe(
      'destroyed',
    )
    expect(
      to(
        { state: CardCustody.WinnerArchive, hasPrizes: true, hasUnpaidPrizes: true },
        'destroy',
        '2026-07-03T20:00:00.000Z',
      ),
    ).toBe('refused')
    for (const action of ['collect', 'archive', 'hold', 'release', 'destroy'] as const)
      expect(to({ state: CardCustody.Destroyed }, action)).toBe('refused')
  })
})
