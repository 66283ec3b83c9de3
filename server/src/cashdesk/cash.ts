import type { Sql } from '../db/database.ts'

/**
 * Called by a payout inside its own transaction, so that the cash leaving the station's drawer is recorded
 * together with the payout or not at all (the station's day balance must reconcile with what it paid).
 */
export type OnPaid = (tx: Sql, paid: { amountCents: number; currency: string; refId: string; at: string; kind: 'prize_payout' }) => Promise<void>

/** Records a payout as cash out of the station's drawer (`cash_movements`, read by the station's day report). */
export function cashOut(stationId: string, cashierId: string, newId: (prefix: string) => string): OnPaid {
  return async (tx, paid) => {
    if (paid.amountCents <= 0) return // goods prizes move no cash
    const station = await tx.get<{ hall_id: string | null }>('SELECT hall_id FROM device_credentials WHERE id = ?', [stationId])
    await tx.run('INSERT INTO cash_movements (id, hall_id, station_id, cashier_id, kind, amount_cents, currency, ref_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      newId('cm'), station?.hall_id ?? '', stationId, cashierId, paid.kind, -paid.amountCents, paid.currency, paid.refId, paid.at,
    ])
  }
}
