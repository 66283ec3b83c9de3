/**
 * Print files of an instant-ticket batch, written while the batch streams (bounded memory):
 *
 * | file | who gets it | content |
 * | ---- | ----------- | ------- |
 * | `tickets-GGGG.csv` | secure printer | serial, pack, position, validation code, face (symbols under the scratch layer) |
 * | `packs-GGGG.csv` | warehouse | pack number, first and last serial (no prize information) |
 * | `prize-file-GGGG.csv` | restricted: lottery audit only (INS-3) | serial, tier, amount of every winning ticket |
 * | `sheets/pack-PPPPPP.pdf` | secure printer, for the packs asked for | ready-to-print A4 sheets (instant-sheet.ts) |
 * | `manifest.json` | everyone | design, seed commitment, counts, placement digest, and the SHA-256 and size of every file above |
 * | `manifest.sig` | everyone | Ed25519 signature by the operator key over manifest.json, base64url |
 *
 * The same design and seed (and operator key, for the signed QR payloads in the sheets) give the same files, bit
 * for bit: `npx bolillo instant verify <dir>` checks the hashes against the manifest.
 */
import { createHash, type KeyObject } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'
import type { CheckedDesign } from './design.ts'
import { createCodeBatch, deriveKey, groupCode, packSerials, seedCommitment, INSTANT_STREAM_VERSION } from './codes.ts'
import { generatePacks } from './generate.ts'
import { decodeFace, encodedFaces } from './play.ts'
import { DEFAULT_SECURITY_WARNINGS, instructionsFor } from './design.ts'
import type { PackPrintData } from './games.ts'
import { writeSignedManifest } from '../shared/print-files.ts'

/** A file written in large chunks, hashed on the way, with back-pressure. */
class HashedFile {
  private parts: string[] = []
  private pending = 0
  private readonly hash = createHash('sha256')
  private readonly stream: WriteStream
  bytes = 0
  constructor(
    readonly path: string,
    readonly name: string,
    private readonly ascii = true,
  ) {
    this.stream = createWriteStream(path)
  }
  async append(text: string): Promise<void> {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= 1 << 18) await this.flush()
  }
  private async flush(): Promise<void> {
    if (this.parts.length === 0) return
    // The CSV files are ASCII; latin1 is the cheapest exact encoding of ASCII text.
    const buf = Buffer.from(this.parts.join(''), this.ascii ? 'latin1' : 'utf8')
    this.parts = []
    this.pending = 0
    this.hash.update(buf)
    this.bytes += buf.length
    if (!this.stream.write(buf)) await once(this.stream, 'drain')
  }
  async close(): Promise<{ name: string; bytes: number; sha256: string }> {
    await this.flush()
    await new Promise<void>((resolve, reject) =>
      this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())),
    )
    return { name: this.name, bytes: this.bytes, sha256: this.hash.digest('hex') }
  }
}

export interface PrintFilesOptions {
  outDir: string
  checked: CheckedDesign
  seed: Uint8Array
  /** Which packs get PDF sheets. */
  sheetsFor: (packNo: number) => boolean
  /** Signs a QR payload id (serial or validation code) as `BLL1.I.<id>.<sig>`. */
  signCode: (id: string) => string
  operatorKey: KeyObject
  operatorKeyId: string
}

export type FileEntry = {
  name: string
  bytes: number
  sha256: string
  audience: 'printer' | 'warehouse' | 'restricted'
}

export interface PrintFiles {
  onPack(pack: PackPrintData): Promise<void>
  /** Closes the files; returns their names, sizes and SHA-256, and the digest of the placement written. */
  close(): Promise<{ files: FileEntry[]; placementSha256: string; tierCounts: number[] }>
}

const pad = (n: number, w: number) => String(n).padStart(w, '0')

