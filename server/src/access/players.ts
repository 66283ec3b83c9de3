/**
 * Player admission (issue 14 point 8; GEN-23, GEN-25, GEN-27, GEN-16): the list of self-excluded and prohibited
 * players, and the check made wherever a player's identity document is presented (a voucher sold above the ID
 * threshold, a named lotto slip, a payout asking for an ID). The check runs at the permission gate on the
 * request's document fields and, since issue 23 point 3, inside the voucher sale and the kiosk purchase on the
 * identities they resolve (the buyer recorded, each slip's player, the voucher's buyer), whatever the body's shape,
 * and inside every payout and voucher cash-out on the payee and the identified buyer of what it pays.
 * Issue 24 point 6: a person is found by the key of their document (shared/identity.ts), in the country of the
 * server's profile, so that "4567890 LP", "4567890-lp" and "4567890" are one player; the document is kept as typed.
 */
import { randomBytes } from 'node:crypto'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Clock } from '../shared/clock.ts'
import { exclusionsInForce, insertExclusion, liftExclusion, listExclusions } from './store.ts'
import { identityKey, type IdentityCountry } from '../shared/identity.ts'
import type { Sealer } from '../shared/sealing.ts'
import {
  identityKeyAtRest,
  isIdentityKeyAtRest,
  maskDocument,
  openDocumentAtRest,
  sealDocumentAtRest,
} from '../shared/document-at-rest.ts'

/**
 * GEN-23 / GEN-27: the person is on the exclusion list. The exclusion's id and the hall stay on the error for the
 * refusal's journal record; the answer carries only its kind.
 */
export class PlayerExcluded extends DomainError {
  readonly exclusionId: string
  readonly kind: string
  constructor(
    exclusion: { id: string; kind: string },
    readonly hallId: string | null,
  ) {
    super('PLAYER_EXCLUDED', `the player is on the exclusion list (${exclusion.kind})`, { kind: exclusion.kind })
    this.exclusionId = exclusion.id
    this.kind = exclusion.kind
  }
}

/** One key per person (shared/identity.ts): "4567890 LP", "4567890-lp" and "4567890" are "4567890". */
export function normaliseDocument(document: string, country: IdentityCountry | null = null): string {
  return identityKey(document, country)
}

/** The identity documents a request body carries, wherever the sale and payout routes put them. */
export function documentsIn(body: unknown): string[] {
  if (!body || typeof body !== 'object') return []
  const b = body as Record<string, unknown>
  const out: unknown[] = [b.buyerDocument, b.payeeDocument, b.playerDocument]
  for (const k of ['player', 'payee', 'buyer']) {
    const o = b[k]
    if (o && typeof o === 'object') out.push((o as Record<string, unknown>).document)
  }
  return out.filter((d): d is string => typeof d === 'string' && d.trim().length > 0)
}

