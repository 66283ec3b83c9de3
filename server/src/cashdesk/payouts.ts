/**
 * Cashier validation and payout of bingo cards by their signed code (REGULATIONS.md §8), and the prize register
 * (libro de registro de premios, §7.13: INS-5, LNS-25).
 *
 * Issue 23: this is the one door for every prize a card can win: line, bingo, and the bonus prizes (prima, progressive
 * and interconnected pots, lucky ball). Paying a card's code pays all its unpaid prizes at once, under one payout,
 * with the same checks for every kind (lost/stolen, custody, claim period, no-transfer, payee identity), out of the
 * payer's own open shift, in the hall of the card.
 *
 * Outcomes of a scan (§8), checked in this order:
 * - invalid: the signature fails (a code is never trusted otherwise), the code is not a card, or no such card
 *   was ever sold;
 * - blocked: reported lost or stolen (LST-4, LST-5: neither paid, refunded nor exchanged);
 * - held: kept as evidence of a claim, incident or alteration (BNG-87 (a), BNG-92: not paid while held);
 * - destroyed: the hall destroyed it (BNG-87): nothing is paid or refunded against it any more;
 * - void: the game was annulled and its cards refunded (BNG-80 to BNG-83: refund only);
 * - pending: the game has not finished; prizes are paid at its end (BNG-71);
 * - not_winner; paid (when, at which station, by whom: ALREADY PAID);
 * - expired: presented after BOLILLO_PRIZE_CLAIM_DAYS from the end of the game;
 * - winner: amount and prize ids; `idRequired` from BOLILLO_ID_REQUIRED_PRIZE_CENTS up (GEN-26, §7.13).
 * Every scan is journaled with the station, the cashier and the time (§8).
 *
 * Paying once. The payout re-evaluates the card inside one transaction and moves its prizes from awarded to paid
 * with a conditional UPDATE (`... AND status = 'awarded'`); the payouts table also holds one row per card at most.
 * When several stations scan the same card at once, exactly one transaction pays; the others find it paid and
 * answer 409 ALREADY_PAID. A serialisation conflict (PostgreSQL) is retried, and then finds the card paid.
 *
 * The receipt is printed after the commit: paying is a fact whether or not the paper comes out, the lock is not
 * held while a printer answers, and a failed receipt is reprinted from the payout (the answer says it failed).
 *
 * Personal data of the payee (name, document) is kept in the payouts table, not in the hash-chained journal,
 * which cannot forget; the journal records the payout and whether a payee was identified.
 */
