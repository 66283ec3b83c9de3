/**
 * Issue 24 point 1: the database the services use, with row seals (row-seals.ts). Every transaction it opens is
 * bound to the row-seal key; rows touched after the transaction's last journal record are sealed by one
 * `rows.sealed` record before the commit; a refusal for a tampered row (ROW_TAMPERED) rolls the transaction back
 * and is then journaled on its own (`row.tampered`), so the attempt is on record even though nothing was paid.
 */
import type { Database, Sql, TransactionOptions } from '../db/database.ts'
import { DomainError } from './errors.ts'
import type { Sealer } from './sealing.ts'
import { insertLegacySealMarker, legacySealMarker, legacySealRecord } from './store.ts'
import { appendJournal } from './journal.ts'
import { heldScopes, normaliseScopes } from '../db/scopes.ts'
import {
  currentRowSeals,
  hasPendingRows,
  runWithRowSeals,
  FIRST_SEALED_TABLES,
  AML_SEALED_TABLES,
  PRIMA_SEALED_TABLES,
  PRICE_SEALED_TABLES,
  RULE_SEALED_TABLES,
  CARD_SEALED_TABLES,
  SEALED_TABLE_NAMES,
  type JournalTip,
  touchRows,
  type SealedTable,
  unsealedRowIds,
  type RowProblem,
} from './row-seals.ts'

/** The row-seal key, derived from the sealing key (BOLILLO_SEALING_KEY or BOLILLO_KEY_DIR), never stored anywhere. */
export function rowSealKeyOf(sealer: Sealer): Buffer {
  return sealer.deriveKey('row-seal-v1')
}

export function withRowSeals(db: Database, key: Buffer, now: () => Date): Database {
  // The storage's own members are reached through the prototype, so a wrapped storage keeps whatever it has
  // (a benchmark's wrapper, an engine's extras); only the transaction is this module's.
  const sealed: Database = Object.assign(Object.create(db) as Database, {
    transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T> {
      // Each transaction's body runs in its own context: the rows it touched are its own.
      return db
        .transaction(
          (tx) =>
            runWithRowSeals(key, now, async () => {
              const result = await fn(tx)
              await sealLeftovers(tx, now)
              return result
            }),
          options,
        )
        .catch(async (err: unknown) => {
          // Issue 23 point 5: the refusal is recorded in the refused transaction's first chain (the hall, or the
          // product, whose row it found changed) under that chain's lock alone, so that a tampered row found in one
          // hall stops no other hall's sales; an unscoped transaction's refusal stays system-wide.
          const chain = normaliseScopes(options?.scopes)?.[0]
          if (isTampered(err))
            await db.transaction(
              (tx) => appendJournal(tx, refusalEntry(err, now)),
              chain ? { scopes: [chain] } : undefined,
            )
          throw err
        })
    },
  })
  return sealed
}

const isTampered = (err: unknown): err is DomainError => err instanceof DomainError && err.code === 'ROW_TAMPERED'

/**
 * The scope of a record the transaction itself adds (rows sealed, a refusal): system-wide, or in a scoped
 * transaction the first chain it locked (it may append to no other).
 */
function ownScope(): string {
  return heldScopes()?.[0] ?? ''
}

function refusalEntry(err: DomainError, now: () => Date, actor?: unknown) {
  const rows = (err.details as { rows?: RowProblem[] } | undefined)?.rows ?? []
  return {
    at: now().toISOString(),
    type: 'row.tampered',
    scope: ownScope(),
    payload: { refused: true, rows, ...(actor ? { actor } : {}) },
  }
}

/**
 * Rows touched after the last journal record of a transaction (or unit) are sealed by one `rows.sealed` record
 * (exported for the lotto sale's writer thread, whose transactions are its own).
 */
export async function sealLeftovers(tx: Sql, now: () => Date): Promise<void> {
  if (hasPendingRows(tx))
    await appendJournal(tx, {
      at: now().toISOString(),
      type: 'rows.sealed',
      scope: ownScope(),
      payload: { reason: 'written' },
    })
}

/**
 * One unit of a group commit (db/group-commit.ts): its rows are its own, sealed by its own records, so that a unit
 * rolled back to its savepoint leaves nothing to seal in the batch.
 */
