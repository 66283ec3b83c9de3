/**
 * Issue 24 point 2 (no bearer secret at rest): the journal never forgets, and auditors, inspectors and floor
 * managers read it. So it holds no bearer code and no identity document in clear:
 *
 * - a ticket is named by its id or serial; any signed code (`BLL1.<kind>.<id>.<signature>`) that still reaches a
 *   payload (an error message, a path) loses its signature, the part that makes it a bearer value (an instant
 *   ticket's code loses its id too, which is its validation code);
 * - an identity document is written as {@link ProtectedDocument}: sealed under the sealing key (only the roles that
 *   may see it get it opened, see {@link revealDocuments}) with a keyed hash to match records of the same person.
 *   A document that reaches the journal unprotected is masked, never written.
 *
 * Pure apart from the sealer handed in.
 */
import type { Sealer } from './sealing.ts'

export const PROTECTED_DOCUMENT = 'identity-document'
/** The sealing context of a journal's identity documents (the record's seq is not known when it is sealed). */
const DOCUMENT_CONTEXT = 'journal|identity-document'
/** The keyed hash's purpose: equal documents (after normalising) give equal tags. */
export const DOCUMENT_TAG_PURPOSE = 'identity-document'

/** An identity document as the journal keeps it. */
export interface ProtectedDocument {
  protected: typeof PROTECTED_DOCUMENT
  /** HMAC-SHA256 (hex) of the normalised document: matches records of one person without revealing who. */
  tag: string
  /** The document sealed under the sealing key. */
  sealed: string
}

/** What a role without the permission sees of a document, and what the journal keeps of one that came unprotected. */
export const MASKED_DOCUMENT = '•••'

// A signed code anywhere in a text: prefix, kind, id, and the 86-character signature that makes it a bearer value.
const SIGNED_CODE = /\bBLL1\.([CLTIV])\.([A-Za-z0-9_-]{1,64})\.[A-Za-z0-9_-]{86}(?![A-Za-z0-9_-])/g
const DOCUMENT_KEY = /document$/i

/** Upper case, without spaces, dots or dashes: "4455667 lp" and "4455667-LP" are one document. */
export function normaliseDocumentText(document: string): string {
  return document.toUpperCase().replace(/[\s.\-·]/g, '')
}

/** The journal form of a player's identity document; null stays null (no document given). */
export function protectDocument(
  sealer: Pick<Sealer, 'seal' | 'tag'>,
  document: string | null | undefined,
): ProtectedDocument | null {
  if (document === null || document === undefined || document === '') return null
  return {
    protected: PROTECTED_DOCUMENT,
    tag: sealer.tag(normaliseDocumentText(document), DOCUMENT_TAG_PURPOSE),
    sealed: sealer.seal(document, DOCUMENT_CONTEXT),
  }
}

export function isProtectedDocument(v: unknown): v is ProtectedDocument {
  return (
    !!v &&
    typeof v === 'object' &&
    (v as ProtectedDocument).protected === PROTECTED_DOCUMENT &&
    typeof (v as ProtectedDocument).sealed === 'string'
  )
}

/** A text with every signed code cut to `BLL1.<kind>.<id>` (the ticket named, not its bearer value). */
export function withoutBearerCodes(text: string): string {
  // An instant ticket's id is its validation code, itself a bearer value: only the kind is left of it.
  return text.includes('BLL1.')
    ? text.replace(SIGNED_CODE, (_m, kind: string, id: string) => (kind === 'I' ? 'BLL1.I' : `BLL1.${kind}.${id}`))
    : text
}

/**
 * A journal payload as it may be written: signed codes cut to the ticket's name, clear identity documents masked.
 * Objects and arrays are copied only where something changes.
 */
export function scrubJournalPayload<T>(payload: T): T {
  return scrub(payload) as T
}

function scrub(v: unknown): unknown {
  if (typeof v === 'string') return withoutBearerCodes(v)
  if (!v || typeof v !== 'object') return v
  if (Array.isArray(v)) {
    let changed = false
    const out = v.map((x) => {
      const y = scrub(x)
      if (y !== x) changed = true
      return y
    })
    return changed ? out : v
  }
  if (isProtectedDocument(v)) return v
  let out: Record<string, unknown> | null = null
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    // A person's document given as text under a "…document" key: masked (the use case should have protected it).
    const y = typeof x === 'string' && x !== '' && DOCUMENT_KEY.test(k) ? MASKED_DOCUMENT : scrub(x)
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y
  }
  return out ?? v
}

/**
 * A payload read from the journal for a reader: with `sealer` (a role that may see identity documents) each
 * protected document gets its clear `value`; without, it is shown masked (`value: "•••"`). The stored record is
 * unchanged.
 */
export function revealDocuments<T>(payload: T, sealer: Pick<Sealer, 'openText'> | null): T {
  return reveal(payload, sealer) as T
}

function reveal(v: unknown, sealer: Pick<Sealer, 'openText'> | null): unknown {
  if (!v || typeof v !== 'object') return v
  if (Array.isArray(v)) return v.map((x) => reveal(x, sealer))
  if (isProtectedDocument(v)) {
    let value = MASKED_DOCUMENT
    if (sealer) {
      try {
        value = sealer.openText(v.sealed, DOCUMENT_CONTEXT)
      } catch {
        value = MASKED_DOCUMENT
      }
    }
    return { protected: v.protected, tag: v.tag, value }
  }
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, reveal(x, sealer)]))
}
