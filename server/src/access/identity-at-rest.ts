/**
 * Issue 24 points 2 and 6, once at start-up: identity documents (and the excluded players' names) written in clear by
 * an older version are sealed (shared/document-at-rest.ts), and the keys people are matched by (the exclusion list,
 * AML intakes and records, the players of cards) become the keyed hash of the person's key (identity.ts), so that a
 * copy of the database names no one and holds no number to test guesses against. Idempotent: a sealed value and a
 * stored key are left as they are.
 *
 * Vouchers, lotto slips and the lotto/lottery/instant payouts have the document inside their row seal
 * (shared/row-seals.ts): a row whose seal still matches is converted and sealed again under one journal record
 * (`documents.sealed_at_rest`); a row that no longer matches its seal is left as found, for verify-journal to list
 * and the paying use case to refuse (converting it would seal the edit).
 */
import type { Database } from '../db/database.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Sealer } from '../shared/sealing.ts'
import { identityKey, type IdentityCountry } from '../shared/identity.ts'
import {
  DOCUMENT_AT_REST_PREFIX,
  identityKeyAtRest,
  isIdentityKeyAtRest,
  openDocumentAtRest,
  sealDocumentAtRest,
} from '../shared/document-at-rest.ts'
import { assertRowsSealed, keyColumnsOf, rowKeyOf, touchRows, type SealedTable } from '../shared/row-seals.ts'
import {
  CLEAR_IDENTITY_TABLES,
  eraseFreedPages,
  playerCardsWithClearKey,
  rowsWithClearIdentity,
  setIdentityColumns,
  setPlayerCardKey,
  truncateWal,
  type ClearIdentityTable,
} from './store.ts'

const ROW_SEALED: readonly ClearIdentityTable[] = [
  'vouchers',
  'lotto_slips',
  'lottery_payouts',
  'instant_payouts',
  'cash_intakes',
  'aml_reports',
  'player_exclusions',
]
const CHUNK = 200

export interface IdentityAtRestResult {
  /** Rows converted, per table. */
  converted: Record<string, number>
  /** Rows of row-sealed tables left in clear because they no longer match their seal. */
  tampered: Array<{ table: string; id: string }>
}

export async function sealIdentitiesAtRest(
  db: Database,
  sealer: Pick<Sealer, 'seal' | 'open' | 'tag'>,
  country: IdentityCountry | null,
  now: () => string,
): Promise<IdentityAtRestResult> {
  const storedKey = (document: string) => identityKeyAtRest(sealer, identityKey(document, country))
  const converted: Record<string, number> = {}
  const tampered: IdentityAtRestResult['tampered'] = []
  let erased = false
  const erase = async () => {
    if (!erased) await eraseFreedPages(db)
    erased = true
  }
  for (const table of Object.keys(CLEAR_IDENTITY_TABLES) as ClearIdentityTable[]) {
    const t = CLEAR_IDENTITY_TABLES[table]
    const sealedRows = ROW_SEALED.includes(table)
    const rows = await rowsWithClearIdentity(
      db,
      table,
      DOCUMENT_AT_REST_PREFIX,
      sealedRows ? keyColumnsOf(rowSealName(table)) : [],
    )
    if (rows.length === 0) continue
    await erase()
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK)
      await db.transaction(async (tx) => {
        let n = 0
        for (const r of part) {
          const id = String(r.id)
          if (sealedRows) {
            try {
              await assertRowsSealed(tx, rowSealName(table), [rowKeyOf(rowSealName(table), r)])
            } catch {
              tampered.push({ table, id })
              continue
            }
          }
          const values: Record<string, string | null> = {}
          for (const c of t.documents) values[c] = sealDocumentAtRest(sealer, r[c])
          if (t.key) {
            const document = openDocumentAtRest(sealer, r[t.documents[0]])
            const key = r[t.key]
            values[t.key] = key && isIdentityKeyAtRest(key) ? key : document ? storedKey(document) : null
          }
          await setIdentityColumns(tx, table, id, values)
          if (sealedRows) touchRows(tx, rowSealName(table), [rowKeyOf(rowSealName(table), r)])
          n++
        }
        converted[table] = (converted[table] ?? 0) + n
        if (sealedRows && n > 0)
          await appendJournal(tx, {
            at: now(),
            type: 'documents.sealed_at_rest',
            scope: '',
            payload: { table, rows: n, reason: 'identity documents stored sealed (issue 24 point 2)' },
          })
      })
    }
  }
  const cards = (await playerCardsWithClearKey(db)).filter((c) => !isIdentityKeyAtRest(c.player_key.slice(4)))
  if (cards.length > 0) {
    await erase()
    for (let i = 0; i < cards.length; i += CHUNK)
      await db.transaction(async (tx) => {
        for (const c of cards.slice(i, i + CHUNK))
          await setPlayerCardKey(tx, c.card_id, `doc:${storedKey(c.player_key.slice(4))}`)
      })
    converted.player_cards = cards.length
  }
  if (erased) await truncateWal(db)
  return { converted, tampered }
}

const rowSealName = (table: ClearIdentityTable): SealedTable => table as SealedTable
