import { describe, expect, it } from 'vitest'
import {
  beaconInfo,
  beaconWaiting,
  bonusesOf,
  boardRows,
  cardGrid,
  isNumbersCard,
  claimReason,
  completeRows,
  extraPrizes,
  groupedCommitment,
  markedCount,
  money,
  previousBalls,
  shortCommitment,
  stateWord,
  windowQuestion,
  winnersOnShow,
} from './format.ts'
import { langFromSearch } from './i18n.ts'

describe('beacon line (bolillo-draw-v2)', () => {
  const base = { round: 657413, publishedAt: '2023-09-15T11:00:03Z', scheme: 'drand-quicknet' as const, demo: false }
  it('shows the round awaited, then the round and its randomness, and names a demo beacon plainly', () => {
    expect(beaconInfo({ beacon: null }, 'es')).toBeNull()
    expect(beaconInfo({ beacon: { ...base, status: 'awaiting' } }, 'es')).toEqual({
      label: 'Ronda del faro',
      value: '657413',
      note: 'esperando su publicación',
      demo: false,
      verified: false,
    })
    const verified = {
      ...base,
      status: 'verified' as const,
      randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
    }
    expect(beaconInfo({ beacon: verified }, 'es')).toMatchObject({
      label: 'Ronda del faro 657413',
      value: 'fc18 73a1 3f35 45ae…',
      note: 'faro público drand',
      verified: true,
    })
    expect(beaconInfo({ beacon: { ...verified, scheme: 'demo', demo: true } }, 'es')!.note).toBe(
      'FARO DE DEMOSTRACIÓN (no público)',
    )
    expect(beaconInfo({ beacon: { ...verified, scheme: 'demo', demo: true } }, 'en')!.note).toBe(
      'DEMO BEACON (not public)',
    )
    expect(beaconWaiting(657413, 'es')).toBe('Esperando la ronda 657413 del faro público…')
  })
})

describe('stateWord', () => {
  it('names every game state in big Spanish words', () => {
    expect(stateWord('announced', 'es')).toBe('PRÓXIMA PARTIDA')
    expect(stateWord('on_sale', 'es')).toBe('EN VENTA')
    expect(stateWord('sales_closed', 'es')).toBe('VENTA CERRADA')
    expect(stateWord('drawing', 'es')).toBe('EN JUEGO')
    expect(stateWord('line_window', 'es')).toBe('LÍNEA')
    expect(stateWord('bingo_window', 'es')).toBe('BINGO')
    expect(stateWord('finished', 'es')).toBe('PARTIDA TERMINADA')
    expect(stateWord('suspended', 'es')).toBe('SUSPENDIDA')
    expect(stateWord('void', 'es')).toBe('PARTIDA ANULADA')
  })

  it('speaks English with ?lang=en', () => {
    expect(langFromSearch('?hall=demo&lang=en')).toBe('en')
    expect(langFromSearch('?hall=demo')).toBe('es')
    expect(stateWord('drawing', 'en')).toBe('IN PLAY')
  })
})

describe('windowQuestion', () => {
  it('asks for more winners while a claim window is open (BNG-50)', () => {
    expect(windowQuestion('line', 'es')).toBe('¿ALGUNA LÍNEA MÁS?')
    expect(windowQuestion('bingo', 'es')).toBe('¿ALGÚN BINGO MÁS?')
    expect(windowQuestion(null, 'es')).toBeNull()
  })
})

describe('money', () => {
  it('formats integer centavos in the hall currency', () => {
    expect(money(123456, 'BOB', 'es').replace(/\s/g, ' ')).toMatch(/1\.234,56/)
    expect(money(1234500, 'EUR', 'es').replace(/\s/g, ' ')).toMatch(/12\.345,00 €/)
    expect(money(500, 'EUR', 'en')).toBe('€5.00')
    // In English the hall's sign too, as the hall writes its prices: "Bs 5.00", not the ISO code "BOB 5.00".
    expect(money(500, 'BOB', 'en').replace(/\s/g, ' ')).toBe('Bs 5.00')
    expect(money(1000, 'CLP', 'en')).toBe('$1,000')
  })
})

describe('commitment', () => {
  const hex = '3f9a12bc00112233445566778899aabbccddeeff0011223344556677889e0177de'.slice(0, 64)

  it('shows a short form a person can compare by eye', () => {
    expect(shortCommitment(hex)).toBe(`${hex.slice(0, 4)} ${hex.slice(4, 8)} … ${hex.slice(-8, -4)} ${hex.slice(-4)}`)
  })

  it('groups the full form in eights', () => {
    const g = groupedCommitment(hex)
    expect(g.split(' ')).toHaveLength(8)
    expect(g.replace(/ /g, '')).toBe(hex)
  })
})

describe('boardRows', () => {
  it('lays 90 balls out as 9 rows of 10', () => {
    const rows = boardRows(90)
    expect(rows).toHaveLength(9)
    expect(rows.every((r) => r.length === 10)).toBe(true)
    expect(rows[0][0]).toBe(1)
    expect(rows[8][9]).toBe(90)
    expect(rows.flat()).toEqual(Array.from({ length: 90 }, (_, i) => i + 1))
  })

  it('lays 75 balls out as 5 rows of 15', () => {
    const rows = boardRows(75)
    expect(rows.map((r) => r.length)).toEqual([15, 15, 15, 15, 15])
  })
})

