/**
 * Issue #8: prizes beyond one hall's line and bingo, and games beyond one hall. Prima de bingo (prima-service.ts),
 * progressive / interconnected / lucky-ball pots (pots-service.ts), simultaneous games (simultaneous-service.ts),
 * bonus prize payment with the payee's identity, and what the game state shows of all of them. Their SQL is store.ts.
 *
 * The bingo service calls `hooks` inside its own transactions (announce, sell, close of sales, prize awarded, void,
 * state), so every movement commits or rolls back with the game event that caused it and is journaled in the same
 * hash chain. The use cases here that are not part of a game step (configuring, joining, selling in a hall, paying)
 * run their own transactions and publish the same `game:changed` events after the commit.
 */
import { protectDocument } from '../shared/journal-privacy.ts'
import { openDocumentAtRest, sealDocumentAtRest } from '../shared/document-at-rest.ts'
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import type { LineOrBingo } from './game.ts'
import { completingBall, type PotKind } from './pots.ts'
import { getProfile, type Profile } from '../shared/profile.ts'
import { certificateFor } from '../equipment/software.ts'
import { hallProfile } from './betting-plan.ts'
import type { BingoEvent, BingoHooks, Clock, EntropySource, Game, SoldCard } from './types.ts'
import type { BonusWinnerView, GameExtras } from './game-extras.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Sealer } from '../shared/sealing.ts'
import { QUICKNET_KEY, drawRoundFor, verifyBeaconSignature, type BeaconKey } from '../shared/beacon.ts'
import { LUCKY_BALL_V2, LUCKY_BALL_VERSION, type LuckyProof, type LuckyProofV2 } from './pots.ts'
import {
  addPotHallTx,
  awardPots,
  contributeToPots,
  createPotTx,
  drawLucky,
  drawLuckyV2,
  ensureLuckyDraw,
  potViews,
  reversePots,
  type CreatePotInput,
  type LuckySeedVault,
  type PotAward,
  type PotWinner,
} from './pots-service.ts'
import {
  announcePrima,
  configurePrimaTx,
  deductPrima,
  deductSimultaneousPrima,
  reverseSimultaneousPrima,
  primaPaymentTx,
  reversePrimaTx,
  settlePrimaTx,
  viewOf,
  withdrawPrima,
  type PrimaConfig,
  type PrimaView,
} from './prima-service.ts'
import { gameScope, hallSales, joinGameTx, loadGameRow, sellInHallTx, type JoinInput } from './simultaneous-service.ts'
import {
  bonusCardNumbersAndHall,
  bonusHallProfile,
  bonusLastJournalSeq,
  bonusPrizeById,
  bonusPrizeReceiptFacts,
  bonusPrizesOfGame,
  bonusReceiptBalls,
  insertBonusPrize as insertBonusPrizeRow,
  markBonusPrizePaid,
  unpaidPotPrizesOfGame,
  voidBonusPrizesOfGame,
} from './store/bonus.ts'
import { paidBonusPrizesOfGame } from './store/claims.ts'
import { cameraRecord } from './context.ts'
import {
  appendPotLedgerEntry,
  hallIdsOfPot,
  hallIdsWithPots,
  luckyCommitmentOfGame,
  luckyDrawByGame,
  luckyNumbersOfGame,
  potBalance,
  potById,
  potGamesSinceLastAward,
  potLedgerEntries,
  type PotRow,
  potAnswer,
} from './store/pots.ts'
import { primaByHall, primaGameById, primaLedgerEntries, type PrimaLedgerEntry } from './store/prima.ts'
import {
  activeSimultaneousGamesOfHall,
  gameHallViews,
  gameHallsOfGame,
  simultaneousHallOfCard,
  verifiedWinnerHallsOfGame,
} from './store/simultaneous.ts'

export interface BonusDeps {
  db: Database
  clock: Clock
  entropy: EntropySource
  /** Lucky-ball seeds are kept sealed under the sealing key (DESIGN.md "Sealed secrets"). */
  sealer: Sealer
  /** Called after each commit, like the bingo service's publish. */
  publish?: (event: BingoEvent) => void
  /** Issue 24 point 4: a server without the demo (config.production) takes no demo record as a certificate. */
  demoReferencesRefused?: boolean
}

