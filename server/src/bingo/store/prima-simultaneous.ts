/**
 * SQL of the prima deductions of a simultaneous game (BNG-58, BNG-100): one game, several halls, each hall's fund fed
 * from its own sales. The ledger (prima_ledger) is the record: a (hall, game) pair has at most one deduction and
 * at most one reversal there.
 */
import type { Sql } from '../../db/database.ts'

/** The amount of the (hall, game) ledger entry of `kind`, if any. */
export async function primaLedgerAmountOf(
  tx: Sql,
  hallId: string,
  gameId: string,
  kind: 'deduction' | 'reversal',
): Promise<number | undefined> {
  const r = await tx.get<{ amount_cents: number }>(
    'SELECT amount_cents FROM prima_ledger WHERE hall_id = ? AND game_id = ? AND kind = ? ORDER BY entry_no LIMIT 1',
    [hallId, gameId, kind],
  )
  return r === undefined ? undefined : Number(r.amount_cents)
}
