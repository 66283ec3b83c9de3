/**
 * The money path of issue #3, composed: credit vouchers sold for cash at the cashier (vouchers.ts), cards bought
 * with them at a kiosk and printed (kiosk-sales.ts), winning cards validated and paid once at the cashier, and
 * the prize register (payouts.ts).
 */
import { cashOut } from './cash.ts'
import { createKioskService } from './kiosk-sales.ts'
import { createPayoutService } from './payouts.ts'
import { createVoucherService, type CashdeskDeps } from './vouchers.ts'

export function createCashdesk(deps: CashdeskDeps) {
  const vouchers = createVoucherService(deps)
  return {
    vouchers, kiosk: createKioskService(deps, vouchers), payouts: createPayoutService(deps, vouchers), printers: deps.printers,
    /** A payout's cash out of the station's drawer, for another line's pay use case (lotto, lottery). */
    cashOut: (stationId: string, cashierId: string) => cashOut(stationId, cashierId, deps.bingo.newId),
  }
}

export type Cashdesk = ReturnType<typeof createCashdesk>
