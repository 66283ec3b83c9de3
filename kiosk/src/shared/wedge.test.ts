import { describe, expect, it } from 'vitest'
import { createWedgeDetector, TICKET_CODE_SHAPE } from './wedge.ts'

function type(detector: ReturnType<typeof createWedgeDetector>, text: string, gapMs: number, start = 1000): number {
  let t = start
  for (const ch of text) detector.key(ch, (t += gapMs))
  detector.key('Enter', (t += gapMs))
  return t
}

describe('keyboard-wedge scanner detection', () => {
  it('takes a fast burst ending in Enter as a scan', () => {
    const scans: string[] = []
    type(
      createWedgeDetector((c) => scans.push(c)),
      'BLL1.V.v_abc.sig',
      5,
    )
    expect(scans).toEqual(['BLL1.V.v_abc.sig'])
  })

  it('ignores a person typing, short bursts and a pause inside the burst', () => {
    const scans: string[] = []
    const d = createWedgeDetector((c) => scans.push(c))
    type(d, 'BLL1.V.v_abc.sig', 150)
    type(d, 'abc', 5, 10_000)
    type(d, 'BLL1.V.v_abc.sig', 250, 15_000)
    let t = 20_000
    for (const ch of 'BLL1.V.v_') d.key(ch, (t += 5))
    t += 500
    for (const ch of 'abc') d.key(ch, (t += 5))
    d.key('Enter', t + 5)
    expect(scans).toEqual([])
  })
})

describe('whole codes only', () => {
  it('drops the tail of a burst cut by a stall instead of taking it for a code', () => {
    const scans: string[] = []
    const d = createWedgeDetector((c) => scans.push(c), { accept: (c) => TICKET_CODE_SHAPE.test(c) })
    const code = 'BLL1.C.c_abcdefghij.' + 'A'.repeat(86)
    let t = 0
    for (const ch of code.slice(0, 40)) d.key(ch, (t += 3))
    t += 400
    for (const ch of code.slice(40)) d.key(ch, (t += 3))
    d.key('Enter', t + 3)
    expect(scans).toEqual([])
    type(d, code, 3, 10_000)
    expect(scans).toEqual([code])
  })
})
