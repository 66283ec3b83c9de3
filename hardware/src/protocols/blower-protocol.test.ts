import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  MAX_FRAME_BYTES,
  createDeviceDecoder,
  createFrameParser,
  createHostDecoder,
  crc32c,
  decodeDeviceFrame,
  encodeDeviceMessage,
  encodeFrame,
  encodeHostCommand,
  nextSeq,
  type DeviceMessage,
} from './blower-protocol.ts'

const ascii = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => new TextDecoder().decode(b)
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

// Byte fixtures; the CRCs were computed with an independent bit-by-bit CRC-32C implementation.
const HELLO = ascii('$HELLO,1,BLW-01,1.4.2,AJ-000123,90,0000BEEF*1CC2C616\r\n')
const BALL_42 = ascii('$BALL,7,42,98*6519ED74\r\n')
const HB = ascii('$HB,2,15*F4B55BBF\r\n')
const JAM = ascii('$FLT,3,JAM,chute blocked*3D880B3B\r\n')
const READY = ascii('$STAT,4,READY*F37D1936\r\n')

describe('CRC-32C', () => {
  it('matches the standard check value', () => {
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283)
  })
})

describe('frame encoding', () => {
  it('produces the documented bytes', () => {
    expect(text(encodeFrame('BALL', 7, [42, 98]))).toBe(text(BALL_42))
    expect(
      text(
        encodeDeviceMessage({
          type: 'hello',
          seq: 1,
          deviceId: 'BLW-01',
          firmware: '1.4.2',
          sealCode: 'AJ-000123',
          ballCount: 90,
          bootId: '0000BEEF',
        }),
      ),
    ).toBe(text(HELLO))
    expect(text(encodeHostCommand({ type: 'release', seq: 5 }))).toBe('$REL,5*480F6071\r\n')
  })
  it('refuses reserved characters, bad types and sequence numbers', () => {
    expect(() => encodeFrame('BALL', 1, ['4,2'])).toThrow(RangeError)
    expect(() => encodeFrame('BALL', 1, ['4*2'])).toThrow(RangeError)
    expect(() => encodeFrame('BALL', 1, ['a\nb'])).toThrow(RangeError)
    expect(() => encodeFrame('ball', 1)).toThrow(RangeError)
    expect(() => encodeFrame('BALL', 0)).toThrow(RangeError)
    expect(() => encodeFrame('BALL', 65536)).toThrow(RangeError)
    expect(() => encodeFrame('FLT', 1, ['JAM', 'x'.repeat(MAX_FRAME_BYTES)])).toThrow(RangeError)
  })
  it('wraps sequence numbers from 65535 to 1', () => {
    expect(nextSeq(1)).toBe(2)
    expect(nextSeq(65535)).toBe(1)
  })
})

