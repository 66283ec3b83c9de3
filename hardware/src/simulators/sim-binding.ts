/**
 * An in-memory `serialport` binding whose ports are blower simulators: the real driver (serial/blower.ts) runs
 * unchanged over it, `SerialPortStream` included, with no operating-system device. For unit tests and the demo
 * (`BOLILLO_BALL_SOURCE=sim`); the pty tests run the same driver on a real pseudo-terminal.
 */
import type { SerialBinding, SerialOpenOptions, SerialPortBinding } from '../serial/binding.ts'
import type { BlowerSimulator } from './blower-sim.ts'

export interface SimBinding extends SerialBinding {
  /** Makes `sim` answer at `path`. */
  attach(path: string, sim: BlowerSimulator): void
  detach(path: string): void
}

export function createSimBinding(): SimBinding {
  const sims = new Map<string, BlowerSimulator>()
  return {
    attach(path, sim) {
      sims.set(path, sim)
    },
    detach(path) {
      sims.delete(path)
    },
    async list() {
      return [...sims.keys()].map((path) => ({ path, manufacturer: 'Bolillo simulator' }))
    },
    async open(options: SerialOpenOptions): Promise<SerialPortBinding> {
      const sim = sims.get(options.path)
      if (!sim) throw new Error(`no simulator at ${options.path}`)
      return openSimPort(sim, options)
    },
  }
}

function openSimPort(sim: BlowerSimulator, options: SerialOpenOptions): SerialPortBinding {
  const queue: Uint8Array[] = []
  let waiting: { resolve: () => void; reject: (e: Error) => void } | null = null
  let isOpen = true
  const off = sim.onSend((bytes) => {
    queue.push(bytes)
    const w = waiting
    waiting = null
    w?.resolve()
  })
  const canceled = () => Object.assign(new Error('port closed'), { canceled: true })
  const port: SerialPortBinding = {
    openOptions: {
      dataBits: 8,
      lock: true,
      stopBits: 1,
      parity: 'none',
      rtscts: false,
      xon: false,
      xoff: false,
      xany: false,
      hupcl: true,
      ...options,
    },
    get isOpen() {
      return isOpen
    },
    async close() {
      isOpen = false
      off()
      const w = waiting
      waiting = null
      w?.reject(canceled())
    },
    async read(buffer: Buffer, offset: number, length: number) {
      while (queue.length === 0) {
        if (!isOpen) throw canceled()
        await new Promise<void>((resolve, reject) => {
          waiting = { resolve, reject }
        })
      }
      const head = queue[0]
      const n = Math.min(length, head.length)
      buffer.set(head.subarray(0, n), offset)
      if (n === head.length) queue.shift()
      else queue[0] = head.subarray(n)
      return { buffer, bytesRead: n }
    },
    async write(buffer: Buffer) {
      if (!isOpen) throw canceled()
      // The device sees the bytes on the next tick, as it would over a wire.
      const copy = new Uint8Array(buffer)
      setImmediate(() => sim.receive(copy))
    },
    async update() {},
    async set() {},
    async get() {
      return { cts: true, dsr: true, dcd: true }
    },
    async getBaudRate() {
      return { baudRate: options.baudRate }
    },
    async flush() {
      queue.length = 0
    },
    async drain() {},
  }
  return port
}