describe('cardGrid', () => {
  const rows = [
    [3, 15, 42, 61, 80],
    [9, 27, 38, 55, 74],
    [12, 29, 47, 66, 90],
  ]

  it('puts each number in its column of the 3 x 9 card (BNG-5)', () => {
    const grid = cardGrid(rows, 90)
    expect(grid).toHaveLength(3)
    expect(grid.every((r) => r.length === 9)).toBe(true)
    expect(grid[0]).toEqual([3, 15, 0, 0, 42, 0, 61, 0, 80])
    expect(grid[2][8]).toBe(90)
    expect(grid.flat().filter((x) => x > 0)).toHaveLength(15)
  })

  it('BNG-98: draws a chosen-number card as its numbers only, in their order, even from a universe-wide row', () => {
    expect(cardGrid([[4, 17, 23, 31, 38]], 40)).toEqual([[4, 17, 23, 31, 38]])
    // chosenNumbersLayout's grid: one cell per number of the universe, 0 where the card holds none.
    const wide = Array.from({ length: 90 }, (_, i) => ([7, 33, 61, 88].includes(i + 1) ? i + 1 : 0))
    expect(cardGrid([wide], 90)).toEqual([[7, 33, 61, 88]])
    expect(isNumbersCard([wide])).toBe(true)
    expect(isNumbersCard(rows)).toBe(false)
  })

  it('still shows a card that does not fit the layout', () => {
    const grid = cardGrid([[1, 2], [3]], 90)
    expect(grid).toEqual([
      [1, 2],
      [3, 0],
    ])
  })

  it('finds the complete rows and counts the marked numbers', () => {
    const called = new Set([9, 27, 38, 55, 74, 3, 90])
    expect(completeRows(rows, called)).toEqual([1])
    expect(markedCount(rows, called)).toBe(7)
  })
})

describe('claimReason', () => {
  it('explains a rejected claim in words', () => {
    expect(claimReason('no_complete_row', 'es')).toBe('ninguna fila completa')
    expect(claimReason('card_not_complete', 'en')).toBe('the card is not complete')
    expect(claimReason('something_new', 'es')).toBe('something_new')
    expect(claimReason(null, 'es')).toBe('')
  })
})

describe('previousBalls', () => {
  it('lists the five balls before the current one, most recent first', () => {
    expect(previousBalls([10, 20, 30, 40, 50, 60, 70])).toEqual([60, 50, 40, 30, 20])
    expect(previousBalls([10, 20])).toEqual([10])
    expect(previousBalls([])).toEqual([])
  })
})

describe('extraPrizes', () => {
  it('shows nothing extra for an ordinary game', () => {
    expect(extraPrizes({})).toEqual({ prima: null, jackpots: [], luckyNumbers: null })
    expect(extraPrizes({ primaActive: false, primaAmountCents: null, pots: [], luckyBall: null }).prima).toBeNull()
  })

  it('reads the prima with its ball limit, the pots with their conditions and the lucky numbers (BNG-37, BNG-55)', () => {
    const e = extraPrizes({
      primaActive: true,
      primaAmountCents: 50000,
      primaBallLimit: 52,
      pots: [
        {
          id: 'p1',
          name: 'Pozo',
          kind: 'progressive',
          amountCents: 120000,
          incrementCents: 3000,
          reserveCents: 0,
          contributionBp: 200,
          conditions: 'bingo antes de la bola 40',
          condition: {},
          hallIds: [],
        },
      ],
      luckyBall: { commitment: 'x', numbers: [7, 44] },
    })
    expect(e.prima).toEqual({ amountCents: 50000, maxBall: 52, active: true })
    expect(e.jackpots).toEqual([
      {
        name: 'Pozo',
        amountCents: 120000,
        incrementCents: 3000,
        condition: 'bingo antes de la bola 40',
        contributionBp: 200,
      },
    ])
    expect(e.luckyNumbers).toEqual([7, 44])
  })
})

describe('bonusesOf', () => {
  it('lists the bonus prizes a winning card took with that prize', () => {
    const b = {
      id: 'b',
      source: 'prima' as const,
      name: 'Prima',
      prizeKind: 'bingo' as const,
      serial: 'A-1',
      cardId: 'c1',
      hallId: 'h',
      amountCents: 5000,
      atBall: 40,
      status: 'awarded' as const,
    }
    expect(
      bonusesOf({ bonusWinners: [b, { ...b, cardId: 'c2' }, { ...b, prizeKind: 'line' }] }, 'c1', 'bingo'),
    ).toEqual([{ name: 'Prima', amountCents: 5000 }])
    expect(bonusesOf({}, 'c1', 'bingo')).toEqual([])
  })
})

describe('winnersOnShow', () => {
  const line = {
    kind: 'line' as const,
    serial: 'A-00001',
    cardId: 'c1',
    rows: [],
    atBall: 20,
    amountCents: null,
    status: 'verified' as const,
  }
  const bingo = { ...line, kind: 'bingo' as const, serial: 'A-00007', atBall: 51 }

  it('shows the winners of the open window, and the bingo once the game is over', () => {
    expect(winnersOnShow({ window: 'line', status: 'line_window', winners: [line] })).toEqual([line])
    expect(winnersOnShow({ window: 'bingo', status: 'bingo_window', winners: [line, bingo] })).toEqual([bingo])
    expect(winnersOnShow({ window: null, status: 'finished', winners: [line, bingo] })).toEqual([bingo])
  })

  it('shows no card while play goes on', () => {
    expect(winnersOnShow({ window: null, status: 'drawing', winners: [line] })).toEqual([])
  })
})
