/**
 * The real blower driver: `bolillo-blower-v1` (protocols/blower-protocol.ts) over a serial port with
 * `serialport`. It identifies the device (HELLO), keeps a heartbeat watch, numbers and acknowledges commands,
 * and reopens the port after it is lost. Silence longer than the heartbeat timeout, or a lost port, is a
 * disconnection; commands then fail with DEVICE_UNAVAILABLE.
 */
import { SerialPortStream } from '@serialport/stream'
import { randomBytes } from 'node:crypto'
import { SerialPort } from 'serialport'
import { DomainError } from '../../../server/src/shared/errors.ts'
import {
  createDeviceDecoder,
  encodeHostCommand,
  nextSeq,
  type BlowerState,
  type DeviceMessage,
  type HostCommand,
  type MessageDecoder,
} from '../protocols/blower-protocol.ts'
import type { BallRead, BallReader, ConnectionChange, DeviceFault, DeviceIdentity, Unsubscribe } from '../ports.ts'
import type { SerialBinding } from './binding.ts'

export interface SerialBlowerOptions {
  path: string
  baudRate?: number
  /** No valid frame for this long means the device is gone (default 3000 ms; devices beat every second). */
  heartbeatTimeoutMs?: number
  /** How long a command waits for its ACK (default 2000 ms). */
  commandTimeoutMs?: number
  /** Wait between attempts to reopen a lost port (default 2000 ms; 0 = never reopen). */
  reopenMs?: number
  /** Another `serialport` binding (simulators/sim-binding.ts in tests and the demo). */
  binding?: SerialBinding
}

type PortLike = SerialPortStream

function listeners<T>() {
  const set = new Set<(v: T) => void>()
  return {
    add(cb: (v: T) => void): Unsubscribe {
      set.add(cb)
      return () => {
        set.delete(cb)
      }
    },
    emit(v: T) {
      for (const cb of [...set]) {
        try {
          cb(v)
        } catch {
          /* a listener must not break the line */
        }
      }
    },
  }
}

export interface SerialBlower extends BallReader {
  /** Opens the port and waits for the device's HELLO. */
  open(): Promise<DeviceIdentity>
  /** Driver counters for diagnostics. */
  readonly stats: MessageDecoder<DeviceMessage>['stats']
}

