/**
 * Issue 27: electronic bingo on hall terminals (BNG-101; BNG-9: paper and virtual cards in one ordinary game).
 *
 * Money: a terminal never holds money of its own. A player opens a session by presenting a credit voucher; the
 * voucher is spent and its whole amount becomes the balance of a cash-desk account tied to it (terminal_sessions,
 * every movement in terminal_ledger and the journal). Cards are bought from that balance through the cash desk's one
 * sale path (paid-sales.ts `terminalCards`); a virtual card's prize is paid through the one payout path
 * (payouts.ts `pay`, credited to the account instead of leaving a drawer), once; ending the session issues a change
 * voucher for the balance, printed on the terminal's printer after the commit and cashed at the cashier. A session
 * whose terminal is lost is closed by a cashier against the original voucher (`recover`), the change printed there.
 *
 * Everything is decided from the enrolled terminal that asks (its hall, its one open session), never from a body.
 */
import type { CashPieces } from '../shared/cash-count.ts'
import type { Database, Sql } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import type { BingoHooks, BingoService, SoldCard } from '../bingo/service.ts'
import type { HallTermsRead } from '../bingo/types.ts'
import type { BonusService } from '../bingo/bonus-service.ts'
import type { PaidSales } from '../cashdesk/paid-sales.ts'
import type { VoucherService } from '../cashdesk/vouchers.ts'
import type { PayoutService } from '../cashdesk/payouts.ts'
import type { TicketPrints } from '../cashdesk/ticket-prints.ts'
import type { PrinterPool } from '../../../printer/src/printers.ts'
import type { PlayerAdmission } from '../access/players.ts'
import type { PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { loadSpendableVoucher, markVoucherSpent } from '../cashdesk/vouchers.ts'
import { hallOfStation, stationNameOf, voucherById } from '../cashdesk/store.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import { assertDeviceMarked } from '../access/device-marks.ts'
import { appendJournal } from '../shared/journal.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { getProfile, type TerminalTerms } from '../shared/profile.ts'
import { GameAction, GameStatus, assertLegal } from '../bingo/game.ts'
import { cardFromRows, type CardLayout } from '../bingo/card.ts'
import { isVirtualCard } from '../bingo/system-claims.ts'
import { gameById } from '../bingo/store/games.ts'
import { effectiveElectronicBingo } from '../bingo/betting-plan.ts'
import {
  effectiveTerms,
  rankCards,
  reservedFrom,
  secondsUntilNextGame,
  spendVerdict,
  termsProblem,
  termsProblemFor,
} from './rules.ts'
import * as store from './store.ts'
import { assertOfAge } from '../shared/player-age.ts'
import { assertIdentifiedWhereRequired } from '../shared/identified-sales.ts'

export interface TerminalDeps {
  db: Database
  clock: Clock
  bingo: BingoService
  /** BNG-100: the simultaneous (interconnected) games a hall takes part in. */
  bonus: Pick<BonusService, 'activeGamesOfHall' | 'gameHalls'>
  vouchers: VoucherService
  payouts: PayoutService
  paidSales: Pick<PaidSales, 'terminalCards'>
  prints: TicketPrints
  printers: PrinterPool
  admission?: Pick<PlayerAdmission, 'assertAdmittedWithin' | 'journalingRefusals'>
  /** Issue 24 point 4: a server without the demo (production) takes no DEMO reference as the authority's terms. */
  demoReferencesRefused?: boolean
  onError?: (err: unknown) => void
}

/** The terms of a hall's terminals as read inside a transaction (the profile's, or the hall's record). */
async function termsWithin(sql: Sql, hallId: string, demoReferencesRefused = false, joined?: HallTermsRead) {
  // A sale's game read may have brought them along, in the same transaction (one round trip fewer under the lock).
  const read = joined ?? (await store.hallProfileAndTerms(sql, hallId))
  const base = getProfile(read.profileId ?? '')
  if (!base) return { profile: null, verdict: { refused: 'not_allowed' as const } }
  // BNG-101 / CFG-33: the rules as this hall plays them (its own switch turns the system's claims off), so that the
  // terms answer and every terminal use case read the effective value, not the profile's.
  const profile = { ...base, electronicBingo: effectiveElectronicBingo(base, read.settings) }
  const row = read.terms
  // Issue 24 point 4: on a server without the demo, the demo's labelled terms are no authority's record at all.
  const real = row && !(demoReferencesRefused && isDemoReference(row.reference))
  const record = real ? { reference: row.reference, terms: JSON.parse(row.terms) as TerminalTerms } : null
  return { profile, verdict: effectiveTerms(profile.electronicBingo, record), record: row }
}

/**
 * BNG-9 / BNG-12: where terms reserve a range of each series for terminals, a terminal sale takes the next number of
 * the terminals' own cursor in that range, and every other seller stops below it. A hall with no terms: unchanged.
 */
export const terminalHooks: BingoHooks = {
  async cardRange(tx, e) {
    const { verdict } = await termsWithin(tx, e.game.hallId, false, e.joined?.hallTerms)
    if (!('terms' in verdict)) {
      if (isVirtualCard(e))
        throw new DomainError('RULE_DISABLED', 'this hall sells no virtual cards (BNG-101)', { rule: 'BNG-101' })
      return null
    }
    const first = reservedFrom(e.cardCount, verdict.terms.terminalRangePercent)
    if (!isVirtualCard(e)) return { from: e.nextCardNo, to: first - 1 }
    // The terminals start where the reserved range begins, or above any number paper had already taken there.
    const from = (await store.terminalCursor(tx, e.seriesId)) ?? Math.max(first, e.nextCardNo)
    return {
      from,
      to: e.cardCount,
      advance: (f, next) => store.advanceTerminalCursor(tx, e.seriesId, f, next),
    }
  },
  // BNG-101 / CFG-33: the terms' minimum game duration paces the games that hold virtual cards, per hall whose
  // terminals hold them (a simultaneous game, BNG-100, is paced by every such hall's terms).
  async salesClosed(tx, e) {
    for (const hallId of await store.terminalHallsOfGame(tx, e.game.id)) {
      const { verdict } = await termsWithin(tx, hallId)
      if (!('terms' in verdict)) continue
      const { minGameSeconds } = verdict.terms
      const previous = await store.previousTerminalGameStart(tx, hallId, e.game.id)
      const waitSeconds = secondsUntilNextGame(previous, e.at, minGameSeconds)
      if (waitSeconds > 0)
        throw new DomainError(
          'TERMINAL_GAME_TOO_SOON',
          `a game with virtual cards may start ${waitSeconds} s from now`,
          { rule: 'BNG-101', minGameSeconds, waitSeconds, previousStartAt: previous, hallId },
        )
    }
  },
}

export function createTerminalService(deps: TerminalDeps) {
  const { db, clock, bingo, vouchers, payouts } = deps
  const now = () => clock.now().toISOString()
  const newId = (p: string) => bingo.newId(p)
  const termsOfHall = (sql: Sql, hallId: string) => termsWithin(sql, hallId, deps.demoReferencesRefused ?? false)
  /**
   * The game a hall's terminals play: the one its screens show (realtime/hub.ts `hall:watch`), the newest running
   * simultaneous game the hall takes part in (BNG-100), else the hall's own newest game.
   */
  const gameOfHall = async (hallId: string) =>
    (await deps.bonus.activeGamesOfHall(hallId)).at(-1) ?? (await bingo.currentGameOfHall(hallId))
  /**
   * The games a hall's terminals may buy for, decided from the hall: its own newest game and the running simultaneous
   * games it has joined (BNG-100), each named by its kind. A player chooses among those on sale.
   */
  async function gamesOfHall(hallId: string) {
    const own = await bingo.currentGameOfHall(hallId)
    const joined = await deps.bonus.activeGamesOfHall(hallId)
    const ids = [...new Set([...(own && !joined.includes(own) ? [own] : []), ...joined])]
    const out = []
    for (const gameId of ids) {
      const row = await gameById(db, gameId)
      if (!row) continue
      const halls = joined.includes(gameId) ? await deps.bonus.gameHalls(gameId) : []
      out.push({
        gameId,
        orderNo: row.orderNo,
        kind: halls.length > 0 ? ('interconnected' as const) : ('hall' as const),
        hallCount: Math.max(1, halls.length),
        status: row.status,
        onSale: row.status === GameStatus.OnSale,
        faceValueCents: row.faceValueCents,
      })
    }
    return out
  }

  async function sessionOrRefuse(sql: Sql, terminalId: string) {
    const s = await store.openSessionOf(sql, terminalId)
    if (!s) throw new DomainError('TERMINAL_SESSION_CLOSED', 'no player session is open at this terminal', {})
    return s
  }

  // -------------------------------------------------------------------------------------------- terms

  /** BNG-101 / CFG-33: the hall's record of the authority's terms, with its reference (the director). */
  async function setTerms(input: { hallId: string; reference: string; terms: TerminalTerms; by: string }) {
    const rules = getProfile((await store.hallProfileId(db, input.hallId)) ?? '')?.electronicBingo
    const problem = rules ? termsProblemFor(rules, input.terms) : termsProblem(input.terms)
    if (problem === 'onDisconnect' && input.terms.onDisconnect === undefined)
      throw new DomainError(
        'TERMINAL_TERMS_DISCONNECTION',
        `the authority's terms say what a terminal's disconnection does to its cards (${rules?.disconnection.source ?? 'BNG-101'})`,
        { field: 'terms.onDisconnect', rule: 'BNG-101' },
      )
    if (problem)
      throw new DomainError('VALIDATION_FAILED', `terminal terms: ${problem} is not valid`, { field: problem })
    const reference = input.reference.trim()
    if (deps.demoReferencesRefused && isDemoReference(reference))
      throw new DomainError('VALIDATION_FAILED', 'a demo reference is no authority resolution (BNG-101)', {
        field: 'reference',
        rule: 'BNG-101',
      })
    if (reference.length < 3)
      throw new DomainError('VALIDATION_FAILED', "the authority's reference is required (BNG-101, CFG-33)", {
        field: 'reference',
        rule: 'BNG-101',
      })
    // Issue 23 point 5: the hall's terms row and record: that hall's lock alone (its sales read the terms under it).
    return db.transaction(
      async (tx) => {
        const profile = getProfile((await store.hallProfileId(tx, input.hallId)) ?? '')
        if (!profile) throw new DomainError('NOT_FOUND', `hall ${input.hallId} not found`, { hallId: input.hallId })
        await assertActsInHall(tx, input.hallId, { resource: 'terminal terms' })
        if (!profile.electronicBingo.allowed)
          throw new DomainError('RULE_DISABLED', "this hall's profile allows no electronic bingo", { rule: 'BNG-101' })
        const at = now()
        await store.upsertTerms(tx, {
          hallId: input.hallId,
          reference,
          terms: JSON.stringify(input.terms),
          at,
          by: input.by,
        })
        await appendJournal(tx, {
          at,
          type: 'terminal.terms_set',
          scope: `hall:${input.hallId}`,
          payload: { hallId: input.hallId, reference, terms: input.terms, by: input.by, rule: 'BNG-101' },
        })
        return termsOf(input.hallId, tx)
      },
      { scopes: [`hall:${input.hallId}`] },
    )
  }

  /** What a hall's terminals play under, or why none may sell. */
  async function termsOf(hallId: string, sql: Sql = db) {
    const { profile, verdict } = await termsOfHall(sql, hallId)
    const rules = profile?.electronicBingo ?? null
    return {
      hallId,
      allowed: rules?.allowed ?? false,
      authority: rules?.authority ?? null,
      autoClaim: rules?.autoClaim ?? false,
      // Issue 27: the text's rule on a terminal's disconnection, or null where the authority's record states it.
      disconnection: rules?.disconnection ?? null,
      ...('terms' in verdict ? { terms: verdict.terms, reference: verdict.reference } : { refused: verdict.refused }),
    }
  }

  // -------------------------------------------------------------------------------------------- session

  /** Opens a session at `terminalId` with a voucher: the voucher is spent into the session's balance. */
  async function open(input: { terminalId: string; voucherCode: string; ageConfirmed?: boolean }) {
    // GEN-23: the player at a terminal answers the age question before its session (its cards) opens, as at a kiosk.
    assertOfAge('terminal', input.ageConfirmed)
    const voucherId = await vouchers.resolveVoucherId(db, input.voucherCode)
    // GEN-23 / GEN-27: the buyer the voucher records is asked about, as at a kiosk.
    const named = await voucherById(db, voucherId)
    // The buyer's document is stored sealed (issue 24 point 2): opened here only for the admission check.
    const buyer = vouchers.openDocument(named?.buyerDocument)
    const admission = deps.admission
    const journaling = <T>(run: () => Promise<T>) => (admission ? admission.journalingRefusals(run) : run())
    // Issue 23 point 5: the session, its ledger, the voucher spent and the record are the voucher's hall's (the
    // terminal must be of it, refused below): that hall's lock alone, read from the voucher, never from the request.
    // A voucher of no hall read here (none: refused inside) runs with every chain.
    const id = await journaling(() =>
      narrowOrAll(named ? [`hall:${named.hallId}`] : undefined, (scopes) =>
        db.transaction(
          async (tx) => {
            const at = now()
            const v = await loadSpendableVoucher(tx, voucherId, at)
            requireChain(`hall:${v.hallId}`)
            // GEN-23 / GEN-27: decided in this transaction, so that an exclusion recorded meanwhile stops the session.
            if (named && buyer?.trim() && admission) await admission.assertAdmittedWithin(tx, [buyer], v.hallId)
            // A terminal takes only its own hall's vouchers (issue 23 point 3), decided from the voucher and the device.
            await assertActsInHall(tx, v.hallId, { stationId: input.terminalId, resource: 'voucher' })
            // Issue 26 (GEN-7): an unsealed terminal opens no session on a player's money.
            await assertDeviceMarked(tx, input.terminalId, {
              demoReferencesRefused: deps.demoReferencesRefused ?? false,
            })
            // GEN-25: as at a kiosk, the voucher names its buyer where the hall sells only to identified players.
            assertIdentifiedWhereRequired(await vouchers.hallFor(tx, v.hallId), buyer, 'terminal')
            const { verdict } = await termsOfHall(tx, v.hallId)
            if (!('terms' in verdict))
              throw new DomainError(
                'RULE_DISABLED',
                verdict.refused === 'not_allowed'
                  ? "this hall's profile allows no electronic bingo (BNG-101)"
                  : "the hall has not recorded the authority's terms for its terminals (BNG-101, CFG-33)",
                { rule: 'BNG-101', reason: verdict.refused },
              )
            if (await store.openSessionOf(tx, input.terminalId))
              throw new DomainError('CONFLICT', 'a session is already open at this terminal: end it first', {
                reason: 'session_open',
              })
            const sessionId = newId('ts')
            await markVoucherSpent(tx, v, { at, station: input.terminalId, for: 'purchase', ref: sessionId })
            await store.insertSession(tx, {
              id: sessionId,
              hallId: v.hallId,
              terminalId: input.terminalId,
              voucherId: v.id,
              currency: v.currency,
              balanceCents: v.amountCents,
              at,
            })
            await store.insertLedger(tx, {
              id: newId('tl'),
              sessionId,
              at,
              kind: 'opened',
              amountCents: v.amountCents,
              balanceCents: v.amountCents,
              refId: v.id,
              gameId: null,
            })
            await appendJournal(tx, {
              at,
              type: 'terminal.session_opened',
              scope: `hall:${v.hallId}`,
              payload: {
                sessionId,
                terminalId: input.terminalId,
                voucherId: v.id,
                amountCents: v.amountCents,
                currency: v.currency,
                rule: 'BNG-101',
              },
            })
            return sessionId
          },
          scopes ? { scopes } : undefined,
        ),
      ),
    )
    return view(input.terminalId, id)
  }

  /**
   * Credit loaded by a cashier: cash into her drawer (her open shift at an enrolled station of the terminal's hall)
   * by the cash desk's one cash-in path (a voucher sold and, in the same transaction, spent into the session: GEN-17's
   * intake, the drawer's movement, the journal), and the terminal's balance rises by as much. With no session open
   * at the terminal it starts one, whose original voucher is the one sold here (a lost session is recovered with it).
   */
  async function load(input: {
    terminalId: string
    amountCents: number
    /** CFG-2: by note and coin (split by the hall's profile in the intake). */
    cash: CashPieces
    stationId: string
    cashierId: string
    shiftId?: string | null
    ageConfirmed?: boolean
    buyerDocument?: string | null
  }) {
    const terminal = await store.terminalDevice(db, input.terminalId)
    if (!terminal?.hall_id)
      throw new DomainError('NOT_FOUND', 'no such bingo terminal is enrolled', { resource: 'terminal' })
    const hallId = terminal.hall_id
    await vouchers.checkCashIn({ ...input, hallId })
    await deps.prints.ensurePrinter(input.stationId)
    // GEN-23 / GEN-27: the voucher sale inside decides the buyer's admission (vouchers.sellWithin); a refusal is
    // journaled after its rollback.
    // Issue 23 point 5: the load locks the terminal's hall (its session, ledger, voucher and journal record) and the
    // station's (its drawer and shift, which the shift's close locks too), both from their enrolments, never from the
    // request; the use case refuses a station of another hall below. Every chain at a station of no hall.
    const stationHall = await hallOfStation(db, input.stationId)
    const scopes = stationHall ? [...new Set([hallId, stationHall])].map((h) => `hall:${h}`) : undefined
    const { doc, ...result } = await vouchers.journalingRefusals(() =>
      db.transaction(
        async (tx) => {
          const at = now()
          // The cash goes into the drawer of a station of the terminal's own hall, by someone of it (issue 23 point 3).
          await assertActsInHall(tx, hallId, { stationId: input.stationId, resource: 'terminal session' })
          const { verdict } = await termsOfHall(tx, hallId)
          if (!('terms' in verdict))
            throw new DomainError('RULE_DISABLED', 'the hall has no terms for its terminals (BNG-101, CFG-33)', {
              rule: 'BNG-101',
              reason: verdict.refused,
            })
          const open = await store.openSessionOf(tx, input.terminalId)
          if (!open) {
            // GEN-23 / GEN-25: a session started at the counter: the cashier confirms the player's age, and where the
            // hall sells only to identified players the load names the buyer.
            assertOfAge('counter', input.ageConfirmed)
            assertIdentifiedWhereRequired(await vouchers.hallFor(tx, hallId), input.buyerDocument ?? null, 'counter')
          } else await assertRowsSealed(tx, 'terminal_sessions', [open.id])
          const sessionId = open?.id ?? newId('ts')
          const { voucher: v, hall, aml } = await vouchers.sellWithin(tx, { ...input, hallId, at })
          await markVoucherSpent(tx, v, { at, station: input.stationId, for: 'purchase', ref: sessionId })
          // The voucher is the player's proof of the session (a lost one is recovered against it): printed at this
          // station as any voucher sold here, naming the terminal.
          const doc = await vouchers.paperWithin(tx, {
            voucher: v,
            hall,
            stationId: input.stationId,
            at,
            loadedTo: terminal.name,
          })
          let balanceCents: number
          if (open) {
            if ((await store.loadSession(tx, open.id, v.amountCents)) !== 1)
              throw new DomainError('TERMINAL_SESSION_CLOSED', 'the session closed at the same moment', {})
            balanceCents = open.balance_cents + v.amountCents
          } else {
            await store.insertSession(tx, {
              id: sessionId,
              hallId,
              terminalId: input.terminalId,
              voucherId: v.id,
              currency: v.currency,
              balanceCents: v.amountCents,
              at,
            })
            balanceCents = v.amountCents
          }
          await store.insertLedger(tx, {
            id: newId('tl'),
            sessionId,
            at,
            kind: open ? 'loaded' : 'opened',
            amountCents: v.amountCents,
            balanceCents,
            refId: v.id,
            gameId: null,
          })
          await appendJournal(tx, {
            at,
            type: open ? 'terminal.credit_loaded' : 'terminal.session_opened',
            scope: `hall:${hallId}`,
            payload: {
              sessionId,
              terminalId: input.terminalId,
              voucherId: v.id,
              amountCents: v.amountCents,
              currency: v.currency,
              balanceCents,
              stationId: input.stationId,
              cashierId: input.cashierId,
              loadedAtCashDesk: true,
              rule: 'BNG-101',
            },
          })
          return {
            sessionId,
            started: !open,
            terminal: { id: terminal.id, name: terminal.name },
            amountCents: v.amountCents,
            balanceCents,
            currency: v.currency,
            voucher: vouchers.view(v, at),
            aml,
            doc,
          }
        },
        scopes ? { scopes } : undefined,
      ),
    )
    // No printer is waited on under the write lock: the voucher prints after the commit.
    return { ...result, ...(await vouchers.printPaper(result.voucher.id, input.stationId, doc)) }
  }

  /** The hall's terminals and their open sessions, for the cashier who loads credit onto one. */
  async function terminalsOf(hallId: string) {
    await assertActsInHall(db, hallId, { resource: 'terminal session' })
    return { hallId, terminals: await store.terminalsOfHall(db, hallId) }
  }

  /**
   * Virtual cards for the hall's game on sale, from the balance: the caps (per card, game, session) and the balance
   * are checked inside the sale's transaction, before any card is taken; SALES_CLOSED after the close of sales.
   */
  async function buy(input: { terminalId: string; count: number; gameId?: string }) {
    const s = await sessionOrRefuse(db, input.terminalId)
    // The player's choice among the games his hall offers (its own, an interconnected one); the default as shown.
    if (input.gameId && !(await gamesOfHall(s.hall_id)).some((g) => g.gameId === input.gameId))
      throw new DomainError('WRONG_HALL', "a terminal plays its own hall's games", { resource: 'game' })
    const gameId = input.gameId ?? (await gameOfHall(s.hall_id))
    if (!gameId) throw new DomainError('SALES_NOT_OPEN', 'no game of this hall is on sale', {})
    let paidBy = s.id
    await deps.paidSales.terminalCards({
      terminalId: input.terminalId,
      hallId: s.hall_id,
      gameId,
      count: input.count,
      voucherId: s.voucher_id,
      pay: async (tx, sale) => {
        const session = await sessionOrRefuse(tx, input.terminalId)
        // Issue 24 point 1: no card is bought from a balance changed outside the server.
        await assertRowsSealed(tx, 'terminal_sessions', [session.id])
        if (sale.hallId !== session.hall_id)
          throw new DomainError('WRONG_HALL', "a terminal plays its own hall's games", { resource: 'game' })
        const { verdict } = await termsOfHall(tx, session.hall_id)
        if (!('terms' in verdict)) throw new DomainError('RULE_DISABLED', 'no terminal terms (BNG-101)', {})
        const game = (await gameById(tx, sale.gameId))!
        // No card after the close of sales (BNG-16): said before anything about money.
        assertLegal(GameAction.Sell, game.status as GameStatus, game.id)
        // The game's prize return (line + bingo shares) lies in the authority's range, or it is not sold on screen.
        const returnBp = game.lineBp + game.bingoBp
        if (returnBp < verdict.terms.prizeReturnBp.min || returnBp > verdict.terms.prizeReturnBp.max)
          throw new DomainError(
            'RULE_DISABLED',
            `the game returns ${returnBp / 100} % in prizes, outside the terminals' range (BNG-101)`,
            { rule: 'BNG-101', returnBp, range: verdict.terms.prizeReturnBp },
          )
        const v = spendVerdict({
          balanceCents: session.balance_cents,
          faceValueCents: sale.faceValueCents,
          count: sale.count,
          spentInGameCents: await store.spentInGame(tx, session.id, sale.gameId),
          spentInSessionCents: session.spent_cents,
          terms: verdict.terms,
        })
        if (!v.ok)
          throw new DomainError(
            v.code,
            v.code === 'TERMINAL_CAP_EXCEEDED'
              ? `the ${v.cap} cap of ${v.limitCents} refuses ${v.costCents}`
              : `the balance ${session.balance_cents} does not cover ${v.costCents}`,
            { cap: v.cap ?? null, limitCents: v.limitCents ?? null, costCents: v.costCents, maxCards: v.maxCards },
          )
        if ((await store.debitSession(tx, session.id, v.costCents)) !== 1)
          throw new DomainError('TERMINAL_BALANCE_INSUFFICIENT', 'the balance changed at the same moment', {})
        await store.insertLedger(tx, {
          id: newId('tl'),
          sessionId: session.id,
          at: sale.at,
          kind: 'cards',
          amountCents: -v.costCents,
          balanceCents: session.balance_cents - v.costCents,
          refId: sale.gameId,
          gameId: sale.gameId,
        })
        paidBy = session.id
        return { paymentRef: session.id, currency: session.currency }
      },
      hold: async (tx, sale: { gameId: string; cards: SoldCard[]; costCents: number; at: string }) => {
        for (const c of sale.cards)
          await store.insertHeldCard(tx, { cardId: c.id, sessionId: paidBy, gameId: sale.gameId })
        await appendJournal(tx, {
          at: sale.at,
          type: 'terminal.cards_bought',
          scope: `hall:${s.hall_id}`,
          payload: {
            sessionId: paidBy,
            terminalId: input.terminalId,
            gameId: sale.gameId,
            costCents: sale.costCents,
            serials: sale.cards.map((c) => c.serial),
            cardIds: sale.cards.map((c) => c.id),
            rule: 'BNG-101',
          },
        })
      },
    })
    return view(input.terminalId, undefined, gameId)
  }

  /** A claim by the player's button, for a card this terminal's session holds, verified by the server (BNG-44). */
  async function claim(input: { terminalId: string; cardId: string; kind: 'line' | 'bingo' }) {
    const s = await sessionOrRefuse(db, input.terminalId)
    const held = await store.heldCard(db, input.cardId)
    if (!held || held.session_id !== s.id)
      throw new DomainError('TERMINAL_CARD_NOT_HELD', 'this session holds no such card', { cardId: input.cardId })
    const result = await bingo.claim({ gameId: held.game_id, cardId: input.cardId, kind: input.kind })
    return { ok: result.ok, reason: result.reason ?? null, session: await view(input.terminalId) }
  }

  /**
   * Credits awarded prizes to the sessions holding the winning cards as soon as they are awarded (issue 27: the
   * player "sees the prize credited at once"; a line while the game plays on), each once: through the cash desk's
   * payout of the card, whose transaction moves the prizes from awarded to paid by a conditional update
   * (ALREADY_PAID when another credit or a cash desk paid them first) and makes the credit; no drawer moves.
   */
  async function settle(winners: Array<{ card_id: string; session_id: string; terminal_id: string }>) {
    let credited = 0
    for (const w of winners) {
      try {
        await payouts.pay({
          code: payouts.cardCode(w.card_id),
          stationId: w.terminal_id,
          cashierId: w.terminal_id,
          shiftId: null,
          credit: async (tx, paid) => {
            // Issue 24 point 1: a held card credited once, to a session as the server wrote them.
            await assertRowsSealed(tx, 'terminal_cards', [w.card_id])
            // Issue 23 point 5: the session's rows and record are its hall's, locked with the card's (the payout
            // locks the terminal's hall as the paying station's); a session of another hall runs with every chain.
            requireChain(`hall:${(await store.sessionById(tx, w.session_id))?.hall_id ?? ''}`)
            await assertRowsSealed(tx, 'terminal_sessions', [w.session_id])
            if ((await store.markCredited(tx, w.card_id, paid.at)) !== 1)
              throw new DomainError('TERMINAL_CARD_NOT_HELD', 'no session holds this card', { cardId: w.card_id })
            if ((await store.creditSession(tx, w.session_id, paid.amountCents)) !== 1)
              throw new DomainError('TERMINAL_SESSION_CLOSED', 'the session closed before its prize', {})
            const session = (await store.sessionById(tx, w.session_id))!
            await store.insertLedger(tx, {
              id: newId('tl'),
              sessionId: w.session_id,
              at: paid.at,
              kind: 'prize',
              amountCents: paid.amountCents,
              balanceCents: session.balance_cents,
              refId: paid.refId,
              gameId: null,
            })
            await appendJournal(tx, {
              at: paid.at,
              type: 'terminal.prize_credited',
              scope: `hall:${session.hall_id}`,
              payload: {
                sessionId: w.session_id,
                terminalId: w.terminal_id,
                cardId: w.card_id,
                payoutId: paid.refId,
                amountCents: paid.amountCents,
                currency: paid.currency,
              },
            })
          },
        })
        credited++
      } catch (err) {
        // Paid already (a second settle), or a prize the cash desk must pay against identification (GEN-26, BNG-55):
        // it waits there; nothing is credited twice.
        if (!(err instanceof DomainError)) deps.onError?.(err)
      }
    }
    return credited
  }

  const settleGame = async (gameId: string) => settle(await store.heldWinnersOf(db, gameId))

  /** Ends the session: a change voucher for the whole balance, printed on the terminal's printer after the commit. */
  async function end(input: { terminalId: string }) {
    const s = await sessionOrRefuse(db, input.terminalId)
    await settle(await store.heldWinnersOfSession(db, s.id))
    return closeAndIssue({
      sessionId: s.id,
      hallId: s.hall_id,
      stationId: input.terminalId,
      by: input.terminalId,
      status: 'closed',
      guard: async (tx, session) => {
        if (session.terminal_id !== input.terminalId) throw new DomainError('TERMINAL_SESSION_CLOSED', 'closed', {})
      },
    })
  }

  /**
   * A lost terminal session (the terminal broke, the player left it): a cashier of its hall closes it against the
   * original voucher, and the balance is issued as a change voucher printed at the cash desk.
   */
  async function recover(input: { voucherCode: string; stationId: string; cashierId: string }) {
    const voucherId = await vouchers.resolveVoucherId(db, input.voucherCode)
    const s = await store.sessionByVoucher(db, voucherId)
    if (!s || s.status !== 'open')
      throw new DomainError('TERMINAL_SESSION_CLOSED', 'no open terminal session was opened with this voucher', {})
    await settle(await store.heldWinnersOfSession(db, s.id))
    return closeAndIssue({
      sessionId: s.id,
      hallId: s.hall_id,
      stationId: input.stationId,
      by: input.cashierId,
      status: 'recovered',
      guard: async (tx, session) => {
        await assertActsInHall(tx, session.hall_id, { stationId: input.stationId, resource: 'terminal session' })
      },
    })
  }

  async function closeAndIssue(c: {
    sessionId: string
    /** The session's hall as read before the transaction: its lock (issue 23 point 5). */
    hallId: string
    stationId: string
    by: string
    status: 'closed' | 'recovered'
    guard: (tx: Sql, s: store.TerminalSessionRow) => Promise<void>
  }) {
    const printer = deps.printers.forStation(c.stationId)
    await deps.prints.ensurePrinter(c.stationId)
    // Issue 23 point 5: the session's rows, its change voucher, the voucher's paper and the record are all the
    // session's hall's (a session never changes hall; a cash desk recovering it must be of that hall): that hall's
    // lock alone, never every hall's.
    const { docs, ...result } = await narrowOrAll([`hall:${c.hallId}`], (scopes) =>
      db.transaction(
        async (tx) => {
          const at = now()
          const s = await store.sessionById(tx, c.sessionId)
          if (!s || s.status !== 'open') throw new DomainError('TERMINAL_SESSION_CLOSED', 'the session is closed', {})
          requireChain(`hall:${s.hall_id}`)
          // Issue 24 point 1: no change voucher is issued for a balance changed outside the server.
          await assertRowsSealed(tx, 'terminal_sessions', [s.id])
          await c.guard(tx, s)
          // The cards play on to the end of their game and a win is credited: the session stays open until then.
          const inPlay = await store.gamesInPlayOf(tx, s.id)
          if (inPlay.length)
            throw new DomainError(
              'CONFLICT',
              'the session holds cards of a game still in play: end it after the game',
              {
                reason: 'cards_in_play',
                gameIds: inPlay,
              },
            )
          const original = (await voucherById(tx, s.voucher_id))!
          const change =
            s.balance_cents > 0
              ? await vouchers.issue(tx, {
                  hallId: s.hall_id,
                  currency: s.currency,
                  amountCents: s.balance_cents,
                  origin: 'change',
                  parentId: s.voucher_id,
                  stationId: c.stationId,
                  issuedBy: c.by,
                  smallCents: 0,
                  otherCents: 0,
                  buyerDocument: vouchers.openDocument(original.buyerDocument),
                  at,
                })
              : null
          if (
            (await store.closeSessionRow(tx, s.id, {
              status: c.status,
              at,
              by: c.by,
              station: c.stationId,
              changeVoucherId: change?.id ?? null,
            })) !== 1
          )
            throw new DomainError('TERMINAL_SESSION_CLOSED', 'the session was closed at the same moment', {})
          await store.insertLedger(tx, {
            id: newId('tl'),
            sessionId: s.id,
            at,
            kind: c.status,
            amountCents: -s.balance_cents,
            balanceCents: 0,
            refId: change?.id ?? '',
            gameId: null,
          })
          await appendJournal(tx, {
            at,
            type: c.status === 'closed' ? 'terminal.session_closed' : 'terminal.session_recovered',
            scope: `hall:${s.hall_id}`,
            payload: {
              sessionId: s.id,
              terminalId: s.terminal_id,
              voucherId: s.voucher_id,
              changeVoucherId: change?.id ?? null,
              balanceCents: s.balance_cents,
              spentCents: s.spent_cents,
              wonCents: s.won_cents,
              stationId: c.stationId,
              by: c.by,
            },
          })
          const docs: PrintDoc[] = []
          if (change) {
            const hall = await vouchers.hallFor(tx, s.hall_id)
            docs.push(
              // Issue 29 point 6: the paper names the station (the terminal or the cash desk), never its id.
              vouchers.ticketOf(change, hall, {
                station: await stationNameOf(tx, c.stationId),
                origin: 'change',
                paper: printer.paper,
              }),
            )
            await deps.prints.recordWithin(tx, {
              ref: s.id,
              hallId: s.hall_id,
              stationId: c.stationId,
              voucherId: s.voucher_id,
              docs,
              at,
              items: { change: change.id },
            })
          }
          return {
            sessionId: s.id,
            status: c.status,
            balanceCents: 0,
            change: change ? vouchers.view(change, at) : null,
            docs,
          }
        },
        scopes ? { scopes } : undefined,
      ),
    )
    // No printer is waited on under the write lock: the change voucher prints after the commit.
    const print = docs.length
      ? await deps.prints.printSale(
          { ref: result.sessionId, stationId: c.stationId },
          docs,
          `terminal-${result.sessionId}`,
        )
      : null
    return { ...result, print }
  }

  /**
   * What the terminal shows: its session (balance, what it spent and won), the hall's current game, the cards it holds
   * in that game with the numbers still needed, best first, and the terms (marking mode, caps). Prizes of finished
   * games are credited first, so a terminal that reconnects sees the game as it is.
   */
  async function view(terminalId: string, sessionId?: string, focusGameId?: string) {
    const s = sessionId ? await store.sessionById(db, sessionId) : await store.openSessionOf(db, terminalId)
    if (s && s.status === 'open') {
      const pending = await store.heldWinnersOfSession(db, s.id)
      if (pending.length) await settle(pending)
    }
    const session = s ? await store.sessionById(db, s.id) : undefined
    const hallId = session?.hall_id ?? null
    const terms = hallId ? await termsOf(hallId) : null
    let game = null
    const games = hallId && session?.status === 'open' ? await gamesOfHall(hallId) : []
    if (hallId && session?.status === 'open') {
      // The game asked for (one of the hall's), else one in which the session holds cards in play, else the default.
      const inPlay = await store.gamesInPlayOf(db, session.id)
      const shown = await gameOfHall(hallId)
      const gameId =
        (focusGameId && games.some((g) => g.gameId === focusGameId) ? focusGameId : null) ??
        (shown && inPlay.includes(shown) ? shown : (inPlay.find((g) => games.some((x) => x.gameId === g)) ?? shown))
      if (gameId) {
        const state = await bingo.getGameState(gameId)
        const row = (await gameById(db, gameId))!
        const layout = JSON.parse(row.layout) as CardLayout
        const called = new Set(state.balls)
        const held = (await store.heldCardsOf(db, session.id, gameId)).map((c) => {
          const rows = JSON.parse(c.numbers) as number[][]
          return {
            id: c.id,
            serial: c.serial,
            seriesCode: c.series_code,
            cardNo: Number(c.card_no),
            rows,
            grid: cardFromRows(rows, layout).grid,
          }
        })
        game = {
          gameId,
          orderNo: state.orderNo,
          status: state.status,
          onSale: state.status === GameStatus.OnSale,
          faceValueCents: state.faceValueCents,
          lineClosed: state.lineClosed,
          balls: state.balls,
          winners: state.winners,
          cards: rankCards(held, called, state.lineClosed).map((r) => ({
            ...r.card,
            target: r.target,
            missing: r.missing,
          })),
        }
      }
    }
    return {
      terminalId,
      session: session
        ? {
            id: session.id,
            status: session.status,
            hallId: session.hall_id,
            // The seat's own hall: in an interconnected game the game's hall is the central's (BNG-100).
            hallName: (await store.hallNameOf(db, session.hall_id)) ?? '',
            currency: session.currency,
            balanceCents: session.balance_cents,
            spentCents: session.spent_cents,
            wonCents: session.won_cents,
            openedAt: session.opened_at,
            ledger: await store.ledgerOf(db, session.id),
          }
        : null,
      terms,
      /** The games the player may choose to buy for (BNG-100: the hall's own and an interconnected one at once). */
      games,
      game,
    }
  }

  return {
    setTerms,
    termsOf,
    open,
    load,
    terminalsOf,
    buy,
    claim,
    end,
    recover,
    view,
    settleGame,
    hooks: terminalHooks,
  }
}

export type TerminalService = ReturnType<typeof createTerminalService>
