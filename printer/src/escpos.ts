/**
 * ESC/POS output through node-thermal-printer: a laid-out ticket (ticket-layout.ts) becomes an Epson-compatible
 * job (code page PC850 for Spanish, the card grid in box-drawing characters with double-size numbers, the QR as
 * GS ( k carrying the exact signed code, a full cut after each ticket), and goes to a network printer
 * (`tcp://host:9100`) or a device file (`/dev/usb/lp0`).
 *
 * Device state. A printer that is offline or out of paper surfaces as DomainError DEVICE_UNAVAILABLE with
 * `details.reason`:
 * - network: a refused or timed-out connection is `offline`. Before the job the printer is asked its real-time
 *   status (DLE EOT 1 printer, DLE EOT 2 offline cause, DLE EOT 4 roll paper sensor); after the job, GS r 1 (paper
 *   sensor), which the printer answers only once it has processed everything sent before it, so the answer is the
 *   printer's acknowledgement of the whole job. A printer that closes the connection before answering is
 *   `connection_lost`; one that does not answer in time is `no_response`. Printers whose status replies are
 *   disabled can be addressed as `tcp://host:9100?status=off`: the job is then only known to be delivered to the
 *   printer's socket.
 * - device file: the kernel's line-printer status (LPGETSTATUS ioctl) is not reachable from Node without a native
 *   module, so only a missing, busy or failing device is detected (`offline`, `busy`, `error`); paper-out is not.
 */
