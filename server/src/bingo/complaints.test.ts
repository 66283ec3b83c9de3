import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import { checkAnswer, checkComplaint, checkManualBook, manualGames } from './complaints.ts'

const problems = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    return ((e as DomainError).details as { problems: Array<{ field: string; rule: string }> }).problems.map(
      (p) => `${p.field}:${p.rule}`,
    )
  }
  return []
}

describe('complaints book (BNG-72, GEN-21) and manual-book markers (BNG-76)', () => {
  it('BNG-72: a complaint names the player and what happened; a game is named only with its session', () => {
    expect(checkComplaint({ playerName: '  Juana Flores ', text: ' El 68 se cantó como 86. ' })).toMatchObject({
      playerName: 'Juana Flores',
      text: 'El 68 se cantó como 86.',
      sessionId: null,
      gameNo: null,
      playerDocument: null,
    })
    expect(problems(() => checkComplaint({ playerName: '', text: 'corto' }))).toEqual([
      'playerName:BNG-72',
      'text:BNG-72',
    ])
    expect(
      problems(() => checkComplaint({ playerName: 'Juana Flores', text: 'Un reclamo bien descrito.', gameNo: 2 })),
    ).toEqual(['sessionId:BNG-72'])
    expect(
      problems(() =>
        checkComplaint({ playerName: 'Juana Flores', text: 'Un reclamo bien descrito.', sessionId: 's', gameNo: 0 }),
      ),
    ).toEqual(['gameNo:BNG-72'])
    expect(problems(() => checkAnswer('  ok '))).toEqual(['answer:BNG-72'])
  })

  it('BNG-76: the manual book runs from game N until the system is back at game M > N (or to the end), with its folios', () => {
    expect(
      manualGames(checkManualBook({ fromGame: 3, resumedAtGame: 5, reason: 'Caída del servidor', folios: 'folio 7' })),
    ).toEqual({ from: 3, to: 4 })
    expect(
      manualGames(
        checkManualBook({ fromGame: 3, resumedAtGame: null, reason: 'Caída del servidor', folios: 'folio 7' }),
      ),
    ).toEqual({ from: 3, to: null })
    expect(
      problems(() =>
        checkManualBook({ fromGame: 3, resumedAtGame: 3, reason: 'Caída del servidor', folios: 'folio 7' }),
      ),
    ).toEqual(['resumedAtGame:BNG-76'])
    expect(problems(() => checkManualBook({ fromGame: 0, resumedAtGame: null, reason: '', folios: ' ' }))).toEqual([
      'fromGame:BNG-76',
      'reason:BNG-76',
      'folios:BNG-76',
    ])
  })
})
