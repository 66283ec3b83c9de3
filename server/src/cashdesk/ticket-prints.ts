/**
 * Issue 23 point 5: sales commit first, then print. No printer is waited on while a transaction or the writer
 * lock is held, so a slow or stalled kiosk printer delays only its own answer, never another kiosk's sale or a
 * ball draw; and a printer that refuses a job decides nothing about which sales exist.
 *
 * A sale that prints writes, in its own transaction, what paper it owes (`recordWithin`: the print job sealed
 * under the sealing key, since signed codes and an e-instant face are bearer values). After the commit the job
 * goes to the station's printer (`printSale`). Printed: the row is marked so, in batches, and the sealed job is
 * dropped. Failed: the ticket stays sold, the row waits for a reprint (`pending`), the failure is journaled, and
 * the answer tells the player, in Spanish first, that his purchase is recorded and where to ask for the reprint.
 *
 * A reprint (`reprint`) is made at a kiosk or a cash desk of the sale's hall (the hall of the enrolled station,
 * never of the body). A kiosk shows the voucher that paid (the player still holds it); staff may also name the
 * sale's reference. Each reprint is counted and journaled before the paper can come out, and says
 * "REIMPRESIÓN n" on paper; it is the same ticket with the same number (BNG-12: the correlative numbering stays
 * whole). A ticket already printed is not printed again here: a lost ticket is the lost/stolen procedure's.
 *
 * Before a sale, a station whose last print failed has its printer asked for its status (outside any lock): a
 * printer known to be broken refuses the next sale (DEVICE_UNAVAILABLE, nothing sold) instead of selling ticket
 * after ticket that no one can hold. The status carries no outcome, so it decides no sale by what it would win.
 */
