import { describe, expect, it } from 'vitest'
import { parseTypedSerial } from './typed-serial.ts'

// Issue 29 point 1: the serial as the caller hears and types it.
describe('parseTypedSerial', () => {
  it('reads the number alone, with its series, with or without dash, space, zeros or capitals', () => {
    expect(parseTypedSerial('41')).toEqual({ seriesCode: null, cardNo: 41 })
    expect(parseTypedSerial(' 00041 ')).toEqual({ seriesCode: null, cardNo: 41 })
    expect(parseTypedSerial('a41')).toEqual({ seriesCode: 'A', cardNo: 41 })
    expect(parseTypedSerial('A 41')).toEqual({ seriesCode: 'A', cardNo: 41 })
    expect(parseTypedSerial('A-00041')).toEqual({ seriesCode: 'A', cardNo: 41 })
    expect(parseTypedSerial('b2-7')).toEqual({ seriesCode: 'B2', cardNo: 7 })
  })
  it('refuses what is no serial', () => {
    for (const s of ['', 'A', 'L 4 1', '41A', 'A--41', '-41', 'A-4x']) expect(parseTypedSerial(s), s).toBeNull()
  })
})
