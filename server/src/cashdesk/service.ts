/**
 * The money path of issue #3, composed: credit vouchers sold for cash at the cashier (vouchers.ts), cards bought
 * with them at a kiosk and printed (kiosk-sales.ts), winning cards validated and paid once at the cashier, and
 * the prize register (payouts.ts).
 */
import { marksPolicy } from '../access/device-marks.ts'
import { cashOut } from './cash.ts'
import { createKioskService } from './kiosk-sales.ts'
import { createPayoutService } from './payouts.ts'
import { createRefundService } from './refunds.ts'
import { createShiftService } from './shifts.ts'
import { createVoucherService, type CashdeskDeps } from './vouchers.ts'
import { createTicketPrints } from './ticket-prints.ts'
import { createGroupCommit } from '../db/group-commit.ts'

/** Most time (ms) a PostgreSQL group-commit batch takes on more sales before it commits. */
const POSTGRES_BATCH_BUDGET_MS = 40

export function createCashdesk(deps: CashdeskDeps) {
  // Issue 23 point 5: every paid sale goes through one group-commit path (paid-sales.ts): the sales that arrive while
  // a batch is committing are written by the next, each in its own savepoint (a refused one alone is rolled back),
  // with one commit for all; each is answered, and printed, only after that commit.
  // On PostgreSQL a sale is some thirty round trips, a few milliseconds of waiting on the network rather than of work:
  // with SQLite's 8 ms budget a batch held one sale, and every sale paid its own BEGIN, journal lock and commit
  // flush. A longer budget lets a batch hold several; a ball draw waits behind at most about that long.
  const salesCommit = createGroupCommit(
    deps.db,
    deps.db.engine === 'postgres' ? { budgetMs: POSTGRES_BATCH_BUDGET_MS } : {},
  )
  // Issue 23 point 5: sales print after their commit; a failed print waits for a reprint. The printed marks are
  // written in the sales' batches (no transaction, journal lock and commit of their own).
  const prints = createTicketPrints({
    db: deps.db,
    clock: deps.clock,
    sealer: deps.sealer,
    printers: deps.printers,
    onError: deps.onError,
    marksWriter: salesCommit,
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
    /** The group commit every paid sale is written through (paid-sales.ts), the printed marks with them. */
    salesCommit,
    /** A payout's cash out of the station's drawer, for another line's pay use case (lotto, lottery, instant). */
    cashOut: (stationId: string, cashierId: string, drawer: { shiftId?: string | null; product?: string } = {}) =>
      cashOut(stationId, cashierId, deps.bingo.newId, drawer, marksPolicy(deps.config)),
  }
}

export type Cashdesk = ReturnType<typeof createCashdesk>