import { constants } from 'node:fs'
import { access, open } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { BreakLine, CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer'
import { DomainError } from '../../server/src/shared/errors.ts'
import {
  alignText,
  columnsFor,
  flowDoc,
  gridCellText,
  gridGeometry,
  PAPER,
  type FlowLine,
  type Paper,
  type PrintDoc,
} from './ticket-layout.ts'

/** Why a printer cannot print. */
export type PrinterFault =
  'offline' | 'paper_out' | 'cover_open' | 'error' | 'connection_lost' | 'no_response' | 'busy' | 'no_permission'

/** The DEVICE_UNAVAILABLE error of a printer, with the reason in `details`. */
export function printerUnavailable(target: string, reason: PrinterFault, message: string): DomainError {
  return new DomainError('DEVICE_UNAVAILABLE', `printer ${target}: ${message}`, { device: 'printer', target, reason })
}

// ------------------------------------------------------------------------------------------------ commands

export const ESC = 0x1b
export const GS = 0x1d
export const DLE = 0x10
export const EOT = 0x04
/** DLE EOT n: real-time status (1 printer, 2 offline cause, 4 roll paper sensor). */
export const realtimeStatus = (n: 1 | 2 | 4) => Buffer.from([DLE, EOT, n])
/** GS r 1: paper sensor status, answered after the data before it has been processed. */
export const PAPER_STATUS = Buffer.from([GS, 0x72, 0x01])
/** ESC @: initialise (clears the buffer and every mode). */
export const INIT = Buffer.from([ESC, 0x40])
/** GS V 0: full cut. */
export const FULL_CUT = Buffer.from([GS, 0x56, 0x00])
/** GS ( k <pL> <pH> 1 P 0: store QR data (the bytes that follow are the payload). */
export const QR_STORE_PREFIX = Buffer.from([GS, 0x28, 0x6b])

/** What the real-time status bytes say; `null` when the printer can print. */
export function faultFromStatus(printer: number, offlineCause: number, paper: number): PrinterFault | null {
  // DLE EOT 4: bits 5 and 6 are the roll paper end sensor.
  if ((paper & 0x60) !== 0) return 'paper_out'
  // DLE EOT 2: bit 2 cover open, bit 5 stopped by paper end, bit 6 error.
  if ((offlineCause & 0x04) !== 0) return 'cover_open'
  if ((offlineCause & 0x20) !== 0) return 'paper_out'
  if ((offlineCause & 0x40) !== 0) return 'error'
  // DLE EOT 1: bit 3 offline.
  if ((printer & 0x08) !== 0) return 'offline'
  return null
}

/** GS r 1 answer: bits 2 and 3 are the roll paper end sensor. */
export function faultFromPaperStatus(byte: number): PrinterFault | null {
  return (byte & 0x0c) !== 0 ? 'paper_out' : null
}

// ------------------------------------------------------------------------------------------------ encoder

/** Transport node-thermal-printer hands the job to (its `interface` may be an object). */
export interface PrinterTransport {
  execute(buffer: Buffer): Promise<unknown>
  isPrinterConnected(): Promise<boolean>
}

const BOX = {
  h: '─',
  v: '│',
  tl: '┌',
  tr: '┐',
  bl: '└',
  br: '┘',
  t: '┬',
  b: '┴',
  l: '├',
  r: '┤',
  x: '┼',
  dbl: '═',
  shade: '░',
} as const

/**
 * Builds the ESC/POS job for `docs` (all on the same paper) on a node-thermal-printer instance bound to
 * `transport`; `printer.getBuffer()` is the job, `printer.execute()` sends it.
 */
export function buildEscPosJob(docs: readonly PrintDoc[], transport?: PrinterTransport): ThermalPrinter {
  if (docs.length === 0) throw new DomainError('VALIDATION_FAILED', 'nothing to print')
  const paper = docs[0].paper
  if (docs.some((d) => d.paper !== paper))
    throw new DomainError('VALIDATION_FAILED', 'a print job uses one paper width')
  const p = new ThermalPrinter({
    type: PrinterTypes.EPSON,
    // node-thermal-printer accepts an interface object in place of a URI string.
    interface: transport as unknown as string,
    width: PAPER[paper].columns,
    breakLine: BreakLine.NONE,
    removeSpecialCharacters: false,
  })
  for (const doc of docs) {
    p.add(INIT)
    p.setCharacterSet(CharacterSet.PC850_MULTILINGUAL)
    p.alignLeft()
    for (const line of flowDoc(doc)) writeLine(p, paper, line)
    // One feed of 4 lines moves the last line past the cutter; cut() ends with ESC @, which resets the code page.
    p.cut({ verticalTabAmount: 1 })
  }
  return p
}

function setSize(p: ThermalPrinter, size: 'normal' | 'tall' | 'large', bold: boolean) {
  // ESC ! also clears emphasis, so the size goes first.
  if (size === 'large') p.setTextQuadArea()
  else if (size === 'tall') p.setTextDoubleHeight()
  else p.setTextNormal()
  p.bold(bold)
}

function writeLine(p: ThermalPrinter, paper: Paper, line: FlowLine): void {
  const cols = PAPER[paper].columns
  switch (line.type) {
    case 'text': {
      const text = alignText(line.text, columnsFor(paper, line.size), line.invert ? 'center' : line.align)
      setSize(p, line.size, line.bold)
      if (line.invert) p.invert(true)
      p.println(line.invert ? text : text.trimEnd())
      if (line.invert) p.invert(false)
      setSize(p, 'normal', false)
      break
    }
    case 'rule':
      setSize(p, 'normal', false)
      p.println((line.style === 'double' ? BOX.dbl : BOX.h).repeat(cols))
      break
    case 'grid':
      writeGrid(p, paper, line.rows)
      break
    case 'qr':
      p.alignCenter()
      p.newLine()
      p.printQR(line.payload, { cellSize: PAPER[paper].qrModuleDots, correction: 'M', model: 2 })
      p.newLine()
      p.alignLeft()
      break
    case 'feed':
      for (let i = 0; i < line.lines; i++) p.newLine()
      break
    default: {
      const _never: never = line
      throw new Error(`unknown line ${JSON.stringify(_never)}`)
    }
  }
}

/**
 * The 3 x 9 grid (BNG-5) in box-drawing characters: rules at normal size, number rows at double height with
 * bold numbers (double width too on 80 mm), blank cells shaded. The line spacing drops to the 24-dot character
 * height so that the vertical rules join from row to row.
 */
function writeGrid(p: ThermalPrinter, paper: Paper, rows: number[][]): void {
  const columns = rows[0]?.length ?? 9
  const g = gridGeometry(paper, columns)
  const pad = ' '.repeat(Math.floor((PAPER[paper].columns - g.width) / 2))
  const rule = (left: string, mid: string, right: string) =>
    pad + left + Array.from({ length: columns }, () => BOX.h.repeat(g.cellWidth)).join(mid) + right
  setSize(p, 'normal', false)
  p.setLineSpacing(24)
  p.println(rule(BOX.tl, BOX.t, BOX.tr))
  rows.forEach((row, r) => {
    setSize(p, 'tall', true)
    p.print(pad)
    for (const n of row) {
      setSize(p, 'tall', true)
      p.print(BOX.v)
      if (!n) {
        p.print(BOX.shade.repeat(g.cellWidth))
        continue
      }
      const text = gridCellText(n, g.largeNumbers)
      if (!g.largeNumbers) {
        p.print(text)
        continue
      }
      // Double-width digits take 2 columns each; a single digit sits between two normal-width blanks.
      const blank = (g.cellWidth - text.length * 2) / 2
      if (blank > 0) p.print(' '.repeat(blank))
      setSize(p, 'large', true)
      p.print(text)
      setSize(p, 'tall', true)
      if (blank > 0) p.print(' '.repeat(blank))
    }
    p.print(BOX.v)
    p.newLine()
    setSize(p, 'normal', false)
    p.println(r === rows.length - 1 ? rule(BOX.bl, BOX.b, BOX.br) : rule(BOX.l, BOX.x, BOX.r))
  })
  p.resetLineSpacing()
}

// ------------------------------------------------------------------------------------------------ transports

/** Parses `tcp://host[:port][?status=off]`. */
export function parseTcpTarget(target: string): { host: string; port: number; status: boolean } | null {
  const m = /^tcp:\/\/([^/:?]+)(?::(\d{1,5}))?\/?(?:\?(.*))?$/i.exec(target)
  if (!m) return null
  const params = new URLSearchParams(m[3] ?? '')
  return { host: m[1], port: m[2] ? Number(m[2]) : 9100, status: params.get('status') !== 'off' }
}

/** ESC/POS over TCP (raw port 9100), with the status exchange described at the top of this file. */
export class NetworkPrinterTransport implements PrinterTransport {
  constructor(
    readonly target: string,
    private readonly host: string,
    private readonly port: number,
    private readonly options: { timeoutMs: number; status: boolean },
  ) {}

  /** Connects and asks the real-time status; throws DEVICE_UNAVAILABLE when the printer cannot print. */
  async checkStatus(): Promise<void> {
    const link = await this.open()
    try {
      if (this.options.status) await this.realtimeCheck(link)
    } finally {
      link.close()
    }
  }

  async isPrinterConnected(): Promise<boolean> {
    try {
      await this.checkStatus()
      return true
    } catch {
      return false
    }
  }

  /** Sends the job; resolves once the printer acknowledged it (GS r 1 answered), or once sent with status=off. */
  async execute(buffer: Buffer): Promise<{ bytes: number }> {
    const link = await this.open()
    try {
      if (this.options.status) {
        await this.realtimeCheck(link)
        await link.write(Buffer.concat([buffer, PAPER_STATUS]))
        const [ack] = await link.read(1, this.options.timeoutMs, 'the job')
        const fault = faultFromPaperStatus(ack)
        if (fault) throw printerUnavailable(this.target, fault, 'ran out of paper during the job')
      } else {
        await link.write(buffer)
        await link.finish(this.options.timeoutMs)
      }
      return { bytes: buffer.length }
    } finally {
      link.close()
    }
  }

  private async realtimeCheck(link: Link): Promise<void> {
    await link.write(Buffer.concat([realtimeStatus(1), realtimeStatus(2), realtimeStatus(4)]))
    const [printer, cause, paper] = await link.read(3, this.options.timeoutMs, 'the status query')
    const fault = faultFromStatus(printer, cause, paper)
    if (fault)
      throw printerUnavailable(this.target, fault, fault === 'paper_out' ? 'out of paper' : fault.replace('_', ' '))
  }

  private open(): Promise<Link> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port })
      const timer = setTimeout(() => {
        socket.destroy()
        reject(printerUnavailable(this.target, 'offline', `no connection within ${this.options.timeoutMs} ms`))
      }, this.options.timeoutMs)
      socket.once('connect', () => {
        clearTimeout(timer)
        socket.removeAllListeners('error')
        resolve(new Link(socket, this.target))
      })
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        socket.destroy()
        reject(printerUnavailable(this.target, 'offline', `cannot connect (${err.code ?? err.message})`))
      })
    })
  }
}

