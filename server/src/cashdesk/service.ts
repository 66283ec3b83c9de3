/**
 * The money path of issue #3, composed: credit vouchers sold for cash at the cashier (vouchers.ts), cards bought
 * with them at a kiosk and printed (kiosk-sales.ts), winning cards validated and paid once at the cashier, and
 * the prize register (payouts.ts).
 */
import { cashOut } from './cash.ts'
import { createKioskService } from './kiosk-sales.ts'
import { createPayoutService } from './payouts.ts'
import { createRefundService } from './refunds.ts'
import { createShiftService } from './shifts.ts'
import { createVoucherService, type CashdeskDeps } from './vouchers.ts'
import { createTicketPrints } from './ticket-prints.ts'

export function createCashdesk(deps: CashdeskDeps) {
  // Issue 23 point 5: sales print after their commit; a failed print waits for a reprint.
  const prints = createTicketPrints({
    db: deps.db,
    clock: deps.clock,
    sealer: deps.sealer,
    printers: deps.printers,
    onError: deps.onError,
  })
  const vouchers = createVoucherService(deps, prints)
  return {
    vouchers,
    kiosk: createKioskService(deps, vouchers),
    payouts: createPayoutService(deps, vouchers),
    printers: deps.printers,
    // Issue 13 points 5 and 7: cashier shifts (the drawer of a person at a station) and refunds paid once.
    shifts: createShiftService(deps, vouchers),
    refunds: createRefundService(deps, vouchers, prints),
    prints,
    /** A payout's cash out of the station's drawer, for another line's pay use case (lotto, lottery, instant). */
    cashOut: (stationId: string, cashierId: string, drawer: { shiftId?: string | null; product?: string } = {}) =>
      cashOut(stationId, cashierId, deps.bingo.newId, drawer),
  }
}

export type Cashdesk = ReturnType<typeof createCashdesk>
