import { describe, expect, it } from 'vitest'
import {
  basketBlocker,
  basketLines,
  basketTotalCents,
  purchaseBody,
  sectionFromParam,
  type BasketInput,
} from './basket.ts'

const rules = { range: 49, picks: 6, priceCents: 500, maxBoardsPerSlip: 8, maxDrawsPerSlip: 2 }
const player = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }
const full: BasketInput = {
  cards: { count: 2, gameId: 'g1', faceValueCents: 500 },
  slip: {
    drawId: 'd1',
    rules,
    draft: {
      boards: [{ kind: 'chosen', numbers: [3, 11, 19, 27, 35, 43] }, { kind: 'quick' }],
      pending: [],
      draws: 2,
      player,
    },
  },
  instant: { count: 1, gameNo: 880, priceCents: 1000 },
}

describe('the kiosk basket', () => {
  it('adds cards, a slip (boards x draws) and instant tickets into one total', () => {
    expect(basketLines(full)).toEqual([
      { kind: 'cards', quantity: 2, amountCents: 1000 },
      { kind: 'slips', quantity: 2, amountCents: 2000 },
      { kind: 'instant', quantity: 1, amountCents: 1000 },
    ])
    expect(basketTotalCents(full)).toBe(4000)
  })

  it('says what stops the purchase, in order: nothing chosen, the slip, the voucher, its balance, the age answer', () => {
    const empty: BasketInput = {
      cards: { ...full.cards!, count: 0 },
      slip: { ...full.slip!, draft: { boards: [], pending: [], draws: 1, player: { name: '', document: '' } } },
      instant: null,
    }
    expect(basketBlocker(empty, { voucherCents: 10_000, ageConfirmed: true })).toBe('empty')
    const noName = {
      ...full,
      slip: { ...full.slip!, draft: { ...full.slip!.draft, player: { name: 'Rosa', document: '' } } },
    }
    expect(basketBlocker(noName, { voucherCents: 10_000, ageConfirmed: true })).toBe('slip_player')
    const half = { ...full, slip: { ...full.slip!, draft: { ...full.slip!.draft, pending: [4, 5] } } }
    expect(basketBlocker(half, { voucherCents: 10_000, ageConfirmed: true })).toBe('slip_pending')
    expect(basketBlocker(full, { voucherCents: null, ageConfirmed: true })).toBe('voucher')
    expect(basketBlocker(full, { voucherCents: 3999, ageConfirmed: true })).toBe('balance')
    expect(basketBlocker(full, { voucherCents: 4000, ageConfirmed: false })).toBe('age')
    expect(basketBlocker(full, { voucherCents: 4000, ageConfirmed: true })).toBeNull()
  })

  it('a slip with no boards does not ask for the player data', () => {
    const cardsOnly: BasketInput = {
      ...full,
      slip: { ...full.slip!, draft: { boards: [], pending: [], draws: 1, player: { name: '', document: '' } } },
      instant: null,
    }
    expect(basketBlocker(cardsOnly, { voucherCents: 1000, ageConfirmed: true })).toBeNull()
  })

  it('builds the purchase body with only what the basket holds', () => {
    expect(purchaseBody(full)).toEqual({
      cards: { gameId: 'g1', count: 2 },
      slips: [{ drawId: 'd1', boards: [[3, 11, 19, 27, 35, 43]], quickPicks: 1, draws: 2, player }],
      instant: { gameNo: 880, count: 1 },
    })
    expect(purchaseBody({ cards: null, slip: null, instant: { count: 2, gameNo: 7, priceCents: 100 } })).toEqual({
      instant: { gameNo: 7, count: 2 },
    })
  })

  it('reads the section the lotto and instant screens redirect with', () => {
    expect(sectionFromParam('boletos')).toBe('slips')
    expect(sectionFromParam('raspaditas')).toBe('instant')
    expect(sectionFromParam('cartones')).toBe('cards')
    expect(sectionFromParam('x')).toBeNull()
    expect(sectionFromParam(null)).toBeNull()
  })
})
