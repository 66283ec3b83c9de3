/**
 * `bolillo-blower-v1`: the line protocol between the draw server and a certified ball blower with an automatic
 * ball reader (BNG-30 to BNG-33). Pure: frames in, messages out, no I/O, no clock.
 *
 * ## Frame
 *
 * ```
 * $<TYPE>,<SEQ>[,<FIELD>]...*<CRC>\r\n
 * ```
 *
 * - `TYPE`: 2 to 5 capital letters. `SEQ`: decimal 1..65535 without leading zeros; each side numbers its own
 *   frames, +1 per frame, wrapping 65535 -> 1. A frame sent again (same SEQ since the last HELLO) is ignored.
 * - `FIELD`: printable ASCII (0x20..0x7E) except `$`, `*` and `,`; may be empty.
 * - `CRC`: CRC-32C (Castagnoli, reflected poly 0x82F63B78, init and xorout 0xFFFFFFFF) of the bytes between
 *   `$` and `*` (exclusive), as 8 capital hex digits. CRC-32C rather than a CRC-16: at our frame lengths (at most
 *   {@link MAX_FRAME_BYTES} bytes) it detects every error of up to 5 flipped bits, and lets through only 1 in
 *   2^32 of the frames two dropped-byte runs splice together (a CRC-16 passes 1 in 65,536 of those).
 * - At most {@link MAX_FRAME_BYTES} bytes from `$` to `\n`. Anything that is not a whole, valid frame is dropped
 *   and the parser resynchronises on the next `$`: a noisy line loses frames, it never invents one.
 *
 * ## Device -> server
 *
 * | frame | fields | meaning |
 * | --- | --- | --- |
 * | `HELLO` | deviceId, firmware, sealCode, ballCount, bootId | identification, at power-up and on `ID`; `sealCode` is the regulator's seal (GEN-7); a new `bootId` (8 hex) restarts the sequence numbers |
 * | `BALL` | ball, confidence | the reader read `ball` (integer 0..999, the set's range is checked by the server) with `confidence` 0..100 % |
 * | `STAT` | state | `IDLE`, `MIXING` or `READY` (a ball is in the chute) |
 * | `FLT` | code, detail | a fault: `JAM`, `READER`, `AIR`, `DOOR`, `EMPTY` or `OTHER`; `detail` is free text |
 * | `HB` | uptimeS | heartbeat, at least once a second; silence beyond the driver's timeout means disconnected |
 * | `ACK` | cmdSeq | the command numbered `cmdSeq` was accepted |
 * | `NAK` | cmdSeq, reason | the command numbered `cmdSeq` was refused (`BUSY`, `FAULT`, `UNKNOWN`...) |
 *
 * ## Server -> device
 *
 * | frame | fields | meaning |
 * | --- | --- | --- |
 * | `ID` | hostId | send `HELLO`; `hostId` (8 hex) names this server run: a new one restarts the sequence numbers |
 * | `MIX` | | start mixing |
 * | `REL` | | release the next ball to the reader |
 * | `STOP` | | stop the air / drum |
 * | `SIM` | action, arg... | simulator control only (real firmware answers `NAK,<seq>,<cmdSeq>,UNKNOWN`): `JAM`, `CLEAR`, `DISCONNECT`, `RECONNECT`, `TWICE` (read the next ball twice), `DUP` (next ball is a duplicate), `OUTSIDE[,ball]`, `MISREAD,ball[,confidence]`, `RELOAD` |
 *
 * @example
 * encodeFrame('BALL', 7, ['42', '98']) // "$BALL,7,42,98*1B3F9C2A\r\n" (CRC shown for shape only)
 */

/** Longest frame accepted, `$` through `\n`. */
export const MAX_FRAME_BYTES = 160
/** Highest sequence number; the next one is 1. */
export const MAX_SEQ = 65535

const DOLLAR = 0x24
const STAR = 0x2a
const CR = 0x0d
const LF = 0x0a

