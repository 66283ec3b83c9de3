/**
 * A seeded stand-in for a ball blower with automatic reader that speaks `bolillo-blower-v1`
 * (protocols/blower-protocol.ts). The simulator itself is transport-free (`receive` bytes in, `onSend` bytes out);
 * {@link attachSimulatorToPort} runs it on a serial device such as one end of a socat pty pair, and
 * sim-binding.ts plugs it into `serialport` in memory for unit tests and the demo.
 *
 * Physical-like mix: the balls sit in a drum as a list; mixing moves balls around by random transpositions (more
 * of them the longer the air runs), and a release takes the ball at the suction tube (the head of the list).
 * Everything random comes from one seeded generator, so a run can be replayed.
 *
 * Trouble on request, through the API or `SIM` control frames: jam, disconnect (silence), reconnect, read the
 * next ball twice, release a duplicate ball, report a ball outside the set, misread the next ball.
 */
import { SerialPort } from 'serialport'
import { createSeededRng } from '../../../server/src/shared/rng.ts'
import {
  BlowerState,
  FaultCode,
  SimAction,
  createHostDecoder,
  encodeDeviceMessage,
  nextSeq,
  type DeviceMessage,
  type HostCommand,
} from '../protocols/blower-protocol.ts'

export interface BlowerSimOptions {
  seed: string | number
  deviceId?: string
  sealCode?: string
  firmware?: string
  ballCount?: number
  /** Heartbeat period; 0 turns heartbeats off (unit tests drive them with `heartbeat()`). */
  heartbeatMs?: number
  /** Time between accepting a release and reading the ball. */
  releaseDelayMs?: number
  /** Reader confidence of a normal read is drawn from this range (percent). */
  confidence?: { min: number; max: number }
}

type Trouble =
  | { kind: 'twice' }
  | { kind: 'duplicate' }
  | { kind: 'outside'; ball: number }
  | { kind: 'misread'; ball: number; confidence: number }

export interface BlowerSimulator {
  readonly deviceId: string
  readonly state: BlowerState
  readonly jammed: boolean
  readonly disconnected: boolean
  /** Balls released since the last reload, in order (the physical balls, not what the reader said). */
  readonly released: readonly number[]
  /** Balls still in the drum. */
  readonly remaining: number
  /** Bytes from the server. */
  receive(bytes: Uint8Array): void
  /** Bytes to the server. */
  onSend(cb: (bytes: Uint8Array) => void): () => void
  /** Starts heartbeats and says HELLO. */
  power(): void
  /** Stops every timer. */
  shutdown(): void
  heartbeat(): void
  /** Staff put every ball back into the drum (a new game). */
  reload(): void
  jam(detail?: string): void
  clearJam(): void
  /** The line goes silent in both directions (cable pulled). */
  disconnect(): void
  reconnect(): void
  readNextTwice(): void
  duplicateNext(): void
  outsideNext(ball?: number): void
  misreadNext(ball: number, confidence?: number): void
}

