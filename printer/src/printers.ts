/**
 * Ticket printers by configuration (BOLILLO_PRINTER, BOLILLO_PRINTERS): one per station (kiosk or cashier), each
 * `file`, `tcp://host:port` or a device path. Every printer renders the same PrintDoc through ESC/POS; the file
 * printer, used when no printer is configured, writes the raw job and a PDF of it into DATA_DIR/prints.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DomainError } from '../../server/src/shared/errors.ts'
import { buildEscPosJob, DevicePrinterTransport, NetworkPrinterTransport, parseTcpTarget, printerUnavailable, type PrinterTransport } from './escpos.ts'
import { renderTicketsPdf } from './pdf.ts'
import type { Paper, PrintDoc } from './ticket-layout.ts'

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

/** The printer of each station, created on first use. */
export function createPrinterPool(settings: PrinterSettings) {
  const cache = new Map<string, TicketPrinter>()
  return {
    forStation(stationId: string): TicketPrinter {
      const target = settings.printers[stationId] ?? settings.printer
      let printer = cache.get(target)
      if (!printer) {
        printer = createPrinter(target, { paper: settings.printerPaper, timeoutMs: settings.printerTimeoutMs, printsDir: join(settings.dataDir, 'prints') })
        cache.set(target, printer)
      }
      return printer
    },
  }
}
export type PrinterPool = ReturnType<typeof createPrinterPool>

/** A printer for one target: `file`, `tcp://host[:port][?status=off]` or a device path. */
export function createPrinter(target: string, options: { paper: Paper; timeoutMs: number; printsDir: string }): TicketPrinter {
  if (target === 'file') return createFilePrinter(options.printsDir, options.paper)
  const tcp = parseTcpTarget(target)
  const transport: PrinterTransport & { checkStatus(): Promise<void> } = tcp
    ? new NetworkPrinterTransport(target, tcp.host, tcp.port, { timeoutMs: options.timeoutMs, status: tcp.status })
    : target.startsWith('/') ? new DevicePrinterTransport(target, { timeoutMs: options.timeoutMs })
      : (() => { throw new DomainError('VALIDATION_FAILED', `unknown printer target ${target}`) })()
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
        throw err instanceof DomainError ? err : printerUnavailable(target, 'error', err instanceof Error ? err.message : String(err))
      }
      return { target, bytes, files: [] }
    },
  }
}

/** The stand-in printer: `<time>-<job>.escpos` (the exact bytes a printer would get) and `<time>-<job>.pdf`. */
export function createFilePrinter(printsDir: string, paper: Paper): TicketPrinter {
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
      const base = join(printsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${jobName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80)}`)
      try {
        await mkdir(printsDir, { recursive: true })
        await writeFile(`${base}.escpos`, raw)
        await writeFile(`${base}.pdf`, pdf)
      } catch (err) {
        throw printerUnavailable('file', 'error', `cannot write ${printsDir} (${(err as NodeJS.ErrnoException).code})`)
      }
      return { target: 'file', bytes: raw.length, files: [`${base}.escpos`, `${base}.pdf`] }
    },
  }
}

/** The printer's paper decides the layout width, whatever the caller laid out for. */
function withPaper(docs: readonly PrintDoc[], paper: Paper): PrintDoc[] {
  return docs.map((d) => (d.paper === paper ? d : { ...d, paper }))
}
