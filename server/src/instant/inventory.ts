/**
 * Packs and inventory of pre-printed instant games: ship packs from the warehouse to retailers, activate them on
 * arrival, report ranges lost or stolen (LST-) and publish the notice of those ranges.
 */
import { DomainError } from '../shared/errors.ts'
import { assertHoldsHall } from '../access/acting-hall.ts'
import { parseSerial } from './codes.ts'
import { appendJournal } from '../shared/journal.ts'
import { nextBusinessDay } from '../shared/lottery-common.ts'
import type { InstantContext } from './context.ts'
import {
  countPacksOutOfWarehouse,
  firstPackOutOfWarehouse,
  hallOfLocation,
  insertReport,
  markPackActivated,
  packOf,
  reportsOfBatch,
  setPackRangeStatus,
  shipPackRange,
  type Batch,
} from './store.ts'

function packRange(b: Batch, fromPack: number, toPack: number) {
  if (
    !Number.isInteger(fromPack) ||
    !Number.isInteger(toPack) ||
    fromPack < 1 ||
    toPack < fromPack ||
    toPack > b.packCount
  ) {
    throw new DomainError('VALIDATION_FAILED', `packs must be a range within 1..${b.packCount}`)
  }
}

/**
 * Issue 23 point 5: shipping and activating packs, and a range reported lost or stolen (LST-1, LST-5), write the
 * game's rows and records of the `instant` chain, no hall's row and no money, and every sale, payout or scan that
 * reads a pack or a report holds that lock too: they lock `instant` alone, so that no hall's open transaction holds
 * them up nor they a hall's.
 */
const INSTANT_SCOPES = { scopes: ['instant'] } as const