// ---------------------------------------------------------------- CRC-32C

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32C (Castagnoli) of `bytes[from..to)`. `crc32c(ascii("123456789")) === 0xE3069283`. */
export function crc32c(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let c = 0xffffffff
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

// ---------------------------------------------------------------- frames

/** A frame whose structure and checksum are valid. */
export interface Frame {
  type: string
  seq: number
  fields: string[]
}

const TYPE_RE = /^[A-Z]{2,5}$/
const SEQ_RE = /^[1-9][0-9]{0,4}$/
const FIELD_RE = /^[\x20-\x7e]*$/

function isFieldText(s: string): boolean {
  return FIELD_RE.test(s) && !/[$*,]/.test(s)
}

/**
 * Encodes one frame, CRC and `\r\n` included.
 *
 * @throws RangeError for a bad type, a sequence number outside 1..65535, a field with a reserved or non-printable
 *   character, or a frame longer than {@link MAX_FRAME_BYTES}.
 */
export function encodeFrame(type: string, seq: number, fields: readonly (string | number)[] = []): Uint8Array {
  if (!TYPE_RE.test(type)) throw new RangeError(`frame type must be 2-5 capital letters, got ${JSON.stringify(type)}`)
  if (!Number.isInteger(seq) || seq < 1 || seq > MAX_SEQ)
    throw new RangeError(`sequence number must be 1..${MAX_SEQ}, got ${seq}`)
  const texts = fields.map(String)
  for (const f of texts)
    if (!isFieldText(f)) throw new RangeError(`field ${JSON.stringify(f)} has a reserved or non-printable character`)
  const body = [type, String(seq), ...texts].join(',')
  const bodyBytes = new TextEncoder().encode(body)
  const crc = crc32c(bodyBytes).toString(16).toUpperCase().padStart(8, '0')
  const frame = new TextEncoder().encode(`$${body}*${crc}\r\n`)
  if (frame.length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${frame.length} bytes exceeds ${MAX_FRAME_BYTES}`)
  return frame
}

/** Why bytes were dropped; counted by the parser for diagnostics, never turned into a message. */
export type DropReason = 'garbage' | 'too-long' | 'bad-byte' | 'malformed' | 'bad-crc' | 'interrupted'

export type ParseEvent = { kind: 'frame'; frame: Frame } | { kind: 'dropped'; reason: DropReason; bytes: number }

/**
 * Incremental frame parser over byte chunks of any size: frames may be split across chunks or several may arrive
 * in one. Holds at most {@link MAX_FRAME_BYTES} bytes between calls.
 */
export interface FrameParser {
  push(chunk: Uint8Array): ParseEvent[]
  /** Totals since creation. */
  readonly stats: { frames: number; dropped: Record<DropReason, number> }
}

export function createFrameParser(): FrameParser {
  const buf = new Uint8Array(MAX_FRAME_BYTES)
  let len = 0
  let inFrame = false
  let garbage = 0
  const stats = {
    frames: 0,
    dropped: { garbage: 0, 'too-long': 0, 'bad-byte': 0, malformed: 0, 'bad-crc': 0, interrupted: 0 } as Record<
      DropReason,
      number
    >,
  }

  const drop = (out: ParseEvent[], reason: DropReason, bytes: number) => {
    if (bytes <= 0) return
    stats.dropped[reason] += bytes
    out.push({ kind: 'dropped', reason, bytes })
  }
  const flushGarbage = (out: ParseEvent[]) => {
    drop(out, 'garbage', garbage)
    garbage = 0
  }

  function finish(out: ParseEvent[]): void {
    // buf[0..len) is "$...\n"
    const frame = parseFrameBytes(buf, len)
    if (frame === 'bad-crc') drop(out, 'bad-crc', len)
    else if (frame === null) drop(out, 'malformed', len)
    else {
      stats.frames++
      out.push({ kind: 'frame', frame })
    }
  }

  return {
    stats,
    push(chunk: Uint8Array): ParseEvent[] {
      const out: ParseEvent[] = []
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]
        if (!inFrame) {
          if (b === DOLLAR) {
            flushGarbage(out)
            inFrame = true
            buf[0] = b
            len = 1
          } else garbage++
          continue
        }
        if (b === DOLLAR) {
          // A new frame starts inside the previous one: the previous one lost its end. Resynchronise here.
          drop(out, 'interrupted', len)
          buf[0] = b
          len = 1
          continue
        }
        if (b === LF) {
          if (len + 1 > MAX_FRAME_BYTES) {
            drop(out, 'too-long', len + 1)
          } else {
            buf[len++] = b
            finish(out)
          }
          inFrame = false
          len = 0
          continue
        }
        if ((b < 0x20 || b > 0x7e) && b !== CR) {
          drop(out, 'bad-byte', len + 1)
          inFrame = false
          len = 0
          continue
        }
        if (len + 1 >= MAX_FRAME_BYTES) {
          // No room left for the "\n": the frame is too long. Skip to the next "$".
          drop(out, 'too-long', len + 1)
          inFrame = false
          len = 0
          continue
        }
        buf[len++] = b
      }
      flushGarbage(out)
      return out
    },
  }
}

/**
 * Checks one complete candidate frame `bytes[0..len)` (from `$` to `\n`). Returns the frame, `'bad-crc'` when
 * only the checksum is wrong, or `null` when the structure is wrong.
 */
function parseFrameBytes(bytes: Uint8Array, len: number): Frame | 'bad-crc' | null {
  // Minimum: "$XX,1*00000000\r\n" = 16 bytes.
  if (len < 16 || bytes[0] !== DOLLAR || bytes[len - 1] !== LF || bytes[len - 2] !== CR) return null
  const star = len - 2 - 9
  if (bytes[star] !== STAR) return null
  let crcText = ''
  for (let i = star + 1; i < len - 2; i++) crcText += String.fromCharCode(bytes[i])
  if (!/^[0-9A-F]{8}$/.test(crcText)) return null
  for (let i = 1; i < star; i++) if (bytes[i] === STAR || bytes[i] === DOLLAR || bytes[i] === CR) return null
  const body = String.fromCharCode(...bytes.subarray(1, star))
  const parts = body.split(',')
  if (parts.length < 2 || !TYPE_RE.test(parts[0]) || !SEQ_RE.test(parts[1])) return null
  const seq = Number(parts[1])
  if (seq > MAX_SEQ) return null
  if (crc32c(bytes, 1, star) !== parseInt(crcText, 16)) return 'bad-crc'
  return { type: parts[0], seq, fields: parts.slice(2) }
}

// ---------------------------------------------------------------- device messages

export const BlowerState = { Idle: 'IDLE', Mixing: 'MIXING', Ready: 'READY' } as const
export type BlowerState = (typeof BlowerState)[keyof typeof BlowerState]

export const FaultCode = {
  Jam: 'JAM',
  Reader: 'READER',
  Air: 'AIR',
  Door: 'DOOR',
  Empty: 'EMPTY',
  Other: 'OTHER',
} as const
export type FaultCode = (typeof FaultCode)[keyof typeof FaultCode]

/** What a device says, decoded and checked field by field. */
export type DeviceMessage =
  | {
      type: 'hello'
      seq: number
      deviceId: string
      firmware: string
      sealCode: string
      ballCount: number
      bootId: string
    }
  | { type: 'ball'; seq: number; ball: number; confidence: number }
  | { type: 'status'; seq: number; state: BlowerState }
  | { type: 'fault'; seq: number; code: FaultCode; detail: string }
  | { type: 'heartbeat'; seq: number; uptimeS: number }
  | { type: 'ack'; seq: number; cmdSeq: number }
  | { type: 'nak'; seq: number; cmdSeq: number; reason: string }

const INT_RE = /^(0|[1-9][0-9]{0,8})$/
const ID_RE = /^[A-Za-z0-9._:-]{1,40}$/
const intIn = (s: string | undefined, min: number, max: number): number | null => {
  if (s === undefined || !INT_RE.test(s)) return null
  const n = Number(s)
  return n >= min && n <= max ? n : null
}

/**
 * Decodes a device frame into a message, or `null` when the type is unknown or a field is out of its range: a
 * frame that passed its CRC but says something impossible is dropped, never guessed at.
 */
export function decodeDeviceFrame(frame: Frame): DeviceMessage | null {
  const f = frame.fields
  const seq = frame.seq
  switch (frame.type) {
    case 'HELLO': {
      if (f.length !== 5) return null
      const [deviceId, firmware, sealCode, ballCountText, bootId] = f
      const ballCount = intIn(ballCountText, 1, 999)
      if (
        !ID_RE.test(deviceId) ||
        firmware.length === 0 ||
        firmware.length > 40 ||
        sealCode.length > 40 ||
        ballCount === null ||
        !/^[0-9A-F]{8}$/.test(bootId)
      )
        return null
      return { type: 'hello', seq, deviceId, firmware, sealCode, ballCount, bootId }
    }
    case 'BALL': {
      if (f.length !== 2) return null
      const ball = intIn(f[0], 0, 999)
      const confidence = intIn(f[1], 0, 100)
      if (ball === null || confidence === null) return null
      return { type: 'ball', seq, ball, confidence }
    }
    case 'STAT': {
      if (f.length !== 1 || !(Object.values(BlowerState) as string[]).includes(f[0])) return null
      return { type: 'status', seq, state: f[0] as BlowerState }
    }
    case 'FLT': {
      if (f.length !== 2 || !(Object.values(FaultCode) as string[]).includes(f[0])) return null
      return { type: 'fault', seq, code: f[0] as FaultCode, detail: f[1] }
    }
    case 'HB': {
      const uptimeS = f.length === 1 ? intIn(f[0], 0, 999_999_999) : null
      return uptimeS === null ? null : { type: 'heartbeat', seq, uptimeS }
    }
    case 'ACK': {
      const cmdSeq = f.length === 1 ? intIn(f[0], 1, MAX_SEQ) : null
      return cmdSeq === null ? null : { type: 'ack', seq, cmdSeq }
    }
    case 'NAK': {
      const cmdSeq = f.length === 2 ? intIn(f[0], 1, MAX_SEQ) : null
      return cmdSeq === null ? null : { type: 'nak', seq, cmdSeq, reason: f[1] }
    }
    default:
      return null
  }
}

/** Encodes a device message (used by the simulator and by fixtures). */
export function encodeDeviceMessage(m: DeviceMessage): Uint8Array {
  switch (m.type) {
    case 'hello':
      return encodeFrame('HELLO', m.seq, [m.deviceId, m.firmware, m.sealCode, m.ballCount, m.bootId])
    case 'ball':
      return encodeFrame('BALL', m.seq, [m.ball, m.confidence])
    case 'status':
      return encodeFrame('STAT', m.seq, [m.state])
    case 'fault':
      return encodeFrame('FLT', m.seq, [m.code, m.detail])
    case 'heartbeat':
      return encodeFrame('HB', m.seq, [m.uptimeS])
    case 'ack':
      return encodeFrame('ACK', m.seq, [m.cmdSeq])
    case 'nak':
      return encodeFrame('NAK', m.seq, [m.cmdSeq, m.reason])
    default: {
      const _never: never = m
      throw new RangeError(`unknown message ${String(_never)}`)
    }
  }
}

// ---------------------------------------------------------------- host commands

export const SimAction = {
  Jam: 'JAM',
  Clear: 'CLEAR',
  Disconnect: 'DISCONNECT',
  Reconnect: 'RECONNECT',
  ReadTwice: 'TWICE',
  Duplicate: 'DUP',
  Outside: 'OUTSIDE',
  Misread: 'MISREAD',
  Reload: 'RELOAD',
} as const
export type SimAction = (typeof SimAction)[keyof typeof SimAction]

export type HostCommand =
  | { type: 'identify'; seq: number; hostId: string }
  | { type: 'mix'; seq: number }
  | { type: 'release'; seq: number }
  | { type: 'stop'; seq: number }
  | { type: 'sim'; seq: number; action: SimAction; args: string[] }

/** Decodes a server command (the device side: firmware or simulator). Unknown commands give `null`. */
export function decodeHostFrame(frame: Frame): HostCommand | null {
  const seq = frame.seq
  switch (frame.type) {
    case 'ID':
      return frame.fields.length === 1 && /^[0-9A-F]{8}$/.test(frame.fields[0])
        ? { type: 'identify', seq, hostId: frame.fields[0] }
        : null
    case 'MIX':
      return frame.fields.length === 0 ? { type: 'mix', seq } : null
    case 'REL':
      return frame.fields.length === 0 ? { type: 'release', seq } : null
    case 'STOP':
      return frame.fields.length === 0 ? { type: 'stop', seq } : null
    case 'SIM': {
      const [action, ...args] = frame.fields
      if (!(Object.values(SimAction) as string[]).includes(action)) return null
      return { type: 'sim', seq, action: action as SimAction, args }
    }
    default:
      return null
  }
}

export function encodeHostCommand(c: HostCommand): Uint8Array {
  switch (c.type) {
    case 'identify':
      return encodeFrame('ID', c.seq, [c.hostId])
    case 'mix':
      return encodeFrame('MIX', c.seq)
    case 'release':
      return encodeFrame('REL', c.seq)
    case 'stop':
      return encodeFrame('STOP', c.seq)
    case 'sim':
      return encodeFrame('SIM', c.seq, [c.action, ...c.args])
    default: {
      const _never: never = c
      throw new RangeError(`unknown command ${String(_never)}`)
    }
  }
}

// ---------------------------------------------------------------- streams with de-duplication

/** Sequence numbers remembered for duplicate detection (a device never has this many frames in flight). */
export const DEDUP_WINDOW = 256

export interface DecoderStats {
  frames: number
  duplicates: number
  undecodable: number
  dropped: Record<DropReason, number>
}

/**
 * Frame parser + message decoder + duplicate filter for one direction of the line. A frame whose sequence number
 * was already seen (within the last {@link DEDUP_WINDOW} frames, since the last restart) is a retransmission and
 * is ignored. A `HELLO` with a new `bootId` (device side) or an `ID` with a new `hostId` (server side) means the
 * sender restarted: its numbering starts over, so the window is cleared.
 */
export interface MessageDecoder<M> {
  push(chunk: Uint8Array): M[]
  readonly stats: DecoderStats
}

function createDecoder<M extends { seq: number }>(
  decode: (f: Frame) => M | null,
  restartKey: (m: M) => string | null,
): MessageDecoder<M> {
  const parser = createFrameParser()
  const recent: number[] = []
  const seen = new Set<number>()
  let boot: string | null = null
  const stats: DecoderStats = { frames: 0, duplicates: 0, undecodable: 0, dropped: parser.stats.dropped }
  const remember = (seq: number) => {
    seen.add(seq)
    recent.push(seq)
    if (recent.length > DEDUP_WINDOW) seen.delete(recent.shift()!)
  }
  return {
    stats,
    push(chunk: Uint8Array): M[] {
      const out: M[] = []
      for (const e of parser.push(chunk)) {
        if (e.kind !== 'frame') continue
        const m = decode(e.frame)
        if (!m) {
          stats.undecodable++
          continue
        }
        const key = restartKey(m)
        if (key !== null && key !== boot) {
          boot = key
          seen.clear()
          recent.length = 0
        } else if (seen.has(m.seq)) {
          stats.duplicates++
          continue
        }
        remember(m.seq)
        stats.frames++
        out.push(m)
      }
      return out
    },
  }
}

/** Decoder for what a device sends (the server side). */
export function createDeviceDecoder(): MessageDecoder<DeviceMessage> {
  return createDecoder(decodeDeviceFrame, (m) => (m.type === 'hello' ? m.bootId : null))
}

/** Decoder for what the server sends (the device or simulator side). */
export function createHostDecoder(): MessageDecoder<HostCommand> {
  return createDecoder(decodeHostFrame, (c) => (c.type === 'identify' ? c.hostId : null))
}

/** Next sequence number after `seq` (1..65535, wrapping). */
export function nextSeq(seq: number): number {
  return seq >= MAX_SEQ ? 1 : seq + 1
}
