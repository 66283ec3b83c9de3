/**
 * SQL of the reprint after a loss or theft and of the exchange of sold tickets (LST-1 (a), LST-2 (a), LST-4,
 * LST-7; migration 0110).
 */
import type { Sql } from '../../db/database.ts'
import { touchRowsWhere } from '../../shared/row-seals.ts'

/** A numbered block of the issue: numbers from..to of series seriesFrom..seriesTo. */
export interface NumberBlock {
  from: number
  to: number
  seriesFrom: number
  seriesTo: number
}

/** A reprint the AJ authorised after a loss or theft (`lottery_reissues`). */
export interface Reissue {
  id: string
  drawId: string
  mode: 'new-numbering' | 'full-reprint'
  lostRangeId: string
  designVersion: number
  designNote: string | null
  /** The new numbering of a 'new-numbering' reissue; null for a full reprint. */
  replacement: NumberBlock | null
  authorisationRef: string
  scheduleJson: string
  actorJson: string
  createdAt: string
}

interface ReissueRow {
  id: string
  draw_id: string
  mode: Reissue['mode']
  lost_range_id: string
  design_version: number | string
  design_note: string | null
  replacement_from: number | string | null
  replacement_to: number | string | null
  replacement_series_from: number | string | null
  replacement_series_to: number | string | null
  authorisation_ref: string
  schedule: string
  actor: string
  created_at: string
}

/** The one mapping of a `lottery_reissues` row. */
function toReissue(r: ReissueRow): Reissue {
  return {
    id: r.id,
    drawId: r.draw_id,
    mode: r.mode,
    lostRangeId: r.lost_range_id,
    designVersion: Number(r.design_version),
    designNote: r.design_note,
    replacement:
      r.replacement_from == null
        ? null
        : {
            from: Number(r.replacement_from),
            to: Number(r.replacement_to),
            seriesFrom: Number(r.replacement_series_from),
            seriesTo: Number(r.replacement_series_to),
          },
    authorisationRef: r.authorisation_ref,
    scheduleJson: r.schedule,
    actorJson: r.actor,
    createdAt: r.created_at,
  }
}

/** LST-7: the design the issue prints under now: 1, or the version of the last full reprint with a new design. */
export async function currentDesignVersion(tx: Sql, drawId: string): Promise<number> {
  const r = await tx.get<{ v: number | null }>(
    'SELECT MAX(design_version) AS v FROM lottery_reissues WHERE draw_id = ?',
    [drawId],
  )
  return Number(r?.v ?? 1) || 1
}

/** The design a print run of the draw was printed under (1 for runs before any reissue). */
export async function runDesignVersion(tx: Sql, drawId: string, runNo: number): Promise<number> {
  const r = await tx.get<{ v: number }>(
    'SELECT design_version AS v FROM lottery_print_runs WHERE draw_id = ? AND run_no = ?',
    [drawId, runNo],
  )
  return Number(r?.v ?? 1) || 1
}

export async function insertReissue(tx: Sql, r: Reissue): Promise<void> {
  await tx.run(
    'INSERT INTO lottery_reissues (id, draw_id, mode, lost_range_id, design_version, design_note, replacement_from, replacement_to, replacement_series_from, replacement_series_to, authorisation_ref, schedule, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.drawId,
      r.mode,
      r.lostRangeId,
      r.designVersion,
      r.designNote,
      r.replacement?.from ?? null,
      r.replacement?.to ?? null,
      r.replacement?.seriesFrom ?? null,
      r.replacement?.seriesTo ?? null,
      r.authorisationRef,
      r.scheduleJson,
      r.actorJson,
      r.createdAt,
    ],
  )
}

export async function reissuesOf(tx: Sql, drawId: string): Promise<Reissue[]> {
  const rows = await tx.all<ReissueRow>('SELECT * FROM lottery_reissues WHERE draw_id = ? ORDER BY created_at, id', [
    drawId,
  ])
  return rows.map(toReissue)
}

/**
 * The exchange itself: the fraction's current run becomes the reprint that waited for it, only if the presented
 * run is still the current one (a second exchange of the same paper changes nothing). Returns whether it moved.
 */
export async function moveToExchangeRun(
  tx: Sql,
  drawId: string,
  f: { number: number; series: number; fraction: number },
  fromRun: number,
  toRun: number,
): Promise<boolean> {
  // The row the update changes, named before it (sealed with its new run by the transaction's next record).
  await touchRowsWhere(tx, 'lottery_fractions', 'draw_id = ? AND number = ? AND series = ? AND fraction = ?', [
    drawId,
    f.number,
    f.series,
    f.fraction,
  ])
  const r = await tx.run(
    "UPDATE lottery_fractions SET run_no = ?, exchange_run_no = NULL WHERE draw_id = ? AND number = ? AND series = ? AND fraction = ? AND run_no = ? AND exchange_run_no = ? AND status = 'distributed'",
    [toRun, drawId, f.number, f.series, f.fraction, fromRun, toRun],
  )
  return r.changes === 1
}

export async function insertExchange(
  tx: Sql,
  r: {
    id: string
    drawId: string
    number: number
    series: number
    fraction: number
    oldRunNo: number
    newRunNo: number
    kind: 'presented' | 'damaged'
    evaluation: string | null
    actorJson: string
    createdAt: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO lottery_exchanges (id, draw_id, number, series, fraction, old_run_no, new_run_no, kind, evaluation, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.drawId,
      r.number,
      r.series,
      r.fraction,
      r.oldRunNo,
      r.newRunNo,
      r.kind,
      r.evaluation,
      r.actorJson,
      r.createdAt,
    ],
  )
}

/** How many sold fractions wait for their exchange, and how many were exchanged (the issue register). */
export async function exchangeCounts(tx: Sql, drawId: string): Promise<{ awaiting: number; exchanged: number }> {
  const a = await tx.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM lottery_fractions WHERE draw_id = ? AND exchange_run_no IS NOT NULL',
    [drawId],
  )
  const e = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM lottery_exchanges WHERE draw_id = ?', [drawId])
  return { awaiting: Number(a?.n ?? 0), exchanged: Number(e?.n ?? 0) }
}
