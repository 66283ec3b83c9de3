import { describe, expect, it } from 'vitest'
import { buildEscPosJob, faultFromPaperStatus, faultFromStatus, parseTcpTarget } from './escpos.ts'
import { cardTicket } from './ticket-layout.ts'

const code = 'BLL1.C.c_test.' + 'Ab-_'.repeat(21) + 'AA'
const doc = cardTicket({
  code,
  cardId: 'c_test',
  hallName: 'Sala Ñandú',
  sessionId: 'ses_1',
  gameId: 'g_1',
  gameNo: 1,
  seriesCode: 'A',
  cardNo: 1,
  serial: 'A-00001',
  cardsInSeries: 100,
  faceValueCents: 500,
  currency: 'BOB',
  soldAt: '2025-01-01T00:00:00Z',
  station: 'k1',
  authorisationRef: null,
  grid: [
    [3, 0, 21, 0, 45, 0, 62, 0, 81],
    [0, 14, 0, 33, 47, 0, 0, 75, 88],
    [7, 0, 28, 39, 0, 56, 0, 79, 0],
  ],
  minimumAge: 18,
})

describe('ESC/POS job', () => {
  it('stores the exact signed code with GS ( k, prints it, and cuts after each ticket', () => {
    const job = buildEscPosJob([doc, doc]).getBuffer()
    const store = Buffer.concat([
      Buffer.from([0x1d, 0x28, 0x6b, (code.length + 3) % 256, Math.floor((code.length + 3) / 256), 0x31, 0x50, 0x30]),
      Buffer.from(code, 'ascii'),
    ])
    expect(job.indexOf(store)).toBeGreaterThan(0)
    expect(job.indexOf(Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30]))).toBeGreaterThan(
      job.indexOf(store),
    )
    let cuts = 0
    for (
      let i = job.indexOf(Buffer.from([0x1d, 0x56, 0x00]));
      i >= 0;
      i = job.indexOf(Buffer.from([0x1d, 0x56, 0x00]), i + 1)
    )
      cuts++
    expect(cuts).toBe(2)
  })

  it('selects code page PC850 after every initialisation, so Spanish letters print after a cut', () => {
    const job = buildEscPosJob([doc, doc]).getBuffer()
    const initThenPc850 = Buffer.from([0x1b, 0x40, 0x1b, 0x74, 2])
    let count = 0
    for (let i = job.indexOf(initThenPc850); i >= 0; i = job.indexOf(initThenPc850, i + 1)) count++
    expect(count).toBe(2)
    expect(job.includes(Buffer.from([0xa5]))).toBe(true) // Ñ in CP850
  })

  it('reads paper-out, cover-open and offline from the real-time status bytes', () => {
    expect(faultFromStatus(0x12, 0x12, 0x12)).toBeNull()
    expect(faultFromStatus(0x12, 0x12, 0x1e)).toBeNull() // paper near its end still prints
    expect(faultFromStatus(0x1a, 0x32, 0x72)).toBe('paper_out')
    expect(faultFromStatus(0x1a, 0x16, 0x12)).toBe('cover_open')
    expect(faultFromStatus(0x1a, 0x52, 0x12)).toBe('error')
    expect(faultFromStatus(0x1a, 0x12, 0x12)).toBe('offline')
    expect(faultFromPaperStatus(0x00)).toBeNull()
    expect(faultFromPaperStatus(0x0c)).toBe('paper_out')
  })

  it('parses network targets', () => {
    expect(parseTcpTarget('tcp://10.0.0.5')).toEqual({ host: '10.0.0.5', port: 9100, status: true })
    expect(parseTcpTarget('tcp://printer.local:9101?status=off')).toEqual({
      host: 'printer.local',
      port: 9101,
      status: false,
    })
    expect(parseTcpTarget('/dev/usb/lp0')).toBeNull()
  })
})