export function createPlayerAdmission(deps: {
  db: Database
  clock: Clock
  country?: IdentityCountry | null
  sealer: Pick<Sealer, 'seal' | 'open' | 'tag'>
  /** CFG-4 / GEN-23 (6): the server's profile's authority for international lists (null: none). */
  internationalLists?: { authority: string; rule: string } | null
}) {
  const { db, clock } = deps
  const now = () => clock.now().toISOString()
  /** The key a person is matched by, in the server's country (idempotent: a key may be passed again). */
  const keyOf = (document: string) => identityKey(document, deps.country ?? null)
  /** Issue 24 point 2: the key the list is stored and searched by, a keyed hash of the person's key. */
  const storedKeyOf = (document: string) =>
    isIdentityKeyAtRest(document) ? document : identityKeyAtRest(deps.sealer, keyOf(document))

  async function exclude(
    input: {
      document: string
      name: string
      kind: 'self_excluded' | 'prohibited'
      reason: string
      hallId?: string | null
      until?: string | null
      /** CFG-4 / GEN-23 (6): the international list the person is on, with its cut-off ("UIF, lista ONU 1267, 2026-11-01"). */
      listSource?: string | null
    },
    by: string,
  ) {
    const id = `px_${randomBytes(8).toString('hex')}`
    const listSource = input.listSource?.trim() || null
    if (listSource) {
      const lists = deps.internationalLists ?? null
      if (!lists)
        throw new DomainError(
          'RULE_DISABLED',
          "this profile's rules name no international lists: a person is excluded by the hall (GEN-23)",
          { field: 'listSource', rule: 'CFG-4' },
        )
      // A person on an international list may not play (GEN-23 (6)): a prohibition, never a self-exclusion.
      if (input.kind !== 'prohibited')
        throw new DomainError(
          'VALIDATION_FAILED',
          'a person on an international list is prohibited, not self-excluded',
          {
            field: 'kind',
            rule: 'GEN-23',
          },
        )
    }
    const document = input.document.trim()
    const documentKey = keyOf(document)
    if (documentKey.length < 4)
      throw new DomainError('VALIDATION_FAILED', 'an identity document has at least 4 characters', {
        field: 'document',
      })
    await db.transaction(async (tx) => {
      // Issue 24 point 2: the person's document and name are stored sealed, found by the keyed hash of the key.
      await insertExclusion(tx, {
        id,
        document: sealDocumentAtRest(deps.sealer, document)!,
        documentKey: storedKeyOf(document),
        name: sealDocumentAtRest(deps.sealer, input.name.trim()) ?? '',
        kind: input.kind,
        reason: input.reason,
        hallId: input.hallId ?? null,
        untilAt: input.until ?? null,
        listSource,
        createdBy: by,
        createdAt: now(),
      })
      // The journal keeps the fact, not the document (player data stay in the admission list, LNS-14 by analogy).
      await appendJournal(tx, {
        at: now(),
        type: 'player.excluded',
        scope: input.hallId ? `hall:${input.hallId}` : '',
        payload: {
          exclusionId: id,
          kind: input.kind,
          until: input.until ?? null,
          by,
          ...(listSource
            ? { listSource, authority: deps.internationalLists!.authority, rule: 'GEN-23' }
            : { rule: 'GEN-27' }),
        },
      })
    })
    return { id, document, documentKey, kind: input.kind, listSource }
  }

  async function lift(id: string, by: string) {
    await db.transaction(async (tx) => {
      if (!(await liftExclusion(tx, id, by, now()))) throw new DomainError('NOT_FOUND', `no exclusion ${id} in force`)
      await appendJournal(tx, {
        at: now(),
        type: 'player.exclusion-lifted',
        scope: '',
        payload: { exclusionId: id, by },
      })
    })
    return { id, lifted: true }
  }

  /** The exclusion in force of the first of `documents` (as typed, or keys) excluded in `hallId` (or everywhere). */
  async function exclusionOf(sql: Sql, documents: readonly string[], hallId?: string | null) {
    for (const key of new Set(documents.filter((d) => d.trim()).map(storedKeyOf))) {
      const found = (await exclusionsInForce(sql, key, now())).filter(
        (e) => !e.hall_id || !hallId || e.hall_id === hallId,
      )
      if (found.length) return new PlayerExcluded(found[0], hallId ?? null)
    }
    return null
  }

  /** The refusal's own record (`player.refused`), in a transaction of its own. */
  function journalRefusal(err: PlayerExcluded) {
    // Issue 23 point 5: a refusal in a hall locks only that hall's chain, where its record goes (the hall the use
    // case resolved, never the request's); one of no hall goes to the operator chain and locks that chain alone.
    return db.transaction(
      (tx) =>
        appendJournal(tx, {
          at: now(),
          type: 'player.refused',
          scope: err.hallId ? `hall:${err.hallId}` : '',
          payload: { exclusionId: err.exclusionId, kind: err.kind, rule: 'GEN-23' },
        }),
      { scopes: [err.hallId ? `hall:${err.hallId}` : 'operator'] },
    )
  }

  /**
   * Refuses with PLAYER_EXCLUDED when the person of any of `documents` (as typed, or keys) is excluded in `hallId`
   * (or everywhere). Read on its own: the permission gate's check of the documents a request body carries. A sale
   * decides inside its own transaction (assertAdmittedWithin).
   */
  async function assertAdmitted(documents: readonly string[], hallId?: string | null): Promise<void> {
    const refused = await exclusionOf(db, documents, hallId)
    if (refused) {
      await journalRefusal(refused)
      throw refused
    }
  }

  /**
   * GEN-23 / GEN-25 / GEN-27: the check that decides a sale, read inside the sale's own transaction, so that an
   * exclusion recorded before the sale commits stops it (every write transaction is serialised: SQLite's one writer,
   * PostgreSQL's transaction lock). The refusal rolls the sale back; `journalingRefusals` then journals it.
   */
  async function assertAdmittedWithin(tx: Sql, documents: readonly string[], hallId?: string | null): Promise<void> {
    const refused = await exclusionOf(tx, documents, hallId)
    if (refused) throw refused
  }

  /**
   * The exclusion in force of the first of `documents` in `hallId`, or null, read inside the caller's transaction:
   * for a use case that records an excluded person rather than refusing him (a refund of his own stake).
   */
  function exclusionWithin(
    tx: Sql,
    documents: readonly string[],
    hallId?: string | null,
  ): Promise<PlayerExcluded | null> {
    return exclusionOf(tx, documents, hallId)
  }

  /**
   * GEN-21 (5): the record that a person on the list was refunded his own stake (`player.refunded_excluded`), in the
   * refund's transaction, in the chain of the hall whose list was asked. It names the exclusion, never the document.
   */
  function journalRefundedWithin(
    tx: Sql,
    excluded: PlayerExcluded,
    refund: { at: string; hallId: string | null; refId: string; amountCents: number; ticketId?: string },
  ) {
    return appendJournal(tx, {
      at: refund.at,
      type: 'player.refunded_excluded',
      scope: refund.hallId ? `hall:${refund.hallId}` : '',
      payload: {
        exclusionId: excluded.exclusionId,
        kind: excluded.kind,
        refId: refund.refId,
        ...(refund.ticketId ? { ticketId: refund.ticketId } : {}),
        amountCents: refund.amountCents,
        rule: 'GEN-21',
      },
    })
  }

  /** Runs a sale whose transaction checks admission: a refusal is journaled after its rollback, in its own record. */
  async function journalingRefusals<T>(sale: () => Promise<T>): Promise<T> {
    try {
      return await sale()
    } catch (err) {
      if (err instanceof PlayerExcluded) await journalRefusal(err)
      throw err
    }
  }

  /**
   * The list; the documents opened for those who keep it (`showDocuments`: players.exclude), masked for the others
   * who read it (cash desks, readers), who are shown the name and the last characters (issue 24 point 2).
   */
  async function list(opts: { showDocuments: boolean } = { showDocuments: true }) {
    return (await listExclusions(db)).map((e) => {
      const document = openDocumentAtRest(deps.sealer, e.document) ?? ''
      return {
        id: e.id,
        document: opts.showDocuments ? document : maskDocument(document),
        documentKey: opts.showDocuments ? keyOf(document) : null,
        name: openDocumentAtRest(deps.sealer, e.name) ?? '',
        kind: e.kind,
        reason: e.reason,
        hallId: e.hall_id,
        until: e.until_at,
        listSource: e.list_source ?? null,
        createdBy: e.created_by,
        createdAt: e.created_at,
        liftedAt: e.lifted_at,
      }
    })
  }

  /** CFG-4: the international lists the profile names (their authority), or null where the hall alone excludes. */
  const internationalLists = () => (deps.internationalLists ? { authority: deps.internationalLists.authority } : null)

  return {
    exclude,
    lift,
    assertAdmitted,
    assertAdmittedWithin,
    exclusionWithin,
    journalRefundedWithin,
    journalingRefusals,
    list,
    keyOf,
    internationalLists,
  }
}

export type PlayerAdmission = ReturnType<typeof createPlayerAdmission>