/** A connected socket read as a byte stream with deadlines. */
class Link {
  private data = Buffer.alloc(0)
  private ended: DomainError | null = null
  private wake: (() => void) | null = null

  constructor(
    private readonly socket: Socket,
    private readonly target: string,
  ) {
    socket.setNoDelay(true)
    socket.on('data', (d: Buffer) => {
      this.data = Buffer.concat([this.data, d])
      this.wake?.()
    })
    socket.on('error', (err: NodeJS.ErrnoException) => this.end(`connection failed (${err.code ?? err.message})`))
    socket.on('close', () => this.end('the printer closed the connection'))
  }

  private end(message: string) {
    this.ended ??= printerUnavailable(this.target, 'connection_lost', message)
    this.wake?.()
  }

  write(bytes: Buffer): Promise<void> {
    if (this.ended) return Promise.reject(this.ended)
    return new Promise((resolve, reject) => {
      this.socket.write(bytes, (err) =>
        err ? reject(this.ended ?? printerUnavailable(this.target, 'connection_lost', err.message)) : resolve(),
      )
    })
  }

  /** Waits for `n` bytes. */
  async read(n: number, timeoutMs: number, what: string): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs
    while (this.data.length < n) {
      if (this.ended) throw this.ended
      const left = deadline - Date.now()
      if (left <= 0) throw printerUnavailable(this.target, 'no_response', `no answer to ${what} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wake = null
    }
    const out = this.data.subarray(0, n)
    this.data = this.data.subarray(n)
    return out
  }

  /** Half-closes and waits for the printer to close its side (a reset is a failure). */
  finish(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(), timeoutMs)
      this.socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        reject(printerUnavailable(this.target, 'connection_lost', `connection failed (${err.code ?? err.message})`))
      })
      this.socket.once('close', () => {
        clearTimeout(timer)
        resolve()
      })
      this.socket.end()
    })
  }

  close() {
    this.socket.destroy()
  }
}

/** ESC/POS written to a device file such as /dev/usb/lp0 (see the top of this file for what it can detect). */
export class DevicePrinterTransport implements PrinterTransport {
  constructor(
    readonly target: string,
    private readonly options: { timeoutMs: number },
  ) {}

  async checkStatus(): Promise<void> {
    try {
      await access(this.target, constants.W_OK)
    } catch (err) {
      throw this.fault(err)
    }
  }

  async isPrinterConnected(): Promise<boolean> {
    try {
      await this.checkStatus()
      return true
    } catch {
      return false
    }
  }

  async execute(buffer: Buffer): Promise<{ bytes: number }> {
    let timer: NodeJS.Timeout | undefined
    const write = (async () => {
      const fh = await open(this.target, 'a')
      try {
        await fh.write(buffer)
      } finally {
        await fh.close()
      }
    })()
    try {
      await Promise.race([
        write,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                printerUnavailable(
                  this.target,
                  'no_response',
                  `the device took more than ${this.options.timeoutMs} ms`,
                ),
              ),
            this.options.timeoutMs,
          )
        }),
      ])
      return { bytes: buffer.length }
    } catch (err) {
      throw err instanceof DomainError ? err : this.fault(err)
    } finally {
      clearTimeout(timer)
    }
  }

  private fault(err: unknown): DomainError {
    const code = (err as NodeJS.ErrnoException).code ?? ''
    if (code === 'EACCES' || code === 'EPERM')
      return printerUnavailable(this.target, 'no_permission', `no permission to write (${code})`)
    if (code === 'EBUSY') return printerUnavailable(this.target, 'busy', 'the device is busy')
    if (code === 'ENOENT' || code === 'ENODEV' || code === 'ENXIO')
      return printerUnavailable(this.target, 'offline', `the device is not connected (${code})`)
    return printerUnavailable(this.target, 'error', `write failed (${code || (err as Error).message})`)
  }
}