export function createPrintFiles(o: PrintFilesOptions): PrintFiles {
  const d = o.checked.design
  const g = pad(d.gameNo, 4)
  mkdirSync(o.outDir, { recursive: true })
  const tickets = new HashedFile(join(o.outDir, `tickets-${g}.csv`), `tickets-${g}.csv`)
  const packs = new HashedFile(join(o.outDir, `packs-${g}.csv`), `packs-${g}.csv`)
  const prizes = new HashedFile(join(o.outDir, `prize-file-${g}.csv`), `prize-file-${g}.csv`)
  const sheets: FileEntry[] = []
  const placement = createHash('sha256')
  let started = false
  const tierCounts = new Array<number>(d.tiers.length + 1).fill(0)

  return {
    async onPack(p) {
      if (!started) {
        started = true
        await tickets.append('serial,pack,position,validation_code,face\n')
        await packs.append('pack,first_serial,last_serial\n')
        await prizes.append('serial,tier,amount_cents\n')
      }
      placement.update(p.tiers)
      let out = ''
      let win = ''
      const packText = pad(p.packNo, 6)
      for (let i = 0; i < p.serials.length; i++) {
        out += `${p.serials[i]},${packText},${i},${p.codes[i]},${p.faces[i]}\n`
        const t = p.tiers[i]
        tierCounts[t]++
        if (t > 0) win += `${p.serials[i]},${t},${d.tiers[t - 1].amountCents}\n`
      }
      await tickets.append(out)
      if (win) await prizes.append(win)
      await packs.append(`${packText},${p.serials[0]},${p.serials[p.serials.length - 1]}\n`)
      if (o.sheetsFor(p.packNo)) {
        const { renderInstantSheets } = await import('../../../printer/src/instant-sheet.ts')
        const c = o.checked
        const pdf = await renderInstantSheets(
          {
            gameNo: d.gameNo,
            name: d.name,
            currency: d.currency,
            priceCents: d.priceCents,
            playStyle: d.playStyle.type,
            symbolAmountsCents: c.symbolAmountsCents,
            tiers: d.tiers,
            ticketCount: d.ticketCount,
            claimDays: d.claimDays,
            salesEndAt: d.salesEndAt ?? null,
            issuer: d.back.issuer,
            paymentPlace: d.back.paymentPlace,
            instructions: instructionsFor(c),
            authorisationRef: d.authorisationRef ?? null,
            securityWarnings: d.back.securityWarnings ?? DEFAULT_SECURITY_WARNINGS,
          },
          p.serials.map((serial, i) => ({
            serial,
            codeText: groupCode(p.codes[i]),
            inventoryQr: o.signCode(serial),
            validationQr: o.signCode(p.codes[i]),
            face: decodeFace(p.faces[i]),
          })),
        )
        mkdirSync(join(o.outDir, 'sheets'), { recursive: true })
        const name = `sheets/pack-${packText}.pdf`
        writeFileSync(join(o.outDir, name), pdf)
        sheets.push({
          name,
          bytes: pdf.length,
          sha256: createHash('sha256').update(pdf).digest('hex'),
          audience: 'printer',
        })
      }
    },
    async close() {
      const files: FileEntry[] = [
        { ...(await tickets.close()), audience: 'printer' },
        { ...(await packs.close()), audience: 'warehouse' },
        { ...(await prizes.close()), audience: 'restricted' },
        ...sheets,
      ]
      return { files, placementSha256: placement.digest('hex'), tierCounts: tierCounts.slice(1) }
    },
  }
}

/** Writes manifest.json (design, seed commitment, counts, every file's SHA-256) and manifest.sig (Ed25519, base64url). */
export function writeManifest(o: {
  outDir: string
  checked: CheckedDesign
  seed: Uint8Array
  files: FileEntry[]
  placementSha256: string
  tierCounts: number[]
  operatorKey: KeyObject
  operatorKeyId: string
  extra?: Record<string, unknown>
}) {
  const d = o.checked.design
  const manifest = {
    format: 'bolillo-instant-manifest-v1',
    algorithm: INSTANT_STREAM_VERSION,
    gameNo: d.gameNo,
    name: d.name,
    seedCommitment: seedCommitment(o.seed),
    designSha256: createHash('sha256').update(JSON.stringify(d)).digest('hex'),
    design: d,
    ticketCount: d.ticketCount,
    packCount: o.checked.packCount,
    packSize: d.packSize,
    tierCounts: o.tierCounts,
    placementSha256: o.placementSha256,
    prizeFundCents: o.checked.prizeFundCents,
    payoutShareBp: o.checked.payoutShareBp,
    symbolLetters: Object.fromEntries(o.checked.symbolAmountsCents.map((a, i) => [String.fromCharCode(65 + i), a])),
    qrFormat:
      'BLL1.I.<serial or validation code>.<Ed25519 signature> (README "Ticket codes"); the CSV holds the bare values',
    operatorKeyId: o.operatorKeyId,
    files: o.files,
    ...o.extra,
  }
  const { manifestPath } = writeSignedManifest(o.outDir, manifest, o.operatorKey)
  return { manifestPath, manifest }
}

/**
 * Writes the print files of a whole batch from its design and seed alone (no database): the body of the print
 * worker, and of `--no-db`. `onProgress` gets tickets done.
 */
export async function writePrintFiles(o: PrintFilesOptions, onProgress?: (done: number) => void) {
  const files = createPrintFiles(o)
  let done = 0
  for (const p of packPrintData(o.checked, o.seed)) {
    await files.onPack(p)
    done += p.tiers.length
    if (onProgress && done % 50_000 < p.tiers.length) onProgress(done)
  }
  onProgress?.(done)
  return files.close()
}

/** The print data of every pack, from the design and seed alone (no database): for regeneration and checks. */
export function* packPrintData(checked: CheckedDesign, seed: Uint8Array): Generator<PackPrintData> {
  const d = checked.design
  const codes = createCodeBatch(deriveKey(seed, d.gameNo, 'code'), d.gameNo)
  const symbolsKey = deriveKey(seed, d.gameNo, 'symbols')
  for (const p of generatePacks(checked, seed)) {
    yield {
      packNo: p.packNo,
      firstIndex: p.firstIndex,
      tiers: p.tiers,
      codes: codes.codes(p.firstIndex, d.packSize),
      serials: packSerials(d.gameNo, p.packNo, d.packSize),
      faces: encodedFaces(checked, symbolsKey, p.firstIndex, p.tiers),
    }
  }
}