export function createSerialBlower(options: SerialBlowerOptions): SerialBlower {
  const baudRate = options.baudRate ?? 9600
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 3000
  const commandTimeoutMs = options.commandTimeoutMs ?? 2000
  const reopenMs = options.reopenMs ?? 2000
  const hostId = randomBytes(4).toString('hex').toUpperCase()
  const balls = listeners<BallRead>()
  const statuses = listeners<BlowerState>()
  const faults = listeners<DeviceFault>()
  const connections = listeners<ConnectionChange>()
  const helloWaiters = new Set<(id: DeviceIdentity) => void>()
  const pending = new Map<
    number,
    { resolve: () => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }
  >()
  let decoder = createDeviceDecoder()
  let port: PortLike | null = null
  let identity: DeviceIdentity | null = null
  let connected = false
  let state: BlowerState | null = null
  let seq = 0
  let watchdog: ReturnType<typeof setTimeout> | null = null
  let reopenTimer: ReturnType<typeof setTimeout> | null = null
  let closed = false
  let identified = false

  const unavailable = (why: string) =>
    new DomainError('DEVICE_UNAVAILABLE', `blower ${identity?.deviceId ?? options.path}: ${why}`, {
      deviceId: identity?.deviceId ?? null,
      path: options.path,
    })

  function setDisconnected(reason: string) {
    if (watchdog) clearTimeout(watchdog)
    watchdog = null
    identified = false
    for (const [, p] of pending) {
      clearTimeout(p.timer)
      p.reject(unavailable(reason))
    }
    pending.clear()
    if (!connected) return
    connected = false
    connections.emit({ connected: false, identity, reason })
  }

  function feedWatchdog() {
    if (watchdog) clearTimeout(watchdog)
    watchdog = setTimeout(() => setDisconnected('heartbeat-timeout'), heartbeatTimeoutMs)
  }

  function write(cmd: DistributiveOmit<HostCommand, 'seq'>): number {
    if (!port || !port.isOpen) throw unavailable('port not open')
    seq = nextSeq(seq)
    port.write(Buffer.from(encodeHostCommand({ ...cmd, seq } as HostCommand)))
    return seq
  }

  function command(cmd: DistributiveOmit<HostCommand, 'seq'>): Promise<void> {
    if (!connected) return Promise.reject(unavailable('not connected'))
    return new Promise<void>((resolve, reject) => {
      let n: number
      try {
        n = write(cmd)
      } catch (err) {
        reject(err as Error)
        return
      }
      const timer = setTimeout(() => {
        pending.delete(n)
        reject(unavailable(`no answer to ${cmd.type} within ${commandTimeoutMs} ms`))
      }, commandTimeoutMs)
      pending.set(n, { resolve, reject, timer })
    })
  }

  function onMessage(m: DeviceMessage) {
    feedWatchdog()
    if (!identified && m.type !== 'hello') {
      // Frames after a silence: the device is back; ask who it is before trusting it again.
      // Whatever it said meanwhile is not trusted: balls read while unidentified are dropped.
      try {
        write({ type: 'identify', hostId })
      } catch {
        /* port gone */
      }
      return
    }
    switch (m.type) {
      case 'hello': {
        identity = {
          deviceId: m.deviceId,
          firmware: m.firmware,
          sealCode: m.sealCode,
          ballCount: m.ballCount,
          bootId: m.bootId,
        }
        identified = true
        const wasConnected = connected
        connected = true
        for (const w of [...helloWaiters]) w(identity)
        helloWaiters.clear()
        if (!wasConnected) connections.emit({ connected: true, identity, reason: 'hello' })
        break
      }
      case 'ball':
        balls.emit({ deviceId: identity!.deviceId, ball: m.ball, confidence: m.confidence, seq: m.seq })
        break
      case 'status':
        state = m.state
        statuses.emit(m.state)
        break
      case 'fault':
        faults.emit({ deviceId: identity?.deviceId ?? null, code: m.code, detail: m.detail })
        break
      case 'heartbeat':
        break
      case 'ack':
      case 'nak': {
        const p = pending.get(m.cmdSeq)
        if (!p) break
        pending.delete(m.cmdSeq)
        clearTimeout(p.timer)
        if (m.type === 'ack') p.resolve()
        else p.reject(unavailable(`refused the command (${m.reason})`))
        break
      }
      default: {
        const _never: never = m
        return _never
      }
    }
  }

  async function openPort(): Promise<void> {
    // serialport's native poller (libuv uv_poll) is missing in Bun, whose process would abort: refuse instead.
    if (!options.binding && process.versions.bun)
      throw new Error('a serial blower needs the server on Node: Bun cannot run the serialport driver')
    const p: PortLike = options.binding
      ? new SerialPortStream({ binding: options.binding as never, path: options.path, baudRate, autoOpen: false })
      : new SerialPort({ path: options.path, baudRate, autoOpen: false })
    await new Promise<void>((resolve, reject) => p.open((err) => (err ? reject(err) : resolve())))
    port = p
    decoder = createDeviceDecoder()
    p.on('data', (chunk: Buffer) => {
      for (const m of decoder.push(new Uint8Array(chunk))) onMessage(m)
    })
    p.on('error', () => lost('port-error'))
    p.on('close', () => lost('port-closed'))
    write({ type: 'identify', hostId })
  }

  function lost(reason: string) {
    if (port && !port.isOpen) port = null
    setDisconnected(reason)
    if (closed || reopenMs <= 0 || reopenTimer || port) return
    reopenTimer = setTimeout(async function retry() {
      reopenTimer = null
      if (closed || port) return
      try {
        await openPort()
      } catch {
        reopenTimer = setTimeout(retry, reopenMs)
      }
    }, reopenMs)
  }

  function waitForHello(): Promise<DeviceIdentity> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        helloWaiters.delete(done)
        reject(unavailable(`no HELLO within ${commandTimeoutMs} ms`))
      }, commandTimeoutMs)
      const done = (id: DeviceIdentity) => {
        clearTimeout(timer)
        resolve(id)
      }
      helloWaiters.add(done)
    })
  }

  return {
    label: options.path,
    get identity() {
      return identity
    },
    get connected() {
      return connected
    },
    get state() {
      return state
    },
    get stats() {
      return decoder.stats
    },
    onBall: balls.add,
    onStatus: statuses.add,
    onFault: faults.add,
    onConnection: connections.add,
    async open() {
      closed = false
      const hello = waitForHello()
      hello.catch(() => undefined)
      try {
        await openPort()
      } catch (err) {
        // Not there yet (unplugged, wrong path): keep trying in the background.
        lost('open-failed')
        throw unavailable(`cannot open ${options.path}: ${(err as Error).message}`)
      }
      return hello
    },
    start: () => command({ type: 'mix' }),
    stop: () => command({ type: 'stop' }),
    release: () => command({ type: 'release' }),
    async identify() {
      if (!port?.isOpen) throw unavailable('port not open')
      const hello = waitForHello()
      write({ type: 'identify', hostId })
      return hello
    },
    async close() {
      closed = true
      if (reopenTimer) clearTimeout(reopenTimer)
      reopenTimer = null
      setDisconnected('closed')
      const p = port
      port = null
      if (p?.isOpen) await new Promise<void>((resolve) => p.close(() => resolve()))
    },
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
