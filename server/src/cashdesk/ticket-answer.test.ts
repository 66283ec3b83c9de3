import { describe, expect, it } from 'vitest'
import type { LotteryValidation } from '../lottery/service.ts'
import type { LottoValidation } from '../lotto/service.ts'
import { productOfCode, readAnswer, readPayment, readTyped, type PayAnswer } from './ticket-answer.ts'

const SIG = 'A'.repeat(86)

describe('what the cashier typed or scanned', () => {
  it('takes an instant validation code in any grouping and case, and sends it in groups of four', () => {
    expect(readTyped(' 0777-abcd-efgh-jkmn-pqrs-tvwx ')).toEqual({
      kind: 'instant',
      code: '0777-ABCD-EFGH-JKMN-PQRS-TVWX',
    })
    expect(readTyped('0777abcdefghjkmnpqrstvwx')).toEqual({ kind: 'instant', code: '0777-ABCD-EFGH-JKMN-PQRS-TVWX' })
    expect(productOfCode('0777 ABCD EFGH JKMN PQRS TVWX')).toBe('instant')
  })

  it('tells a validation code of the wrong length and the inventory serial from a code', () => {
    expect(readTyped('0777-ABCD-EFGH-JKMN-PQRS-TVW')).toEqual({ kind: 'instant_length', length: 23 })
    expect(readTyped('0777-000001-004-7')).toEqual({ kind: 'instant_serial' })
    expect(readTyped(`BLL1.L.LOTO649-000000001.${SIG}`)).toEqual({
      kind: 'signed',
      code: `BLL1.L.LOTO649-000000001.${SIG}`,
    })
    expect(readTyped('hola')).toEqual({ kind: 'other', code: 'hola' })
    expect(productOfCode(`BLL1.T.ltd_x-12345-1-3.${SIG}`)).toBe('lottery')
  })
})

const lotto = (over: Partial<LottoValidation>): LottoValidation => ({
  outcome: 'WIN',
  kind: 'lotto',
  ticketId: 'LOTO649-000000007',
  amountCents: 123_456,
  goods: [],
  currency: 'BOB',
  reason: 'prize in draw(s) 101',
  receipt: null,
  draws: [
    {
      drawId: 'ltd_a',
      drawNumber: 101,
      status: 'win',
      amountCents: 123_456,
      goods: [],
      claimDeadline: '2025-05-07T23:59:59-04:00',
      prizes: [{ board: 2, category: 'C4', name: 'Oro Mágico', matches: 4, amountCents: 123_456, goods: null }],
    },
    {
      drawId: 'ltd_b',
      drawNumber: 102,
      status: 'pending',
      amountCents: 0,
      goods: [],
      claimDeadline: '2025-05-14T23:59:59-04:00',
      prizes: [],
    },
  ],
  ...over,
})

