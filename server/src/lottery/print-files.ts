/**
 * LOT-26: a print run's payable codes go to the secure printer (the print shop) only, as a file set written the way an
 * instant batch's print files are (shared/print-files.ts): a directory under the print-shop outbox
 * (BOLILLO_PRINT_SHOP_DIR, outside DATA_DIR, served by no HTTP route), with a manifest of every file's SHA-256
 * signed by the operator key. `npx bolillo instant verify <dir>` checks it.
 *
 * | file | content |
 * | ---- | ------- |
 * | `fractions-<draw>-T<run>.csv` | number, series, fraction, run, design, for the exchange desk, control, signed code |
 * | `sheet-<draw>-T<run>.pdf` | when sheets are asked for (the PDF format): the print-ready duplex A4 sheet with every fraction's QR |
 * | `manifest.json`, `manifest.sig` | the run, its counts, every file's SHA-256 and size; Ed25519 signature |
 *
 * The HTTP answer and the journal carry the counts, the ranges, the run number and the digests, never a code.
 */
import type { KeyObject } from 'node:crypto'
import { chmodSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DomainError } from '../shared/errors.ts'
import { isInside, privateDir, sha256Hex, writeSignedManifest } from '../shared/print-files.ts'

/** What the print file needs of one fraction. */
export interface PrintedFraction {
  number: string
  series: number
  fraction: number
  printRun: number
  designVersion: number
  control: string
  code: string
  forExchange?: true
}

/** The run's folder under the print-shop outbox. */
export const printRunFolder = (drawId: string, runNo: number) => `lottery-${drawId}-T${runNo}`
export const printRunCsvName = (drawId: string, runNo: number) => `fractions-${drawId}-T${runNo}.csv`
export const printRunSheetName = (drawId: string, runNo: number) => `sheet-${drawId}-T${runNo}.pdf`

/** The CSV the secure printer prints from, one line per fraction (ASCII). Pure: its digest is journaled in the run. */
export function printRunCsv(tickets: readonly PrintedFraction[]): string {
  let out = 'number,series,fraction,print_run,design_version,for_exchange,control,code\n'
  for (const t of tickets)
    out += `${t.number},${t.series},${t.fraction},${t.printRun},${t.designVersion},${t.forExchange ? 1 : 0},${t.control},${t.code}\n`
  return out
}

export type PrintFileEntry = { name: string; bytes: number; sha256: string; audience: 'printer' }

/**
 * Writes the run's file set for the secure printer (files 0600 in a 0700 folder); refuses an outbox inside DATA_DIR,
 * whose backups and copies must carry no payable code.
 */
export function writePrintRunFiles(o: {
  printShopDir: string
  dataDir: string
  drawId: string
  runNo: number
  csv: string
  sheetPdf: Uint8Array | null
  manifest: Record<string, unknown>
  operatorKey: KeyObject
  operatorKeyId: string
}): { folder: string; files: PrintFileEntry[]; manifestSha256: string } {
  if (isInside(resolve(o.printShopDir), resolve(o.dataDir)))
    throw new DomainError(
      'VALIDATION_FAILED',
      `the print-shop outbox ${o.printShopDir} lies inside DATA_DIR (${o.dataDir}): set BOLILLO_PRINT_SHOP_DIR elsewhere (LOT-26)`,
    )
  const folder = printRunFolder(o.drawId, o.runNo)
  const dir = join(o.printShopDir, folder)
  privateDir(o.printShopDir)
  privateDir(dir)
  const files: PrintFileEntry[] = []
  const parts: Array<[string, Buffer]> = [[printRunCsvName(o.drawId, o.runNo), Buffer.from(o.csv, 'latin1')]]
  if (o.sheetPdf) parts.push([printRunSheetName(o.drawId, o.runNo), Buffer.from(o.sheetPdf)])
  for (const [name, data] of parts) {
    writeFileSync(join(dir, name), data, { mode: 0o600 })
    chmodSync(join(dir, name), 0o600)
    files.push({ name, bytes: data.length, sha256: sha256Hex(data), audience: 'printer' })
  }
  const { sha256 } = writeSignedManifest(
    dir,
    { format: 'bolillo-lottery-print-run-v1', ...o.manifest, operatorKeyId: o.operatorKeyId, files },
    o.operatorKey,
  )
  return { folder, files, manifestSha256: sha256 }
}
