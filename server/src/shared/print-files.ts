/**
 * The hand-over of print files to the secure printer, shared by the instant batches (instant/files.ts) and the
 * numbered lottery's print runs (lottery/print-files.ts): the files go to a directory outside DATA_DIR that no HTTP
 * route serves, with a manifest naming every file's SHA-256 and size, signed by the operator key (Ed25519,
 * manifest.sig, base64url). `npx bolillo instant verify <dir>` checks any such directory.
 */
import { createHash, sign, type KeyObject } from 'node:crypto'
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join, sep } from 'node:path'

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')

/** Writes manifest.json (pretty JSON) and manifest.sig beside it; returns the manifest's path and digest. */
export function writeSignedManifest(
  outDir: string,
  manifest: Record<string, unknown>,
  operatorKey: KeyObject,
): { manifestPath: string; sha256: string } {
  const text = JSON.stringify(manifest, null, 2) + '\n'
  const manifestPath = join(outDir, 'manifest.json')
  writeFileSync(manifestPath, text)
  writeFileSync(
    join(outDir, 'manifest.sig'),
    sign(null, Buffer.from(text, 'utf8'), operatorKey).toString('base64url') + '\n',
  )
  return { manifestPath, sha256: sha256Hex(text) }
}

/** Whether `path` is `dir` or lies under it (symbolic links resolved where they exist). */
export function isInside(path: string, dir: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p)
    } catch {
      return p
    }
  }
  const a = real(path)
  const b = real(dir)
  return a === b || a.startsWith(b.endsWith(sep) ? b : b + sep)
}

/** A directory only the server's user reads (0700), made with its parents. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
}