describe('frame parser', () => {
  it('decodes each message type from its bytes', () => {
    const d = createDeviceDecoder()
    expect(d.push(concat([HELLO, HB, READY, BALL_42, JAM]))).toEqual([
      {
        type: 'hello',
        seq: 1,
        deviceId: 'BLW-01',
        firmware: '1.4.2',
        sealCode: 'AJ-000123',
        ballCount: 90,
        bootId: '0000BEEF',
      },
      { type: 'heartbeat', seq: 2, uptimeS: 15 },
      { type: 'status', seq: 4, state: 'READY' },
      { type: 'ball', seq: 7, ball: 42, confidence: 98 },
      { type: 'fault', seq: 3, code: 'JAM', detail: 'chute blocked' },
    ])
  })

  it('reassembles a frame split into single bytes', () => {
    const d = createDeviceDecoder()
    const out: DeviceMessage[] = []
    for (const b of BALL_42) out.push(...d.push(Uint8Array.of(b)))
    expect(out).toEqual([{ type: 'ball', seq: 7, ball: 42, confidence: 98 }])
  })

  it('skips garbage and resynchronises on the next "$"', () => {
    const p = createFrameParser()
    const events = p.push(
      concat([Uint8Array.of(0x00, 0xff, 0x0d, 0x0a), ascii('noise'), BALL_42.subarray(0, 10), HB, ascii('zz'), READY]),
    )
    expect(events.filter((e) => e.kind === 'frame').map((e) => e.kind === 'frame' && e.frame.type)).toEqual([
      'HB',
      'STAT',
    ])
    expect(p.stats.dropped.garbage).toBe(11)
    expect(p.stats.dropped.interrupted).toBe(10)
  })

  it('drops a frame whose checksum fails: a flipped digit never becomes another ball', () => {
    const bad = ascii('$BALL,7,43,98*6519ED74\r\n')
    const p = createFrameParser()
    expect(p.push(bad)).toEqual([{ kind: 'dropped', reason: 'bad-crc', bytes: bad.length }])
    expect(createDeviceDecoder().push(bad)).toEqual([])
  })

  it('drops frames that are too long, lack CR, or carry control bytes', () => {
    const p = createFrameParser()
    const long = ascii('$' + 'A'.repeat(MAX_FRAME_BYTES + 10) + '\r\n')
    expect(p.push(long).some((e) => e.kind === 'frame')).toBe(false)
    expect(p.push(ascii('$BALL,7,42,98*6519ED74\n')).some((e) => e.kind === 'frame')).toBe(false)
    expect(p.push(ascii('$BALL,7,4\x072,98*6519ED74\r\n')).some((e) => e.kind === 'frame')).toBe(false)
    expect(p.push(BALL_42).filter((e) => e.kind === 'frame')).toHaveLength(1)
  })

  it('refuses frames with a good CRC but an impossible content', () => {
    expect(decodeDeviceFrame({ type: 'BALL', seq: 1, fields: ['042', '98'] })).toBeNull()
    expect(decodeDeviceFrame({ type: 'BALL', seq: 1, fields: ['42', '101'] })).toBeNull()
    expect(decodeDeviceFrame({ type: 'BALL', seq: 1, fields: ['42'] })).toBeNull()
    expect(decodeDeviceFrame({ type: 'STAT', seq: 1, fields: ['DANCING'] })).toBeNull()
    expect(decodeDeviceFrame({ type: 'XYZ', seq: 1, fields: [] })).toBeNull()
    const d = createDeviceDecoder()
    expect(d.push(encodeFrame('BALL', 9, ['-1', '90']))).toEqual([])
    expect(d.stats.undecodable).toBe(1)
  })

  it('ignores a frame sent again with the same sequence number', () => {
    const d = createDeviceDecoder()
    expect(d.push(concat([HELLO, BALL_42, BALL_42, HB, BALL_42]))).toHaveLength(3)
    expect(d.stats.duplicates).toBe(2)
  })

  it('restarts the numbering on a HELLO with a new boot id, and not on a repeated one', () => {
    const d = createDeviceDecoder()
    d.push(concat([HELLO, BALL_42]))
    // The same HELLO again (retransmitted) does not open the door to a repeated BALL.
    expect(d.push(concat([HELLO, BALL_42]))).toEqual([])
    const reboot = encodeDeviceMessage({
      type: 'hello',
      seq: 1,
      deviceId: 'BLW-01',
      firmware: '1.4.2',
      sealCode: 'AJ-000123',
      ballCount: 90,
      bootId: '0000CAFE',
    })
    expect(d.push(concat([reboot, BALL_42])).map((m) => m.type)).toEqual(['hello', 'ball'])
  })

  it('decodes host commands and restarts on a new host id', () => {
    const h = createHostDecoder()
    const id = encodeHostCommand({ type: 'identify', seq: 1, hostId: '0A0B0C0D' })
    const rel = encodeHostCommand({ type: 'release', seq: 2 })
    expect(h.push(concat([id, rel, rel])).map((c) => c.type)).toEqual(['identify', 'release'])
    const id2 = encodeHostCommand({ type: 'identify', seq: 1, hostId: '11111111' })
    expect(h.push(concat([id2, rel])).map((c) => c.type)).toEqual(['identify', 'release'])
    expect(h.push(encodeHostCommand({ type: 'sim', seq: 3, action: 'OUTSIDE', args: ['91'] }))).toEqual([
      { type: 'sim', seq: 3, action: 'OUTSIDE', args: ['91'] },
    ])
  })
})

// ---------------------------------------------------------------- properties

const ballMsg = fc.record({ ball: fc.integer({ min: 0, max: 999 }), confidence: fc.integer({ min: 0, max: 100 }) })
const otherMsg = fc.oneof(
  fc.record({ type: fc.constant('heartbeat' as const), uptimeS: fc.nat(100000) }),
  fc.record({
    type: fc.constant('status' as const),
    state: fc.constantFrom('IDLE' as const, 'MIXING' as const, 'READY' as const),
  }),
  fc.record({
    type: fc.constant('fault' as const),
    code: fc.constantFrom('JAM' as const, 'AIR' as const),
    detail: fc.stringMatching(/^[a-z ]{0,20}$/),
  }),
)
const script = fc.array(
  fc.oneof(
    ballMsg.map((b) => ({ type: 'ball' as const, ...b })),
    otherMsg,
  ),
  { minLength: 1, maxLength: 30 },
)

/** Numbers messages 1..n and encodes them; returns the bytes and the ball events, keyed by sequence number. */
function encodeScript(msgs: Array<Record<string, unknown> & { type: string }>): {
  bytes: Uint8Array
  frames: Uint8Array[]
  balls: Map<number, { ball: number; confidence: number }>
} {
  const balls = new Map<number, { ball: number; confidence: number }>()
  const frames = msgs.map((m, i) => {
    const seq = i + 1
    if (m.type === 'ball') balls.set(seq, { ball: m.ball as number, confidence: m.confidence as number })
    return encodeDeviceMessage({ ...m, seq } as DeviceMessage)
  })
  return { bytes: concat(frames), frames, balls }
}

