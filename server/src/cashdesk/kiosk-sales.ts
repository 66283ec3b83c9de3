/**
 * Self-service kiosk: shows the game on sale (BNG-11: series, cards in the series, face value, prizes) and sells
 * cards against a credit voucher (GEN-13/GEN-14: the kiosk takes no cash), printing each card with the QR of its
 * signed code and a change voucher for what is left.
 *
 * All or nothing with the printer. The cards, the spent voucher, the change voucher and their journal records are
 * written in one transaction, and the tickets are printed INSIDE it, before the commit: a printer that is offline,
 * out of paper or drops the connection (DEVICE_UNAVAILABLE) rolls everything back, so the player keeps his credit
 * on the voucher he holds, no card counts as sold and the series cursor stays where it was (BNG-12: no gap in the
 * correlative numbering, nothing to void). We chose this over "commit, print, void on failure" because the void
 * path leaves sold-then-voided cards in the series and the sales digest, needs crash recovery for sales that were
 * committed but never printed, and races with the close of sales. The price is that the write lock is held while
 * the printer takes the job; the printer's real-time status is asked first, outside the transaction, so the
 * usual failures (no paper, offline) are refused before any lock is taken, and the print is bounded by
 * BOLILLO_PRINTER_TIMEOUT_MS. If the commit itself failed after a successful print, the printed codes would name
 * ids that do not exist: they validate as invalid and the voucher stays spendable, so no one loses money.
 *
 * BNG-14: nothing is reserved; cards are taken in correlative order at the moment of the sale. BNG-15 (the previous
 * game's cards handed back first) is a hall procedure a kiosk cannot check: each card states the one game it is
 * valid for, so a card kept from an earlier game can neither play nor win.
 */