import { cardIdOfShortCode, readCardShortCode } from './card-short-code.ts'
import { parseTypedSerial } from '../bingo/typed-serial.ts'
import { DAY_MS, type CashdeskDeps, type VoucherService } from './vouchers.ts'
import { appendJournal } from '../shared/journal.ts'
import { maskDocument, openDocumentAtRest, sealDocumentAtRest } from '../shared/document-at-rest.ts'
import { assertRowsSealed, rowTampered } from '../shared/row-seals.ts'
import type { Sql } from '../db/database.ts'
import { cardFromRows, type CardLayout } from '../bingo/card.ts'
import { DomainError } from '../shared/errors.ts'
import { marksPolicy, sealCodeOfDevice } from '../access/device-marks.ts'
import { assertActsInHallOf } from '../access/acting-hall.ts'
import { encodeTicketCode, TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { PrintResult } from '../../../printer/src/printers.ts'
import { CardCustody } from '../bingo/card-custody.ts'
import { archiveOnPayout } from '../bingo/card-custody-service.ts'
import { awardsStayInHall, cameraRecord } from '../bingo/context.ts'
import { cardById } from '../bingo/store/sales.ts'
import { gameById } from '../bingo/store/games.ts'
import { hallOfStation, journaledSettlements } from './store.ts'
import { narrowOrAll, requireChain, ScopesTooNarrow } from '../db/scopes.ts'
import { chainOfScope, OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import { cardCustodyState } from '../bingo/store/custody.ts'
import { copyDoc, payoutReceipt, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { ticketPreviewDataUrl } from '../../../printer/src/preview.ts'
import {
  blockedTicket,
  cardIdBySerial,
  cardJoin,
  cardWithHall,
  insertBlockedTicket,
  deleteBlockedTicket,
  insertPayout,
  markPrizesPaid,
  paidPrizeRows,
  payoutJoin,
  payoutOfCard,
  prizesByIds,
  prizesOfCard,
  prizeCardRow,
  refundOfTicket,
  buyerKeyOfCard,
  bonusPrizesOfCard,
  type PrizeRow,
  payoutNoOf,
  personNameOf,
  sessionNoOf,
  stationNameOf,
} from './store.ts'
import { printBonusReceipt, type BonusPrint } from '../bingo/bonus-print.ts'
import { assertShiftOpen } from './shift-guard.ts'
import type { Till } from './shifts.ts'
import { getProfile } from '../shared/profile.ts'
import { assertAcceptedDocument } from '../shared/identity.ts'
import type { OnPaid } from '../shared/settlement.ts'

/** Where a payout is paid from: the payer's till, with the station's hall and the payer's halls when known. */
export type PayTill = Omit<Till, 'shiftId'> & { shiftId?: string | null }

export interface CardRef {
  kind: 'card'
  ticketId: string
  serial: string
  seriesCode: string
  cardNo: number
  /** The numbers of each row, and the same in their columns (0 = blank). */
  rows: number[][]
  grid: number[][]
  gameId: string
  gameNo: number
  gameStatus: string
  sessionId: string
  hallId: string
  hallName: string
  currency: string
  faceValueCents: number
  /** The hall the card belongs to (its series' hall: the game's, or the selling hall of a simultaneous game). */
  cardHallId: string
  /** The name of the hall the card was sold in (in an interconnected game, not the host's `hallName`). */
  cardHallName: string
}
/** One prize of a card: `kind` is line or bingo, or a bonus prize's source (prima, progressive, interconnected, lucky). */
export interface PrizeLine {
  id: string
  kind: string
  amountCents: number
  bonus?: { name: string }
}

/** BNG-70: how a payout is paid. A cheque only where the hall's profile allows it, with the player's consent. */
export type PayoutPayment = { method: 'cash' } | { method: 'cheque'; chequeNumber: string; playerConsent: boolean }

/** The answer to a scan (§8). */
export type TicketStatus =
  | { status: 'invalid'; reason: 'signature' | 'kind' | 'unknown' | 'serial'; detail: string; ticketId: string | null }
  | (CardRef & { status: 'blocked'; reason: string; note: string; reportedAt: string })
  | (CardRef & { status: 'held'; reason: string | null; heldAt: string; heldBy: string })
  | (CardRef & { status: 'destroyed'; destroyedAt: string })
  /** BNG-91 / BNG-92: presented altered; its unpaid prizes were forfeited, for good. */
  | (CardRef & { status: 'forfeited'; amountCents: number; prizes: PrizeLine[] })
  | (CardRef & {
      status: 'void'
      reason: string | null
      refundCents: number
      /** Issue 29 point 1: when, where and by whom it was refunded (a kiosk's own refund names no person). */
      refunded: null | {
        at: string
        method: string
        stationId: string
        cashierId: string | null
        refundId: string
        timeZone: string
      }
    })
  | (CardRef & { status: 'pending' })
  | (CardRef & { status: 'not_winner' })
  | (CardRef & {
      status: 'paid'
      paidAt: string
      stationId: string | null
      cashierId: string | null
      payoutId: string | null
      amountCents: number
      prizes: PrizeLine[]
    })
  | (CardRef & { status: 'expired'; expiredAt: string; amountCents: number; prizes: PrizeLine[] })
  | (CardRef & { status: 'winner'; amountCents: number; prizes: PrizeLine[]; idRequired: boolean; claimUntil: string })

export interface Payout {
  payoutId: string
  ticketId: string
  serial: string
  gameId: string
  gameNo: number
  sessionId: string
  hallId: string
  hallName: string
  amountCents: number
  currency: string
  prizes: PrizeLine[]
  paidAt: string
  stationId: string
  cashierId: string
  payeeName: string | null
  payeeDocument: string | null
  /** `terminal`: credited to the terminal session holding the virtual card (issue 27). */
  payment: { method: 'cash' } | { method: 'cheque'; chequeNumber: string } | { method: 'terminal' }
}

export interface PrizeRegisterRow {
  /** Running number of the entry in this extract. */
  entry: number
  paidAt: string
  hallId: string
  hallName: string
  sessionId: string
  /** The session's number in its hall, as the paper prints it (issue 29 point 6). */
  sessionNo: number | null
  gameId: string
  gameNo: number
  serial: string
  ticketId: string
  prizes: PrizeLine[]
  amountCents: number
  currency: string
  payeeName: string | null
  payeeDocument: string | null
  stationId: string | null
  cashierId: string | null
  payoutId: string | null
}

export function createPayoutService(deps: CashdeskDeps, vouchers: VoucherService) {
  const { db, clock, keys, config } = deps
  const now = () => clock.now().toISOString()

  /**
   * A card's state at `at`, read through `sql` (the caller's transaction when paying). `inPlay`: the prizes already
   * awarded in a game still in play count (a terminal's credit, issue 27); otherwise such a card is `pending`.
   */
  async function evaluate(sql: Sql, cardId: string, at: string, inPlay = false): Promise<TicketStatus> {
    const c = await cardJoin(sql, cardId)
    if (!c) return { status: 'invalid', reason: 'unknown', detail: `card ${cardId} was never sold`, ticketId: cardId }
    const rows = JSON.parse(c.numbers) as number[][]
    const ref: CardRef = {
      kind: 'card',
      ticketId: c.id,
      serial: c.serial,
      seriesCode: c.seriesCode,
      cardNo: c.cardNo,
      rows,
      grid: cardFromRows(rows, JSON.parse(c.layout) as CardLayout).grid,
      gameId: c.gameId,
      gameNo: c.orderNo,
      gameStatus: c.gameStatus,
      sessionId: c.sessionId,
      hallId: c.hallId,
      hallName: c.hallName,
      currency: c.currency,
      faceValueCents: c.faceValueCents,
      cardHallId: c.cardHallId ?? c.hallId,
      cardHallName: c.cardHallName ?? c.hallName,
    }
    const blocked = await blockedTicket(sql, TicketKind.card, c.id)
    if (blocked)
      return { ...ref, status: 'blocked', reason: blocked.reason, note: blocked.note, reportedAt: blocked.created_at }
    // BNG-87 / BNG-92: a card held as evidence is not paid; a destroyed card is nothing any more.
    const custody = await cardCustodyState(sql, c.id)
    if (custody?.state === CardCustody.Evidence)
      return { ...ref, status: 'held', reason: custody.reason, heldAt: custody.changed_at, heldBy: custody.changed_by }
    if (custody?.state === CardCustody.Destroyed)
      return { ...ref, status: 'destroyed', destroyedAt: custody.changed_at }
    if (c.cardStatus === 'refunded' || c.gameStatus === 'void') {
      // BNG-86: refundable once; the refund register says whether it was (issue 13 point 7).
      const r = await refundOfTicket(sql, 'card', c.id)
      return {
        ...ref,
        status: 'void',
        reason: c.voidReason,
        refundCents: ref.faceValueCents,
        refunded: r
          ? {
              at: r.refunded_at,
              method: r.method,
              stationId: r.station_id,
              cashierId: r.cashier_id === r.station_id ? null : r.cashier_id,
              refundId: r.id,
              timeZone: (await vouchers.hallFor(sql, c.hallId)).timeZone,
            }
          : null,
      }
    }
    // BNG-71: a paper card's prizes are paid at the game's end, against the card. Issue 27 (BNG-101, the operation
    // the Consejería sets): a virtual card's prize is credited to its terminal session once awarded, that is once the
    // "any more?" window closed and the split is final (a line before the game ends); the game's end adds the bingo.
    if (c.gameStatus !== 'finished' && !inPlay) return { ...ref, status: 'pending' }
    // Issue 23: the bonus prizes the card won are its prizes like the line and the bingo, paid with them.
    const prizes: Array<PrizeRow & { name?: string }> = [
      ...(await prizesOfCard(sql, c.id)),
      ...(await bonusPrizesOfCard(sql, c.id)),
    ]
    if (prizes.length === 0) return { ...ref, status: 'not_winner' }
    const lines = (ps: typeof prizes): PrizeLine[] =>
      ps.map((p) => ({
        id: p.id,
        kind: p.kind,
        amountCents: p.amount_cents,
        ...(p.name !== undefined ? { bonus: { name: p.name } } : {}),
      }))
    const sum = (ps: typeof prizes) => ps.reduce((s, p) => s + p.amount_cents, 0)
    const awarded = prizes.filter((p) => p.status === 'awarded')
    // BNG-91 / BNG-92: an altered card's unpaid prizes were forfeited when it was held; released or not, never paid.
    const forfeited = prizes.filter((p) => p.status === 'forfeited')
    if (awarded.length === 0 && forfeited.length > 0)
      return { ...ref, status: 'forfeited', amountCents: sum(forfeited), prizes: lines(forfeited) }
    if (awarded.length === 0) {
      const payout = await payoutOfCard(sql, c.id)
      const paidAt =
        payout?.paid_at ??
        prizes
          .map((p) => p.paid_at ?? '')
          .sort()
          .at(-1) ??
        ''
      return {
        ...ref,
        status: 'paid',
        paidAt,
        stationId: payout?.station_id ?? null,
        cashierId: payout?.cashier_id ?? prizes[0].paid_by,
        payoutId: payout?.id ?? null,
        amountCents: sum(prizes),
        prizes: lines(prizes),
      }
    }
    const claimUntil = new Date(Date.parse(c.finishedAt ?? at) + config.prizeClaimDays * DAY_MS).toISOString()
    if (at >= claimUntil)
      return { ...ref, status: 'expired', expiredAt: claimUntil, amountCents: sum(awarded), prizes: lines(awarded) }
    const amountCents = sum(awarded)
    // GEN-26 from the threshold up; BNG-55 / RNG-18: a prima or jackpot winner is always identified.
    const idRequired = amountCents >= config.idRequiredPrizeCents || awarded.some((p) => p.name !== undefined)
    return { ...ref, status: 'winner', amountCents, prizes: lines(awarded), idRequired, claimUntil }
  }

  /** Verifies the code; a bad one is an `invalid` status, never an exception. */
  function cardIdOf(code: string): { cardId: string } | Extract<TicketStatus, { status: 'invalid' }> {
    // Issue 29 point 4: the short code printed under a damaged QR finds the card as its QR does; a code no card has
    // is unknown, never called a forgery.
    if (readCardShortCode(String(code))) {
      const cardId = cardIdOfShortCode(deps.sealer.tag.bind(deps.sealer), String(code))
      return cardId
        ? { cardId }
        : { status: 'invalid', reason: 'unknown', detail: 'no card has this printed code', ticketId: null }
    }
    // Issue 29 point 3: a card's printed serial typed in place of its code is no forgery, and no way to pay either:
    // the serial of a winning card is announced in the hall (BNG-73 lists it in the minutes), so anyone knows it;
    // the prize is paid against the card delivered intact (BNG-71), that is its signed code.
    if (!/^BLL1\./i.test(String(code).trim()) && parseTypedSerial(String(code))) {
      return {
        status: 'invalid',
        reason: 'serial',
        detail: 'a card serial is public: a prize is paid against the signed code of the card delivered (BNG-71)',
        ticketId: null,
      }
    }
    try {
      const ref = verifyTicketCode(String(code).trim(), keys.publicKey)
      if (ref.kind !== TicketKind.card)
        return {
          status: 'invalid',
          reason: 'kind',
          detail: `a ${ref.kind === TicketKind.voucher ? 'credit voucher' : ref.kind} code, not a bingo card`,
          ticketId: ref.id,
        }
      return { cardId: ref.id }
    } catch (err) {
      if (err instanceof DomainError && err.code === 'INVALID_SIGNATURE')
        return { status: 'invalid', reason: 'signature', detail: err.message, ticketId: null }
      throw err
    }
  }

  /** §8: what a scanned code is worth, journaled with the station and cashier. */
  async function validate(code: string, who: { stationId?: string; cashierId?: string } = {}): Promise<TicketStatus> {
    const parsed = cardIdOf(code)
    // Issue 23 point 5: a scan reads and writes one record, in the chain of the card's hall (the operator's for a code
    // that names no card), and so locks that chain alone: a scan at hall A's desk neither waits for hall B nor stops
    // it. The hall is read from the card before the transaction (a card's game and a game's hall never change); a
    // card found inside in another chain runs again with every chain.
    const card = 'cardId' in parsed ? await cardById(db, parsed.cardId) : undefined
    const game = card ? await gameById(db, card.gameId) : undefined
    return narrowOrAll([game ? `hall:${game.hallId}` : OPERATOR_CHAIN], (scopes) =>
      db.transaction(async (tx) => validateWithin(tx, parsed, who), scopes ? { scopes } : undefined),
    )
  }

  async function validateWithin(
    tx: Sql,
    parsed: ReturnType<typeof cardIdOf>,
    who: { stationId?: string; cashierId?: string },
  ): Promise<TicketStatus> {
    const at = now()
    const st = 'cardId' in parsed ? await evaluate(tx, parsed.cardId, at) : parsed
    const hallId = st.status === 'invalid' ? null : st.hallId
    const scope = hallId ? `hall:${hallId}` : ''
    requireChain(chainOfScope(scope))
    await appendJournal(tx, {
      at,
      type: 'ticket.validated',
      scope,
      payload: {
        ticketId: st.ticketId,
        kind: 'card',
        status: st.status,
        reason: st.status === 'invalid' ? st.reason : null,
        stationId: who.stationId ?? null,
        // REGULATIONS.md §8 / GEN-7: each outcome is logged with the terminal's seal code.
        sealCode: await sealCodeOfDevice(tx, who.stationId),
        cashierId: who.cashierId ?? null,
        rule: '§8',
      },
    })
    return st
  }

  function refuse(st: Exclude<TicketStatus, { status: 'winner' }>): never {
    switch (st.status) {
      case 'invalid':
        if (st.reason === 'unknown')
          // A typed printed code no card has (ticketId null) is said as a code to check, never as a forgery.
          throw new DomainError('TICKET_NOT_FOUND', st.detail, {
            status: st.status,
            reason: st.reason,
            ...(st.ticketId === null ? { code: 'printed' } : {}),
          })
        if (st.reason === 'serial')
          throw new DomainError('SERIAL_NOT_A_CODE', st.detail, {
            status: st.status,
            reason: st.reason,
            rule: 'BNG-71',
          })
        // A card's QR that does not verify is far more often damaged or misread than forged: the refusal says so
        // and what to do (http/messages.ts detailedMessage); the code stays INVALID_SIGNATURE (audited).
        throw new DomainError('INVALID_SIGNATURE', st.detail, {
          status: st.status,
          reason: st.reason,
          ...(st.reason === 'signature' ? { code: 'card_qr' } : {}),
        })
      case 'blocked':
        throw new DomainError('TICKET_BLOCKED', `card ${st.serial} was reported ${st.reason}`, {
          status: st.status,
          reason: st.reason,
          rule: 'LST-4',
        })
      case 'held':
        throw new DomainError(
          'CARD_HELD',
          `card ${st.serial} is held as evidence (${st.reason ?? 'no reason'}): its prize is not paid`,
          {
            status: st.status,
            reason: st.reason,
            heldAt: st.heldAt,
            rule: st.reason?.startsWith('tampered:') ? 'BNG-92' : 'BNG-87',
          },
        )
      case 'destroyed':
        throw new DomainError('CARD_DESTROYED', `card ${st.serial} was destroyed at ${st.destroyedAt}`, {
          status: st.status,
          destroyedAt: st.destroyedAt,
          rule: 'BNG-87',
        })
      case 'void':
        throw new DomainError('TICKET_VOID', `game ${st.gameNo} was voided: card ${st.serial} is refundable only`, {
          status: st.status,
          refundCents: st.refundCents,
        })
      case 'pending':
        throw new DomainError(
          'PRIZE_PENDING',
          `game ${st.gameNo} is ${st.gameStatus}: prizes are paid when it ends (BNG-71)`,
          { status: st.status, gameStatus: st.gameStatus, rule: 'BNG-71' },
        )
      case 'not_winner':
        throw new DomainError('NOT_A_WINNER', `card ${st.serial} has no prize`, { status: st.status, product: 'card' })
      case 'forfeited':
        throw new DomainError(
          'PRIZE_FORFEITED',
          `card ${st.serial} was presented altered: its prizes are not valid (BNG-91, BNG-92, BNG-71)`,
          { status: st.status, rule: 'BNG-92' },
        )
      case 'paid':
        throw new DomainError('ALREADY_PAID', `card ${st.serial} was paid at ${st.paidAt}`, {
          status: st.status,
          paidAt: st.paidAt,
          stationId: st.stationId,
          cashierId: st.cashierId,
          payoutId: st.payoutId,
        })
      case 'expired':
        throw new DomainError('TICKET_EXPIRED', `the claim period of card ${st.serial} ended at ${st.expiredAt}`, {
          status: st.status,
          expiredAt: st.expiredAt,
        })
      default: {
        const _never: never = st
        throw new Error(`unknown status ${JSON.stringify(_never)}`)
      }
    }
  }

  /**
   * BNG-85 / CFG-23: where the profile forbids it (Bolivia 2025: "ni podrá transferirlos a otro jugador"), a card
   * is not handed on to another player. A printed card is a bearer ticket: no path of the product moves a card to
   * another player or game, and the hand-over itself happens at the tables, out of the system's sight. The one
   * point where the holder of a card is known is its payout, so there the rule is enforced: a card whose buyer was
   * identified at the sale (the document on the kiosk voucher, or recorded by the seller) pays its prize only to
   * that document. A card sold to an unnamed player cannot be told apart from a transferred one and is paid as before;
   * a hall that must hold the rule for every buyer sells only to identified players (its `identifiedSales` setting,
   * GEN-25, shared/identified-sales.ts), and then every card has a buyer here. Bonus prizes go through this same
   * check: they are paid only with their card, in this payout (issue 23).
   */
  async function assertNotTransferred(
    tx: Sql,
    cardId: string,
    hallId: string,
    payeeDocument: string | null,
  ): Promise<void> {
    const hall = await vouchers.hallFor(tx, hallId)
    if (getProfile(hall.profileId)?.cardTransferAllowed !== false) return
    const buyer = await buyerKeyOfCard(tx, cardId)
    if (!buyer) return
    // Issue 24 points 2 and 6: both sides by the person's stored key (a keyed hash); a buyer stored before the keys
    // is keyed again (a key is its own key, a stored key stays as it is).
    const payee = payeeDocument ? `doc:${vouchers.storedKeyOf(payeeDocument)}` : null
    if (payee !== `doc:${vouchers.storedKeyOf(buyer)}`) {
      throw new DomainError(
        'CARD_TRANSFER_FORBIDDEN',
        payee
          ? 'the payee is not the player who bought this card (BNG-85)'
          : 'this card was bought by an identified player: the payee shows that identity document (BNG-85)',
        { field: 'payeeDocument', rule: 'BNG-85' },
      )
    }
  }

  /**
   * GEN-23 / GEN-27 (issue 23 point 3): a card's prizes (bonus prizes included: they are paid only with their card,
   * here) go neither to a payee on the exclusion list nor, whoever collects, to a card whose identified buyer is on it
   * (the document on the kiosk voucher or recorded by the seller: `buyerKeyOfCard`), whatever the request carries. Asked
   * in the payout's transaction, of the list of the card's own hall (where it was sold and is paid: assertPayHall),
   * so that an exclusion recorded while the payout is under way stops it too; the refusal rolls the payout back and is
   * journaled in that hall's chain (journalingRefusals). 002 §1.2.2.2 bars an excluded person from "participar en
   * ningún juego" and counts collecting a prize as taking part (item 12: "cobrar premios"); no text forfeits the prize,
   * so it is withheld: the card stays unpaid, payable if the exclusion ends within its claim period (GEN-27: "por el
   * período que el salón de juegos o casino determine"; GEN-21 (3)).
   */
  async function assertAdmittedPeople(
    tx: Sql,
    cardId: string,
    cardHallId: string,
    payeeDocument: string | null,
  ): Promise<void> {
    if (!deps.admission) return
    const documents = [payeeDocument ?? '', (await buyerKeyOfCard(tx, cardId)) ?? '']
    await deps.admission.assertAdmittedWithin(tx, documents, cardHallId)
  }

  /**
   * Issue 23: the hall of a payout is the card's, never the request's: the payer's station must be of that hall and
   * the payer a person of it (a person's halls: '*' or a list). Without authentication (older tests) neither is known.
   */
  function assertPayHall(cardHallId: string, till: PayTill): void {
    if (till.stationHallId && till.stationHallId !== cardHallId)
      throw new DomainError('WRONG_HALL', 'the card is of another hall: it is paid at a station of its own hall', {
        resource: 'card',
      })
    if (till.personHalls && till.personHalls !== '*' && !till.personHalls.includes(cardHallId))
      throw new DomainError('WRONG_HALL', 'the card is of a hall you do not work in', { resource: 'card' })
  }

  /**
   * Issue 23 point 5: what a card's payout locks, decided from the card the code names and the station that pays,
   * never from the request: the game's hall (its prizes, bonus prizes, prima and the card's custody are that hall's
   * rows; a game's hall never changes) and the station's hall (its drawer and shift, which the close of the shift
   * locks too). A stolen-card block is the game's hall's too (block). Every other row it reads to decide (profiles, devices, the exclusion list)
   * changes only under the global lock's exclusive side. Every chain when the card is unknown (refused as before) or
   * when its awards reach another hall's rows (awardsStayInHall: a simultaneous game, an interconnected pot).
   */
  async function payoutScopes(cardId: string, stationId: string): Promise<string[] | undefined> {
    const card = await cardById(db, cardId)
    const game = card ? await gameById(db, card.gameId) : undefined
    if (!game || !(await awardsStayInHall(db, game))) return undefined
    const stationHall = await hallOfStation(db, stationId)
    return [`hall:${game.hallId}`, ...(stationHall ? [`hall:${stationHall}`] : [])]
  }

  /**
   * Pays a winning card once, in cash at a cashier station, and prints the receipt. See the top of this file.
   * @throws ALREADY_PAID (409) when it was paid, here or at another station, even at the same moment.
   */
  async function pay(
    input: PayTill & {
      code: string
      payeeName?: string | null
      payeeDocument?: string | null
      /** CFG-22: a progressive pot winner's contact telephone. */
      payeePhone?: string | null
      payment?: PayoutPayment
      /**
       * Issue 27: a virtual card's prize is credited to the terminal session that holds the card (its cash-desk
       * account) instead of leaving a drawer: called in this payout's transaction, recorded as paid by `terminal`.
       */
      credit?: OnPaid
    },
  ): Promise<{
    payout: Payout
    receipt:
      | { printed: true; print: PrintResult }
      | { printed: false; error: { code: string; reason: string | null; message: string } }
    preview: string
    bonusReceipts: BonusPrint[]
  }> {
    const parsed = cardIdOf(input.code)
    if (!('cardId' in parsed)) refuse(parsed)
    const payeeName = input.payeeName?.trim() || null
    const payeeDocument = input.payeeDocument?.trim() || null
    const payment = paymentOf(input.payment)
    let payout: Payout | undefined
    let lastSeq = 0
    // A terminal's credit (input.credit) pays from no drawer: the station is the terminal, whose hall is its session's
    // (the credit's rows and record; the credit requires that chain).
    let scopes = await payoutScopes(parsed.cardId, input.stationId)
    for (let attempt = 0; !payout; attempt++) {
      try {
        payout = await vouchers.admittedTransaction(
          async (tx) => {
            // The payer's shift is open at the commit, cheque or cash (issue 23: a close at the same moment wins).
            await assertShiftOpen(tx, input.shiftId ?? null, input.stationId, marksPolicy(config))
            const at = now()
            // Issue 24 point 1: nor for a card whose numbers or status were changed outside the server (before the
            // card is judged, which reads them).
            await assertRowsSealed(tx, 'cards', [parsed.cardId])
            const st = await evaluate(tx, parsed.cardId, at, Boolean(input.credit))
            if (st.status !== 'winner') refuse(st)
            if (scopes && !(await awardsStayInHall(tx, { id: st.gameId, hallId: st.hallId })))
              throw new ScopesTooNarrow()
            assertPayHall(st.cardHallId, input)
            // Issue 24 point 1: no prize is paid from a row changed outside the server (its amount, its status).
            await assertRowsSealed(
              tx,
              'prizes',
              st.prizes.filter((p) => !p.bonus).map((p) => p.id),
            )
            await assertRowsSealed(
              tx,
              'bonus_prizes',
              st.prizes.filter((p) => p.bonus).map((p) => p.id),
            )
            // BNG-71 (paid once) and issue 24 point 1: a payout deleted outside the server, its prizes and card put back
            // from an older copy of the file (seals and all), leaves the journal's record of each prize paid.
            const journaled = await journaledSettlements(
              tx,
              `hall:${st.hallId}/session:${st.sessionId}/game:${st.gameId}`,
              ['prize.paid', 'bonus.paid'],
              'prizeId',
              st.prizes.map((p) => p.id),
            )
            if (journaled.length > 0)
              throw rowTampered(
                journaled.map((r) => ({
                  table: r.type === 'bonus.paid' ? 'bonus_prizes' : 'prizes',
                  id: String(r.payload.prizeId),
                  what: `journal record #${r.seq} paid it, but the tables say it is unpaid (changed outside the server)`,
                })),
              )
            // CFG-5: the payee's document is one of the kinds the card's hall takes as a player's identity.
            const payeeProfile = getProfile((await vouchers.hallFor(tx, st.hallId)).profileId)
            if (payeeProfile) assertAcceptedDocument(payeeProfile, payeeDocument, 'payeeDocument')
            await assertAdmittedPeople(tx, st.ticketId, st.cardHallId, payeeDocument)
            await assertNotTransferred(tx, st.ticketId, st.hallId, payeeDocument)
            // GEN-26 / §7.13: large prizes are paid to an identified payee, recorded in the prize register; BNG-55: so is
            // every prima and jackpot.
            if (st.idRequired && (!payeeDocument || !payeeName)) {
              const bonus = st.prizes.some((p) => p.bonus)
              throw new DomainError(
                'PAYEE_ID_REQUIRED',
                bonus
                  ? "a prima or jackpot prize is paid against the winner's name and identity document"
                  : `a prize of ${st.amountCents} needs the payee's name and identity document`,
                {
                  amountCents: st.amountCents,
                  thresholdCents: config.idRequiredPrizeCents,
                  fields: ['payeeName', 'payeeDocument'],
                  rule: bonus ? 'BNG-55' : 'GEN-26',
                },
              )
            }
            const hall = await vouchers.hallFor(tx, st.hallId)
            if (payment.method === 'cheque' && getProfile(hall.profileId)?.prizeChequeAllowed !== true) {
              throw new DomainError('RULE_DISABLED', "this hall's rules pay prizes in cash: no cheque (BNG-70)", {
                field: 'payment.method',
                rule: 'BNG-70',
              })
            }
            const paidBy = `${input.cashierId}@${input.stationId}`
            const ordinary = st.prizes.filter((p) => !p.bonus).map((p) => p.id)
            if (ordinary.length && (await markPrizesPaid(tx, st.ticketId, ordinary, at, paidBy)) !== ordinary.length)
              throw new DomainError('ALREADY_PAID', `card ${st.serial} was paid at the same moment elsewhere`, {
                status: 'paid',
              })
            const payoutId = deps.bingo.newId('po')
            const paidVia =
              payment.method === 'cheque'
                ? { method: 'cheque' as const, chequeNumber: payment.chequeNumber }
                : input.credit
                  ? { method: 'terminal' as const }
                  : { method: 'cash' as const }
            // BNG-69 / BNG-70: each bonus prize keeps its own record (payee, payment, ledger, journal) for its receipt.
            for (const p of st.prizes.filter((x) => x.bonus)) {
              // A prima or jackpot is paid to its identified winner at a cash desk (BNG-55), never credited on screen.
              if (paidVia.method === 'terminal')
                throw new DomainError('PAYEE_ID_REQUIRED', 'a prima or jackpot prize is paid at a cash desk', {
                  rule: 'BNG-55',
                })
              lastSeq = (
                await deps.bonus.settleWithin(tx, {
                  prizeId: p.id,
                  at,
                  paidBy: input.cashierName ?? input.cashierId,
                  payee: { name: payeeName ?? '', document: payeeDocument ?? '', phone: input.payeePhone ?? null },
                  payment: paidVia,
                  stationId: input.stationId,
                  payoutId,
                })
              ).seq
            }
            // BNG-71 / BNG-87 (b): the paid card is handed over and archived with the winners, after its game. A virtual
            // card credited in play (its line) stays in its game: its bingo's payout or the hall archives it after.
            if (st.gameStatus === 'finished') await archiveOnPayout(tx, st.ticketId, at, paidBy)
            const ids = st.prizes.map((p) => p.id)
            await insertPayout(tx, {
              id: payoutId,
              cardId: st.ticketId,
              gameId: st.gameId,
              // BNG-100: the hall that sold the card (in an interconnected game, not the central's), whose register it is.
              hallId: st.cardHallId,
              amountCents: st.amountCents,
              currency: st.currency,
              prizeIds: ids,
              stationId: input.stationId,
              cashierId: input.cashierId,
              payeeName,
              // Issue 24 point 2: stored sealed; the payout's view and the prize register open it.
              payeeDocument: sealDocumentAtRest(deps.sealer, payeeDocument),
              paidAt: at,
              paymentMethod: paidVia.method,
              chequeNumber: paidVia.method === 'cheque' ? paidVia.chequeNumber : null,
            })
            // BNG-70: cash leaves the payer's own drawer, under the open shift, in this transaction; a cheque moves none.
            if (paidVia.method === 'terminal')
              await input.credit!(tx, {
                amountCents: st.amountCents,
                currency: st.currency,
                refId: payoutId,
                at,
                kind: 'prize_payout',
              })
            if (paidVia.method === 'cash' && st.amountCents > 0) {
              await vouchers.movement(tx, {
                // The drawer's own hall: the card's (assertPayHall), not an interconnected game's central.
                hallId: st.cardHallId,
                stationId: input.stationId,
                cashierId: input.cashierId,
                shiftId: input.shiftId,
                product: 'card',
                kind: 'prize_payout',
                amountCents: -st.amountCents,
                currency: st.currency,
                refId: payoutId,
                at,
              })
            }
            const scope = `hall:${st.hallId}/session:${st.sessionId}/game:${st.gameId}`
            // REGULATIONS.md §8 / GEN-7: the payout's record names the seal code of the station that paid it.
            const sealCode = await sealCodeOfDevice(tx, input.stationId)
            // GEN-31: the camera on the game's ball exit, so the payout is matched to the draw's footage.
            const cam = await cameraRecord(tx, st.hallId)
            // A bonus prize's own record is its `bonus.paid` (settleWithin, with this payout's id): the minutes count it once.
            for (const p of st.prizes.filter((x) => !x.bonus)) {
              const rec = await appendJournal(tx, {
                at,
                type: 'prize.paid',
                scope,
                payload: {
                  gameId: st.gameId,
                  prizeId: p.id,
                  serial: st.serial,
                  kind: p.kind,
                  amountCents: p.amountCents,
                  paidBy,
                  payoutId,
                  stationId: input.stationId,
                  sealCode,
                  cashierId: input.cashierId,
                  payeeIdentified: Boolean(payeeDocument),
                  payment: paidVia.method,
                  ...(paidVia.method === 'cheque' ? { chequeNumber: paidVia.chequeNumber, rule: 'BNG-70' } : {}),
                  ...cam,
                },
              })
              lastSeq = rec.seq
            }
            return {
              payoutId,
              ticketId: st.ticketId,
              serial: st.serial,
              gameId: st.gameId,
              gameNo: st.gameNo,
              sessionId: st.sessionId,
              hallId: st.hallId,
              hallName: st.hallName,
              amountCents: st.amountCents,
              currency: st.currency,
              prizes: st.prizes,
              paidAt: at,
              stationId: input.stationId,
              cashierId: input.cashierId,
              payeeName,
              payeeDocument,
              payment: paidVia,
            }
          },
          scopes ? { scopes } : undefined,
        )
      } catch (err) {
        if (err instanceof ScopesTooNarrow && scopes) {
          scopes = undefined
          continue
        }
        // A serialisation conflict between two payouts: the retry finds the card paid and says so.
        if (err instanceof DomainError && err.code === 'CONFLICT' && attempt < 2) continue
        throw err
      }
    }
    deps.publish?.({
      type: 'game:changed',
      gameId: payout.gameId,
      hallId: payout.hallId,
      seq: lastSeq,
      reason: 'prize_paid',
    })
    // After the commit: the payout receipt, and for each bonus prize its own receipt and duplicate (BNG-69).
    // Issue 17: the receipt prints the hall's wall-clock time.
    const timeZone = (await vouchers.hallFor(db, payout.hallId)).timeZone
    const doc = await receiptDoc(payout, deps.printers.forStation(input.stationId).paper, timeZone)
    // Issue 27: a credit to a terminal session is shown on its screen; no receipt paper at the seat.
    const receipt = input.credit
      ? {
          printed: false as const,
          error: { code: 'NOT_PRINTED', reason: 'terminal_credit', message: 'credited to the terminal session' },
        }
      : await printReceipt(payout, input.stationId, timeZone)
    const bonusReceipts: BonusPrint[] = []
    for (const p of payout.prizes.filter((x) => x.bonus))
      bonusReceipts.push(
        await printBonusReceipt(deps.printers, await deps.bonus.bonusReceipt(p.id), input.stationId, timeZone),
      )
    return { payout, receipt, preview: ticketPreviewDataUrl(doc), bonusReceipts }
  }

  /** BNG-70: a cheque needs its number and the player's consent (checked before anything is read). */
  function paymentOf(p: PayoutPayment | undefined): { method: 'cash' } | { method: 'cheque'; chequeNumber: string } {
    if (!p || p.method === 'cash') return { method: 'cash' }
    const chequeNumber = p.chequeNumber?.trim() ?? ''
    if (!chequeNumber || chequeNumber.length > 40)
      throw new DomainError('VALIDATION_FAILED', "a cheque payment records the cheque's number (BNG-70)", {
        field: 'payment.chequeNumber',
        rule: 'BNG-70',
      })
    if (p.playerConsent !== true)
      throw new DomainError(
        'VALIDATION_FAILED',
        "a cheque replaces cash only at the player's request or with their consent (BNG-70)",
        { field: 'payment.playerConsent', rule: 'BNG-70' },
      )
    return { method: 'cheque', chequeNumber }
  }

  /**
   * The table pays through the same path as the cashier (issue 13 point 6): a prize id alone pays nothing; the
   * winning card's signed code must be presented (BNG-71: against delivery of the card), it must be that prize's
   * card, and the card is paid by `pay` (once, after the game's prize window has closed, out of the till's drawer).
   */
  async function payAtTable(
    input: PayTill & {
      prizeId: string
      code?: string
      payeeName?: string | null
      payeeDocument?: string | null
      payeePhone?: string | null
      payment?: PayoutPayment
    },
  ) {
    const prize = await prizeCardRow(db, input.prizeId)
    if (!prize) throw new DomainError('NOT_VERIFIED', `no verified prize ${input.prizeId}`)
    if (!input.code?.trim())
      throw new DomainError(
        'CODE_REQUIRED',
        `prize ${input.prizeId} is paid only against its card's signed code (BNG-71)`,
        { field: 'code', rule: 'BNG-71' },
      )
    const parsed = cardIdOf(input.code)
    if (!('cardId' in parsed)) refuse(parsed)
    if (parsed.cardId !== prize.card_id)
      throw new DomainError('CODE_REQUIRED', `the code presented is not the card of prize ${input.prizeId}`, {
        field: 'code',
        reason: 'other_card',
      })
    return pay({ ...input, code: input.code })
  }

  /** Issue 29 point 6: the receipt names the station and the cashier and carries a number people read. */
  async function receiptDoc(p: Payout, paper: PrintDoc['paper'], timeZone: string): Promise<PrintDoc> {
    return payoutReceipt(
      {
        payoutId: p.payoutId,
        receiptNo: await payoutNoOf(db, p.payoutId),
        sessionNo: await sessionNoOf(db, p.sessionId),
        hallName: p.hallName,
        gameNo: p.gameNo,
        gameId: p.gameId,
        sessionId: p.sessionId,
        serial: p.serial,
        cardId: p.ticketId,
        prizes: p.prizes.map((x) => ({ kind: x.kind, amountCents: x.amountCents })),
        amountCents: p.amountCents,
        currency: p.currency,
        paidAt: p.paidAt,
        station: await stationNameOf(db, p.stationId),
        cashier: await personNameOf(db, p.cashierId),
        payeeName: p.payeeName,
        payeeDocument: p.payeeDocument,
        payment: p.payment.method === 'terminal' ? undefined : p.payment,
      },
      { paper, timeZone },
    )
  }

  async function printReceipt(p: Payout, stationId: string, timeZone: string, copy = false) {
    const printer = deps.printers.forStation(stationId)
    try {
      const doc = await receiptDoc(p, printer.paper, timeZone)
      return {
        printed: true as const,
        print: await printer.print([copy ? copyDoc(doc) : doc], `payout-${p.payoutId}${copy ? '-copia' : ''}`),
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      const details = err.details as { reason?: string } | undefined
      return {
        printed: false as const,
        error: { code: err.code, reason: details?.reason ?? null, message: err.message },
      }
    }
  }

  async function loadPayout(payoutId: string): Promise<Payout> {
    const row = await payoutJoin(db, payoutId)
    if (!row) throw new DomainError('NOT_FOUND', `payout ${payoutId} not found`)
    const ids = JSON.parse(row.prize_ids) as string[]
    const prizes = await prizesByIds(db, ids)
    return {
      payoutId: row.id,
      ticketId: row.card_id,
      serial: row.serial,
      gameId: row.game_id,
      gameNo: Number(row.order_no),
      sessionId: row.session_id,
      hallId: row.hall_id,
      hallName: row.hall_name,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      prizes: prizes.map((p) => ({
        id: p.id,
        kind: p.kind,
        amountCents: Number(p.amount_cents),
        ...(p.name !== null ? { bonus: { name: p.name } } : {}),
      })),
      paidAt: row.paid_at,
      stationId: row.station_id,
      cashierId: row.cashier_id,
      payeeName: row.payee_name,
      payeeDocument: openDocumentAtRest(deps.sealer, row.payee_document),
      payment:
        row.payment_method === 'cheque'
          ? { method: 'cheque', chequeNumber: row.cheque_number ?? '' }
          : { method: 'cash' },
    }
  }

  /** Prints a payout's receipt again (a failed receipt, or a copy for the file). */
  async function reprintReceipt(payoutId: string, stationId: string) {
    const p = await loadPayout(payoutId)
    // Issue 29 "Also": marked COPIA, whether the first paper came out or not (it may have, and been lost).
    const receipt = await printReceipt(p, stationId, (await vouchers.hallFor(db, p.hallId)).timeZone, true)
    if (!receipt.printed)
      throw new DomainError('DEVICE_UNAVAILABLE', receipt.error.message, { reason: receipt.error.reason })
    return receipt
  }

  /** The receipt as a PDF. */
  async function receiptPdf(
    payoutId: string,
    paper: PrintDoc['paper'] = '80mm',
    opts: { showDocuments: boolean } = { showDocuments: true },
  ): Promise<Uint8Array> {
    const { renderTicketsPdf } = await import('../../../printer/src/pdf.ts')
    const loaded = await loadPayout(payoutId)
    // Issue 24 point 2: a copy read by a role that does not read identities shows the payee's document masked.
    const p = opts.showDocuments ? loaded : { ...loaded, payeeDocument: maskDocument(loaded.payeeDocument) }
    return renderTicketsPdf([await receiptDoc(p, paper, (await vouchers.hallFor(db, p.hallId)).timeZone)])
  }

  /** §8 REPORTED LOST/STOLEN: blocks a card by its code, or by game and serial. */
  async function block(input: {
    code?: string
    gameId?: string
    serial?: string
    reason: 'lost' | 'stolen'
    note?: string
    reportedBy: string
  }): Promise<{ ticketId: string; serial: string; reason: string; reportedAt: string }> {
    return narrowOrAll(await blockScopes(input), (scopes) =>
      db.transaction(
        async (tx) => {
          const card = await cardToBlock(tx, input)
          const at = now()
          await insertBlockedTicket(tx, {
            kind: TicketKind.card,
            ticketId: card.id,
            reason: input.reason,
            note: input.note ?? '',
            reportedBy: input.reportedBy,
            createdAt: at,
          })
          await appendJournal(tx, {
            at,
            type: 'ticket.blocked',
            scope: `hall:${card.hall_id}`,
            payload: {
              kind: TicketKind.card,
              ticketId: card.id,
              serial: card.serial,
              reason: input.reason,
              reportedBy: input.reportedBy,
              rule: input.reason === 'stolen' ? 'LST-5' : 'LST-4',
            },
          })
          return { ticketId: card.id, serial: card.serial, reason: input.reason, reportedAt: at }
        },
        scopes ? { scopes } : undefined,
      ),
    )
  }

  /** The card a block or unblock names: by its code, or by game and serial (read through `sql`). */
  /**
   * The card a block or unblock names, sold (else TICKET_NOT_FOUND), in its hall's chain, and of a hall the acting
   * person works in. Issue 23 point 3: a block stops a card's prize; only someone of the card's hall (its game's, as
   * stored) blocks or unblocks it, whatever hall the request came through or named (a printed short code names none).
   */
  async function cardToBlock(tx: Sql, input: { code?: string; gameId?: string; serial?: string }) {
    const cardId = await blockedCardId(tx, input)
    if (!cardId)
      throw new DomainError('TICKET_NOT_FOUND', 'no such card', { gameId: input.gameId, serial: input.serial })
    const card = await cardWithHall(tx, cardId)
    if (!card) throw new DomainError('TICKET_NOT_FOUND', `card ${cardId} was never sold`)
    requireChain(`hall:${card.hall_id}`)
    assertActsInHallOf(card.hall_id, { stationHalls: [], resource: 'card' })
    return card
  }

  async function blockedCardId(
    sql: Sql,
    input: { code?: string; gameId?: string; serial?: string },
  ): Promise<string | undefined> {
    if (input.code) {
      const parsed = cardIdOf(input.code)
      if (!('cardId' in parsed)) refuse(parsed)
      return parsed.cardId
    }
    if (input.gameId && input.serial) return cardIdBySerial(sql, input.gameId, input.serial.trim().toUpperCase())
    return undefined
  }

  /**
   * Issue 23 point 5: a block or unblock writes its card's row and record, in the chain of the card's hall: it locks
   * that hall alone, read before the transaction from the card (a card's game and a game's hall never change), never
   * from the request; the operator's (no row written) when the request names no card. The card found inside in
   * another chain runs it again with every chain.
   */
  async function blockScopes(input: { code?: string; gameId?: string; serial?: string }): Promise<string[]> {
    const cardId = await blockedCardId(db, input).catch(() => undefined)
    const card = cardId ? await cardWithHall(db, cardId) : undefined
    return [card ? `hall:${card.hall_id}` : OPERATOR_CHAIN]
  }

  /**
   * The prize register (§7.13): every prize paid, by payout (game number, winning card, payee's names and
   * identity document, prize) in the order paid; prizes paid at the table (no payout) are listed one by one.
   */
  async function prizeRegister(
    filter: { hallId?: string; sessionId?: string; gameId?: string; from?: string; to?: string } = {},
  ): Promise<{
    filter: typeof filter
    rows: PrizeRegisterRow[]
    totalCents: number
    currency: string | null
    timeZone?: string
  }> {
    const rows = await paidPrizeRows(db, filter)
    const sessionNos = new Map<string, number | null>()
    const out: PrizeRegisterRow[] = []
    const byPayout = new Map<string, PrizeRegisterRow>()
    for (const r of rows) {
      const line = { id: r.prize_id, kind: r.kind, amountCents: Number(r.amount_cents) }
      // A prize is its card's payout's when that payout paid it (prizes paid at the table before have none).
      const ownPayout = r.payout_id !== null && (JSON.parse(r.prize_ids ?? '[]') as string[]).includes(r.prize_id)
      const existing = ownPayout ? byPayout.get(r.payout_id!) : undefined
      if (existing) {
        existing.prizes.push(line)
        existing.amountCents += line.amountCents
        continue
      }
      const row: PrizeRegisterRow = {
        entry: out.length + 1,
        paidAt: r.paid_at,
        hallId: r.hall_id,
        hallName: r.hall_name,
        sessionId: r.session_id,
        sessionNo: sessionNos.get(r.session_id) ?? null,
        gameId: r.game_id,
        gameNo: Number(r.order_no),
        serial: r.serial,
        ticketId: r.card_id,
        prizes: [line],
        amountCents: line.amountCents,
        currency: r.currency,
        payeeName: ownPayout ? r.payee_name : r.own_payee_name,
        payeeDocument: openDocumentAtRest(deps.sealer, ownPayout ? r.payee_document : r.own_payee_document),
        stationId: ownPayout ? r.station_id : null,
        cashierId: ownPayout ? r.cashier_id : r.paid_by,
        payoutId: ownPayout ? r.payout_id : null,
      }
      if (!sessionNos.has(r.session_id)) {
        sessionNos.set(r.session_id, await sessionNoOf(db, r.session_id))
        row.sessionNo = sessionNos.get(r.session_id) ?? null
      }
      out.push(row)
      if (ownPayout) byPayout.set(r.payout_id!, row)
    }
    return {
      filter,
      // Issue 29 point 5: the register prints the hall's wall-clock time.
      ...(out[0] ? { timeZone: (await vouchers.hallFor(db, out[0].hallId)).timeZone } : {}),
      rows: out,
      totalCents: out.reduce((s, r) => s + r.amountCents, 0),
      currency: out[0]?.currency ?? null,
    }
  }

  /** The signed code of a sold card (for reprints by staff and tests). */
  const cardCode = (cardId: string) => encodeTicketCode({ kind: TicketKind.card, id: cardId }, keys.privateKey)

  /**
   * Issue 14 point 6: a director reverses a block (a lost card found, a report withdrawn), confirmed by a second
   * person; both names and the reason are journaled, and the card can be paid again.
   */
  async function unblock(input: {
    code?: string
    gameId?: string
    serial?: string
    reason: string
    by: string
    witness: string
  }): Promise<{ ticketId: string; serial: string; unblockedAt: string }> {
    return narrowOrAll(await blockScopes(input), (scopes) =>
      db.transaction(
        async (tx) => {
          const card = await cardToBlock(tx, input)
          if (!(await deleteBlockedTicket(tx, TicketKind.card, card.id)))
            throw new DomainError('NOT_FOUND', `card ${card.serial} is not blocked`)
          const at = now()
          await appendJournal(tx, {
            at,
            type: 'ticket.unblocked',
            scope: `hall:${card.hall_id}`,
            payload: {
              kind: TicketKind.card,
              ticketId: card.id,
              serial: card.serial,
              reason: input.reason,
              by: input.by,
              witness: input.witness,
            },
          })
          return { ticketId: card.id, serial: card.serial, unblockedAt: at }
        },
        scopes ? { scopes } : undefined,
      ),
    )
  }

  return {
    validate,
    pay,
    payAtTable,
    block,
    unblock,
    prizeRegister,
    reprintReceipt,
    receiptPdf,
    loadPayout,
    evaluate,
    cardCode,
  }
}

export type PayoutService = ReturnType<typeof createPayoutService>
