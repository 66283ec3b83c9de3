/**
 * Refunds of bingo cards (issue 13 point 7; BNG-80 to BNG-83, BNG-86; REGULATIONS §8 REFUND ONLY). A card of a
 * voided or annulled game is refunded its full price once, against its signed code: in cash out of the drawer of
 * the cashier station that pays it (filed under the open shift), or, for a card bought at a kiosk with a voucher,
 * onto a new credit voucher (at the cashier or at a kiosk, printed). The refund row is UNIQUE per ticket (the
 * database's own guard against a second refund), and it is journaled with the authenticated actor inside the same
 * transaction; the minutes count the refunds of each game from those records.
 *
 * Annulled lotto slips are refunded through the lotto payout (REFUND_ONLY, cash movement kind `refund`) and
 * misprinted instant tickets through the instant refund (INS-9, with a second person); both move cash through the
 * same drawer.
 */
import { cardIdOfShortCode, readCardShortCode } from './card-short-code.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealed, assertRowsSealedWhere, rowTampered } from '../shared/row-seals.ts'
import { DomainError } from '../shared/errors.ts'
import { TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { PrintDoc } from '../../../printer/src/ticket-layout.ts'
import type { SalePrint, TicketPrints } from './ticket-prints.ts'
import { ticketPreviewDataUrl } from '../../../printer/src/preview.ts'
import type { Till } from './shifts.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import { narrowOrAll, ScopesTooNarrow } from '../db/scopes.ts'
import { returnOnRefund } from '../bingo/card-custody-service.ts'
import type { CashdeskDeps, Voucher, VoucherService, VoucherView } from './vouchers.ts'
import type { Sql } from '../db/database.ts'
import { voucherFactsById } from '../access/store.ts'
import {
  blockedTicket,
  buyerKeyOfCard,
  cardJoin,
  gameForRefunds,
  hallOfStation,
  insertRefund,
  journaledSettlements,
  kioskPurchaseOfCard,
  personNameOf,
  refundOfTicket,
  refundsOfGame,
  type RefundRow,
  sessionNoOf,
  stationCardsOfGame,
  stationNameOf,
} from './store.ts'
import { refundReceipt } from '../../../printer/src/refund-receipt.ts'

export interface RefundActor {
  kind: string
  id: string
  name: string
  role: string
}

export interface CardRefund {
  refundId: string
  product: 'card'
  ticketId: string
  serial: string
  gameId: string
  gameNo: number
  hallId: string
  amountCents: number
  currency: string
  method: 'cash' | 'voucher'
  voucher: VoucherView | null
  refundedAt: string
  stationId: string
  cashierId: string
  shiftId: string | null
  print: SalePrint | null
  preview: string | null
  /** Issue 29 point 1: the names a person reads (station, who paid) and the hall's clock for the time shown. */
  stationName: string
  cashierName: string
  timeZone: string
  /** A cash refund's receipt: printed at the station, or why not (the refund stands either way). */
  receipt: { printed: true } | { printed: false; error: { code: string; message: string } } | null
}

/** The journal scope of a card's refund record: its game's (the scope is indexed, so the refund is found by it). */
const refundScope = (c: { hallId: string; sessionId: string; gameId: string }) =>
  `hall:${c.hallId}/session:${c.sessionId}/game:${c.gameId}`

export function createRefundService(deps: CashdeskDeps, vouchers: VoucherService, prints: TicketPrints) {
  const { db, clock, keys } = deps
  const now = () => clock.now().toISOString()

  function cardIdOf(code: string): string {
    // Issue 29 point 4: a card whose QR is damaged is refunded by the short code printed on it.
    if (readCardShortCode(String(code))) {
      const cardId = cardIdOfShortCode(deps.sealer.tag.bind(deps.sealer), String(code))
      if (!cardId)
        throw new DomainError('TICKET_NOT_FOUND', 'no card has this printed code', {
          reason: 'unknown',
          code: 'printed',
        })
      return cardId
    }
    const ref = verifyTicketCode(String(code).trim(), keys.publicKey)
    if (ref.kind !== TicketKind.card)
      throw new DomainError(
        'NOT_REFUNDABLE',
        'only a bingo card is refunded here: lotto slips and instant tickets have their own refund',
        { kind: ref.kind },
      )
    return ref.id
  }

  /**
   * Issue 23 point 5: the chains a card's refund locks: its game's hall (the card, its refund, its journal record, a
   * voucher issued for it) and the refunding station's hall (its drawer and shift, which the shift's close locks too),
   * both resolved from what is stored, never from the request; a game's hall never changes. Every chain when the
   * card or the station's hall is unknown (the refund is refused or judged as before).
   */
  async function refundScopes(cardId: string, stationId: string): Promise<string[] | undefined> {
    const c = await cardJoin(db, cardId)
    const stationHall = await hallOfStation(db, stationId)
    return c && stationHall ? [`hall:${c.hallId}`, `hall:${stationHall}`] : undefined
  }

  /**
   * Refunds a voided game's card once. `to: 'cash'` pays it out of the till's drawer; `to: 'voucher'` (kiosk buyers
   * only) issues and prints a new voucher for the price, moving no cash. Errors: INVALID_SIGNATURE,
   * TICKET_NOT_FOUND, TICKET_BLOCKED, NOT_REFUNDABLE (the game was not voided; or a voucher refund of a card not
   * bought with a voucher), ALREADY_REFUNDED (here, elsewhere, or at the same moment).
   */
  async function refundCard(input: {
    code: string
    to: 'cash' | 'voucher'
    till: Till
    actor: RefundActor
  }): Promise<CardRefund> {
    const cardId = cardIdOf(input.code)
    const printer = input.to === 'voucher' ? deps.printers.forStation(input.till.stationId) : null
    if (printer) await prints.ensurePrinter(input.till.stationId)
    let doc: PrintDoc | null = null
    const result = await narrowOrAll(await refundScopes(cardId, input.till.stationId), (scopes) => refundWithin(scopes))
    async function refundWithin(scopes: readonly string[] | undefined) {
      return db.transaction(
        async (tx): Promise<CardRefund> => {
          const c = await cardJoin(tx, cardId)
          if (!c) throw new DomainError('TICKET_NOT_FOUND', `card ${cardId} was never sold`, { ticketId: cardId })
          // The drawer's shift is closed under the station's hall lock: a station moved to another hall (under the
          // exclusive lock) since the scopes were decided runs again with every chain.
          if (scopes && !scopes.includes(`hall:${(await hallOfStation(tx, input.till.stationId)) ?? ''}`))
            throw new ScopesTooNarrow()
          // Issue 23 point 3: refunded only at a station (or kiosk) of the card's game's hall, by someone of that hall.
          await assertActsInHall(tx, c.hallId, { stationId: input.till.stationId, resource: 'card' })
          const blocked = await blockedTicket(tx, TicketKind.card, c.id)
          if (blocked)
            throw new DomainError(
              'TICKET_BLOCKED',
              `card ${c.serial} was reported ${blocked.reason}: no payment, refund or exchange (LST-4, LST-5)`,
              { rule: 'LST-4' },
            )
          // BNG-86: only the cards of a voided or annulled game are refunded, at full price.
          if (c.gameStatus !== 'void')
            throw new DomainError(
              'NOT_REFUNDABLE',
              `game ${c.orderNo} is ${c.gameStatus}: only a voided or annulled game's cards are refunded (BNG-86)`,
              { gameStatus: c.gameStatus, rule: 'BNG-86' },
            )
          const done = await refundOfTicket(tx, 'card', c.id)
          if (done) throw alreadyRefunded(done)
          // BNG-86 (once) and issue 24 point 1: a refund row deleted outside the server (and the card's rows put back
          // from an older copy of the file, seals and all) leaves the journal's record of it; it is not refunded again.
          const [journaled] = (
            await journaledSettlements(tx, refundScope(c), ['refund.paid'], 'ticketId', [c.id])
          ).filter((r) => r.payload.product === 'card')
          if (journaled)
            throw rowTampered([
              {
                table: 'refunds',
                id: String(journaled.payload.refundId),
                what: `journal record #${journaled.seq} refunded card ${c.serial}, but its refund is missing from the table (deleted outside the server)`,
              },
            ])
          // Issue 24 point 1: the card's sale payment and kiosk purchase it is refunded against are as the server wrote them.
          await assertRowsSealedWhere(tx, 'sale_payments', "t.product = 'card' AND t.ref_id = ?", [c.id])
          // ...and the card itself (its status: a card marked refunded in the database is not refunded again).
          await assertRowsSealed(tx, 'cards', [c.id])
          // GEN-21 (5): an excluded buyer is refunded his stake (recorded below); in cash, since a credit voucher of his
          // could be neither spent nor cashed out (both ask the list about the voucher's buyer).
          const excluded = await excludedBuyerOf(tx, c)
          if (excluded && input.to === 'voucher')
            throw new DomainError(
              'NOT_REFUNDABLE',
              `card ${c.serial} was bought by a person on the exclusion list: it is refunded in cash at the cashier`,
              { field: 'to', reason: 'cash_only', rule: 'GEN-21' },
            )
          const at = now()
          // BNG-86 / BNG-87 / BNG-88: the card is handed back (returned); one held as evidence or destroyed is not refunded.
          await returnOnRefund(tx, c.id, at, input.actor.name)
          const amountCents = c.faceValueCents
          const refundId = deps.bingo.newId('rf')
          let issued: Voucher | null = null
          if (input.to === 'voucher') {
            const bought = await kioskPurchaseOfCard(tx, c.gameId, c.id)
            if (!bought)
              throw new DomainError(
                'NOT_REFUNDABLE',
                `card ${c.serial} was not bought at a kiosk with a voucher: it is refunded in cash at the cashier`,
                { field: 'to' },
              )
            await assertRowsSealed(tx, 'kiosk_purchases', [bought.id])
            // The new voucher descends from the one that paid the card, so that a GEN-17 hold on it still applies, and
            // carries that voucher's buyer on (as a purchase's change does): an identified player's credit stays his,
            // and his exclusion is asked when it is spent or cashed out.
            const parent = await voucherFactsById(tx, bought.voucher_id)
            issued = await vouchers.issue(tx, {
              hallId: c.hallId,
              currency: c.currency,
              amountCents,
              origin: 'change',
              parentId: bought.voucher_id,
              stationId: input.till.stationId,
              issuedBy: input.actor.id,
              smallCents: 0,
              otherCents: 0,
              buyerDocument: parent?.buyerDocument ?? null,
              at,
            })
          } else {
            await vouchers.movement(tx, {
              hallId: c.hallId,
              stationId: input.till.stationId,
              cashierId: input.till.cashierId,
              shiftId: input.till.shiftId,
              product: 'card',
              kind: 'refund',
              amountCents: -amountCents,
              currency: c.currency,
              refId: refundId,
              at,
            })
          }
          try {
            await insertRefund(tx, {
              id: refundId,
              product: 'card',
              ticketId: c.id,
              hallId: c.hallId,
              gameRef: c.gameId,
              amountCents,
              currency: c.currency,
              method: input.to,
              voucherId: issued?.id ?? null,
              stationId: input.till.stationId,
              cashierId: input.till.cashierId,
              shiftId: input.till.shiftId,
              approvedBy: null,
              approvedByName: null,
              reason: c.voidReason ?? 'void',
              at,
            })
          } catch (err) {
            // Two stations refunding the same card at the same moment: the UNIQUE refuses the second.
            if (/unique|duplicate/i.test(String((err as Error)?.message)))
              throw new DomainError(
                'ALREADY_REFUNDED',
                `card ${c.serial} was refunded at the same moment elsewhere`,
                {},
              )
            throw err
          }
          await appendJournal(tx, {
            at,
            type: 'refund.paid',
            scope: refundScope(c),
            payload: {
              refundId,
              product: 'card',
              ticketId: c.id,
              serial: c.serial,
              gameId: c.gameId,
              amountCents,
              currency: c.currency,
              method: input.to,
              voucherId: issued?.id ?? null,
              stationId: input.till.stationId,
              shiftId: input.till.shiftId,
              actor: input.actor,
              rule: 'BNG-86',
            },
          })
          if (excluded && deps.admission)
            await deps.admission.journalRefundedWithin(tx, excluded, {
              at,
              hallId: c.hallId,
              refId: refundId,
              ticketId: c.id,
              amountCents,
            })
          const hall = await vouchers.hallFor(tx, c.hallId)
          const out: CardRefund = {
            refundId,
            product: 'card',
            ticketId: c.id,
            serial: c.serial,
            gameId: c.gameId,
            gameNo: c.orderNo,
            hallId: c.hallId,
            amountCents,
            currency: c.currency,
            method: input.to,
            voucher: issued ? vouchers.view(issued, at) : null,
            refundedAt: at,
            stationId: input.till.stationId,
            cashierId: input.till.cashierId,
            shiftId: input.till.shiftId,
            print: null,
            preview: null,
            stationName: await stationNameOf(tx, input.till.stationId),
            cashierName: input.actor.kind === 'person' ? input.actor.name : '',
            timeZone: hall.timeZone,
            receipt: null,
          }
          if (input.to === 'cash') {
            // The receipt is laid out inside (names and numbers as committed) and printed after the commit.
            doc = refundReceipt(
              {
                hallName: c.hallName,
                authorisationRef: hall.authorisationRef, // GEN-5: the hall's as recorded
                gameNo: c.orderNo,
                sessionNo: await sessionNoOf(tx, c.sessionId),
                serial: c.serial,
                amountCents,
                currency: c.currency,
                refundedAt: at,
                timeZone: out.timeZone,
                station: out.stationName,
                cashier: out.cashierName || (await personNameOf(tx, input.till.cashierId)),
              },
              { paper: deps.printers.forStation(input.till.stationId).paper },
            )
          }
          if (issued && printer) {
            // Issue 23 point 5: the voucher is printed after the commit; the paper it owes is recorded with it.
            doc = vouchers.ticketOf(issued, hall, {
              station: await stationNameOf(tx, input.till.stationId),
              origin: 'change',
              paper: printer.paper,
            })
            await prints.recordWithin(tx, {
              ref: refundId,
              hallId: c.hallId,
              stationId: input.till.stationId,
              voucherId: null,
              docs: [doc],
              at,
              items: { change: issued.id },
            })
          }
          return out
        },
        scopes ? { scopes } : undefined,
      )
    }
    if (!doc) return { ...result, preview: null }
    if (result.method === 'cash') return { ...result, ...(await printCashReceipt(doc, input.till.stationId)) }
    const print = await prints.printSale(
      { ref: result.refundId, stationId: input.till.stationId },
      [doc],
      `refund-${result.refundId}`,
    )
    return { ...result, print, preview: ticketPreviewDataUrl(doc) }
  }

  /** A cash refund's receipt at the station's printer; a printer fault is reported, the refund stands. */
  async function printCashReceipt(doc: PrintDoc, stationId: string) {
    const preview = ticketPreviewDataUrl(doc)
    try {
      await deps.printers.forStation(stationId).print([doc], doc.name)
      return { receipt: { printed: true as const }, preview }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return { receipt: { printed: false as const, error: { code: err.code, message: err.message } }, preview }
    }
  }

  function alreadyRefunded(r: RefundRow): DomainError {
    return new DomainError('ALREADY_REFUNDED', `ticket ${r.ticket_id} was refunded at ${r.refunded_at}`, {
      refundedAt: r.refunded_at,
      stationId: r.station_id,
      method: r.method,
      refundId: r.id,
    })
  }

  /**
   * GEN-21 (5): a refund returns the player's own stake, so an excluded buyer is refunded as anyone (as a lotto or
   * lottery refund is, cashdesk/ticket-desk.ts), and the card's hall's chain records that a person on its list was
   * refunded, for the regulator to see. The buyer is the one the card's sale recorded (buyerKeyOfCard), asked of the
   * card's hall's list in the refund's own transaction; null when there is none or he is not on it.
   */
  async function excludedBuyerOf(tx: Sql, c: { id: string; hallId: string }) {
    if (!deps.admission) return null
    const buyer = await buyerKeyOfCard(tx, c.id)
    return buyer ? deps.admission.exclusionWithin(tx, [buyer], c.hallId) : null
  }

  /** A card's refund, if it was refunded (for the scan at the cashier). */
  async function refundOfCard(cardId: string): Promise<RefundRow | undefined> {
    return refundOfTicket(db, 'card', cardId)
  }

  /** How many of a game's cards were refunded and for how much (the minutes). */
  async function ofGame(gameId: string): Promise<{ count: number; amountCents: number }> {
    const r = await refundsOfGame(db, 'card', gameId)
    return { count: r.n, amountCents: r.cents }
  }

  /**
   * Issue 29 point 1 (BNG-86: refunds against the cards handed back to the table): the cards of an annulled game
   * that this station sold for cash, each with its refund (when, where, by whom: names), and the cash still to hand
   * out. Read from the station the request comes from, never a station named in the request; a game of another
   * hall is refused (WRONG_HALL). The refunds themselves go through `refundCard`, one card handed back at a time.
   */
  async function stationCards(input: { gameId: string; stationId: string }) {
    const g = await gameForRefunds(db, input.gameId)
    if (!g) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} not found`, { gameId: input.gameId })
    await assertActsInHall(db, g.hallId, { stationId: input.stationId, resource: 'game' })
    const timeZone = (await vouchers.hallFor(db, g.hallId)).timeZone
    const names = new Map<string, string>()
    const nameOf = async (id: string, person: boolean) => {
      if (!names.has(id)) names.set(id, person ? await personNameOf(db, id) : await stationNameOf(db, id))
      return names.get(id)!
    }
    const cards = []
    for (const c of await stationCardsOfGame(db, g.id, input.stationId))
      cards.push({
        serial: c.serial,
        cardId: c.cardId,
        amountCents: g.faceValueCents,
        refund: c.refund && {
          at: c.refund.at,
          method: c.refund.method,
          amountCents: c.refund.amountCents,
          station: await nameOf(c.refund.stationId, false),
          by: c.refund.cashierId === c.refund.stationId ? '' : await nameOf(c.refund.cashierId, true),
        },
      })
    const open = cards.filter((c) => !c.refund)
    return {
      gameId: g.id,
      gameNo: g.orderNo,
      status: g.status,
      refundable: g.status === 'void',
      currency: g.currency,
      faceValueCents: g.faceValueCents,
      timeZone,
      cards,
      sold: cards.length,
      refunded: cards.length - open.length,
      refundedCents: cards.reduce((s, c) => s + (c.refund?.amountCents ?? 0), 0),
      /** What the table still owes its players for this game, in cash. */
      toHandOutCents: g.status === 'void' ? open.reduce((s, c) => s + c.amountCents, 0) : 0,
    }
  }

  return { refundCard, refundOfCard, ofGame, stationCards }
}

export type RefundService = ReturnType<typeof createRefundService>