export function sealedUnit<T>(
  tx: Sql,
  fn: () => Promise<T>,
  /** The journal's head carried from one unit of the batch to the next (see runWithRowSeals). */
  link?: { head?: JournalTip },
): Promise<T> {
  const outer = currentRowSeals()
  if (!outer) return fn()
  return runWithRowSeals(
    outer.key,
    outer.now,
    async () => {
      const result = await fn()
      await sealLeftovers(tx, outer.now)
      return result
    },
    link,
  )
}

/**
 * A unit of a group commit refused for a tampered row, journaled in the batch's transaction after its savepoint was
 * rolled back; `actor` is the unit's caller (the batch runs in the context of whichever request started it).
 */
export async function journalUnitRefusal(tx: Sql, err: unknown, actor: unknown): Promise<void> {
  const outer = currentRowSeals()
  if (!outer || !isTampered(err)) return
  await runWithRowSeals(outer.key, outer.now, () => appendJournal(tx, refusalEntry(err, outer.now, actor)))
}

/**
 * The start-up passes, each once per database: rows written before their table was sealed (migration 0061 for the
 * cash desk's tables, 0085 for the lotto, lottery and instant lines') are sealed under one record of the pass. A pass
 * never runs again (its record is in the journal), so a seal removed later is reported, not silently remade.
 */
const LEGACY_PASSES = [
  { marker: 'legacy', type: 'rows.legacy_sealed', tables: FIRST_SEALED_TABLES },
  {
    marker: 'legacy:products',
    type: 'rows.legacy_sealed.products',
    tables: SEALED_TABLE_NAMES.filter(
      (t) =>
        !FIRST_SEALED_TABLES.includes(t) &&
        !CARD_SEALED_TABLES.includes(t) &&
        !AML_SEALED_TABLES.includes(t) &&
        !PRIMA_SEALED_TABLES.includes(t) &&
        !PRICE_SEALED_TABLES.includes(t) &&
        !RULE_SEALED_TABLES.includes(t),
    ),
  },
  { marker: 'legacy:cards', type: 'rows.legacy_sealed.cards', tables: CARD_SEALED_TABLES },
  { marker: 'legacy:aml', type: 'rows.legacy_sealed.aml', tables: AML_SEALED_TABLES },
  { marker: 'legacy:prima', type: 'rows.legacy_sealed.prima', tables: PRIMA_SEALED_TABLES },
  { marker: 'legacy:prices', type: 'rows.legacy_sealed.prices', tables: PRICE_SEALED_TABLES },
  { marker: 'legacy:rules', type: 'rows.legacy_sealed.rules', tables: RULE_SEALED_TABLES },
] as const

export async function sealLegacyRows(db: Database): Promise<number> {
  let count = 0
  for (const pass of LEGACY_PASSES) {
    for (let attempt = 0; ; attempt++) {
      try {
        count += await sealLegacyRowsOnce(db, pass)
        break
      } catch (err) {
        // Two nodes starting at once on one PostgreSQL database: the second finds the first's record on its retry.
        if (err instanceof DomainError && err.code === 'CONFLICT' && attempt < 3) continue
        throw err
      }
    }
  }
  return count
}

async function sealLegacyRowsOnce(
  db: Database,
  pass: { marker: string; type: string; tables: readonly SealedTable[] },
): Promise<number> {
  const marker = await legacySealMarker(db, pass.marker)
  if (marker) return 0
  return db.transaction(async (tx) => {
    // The marker row may have been removed: the journal says whether the pass ran already.
    const done = await legacySealRecord(tx, pass.type)
    let count = 0
    if (!done) {
      for (const table of pass.tables) {
        const ids = await unsealedRowIds(tx, table)
        touchRows(tx, table, ids)
        count += ids.length
      }
    }
    const rec =
      done ??
      (await appendJournal(tx, {
        at: currentRowSeals()!.now().toISOString(),
        type: pass.type,
        scope: '',
        payload: { rows: count },
      }))
    await insertLegacySealMarker(tx, Number(rec.seq), pass.marker)
    return count
  })
}
