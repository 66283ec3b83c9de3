/**
 * Cashier shifts (issue 13 point 5; DESIGN.md "Money and people"). A drawer is one person's at one enrolled
 * station: the person logs in at the station (a session bound to the device), counts the float and opens a shift;
 * every cash movement of the station is then filed under that shift, with the station's device id as its one
 * station identity (movements, balance and report all read the same id); at the end the person counts the drawer
 * (arqueo) and closes the shift, and the report lists every movement by product and the difference to the
 * centavo between what was counted and what the movements say the drawer should hold.
 *
 * With authentication on, cash moves only inside an open shift of the person logged in at that station
 * (`till`): a bare device credential, another person's shift, or no shift at all is refused before anything
 * changes, and the movement itself checks again inside its transaction that the shift is still open.
 */
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealed, assertRowsSealedWhere } from '../shared/row-seals.ts'
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { assertReadsHall } from '../access/acting-hall.ts'
import type { CashdeskDeps, VoucherService } from './vouchers.ts'
import {
  cashMovementsOfShift,
  closeShiftRow,
  deviceRow,
  insertShift,
  lockShift,
  openShiftOfStation,
  shiftById,
  shiftsOf,
  sumOfShift,
  type CashMovement,
  type Shift,
  movementRefLabel,
} from './store.ts'

/**
 * Where cash moves: the station (device id), the person, and the open shift (null only with authentication off);
 * with authentication on also the station's hall and the person's halls, for the use case's own hall check.
 */
export interface Till {
  stationId: string
  cashierId: string
  shiftId: string | null
  stationHallId?: string | null
  personHalls?: '*' | readonly string[]
  /** The person's name, for what is printed (a receipt names who paid, not an account id). */
  cashierName?: string
}

/** The station a request comes from and the person at it (from the authenticated principal, never the body). */
export interface StationPerson {
  station: { id: string; name: string; kind: string; hallId: string | null }
  person: { id: string; name: string; role: string; halls?: '*' | readonly string[] }
}

export type { ShiftLine, ShiftReport } from './shift-guard.ts'
export { assertShiftOpen } from './shift-guard.ts'
import type { ShiftLine, ShiftReport } from './shift-guard.ts'

/** The product a movement concerns: stored since shifts, else read from its kind (movements filed before). */
function productOf(m: CashMovement): string {
  if (m.product) return m.product
  if (m.kind.startsWith('voucher')) return 'voucher'
  return 'card'
}

/** A shift as GET /api/shifts lists it (the screens and the reports test read these names). */
export interface ShiftListing {
  id: string
  hall_id: string
  station_id: string
  station_name: string
  cashier_id: string
  cashier_name: string
  currency: string
  float_cents: number
  status: 'open' | 'closed'
  opened_at: string
  closed_at: string | null
  expected_cents: number | null
  counted_cents: number | null
  difference_cents: number | null
  close_note: string | null
}

function toListing(s: Shift): ShiftListing {
  return {
    id: s.id,
    hall_id: s.hallId,
    station_id: s.stationId,
    station_name: s.stationName,
    cashier_id: s.cashierId,
    cashier_name: s.cashierName,
    currency: s.currency,
    float_cents: s.floatCents,
    status: s.status,
    opened_at: s.openedAt,
    closed_at: s.closedAt,
    expected_cents: s.expectedCents,
    counted_cents: s.countedCents,
    difference_cents: s.differenceCents,
    close_note: s.closeNote,
  }
}

