import type { MarksPolicy } from '../access/device-marks.ts'
import { assertShiftOpen } from './shift-guard.ts'
import { hallOfStation, insertCashMovement } from './store.ts'
import type { OnPaid } from '../shared/settlement.ts'

export type { OnPaid }

/**
 * Records a payout as cash out of the station's drawer (`cash_movements`), under the open shift when there is one
 * (issue 13 point 5) and with the product it pays (card, lotto, lottery, instant) for the shift report.
 */
export function cashOut(
  stationId: string,
  cashierId: string,
  newId: (prefix: string) => string,
  drawer: { shiftId?: string | null; product?: string },
  marks: MarksPolicy,
): OnPaid {
  return async (tx, paid) => {
    // The shift is open at the commit even for a prize of goods, which moves no cash (issue 23).
    await assertShiftOpen(tx, drawer.shiftId ?? null, stationId, marks)
    if (paid.amountCents <= 0) return
    const hallId = await hallOfStation(tx, stationId)
    await insertCashMovement(tx, {
      id: newId('cm'),
      hallId: hallId ?? '',
      stationId,
      cashierId,
      kind: paid.kind,
      amountCents: -paid.amountCents,
      currency: paid.currency,
      refId: paid.refId,
      at: paid.at,
      shiftId: drawer.shiftId ?? null,
      product: drawer.product ?? null,
    })
  }
}
