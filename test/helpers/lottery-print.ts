/**
 * LOT-26: what the secure printer gets of a lottery print run: the codes file written in its outbox (the server's
 * BOLILLO_PRINT_SHOP_DIR, `<dataDir>-print-shop` in tests), never an HTTP answer. Tests read it to play the part of
 * a holder with a fraction in hand; the file's SHA-256 must be the one the print-run answer gave.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface PrintedFraction {
  number: string
  series: number
  fraction: number
  printRun: number
  designVersion: number
  forExchange: boolean
  control: string
  code: string
}

/** The print-run answer's part that names the file. */
export interface PrintRunAnswer {
  runNo: number
  printFile: { folder: string; name: string; sha256: string }
}

/** The outbox of a test server's secure printer. */
export const printShopDirOf = (server: { dataDir: string }) => `${server.dataDir}-print-shop`

/** Every fraction of the run as the secure printer's CSV lists it; refuses a file whose digest is not the answer's. */
export function printedFractions(server: { dataDir: string }, run: PrintRunAnswer): PrintedFraction[] {
  const path = join(printShopDirOf(server), run.printFile.folder, run.printFile.name)
  const bytes = readFileSync(path)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  if (sha256 !== run.printFile.sha256)
    throw new Error(`${path}: SHA-256 ${sha256}, the answer said ${run.printFile.sha256}`)
  const [header, ...lines] = bytes.toString('latin1').trimEnd().split('\n')
  if (header !== 'number,series,fraction,print_run,design_version,for_exchange,control,code')
    throw new Error(`${path}: unexpected header ${header}`)
  return lines.map((l) => {
    const [number, series, fraction, printRun, designVersion, forExchange, control, code] = l.split(',')
    return {
      number,
      series: Number(series),
      fraction: Number(fraction),
      printRun: Number(printRun),
      designVersion: Number(designVersion),
      forExchange: forExchange === '1',
      control,
      code,
    }
  })
}