export function createShiftService(deps: CashdeskDeps, vouchers: VoucherService) {
  const { db, clock } = deps
  const now = () => clock.now().toISOString()

  function assertStation(sp: StationPerson): void {
    if (sp.station.kind !== 'cashier_station') {
      throw new DomainError(
        'STATION_REQUIRED',
        `a drawer is kept at an enrolled cashier station, not at a ${sp.station.kind}`,
        { kind: sp.station.kind },
      )
    }
    if (!sp.station.hallId)
      throw new DomainError('STATION_REQUIRED', `station ${sp.station.name} belongs to no hall`, {
        stationId: sp.station.id,
      })
  }

  /** Opens the person's shift at the station with the float counted into the drawer. */
  async function open(sp: StationPerson, input: { floatCents: number }): Promise<ShiftReport> {
    assertStation(sp)
    if (!Number.isSafeInteger(input.floatCents) || input.floatCents < 0)
      throw new DomainError('VALIDATION_FAILED', 'the float is a whole number of centavos, zero or more', {
        field: 'floatCents',
      })
    // Issue 23 point 5: a shift is its station's hall's (from the station's enrolment): opening and closing it lock that
    // hall, as every movement into it does (a sale, payout or refund at the station: db/scopes.ts), so that a
    // movement and the close of its shift are serialised under a common lock (and by the shift's row, lockShift).
    const scopes = [`hall:${sp.station.hallId}`]
    const id = await db
      .transaction(
        async (tx) => {
          const at = now()
          const device = await deviceRow(tx, sp.station.id)
          if (!device || device.revokedAt)
            throw new DomainError('STATION_REQUIRED', 'the station is not enrolled', { stationId: sp.station.id })
          const current = await openShiftOfStation(tx, sp.station.id)
          if (current) {
            throw new DomainError(
              'SHIFT_ALREADY_OPEN',
              `station ${sp.station.name} has an open shift of ${current.cashierName} since ${current.openedAt}: it is closed with its count first`,
              { shiftId: current.id, cashierName: current.cashierName, openedAt: current.openedAt },
            )
          }
          const hall = await vouchers.hallFor(tx, sp.station.hallId!)
          const shiftId = deps.bingo.newId('sh')
          await insertShift(tx, {
            id: shiftId,
            hallId: hall.id,
            stationId: sp.station.id,
            stationName: sp.station.name,
            cashierId: sp.person.id,
            cashierName: sp.person.name,
            currency: hall.currency,
            floatCents: input.floatCents,
            openedAt: at,
          })
          await appendJournal(tx, {
            at,
            type: 'shift.opened',
            scope: `hall:${hall.id}`,
            payload: {
              shiftId,
              stationId: sp.station.id,
              stationName: sp.station.name,
              actor: { kind: 'person', ...sp.person },
              floatCents: input.floatCents,
              currency: hall.currency,
            },
          })
          return shiftId
        },
        { scopes },
      )
      .catch((err: unknown) => {
        // Two openings at the same moment: the partial UNIQUE index refuses the second.
        if (err instanceof DomainError) throw err
        if (/unique|duplicate/i.test(String((err as Error)?.message)))
          throw new DomainError('SHIFT_ALREADY_OPEN', `station ${sp.station.name} has an open shift`, {})
        throw err
      })
    return report(id)
  }

  /**
   * The till of a request with authentication on: the person's open shift at the station. Refused when the
   * station has no open shift, or the open shift is another person's.
   */
  async function till(sp: StationPerson, sql: Sql = db): Promise<Till> {
    assertStation(sp)
    const shift = await openShiftOfStation(sql, sp.station.id)
    if (!shift)
      throw new DomainError(
        'SHIFT_NOT_OPEN',
        `no shift is open at ${sp.station.name}: open one with the counted float first`,
        { stationId: sp.station.id },
      )
    if (shift.cashierId !== sp.person.id) {
      throw new DomainError(
        'SHIFT_NOT_OPEN',
        `the open shift at ${sp.station.name} is ${shift.cashierName}'s: only that person moves its cash`,
        { stationId: sp.station.id, cashierName: shift.cashierName },
      )
    }
    // A person moves cash only in a hall they work in (issue 14 point 1), whatever station they log in at.
    const halls = sp.person.halls
    if (halls && halls !== '*' && !halls.includes(sp.station.hallId!))
      throw new DomainError('WRONG_HALL', `station ${sp.station.name} is of a hall you do not work in`, {
        resource: 'station',
      })
    return {
      stationId: sp.station.id,
      cashierId: sp.person.id,
      shiftId: shift.id,
      stationHallId: sp.station.hallId,
      personHalls: sp.person.halls,
      cashierName: sp.person.name,
    }
  }

  async function current(sp: StationPerson): Promise<ShiftReport | null> {
    const s = await openShiftOfStation(db, sp.station.id)
    return s ? report(s.id) : null
  }

  /** Closes the person's own open shift with the drawer counted (arqueo); the difference is to the centavo. */
  async function close(sp: StationPerson, input: { countedCents: number; note?: string | null }): Promise<ShiftReport> {
    if (!Number.isSafeInteger(input.countedCents) || input.countedCents < 0)
      throw new DomainError('VALIDATION_FAILED', 'the count is a whole number of centavos, zero or more', {
        field: 'countedCents',
      })
    assertStation(sp)
    // Issue 23 point 5: the station's hall, as every movement into the shift locks it (see `open`). It is the hall
    // the shift was opened in: a station moves to another hall only with no shift open (equipment/devices.ts).
    const scopes = [`hall:${sp.station.hallId}`]
    const shiftId = await db.transaction(
      async (tx) => {
        const { shiftId } = await till(sp, tx)
        // Locked before the sum: a movement committing at the same moment is either summed here or refused.
        const shift = await lockShift(tx, shiftId!)
        if (!shift || shift.status !== 'open')
          throw new DomainError('SHIFT_NOT_OPEN', 'the shift was closed at the same moment', { shiftId })
        // Issue 24 point 1: the float and every movement summed into the expected cash are as the server wrote them.
        await assertRowsSealed(tx, 'cashier_shifts', [shift.id])
        await assertRowsSealedWhere(tx, 'cash_movements', 't.shift_id = ?', [shift.id])
        const at = now()
        const expectedCents = shift.floatCents + (await sumOfShift(tx, shift.id))
        const differenceCents = input.countedCents - expectedCents
        const note = input.note?.trim() || null
        if (differenceCents !== 0 && !note) {
          // Issue 29 point 2: its own code, so the screens say in the user's language by how much and what to do
          // (count again, or close recording the difference with its reason); the count typed is kept there.
          throw new DomainError(
            'SHIFT_COUNT_DIFFERS',
            `the drawer is ${differenceCents > 0 ? 'over' : 'short'} by ${Math.abs(differenceCents)} centavos: count again, or say why in a note`,
            { field: 'note', differenceCents, currency: shift.currency },
          )
        }
        if (
          (await closeShiftRow(tx, shift.id, {
            at,
            expectedCents,
            countedCents: input.countedCents,
            differenceCents,
            note,
          })) !== 1
        ) {
          throw new DomainError('SHIFT_NOT_OPEN', 'the shift was closed at the same moment', { shiftId: shift.id })
        }
        await appendJournal(tx, {
          at,
          type: 'shift.closed',
          scope: `hall:${shift.hallId}`,
          payload: {
            shiftId: shift.id,
            stationId: shift.stationId,
            actor: { kind: 'person', ...sp.person },
            floatCents: shift.floatCents,
            expectedCents,
            countedCents: input.countedCents,
            differenceCents,
            note,
          },
        })
        return shift.id
      },
      { scopes },
    )
    return report(shiftId)
  }

  /** The shift report: float, every movement by product, expected, counted and the difference. */
  async function report(shiftId: string): Promise<ShiftReport> {
    const s = await shiftById(db, shiftId)
    if (!s) throw new DomainError('NOT_FOUND', `shift ${shiftId} not found`)
    // A drawer's report is its hall's: a floor manager of another hall reads none of it (by id or PDF).
    assertReadsHall(s.hallId, 'shift')
    const rows = await cashMovementsOfShift(db, s.id)
    const movements = []
    for (const m of rows)
      movements.push({
        id: m.id,
        at: m.at,
        product: productOf(m),
        kind: m.kind,
        amountCents: m.amountCents,
        refId: m.refId,
        ref: await movementRefLabel(db, m),
      })
    const byKey = new Map<string, ShiftLine>()
    for (const m of movements) {
      const key = `${m.product}|${m.kind}`
      const line = byKey.get(key) ?? { product: m.product, kind: m.kind, count: 0, inCents: 0, outCents: 0 }
      line.count++
      if (m.amountCents > 0) line.inCents += m.amountCents
      else line.outCents -= m.amountCents
      byKey.set(key, line)
    }
    const lines = [...byKey.values()].sort((a, b) => a.product.localeCompare(b.product) || a.kind.localeCompare(b.kind))
    const inCents = lines.reduce((t, l) => t + l.inCents, 0)
    const outCents = lines.reduce((t, l) => t + l.outCents, 0)
    const expectedCents = s.floatCents + inCents - outCents
    const hall = await vouchers.hallFor(db, s.hallId)
    return {
      shiftId: s.id,
      status: s.status,
      hallId: s.hallId,
      hallName: hall.name,
      // Issue 29 point 5: the report prints the hall's wall-clock time.
      timeZone: hall.timeZone,
      currency: s.currency,
      station: { id: s.stationId, name: s.stationName },
      cashier: { id: s.cashierId, name: s.cashierName },
      openedAt: s.openedAt,
      closedAt: s.closedAt,
      floatCents: s.floatCents,
      movements,
      lines,
      inCents,
      outCents,
      expectedCents: s.status === 'closed' ? s.expectedCents! : expectedCents,
      countedCents: s.countedCents,
      differenceCents: s.differenceCents,
      note: s.closeNote,
    }
  }

  /** GET /api/shifts: each shift under the column names that listing has always answered with. */
  async function list(filter: { stationId?: string; hallId?: string; limit?: number } = {}): Promise<ShiftListing[]> {
    return (await shiftsOf(db, { ...filter, limit: filter.limit ?? 50 })).map(toListing)
  }

  async function reportPdf(shiftId: string, lang: 'es' | 'en'): Promise<Uint8Array> {
    const { renderShiftReportPdf } = await import('../../../printer/src/shift-report-pdf.ts')
    return renderShiftReportPdf(await report(shiftId), lang)
  }

  return { open, till, current, close, report, list, reportPdf }
}

export type ShiftService = ReturnType<typeof createShiftService>