import type { Database, Sql } from '../db/database.ts'
import type { GroupCommit } from '../db/group-commit.ts'
import type { Clock } from '../shared/clock.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { PrinterPool, PrintResult } from '../../../printer/src/printers.ts'
import { reprintDoc, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import {
  claimTicketReprint,
  hallOfStation,
  insertTicketPrint,
  hallsOfTicketPrints,
  markTicketsPrinted,
  setTicketPrintStatus,
  ticketPrintById,
  ticketPrintsOfVoucher,
  unprintedOfHall,
  type TicketPrintRow as PrintRow,
} from './store.ts'

/** What the paper of a sale holds, by reference (the journal names the same ids). */
export interface PrintItems {
  cards?: string[]
  slips?: string[]
  instant?: string[]
  change?: string | null
}

/** What a sale's answer says about its paper. */
export type SalePrint =
  | ({ printed: true } & PrintResult)
  | { printed: false; code: 'PRINT_PENDING'; ref: string; reason: string | null; message: string; messageEn: string }

/** The player's notice when the paper did not come out (Spanish first, English second). */
export const PRINT_PENDING_NOTICE = {
  es: 'Su compra está registrada, pero el ticket no se pudo imprimir. Pida la reimpresión en caja o en un quiosco con el vale que usó (referencia {ref}).',
  en: 'Your purchase is recorded, but the ticket could not be printed. Ask for the reprint at the cash desk or at a kiosk with the voucher you used (reference {ref}).',
} as const

/** A row left `printing` or `reprinting` this long (a server stopped mid-print) counts as pending. */
const STALE_MS = 60_000
const PRINTED_BATCH = 400

export interface TicketPrintDeps {
  db: Database
  clock: Clock
  sealer: Sealer
  printers: PrinterPool
  /** Where a failure to record a printed mark is reported (the mark is only housekeeping). */
  onError?: (err: unknown) => void
  /**
   * The sales' group commit: a flush of printed marks is one more unit of the next batch instead of a transaction
   * of its own, which on PostgreSQL took the journal's lock and flushed a commit about as often as the sales did.
   */
  marksWriter?: Pick<GroupCommit, 'run'>
}

export function createTicketPrints(deps: TicketPrintDeps) {
  const { db, clock, sealer, printers } = deps
  const now = () => clock.now().toISOString()
  const context = (ref: string) => `ticket-print|${ref}`
  /** Printer targets whose last job failed: their status is asked before the next sale. */
  const suspect = new Set<string>()
  let printedQueue: Array<{ ref: string; hallId?: string }> = []
  let timer: ReturnType<typeof setTimeout> | null = null
  let flushing: Promise<void> = Promise.resolve()

  /** Before a sale at `stationId`, outside any transaction: refuses it when the station's printer is known broken. */
  async function ensurePrinter(stationId: string): Promise<void> {
    const printer = printers.forStation(stationId)
    if (!suspect.has(printer.target)) return
    await printer.check()
    suspect.delete(printer.target)
  }

  /** Inside the sale's transaction: the paper the sale owes. No I/O. */
  async function recordWithin(
    tx: Sql,
    sale: {
      ref: string
      hallId: string
      stationId: string
      voucherId: string | null
      items: PrintItems
      docs: readonly PrintDoc[]
      at: string
    },
  ): Promise<void> {
    await insertTicketPrint(tx, {
      id: sale.ref,
      hallId: sale.hallId,
      stationId: sale.stationId,
      voucherId: sale.voucherId,
      items: JSON.stringify(sale.items),
      docsSealed: sealer.seal(JSON.stringify(sale.docs), context(sale.ref)),
      at: sale.at,
    })
  }

  /** After the sale's commit: prints its paper. Never throws for a printer failure: the sale stands either way. */
  async function printSale(
    sale: { ref: string; stationId: string; hallId?: string },
    docs: readonly PrintDoc[],
    jobName: string,
  ): Promise<SalePrint> {
    const printer = printers.forStation(sale.stationId)
    try {
      const r = await printer.print(docs, jobName)
      suspect.delete(printer.target)
      queuePrinted(sale.ref, sale.hallId)
      return { printed: true, ...r }
    } catch (err) {
      suspect.add(printer.target)
      const reason =
        err instanceof DomainError
          ? String((err.details as { reason?: string } | undefined)?.reason ?? err.code)
          : 'error'
      const message = err instanceof Error ? err.message : String(err)
      await markFailed(sale.ref, 'printing', { reason, message, stationId: sale.stationId, attempt: 0 }).catch((e) =>
        deps.onError?.(e),
      )
      return pendingNotice(sale.ref, reason)
    }
  }

  function pendingNotice(ref: string, reason: string | null): SalePrint {
    return {
      printed: false,
      code: 'PRINT_PENDING',
      ref,
      reason,
      message: PRINT_PENDING_NOTICE.es.replace('{ref}', ref),
      messageEn: PRINT_PENDING_NOTICE.en.replace('{ref}', ref),
    }
  }

  /**
   * The ticket waits for a reprint; the failure is journaled (who sold it, where, why). The commit does not fsync on
   * the event loop (SQLite FULL): a jammed printer's failures would stop every other kiosk's sale and every ball for
   * the length of a sync each; the WAL is synced on its own thread before the player is told, as for the sale.
   */
  async function markFailed(
    ref: string,
    from: string,
    f: { reason: string; message: string; stationId: string; attempt: number },
  ): Promise<void> {
    // Issue 23 point 5: the failure is the sale's hall's row and record: it locks that hall only (a sale's hall
    // never changes), so a jammed printer in one hall holds up no other hall's sales.
    const hallId = (await ticketPrintById(db, ref))?.hall_id
    await db.transaction(
      async (tx) => {
        const at = now()
        const row = await ticketPrintById(tx, ref)
        if (!row) return
        await setTicketPrintStatus(tx, {
          id: ref,
          from,
          to: 'pending',
          at,
          failure: `${f.reason}: ${f.message}`.slice(0, 300),
        })
        await appendJournal(tx, {
          at,
          type: 'ticket.print_failed',
          scope: `hall:${row.hall_id}`,
          payload: {
            ref,
            stationId: f.stationId,
            reprint: f.attempt,
            reason: f.reason,
            items: JSON.parse(row.items) as PrintItems,
          },
        })
      },
      { deferSync: true, ...(hallId ? { scopes: [`hall:${hallId}`] } : {}) },
    )
    await db.durable?.()
  }

  function queuePrinted(ref: string, hallId?: string): void {
    printedQueue.push({ ref, hallId })
    if (printedQueue.length >= PRINTED_BATCH) void flushPrinted()
    else if (!timer) {
      timer = setTimeout(() => void flushPrinted(), 50)
      timer.unref?.()
    }
  }

  /**
   * Marks the printed sales so and drops their sealed jobs, many in one transaction: a printed ticket costs no
   * write of its own on the sale path. Waits for any flush under way.
   */
  function flushPrinted(): Promise<void> {
    if (timer) {
      clearTimeout(timer)
      timer = null
    }
    const ids = printedQueue
    printedQueue = []
    flushing = flushing
      .then(async () => {
        if (ids.length === 0) return
        const at = now()
        // Issue 23 point 5: each hall's marks lock that hall only (a sale's print row never changes hall): a flush of
        // marks never queues, as a global writer, behind one hall's open transaction and so before every other hall.
        const byHall = new Map<string, string[]>()
        const add = (hallId: string, ref: string) => byHall.set(hallId, [...(byHall.get(hallId) ?? []), ref])
        // The paid sales name their hall; the others' are read, many at a time.
        const unknown: string[] = []
        for (const q of ids)
          if (q.hallId) add(q.hallId, q.ref)
          else unknown.push(q.ref)
        for (let i = 0; i < unknown.length; i += PRINTED_BATCH)
          for (const r of await hallsOfTicketPrints(db, unknown.slice(i, i + PRINTED_BATCH))) add(r.hall_id, r.id)
        await Promise.all(
          [...byHall].map(async ([hallId, hallIds]) => {
            const scopes = [`hall:${hallId}`]
            const mark = async (tx: Sql) => {
              for (let i = 0; i < hallIds.length; i += PRINTED_BATCH)
                await markTicketsPrinted(tx, hallIds.slice(i, i + PRINTED_BATCH), at)
            }
            // In the sales' next batch of that hall: no transaction of its own; resolved once that batch is on disk.
            if (deps.marksWriter) return void (await deps.marksWriter.run(mark, { scopes }))
            // Housekeeping nobody is answered after: its commit does not sleep in fsync on the event loop (SQLite
            // FULL, up to 20 times a second under load); the WAL is synced off the event loop before the next flush.
            // A mark lost to a power cut leaves the row `printing`, which after STALE_MS is reprintable as a marked
            // reprint.
            await db.transaction(mark, { deferSync: true, scopes })
          }),
        )
        await db.durable?.()
      })
      .catch((e) => deps.onError?.(e))
    return flushing
  }

  /** Whether a row may be reprinted now: pending, or left mid-print by a stopped server. */
  function reprintable(row: PrintRow, at: string): boolean {
    if (row.status === 'pending') return true
    const stale = Date.parse(at) - Date.parse(row.updated_at) >= STALE_MS
    return stale && (row.status === 'printing' || row.status === 'reprinting')
  }

  /**
   * Reprints a sale's paper at `stationId` (a kiosk or a cash desk of the sale's hall). `voucherCode`: the voucher
   * that paid (required at a kiosk); `ref`: the sale's reference (staff). Errors: VALIDATION_FAILED,
   * TICKET_NOT_FOUND, WRONG_HALL (the station is not of the sale's hall), CONFLICT (already printed, or being
   * reprinted elsewhere), DEVICE_UNAVAILABLE (this printer failed too: the ticket stays pending, the attempt counted).
   */
  async function reprint(input: {
    ref?: string
    voucherCode?: string
    stationId: string
    atKiosk: boolean
    resolveVoucherId: (tx: Sql, code: string) => Promise<string>
  }) {
    if (input.atKiosk && !input.voucherCode)
      throw new DomainError('VALIDATION_FAILED', 'at a kiosk the player shows the voucher that paid the purchase', {
        field: 'voucherCode',
      })
    if (!input.ref && !input.voucherCode)
      throw new DomainError('VALIDATION_FAILED', 'name the sale (ref) or show the voucher that paid it', {
        field: 'ref',
      })
    await flushPrinted()
    // Issue 23 point 5: a claim writes the sale's print row and record, of the station's hall (a station reprints only
    // its own hall's sales, refused below otherwise): it locks that hall alone, read from the station's enrolment,
    // never from the request. A station moved to another hall since (under the exclusive lock) runs it again with
    // every chain; a station of no hall is refused inside, under every chain as before.
    const stationHallBefore = await hallOfStation(db, input.stationId)
    const claimed = await narrowOrAll(stationHallBefore ? [`hall:${stationHallBefore}`] : undefined, (scopes) =>
      db.transaction(
        async (tx) => {
          const at = now()
          let row: PrintRow | undefined
          if (input.voucherCode) {
            const voucherId = await input.resolveVoucherId(tx, input.voucherCode)
            const rows = await ticketPrintsOfVoucher(tx, voucherId)
            row = input.ref ? rows.find((r) => r.id === input.ref) : (rows.find((r) => reprintable(r, at)) ?? rows[0])
          } else {
            row = await ticketPrintById(tx, input.ref!)
          }
          if (!row)
            throw new DomainError('TICKET_NOT_FOUND', 'no sale with that reference owes a ticket', {
              field: input.voucherCode ? 'voucherCode' : 'ref',
            })
          // The hall is the enrolled station's, decided here from what the request touches.
          const stationHall = await hallOfStation(tx, input.stationId)
          if (!stationHall || stationHall !== row.hall_id)
            throw new DomainError('WRONG_HALL', `sale ${row.id} belongs to another hall`, { resource: 'ref' })
          requireChain(`hall:${row.hall_id}`)
          if (!reprintable(row, at) || !row.docs_sealed) {
            throw new DomainError(
              'CONFLICT',
              `the ticket of sale ${row.id} is ${row.status}: only a ticket that failed to print is reprinted`,
              { status: row.status, ref: row.id },
            )
          }
          const n = Number(row.reprints) + 1
          if (!(await claimTicketReprint(tx, { id: row.id, from: row.status, reprints: Number(row.reprints), at })))
            throw new DomainError('CONFLICT', `sale ${row.id} is being reprinted elsewhere`, { ref: row.id })
          // Counted and journaled before any paper can come out, so every "REIMPRESIÓN n" has its record.
          await appendJournal(tx, {
            at,
            type: 'ticket.reprinted',
            scope: `hall:${row.hall_id}`,
            payload: {
              ref: row.id,
              reprint: n,
              stationId: input.stationId,
              soldAt: row.created_at,
              items: JSON.parse(row.items) as PrintItems,
            },
          })
          return {
            ref: row.id,
            hallId: row.hall_id,
            n,
            sealed: row.docs_sealed,
            items: JSON.parse(row.items) as PrintItems,
          }
        },
        scopes ? { scopes } : undefined,
      ),
    )
    const docs = (JSON.parse(sealer.openText(claimed.sealed, context(claimed.ref))) as PrintDoc[]).map((d) =>
      reprintDoc(d, claimed.n),
    )
    const printer = printers.forStation(input.stationId)
    let print: PrintResult
    try {
      print = await printer.print(docs, `reprint-${claimed.ref}-${claimed.n}`)
    } catch (err) {
      suspect.add(printer.target)
      const reason =
        err instanceof DomainError
          ? String((err.details as { reason?: string } | undefined)?.reason ?? err.code)
          : 'error'
      await markFailed(claimed.ref, 'reprinting', {
        reason,
        message: err instanceof Error ? err.message : String(err),
        stationId: input.stationId,
        attempt: claimed.n,
      })
      throw err instanceof DomainError
        ? err
        : new DomainError('DEVICE_UNAVAILABLE', `the reprint of ${claimed.ref} failed`, { reason })
    }
    suspect.delete(printer.target)
    // The sale's row alone (a sale's print row never changes hall): its hall's lock, as the failure's (markFailed).
    await db.transaction(
      async (tx) => {
        await setTicketPrintStatus(tx, {
          id: claimed.ref,
          from: 'reprinting',
          to: 'reprinted',
          at: now(),
          dropDocs: true,
        })
      },
      { scopes: [`hall:${claimed.hallId}`] },
    )
    return { ref: claimed.ref, reprint: claimed.n, items: claimed.items, print: { printed: true as const, ...print } }
  }

  /** The sales of the station's hall whose ticket waits for a reprint (the cash desk's list). */
  async function pending(stationId: string) {
    const hallId = await hallOfStation(db, stationId)
    if (!hallId)
      throw new DomainError(
        'STATION_REQUIRED',
        'the tickets waiting for a reprint are listed at an enrolled cash desk of a hall',
        { stationId },
      )
    await flushPrinted()
    const at = now()
    const rows = await unprintedOfHall(db, hallId)
    return rows
      .filter((r) => reprintable(r, at))
      .map((r) => ({
        ref: r.id,
        stationId: r.station_id,
        soldAt: r.created_at,
        reprints: Number(r.reprints),
        items: JSON.parse(r.items) as PrintItems,
      }))
  }

  return { ensurePrinter, recordWithin, printSale, flushPrinted, reprint, pending }
}

export type TicketPrints = ReturnType<typeof createTicketPrints>