import { loadSpendableVoucher, markVoucherSpent, type CashdeskDeps, type VoucherService, type VoucherView } from './vouchers.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Sql } from '../db/database.ts'
import { cardFromRows, type CardLayout } from '../bingo/card.ts'
import { DomainError } from '../shared/errors.ts'
import { GameStatus } from '../bingo/game.ts'
import { shareOf } from '../shared/money.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import type { PrintResult } from '../../../printer/src/printers.ts'
import { cardTicket, voucherTicket, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { currentGameOfHall, gameById, insertKioskPurchase, seriesOfGame } from './store.ts'

/** Most cards one kiosk purchase may buy (CFG-16 leaves the per-player maximum to the operator). */
export const MAX_CARDS_PER_PURCHASE = 50

export interface KioskOffer {
  hall: { id: string; name: string; currency: string; profileId: string; minimumAge: number }
  /** on_sale: cards can be bought; not_open: announced, sales not open yet; closed: the game is in play; none. */
  state: 'on_sale' | 'not_open' | 'closed' | 'none'
  game: null | {
    gameId: string; sessionId: string; orderNo: number; status: string; faceValueCents: number; cardsSold: number
    /** BNG-11: each series with its number of cards and the range on sale. */
    series: Array<{ code: string; position: number; cardCount: number; nextCardNo: number; lastCardNo: number; available: number }>
    available: number
    /** Prize shares (basis points of the cards sold x face value) and the amounts at the present sales (BNG-52/56). */
    prizes: { lineBp: number; bingoBp: number; lineCents: number; bingoCents: number; final: boolean }
    isLastGame: boolean
  }
  maxCardsPerPurchase: number
}

export interface KioskPurchase {
  purchaseId: string
  kioskId: string
  gameId: string
  gameNo: number
  count: number
  amountCents: number
  currency: string
  voucherId: string
  /** `rows`: the numbers of each row; `grid`: the same in their columns, 0 = blank (BNG-5). */
  cards: Array<{ id: string; serial: string; seriesCode: string; cardNo: number; rows: number[][]; grid: number[][]; code: string }>
  change: VoucherView | null
  print: PrintResult
}

export function createKioskService(deps: CashdeskDeps, vouchers: VoucherService) {
  const { db, clock, keys } = deps
  const now = () => clock.now().toISOString()

  async function seriesOf(tx: Sql, gameId: string) {
    const rows = await seriesOfGame(tx, gameId)
    return rows.map((r) => {
      const last = Number(r.position) === 1 ? Number(r.card_count) : Number(r.max_card_no)
      return { code: r.code, position: Number(r.position), cardCount: Number(r.card_count), nextCardNo: Number(r.next_card_no), lastCardNo: last, available: Math.max(0, last - Number(r.next_card_no) + 1) }
    })
  }

  /** The hall's current game as the kiosk shows it. */
  async function offer(hallId: string): Promise<KioskOffer> {
    const base = { hall: await vouchers.hallFor(db, hallId), maxCardsPerPurchase: MAX_CARDS_PER_PURCHASE }
    const game = await currentGameOfHall(db, hallId)
    if (!game) return { ...base, state: 'none', game: null }
    const status = game.status
    const state: KioskOffer['state'] = status === GameStatus.OnSale ? 'on_sale' : status === GameStatus.Announced ? 'not_open'
      : status === GameStatus.Finished || status === GameStatus.Void ? 'none' : 'closed'
    const series = await seriesOf(db, game.id)
    const face = Number(game.face_value_cents)
    const total = Number(game.cards_sold) * face
    const final = game.line_pool_cents !== null
    return {
      ...base, state,
      game: {
        gameId: game.id, sessionId: game.session_id, orderNo: Number(game.order_no), status, faceValueCents: face, cardsSold: Number(game.cards_sold),
        series, available: series.reduce((s, x) => s + x.available, 0),
        prizes: {
          lineBp: Number(game.line_bp), bingoBp: Number(game.bingo_bp),
          lineCents: final ? Number(game.line_pool_cents) : shareOf(total, Number(game.line_bp)),
          bingoCents: final ? Number(game.bingo_pool_cents) : shareOf(total, Number(game.bingo_bp)), final,
        },
        isLastGame: Boolean(Number(game.is_last_game)),
      },
    }
  }

  /**
   * Buys `count` cards of a game with a voucher and prints them with the change voucher; see the top of this file
   * for the all-or-nothing rule. Errors: INVALID_SIGNATURE / TICKET_NOT_FOUND (bad or unknown voucher),
   * VOUCHER_SPENT, VOUCHER_EXPIRED, VOUCHER_INSUFFICIENT, SALES_NOT_OPEN / SALES_CLOSED, SERIES_EXHAUSTED,
   * DEVICE_UNAVAILABLE (printer; nothing was sold).
   */
  async function purchase(input: { voucherCode: string; gameId: string; count: number; kioskId: string; ageConfirmed: boolean }): Promise<KioskPurchase> {
    if (input.ageConfirmed !== true) throw new DomainError('VALIDATION_FAILED', 'the player must confirm being of age before buying (CFG-5)', { field: 'ageConfirmed', rule: 'CFG-5' })
    if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_CARDS_PER_PURCHASE) throw new DomainError('VALIDATION_FAILED', `count must be 1..${MAX_CARDS_PER_PURCHASE}`, { field: 'count' })
    const voucherId = vouchers.voucherIdOf(input.voucherCode)
    const printer = deps.printers.forStation(input.kioskId)
    await printer.check()
    let publishSale = () => {}
    const result = await db.transaction(async (tx): Promise<KioskPurchase> => {
      const at = now()
      const v = await loadSpendableVoucher(tx, voucherId, at)
      const game = await gameById(tx, input.gameId)
      if (!game) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} not found`, { gameId: input.gameId })
      if (game.hall_id !== v.hall_id) throw new DomainError('VALIDATION_FAILED', `voucher ${v.id} belongs to another hall`, { field: 'voucherCode' })
      const face = Number(game.face_value_cents)
      const costCents = input.count * face
      if (costCents > v.amount_cents) {
        throw new DomainError('VOUCHER_INSUFFICIENT', `the voucher holds ${v.amount_cents}, ${input.count} cards cost ${costCents}`, { amountCents: v.amount_cents, costCents, maxCards: Math.floor(v.amount_cents / face) })
      }
      // BNG-12/13: correlative sale through the bingo service, inside this transaction.
      const sale = await deps.bingo.sellWithin(tx, { gameId: game.id, count: input.count, channel: `kiosk:${input.kioskId}` })
      const purchaseId = deps.bingo.newId('kp')
      const changeCents = v.amount_cents - costCents
      await markVoucherSpent(tx, v, { at, station: input.kioskId, for: 'purchase', ref: purchaseId })
      await appendJournal(tx, {
        at, type: 'voucher.redeemed', scope: `hall:${v.hall_id}`,
        payload: { voucherId: v.id, purchaseId, kioskId: input.kioskId, gameId: game.id, amountCents: v.amount_cents, costCents, changeCents, cardIds: sale.cards.map((c) => c.id), ageConfirmed: true },
      })
      const change = changeCents > 0
        ? await vouchers.issue(tx, { hallId: v.hall_id, currency: v.currency, amountCents: changeCents, origin: 'change', parentId: v.id, stationId: input.kioskId, issuedBy: input.kioskId, smallCents: 0, otherCents: 0, buyerDocument: v.buyer_document, at })
        : null
      await insertKioskPurchase(tx, {
        id: purchaseId, kioskId: input.kioskId, hallId: v.hall_id, gameId: game.id, voucherId: v.id, changeVoucherId: change?.id ?? null,
        cardCount: sale.cards.length, amountCents: costCents, cardIds: sale.cards.map((c) => c.id), createdAt: at,
      })
      const hall = await vouchers.hallFor(tx, game.hall_id)
      const sizes = new Map((await seriesOf(tx, game.id)).map((s) => [s.code, s.cardCount]))
      const layout = JSON.parse(game.layout) as CardLayout
      const cards = sale.cards.map((c) => ({ ...c, grid: cardFromRows(c.rows, layout).grid, code: encodeTicketCode({ kind: TicketKind.card, id: c.id }, keys.privateKey) }))
      const docs: PrintDoc[] = cards.map((c) => cardTicket({
        code: c.code, cardId: c.id, hallName: hall.name, sessionId: game.session_id, gameId: game.id, gameNo: Number(game.order_no),
        seriesCode: c.seriesCode, cardNo: c.cardNo, serial: c.serial, cardsInSeries: sizes.get(c.seriesCode) ?? 0,
        faceValueCents: face, currency: hall.currency, soldAt: at, station: input.kioskId, grid: c.grid, minimumAge: hall.minimumAge,
      }, { paper: printer.paper }))
      if (change) {
        docs.push(voucherTicket({ code: vouchers.codeOf(change.id), voucherId: change.id, hallName: hall.name, amountCents: change.amount_cents, currency: change.currency, issuedAt: change.issued_at, expiresAt: change.expires_at, station: input.kioskId, origin: 'change', minimumAge: hall.minimumAge }, { paper: printer.paper }))
      }
      // Printed before the commit: a printer failure throws DEVICE_UNAVAILABLE and rolls all of the above back.
      const print = await printer.print(docs, `kiosk-${purchaseId}`)
      publishSale = sale.publish
      return {
        purchaseId, kioskId: input.kioskId, gameId: game.id, gameNo: Number(game.order_no), count: cards.length, amountCents: costCents, currency: hall.currency,
        voucherId: v.id, cards, change: change ? vouchers.view(change, at) : null, print,
      }
    })
    publishSale()
    return result
  }

  return { offer, purchase }
}

export type KioskService = ReturnType<typeof createKioskService>
