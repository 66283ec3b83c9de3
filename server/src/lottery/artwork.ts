/**
 * CFG-39, LOT-15 (9) and (11): the AJ logo and the Máxima Autoridad Ejecutiva's signature, uploaded by the lottery
 * administration as PNG images and drawn on the print shop's ticket sheet. The images carry no value (they are not
 * sealed rows); each upload is journaled with the image's SHA-256, so the chain records which image was on record.
 */
import { createHash } from 'node:crypto'
import type { Database } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { artworkList, putArtwork, type Artwork, type ArtworkKind } from './store/artwork.ts'

export type { ArtworkKind } from './store/artwork.ts'
export const ARTWORK_KINDS: readonly ArtworkKind[] = ['aj-logo', 'mae-signature']
/** Enough for a crisp logo or signature at print size; keeps the JSON body under the API's 256 KiB limit. */
export const MAX_ARTWORK_BYTES = 128 * 1024

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A real PNG: the 8-byte signature, then an IHDR chunk of 13 bytes with a non-zero width and height. */
export function checkPng(png: Buffer): { width: number; height: number } {
  if (png.length > MAX_ARTWORK_BYTES)
    throw new DomainError('IMAGE_TOO_LARGE', `image of ${png.length} bytes; at most ${MAX_ARTWORK_BYTES}`, {
      rule: 'CFG-39',
      maxBytes: MAX_ARTWORK_BYTES,
    })
  const ok =
    png.length >= 33 &&
    png.subarray(0, 8).equals(PNG_SIGNATURE) &&
    png.readUInt32BE(8) === 13 &&
    png.subarray(12, 16).toString('latin1') === 'IHDR'
  const width = ok ? png.readUInt32BE(16) : 0
  const height = ok ? png.readUInt32BE(20) : 0
  if (!ok || width === 0 || height === 0)
    throw new DomainError('IMAGE_NOT_PNG', 'the file is not a PNG image (signature and IHDR header)', {
      rule: 'CFG-39',
    })
  return { width, height }
}

export function createArtworkUseCases(deps: { db: Database; clock: Clock }) {
  async function uploadArtwork(kind: ArtworkKind, base64: string, actor: { id: string; name?: string } | null) {
    // Decoded size first: a long string is refused before it is decoded.
    if (Math.floor((base64.length * 3) / 4) > MAX_ARTWORK_BYTES + 3) checkPng(Buffer.alloc(MAX_ARTWORK_BYTES + 1))
    const png = Buffer.from(base64, 'base64')
    const { width, height } = checkPng(png)
    // A right header over a broken body would make every later print run's sheet fail after the run is recorded:
    // the image is decoded once here, as the sheet will embed it.
    const { PDFDocument } = await import('pdf-lib')
    try {
      await (await PDFDocument.create()).embedPng(png)
    } catch {
      throw new DomainError('IMAGE_NOT_PNG', 'the PNG image data cannot be decoded', { rule: 'CFG-39' })
    }
    const sha256 = createHash('sha256').update(png).digest('hex')
    const at = deps.clock.now().toISOString()
    await deps.db.transaction(async (tx) => {
      await putArtwork(tx, { kind, png, sha256, bytes: png.length, uploadedBy: actor?.id ?? null, uploadedAt: at })
      await appendJournal(tx, {
        at,
        type: 'lottery.artwork_uploaded',
        scope: 'lottery:artwork',
        payload: { kind, sha256, bytes: png.length, width, height, actor: actor ?? null, rule: 'CFG-39' },
      })
    })
    return { kind, sha256, bytes: png.length, width, height, uploadedAt: at }
  }

  /** What is on record, without the image bytes. */
  async function artworkStatus() {
    const list = await deps.db.transaction((tx) => artworkList(tx))
    return ARTWORK_KINDS.map((kind) => {
      const a = list.find((x) => x.kind === kind)
      return a
        ? { kind, onRecord: true, sha256: a.sha256, bytes: a.bytes, uploadedAt: a.uploadedAt }
        : { kind, onRecord: false }
    })
  }

  /** One image on record, for the back office's preview (base64 PNG), or NOT_FOUND. */
  async function artworkImage(kind: ArtworkKind) {
    const list = await deps.db.transaction((tx) => artworkList(tx))
    const a = list.find((x) => x.kind === kind)
    if (!a) throw new DomainError('NOT_FOUND', `no ${kind} image on record`)
    return {
      kind,
      sha256: a.sha256,
      bytes: a.bytes,
      uploadedAt: a.uploadedAt,
      pngBase64: Buffer.from(a.png).toString('base64'),
    }
  }

  /** The images for the ticket sheet, read before any rendering (no transaction held while the PDF is made). */
  async function sheetArtwork(): Promise<{ ajLogo?: Uint8Array; maeSignature?: Uint8Array }> {
    const list: Artwork[] = await deps.db.transaction((tx) => artworkList(tx))
    return {
      ajLogo: list.find((a) => a.kind === 'aj-logo')?.png,
      maeSignature: list.find((a) => a.kind === 'mae-signature')?.png,
    }
  }

  return { uploadArtwork, artworkStatus, artworkImage, sheetArtwork }
}
