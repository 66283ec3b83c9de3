/**
 * Issue 13: nothing of value without a recorded payment (DESIGN.md "Money and people"). Every card, lotto slip and
 * instant ticket is sold here, against one of two payments, in the same transaction as its issue:
 *
 * - at a kiosk, a credit voucher (GEN-13, GEN-14: the kiosk takes no cash). One voucher buys a basket of cartones,
 *   boletos (lotto slips, quick pick or chosen numbers) and raspaditas (e-instant, where the hall's profile allows
 *   them, INS-15). The voucher is spent and its change voucher issued in the transaction that issues the items;
 * - at a counter (cashier station, the caller's table), cash taken into that station's drawer (a `counter_sale`
 *   cash movement of the exact price).
 *
 * Each item gets a `sale_payments` row naming its payment. Issue 23 point 5: the sale commits first (items,
 * payment, journal, and the paper it owes, all or nothing), then the tickets (each with the QR of its signed code;
 * the lotto receipt with every LNS-6 field) and the change voucher are printed, with no transaction or lock held
 * (ticket-prints.ts). A ticket that fails to print stays sold and waits for a reprint at the kiosk or the cash desk;
 * the answer says so (`print.code` PRINT_PENDING). No printer sees an e-instant outcome before its sale committed.
 */
import { TERMINAL_CHANNEL } from '../bingo/system-claims.ts'
import type { Sealer } from '../shared/sealing.ts'
import { cardShortCode } from './card-short-code.ts'
import { AJ_LEGEND } from '../shared/lottery-common.ts'
import type { LottoPrize } from '../lotto/plan.ts'
import type { Database, Sql } from '../db/database.ts'
import type { BingoService, GameRow, SoldCard } from '../bingo/service.ts'
import type { Hall } from '../bingo/store/halls.ts'
import type { Clock } from '../shared/clock.ts'
import type { BonusService } from '../bingo/bonus-service.ts'
import type { LottoReceipt, LottoService, SlipInput } from '../lotto/service.ts'
import type { InstantService } from '../instant/service.ts'
import type { LotteryService } from '../lottery/service.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { PrinterPool, TicketPrinter } from '../../../printer/src/printers.ts'
import type { SalePrint, TicketPrints } from './ticket-prints.ts'
import { cardTicket, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { lottoReceiptTicket } from '../../../printer/src/lotto-ticket.ts'
import { instantSaleTicket } from '../../../printer/src/instant-ticket.ts'
import { groupCode } from '../instant/codes.ts'
import { cardFromRows, type CardLayout } from '../bingo/card.ts'
import { chosenLayoutOf } from '../bingo/modalities.ts'
import { createFifoGate } from '../shared/fifo-gate.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { encodeTicketCode, encodeTicketCodeAsync, TicketKind } from '../shared/ticket-code.ts'
import { loadSpendableVoucher, markVoucherSpent, type VoucherService, type VoucherView } from './vouchers.ts'
import { assertShiftOpen } from './shift-guard.ts'
import type { KioskOffer, KioskService } from './kiosk-sales.ts'
import {
  gameById,
  gameWithSealsById,
  hallOfStation,
  sessionNoOf,
  stationNameOf,
  insertCashMovement,
  insertKioskPurchase,
  insertSalePayment,
  seriesOfGame,
  voucherById,
  voucherParent,
} from './store.ts'
import type { PlayerAdmission } from '../access/players.ts'
import type { AmlScreen } from './cash-intake.ts'
import type { CashPieces } from '../shared/cash-count.ts'
import { assertActsInHallOf } from '../access/acting-hall.ts'
import { assertDeviceMarked, assertMarksOf } from '../access/device-marks.ts'
import { deviceMarksById, voucherFactsById, type DeviceMarksRow, type VoucherFacts } from '../access/store.ts'
import { assertOfAge } from '../shared/player-age.ts'
import { assertIdentifiedWhereRequired } from '../shared/identified-sales.ts'
import type { GroupCommit } from '../db/group-commit.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import { OPERATOR_CHAIN } from '../shared/journal-chain.ts'

/** The hall read beside a kiosk's row (`deviceMarksById` withHall); undefined: no such hall. */
function joinedHall(d: DeviceMarksRow): Hall | undefined {
  if (!d.vh_id) return undefined
  return {
    id: d.vh_id,
    name: String(d.vh_name),
    profileId: String(d.vh_profile_id),
    currency: String(d.vh_currency),
    playingPositions: Number(d.vh_playing_positions),
    settings: d.vh_settings as string,
    createdAt: String(d.vh_created_at),
  }
}

/** The people a sale names and the hall they are asked about in (read in the sale's transaction). */
interface Admitted {
  documents: string[]
  hallOf: (tx: Sql) => Promise<string | null>
}

export interface PaidSalesDeps {
  db: Database
  clock: Clock
  keys: OperatorKeys
  bingo: BingoService
  bonus: BonusService
  lotto: LottoService
  lottery: LotteryService
  instant: InstantService
  vouchers: VoucherService
  kiosk: KioskService
  printers: PrinterPool
  /** Issue 23 point 3 (GEN-23, GEN-27): the exclusion list, asked about the identities a kiosk purchase reads. */
  admission?: Pick<PlayerAdmission, 'assertAdmittedWithin' | 'journalingRefusals'>
  prints: TicketPrints
  /** The cash desk's group commit (cashdesk/service.ts), which the printed marks share. */
  salesCommit: GroupCommit
  /** Issue 29 point 4: keys the short code printed on every card (card-short-code.ts). */
  sealer: Pick<Sealer, 'tag'>
  /** Issue 24 point 4: a server without the demo (config.production) takes no DEMO seal or type approval. */
  demoReferencesRefused?: boolean
  /** Kiosk purchases worked on at once, up to their commit; the rest wait in line (fifo-gate.ts). */
  saleConcurrency?: number
}

/** Enough to fill a group commit and keep the signing threads and the disk's sync busy (bench/sales-paid.ts). */
export const DEFAULT_SALE_CONCURRENCY = 16

/** A card as the buyer holds it: `rows` the numbers of each row, `grid` the same in their columns (0 = blank). */
export interface PrintedCard {
  id: string
  serial: string
  seriesCode: string
  cardNo: number
  rows: number[][]
  grid: number[][]
  code: string
}

type InstantSale = Awaited<ReturnType<InstantService['sellElectronicWithin']>>

/** What the kiosk shows: the bingo game on sale, the lotto draw on sale, the hall's e-instant games. */
export interface KioskFullOffer extends KioskOffer {
  lotto: null | {
    drawId: string
    name: string
    drawNumber: number
    drawAt: string
    range: number
    picks: number
    priceCents: number
    currency: string
    maxBoardsPerSlip: number
    maxDrawsPerSlip: number
    categories: Array<{ code: string; name: string; matches: number; prize: LottoPrize }>
    operator: string
    issue: string
    regulationUrl: string
    legend: string
  }
  /** Empty where the hall's profile does not allow on-screen instant sales (INS-15). */
  instant: Array<{
    gameNo: number
    name: string
    priceCents: number
    currency: string
    playStyle: string
    tiers: Array<{ tier: number; amountCents: number; count: number }>
    ticketCount: number
    claimDays: number
  }>
  instantAllowed: boolean
}

export interface KioskBasket {
  voucherCode: string
  kioskId: string
  /** GEN-23: the player answered the age question (refused unless true). */
  ageConfirmed?: boolean
  /** `picks`: in a chosen-number game (BNG-98), the player's numbers, one list per card. */
  cards?: { gameId: string; count: number; picks?: number[][] }
  slips?: Array<Omit<SlipInput, 'channel'>>
  instant?: { gameNo: number; count: number }
}

export interface KioskPurchase {
  purchaseId: string
  kioskId: string
  /** The bingo game of the cards, when cards were bought. */
  gameId: string | null
  gameNo: number | null
  /** Cards bought. */
  count: number
  cards: PrintedCard[]
  slips: LottoReceipt[]
  instant: InstantSale[]
  /** What the basket cost in all. */
  amountCents: number
  currency: string
  voucherId: string
  change: VoucherView | null
  /** The paper: printed, or PRINT_PENDING (the purchase stands; the ticket is reprinted on request). */
  print: SalePrint
}

/** A voucher code's signature checked once: its id, or why it was refused; null for a short code. */
type SignedVoucher = { id: string; error?: undefined } | { id?: undefined; error: unknown } | null

/** Most lotto slips and instant tickets in one kiosk purchase. */
export const MAX_SLIPS_PER_PURCHASE = 10
export const MAX_INSTANT_PER_PURCHASE = 20
/** Most cards of one kiosk purchase whose codes are signed before its transaction. */
const SIGNED_AHEAD_MAX = 20
export function createPaidSales(deps: PaidSalesDeps) {
  const { db, clock, keys, bingo, bonus, lotto, lottery, instant, vouchers, printers, prints } = deps
  const now = () => clock.now().toISOString()
  const newId = (p: string) => bingo.newId(p)
  // Issue 23 point 5: every paid sale goes through one group-commit path, the cash desk's (cashdesk/service.ts): each
  // in its own savepoint of a batch with one commit for all, answered and printed only after that commit.
  const sales = deps.salesCommit
  const marks = { demoReferencesRefused: deps.demoReferencesRefused ?? false }
  const gate = createFifoGate(deps.saleConcurrency ?? DEFAULT_SALE_CONCURRENCY)

  async function offer(hallId: string): Promise<KioskFullOffer> {
    const base = await deps.kiosk.offer(hallId)
    const t = clock.now().getTime()
    const draw = (await lotto.listDraws()).find(
      (d) => d.status === 'open' && Date.parse(d.plan.salesStartAt) <= t && t < Date.parse(d.plan.salesCloseAt),
    )
    const instantAllowed = await instant.electronicAllowed(hallId)
    const games = instantAllowed
      ? (await instant.listGames()).filter(
          (g) => g.channel === 'electronic' && g.status === 'ready' && (g.soldElectronic ?? 0) < g.ticketCount,
        )
      : []
    return {
      ...base,
      instantAllowed,
      lotto: draw
        ? {
            drawId: draw.drawId,
            name: draw.plan.name,
            drawNumber: draw.plan.drawNumber,
            drawAt: draw.plan.drawAt,
            range: draw.plan.range,
            picks: draw.plan.picks,
            priceCents: draw.plan.priceCents,
            currency: draw.plan.currency,
            maxBoardsPerSlip: draw.plan.maxBoardsPerSlip,
            maxDrawsPerSlip: draw.plan.maxDrawsPerSlip,
            categories: draw.plan.categories.map((c) => ({
              code: c.code,
              name: c.name,
              matches: c.matches,
              prize: c.prize,
            })),
            // LNS-5 / §7.9: what the slip shows beside the grid: operator, issue, the Reglamento Específico, the legend.
            operator: draw.plan.operator,
            issue: draw.plan.issue,
            regulationUrl: draw.plan.regulationUrl,
            legend: AJ_LEGEND,
          }
        : null,
      instant: games.map((g) => ({
        gameNo: g.gameNo,
        name: g.name,
        priceCents: g.priceCents,
        currency: g.currency,
        playStyle: g.playStyle,
        tiers: g.tiers,
        ticketCount: g.ticketCount,
        claimDays: g.claimDays,
      })),
    }
  }

  /** The printed cards of a sale and their documents (BNG-5..7 layout, QR of the signed code). */
  async function cardsToPrint(
    tx: Sql,
    // The sale's game and hall as the caller read them in this transaction: a sale changes neither's printed fields.
    game: GameRow,
    hall: Awaited<ReturnType<VoucherService['hallFor']>>,
    sold: SoldCard[],
    input: {
      station: string
      at: string
      printer: TicketPrinter
      signed?: ReadonlyMap<string, string>
      /** Each series' number of cards as the sale read them; else read here. */
      cardsInSeries?: ReadonlyMap<string, number>
      /** The station's name as read before the transaction; else read here. */
      stationName?: string
    },
  ): Promise<{ cards: PrintedCard[]; docs: PrintDoc[]; faceValueCents: number; gameNo: number }> {
    const sizes =
      input.cardsInSeries ?? new Map((await seriesOfGame(tx, game.id)).map((s) => [s.code, Number(s.card_count)]))
    const layout = JSON.parse(game.layout) as CardLayout
    const face = Number(game.face_value_cents)
    // Issue 29 point 6: the paper names the station and numbers the session as people say them.
    const station = input.stationName ?? (await stationNameOf(tx, input.station))
    // Read with the game where the caller's read joined it in (a kiosk sale), else here.
    const sessionNo =
      game.session_no !== undefined
        ? Number(game.session_no) > 0
          ? Number(game.session_no)
          : null
        : await sessionNoOf(tx, game.session_id)
    // BNG-98: a chosen-number card prints the player's numbers in one row, not a cell for each of the universe's.
    const chosen = chosenLayoutOf(layout) !== null
    const cards = sold.map((c) => ({
      ...c,
      grid: chosen ? c.rows.map((r) => [...r]) : cardFromRows(c.rows, layout).grid,
      code: input.signed?.get(c.id) ?? encodeTicketCode({ kind: TicketKind.card, id: c.id }, keys.privateKey),
    }))
    const docs = cards.map((c) =>
      cardTicket(
        {
          code: c.code,
          cardId: c.id,
          hallName: hall.name,
          sessionId: game.session_id,
          sessionNo,
          gameId: game.id,
          gameNo: Number(game.order_no),
          seriesCode: c.seriesCode,
          cardNo: c.cardNo,
          serial: c.serial,
          cardsInSeries: sizes.get(c.seriesCode) ?? 0,
          faceValueCents: face,
          currency: hall.currency,
          soldAt: input.at,
          station,
          grid: c.grid,
          minimumAge: hall.minimumAge,
          shortCode: cardShortCode((v, p) => deps.sealer.tag(v, p), c.id) ?? undefined,
          authorisationRef: hall.authorisationRef, // GEN-5: as recorded, never typed per sale
        },
        // Issue 29 point 5: "Vendido" in the hall's wall-clock time, as the payout receipt prints it.
        { paper: input.printer.paper, timeZone: hall.timeZone },
      ),
    )
    return { cards, docs, faceValueCents: face, gameNo: Number(game.order_no) }
  }

  /**
   * The player of a kiosk purchase (BNG-40 / CFG-16): the identity document recorded on the voucher, or the first
   * voucher of its chain (a voucher sold at the till and the change vouchers each purchase gave back).
   */
  async function kioskPlayerKey(
    tx: Sql,
    v: { id: string; parentId: string | null; buyerDocument: string | null },
  ): Promise<string> {
    const buyer = vouchers.openDocument(v.buyerDocument)
    // Issue 24 point 2: a card's player is stored by the person's keyed hash, never the document.
    if (buyer?.trim()) return `doc:${vouchers.storedKeyOf(buyer)}`
    let root = v.id
    let parent = v.parentId
    for (let i = 0; parent && i < 10_000; i++) {
      root = parent
      parent = (await voucherParent(tx, parent)) ?? null
    }
    return `voucher:${root}`
  }

  // LNS-6 (7): the date and time of issue in the hall's wall clock (its zone, else the profile's), never the
  // server's: on a UTC server a slip sold at 21:30 in La Paz must not print the next day.
  const slipDoc = (r: LottoReceipt, station: string, printer: TicketPrinter, timeZone: string) =>
    lottoReceiptTicket({ ...r, station }, { paper: printer.paper, timeZone })
  const instantDoc = (s: InstantSale, station: string, printer: TicketPrinter, timeZone: string) =>
    instantSaleTicket({ ...s, codeText: groupCode(s.validationCode), station }, printer.paper, timeZone)

  // ------------------------------------------------------------------------------------------------ kiosk

  /**
   * Issue 23 point 5: a signed voucher code (`BLL1.V.…`) is verified once per purchase, before anything else: the
   * check reads nothing but the code and the operator's public key, so its answer cannot change, and the exclusion
   * check and the sale's transaction both take the id (or the refusal) from here, instead of verifying the signature
   * twice, once under the write lock. null: a short code typed by hand, looked up in the transaction.
   */
  async function verifySignedVoucher(code: string): Promise<SignedVoucher> {
    const typed = code.trim()
    if (!typed.startsWith('BLL1.')) return null
    try {
      // On the thread pool: the Ed25519 check is the costliest step of a sale outside its transaction.
      return { id: await vouchers.voucherIdOfAsync(typed) }
    } catch (error) {
      return { error }
    }
  }

  /**
   * Issue 23 point 5 (signed ahead): the ids of a kiosk purchase's cards, drawn before its transaction, each with its
   * signed code, signed on the thread pool instead of on the event loop under the write lock. A card's id is random
   * and says nothing of its number or series (those are taken in the transaction, BNG-12/14), so drawing it early
   * changes nothing but where the signature is computed; ids a refused sale did not use are simply never written.
   * Up to SIGNED_AHEAD_MAX cards; a larger purchase signs the rest in the transaction as before.
   */
  async function signCardsAhead(count: number): Promise<Map<string, string>> {
    const ids = Array.from({ length: Math.min(count, SIGNED_AHEAD_MAX) }, () => newId('c'))
    const codes = await Promise.all(
      ids.map((id) => encodeTicketCodeAsync({ kind: TicketKind.card, id }, keys.privateKey)),
    )
    return new Map(ids.map((id, i) => [id, codes[i]]))
  }

  /**
   * The voucher a kiosk purchase spends, read once before its transaction for what never changes on a voucher: its
   * buyer (asked about by the exclusion check, playersOf) and its hall (the scopes the sale locks, kioskScopes). Its
   * balance and status are read again and checked inside the transaction (loadSpendableVoucher). Undefined for a bad
   * signature or an unknown code: the sale's own transaction refuses those.
   */
  async function voucherBeforeSale(code: string, signed: SignedVoucher): Promise<VoucherFacts | undefined> {
    if (signed?.error) return undefined
    const id = signed?.id ?? (await vouchers.resolveVoucherId(db, code).catch(() => null))
    // Read once per request: the hall guard read the same voucher's hall for this request a moment ago.
    return id ? voucherFactsById(db, id) : undefined
  }

  /**
   * GEN-23 / GEN-27 (issue 23 point 3): the identities a kiosk purchase reads are asked about by the purchase itself,
   * in the kiosk's hall: the player named on each lotto slip and the buyer recorded on the voucher (a change voucher
   * carries the document of the voucher it is the change of). Gathered here (a voucher's buyer never changes), asked
   * about inside the sale's transaction (admittedSale); an unknown or bad voucher code is the purchase's to refuse.
   */
  async function playersOf(input: KioskBasket, voucher: VoucherFacts | undefined): Promise<Admitted | null> {
    if (!deps.admission) return null
    const documents = (input.slips ?? []).map((s) => s.player?.document ?? '').filter((d) => d.trim())
    const buyer = vouchers.openDocument(voucher?.buyerDocument)
    if (buyer?.trim()) documents.push(buyer)
    if (!documents.length) return null
    // The voucher's hall, which is the kiosk's for every purchase that can commit (the sale refuses a kiosk of another
    // hall, WRONG_HALL): one read fewer per purchase (issue 23 point 5); the kiosk's when the voucher is unknown.
    return {
      documents,
      hallOf: async (tx) => voucher?.hallId ?? (await hallOfStation(tx, input.kioskId)) ?? null,
    }
  }

  /** The buyer a terminal session's opening voucher names, asked about in the session's hall (terminalCards). */
  async function terminalPlayer(voucherId: string, hallId: string): Promise<Admitted | null> {
    if (!deps.admission) return null
    const buyer = vouchers.openDocument((await voucherById(db, voucherId))?.buyerDocument)
    return buyer?.trim() ? { documents: [buyer], hallOf: async () => hallId } : null
  }

  /**
   * GEN-23 / GEN-25 / GEN-27: a sale whose admission of the people it names is decided inside its own transaction
   * (players.ts assertAdmittedWithin), so that an exclusion recorded while the sale is under way stops it; a refusal
   * rolls the sale back and is then journaled in a transaction of its own.
   */
  function admittedSale<T>(
    who: Admitted | null,
    fn: (tx: Sql) => Promise<T>,
    options?: Parameters<typeof sales.run>[1],
  ): Promise<T> {
    const admission = deps.admission
    if (!who || !admission) return sales.run(fn, options)
    return admission.journalingRefusals(() =>
      sales.run(async (tx) => {
        await admission.assertAdmittedWithin(tx, who.documents, await who.hallOf(tx))
        return fn(tx)
      }, options),
    )
  }

  /**
   * Issue 23 point 5: a counter sale of an operator product (`chain`: `instant`, or the operator chain for a raffle's
   * tickets, whose records are the operator's) locks that chain and the station's hall (its drawer, shift and cash
   * intakes), the hall resolved from the station, never from the request; every chain at a station of no hall. A
   * sale that finds, under its locks, that it books into another hall (a station moved meanwhile, under the global
   * lock's exclusive side) runs again with every chain.
   */
  async function productCounterSale<T>(
    who: Admitted | null,
    stationId: string,
    chain: 'instant' | typeof OPERATOR_CHAIN,
    fn: (tx: Sql, inHall: (hallId: string) => void) => Promise<T>,
  ): Promise<T> {
    const stationHall = await hallOfStation(db, stationId)
    const inHall = (hallId: string) => requireChain(`hall:${hallId}`)
    return narrowOrAll(stationHall ? [`hall:${stationHall}`, chain] : undefined, (scopes) =>
      admittedSale(who, (tx) => fn(tx, inHall), scopes ? { scopes } : undefined),
    )
  }

  /**
   * Issue 23 point 5: what a kiosk purchase locks, decided from the voucher it spends (a voucher's hall never
   * changes), never from the request: the voucher's hall, and `lotto` and `instant` when the basket holds slips or
   * instant tickets (their draws and pools are shared by every hall). Every check of the sale reads the hall's own
   * rows (voucher, game, its cards and limits, the kiosk's drawer) or rows only unscoped writers change (devices,
   * halls, profiles; a hall's on-screen instant switch is written under that hall's lock), which exclude every scoped
   * one. Unscoped when the voucher is not found: the sale's own
   * transaction refuses it as before.
   */
  function kioskScopes(voucher: VoucherFacts | undefined, slips: number, instantCount: number): string[] | undefined {
    const hallId = voucher?.hallId
    if (!hallId) return undefined
    return [`hall:${hallId}`, ...(slips > 0 ? ['lotto'] : []), ...(instantCount > 0 ? ['instant'] : [])]
  }

  /**
   * One voucher buys a basket of cards, slips and e-instant tickets at a kiosk; see the top of this file. Errors:
   * INVALID_SIGNATURE / TICKET_NOT_FOUND (bad or unknown voucher), VOUCHER_SPENT, VOUCHER_EXPIRED,
   * VOUCHER_INSUFFICIENT, SALES_NOT_OPEN / SALES_CLOSED, SERIES_EXHAUSTED, RULE_DISABLED (no e-instant in this
   * hall), DEVICE_UNAVAILABLE (the kiosk's last print failed and its printer still cannot print: nothing was sold,
   * the voucher keeps its credit). A print that fails after the commit is not an error: see `print`.
   */
  async function kioskPurchase(input: KioskBasket): Promise<KioskPurchase> {
    // GEN-23 / CFG-5: the player answers the kiosk's age question; the same rule as every counter sale (takeCash).
    assertOfAge('kiosk', input.ageConfirmed)
    const cardCount = input.cards?.count ?? 0
    const slips = input.slips ?? []
    const instantCount = input.instant?.count ?? 0
    // The hall's posted limits (BNG-40, GEN-18, CFG-16) are checked in the sale's transaction (admitPurchaseWithin).
    if (input.cards && (!Number.isInteger(cardCount) || cardCount < 1 || cardCount > 100_000))
      throw new DomainError('VALIDATION_FAILED', 'count must be 1..100000', { field: 'count' })
    if (slips.length > MAX_SLIPS_PER_PURCHASE)
      throw new DomainError('VALIDATION_FAILED', `at most ${MAX_SLIPS_PER_PURCHASE} slips in one purchase`, {
        field: 'slips',
      })
    if (
      input.instant &&
      (!Number.isInteger(instantCount) || instantCount < 1 || instantCount > MAX_INSTANT_PER_PURCHASE)
    )
      throw new DomainError('VALIDATION_FAILED', `instant count must be 1..${MAX_INSTANT_PER_PURCHASE}`, {
        field: 'instant.count',
      })
    if (cardCount + slips.length + instantCount === 0)
      throw new DomainError('VALIDATION_FAILED', 'the purchase holds nothing to buy', { field: 'cards' })
    // A printer known to be broken is asked for its status first, outside the line: a stalled printer holds no place.
    await prints.ensurePrinter(input.kioskId)
    // In line with the other purchases until the commit; the paper is printed after leaving it (see fifo-gate.ts).
    await gate.enter()
    let inside = true
    const leave = () => {
      if (inside) gate.leave()
      inside = false
    }
    try {
      return await purchaseThenPrint(input, cardCount, slips, instantCount, leave)
    } finally {
      leave()
    }
  }

  async function purchaseThenPrint(
    input: KioskBasket,
    cardCount: number,
    slips: NonNullable<KioskBasket['slips']>,
    instantCount: number,
    leave: () => void,
  ): Promise<KioskPurchase> {
    // The voucher's signature checked and the cards' ids drawn and signed ahead, on the thread pool, side by side.
    const [signed, cardsAhead] = await Promise.all([verifySignedVoucher(input.voucherCode), signCardsAhead(cardCount)])
    const voucherAhead = await voucherBeforeSale(input.voucherCode, signed)
    const players = await playersOf(input, voucherAhead)
    const printer = printers.forStation(input.kioskId)
    const scopes = kioskScopes(voucherAhead, slips.length, instantCount)
    const publish: Array<() => void> = []
    const { docs, printHall, ...result } = await admittedSale(
      players,
      async (tx): Promise<Omit<KioskPurchase, 'print'> & { docs: PrintDoc[]; printHall: string }> => {
        const at = now()
        if (signed?.error) throw signed.error
        const voucherId = signed?.id ?? (await vouchers.resolveVoucherId(tx, input.voucherCode))
        const v = await loadSpendableVoucher(tx, voucherId, at)
        // Issue 23 point 5: the kiosk's row is read once, in this transaction, for its hall, its marks and its name
        // on the paper (three reads before). A kiosk revoked meanwhile is refused by its credential's check on the
        // request; an unenrolled station id (authentication off) has no row, and its name is looked up as before.
        // The voucher's hall comes back with it (one round trip under the hall's lock instead of two).
        const kiosk = await deviceMarksById(tx, input.kioskId, { withHall: v.hallId })
        // A kiosk enrolled in a hall takes only that hall's vouchers, and only from someone of that hall (issue 23
        // point 3: decided from the voucher and the kiosk, whatever code or body the request came with).
        assertActsInHallOf(v.hallId, {
          stationId: input.kioskId,
          stationHalls: kiosk?.hall_id ? [kiosk.hall_id] : [],
          resource: 'voucher',
        })
        // Issue 26 (GEN-7): a kiosk sells only with the seal code (and type approval) its hall's profile requires.
        assertMarksOf(tx, kiosk, marks)
        const stationName = kiosk?.name ?? (await stationNameOf(tx, input.kioskId))
        // The hall's row read once for the paper, GEN-25 and the card purchase's checks (issue 23 point 5).
        const hallRow = kiosk ? joinedHall(kiosk) : await bingo.hallWithin(tx, v.hallId)
        if (!hallRow) throw new DomainError('NOT_FOUND', `hall ${v.hallId} not found`, { hallId: v.hallId })
        const hall = vouchers.hallView({ ...hallRow, profile_id: hallRow.profileId })
        // GEN-25: a hall that sells only to identified players takes only a voucher that names its buyer.
        assertIdentifiedWhereRequired(hall, vouchers.openDocument(v.buyerDocument), 'kiosk')
        const purchaseId = newId('kp')
        const docs: PrintDoc[] = []
        const paid: Array<{
          product: 'card' | 'slip' | 'instant'
          refId: string
          amountCents: number
          currency: string
        }> = []
        let cards: PrintedCard[] = []
        let gameNo: number | null = null
        if (input.cards) {
          // Read once, with its seal: the sale's checks, its admission and the price check of the sale itself.
          const game = await gameWithSealsById(tx, input.cards.gameId)
          if (!game)
            throw new DomainError('GAME_NOT_FOUND', `game ${input.cards.gameId} not found`, {
              gameId: input.cards.gameId,
            })
          if (game.hall_id !== v.hallId)
            throw new DomainError('VALIDATION_FAILED', `voucher ${v.id} belongs to another hall`, {
              field: 'voucherCode',
            })
          const face = Number(game.face_value_cents)
          // Refused before any card is taken, with how many the voucher can buy.
          if (cardCount * face > v.amountCents)
            throw new DomainError(
              'VOUCHER_INSUFFICIENT',
              `the voucher holds ${v.amountCents}, ${cardCount} cards cost ${cardCount * face}`,
              { amountCents: v.amountCents, costCents: cardCount * face, maxCards: Math.floor(v.amountCents / face) },
            )
          // BNG-40 / GEN-18 / CFG-16 / BNG-93 / BNG-19 / BNG-15: the player is the voucher's buyer (its document) or
          // the chain of vouchers it comes from (a purchase's change pays the same player's next one).
          const playerKey = await kioskPlayerKey(tx, v)
          await bingo.admitPurchaseWithin(tx, {
            gameId: game.id,
            hallId: game.hall_id,
            count: cardCount,
            playerKey,
            channel: 'kiosk',
            hall: hallRow,
            gameRow: game,
          })
          // BNG-12/13: correlative sale through the bingo service, inside this transaction.
          const sale = await bingo.sellWithin(tx, {
            gameId: game.id,
            count: cardCount,
            channel: `kiosk:${input.kioskId}`,
            cardIds: [...cardsAhead.keys()],
            picks: input.cards.picks,
            gameRow: game,
          })
          await bingo.recordPurchaseWithin(tx, {
            gameId: game.id,
            hallId: game.hall_id,
            playerKey,
            cardIds: sale.cards.map((c) => c.id),
          })
          publish.push(sale.publish)
          const printed = await cardsToPrint(tx, game, hall, sale.cards, {
            station: input.kioskId,
            at,
            printer,
            signed: cardsAhead,
            cardsInSeries: sale.cardsInSeries,
            stationName,
          })
          cards = printed.cards
          gameNo = printed.gameNo
          docs.push(...printed.docs)
          for (const c of cards) paid.push({ product: 'card', refId: c.id, amountCents: face, currency: hall.currency })
        }
        const slipReceipts: LottoReceipt[] = []
        for (const s of slips) {
          const r = await lotto.sellSlipWithin(tx, { ...s, channel: `kiosk:${input.kioskId}` }, at)
          slipReceipts.push(r)
          docs.push(slipDoc(r, stationName, printer, hall.timeZone))
          paid.push({ product: 'slip', refId: r.receiptNumber, amountCents: r.amountCents, currency: r.currency })
        }
        const instantSales: InstantSale[] = []
        for (let i = 0; i < instantCount; i++) {
          const s = await instant.sellElectronicWithin(tx, {
            hallId: v.hallId,
            gameNo: input.instant!.gameNo,
            stationId: input.kioskId,
          })
          instantSales.push(s)
          docs.push(instantDoc(s, stationName, printer, hall.timeZone))
          paid.push({ product: 'instant', refId: s.serial, amountCents: s.priceCents, currency: s.currency })
        }
        for (const p of paid) {
          if (p.currency !== v.currency)
            throw new DomainError('VALIDATION_FAILED', `a ${v.currency} voucher cannot pay for ${p.currency} items`, {
              field: 'voucherCode',
            })
        }
        const costCents = paid.reduce((s, p) => s + p.amountCents, 0)
        if (costCents > v.amountCents)
          throw new DomainError(
            'VOUCHER_INSUFFICIENT',
            `the voucher holds ${v.amountCents}, the purchase costs ${costCents}`,
            { amountCents: v.amountCents, costCents },
          )
        const changeCents = v.amountCents - costCents
        await markVoucherSpent(tx, v, { at, station: input.kioskId, for: 'purchase', ref: purchaseId })
        for (const p of paid) {
          await insertSalePayment(tx, {
            id: newId('sp'),
            hallId: v.hallId,
            stationId: input.kioskId,
            soldBy: input.kioskId,
            ...p,
            paidBy: 'voucher',
            paymentRef: v.id,
            at,
          })
        }
        const change =
          changeCents > 0
            ? await vouchers.issue(tx, {
                hallId: v.hallId,
                currency: v.currency,
                amountCents: changeCents,
                origin: 'change',
                parentId: v.id,
                stationId: input.kioskId,
                issuedBy: input.kioskId,
                smallCents: 0,
                otherCents: 0,
                buyerDocument: v.buyerDocument,
                at,
              })
            : null
        if (input.cards) {
          await insertKioskPurchase(tx, {
            id: purchaseId,
            kioskId: input.kioskId,
            hallId: v.hallId,
            gameId: input.cards.gameId,
            voucherId: v.id,
            changeVoucherId: change?.id ?? null,
            cardCount: cards.length,
            amountCents: costCents,
            cardIds: cards.map((c) => c.id),
            createdAt: at,
          })
        }
        // Issue 24 point 1: written after the change voucher and the purchase row, so that it seals them all.
        await appendJournal(tx, {
          at,
          type: 'voucher.redeemed',
          scope: `hall:${v.hallId}`,
          payload: {
            voucherId: v.id,
            purchaseId,
            kioskId: input.kioskId,
            gameId: input.cards?.gameId ?? null,
            amountCents: v.amountCents,
            costCents,
            changeCents,
            cardIds: cards.map((c) => c.id),
            slips: slipReceipts.map((r) => r.receiptNumber),
            instant: instantSales.map((s) => s.serial),
            ageConfirmed: true,
          },
        })
        if (change) {
          docs.push(vouchers.ticketOf(change, hall, { station: stationName, origin: 'change', paper: printer.paper }))
        }
        // The paper this purchase owes, committed with it; printed after the commit.
        await prints.recordWithin(tx, {
          ref: purchaseId,
          hallId: v.hallId,
          stationId: input.kioskId,
          voucherId: v.id,
          docs,
          at,
          items: {
            cards: cards.map((c) => c.id),
            slips: slipReceipts.map((r) => r.receiptNumber),
            instant: instantSales.map((s) => s.serial),
            change: change?.id ?? null,
          },
        })
        return {
          purchaseId,
          kioskId: input.kioskId,
          gameId: input.cards?.gameId ?? null,
          gameNo,
          count: cards.length,
          cards,
          slips: slipReceipts,
          instant: instantSales,
          amountCents: costCents,
          currency: hall.currency,
          voucherId: v.id,
          change: change ? vouchers.view(change, at) : null,
          docs,
          printHall: v.hallId,
        }
      },
      { scopes },
    )
    leave()
    for (const p of publish) p()
    const print = await prints.printSale(
      { ref: result.purchaseId, stationId: input.kioskId, hallId: printHall },
      docs,
      `kiosk-${result.purchaseId}`,
    )
    return { ...result, print }
  }

  // ------------------------------------------------------------------------------------------------ counter

  /**
   * Records the cash of a counter sale in the station's drawer and names it as the payment of each item, inside the
   * sale's transaction (issue 13); with its denominations and buyer, on the one GEN-17 path of every cash intake
   * (cash-intake.ts, issue 24 point 6): the buyer's day adds up their voucher and counter sales.
   */
  async function takeCash(
    tx: Sql,
    sale: {
      saleId: string
      hallId: string
      stationId: string
      soldBy: string
      shiftId?: string | null
      at: string
      currency: string
      cash: CashPieces | null
      buyerDocument: string | null
      /** GEN-23: the seller confirmed the player is of age (the staff's tick on the cashier or table screen). */
      ageConfirmed: boolean | undefined
      items: Array<{ product: 'card' | 'slip' | 'instant' | 'raffle'; refId: string; amountCents: number }>
    },
  ): Promise<{ amountCents: number; aml: AmlScreen }> {
    // GEN-23: every counter sale (cards, slips, instant, raffle; cashier station or the caller's table) takes its
    // cash here and nowhere else, so the age confirmation is asked here, before any cash moves.
    assertOfAge('counter', sale.ageConfirmed)
    // The shift is checked here, inside the sale's transaction (issue 23): a sale racing the close of its shift
    // lands in it before the close or is refused, never in a closed shift.
    await assertShiftOpen(tx, sale.shiftId ?? null, sale.stationId, marks)
    const amountCents = sale.items.reduce((s, i) => s + i.amountCents, 0)
    // A drawer holds its hall's currency: a draw priced in another is not sold for this drawer's cash.
    if (sale.hallId) {
      const hall = await vouchers.hallFor(tx, sale.hallId)
      // GEN-25: where the hall requires it, the sale names its buyer (already asked about on the exclusion list).
      assertIdentifiedWhereRequired(hall, sale.buyerDocument, 'counter')
      if (hall.currency !== sale.currency)
        throw new DomainError(
          'VALIDATION_FAILED',
          `priced in ${sale.currency}, but this drawer holds ${hall.currency}`,
          { field: 'currency', currency: sale.currency, drawer: hall.currency },
        )
    }
    const movementId = newId('cm')
    // One product per counter sale (cards, a slip or an instant ticket): the shift report sums it under that product.
    const product = sale.items[0]?.product ?? 'card'
    await insertCashMovement(tx, {
      id: movementId,
      hallId: sale.hallId,
      stationId: sale.stationId,
      cashierId: sale.soldBy,
      kind: 'counter_sale',
      amountCents,
      currency: sale.currency,
      refId: sale.saleId,
      at: sale.at,
      shiftId: sale.shiftId ?? null,
      product,
    })
    for (const i of sale.items) {
      await insertSalePayment(tx, {
        id: newId('sp'),
        hallId: sale.hallId,
        stationId: sale.stationId,
        soldBy: sale.soldBy,
        ...i,
        currency: sale.currency,
        paidBy: 'cash',
        paymentRef: movementId,
        at: sale.at,
      })
    }
    // CFG-2: a count by denomination split by the hall's profile; the intake and the journal record that split.
    const counted = await vouchers.intakes.split(tx, sale.hallId, sale.cash)
    const aml = await vouchers.intakes.record(tx, {
      hallId: sale.hallId,
      stationId: sale.stationId,
      cashierId: sale.soldBy,
      source: 'counter_sale',
      refId: sale.saleId,
      amountCents,
      currency: sale.currency,
      cash: counted,
      buyerDocument: sale.buyerDocument,
      at: sale.at,
    })
    await appendJournal(tx, {
      at: sale.at,
      type: 'sale.cash_taken',
      scope: `hall:${sale.hallId}`,
      payload: {
        saleId: sale.saleId,
        movementId,
        stationId: sale.stationId,
        soldBy: sale.soldBy,
        amountCents,
        currency: sale.currency,
        items: sale.items.map((i) => `${i.product}:${i.refId}`),
        smallCents: counted?.smallCents ?? null,
        otherCents: counted?.otherCents ?? null,
        counted: counted !== null,
        ageConfirmed: true,
        rule: 'GEN-17',
      },
    })
    return { amountCents, aml }
  }

  /**
   * GEN-23 / GEN-27 / GEN-17 (issue 24 point 6): the people a counter sale names, asked about on the exclusion list
   * (by their key, however the document was typed) in the station's hall, inside the sale's transaction
   * (admittedSale).
   */
  function namedAtCounter(
    input: Counter & { hallId?: string | null },
    documents: Array<string | null | undefined>,
  ): Admitted | null {
    const named = documents.filter((d): d is string => typeof d === 'string' && d.trim().length > 0)
    if (!named.length) return null
    return {
      documents: named,
      hallOf: async (tx) => (await hallOfStation(tx, input.stationId)) ?? input.hallId ?? null,
    }
  }

  /**
   * The drawer: the station, the person selling and their open shift (null only with authentication off); the cash
   * count (GEN-17: null or absent, not counted, allowed up to the limit only) and the buyer's document when recorded.
   */
  interface Counter {
    stationId: string
    soldBy: string
    shiftId?: string | null
    cash?: CashPieces | null
    buyerDocument?: string | null
    /** GEN-23: the seller's confirmation that the player is of age (required; refused in takeCash without it). */
    ageConfirmed?: boolean
  }
  const buyerOf = (input: Counter, named?: string | null) => input.buyerDocument?.trim() || named?.trim() || null

  /**
   * Issue 23 point 5: what a counter card sale locks. The game's hall (its game, cards, limits and, for a
   * simultaneous game, its halls' ranges and count of cards sold: BNG-100), read before the transaction (a game never
   * changes hall); the station's hall (its drawer and shift: the close of the shift locks it too; a station's hall
   * changes only under the global lock's exclusive side); and for a simultaneous game's hall range (BNG-100) the hall
   * it sells in (its series cursor, cash intakes and drawer). Every other row the sale reads to decide (halls,
   * profiles, devices, the exclusion list) changes only under the global lock's exclusive side. Every chain when
   * the game is unknown (refused as before).
   */
  async function counterCardScopes(input: { gameId: string; hallId?: string; stationId: string }) {
    const gameHall = (await gameById(db, input.gameId))?.hall_id
    if (!gameHall) return undefined
    const stationHall = await hallOfStation(db, input.stationId)
    return [gameHall, stationHall, input.hallId].filter((h): h is string => Boolean(h)).map((h) => `hall:${h}`)
  }

  /**
   * Cards sold at a counter (cashier station, the caller's table): the cash goes into the station's drawer, and the
   * cards are printed on its printer after the commit (a failed print: PRINT_PENDING, reprinted on request).
   * `hallId`: a simultaneous game's hall range (BNG-100).
   */
  async function counterCards(
    input: Counter & {
      gameId: string
      count: number
      hallId?: string
      playerDocument?: string | null
      /** CFG-7: the counter's till or the caller's table, from who sells (http/station.ts tillChannel). */
      saleChannel?: 'counter' | 'table'
      /** BNG-98: in a chosen-number game, the buyer's numbers, one list per card. */
      picks?: number[][]
    },
  ) {
    const buyerDocument = buyerOf(input, input.playerDocument)
    const named = namedAtCounter(input, [input.playerDocument, input.buyerDocument])
    const printer = printers.forStation(input.stationId)
    await prints.ensurePrinter(input.stationId)
    const scopes = await counterCardScopes(input)
    let publish = () => {}
    const { docs, printHall, ...result } = await admittedSale(
      named,
      async (tx) => {
        const at = now()
        const channel = `counter:${input.stationId}`.slice(0, 40)
        // BNG-40 / GEN-18 / CFG-16 / BNG-93 / BNG-19 / BNG-15: the hall's posted limits for this purchase; counted per
        // player when the seller records the player's identity document, otherwise per purchase only.
        const sellingHall = input.hallId ?? (await gameById(tx, input.gameId))?.hall_id ?? ''
        // The player whose cards are counted is the one the seller names (or the buyer recorded), by their key.
        const player = input.playerDocument?.trim() || buyerDocument
        const playerKey = player ? `doc:${vouchers.storedKeyOf(player)}` : null
        await bingo.admitPurchaseWithin(tx, {
          gameId: input.gameId,
          hallId: sellingHall,
          count: input.count,
          playerKey,
          channel: input.saleChannel ?? 'counter',
        })
        const sale = input.hallId
          ? await bonus.sellInHallWithin(tx, {
              gameId: input.gameId,
              hallId: input.hallId,
              count: input.count,
              channel,
            })
          : await bingo.sellWithin(tx, { gameId: input.gameId, count: input.count, channel, picks: input.picks })
        publish = sale.publish
        const game = (await gameById(tx, input.gameId))!
        const hallId = input.hallId ?? game.hall_id
        await bingo.recordPurchaseWithin(tx, {
          gameId: game.id,
          hallId,
          playerKey,
          cardIds: sale.cards.map((c) => c.id),
        })
        const hall = await vouchers.hallFor(tx, hallId)
        const printed = await cardsToPrint(tx, game, hall, sale.cards, { station: input.stationId, at, printer })
        const saleId = newId('cs')
        const { amountCents, aml } = await takeCash(tx, {
          saleId,
          hallId,
          stationId: input.stationId,
          soldBy: input.soldBy,
          shiftId: input.shiftId,
          at,
          currency: hall.currency,
          cash: input.cash ?? null,
          buyerDocument,
          ageConfirmed: input.ageConfirmed,
          items: printed.cards.map((c) => ({
            product: 'card' as const,
            refId: c.id,
            amountCents: printed.faceValueCents,
          })),
        })
        await prints.recordWithin(tx, {
          ref: saleId,
          hallId,
          stationId: input.stationId,
          voucherId: null,
          docs: printed.docs,
          at,
          items: { cards: printed.cards.map((c) => c.id) },
        })
        return {
          saleId,
          cards: printed.cards,
          amountCents,
          currency: hall.currency,
          stationId: input.stationId,
          aml,
          docs: printed.docs,
          printHall: hallId,
        }
      },
      scopes ? { scopes } : undefined,
    )
    publish()
    const print = await prints.printSale(
      { ref: result.saleId, stationId: input.stationId, hallId: printHall },
      docs,
      `counter-${result.saleId}`,
    )
    return { ...result, print }
  }

  /**
   * Issue 27 (BNG-101, BNG-9): virtual cards bought at an enrolled hall terminal, paid from its session's balance, a
   * cash-desk account opened with a credit voucher (terminals/service.ts). The same path as a kiosk's cards: the
   * hall's posted limits for the voucher's player (one terminal, one seat), the correlative sale through the bingo
   * service (on the `terminal:` channel, which takes the range of each series reserved for terminals), a
   * `sale_payments` row per card naming the session, all in one group-committed transaction. `pay` debits the
   * account (caps and balance, refused before any card is taken); `hold` gives the cards to the session and journals
   * the purchase. No paper: the cards live on the terminal's screen.
   */
  async function terminalCards(input: {
    terminalId: string
    /** The terminal session's hall (BNG-100: in a simultaneous game it sells from this hall's range). */
    hallId: string
    gameId: string
    count: number
    /** The session's opening voucher: the player whose cards are counted (BNG-40 / CFG-16, BNG-93). */
    voucherId: string
    pay: (
      tx: Sql,
      sale: { gameId: string; hallId: string; faceValueCents: number; count: number; at: string },
    ) => Promise<{ paymentRef: string; currency: string }>
    hold: (tx: Sql, sale: { gameId: string; cards: SoldCard[]; costCents: number; at: string }) => Promise<void>
  }) {
    if (!Number.isInteger(input.count) || input.count < 1 || input.count > 1000)
      throw new DomainError('VALIDATION_FAILED', 'count must be 1..1000', { field: 'count' })
    let publish = () => {}
    // GEN-23 / GEN-25 / GEN-27: the player of the session (the buyer its opening voucher records) is asked about
    // inside the purchase's transaction, as at a kiosk: an exclusion recorded after the session opened, or while the
    // purchase is under way, stops it. A voucher's buyer never changes, so it is read before.
    const player = await terminalPlayer(input.voucherId, input.hallId)
    const result = await admittedSale(player, async (tx) => {
      const at = now()
      // Issue 26 (GEN-7): a terminal is a medio de juego; it sells only sealed where its hall's profile says so.
      await assertDeviceMarked(tx, input.terminalId, marks)
      const game = await gameById(tx, input.gameId)
      if (!game) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} not found`, { gameId: input.gameId })
      const face = Number(game.face_value_cents)
      // BNG-100: a simultaneous (interconnected) game is sold by each hall that plays it from its own range; the
      // selling hall is the terminal's, and only when that hall takes part. A one-hall game: the game's hall.
      const playing = await bonus.gameHallsWithin(tx, game.id)
      const simultaneous = playing.length > 0
      if (simultaneous && !playing.includes(input.hallId))
        throw new DomainError('WRONG_HALL', "the terminal's hall does not play this interconnected game (BNG-100)", {
          resource: 'game',
          rule: 'BNG-100',
        })
      const sellingHall = simultaneous ? input.hallId : game.hall_id
      const { paymentRef, currency } = await input.pay(tx, {
        gameId: game.id,
        hallId: sellingHall,
        faceValueCents: face,
        count: input.count,
        at,
      })
      const voucher = await voucherById(tx, input.voucherId)
      const playerKey = voucher ? await kioskPlayerKey(tx, voucher) : `${TERMINAL_CHANNEL}${input.terminalId}`
      await bingo.admitPurchaseWithin(tx, {
        gameId: game.id,
        hallId: sellingHall,
        count: input.count,
        playerKey,
        channel: 'terminal',
      })
      const channel = `${TERMINAL_CHANNEL}${input.terminalId}`
      // In a simultaneous game the hall's one cursor hands out its range correlatively to counters and terminals
      // alike: every card of that range is issued at its sale, so paper and virtual cards cannot clash there.
      const sale = simultaneous
        ? await bonus.sellInHallWithin(tx, { gameId: game.id, hallId: sellingHall, count: input.count, channel })
        : await bingo.sellWithin(tx, { gameId: game.id, count: input.count, channel })
      publish = sale.publish
      await bingo.recordPurchaseWithin(tx, {
        gameId: game.id,
        hallId: sellingHall,
        playerKey,
        cardIds: sale.cards.map((c) => c.id),
      })
      for (const c of sale.cards) {
        await insertSalePayment(tx, {
          id: newId('sp'),
          hallId: sellingHall,
          stationId: input.terminalId,
          soldBy: input.terminalId,
          product: 'card',
          refId: c.id,
          amountCents: face,
          currency,
          paidBy: 'terminal',
          paymentRef,
          at,
        })
      }
      const costCents = face * sale.cards.length
      // Written last: its journal record seals the sale payments above (issue 24 point 1).
      await input.hold(tx, { gameId: game.id, cards: sale.cards, costCents, at })
      const layout = JSON.parse(game.layout) as CardLayout
      return {
        gameId: game.id,
        faceValueCents: face,
        costCents,
        cards: sale.cards.map((c) => ({ ...c, grid: cardFromRows(c.rows, layout).grid })),
      }
    })
    publish()
    return result
  }

  /**
   * A lotto slip sold at a counter: the cash into the drawer in the slip's transaction, then its receipt (LNS-2,
   * LNS-6: every field and the QR of its bearer code, the paper the prize is paid against) printed on the station's
   * printer after the commit, as the kiosk prints it. The receipt PDF (GET /api/lotto/slips/:r/receipt.pdf) is a
   * copy without the QR, stamped as not valid for payment: it is no longer what the counter hands the player.
   * A print that fails leaves the slip sold and its paper owed (PRINT_PENDING, reprinted on request).
   */
  async function counterSlip(input: Counter & { slip: SlipInput }) {
    // LNS-6 (5) / GEN-16: the slip names its player, who is its buyer unless the cashier records another document.
    const buyerDocument = buyerOf(input, input.slip.player?.document)
    const named = namedAtCounter(input, [input.slip.player?.document, input.buyerDocument])
    const printer = printers.forStation(input.stationId)
    await prints.ensurePrinter(input.stationId)
    // Issue 23 point 5: the slip locks the lotto chain (its draw's sales, shared by every hall) and the station's hall
    // (its drawer, shift and cash intakes), resolved from the station, never from the request. Every other row it
    // reads to decide (the draw's plan, halls, profiles, devices, the exclusion list) changes only under the lotto
    // lock or the global lock's exclusive side. Every chain at a station of no hall (authentication off).
    const stationHall = await hallOfStation(db, input.stationId)
    const scopes = stationHall ? [`hall:${stationHall}`, 'lotto'] : undefined
    const { docs, ...result } = await admittedSale(
      named,
      async (tx) => {
        const at = now()
        const receipt = await lotto.sellSlipWithin(tx, { ...input.slip, channel: input.slip.channel || 'counter' }, at)
        const saleId = newId('cs')
        const hallId = (await hallOfStation(tx, input.stationId)) ?? ''
        const { aml } = await takeCash(tx, {
          saleId,
          hallId,
          stationId: input.stationId,
          soldBy: input.soldBy,
          shiftId: input.shiftId,
          at,
          currency: receipt.currency,
          cash: input.cash ?? null,
          buyerDocument,
          ageConfirmed: input.ageConfirmed,
          items: [{ product: 'slip', refId: receipt.receiptNumber, amountCents: receipt.amountCents }],
        })
        // The hall's wall clock (LNS-6 (7)); with authentication off no station names a hall.
        const timeZone = hallId ? (await vouchers.hallFor(tx, hallId)).timeZone : 'UTC'
        const docs = [slipDoc(receipt, await stationNameOf(tx, input.stationId), printer, timeZone)]
        await prints.recordWithin(tx, {
          ref: saleId,
          hallId,
          stationId: input.stationId,
          voucherId: null,
          docs,
          at,
          items: { slips: [receipt.receiptNumber] },
        })
        return {
          ...receipt,
          payment: {
            saleId,
            stationId: input.stationId,
            amountCents: receipt.amountCents,
            paidBy: 'cash' as const,
            aml,
          },
          docs,
        }
      },
      scopes ? { scopes } : undefined,
    )
    const print = await prints.printSale(
      { ref: result.payment.saleId, stationId: input.stationId },
      docs,
      `slip-${result.receiptNumber}`,
    )
    return { ...result, print }
  }

  /** A pre-printed instant ticket sold at a counter by its inventory code: cash into the drawer (the paper exists). */
  async function counterInstantPrinted(input: Counter & { code: string; hallId?: string }) {
    const buyerDocument = buyerOf(input)
    const named = namedAtCounter(input, [buyerDocument])
    return productCounterSale(named, input.stationId, 'instant', async (tx, inHall) => {
      const hallId = input.hallId ?? (await hallOfStation(tx, input.stationId)) ?? undefined
      if (hallId) inHall(hallId)
      const sale = await instant.sellPrintedWithin(tx, { code: input.code, stationId: input.stationId, hallId })
      const saleId = newId('cs')
      const { aml } = await takeCash(tx, {
        saleId,
        hallId: hallId ?? '',
        stationId: input.stationId,
        soldBy: input.soldBy,
        shiftId: input.shiftId,
        at: sale.soldAt,
        currency: sale.currency,
        cash: input.cash ?? null,
        buyerDocument,
        ageConfirmed: input.ageConfirmed,
        items: [{ product: 'instant', refId: sale.serial, amountCents: sale.priceCents }],
      })
      return {
        ...sale,
        payment: { saleId, stationId: input.stationId, amountCents: sale.priceCents, paidBy: 'cash' as const, aml },
      }
    })
  }

  /**
   * An e-instant ticket sold at a counter: cash into the drawer, then the ticket printed with its QR after the
   * commit (its outcome reaches no printer before the sale is a fact).
   */
  async function counterInstantElectronic(input: Counter & { hallId: string; gameNo: number }) {
    const buyerDocument = buyerOf(input)
    const named = namedAtCounter(input, [buyerDocument])
    const printer = printers.forStation(input.stationId)
    await prints.ensurePrinter(input.stationId)
    const { docs, ...result } = await productCounterSale(named, input.stationId, 'instant', async (tx, inHall) => {
      inHall(input.hallId)
      const sale = await instant.sellElectronicWithin(tx, {
        hallId: input.hallId,
        gameNo: input.gameNo,
        stationId: input.stationId,
      })
      const saleId = newId('cs')
      const { aml } = await takeCash(tx, {
        saleId,
        hallId: input.hallId,
        stationId: input.stationId,
        soldBy: input.soldBy,
        shiftId: input.shiftId,
        at: sale.soldAt,
        currency: sale.currency,
        cash: input.cash ?? null,
        buyerDocument,
        ageConfirmed: input.ageConfirmed,
        items: [{ product: 'instant', refId: sale.serial, amountCents: sale.priceCents }],
      })
      const docs = [
        instantDoc(
          sale,
          await stationNameOf(tx, input.stationId),
          printer,
          (await vouchers.hallFor(tx, input.hallId)).timeZone,
        ),
      ]
      await prints.recordWithin(tx, {
        ref: saleId,
        hallId: input.hallId,
        stationId: input.stationId,
        voucherId: null,
        docs,
        at: sale.soldAt,
        items: { instant: [sale.serial] },
      })
      return {
        ...sale,
        payment: { saleId, stationId: input.stationId, amountCents: sale.priceCents, paidBy: 'cash' as const, aml },
        docs,
      }
    })
    const print = await prints.printSale(
      { ref: result.payment.saleId, stationId: input.stationId },
      docs,
      `instant-${result.serial}`,
    )
    return { ...result, receipt: print.printed ? { printed: true as const, files: print.files } : print }
  }

  /**
   * Raffle or tombola tickets sold at a counter (PRM-1): the cash into the drawer in the tickets' transaction. Issue
   * 13 point 2: no route issues them without it (the back office only reads raffles).
   */
  async function counterRaffle(
    input: Counter & { drawId: string; count?: number; numbers?: number[]; buyerName?: string },
  ) {
    const buyerDocument = buyerOf(input)
    const named = namedAtCounter(input, [buyerDocument])
    return productCounterSale(named, input.stationId, OPERATOR_CHAIN, async (tx, inHall) => {
      const sale = await lottery.sellRaffleTicketsWithin(tx, input.drawId, {
        count: input.count,
        numbers: input.numbers,
        buyerName: input.buyerName,
        channel: `counter:${input.stationId}`.slice(0, 40),
      })
      const saleId = newId('cs')
      const hallId = (await hallOfStation(tx, input.stationId)) ?? ''
      if (hallId) inHall(hallId)
      const at = sale.tickets[0]?.soldAt ?? now()
      const { aml } = await takeCash(tx, {
        saleId,
        hallId,
        stationId: input.stationId,
        soldBy: input.soldBy,
        shiftId: input.shiftId,
        at,
        currency: sale.currency,
        cash: input.cash ?? null,
        buyerDocument,
        ageConfirmed: input.ageConfirmed,
        items: sale.tickets.map((t) => ({
          product: 'raffle' as const,
          refId: t.ticketId,
          amountCents: sale.priceCents,
        })),
      })
      return {
        ...sale,
        payment: { saleId, stationId: input.stationId, amountCents: sale.amountCents, paidBy: 'cash' as const, aml },
      }
    })
  }

  return {
    offer,
    kioskPurchase,
    counterCards,
    terminalCards,
    counterRaffle,
    counterSlip,
    counterInstantPrinted,
    counterInstantElectronic,
    stats: sales.stats,
  }
}

export type PaidSales = ReturnType<typeof createPaidSales>
