import { describe, expect, it } from 'vitest'
import { rangesInPlay, salesAnnouncement, type SoldRange } from './announcement.ts'

// A series sold at the counter (1..120) and in the terminals' reserved block (301..310), and a second series.
const ranges: SoldRange[] = [
  { series: 'A', from: 1, to: 120, count: 120 },
  { series: 'A', from: 301, to: 310, count: 10 },
  { series: 'B', from: 41, to: 80, count: 40 },
]
const prizes = { linePrize: 'Bs 78,00', bingoPrize: 'Bs 397,80' }

describe('the close-of-sales announcement (BNG-17, BNG-18, CFG-45)', () => {
  it("reads Bolivia's fixed formula with every run sold, never one span over unsold numbers (BNG-17)", () => {
    expect(salesAnnouncement({ style: 'formula', ranges, cardsSold: 170, ...prizes }, 'es')).toBe(
      'Tickets autorizados vendidos, 170 cartones vendidos, de la serie A del número 1 al 120 y del número 301 al 310 ' +
        'y de la serie B del número 41 al 80. Premio de línea: Bs 78,00. Premio de bingo: Bs 397,80. Comienza la partida.',
    )
  })
  it('tells Cantabria the series and numbers in play and that other prizes are on the panels (BNG-18)', () => {
    const text = salesAnnouncement({ style: 'ranges', ranges, cardsSold: 170, ...prizes }, 'es')
    expect(text).toContain(
      'En juego: serie A, del número 1 al 120 y del número 301 al 310; serie B, del número 41 al 80.',
    )
    expect(text).toContain('Los importes de los demás premios se muestran en los paneles de información.')
    expect(text).not.toContain('Tickets autorizados')
    expect(salesAnnouncement({ style: 'ranges', ranges, cardsSold: 170, ...prizes }, 'en')).toContain(
      'In play: series A, from number 1 to 120 and from number 301 to 310; series B, from number 41 to 80.',
    )
  })
  it('lists three runs of one series with commas and a final "y"', () => {
    const three: SoldRange[] = [
      { series: 'C', from: 1, to: 5, count: 5 },
      { series: 'C', from: 9, to: 9, count: 1 },
      { series: 'C', from: 20, to: 21, count: 2 },
    ]
    expect(salesAnnouncement({ style: 'formula', ranges: three, cardsSold: 8, ...prizes }, 'es')).toContain(
      'de la serie C del número 1 al 5, del número 9 al 9 y del número 20 al 21.',
    )
    expect(rangesInPlay(three)).toBe('C 1–5, 9, 20–21')
  })
  it('shows the panels the runs per series', () => {
    expect(rangesInPlay(ranges)).toBe('A 1–120, 301–310 · B 41–80')
  })
})
