/**
 * Ticket printers by configuration (BOLILLO_PRINTER, BOLILLO_PRINTERS): one per station (kiosk or cashier), each
 * `file`, `tcp://host:port` or a device path. Every printer renders the same PrintDoc through ESC/POS; the file
 * printer, used when no printer is configured, writes the raw job and a PDF of it into DATA_DIR/prints.
 *
 * Issue 24 point 2: what the file printer keeps holds bearer codes (a voucher, a card, a slip), so the server's file
 * printer seals both files under the sealing key (`<name>.escpos.sealed`, `<name>.pdf.sealed`); `npx bolillo
 * open-print <file>` (or {@link openPrintFile}) gives the clear bytes back to whoever holds the key.
 */
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Sealer } from '../../server/src/shared/sealing.ts'
import { DomainError } from '../../server/src/shared/errors.ts'
import {
  buildEscPosJob,
  DevicePrinterTransport,
  NetworkPrinterTransport,
  parseTcpTarget,
  printerUnavailable,
  type PrinterTransport,
} from './escpos.ts'
import { renderTicketsPdf } from './pdf.ts'
import { flowDoc, type Paper, type PrintDoc } from './ticket-layout.ts'

/** What the server depends on to print (STYLE.md §7: the TicketPrinter port). */
export interface TicketPrinter {
  readonly target: string
  readonly paper: Paper
  /** Resolves when the printer can print now; throws DEVICE_UNAVAILABLE (with `details.reason`) otherwise. */
  check(): Promise<void>
  /**
   * Prints the documents as one job, each followed by a cut, and resolves once the printer has taken it (see
   * escpos.ts for what "taken" means per transport). Throws DEVICE_UNAVAILABLE when it could not.
   */
  print(docs: readonly PrintDoc[], jobName: string): Promise<PrintResult>
}

export interface PrintResult {
  target: string
  bytes: number
  /** Files written by the file printer (raw job, PDF). */
  files: string[]
}

export interface PrinterSettings {
  printer: string
  printers: Readonly<Record<string, string>>
  printerPaper: Paper
  printerTimeoutMs: number
  dataDir: string
}

/** What the file printer seals its files with (the server's sealer); without one it writes them in clear. */
export type PrintSealer = Pick<Sealer, 'seal'>

/** The extension of a sealed print file. */
export const SEALED_PRINT_SUFFIX = '.sealed'

/** The sealing context of a print file: its own name, so a sealed file renamed or swapped does not open. */
function printContext(name: string): string {
  return `print-file|${name}`
}

/** The clear bytes of a print file (`….escpos.sealed` or `….pdf.sealed`); a file not sealed is returned as it is. */
export function openPrintFile(sealer: Pick<Sealer, 'open'>, file: string): Buffer {
  const data = readFileSync(file)
  if (!file.endsWith(SEALED_PRINT_SUFFIX)) return data
  return sealer.open(data.toString('utf8').trim(), printContext(basename(file).slice(0, -SEALED_PRINT_SUFFIX.length)))
}

/** The printer of each station, created on first use. */
export function createPrinterPool(settings: PrinterSettings, sealer?: PrintSealer) {
  const cache = new Map<string, TicketPrinter>()
  return {
    forStation(stationId: string): TicketPrinter {
      const target = settings.printers[stationId] ?? settings.printer
      let printer = cache.get(target)
      if (!printer) {
        printer = createPrinter(target, {
          paper: settings.printerPaper,
          timeoutMs: settings.printerTimeoutMs,
          printsDir: join(settings.dataDir, 'prints'),
          sealer,
        })
        cache.set(target, printer)
      }
      return printer
    },
  }
}
export type PrinterPool = ReturnType<typeof createPrinterPool>

/** A printer for one target: `file`, `tcp://host[:port][?status=off]` or a device path. */
export function createPrinter(
  target: string,
  options: { paper: Paper; timeoutMs: number; printsDir: string; sealer?: PrintSealer },
): TicketPrinter {
  if (target === 'file') return createFilePrinter(options.printsDir, options.paper, options.sealer)
  if (target === 'discard') return createDiscardPrinter(options.paper)
  const tcp = parseTcpTarget(target)
  const transport: PrinterTransport & { checkStatus(): Promise<void> } = tcp
    ? new NetworkPrinterTransport(target, tcp.host, tcp.port, { timeoutMs: options.timeoutMs, status: tcp.status })
    : target.startsWith('/')
      ? new DevicePrinterTransport(target, { timeoutMs: options.timeoutMs })
      : (() => {
          throw new DomainError('VALIDATION_FAILED', `unknown printer target ${target}`)
        })()
  return {
    target,
    paper: options.paper,
    check: () => transport.checkStatus(),
    async print(docs, _jobName) {
      const job = buildEscPosJob(withPaper(docs, options.paper), transport)
      const bytes = job.getBuffer().length
      try {
        await job.execute()
      } catch (err) {
        throw err instanceof DomainError
          ? err
          : printerUnavailable(target, 'error', err instanceof Error ? err.message : String(err))
      }
      return { target, bytes, files: [] }
    },
  }
}

/**
 * The stand-in printer: `<time>-<job>.escpos` (the exact bytes a printer would get) and `<time>-<job>.pdf`, each
 * sealed (`.sealed` added) when a sealer is given, as the server always gives one.
 */
export function createFilePrinter(printsDir: string, paper: Paper, sealer?: PrintSealer): TicketPrinter {
  return {
    target: 'file',
    paper,
    async check() {
      try {
        await mkdir(printsDir, { recursive: true })
      } catch (err) {
        throw printerUnavailable('file', 'error', `cannot write ${printsDir} (${(err as NodeJS.ErrnoException).code})`)
      }
    },
    async print(docs, jobName) {
      const sized = withPaper(docs, paper)
      const raw = buildEscPosJob(sized).getBuffer()
      const pdf = await renderTicketsPdf(sized, { title: jobName })
      const base = join(
        printsDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${jobName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80)}`,
      )
      const kept = (file: string, bytes: Uint8Array): [string, Uint8Array | string] =>
        sealer
          ? [`${file}${SEALED_PRINT_SUFFIX}`, `${sealer.seal(bytes, printContext(basename(file)))}\n`]
          : [file, bytes]
      const files = [kept(`${base}.escpos`, raw), kept(`${base}.pdf`, pdf)]
      try {
        await mkdir(printsDir, { recursive: true, mode: 0o700 })
        for (const [file, bytes] of files) await writeFile(file, bytes, { mode: 0o600 })
      } catch (err) {
        throw printerUnavailable('file', 'error', `cannot write ${printsDir} (${(err as NodeJS.ErrnoException).code})`)
      }
      return { target: 'file', bytes: raw.length, files: files.map(([file]) => file) }
    },
  }
}

/**
 * `discard`: lays every document out (a layout error still fails the sale) and drops it. For load and crash tests,
 * where rendering thousands of tickets would measure the renderer instead of the sale; never the default.
 */
export function createDiscardPrinter(paper: Paper): TicketPrinter {
  return {
    target: 'discard',
    paper,
    async check() {},
    async print(docs) {
      for (const d of withPaper(docs, paper)) flowDoc(d)
      return { target: 'discard', bytes: 0, files: [] }
    },
  }
}

/** The printer's paper decides the layout width, whatever the caller laid out for. */
function withPaper(docs: readonly PrintDoc[], paper: Paper): PrintDoc[] {
  return docs.map((d) => (d.paper === paper ? d : { ...d, paper }))
}