describe('the answers of each kind of ticket', () => {
  it('reads a winning lotto receipt: categories, draws, the payee with both names, the draw still to play', () => {
    const v = readAnswer(lotto({}))
    expect(v).toMatchObject({
      product: 'lotto',
      verdict: 'winner',
      amountCents: 123_456,
      payable: true,
      payee: { required: true, fullName: true },
      pendingDraws: [102],
      ids: { receipt: 'LOTO649-000000007', gameCode: 'LOTO649', drawNumbers: [101, 102] },
      claimUntil: '2025-05-07T23:59:59-04:00',
    })
    expect(v.prizes).toEqual([
      expect.objectContaining({
        amountCents: 123_456,
        label: { t: 'category', name: 'Oro Mágico', matches: 4, drawNumber: 101, board: 2 },
      }),
    ])
  })

  it('reads a lotto receipt already paid, refundable, forged', () => {
    const paid = readAnswer(
      lotto({ outcome: 'ALREADY_PAID', amountCents: 0, draws: [{ ...lotto({}).draws[0], status: 'paid' }] }),
    )
    expect(paid).toMatchObject({
      verdict: 'paid',
      amountCents: 123_456,
      payable: false,
      ids: { paidDrawIds: ['ltd_a'] },
    })
    expect(readAnswer(lotto({ outcome: 'REFUND_ONLY', amountCents: 500, draws: [] }))).toMatchObject({
      verdict: 'refund',
      amountCents: 500,
      payable: true,
    })
    expect(
      readAnswer(
        lotto({ outcome: 'VOID', ticketId: null, draws: [], reason: 'altered or forged receipt: bad (LOT-8)' }),
      ),
    ).toMatchObject({ verdict: 'invalid', invalid: 'signature' })
  })

  it('reads lottery tickets: a winner, a returned ticket (ANULADO), a stolen one, one never sold', () => {
    const base: LotteryValidation = {
      outcome: 'WIN',
      kind: 'lottery',
      ticketId: 'ltd_x-12345-1-3',
      amountCents: 10_000_000,
      goods: [],
      currency: 'BOB',
      reason: 'Primer Premio',
      prizes: [{ code: 'P1', name: 'Primer Premio', amountCents: 10_000_000 }],
      drawId: 'ltd_x',
      number: '12345',
      series: 1,
      fraction: 3,
    }
    expect(readAnswer(base)).toMatchObject({
      product: 'lottery',
      verdict: 'winner',
      payee: { required: true, fullName: true },
      ids: { number: '12345', series: 1, fraction: 3 },
    })
    expect(
      readAnswer({ ...base, outcome: 'VOID', reason: 'returned unsold before the draw: not in play' }).verdict,
    ).toBe('void')
    expect(
      readAnswer({ ...base, outcome: 'REPORTED_LOST_STOLEN', reason: 'number reported stolen: no payment (LST-5)' }),
    ).toMatchObject({ verdict: 'blocked', blocked: 'stolen' })
    expect(
      readAnswer({ ...base, kind: 'raffle', outcome: 'VOID', reason: 'this ticket was never sold (LOT-8)' }),
    ).toMatchObject({ product: 'raffle', verdict: 'invalid', invalid: 'not_sold' })
    expect(readAnswer({ ...base, outcome: 'ALREADY_PAID', reason: 'paid at 2025-03-02T10:00:00.000Z' }).paid?.at).toBe(
      '2025-03-02T10:00:00.000Z',
    )
  })

  it('reads a bingo code that does not verify as NO VÁLIDO of a card', () => {
    expect(
      readAnswer({ status: 'invalid', reason: 'signature', detail: 'bad', ticketId: null }, `BLL1.C.c_x.${SIG}`),
    ).toMatchObject({ product: 'card', verdict: 'invalid', invalid: 'signature' })
  })

  it('reads a lotto payout, which comes without a printed receipt', () => {
    const r = {
      payout: {
        kind: 'lotto',
        outcome: 'WIN',
        receipt: 'LOTO649-000000007',
        amountCents: 123_456,
        currency: 'BOB',
        goods: [],
        payouts: [{ payoutId: 'lpay_1', drawId: 'ltd_a', amountCents: 123_456, goods: [] }],
        drawNumbers: [101],
        paidAt: '2025-03-08T20:05:00.000Z',
      },
    } as PayAnswer
    expect(readPayment(r)).toMatchObject({
      product: 'lotto',
      refund: false,
      payoutIds: ['lpay_1'],
      amountCents: 123_456,
      receipt: 'none',
      reprint: false,
      drawNumbers: [101],
    })
  })

  it('reads a raffle payout as a raffle of its draw, from the payout alone', () => {
    const r = {
      payout: {
        kind: 'lottery',
        payoutId: 'lpay_9',
        outcome: 'WIN',
        product: 'raffle',
        drawNumber: 7,
        ticketId: 'ltd_r-00042',
        amountCents: 0,
        goods: ['Bicicleta: roja'],
        prizes: [],
        currency: 'BOB',
        paidAt: '2025-03-08T20:05:00.000Z',
      },
    } as PayAnswer
    expect(readPayment(r)).toMatchObject({
      product: 'raffle',
      payoutIds: ['lpay_9'],
      goods: ['Bicicleta: roja'],
      drawNumbers: [7],
      receipt: 'none',
    })
  })
})