export interface BonusReceipt {
  /** BNG-69: a receipt apart from the ordinary prize, with the accumulated games and the amount. */
  prizeId: string
  source: string
  name: string
  amountCents: number
  currency: string
  accumulatedGames: number | null
  gameId: string
  gameOrderNo: number
  hallId: string
  serial: string
  seriesCode: string
  cardNo: number
  rows: number[][]
  atBall: number
  completedAtBall: number | null
  balls: number[]
  status: string
  paidAt: string | null
  payee: { name: string; document: string } | null
  hallName: string
  paidBy: string | null
  /** BNG-70: how it was paid (null while unpaid). */
  payment: { method: 'cash' } | { method: 'cheque'; chequeNumber: string } | null
}

/** A bolillo-draw-v2 game: its row carries the beacon round fixed at close of sales (games.beacon_round, issue 15). */
function isV2Game(game: Game): boolean {
  return game.beaconRound !== null
}

export function createBonusService(deps: BonusDeps) {
  const { db } = deps
  const now = () => deps.clock.now().toISOString()
  const publish = (e: BingoEvent) => {
    try {
      deps.publish?.(e)
    } catch {
      /* a screen must never break a sale */
    }
  }
  const joinedListeners = new Set<(e: { gameId: string; hallId: string }) => void>()

  function newId(prefix: string): string {
    return recordId(prefix, deps.entropy.randomBytes(RECORD_ID_BYTES))
  }

  // A lucky seed is bound to its game: a sealed value copied to another game's row does not open.
  const vault: LuckySeedVault = {
    seal: (seed, gameId) => deps.sealer.seal(seed, `lucky-seed|${gameId}`),
    // Rows written before sealing keep their seed in `seed_hex` (old data still verifies).
    open: (draw) =>
      draw.seedSealed
        ? deps.sealer.open(draw.seedSealed, `lucky-seed|${draw.gameId}`)
        : Buffer.from(draw.seedHex, 'hex'),
  }

  /** One transaction; `game:changed` events go out after the commit. */
  async function tx<T>(fn: (tx: Sql, events: BingoEvent[]) => Promise<T>): Promise<T> {
    const events: BingoEvent[] = []
    const result = await db.transaction((inner) => fn(inner, events))
    for (const e of events) publish(e)
    return result
  }

  async function profileOf(sql: Sql, hallId: string): Promise<Profile> {
    const hall = await bonusHallProfile(sql, hallId)
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    const profile = getProfile(hall.profileId)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profileId}`)
    return hallProfile(profile, hall.settings)
  }

  /** Winning cards with the hall that sold them, their numbers and the ball that completed them. */
  async function winnersWithHalls(
    sql: Sql,
    winners: ReadonlyArray<{ serial: string; cardId: string; atBall: number }>,
    balls: readonly number[],
    kind: LineOrBingo,
  ): Promise<PotWinner[]> {
    const out: PotWinner[] = []
    for (const w of winners) {
      const c = await bonusCardNumbersAndHall(sql, w.cardId)
      const rows = JSON.parse(c?.numbers ?? '[]') as number[][]
      const done = completingBall(rows, balls.slice(0, w.atBall), kind)
      out.push({
        serial: w.serial,
        cardId: w.cardId,
        hallId: c?.hallId ?? '',
        atBall: w.atBall,
        rows,
        completingBall: done?.ball ?? null,
        completedAtBall: done?.atBall ?? null,
      })
    }
    return out
  }

  async function insertBonusPrize(
    sql: Sql,
    p: {
      gameId: string
      cardId: string
      hallId: string
      source: BonusWinnerView['source']
      potId: string
      name: string
      prizeKind: LineOrBingo
      amountCents: number
      atBall: number
      completedAtBall: number | null
      accumulatedGames: number | null
      at: string
    },
  ): Promise<void> {
    await insertBonusPrizeRow(sql, { id: newId('bz'), ...p })
  }

  async function recordPotAwards(sql: Sql, gameId: string, awards: PotAward[], at: string): Promise<void> {
    for (const a of awards) {
      const accumulatedGames = await potGamesSinceLastAward(sql, a.potId, gameId)
      for (const w of a.winners) {
        await insertBonusPrize(sql, {
          gameId,
          cardId: w.cardId,
          hallId: w.hallId,
          source: a.kind,
          potId: a.potId,
          name: a.name,
          prizeKind: a.prizeKind,
          amountCents: w.amountCents,
          atBall: w.atBall,
          completedAtBall: w.completedAtBall,
          accumulatedGames,
          at,
        })
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ hooks

  const hooks: BingoHooks = {
    async gameAnnounced(sql, e) {
      await announcePrima(sql, { gameId: e.gameId, hallId: e.hallId, profile: e.profile, at: e.at, scope: e.scope })
      await ensureLuckyDraw(sql, {
        gameId: e.gameId,
        hallIds: [e.hallId],
        seed: () => deps.entropy.randomBytes(32),
        vault,
        at: e.at,
        scope: e.scope,
      })
    },

    async cardsSelling(sql, e) {
      // BNG-100: the game's halls as the sale read them with its game (a kiosk sale), else read here.
      const halls = e.joined?.gameHalls ?? (await gameHallsOfGame(sql, e.game.id)).length
      if (halls > 0) {
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `game ${e.game.id} is simultaneous: each hall sells its own range (POST /api/games/${e.game.id}/halls/{hallId}/sales)`,
          { rule: 'BNG-100' },
        )
      }
    },

    async salesClosed(sql, e) {
      const sales = await hallSales(sql, e.game)
      if (sales[0]?.simultaneous) {
        const halls = await gameHallsOfGame(sql, e.game.id)
        await appendJournal(sql, {
          at: e.at,
          type: 'simultaneous.sales_closed',
          scope: e.scope,
          payload: {
            gameId: e.game.id,
            halls: halls.map((h) => ({
              hallId: h.hallId,
              fromCardNo: h.fromCardNo,
              toCardNo: h.nextCardNo - 1,
              cardsSold: h.cardsSold,
              salesCents: h.cardsSold * e.game.faceValueCents,
            })),
            rule: 'BNG-100',
          },
        })
        // BNG-58: a simultaneous game funds each hall's prima from its own sales, as any ordinary game does.
        const withProfiles = []
        for (const h of sales) withProfiles.push({ ...h, profile: await profileOf(sql, h.hallId) })
        await deductSimultaneousPrima(sql, {
          gameId: e.game.id,
          centralHallId: e.game.hallId,
          faceValueCents: e.game.faceValueCents,
          halls: withProfiles,
          at: e.at,
          scope: e.scope,
        })
      } else {
        await deductPrima(sql, {
          gameId: e.game.id,
          hallId: e.game.hallId,
          cardsSold: e.game.cardsSold,
          faceValueCents: e.game.faceValueCents,
          at: e.at,
          scope: e.scope,
        })
      }
      await contributeToPots(sql, {
        gameId: e.game.id,
        sales: sales.map((s) => ({ hallId: s.hallId, salesCents: s.salesCents })),
        at: e.at,
        scope: e.scope,
      })
      // A bolillo-draw-v2 game (its row carries the beacon round fixed at close) waits for `beaconVerified`: no lucky
      // number before the beacon is verified (DESIGN.md draw v2 point 3). A game without a beacon draws v1 now.
      if (!isV2Game(e.game))
        await drawLucky(sql, {
          gameId: e.game.id,
          salesDigest: e.game.salesDigest ?? '',
          externalEntropy: e.game.externalEntropy ?? '',
          ballCount: e.game.ballCount,
          vault,
          at: e.at,
          scope: e.scope,
        })
    },

    /**
     * The game's beacon round `R` has been obtained and verified (called by the v2 draw after close of sales): the
     * lucky numbers are fixed now with bolillo-lucky-v2. The round must be the one the close time fixes, and its
     * signature is checked again here, so that a wrong value cannot fix them.
     */
    async beaconVerified(sql, { game, beacon }) {
      if (!game.salesClosedAt || !game.salesDigest)
        throw new DomainError('ILLEGAL_TRANSITION', `game ${game.id}: no beacon before the close of sales`, {
          rule: 'RNG-28',
        })
      const expected = game.beaconRound ?? drawRoundFor(Math.floor(Date.parse(game.salesClosedAt) / 1000))
      if (Number(expected) !== beacon.round)
        throw new DomainError(
          'INVALID_SIGNATURE',
          `game ${game.id} draws with beacon round ${expected}, not ${beacon.round}`,
          { rule: 'RNG-28' },
        )
      const key: BeaconKey =
        beacon.scheme === 'demo'
          ? { scheme: 'demo', chainHash: beacon.chainHash, publicKey: beacon.publicKey ?? '' }
          : QUICKNET_KEY
      const check = verifyBeaconSignature(key, beacon.round, beacon.signature)
      if (!check.ok || check.round.randomness !== beacon.randomness)
        throw new DomainError(
          'INVALID_SIGNATURE',
          `beacon round ${beacon.round} does not verify: ${check.ok ? 'wrong randomness' : check.reason}`,
          { rule: 'RNG-28' },
        )
      const numbers = await drawLuckyV2(sql, {
        gameId: game.id,
        salesDigest: game.salesDigest,
        beacon,
        ballCount: game.ballCount,
        vault,
        at: deps.clock.now().toISOString(),
        scope: gameScope(game),
      })
      if (numbers)
        publish({
          type: 'game:changed',
          gameId: game.id,
          hallId: game.hallId,
          seq: await bonusLastJournalSeq(sql),
          reason: 'lucky_drawn',
        })
    },

    async prizeAwarded(sql, e) {
      const winners = await winnersWithHalls(sql, e.winners, e.balls, e.kind)
      if (e.kind === 'bingo') {
        const atBall = Math.min(...winners.map((w) => w.atBall))
        const award = await settlePrimaTx(sql, {
          gameId: e.game.id,
          hallId: e.game.hallId,
          atBall,
          winners: winners.map((w) => ({ serial: w.serial, cardId: w.cardId, completedAtBall: w.completedAtBall })),
          at: e.at,
          scope: e.scope,
        })
        if (award) {
          const bySerial = new Map(winners.map((w) => [w.serial, w]))
          for (const share of award.winners) {
            const w = bySerial.get(share.serial)!
            await insertBonusPrize(sql, {
              gameId: e.game.id,
              cardId: w.cardId,
              hallId: w.hallId,
              source: 'prima',
              potId: '',
              name: 'Prima de bingo',
              prizeKind: 'bingo',
              amountCents: share.amountCents,
              atBall: w.atBall,
              completedAtBall: w.completedAtBall,
              accumulatedGames: award.accumulatedGames,
              at: e.at,
            })
          }
        }
      }
      const luckyNumbers = await luckyNumbersOfGame(sql, e.game.id)
      const awards = await awardPots(sql, {
        gameId: e.game.id,
        kind: e.kind,
        winners,
        luckyNumbers,
        at: e.at,
        scope: e.scope,
      })
      await recordPotAwards(sql, e.game.id, awards, e.at)
    },

    async gameVoided(sql, e) {
      await reversePrimaTx(sql, { gameId: e.game.id, hallId: e.game.hallId, at: e.at, scope: e.scope })
      const joined = await gameHallsOfGame(sql, e.game.id)
      if (joined.length > 0)
        await reverseSimultaneousPrima(sql, {
          gameId: e.game.id,
          hallIds: joined.map((h) => h.hallId),
          at: e.at,
          scope: e.scope,
        })
      const open = await unpaidPotPrizesOfGame(sql, e.game.id)
      // BNG-82: a pot that paid a prize of this game keeps the game's contributions: the prize, which stands, was
      // paid out of them; taking them back would leave the pot owing and the next games' players filling the hole.
      const paidFrom = (await paidBonusPrizesOfGame(sql, e.game.id)).filter((p) => p.potId).map((p) => p.potId)
      await voidBonusPrizesOfGame(sql, e.game.id)
      await reversePots(sql, {
        gameId: e.game.id,
        keepPotIds: [...new Set(paidFrom)],
        voidedAwards: open.map((o) => ({
          potId: o.potId,
          prizeKind: o.prizeKind,
          amountCents: o.amountCents,
        })),
        at: e.at,
        scope: e.scope,
      })
    },

    async gameState(sql, game) {
      return gameExtras(sql, game)
    },
  }

  async function gameExtras(sql: Sql, game: Game): Promise<Partial<GameExtras>> {
    const out: Partial<GameExtras> = {}
    const prima = await primaGameById(sql, game.id)
    if (prima)
      Object.assign(out, {
        primaActive: prima.active,
        primaAmountCents: prima.amountCents,
        primaBallLimit: prima.ballLimit,
        primaFundCents: prima.fundAtStartCents,
      })
    const halls = await gameHallViews(sql, game.id)
    const hallIds = halls.length ? halls.map((h) => h.hallId) : [game.hallId]
    out.pots = await potViews(sql, hallIds)
    const lucky = await luckyCommitmentOfGame(sql, game.id)
    if (lucky) out.luckyBall = { commitment: lucky.commitment, numbers: lucky.numbers }
    if (halls.length) {
      out.halls = halls.map((h) => ({
        hallId: h.hallId,
        hallName: h.name,
        seriesCode: h.seriesCode,
        fromCardNo: h.fromCardNo,
        toCardNo: h.toCardNo,
        cardsSold: h.cardsSold,
      }))
      out.winnerHalls = await verifiedWinnerHallsOfGame(sql, game.id)
    }
    const bonus = await bonusPrizesOfGame(sql, game.id)
    out.bonusWinners = bonus.map((b) => ({
      id: b.id,
      source: b.source,
      name: b.name,
      prizeKind: b.prizeKind,
      serial: b.serial,
      cardId: b.cardId,
      hallId: b.hallId,
      amountCents: b.amountCents,
      atBall: b.atBall,
      status: b.status,
    }))
    return out
  }

  // ------------------------------------------------------------------------------------------------ prima

  async function configurePrima(hallId: string, cfg: PrimaConfig): Promise<PrimaView> {
    return tx(async (sql) => viewOf(await configurePrimaTx(sql, hallId, await profileOf(sql, hallId), cfg, now())))
  }

  async function getPrima(hallId: string): Promise<(PrimaView & { ledger: PrimaLedgerEntry[] }) | null> {
    const row = await primaByHall(db, hallId)
    return row ? { ...viewOf(row), ledger: await primaLedgerEntries(db, hallId) } : null
  }

  /** A hall's prima as the API shows it, without its ledger; null where the hall has none. */
  async function primaOfHall(hallId: string): Promise<{ hallId: string; prima: PrimaView | null }> {
    const row = await primaByHall(db, hallId)
    return { hallId, prima: row ? viewOf(row) : null }
  }

  // ------------------------------------------------------------------------------------------------ pots

  /** The new pot with its column names, as the API has always answered it, and its balance. */
  async function createPot(input: CreatePotInput): Promise<PotRow & { amountCents: number }> {
    const id = newId('pot')
    const pot = await tx(async (sql) => {
      // Issue 26 (RNG-3): a pot is put in play only in halls where its award software holds a certificate of the
      // running build (as a game in a hall with a pot is announced only then: equipment/software.ts).
      for (const hallId of input.hallIds)
        await certificateFor(sql, 'pot-award', await profileOf(sql, hallId), deps.demoReferencesRefused ?? false)
      return createPotTx(sql, id, input, now())
    })
    return { ...potAnswer(pot), amountCents: (await potBalance(db, id)).mainCents }
  }

  /** An interconnected pot gains a hall (RNG-16); returns the pot as it is after the commit. */
  async function addPotHall(potId: string, hallId: string): Promise<Awaited<ReturnType<typeof getPot>>> {
    await tx(async (sql) => {
      await certificateFor(sql, 'pot-award', await profileOf(sql, hallId), deps.demoReferencesRefused ?? false)
      await addPotHallTx(sql, potId, hallId, now())
    })
    return getPot(potId)
  }

  async function listPots(hallId?: string) {
    if (hallId) return potViews(db, [hallId])
    return potViews(db, await hallIdsWithPots(db))
  }

  async function getPot(potId: string) {
    const pot = await potById(db, potId)
    if (!pot) throw new DomainError('NOT_FOUND', `pot ${potId} not found`)
    const hallIds = await hallIdsOfPot(db, potId)
    const b = await potBalance(db, potId)
    return {
      id: pot.id,
      name: pot.name,
      kind: pot.kind as PotKind,
      currency: pot.currency,
      contributionBp: pot.contributionBp,
      reserveBp: pot.reserveBp,
      seedCents: pot.seedCents,
      maxCents: pot.maxCents,
      condition: JSON.parse(pot.conditions),
      conditions: pot.publicText,
      status: pot.status,
      hallIds,
      amountCents: b.mainCents,
      reserveCents: b.reserveCents,
      ledger: await potLedgerEntries(db, potId),
      authorisationRef: pot.authorisationRef,
      commissionBp: pot.commissionBp,
    }
  }

  // ------------------------------------------------------------------------------------------------ bonus prizes

  /**
   * Settles one awarded prima, pot or lucky-ball prize inside the cash desk's payout transaction (issue 23: the cash
   * desk pays it with the card's other prizes, against the card's signed code, out of the payer's open shift). This is
   * the product line's half of a payout: it records who was paid (BNG-55 / RNG-18: the winner's identity; BNG-69: the
   * receipt's data), how (BNG-70: cash, or a cheque where the hall's profile allows it, its number recorded), the
   * prima's or the pot's ledger, and the journal; it moves no cash. A second settlement fails with ALREADY_PAID.
   */
  async function settleWithin(
    sql: Sql,
    input: {
      prizeId: string
      at: string
      paidBy: string
      payee: { name: string; document: string; phone?: string | null }
      payment: { method: 'cash' } | { method: 'cheque'; chequeNumber: string }
      stationId: string | null
      payoutId: string | null
    },
  ): Promise<{ seq: number }> {
    const name = input.payee?.name?.trim() ?? ''
    const document = input.payee?.document?.trim() ?? ''
    if (!name || !document)
      throw new DomainError(
        'PAYEE_ID_REQUIRED',
        "a prima or jackpot prize is paid against the winner's name and identity document",
        { rule: 'BNG-55', fields: ['payeeName', 'payeeDocument'] },
      )
    const payment = input.payment
    const chequeNumber = payment.method === 'cheque' ? payment.chequeNumber : null
    const p = await bonusPrizeById(sql, input.prizeId)
    if (!p) throw new DomainError('NOT_VERIFIED', `no awarded bonus prize ${input.prizeId}`)
    if (p.status === 'void') throw new DomainError('TICKET_VOID', `bonus prize ${p.id} was voided with its game`)
    // CFG-22: a progressive pot's winner (one hall's or interconnected: both accumulate from game to game) also leaves
    // a contact telephone where the hall's profile asks for it; not the prima nor a lucky-ball prize.
    const phone = input.payee?.phone?.trim() ?? ''
    if (
      (p.source === 'progressive' || p.source === 'interconnected') &&
      !phone &&
      (await profileOf(sql, p.hallId)).potPayeePhoneRequired
    )
      throw new DomainError(
        'PAYEE_PHONE_REQUIRED',
        "a progressive pot's prize is paid against the winner's name, identity document and contact telephone",
        { rule: 'CFG-22', field: 'payeePhone' },
      )
    if (payment.method === 'cheque' && !(await profileOf(sql, p.hallId)).prizeChequeAllowed) {
      throw new DomainError('RULE_DISABLED', "this hall's rules pay prizes in cash: no cheque (BNG-70)", {
        field: 'payment.method',
        rule: 'BNG-70',
      })
    }
    const at = input.at
    if (
      !(await markBonusPrizePaid(sql, p.id, {
        at,
        paidBy: input.paidBy,
        payeeName: name,
        // Issue 24 point 2: stored sealed; the prize's record opens it.
        payeeDocument: sealDocumentAtRest(deps.sealer, document)!,
        payeePhone: phone ? sealDocumentAtRest(deps.sealer, phone) : null,
        paymentMethod: payment.method,
        chequeNumber,
        stationId: input.stationId,
      }))
    )
      throw new DomainError('ALREADY_PAID', `bonus prize ${p.id} was already paid at ${p.paidAt}`, {
        paidAt: p.paidAt,
      })
    const game = await loadGameRow(sql, p.gameId)
    if (p.source === 'prima')
      await primaPaymentTx(sql, {
        hallId: game.hallId,
        gameId: game.id,
        bonusPrizeId: p.id,
        amountCents: p.amountCents,
        at,
      })
    else
      await appendPotLedgerEntry(sql, p.potId, {
        kind: 'payment',
        gameId: game.id,
        hallId: p.hallId,
        prizeId: p.id,
        mainCents: 0,
        reserveCents: 0,
        detail: {
          paidCents: p.amountCents,
          serial: p.serial,
          // Issue 24 point 2: the ledger names the winner; the document is kept sealed on the prize (bonus_prizes).
          payee: { name },
          paidBy: input.paidBy,
        },
        at,
      })
    const rec = await appendJournal(sql, {
      at,
      type: 'bonus.paid',
      scope: gameScope(game),
      payload: {
        gameId: game.id,
        prizeId: p.id,
        source: p.source,
        potId: p.potId || null,
        name: p.name,
        prizeKind: p.prizeKind,
        serial: p.serial,
        hallId: p.hallId,
        amountCents: p.amountCents,
        accumulatedGames: p.accumulatedGames,
        paidBy: input.paidBy,
        payee: { name, document: protectDocument(deps.sealer, document) },
        payment: payment.method,
        chequeNumber,
        stationId: input.stationId,
        payoutId: input.payoutId,
        rule: payment.method === 'cheque' ? 'BNG-70' : 'BNG-69',
        // GEN-31: the camera on the game's ball exit, so the payout is matched to the draw's footage.
        ...(await cameraRecord(sql, game.hallId)),
      },
    })
    return { seq: rec.seq }
  }

  async function listBonusPrizes(
    gameId: string,
  ): Promise<Array<BonusWinnerView & { accumulatedGames: number | null; completedAtBall: number | null }>> {
    const rows = await bonusPrizesOfGame(db, gameId)
    return rows.map((b) => ({
      id: b.id,
      source: b.source,
      name: b.name,
      prizeKind: b.prizeKind,
      serial: b.serial,
      cardId: b.cardId,
      hallId: b.hallId,
      amountCents: b.amountCents,
      atBall: b.atBall,
      status: b.status,
      accumulatedGames: b.accumulatedGames,
      completedAtBall: b.completedAtBall,
    }))
  }

  /** BNG-69: the receipt, with the accumulated games, the amount, the extraction order and the card's series. */
  async function bonusReceipt(prizeId: string): Promise<BonusReceipt> {
    const p = await bonusPrizeReceiptFacts(db, prizeId)
    if (!p) throw new DomainError('NOT_FOUND', `bonus prize ${prizeId} not found`)
    const balls = await bonusReceiptBalls(db, p.gameId)
    return {
      prizeId: p.id,
      source: p.source,
      name: p.name,
      amountCents: p.amountCents,
      currency: p.currency,
      accumulatedGames: p.accumulatedGames,
      gameId: p.gameId,
      gameOrderNo: p.orderNo,
      hallId: p.hallId,
      serial: p.serial,
      seriesCode: p.seriesCode,
      cardNo: p.cardNo,
      rows: JSON.parse(p.numbers),
      atBall: p.atBall,
      completedAtBall: p.completedAtBall,
      balls,
      status: p.status,
      paidAt: p.paidAt,
      payee: p.payeeName
        ? { name: p.payeeName, document: openDocumentAtRest(deps.sealer, p.payeeDocument) ?? '' }
        : null,
      hallName: p.hallName,
      paidBy: p.paidBy,
      payment:
        p.status !== 'paid'
          ? null
          : p.paymentMethod === 'cheque'
            ? { method: 'cheque', chequeNumber: p.chequeNumber ?? '' }
            : { method: 'cash' },
    }
  }

  /** RNG-28: the lucky-ball proof, published once the game has ended (like the draw proof); the seed is opened only here. */
  async function luckyProof(gameId: string): Promise<LuckyProof | LuckyProofV2> {
    const game = await loadGameRow(db, gameId)
    if (game.status !== 'finished' && game.status !== 'void')
      throw new DomainError(
        'ILLEGAL_TRANSITION',
        `the lucky-ball proof of game ${gameId} is published when the game ends (it is ${game.status})`,
      )
    const row = await luckyDrawByGame(db, gameId)
    if (!row) throw new DomainError('NOT_FOUND', `game ${gameId} had no lucky ball`)
    const seed = Buffer.from(vault.open(row)).toString('hex')
    const common = {
      gameId,
      commitment: row.commitment,
      seed,
      salesDigest: game.salesDigest ?? '',
      ballCount: game.ballCount,
      count: row.numberCount,
      numbers: row.numbers ?? [],
    }
    if (row.version === LUCKY_BALL_V2 && row.beacon) {
      return {
        version: LUCKY_BALL_V2,
        ...common,
        closedAt: new Date(Math.floor(Date.parse(game.salesClosedAt ?? '') / 1000) * 1000).toISOString(),
        beacon: JSON.parse(row.beacon) as LuckyProofV2['beacon'],
      }
    }
    return { version: LUCKY_BALL_VERSION, ...common, externalEntropy: game.externalEntropy ?? '' }
  }

  // ------------------------------------------------------------------------------------------------ simultaneous

  async function joinGame(input: JoinInput) {
    const game = await tx(async (sql, events) => {
      const at = now()
      const g = await joinGameTx(sql, input, at)
      await withdrawPrima(sql, {
        gameId: g.id,
        at,
        scope: gameScope(g),
        reason: 'simultaneous game (BNG-100): the halls play the central prizes',
      })
      await ensureLuckyDraw(sql, {
        gameId: g.id,
        hallIds: [input.hallId],
        seed: () => deps.entropy.randomBytes(32),
        vault,
        at,
        scope: gameScope(g),
      })
      events.push({
        type: 'game:changed',
        gameId: g.id,
        hallId: g.hallId,
        seq: await bonusLastJournalSeq(sql),
        reason: 'hall_joined',
      })
      return g
    })
    for (const l of joinedListeners) {
      try {
        l({ gameId: game.id, hallId: input.hallId })
      } catch {
        /* a screen must never break a join */
      }
    }
    return (await gameExtras(db, await loadGameRow(db, game.id))).halls ?? []
  }

  async function sellInHall(input: {
    gameId: string
    hallId: string
    count: number
    channel: string
  }): Promise<SoldCard[]> {
    return tx(async (sql, events) => {
      const { game, cards } = await sellInHallTx(sql, input, newId, now())
      events.push({
        type: 'game:changed',
        gameId: game.id,
        hallId: game.hallId,
        seq: await bonusLastJournalSeq(sql),
        reason: 'cards_sold',
      })
      return cards
    })
  }

  /**
   * sellInHall inside a caller's transaction (issue 13: a counter sale that takes the cash into the station's drawer
   * and prints the cards before it commits). Call `publish()` once that transaction has committed.
   */
  async function sellInHallWithin(
    sql: Sql,
    input: { gameId: string; hallId: string; count: number; channel: string },
  ): Promise<{ cards: SoldCard[]; faceValueCents: number; publish(): void }> {
    const { game, cards } = await sellInHallTx(sql, input, newId, now())
    const seq = await bonusLastJournalSeq(sql)
    return {
      cards,
      faceValueCents: game.faceValueCents,
      publish: () => publish({ type: 'game:changed', gameId: game.id, hallId: game.hallId, seq, reason: 'cards_sold' }),
    }
  }

  /** Hall that sold each card of a game (simultaneous games attribute winners per hall). */
  async function hallOfCards(gameId: string, cardIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    for (const id of cardIds) {
      const hallId = await simultaneousHallOfCard(db, id, gameId)
      if (hallId !== undefined) out.set(id, hallId)
    }
    return out
  }

  return {
    hooks,
    configurePrima,
    getPrima,
    primaOfHall,
    primaLedger: (hallId: string) => primaLedgerEntries(db, hallId),
    createPot,
    addPotHall,
    listPots,
    getPot,
    potLedger: (potId: string) => potLedgerEntries(db, potId),
    settleWithin,
    listBonusPrizes,
    bonusReceipt,
    luckyProof,
    joinGame,
    sellInHall,
    sellInHallWithin,
    hallOfCards,
    activeGamesOfHall: (hallId: string) => activeSimultaneousGamesOfHall(db, hallId),
    gameHalls: async (gameId: string) => (await gameHallsOfGame(db, gameId)).map((h) => h.hallId),
    /** The halls of a simultaneous game read inside a caller's transaction (none: a one-hall game). */
    gameHallsWithin: async (sql: Sql, gameId: string) => (await gameHallsOfGame(sql, gameId)).map((h) => h.hallId),
    /** Called on the node that committed a join, so that it can put the hall's screens in the game's room. */
    onHallJoined(l: (e: { gameId: string; hallId: string }) => void) {
      joinedListeners.add(l)
      return () => joinedListeners.delete(l)
    },
    gameExtras: (game: Game) => gameExtras(db, game),
  }
}

export type BonusService = ReturnType<typeof createBonusService>