export function createBlowerSimulator(options: BlowerSimOptions): BlowerSimulator {
  const rng = createSeededRng(`blower-sim|${options.seed}`)
  const deviceId = options.deviceId ?? 'SIM-BLOWER-1'
  const sealCode = options.sealCode ?? 'SIM-SEAL-0001'
  const firmware = options.firmware ?? 'sim-1.0'
  const ballCount = options.ballCount ?? 90
  const heartbeatMs = options.heartbeatMs ?? 500
  const releaseDelayMs = options.releaseDelayMs ?? 20
  const conf = options.confidence ?? { min: 95, max: 100 }
  const bootId = rng.nextUint32().toString(16).toUpperCase().padStart(8, '0')
  const decoder = createHostDecoder()
  const listeners = new Set<(b: Uint8Array) => void>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let hbTimer: ReturnType<typeof setInterval> | null = null
  let seq = 0
  let state: BlowerState = BlowerState.Idle
  let jammed = false
  let disconnected = false
  let drum: number[] = []
  let released: number[] = []
  const troubles: Trouble[] = []
  const startedAt = Date.now()

  const send = (m: DistributiveOmit<DeviceMessage, 'seq'>) => {
    if (disconnected) return
    seq = nextSeq(seq)
    const bytes = encodeDeviceMessage({ ...m, seq } as DeviceMessage)
    for (const l of listeners) l(bytes)
  }
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const setState = (s: BlowerState) => {
    state = s
    send({ type: 'status', state: s })
  }
  const hello = () => send({ type: 'hello', deviceId, firmware, sealCode, ballCount, bootId })

  function reload() {
    drum = Array.from({ length: ballCount }, (_, i) => i + 1)
    released = []
    mix(ballCount * 4)
  }
  /** Random transpositions: the air moves balls around the drum. */
  function mix(moves: number) {
    for (let k = 0; k < moves && drum.length > 1; k++) {
      const i = rng.nextInt(drum.length)
      const j = rng.nextInt(drum.length)
      const t = drum[i]
      drum[i] = drum[j]
      drum[j] = t
    }
  }
  const confidence = () => conf.min + rng.nextInt(conf.max - conf.min + 1)

  function release(cmd: HostCommand) {
    if (jammed) {
      send({ type: 'nak', cmdSeq: cmd.seq, reason: 'FAULT' })
      send({ type: 'fault', code: FaultCode.Jam, detail: 'ball stuck in the chute' })
      return
    }
    if (state === BlowerState.Idle) {
      send({ type: 'nak', cmdSeq: cmd.seq, reason: 'IDLE' })
      return
    }
    if (drum.length === 0) {
      send({ type: 'nak', cmdSeq: cmd.seq, reason: 'EMPTY' })
      send({ type: 'fault', code: FaultCode.Empty, detail: 'no balls left in the drum' })
      return
    }
    send({ type: 'ack', cmdSeq: cmd.seq })
    later(releaseDelayMs, () => {
      if (jammed || disconnected) return
      mix(8 + rng.nextInt(16))
      const ball = drum.shift()!
      released.push(ball)
      setState(BlowerState.Ready)
      const trouble = troubles.shift()
      if (!trouble) send({ type: 'ball', ball, confidence: confidence() })
      else if (trouble.kind === 'twice') {
        send({ type: 'ball', ball, confidence: confidence() })
        send({ type: 'ball', ball, confidence: confidence() })
      } else if (trouble.kind === 'duplicate') {
        // A second ball with a number already drawn: the set holds a duplicate (BNG-82).
        const earlier = released.length > 1 ? released[rng.nextInt(released.length - 1)] : ball
        send({ type: 'ball', ball: earlier, confidence: confidence() })
      } else if (trouble.kind === 'outside') send({ type: 'ball', ball: trouble.ball, confidence: confidence() })
      else send({ type: 'ball', ball: trouble.ball, confidence: trouble.confidence })
      setState(BlowerState.Mixing)
    })
  }

  function control(cmd: Extract<HostCommand, { type: 'sim' }>) {
    const n = (i: number) => Number(cmd.args[i])
    switch (cmd.action) {
      case SimAction.Jam:
        api.jam(cmd.args[0])
        break
      case SimAction.Clear:
        api.clearJam()
        break
      case SimAction.Disconnect:
        api.disconnect()
        return
      case SimAction.Reconnect:
        api.reconnect()
        break
      case SimAction.ReadTwice:
        api.readNextTwice()
        break
      case SimAction.Duplicate:
        api.duplicateNext()
        break
      case SimAction.Outside:
        api.outsideNext(cmd.args.length ? n(0) : undefined)
        break
      case SimAction.Misread:
        api.misreadNext(n(0), cmd.args.length > 1 ? n(1) : undefined)
        break
      case SimAction.Reload:
        api.reload()
        break
      default: {
        const _never: never = cmd.action
        return _never
      }
    }
    send({ type: 'ack', cmdSeq: cmd.seq })
  }

  function handle(cmd: HostCommand) {
    // Control frames go through even while "disconnected", so a test can plug the cable back in.
    if (cmd.type === 'sim') return control(cmd)
    if (disconnected) return
    switch (cmd.type) {
      case 'identify':
        hello()
        break
      case 'mix':
        if (jammed) {
          send({ type: 'nak', cmdSeq: cmd.seq, reason: 'FAULT' })
          break
        }
        send({ type: 'ack', cmdSeq: cmd.seq })
        mix(ballCount)
        setState(BlowerState.Mixing)
        break
      case 'release':
        release(cmd)
        break
      case 'stop':
        send({ type: 'ack', cmdSeq: cmd.seq })
        setState(BlowerState.Idle)
        break
      default: {
        const _never: never = cmd
        return _never
      }
    }
  }

  const api: BlowerSimulator = {
    deviceId,
    get state() {
      return state
    },
    get jammed() {
      return jammed
    },
    get disconnected() {
      return disconnected
    },
    get released() {
      return released
    },
    get remaining() {
      return drum.length
    },
    receive(bytes) {
      for (const cmd of decoder.push(bytes)) handle(cmd)
    },
    onSend(cb) {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    power() {
      if (heartbeatMs > 0 && !hbTimer) hbTimer = setInterval(() => api.heartbeat(), heartbeatMs)
      hello()
    },
    shutdown() {
      if (hbTimer) clearInterval(hbTimer)
      hbTimer = null
      for (const t of timers) clearTimeout(t)
      timers.clear()
    },
    heartbeat() {
      send({ type: 'heartbeat', uptimeS: Math.floor((Date.now() - startedAt) / 1000) })
    },
    reload,
    jam(detail = 'ball stuck in the chute') {
      jammed = true
      send({ type: 'fault', code: FaultCode.Jam, detail })
    },
    clearJam() {
      jammed = false
      setState(state)
    },
    disconnect() {
      disconnected = true
    },
    reconnect() {
      disconnected = false
      api.heartbeat()
    },
    readNextTwice() {
      troubles.push({ kind: 'twice' })
    },
    duplicateNext() {
      troubles.push({ kind: 'duplicate' })
    },
    outsideNext(ball = ballCount + 1) {
      troubles.push({ kind: 'outside', ball })
    },
    misreadNext(ball, confidence = 60) {
      troubles.push({ kind: 'misread', ball, confidence })
    },
  }
  reload()
  return api
}

/** Omit over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/**
 * Runs a simulator on a serial device (for example one end of `socat pty,raw,echo=0 pty,raw,echo=0`).
 * Resolves once the port is open and the simulator has said HELLO.
 */
export async function attachSimulatorToPort(
  sim: BlowerSimulator,
  path: string,
  baudRate = 9600,
): Promise<{ close(): Promise<void> }> {
  const port = new SerialPort({ path, baudRate, autoOpen: false })
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())))
  port.on('data', (chunk: Buffer) => sim.receive(new Uint8Array(chunk)))
  port.on('error', () => undefined)
  const off = sim.onSend((bytes) => {
    if (port.isOpen) port.write(Buffer.from(bytes))
  })
  sim.power()
  return {
    async close() {
      off()
      sim.shutdown()
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()))
    },
  }
}
