/**
 * Issue 24 point 2: an identity document kept in a table is stored sealed under the sealing key (outside the
 * database), never in clear; the keyed `buyer_key` column beside it (identity.ts) is what lookups, AML totals and
 * exclusion checks match on. Only the use cases that show it to the roles that need it (the AML officer's records,
 * the buyer check of a kiosk purchase) open it. A value written in clear by an earlier version is read as it is.
 * Pure apart from the sealer handed in.
 */
import type { Sealer } from './sealing.ts'

/** Marks a sealed document in a column (a clear one never starts with it: documents have no dot-prefixed tag). */
export const DOCUMENT_AT_REST_PREFIX = 'idoc1.'
const CONTEXT = 'at-rest|identity-document'

/** The stored form of a document; an already sealed value is kept as it is (a change voucher inherits its parent's). */
export function sealDocumentAtRest(sealer: Pick<Sealer, 'seal'>, document: string | null | undefined): string | null {
  if (document === null || document === undefined || document === '') return null
  if (document.startsWith(DOCUMENT_AT_REST_PREFIX)) return document
  return DOCUMENT_AT_REST_PREFIX + sealer.seal(document, CONTEXT)
}

/** The document a stored value holds (a clear value from an earlier version is returned unchanged). */
export function openDocumentAtRest(sealer: Pick<Sealer, 'open'>, stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined || stored === '') return null
  if (!stored.startsWith(DOCUMENT_AT_REST_PREFIX)) return stored
  return sealer.open(stored.slice(DOCUMENT_AT_REST_PREFIX.length), CONTEXT).toString('utf8')
}

/**
 * The key a person is matched by, as stored (issue 24 points 2 and 6): the keyed hash of the person's key
 * (identity.ts), so that a copy of the database holds no document and cannot test guesses. Every table stores
 * this one form, so equal people stay equal across tables (a voucher's buyer, a card's player, the exclusion list).
 */
export function identityKeyAtRest(sealer: Pick<Sealer, 'tag'>, personKey: string): string {
  return isIdentityKeyAtRest(personKey) ? personKey : sealer.tag(personKey, 'identity-key-at-rest')
}

/** A stored key is 64 lowercase hex digits; a person's key in clear (identity.ts) is upper case, so never one. */
export function isIdentityKeyAtRest(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value)
}

/** A document shown to a role that may not read it: its last three characters, the rest masked. */
export function maskDocument(document: string | null | undefined): string | null {
  if (!document) return null
  const d = document.trim()
  return d.length <= 3 ? '•'.repeat(d.length) : `${'•'.repeat(Math.min(d.length - 3, 6))}${d.slice(-3)}`
}

/** A key whose value is a person's identity document (`document`, `payeeDocument`, `buyerDocument`...). */
const DOCUMENT_FIELD = /document$/i

/**
 * A register, report or record as shown to a role that may not read identity documents (issue 24 point 2, GEN-9,
 * GEN-10): every text under a `…document` key masked as {@link maskDocument} does, everything else as it was.
 * Objects and arrays are copied only where something changes.
 */
export function maskIdentityDocuments<T>(value: T): T {
  return maskIn(value) as T
}

function maskIn(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v
  if (Array.isArray(v)) {
    let changed = false
    const out = v.map((x) => {
      const y = maskIn(x)
      if (y !== x) changed = true
      return y
    })
    return changed ? out : v
  }
  let out: Record<string, unknown> | null = null
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const y = typeof x === 'string' && x !== '' && DOCUMENT_FIELD.test(k) ? maskDocument(x) : maskIn(x)
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y
  }
  return out ?? v
}
