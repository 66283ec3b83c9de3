/**
 * SQL of a points tómbola's cash desk (PRM-2; migration 0420): the tickets used, each once, and the objects handed
 * over, each once.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'

/** A ticket used in a payout of a points tómbola. */
export interface TicketUse {
  number: number
  ticketId: string
  points: number
  payoutId: string
  usedAt: string
}

/** The uses of some numbers of a draw (a number is used at most once). */
export async function ticketUses(tx: Sql, drawId: string, numbers: readonly number[]): Promise<TicketUse[]> {
  if (numbers.length === 0) return []
  const rows = await tx.all<{
    number: number | string
    ticket_id: string
    points: number | string
    payout_id: string
    used_at: string
  }>(
    `SELECT number, ticket_id, points, payout_id, used_at FROM tombola_ticket_uses WHERE draw_id = ? AND number IN (${numbers.map(() => '?').join(', ')})`,
    [drawId, ...numbers],
  )
  return rows.map((r) => ({
    number: Number(r.number),
    ticketId: r.ticket_id,
    points: Number(r.points),
    payoutId: r.payout_id,
    usedAt: r.used_at,
  }))
}

export async function insertTicketUses(
  tx: Sql,
  drawId: string,
  payoutId: string,
  at: string,
  uses: ReadonlyArray<{ number: number; ticketId: string; points: number }>,
): Promise<void> {
  for (const u of uses)
    await tx.run(
      'INSERT INTO tombola_ticket_uses (draw_id, number, ticket_id, points, payout_id, used_at) VALUES (?, ?, ?, ?, ?, ?)',
      [drawId, u.number, u.ticketId, u.points, payoutId, at],
    )
  touchRows(
    tx,
    'tombola_ticket_uses',
    uses.map((u) => `${drawId}|${u.number}`),
  )
}

/** The codes of the objects of a points tómbola already handed over. */
export async function objectsTaken(tx: Sql, drawId: string): Promise<Set<string>> {
  const rows = await tx.all<{ object_code: string }>(
    'SELECT object_code FROM tombola_objects_taken WHERE draw_id = ?',
    [drawId],
  )
  return new Set(rows.map((r) => r.object_code))
}

export async function insertObjectTaken(tx: Sql, drawId: string, code: string, payoutId: string, at: string) {
  await tx.run('INSERT INTO tombola_objects_taken (draw_id, object_code, payout_id, taken_at) VALUES (?, ?, ?, ?)', [
    drawId,
    code,
    payoutId,
    at,
  ])
  touchRows(tx, 'tombola_objects_taken', [`${drawId}|${code}`])
}

/** PRM-6: the hall of an enrolled station (null: a station of no hall, or none). */
export async function stationHall(tx: Sql, stationId: string): Promise<string | null> {
  const row = await tx.get<{ hall_id: string | null }>('SELECT hall_id FROM device_credentials WHERE id = ?', [
    stationId,
  ])
  return row?.hall_id ?? null
}

/** Whether a hall exists. */
/** A hall's settings document and profile, for its zone (issue 29: a raffle's times are on its hall's clock). */
export function hallZoneRow(tx: Sql, hallId: string) {
  return tx.get<{ settings: string | null; profile_id: string }>(
    'SELECT settings, profile_id FROM halls WHERE id = ?',
    [hallId],
  )
}

export async function hallExists(tx: Sql, hallId: string): Promise<boolean> {
  return (await tx.get<{ id: string }>('SELECT id FROM halls WHERE id = ?', [hallId])) !== undefined
}