export function createInventoryUseCases(ctx: InstantContext) {
  const { db, now, batchByGame, scopeOf, serialOfIndex } = ctx

  /** Sends packs from the warehouse to a retailer or kiosk (they travel inactive). */
  async function shipPacks(input: {
    gameNo: number
    fromPack: number
    toPack: number
    destination: string
    by: string
  }) {
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      if (b.channel !== 'printed') throw new DomainError('VALIDATION_FAILED', 'electronic games have no packs to ship')
      packRange(b, input.fromPack, input.toPack)
      const notHere = await firstPackOutOfWarehouse(tx, b.id, input.fromPack, input.toPack)
      if (notHere)
        throw new DomainError('CONFLICT', `pack ${notHere.packNo} is ${notHere.status}, not in the warehouse`, {
          packNo: notHere.packNo,
        })
      const at = now()
      const shipped = await shipPackRange(tx, b.id, input.fromPack, input.toPack, input.destination, at)
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.packs_shipped',
        scope: scopeOf(b),
        payload: {
          gameNo: b.gameNo,
          fromPack: input.fromPack,
          toPack: input.toPack,
          packs: shipped,
          destination: input.destination,
          by: input.by,
        },
      })
      return { packs: shipped, destination: input.destination, journalSeq: rec.seq }
    }, INSTANT_SCOPES)
  }

  /** Activates a pack on arrival at the place it was shipped to; identified by any of its tickets' inventory codes, or game and pack number. */
  async function activatePack(input: {
    code?: string
    gameNo?: number
    packNo?: number
    location: string
    by: string
  }) {
    return db.transaction(async (tx) => {
      let b: Batch
      let packNo: number
      if (input.code) {
        const t = await ctx.byInventoryCode(tx, input.code)
        b = t.batch
        packNo = t.packNo
      } else {
        b = await batchByGame(tx, Number(input.gameNo))
        packNo = Number(input.packNo)
        packRange(b, packNo, packNo)
      }
      const pack = await packOf(tx, b.id, packNo)
      if (!pack) throw new DomainError('NOT_FOUND', `pack ${packNo} of game ${b.gameNo} not found`)
      if (pack.status === 'lost' || pack.status === 'stolen')
        throw new DomainError('TICKET_BLOCKED', `pack ${packNo} was reported ${pack.status} (LST-7)`)
      if (pack.status !== 'shipped')
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `pack ${packNo} is ${pack.status}; only a shipped pack is activated on arrival`,
        )
      if (pack.location !== input.location)
        throw new DomainError('CONFLICT', `pack ${packNo} was shipped to ${pack.location}, not to ${input.location}`)
      // Issue 23 point 3: a pack shipped to a hall (or to one of its stations) is activated only by someone of that
      // hall, decided from where the pack was shipped as stored; a place of no hall (a warehouse named in words) is
      // the operator's logistics and passes.
      const hallOfPlace = await hallOfLocation(tx, pack.location)
      if (hallOfPlace) assertHoldsHall(hallOfPlace, 'instant pack')
      if (b.status === 'closed') throw new DomainError('SALES_CLOSED', `instant game ${b.gameNo} is closed`)
      const at = now()
      if ((await markPackActivated(tx, b.id, packNo, at, input.by)) !== 1)
        throw new DomainError('CONFLICT', `pack ${packNo} changed meanwhile`)
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.pack_activated',
        scope: scopeOf(b),
        payload: { gameNo: b.gameNo, packNo, location: input.location, by: input.by },
      })
      return { gameNo: b.gameNo, packNo, location: input.location, activatedAt: at, journalSeq: rec.seq }
    }, INSTANT_SCOPES)
  }

  /**
   * Reports a range lost or stolen (LST-1, LST-2, LST-5): from then on no ticket in it is sold, paid, refunded or
   * exchanged. Theft needs the police or prosecutor complaint reference. Whole packs in the range change status.
   * As for a lottery's tickets (lottery/issue.ts reportLostStolen), the report states the day the AJ was informed:
   * 002 §7.5.1.1 "en un plazo máximo de un (1) día hábil", §7.5.1.2 and §7.5.2 "al día hábil siguiente"; a later day
   * is recorded as late (the AJ judges it, LST-6), never refused, since the range must be blocked whatever the delay.
   */
  async function reportLostOrStolen(input: {
    gameNo: number
    kind: 'lost' | 'stolen'
    fromSerial?: string
    toSerial?: string
    fromPack?: number
    toPack?: number
    discoveredAt: string
    /** Required (LST-1, LST-5): refused in the use case, with the rule, when missing. */
    regulatorReportedAt?: string
    policeReportRef?: string
    remedy?: string
    note?: string
    by: string
  }) {
    if (input.kind === 'stolen' && !input.policeReportRef?.trim())
      throw new DomainError(
        'VALIDATION_FAILED',
        'a theft report needs the police or prosecutor complaint reference (LST-5)',
        { field: 'policeReportRef', rule: 'LST-5' },
      )
    const day = (iso: string | undefined) => (iso && Number.isFinite(Date.parse(iso)) ? iso.slice(0, 10) : null)
    const discovered = day(input.discoveredAt)
    const informed = day(input.regulatorReportedAt)
    if (!discovered || !informed || informed < discovered)
      throw new DomainError(
        'VALIDATION_FAILED',
        'a lost or stolen range is reported with the day it was found and the day the AJ was informed, not before it (LST-1, LST-5)',
        {
          field: discovered ? 'regulatorReportedAt' : 'discoveredAt',
          rule: input.kind === 'stolen' ? 'LST-5' : 'LST-1',
        },
      )
    const lateReport = informed > nextBusinessDay(discovered)
    const regulatorReportedAt = input.regulatorReportedAt!
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      let first: number
      let last: number
      if (input.fromSerial && input.toSerial) {
        const a = parseSerial(input.fromSerial)
        const z = parseSerial(input.toSerial)
        if (a.gameNo !== b.gameNo || z.gameNo !== b.gameNo)
          throw new DomainError('VALIDATION_FAILED', `serials must belong to game ${b.gameNo}`)
        first = (a.packNo - 1) * b.packSize + a.position
        last = (z.packNo - 1) * b.packSize + z.position
      } else if (input.fromPack !== undefined && input.toPack !== undefined) {
        packRange(b, input.fromPack, input.toPack)
        first = (input.fromPack - 1) * b.packSize
        last = input.toPack * b.packSize - 1
      } else {
        throw new DomainError('VALIDATION_FAILED', 'give fromSerial and toSerial, or fromPack and toPack')
      }
      if (first > last || first < 0 || last >= b.ticketCount)
        throw new DomainError('VALIDATION_FAILED', 'the range is empty or outside the game')
      const distributed = await countPacksOutOfWarehouse(
        tx,
        b.id,
        Math.floor(first / b.packSize) + 1,
        Math.floor(last / b.packSize) + 1,
      )
      const stage = distributed > 0 ? 'after-distribution' : 'before-distribution'
      const at = now()
      const id = ctx.newId('inr')
      await insertReport(tx, {
        id,
        batchId: b.id,
        kind: input.kind,
        firstIndex: first,
        lastIndex: last,
        stage,
        discoveredAt: input.discoveredAt,
        regulatorReportedAt,
        policeReportRef: input.policeReportRef ?? null,
        remedy: input.remedy ?? null,
        note: input.note ?? '',
        reportedBy: input.by,
        createdAt: at,
      })
      // Packs wholly inside the range take the report's status.
      const firstWhole = Math.ceil(first / b.packSize) + 1
      const lastWhole = Math.floor((last + 1) / b.packSize)
      if (lastWhole >= firstWhole) await setPackRangeStatus(tx, b.id, firstWhole, lastWhole, input.kind)
      const range = { fromSerial: serialOfIndex(b, first), toSerial: serialOfIndex(b, last), tickets: last - first + 1 }
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.range_reported',
        scope: scopeOf(b),
        payload: {
          reportId: id,
          gameNo: b.gameNo,
          kind: input.kind,
          stage,
          ...range,
          discoveredAt: input.discoveredAt,
          regulatorReportedAt,
          lateReport,
          policeReportRef: input.policeReportRef ?? null,
          remedy: input.remedy ?? null,
          by: input.by,
        },
      })
      return { reportId: id, kind: input.kind, stage, ...range, lateReport, journalSeq: rec.seq }
    }, INSTANT_SCOPES)
  }

  /** LST-3: the public notice of every range reported lost or stolen in a game. */
  async function publicNotice(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const rows = await reportsOfBatch(db, b.id)
    const ranges = rows.map((r) => ({
      kind: r.kind,
      fromSerial: serialOfIndex(b, r.firstIndex),
      toSerial: serialOfIndex(b, r.lastIndex),
      tickets: r.ticketCount,
      reportedAt: r.createdAt,
    }))
    const text =
      ranges.length === 0
        ? `Juego ${b.gameNo} "${b.name}": no hay boletos denunciados como extraviados o robados.`
        : `Juego ${b.gameNo} "${b.name}": los boletos de los rangos siguientes fueron denunciados como extraviados o robados; no se pagan, reembolsan ni canjean (LST-4, LST-5). ` +
          ranges
            .map(
              (r) => `${r.fromSerial} a ${r.toSerial} (${r.tickets}, ${r.kind === 'lost' ? 'extraviados' : 'robados'})`,
            )
            .join('; ') +
          '.'
    return { gameNo: b.gameNo, name: b.name, ranges, text }
  }

  return { shipPacks, activatePack, reportLostOrStolen, publicNotice }
}
