/**
 * What every movement of money checks of its shift, and the shift's report shape: in a module of their own so that
 * the vouchers, payouts and sales that move cash, and the PDF of the report, need not import the shift use cases
 * (which import them: issue 25 point 5, no import loop).
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { assertDeviceMarked, type MarksPolicy } from '../access/device-marks.ts'
import { lockShift } from './store.ts'

export interface ShiftLine {
  product: string
  kind: string
  count: number
  inCents: number
  outCents: number
}

export interface ShiftReport {
  shiftId: string
  status: 'open' | 'closed'
  hallId: string
  hallName: string
  currency: string
  station: { id: string; name: string }
  cashier: { id: string; name: string }
  openedAt: string
  closedAt: string | null
  floatCents: number
  /** Every movement, in time order. */
  /** The hall's IANA time zone: the report's times are the hall's wall-clock time. */
  timeZone?: string
  /** `ref`: what the reference column shows a person (serials, receipt number), never a record id. */
  movements: Array<{
    id: string
    at: string
    product: string
    kind: string
    amountCents: number
    refId: string
    ref: string
  }>
  /** The movements summed by product and kind (vouchers sold and cashed, prizes paid, refunds). */
  lines: ShiftLine[]
  inCents: number
  outCents: number
  /** Float plus every movement: what the drawer should hold. */
  expectedCents: number
  countedCents: number | null
  /** Counted minus expected, to the centavo (negative: the drawer is short). */
  differenceCents: number | null
  note: string | null
}

/**
 * Inside a movement's transaction, before the movement is written: the station is sealed where its hall requires it
 * (issue 26) and the shift must be open at the commit. Its row is
 * locked (`lockShift`) as the close locks it, so a sale, payout or refund and the close of its shift are serialised:
 * the movement lands before the close (and is in its report) or is refused, never after it.
 */
export async function assertShiftOpen(
  tx: Sql,
  shiftId: string | null,
  stationId: string | undefined,
  marks: MarksPolicy,
): Promise<void> {
  // Issue 26 (GEN-7, GEN-4): every counter sale, payout, refund and voucher movement passes here: a station without
  // the seal code or type approval its hall's profile requires takes and pays no money (access/device-marks.ts).
  if (stationId !== undefined) await assertDeviceMarked(tx, stationId, marks)
  if (shiftId === null) return
  const s = await lockShift(tx, shiftId)
  if (!s || s.status !== 'open')
    throw new DomainError('SHIFT_NOT_OPEN', 'the shift was closed: open a new one with the counted float', { shiftId })
  if (stationId !== undefined && s.stationId !== stationId)
    throw new DomainError('SHIFT_NOT_OPEN', "the shift is another station's drawer", { shiftId, stationId })
}
