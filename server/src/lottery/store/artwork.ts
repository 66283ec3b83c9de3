/** SQL of the lottery ticket artwork: the AJ logo and the MAE signature images (CFG-39; migration 0230). */
import type { Sql } from '../../db/database.ts'

export type ArtworkKind = 'aj-logo' | 'mae-signature'

export interface Artwork {
  kind: ArtworkKind
  png: Buffer
  sha256: string
  bytes: number
  uploadedBy: string | null
  uploadedAt: string
}

interface ArtworkRow {
  kind: ArtworkKind
  png_base64: string
  sha256: string
  bytes: number | string
  uploaded_by: string | null
  uploaded_at: string
}

const toArtwork = (r: ArtworkRow): Artwork => ({
  kind: r.kind,
  png: Buffer.from(r.png_base64, 'base64'),
  sha256: r.sha256,
  bytes: Number(r.bytes),
  uploadedBy: r.uploaded_by,
  uploadedAt: r.uploaded_at,
})

/** One image per kind: a new upload replaces the one on record. */
export async function putArtwork(tx: Sql, a: Omit<Artwork, 'png'> & { png: Buffer }): Promise<void> {
  await tx.run(
    `INSERT INTO lottery_artwork (kind, png_base64, sha256, bytes, uploaded_by, uploaded_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (kind) DO UPDATE SET png_base64 = excluded.png_base64, sha256 = excluded.sha256,
       bytes = excluded.bytes, uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at`,
    [a.kind, a.png.toString('base64'), a.sha256, a.bytes, a.uploadedBy, a.uploadedAt],
  )
}

export async function artworkList(tx: Sql): Promise<Artwork[]> {
  const rows = await tx.all<ArtworkRow>('SELECT * FROM lottery_artwork ORDER BY kind')
  return rows.map(toArtwork)
}
