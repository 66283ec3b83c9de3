/**
 * Self-service kiosk: shows the game on sale (BNG-11: series, cards in the series, face value, prizes). The sale
 * itself, against a credit voucher (GEN-13/GEN-14: the kiosk takes no cash), is paid-sales.ts's, for cards, lotto
 * slips and e-instant tickets alike; what follows is why it prints after the commit.
 *
 * Sale first, then paper (issue 23 point 5). The cards, the spent voucher, the change voucher and their journal
 * records are written in one transaction, with the paper the purchase owes; the tickets are printed AFTER the
 * commit, with no lock held (paid-sales.ts, ticket-prints.ts). This replaced printing inside the transaction: with
 * one writer for the whole server, a slow kiosk printer held every other write (ball draws included) for seconds,
 * and a printer refusing a job rolled back exactly the sales whose tickets it refused. Now a ticket that fails to
 * print stays sold (its number taken, BNG-12: no gap, nothing to void), the player is told so, and the ticket is
 * reprinted, marked as a reprint, at the kiosk or the cash desk.
 *
 * BNG-14: nothing is reserved; cards are taken in correlative order at the moment of the sale. BNG-15 (the previous
 * game's cards handed back first) is a hall procedure a kiosk cannot check: each card states the one game it is
 * valid for, so a card kept from an earlier game can neither play nor win.
 */
import { chosenNumbersOfGame } from '../bingo/game-state.ts'
import type { CashdeskDeps, VoucherService } from './vouchers.ts'
import type { Sql } from '../db/database.ts'
import { GameStatus } from '../bingo/game.ts'
import { shareOf } from '../shared/money.ts'
import { currentGameOfHall, seriesOfGame } from './store.ts'
import type { PostedBets } from '../bingo/sale-rules.ts'

export interface KioskOffer {
  hall: { id: string; name: string; currency: string; profileId: string; minimumAge: number; timeZone: string }
  /** on_sale: cards can be bought; not_open: announced, sales not open yet; closed: the game is in play; none. */
  state: 'on_sale' | 'not_open' | 'closed' | 'none'
  game: null | {
    gameId: string
    sessionId: string
    orderNo: number
    status: string
    faceValueCents: number
    cardsSold: number
    /** BNG-11: each series with its number of cards and the range on sale. */
    series: Array<{
      code: string
      position: number
      cardCount: number
      nextCardNo: number
      lastCardNo: number
      available: number
    }>
    available: number
    /** Prize shares (basis points of the cards sold x face value) and the amounts at the present sales (BNG-52/56). */
    prizes: { lineBp: number; bingoBp: number; lineCents: number; bingoCents: number; final: boolean }
    isLastGame: boolean
    /** BNG-98: in a fast bingo whose player chooses his numbers, how many of 1..universe each card holds; else null. */
    chosenNumbers: { universe: number; picks: number; timesRequired: number } | null
  }
  /** BNG-40 / GEN-18: the hall's most cards in one purchase (its sale rules, or the profile's default). */
  maxCardsPerPurchase: number
  /** BNG-40 / GEN-18 / CFG-16: the bets the hall posts, as the kiosk shows them. */
  bets: PostedBets
}

export function createKioskService(deps: CashdeskDeps, vouchers: VoucherService) {
  const { db } = deps

  async function seriesOf(tx: Sql, gameId: string) {
    const rows = await seriesOfGame(tx, gameId)
    return rows.map((r) => {
      const last = Number(r.position) === 1 ? Number(r.card_count) : Number(r.max_card_no)
      return {
        code: r.code,
        position: Number(r.position),
        cardCount: Number(r.card_count),
        nextCardNo: Number(r.next_card_no),
        lastCardNo: last,
        available: Math.max(0, last - Number(r.next_card_no) + 1),
      }
    })
  }

  /** The hall's current game as the kiosk shows it. */
  async function offer(hallId: string): Promise<KioskOffer> {
    const { bets } = await deps.bingo.hallRules(hallId)
    const base = { hall: await vouchers.hallFor(db, hallId), maxCardsPerPurchase: bets.maxCardsPerPurchase, bets }
    const game = await currentGameOfHall(db, hallId)
    if (!game) return { ...base, state: 'none', game: null }
    const status = game.status
    const state: KioskOffer['state'] =
      status === GameStatus.OnSale
        ? 'on_sale'
        : status === GameStatus.Announced
          ? 'not_open'
          : status === GameStatus.Finished || status === GameStatus.Void
            ? 'none'
            : 'closed'
    const series = await seriesOf(db, game.id)
    const face = Number(game.face_value_cents)
    const total = Number(game.cards_sold) * face
    const final = game.line_pool_cents !== null
    return {
      ...base,
      state,
      game: {
        gameId: game.id,
        sessionId: game.session_id,
        orderNo: Number(game.order_no),
        status,
        faceValueCents: face,
        cardsSold: Number(game.cards_sold),
        series,
        available: series.reduce((s, x) => s + x.available, 0),
        prizes: {
          lineBp: Number(game.line_bp),
          bingoBp: Number(game.bingo_bp),
          lineCents: final ? Number(game.line_pool_cents) : shareOf(total, Number(game.line_bp)),
          bingoCents: final ? Number(game.bingo_pool_cents) : shareOf(total, Number(game.bingo_bp)),
          final,
        },
        isLastGame: Boolean(Number(game.is_last_game)),
        chosenNumbers: chosenNumbersOfGame(game.layout),
      },
    }
  }

  return { offer }
}

export type KioskService = ReturnType<typeof createKioskService>
