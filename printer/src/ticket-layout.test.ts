import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  cardTicket,
  columnsFor,
  flowDoc,
  formatStamp,
  gridGeometry,
  payoutReceipt,
  voucherTicket,
  wrap,
  type CardTicket,
  type Paper,
} from './ticket-layout.ts'
import { refundReceipt } from './refund-receipt.ts'

const grid = [
  [3, 0, 21, 0, 45, 0, 62, 0, 81],
  [0, 14, 0, 33, 47, 0, 0, 75, 88],
  [7, 0, 28, 39, 0, 56, 0, 79, 0],
]
const card = (over: Partial<CardTicket> = {}): CardTicket => ({
  code: 'BLL1.C.c_test.' + 'A'.repeat(86),
  cardId: 'c_test',
  hallName: 'Sala Demo Bolillo',
  sessionId: 'ses_abcdef',
  gameId: 'g_1',
  gameNo: 3,
  seriesCode: 'A',
  cardNo: 12,
  serial: 'A-00012',
  cardsInSeries: 6000,
  faceValueCents: 500,
  currency: 'BOB',
  soldAt: '2025-11-21T18:32:00Z',
  station: 'kiosk-1',
  grid,
  minimumAge: 18,
  authorisationRef: null,
  ...over,
})
const text = (lines: ReturnType<typeof flowDoc>) => lines.flatMap((l) => (l.type === 'text' ? [l.text] : [])).join('\n')