function ballsOut(msgs: DeviceMessage[]) {
  return msgs.flatMap((m) => (m.type === 'ball' ? [m] : []))
}

/** Splits bytes at the given cut points (any chunking). */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: Uint8Array[] = []
  let prev = 0
  for (const p of points) {
    out.push(bytes.subarray(prev, p))
    prev = p
  }
  out.push(bytes.subarray(prev))
  return out
}

describe('parser properties', () => {
  it('recovers every frame exactly, whatever the chunking', () => {
    fc.assert(
      fc.property(script, fc.array(fc.nat(), { maxLength: 40 }), (msgs, cuts) => {
        const { bytes, balls } = encodeScript(msgs)
        const d = createDeviceDecoder()
        const out = chunk(bytes, cuts).flatMap((c) => d.push(c))
        expect(out).toHaveLength(msgs.length)
        expect(ballsOut(out).map((m) => [m.seq, m.ball, m.confidence])).toEqual(
          [...balls].map(([seq, b]) => [seq, b.ball, b.confidence]),
        )
      }),
    )
  })

  it('recovers every frame with garbage between frames', () => {
    const junk = fc.uint8Array({ maxLength: 40 }).map((a) => a.map((b) => (b === 0x24 ? 0x23 : b)))
    fc.assert(
      fc.property(script, fc.array(junk, { minLength: 31, maxLength: 31 }), (msgs, junks) => {
        const { frames, balls } = encodeScript(msgs)
        const bytes = concat(frames.flatMap((f, i) => [junks[i], f]))
        const out = createDeviceDecoder().push(bytes)
        expect(ballsOut(out).map((m) => m.seq)).toEqual([...balls.keys()])
      }),
    )
  })

  it('never yields a ball that was not sent when up to 5 bits flip in each frame', () => {
    // CRC-32C has Hamming distance 6 at these lengths: every pattern of up to 5 flipped bits in a frame is caught.
    const flips = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(
        script,
        fc.array(flips, { minLength: 30, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (msgs, perFrame, cuts) => {
          const { frames, balls } = encodeScript(msgs)
          const noisy = frames.map((f, i) => {
            const copy = Uint8Array.from(f)
            for (const [pos, bit] of perFrame[i]) copy[pos % copy.length] ^= 1 << bit
            return copy
          })
          const d = createDeviceDecoder()
          const out = chunk(concat(noisy), cuts).flatMap((c) => d.push(c))
          for (const m of ballsOut(out)) expect(balls.get(m.seq)).toEqual({ ball: m.ball, confidence: m.confidence })
        },
      ),
      { numRuns: 300 },
    )
  })

  it('never yields a ball that was not sent when bytes are dropped, inserted or replaced anywhere', () => {
    const edit = fc.oneof(
      fc.record({ op: fc.constant('drop' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 30 }) }),
      fc.record({
        op: fc.constant('insert' as const),
        at: fc.nat(),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 20 }),
      }),
      fc.record({ op: fc.constant('replace' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    )
    fc.assert(
      fc.property(script, fc.array(edit, { minLength: 1, maxLength: 15 }), (msgs, edits) => {
        const { bytes, balls } = encodeScript(msgs)
        let b = Array.from(bytes)
        for (const e of edits) {
          const at = e.at % (b.length + 1)
          if (e.op === 'drop') b = [...b.slice(0, at), ...b.slice(at + e.len)]
          else if (e.op === 'insert') b = [...b.slice(0, at), ...e.bytes, ...b.slice(at)]
          else if (at < b.length) b[at] = e.byte
        }
        for (const m of ballsOut(createDeviceDecoder().push(Uint8Array.from(b))))
          expect(balls.get(m.seq)).toEqual({ ball: m.ball, confidence: m.confidence })
      }),
      { numRuns: 500 },
    )
  })

  it('turns pure noise into no message at all', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (noise) => {
        expect(createDeviceDecoder().push(noise)).toEqual([])
      }),
    )
  })

  it('yields each sequence number at most once, however often frames repeat', () => {
    fc.assert(
      fc.property(script, fc.array(fc.nat(), { maxLength: 60 }), (msgs, order) => {
        const { frames } = encodeScript(msgs)
        const replay = [...frames, ...order.map((i) => frames[i % frames.length])]
        const out = createDeviceDecoder().push(concat(replay))
        expect(out.map((m) => m.seq)).toEqual(frames.map((_, i) => i + 1))
      }),
    )
  })
})
