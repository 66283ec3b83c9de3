/**
 * Issue 24 point 1: what `verify-journal` and `GET /api/journal/verify` add to the hash chain: the sums the cash desk
 * pays from, recomputed from the journal and the sealed rows (row-seals.ts checks each row on its own).
 */
import type { Sql } from '../db/database.ts'
import type { ChainVerification, JournalRecord } from './journal-chain.ts'
import type { RowProblem } from './row-seals.ts'
import { journalVoucherRefs, shiftsWithMovementSums, voucherAmounts } from './store.ts'

/**
 * Each voucher's amount against the `voucher.issued` record that issued it, and each closed shift's expected cash
 * against its float plus its movements and against its `shift.closed` record.
 */
export async function recomputeBalances(db: Sql, records: readonly JournalRecord[]): Promise<RowProblem[]> {
  const problems: RowProblem[] = []
  const issued = new Map<string, { seq: number; amountCents: number }>()
  const closed = new Map<string, { seq: number; expectedCents: number }>()
  for (const r of records) {
    const p = r.payload as Record<string, unknown> | null
    if (!p || typeof p !== 'object') continue
    if (r.type === 'voucher.issued' && typeof p.voucherId === 'string')
      issued.set(p.voucherId, { seq: r.seq, amountCents: Number(p.amountCents) })
    if (r.type === 'shift.closed' && typeof p.shiftId === 'string')
      closed.set(p.shiftId, { seq: r.seq, expectedCents: Number(p.expectedCents) })
  }
  for (const v of await voucherAmounts(db)) {
    const rec = issued.get(v.id)
    if (rec && rec.amountCents !== Number(v.amount_cents)) {
      problems.push({
        table: 'vouchers',
        id: v.id,
        what: `amount_cents is ${Number(v.amount_cents)} but journal record #${rec.seq} (voucher.issued) issued it for ${rec.amountCents}`,
      })
    }
  }
  const shifts = await shiftsWithMovementSums(db)
  for (const s of shifts) {
    if (s.status !== 'closed') continue
    const recomputed = Number(s.float_cents) + Number(s.moved ?? 0)
    const stored = s.expected_cents === null ? null : Number(s.expected_cents)
    if (stored !== recomputed)
      problems.push({
        table: 'cashier_shifts',
        id: s.id,
        what: `expected_cents is ${stored} but its float plus its cash movements is ${recomputed}`,
      })
    const rec = closed.get(s.id)
    if (rec && stored !== rec.expectedCents)
      problems.push({
        table: 'cashier_shifts',
        id: s.id,
        what: `expected_cents is ${stored} but journal record #${rec.seq} (shift.closed) closed it expecting ${rec.expectedCents}`,
      })
  }
  return problems
}

/**
 * GEN-13 (migration 0590): the voucher a record names in its `voucher_id` column (outside the hashed content, so
 * that the chain and old journals verify as before) must be one whose seal the record's hashed payload carries
 * (`rowSeals`). A name written into another record outside the server (to make an honest voucher look put back, and
 * refuse it) is reported here; a name removed leaves the row put back reported by the row check (verifySealedRows).
 */
export async function voucherRefProblems(db: Sql, records: readonly JournalRecord[]): Promise<RowProblem[]> {
  const refs = await journalVoucherRefs(db)
  if (refs.length === 0) return []
  const named = new Map(refs.map((r) => [Number(r.seq), r.voucher_id]))
  const problems: RowProblem[] = []
  for (const r of records) {
    const voucherId = named.get(r.seq)
    if (voucherId === undefined) continue
    const seals = (r.payload as { rowSeals?: Record<string, unknown> } | null)?.rowSeals
    if (!seals || typeof seals !== 'object' || !(`vouchers:${voucherId}` in seals))
      problems.push({
        table: 'journal',
        id: String(r.seq),
        what: `record #${r.seq} names voucher ${voucherId} (voucher_id) but does not seal it (changed outside the server)`,
      })
  }
  return problems
}

export type JournalVerification = ChainVerification & { rows: { checked: number; problems: RowProblem[] } }

/** The chain's verdict, not ok as well when any row differs (`reason` then says how many). */
export function rowsVerdict(
  chain: ChainVerification,
  rows: { checked: number; problems: RowProblem[] },
): JournalVerification {
  if (!chain.ok || rows.problems.length === 0) return { ...chain, rows }
  return {
    ok: false,
    count: chain.count,
    badSeq: 0,
    reason: `${rows.problems.length} sealed row(s) differ from the journal`,
    rows,
  }
}