describe('ticket layout', () => {
  it('shows every field §7.1 asks of a card: series, number, cards in the series, face value, one game only (BNG-6, BNG-7)', () => {
    const lines = flowDoc(cardTicket(card(), { timeZone: 'America/La_Paz' }))
    const t = text(lines)
    for (const needle of [
      'Sala Demo Bolillo',
      'Partida N.º 3',
      'Serie A',
      'A-00012',
      'Cartón N.º 12',
      'Serie de 6000 cartones',
      '21/11/2025 14:32',
      'VÁLIDO SOLO PARA LA PARTIDA N.º 3',
      'Nombre: ',
      'C.I./Pasaporte: ',
      'Teléfono: ', // CFG-22: room on the back for the buyer's name, document and phone
      '18 años',
    ]) {
      expect(t).toContain(needle)
    }
    expect(t).toMatch(/Valor facial\s+Bs\s5,00/)
    expect(lines.filter((l) => l.type === 'grid')).toEqual([{ type: 'grid', rows: grid }])
    expect(lines.filter((l) => l.type === 'qr')).toEqual([{ type: 'qr', payload: card().code }])
  })

  it("heads the card, the voucher and the refund receipt alike: the hall's name, then its recorded authorisation (GEN-5)", () => {
    const voucher = (authorisationRef: string | null) =>
      voucherTicket({
        code: 'BLL1.V.v_x.' + 'A'.repeat(86),
        voucherId: 'v_x',
        hallName: 'Sala Illimani',
        amountCents: 500,
        currency: 'BOB',
        issuedAt: '2025-01-01T00:00:00Z',
        expiresAt: '2025-01-31T00:00:00Z',
        station: 'Terminal 1',
        origin: 'change',
        minimumAge: 18,
        authorisationRef,
      })
    const refund = (authorisationRef: string | null) =>
      refundReceipt({
        hallName: 'Sala Illimani',
        authorisationRef,
        gameNo: 2,
        sessionNo: 1,
        serial: 'A-00012',
        amountCents: 500,
        currency: 'BOB',
        refundedAt: '2025-01-01T00:00:00Z',
        timeZone: 'America/La_Paz',
        station: 'Caja 1',
        cashier: 'Rosa Vargas',
      })
    const head = (doc: ReturnType<typeof voucher>) => text(flowDoc(doc)).split('\n').slice(0, 2)
    for (const make of [
      (r: string | null) => cardTicket(card({ hallName: 'Sala Illimani', authorisationRef: r })),
      voucher,
      refund,
    ]) {
      expect(head(make('AJ-LO-2025-0117'))).toEqual(['Sala Illimani', 'Autorización: AJ-LO-2025-0117'])
      // A hall with no reference recorded prints no empty line.
      expect(text(flowDoc(make(null)))).not.toContain('Autorización')
    }
    expect(text(flowDoc(cardTicket(card({ authorisationRef: 'AJ-LO-9' }), { lang: 'en' })))).toContain(
      'Authorisation: AJ-LO-9',
    )
  })

  it('keeps every line within the roll: 48 columns on 80 mm, 32 on 58 mm, half as many in large print', () => {
    const name = fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim().length > 0 && !/\n/.test(s))
    fc.assert(
      fc.property(
        name,
        fc.constantFrom<Paper>('80mm', '58mm'),
        fc.nat({ max: 99_999_999 }),
        (hallName, paper, cents) => {
          const docs = [
            cardTicket(card({ hallName, faceValueCents: cents + 1 }), { paper }),
            voucherTicket(
              {
                code: 'BLL1.V.v_x.' + 'A'.repeat(86),
                voucherId: 'v_x',
                hallName,
                amountCents: cents + 1,
                currency: 'BOB',
                issuedAt: '2025-01-01T00:00:00Z',
                expiresAt: '2025-01-31T00:00:00Z',
                station: 'caja-1',
                origin: 'cashier',
                minimumAge: 18,
                authorisationRef: null,
              },
              { paper },
            ),
            payoutReceipt(
              {
                payoutId: 'po_x',
                hallName,
                gameNo: 1,
                gameId: 'g',
                sessionId: 'ses_x',
                serial: 'A-00001',
                cardId: 'c',
                prizes: [{ kind: 'bingo', amountCents: cents }],
                amountCents: cents,
                currency: 'BOB',
                paidAt: '2025-01-01T00:00:00Z',
                station: 'caja-1',
                cashier: hallName,
                payeeName: hallName,
                payeeDocument: 'CI 1',
              },
              { paper },
            ),
          ]
          for (const doc of docs) {
            for (const l of flowDoc(doc))
              if (l.type === 'text') expect(l.text.length).toBeLessThanOrEqual(columnsFor(paper, l.size))
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('fits the 9-column grid: cells of 4 with large digits on 80 mm, of 2 on 58 mm (BNG-5)', () => {
    expect(gridGeometry('80mm', 9)).toEqual({ cellWidth: 4, width: 46, largeNumbers: true })
    expect(gridGeometry('58mm', 9)).toEqual({ cellWidth: 2, width: 28, largeNumbers: false })
  })

  it('wraps at spaces and cuts words longer than the line', () => {
    expect(wrap('Un cartón es válido para una sola partida.', 20)).toEqual([
      'Un cartón es válido',
      'para una sola',
      'partida.',
    ])
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
  })

  // Stamps are kept by zone and whole second (a sale's tickets and the sales of one second print the same one): the
  // same second in another zone, the next minute, and a zone whose offset is not whole hours each print their own.
  it("prints each zone's wall clock for an instant, however many stamps of that second it printed before", () => {
    expect(formatStamp('2025-03-02T16:00:30.100Z', 'America/La_Paz')).toBe('02/03/2025 12:00')
    expect(formatStamp('2025-03-02T16:00:30.900Z', 'America/La_Paz')).toBe('02/03/2025 12:00')
    expect(formatStamp('2025-03-02T16:00:30.500Z', 'Europe/Madrid')).toBe('02/03/2025 17:00')
    expect(formatStamp('2025-03-02T16:00:30.500Z', 'Asia/Kathmandu')).toBe('02/03/2025 21:45')
    expect(formatStamp('2025-03-02T16:00:30.700Z')).toMatch(/^02\/03\/2025 \d\d:\d0$/)
    expect(formatStamp('2025-03-02T16:01:00.000Z', 'America/La_Paz')).toBe('02/03/2025 12:01')
    expect(formatStamp('2025-03-02T16:00:30.999Z', 'Europe/Madrid')).toBe('02/03/2025 17:00')
    expect(formatStamp('not a date', 'America/La_Paz')).toBe('not a date')
  })
})
