/** Registers and reports of an instant game: the prize register (INS-5) and the reconciliation. */
import { inflateSync } from 'node:zlib'
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { openPrizeTags } from './codes.ts'
import type { InstantContext } from './context.ts'
import { openDocumentAtRest } from '../shared/document-at-rest.ts'
import {
  packsOfBatch,
  payoutsOfBatch,
  payoutTotals,
  reportedTicketsByKind,
  salesTotal,
  soldPrizeTags,
  type Batch,
} from './store.ts'

export function createReconciliationUseCases(ctx: InstantContext) {
  const { db, now, batchByGame, checkedOf } = ctx

  /**
   * Prizes in play by tier, opened inside this use case only: for pre-printed stock the sealed pack prize counts of
   * the activated packs; for an electronic pool the prize tags of the tickets sold.
   */
  async function prizesInPlay(tx: Sql, b: Batch, activatedPacks: number[]): Promise<number[]> {
    const T = checkedOf(b).design.tiers.length
    const inPlay = new Array<number>(T).fill(0)
    if (b.channel === 'printed') {
      const counts = inflateSync(ctx.openSealed(b, 'pack-prizes', b.packPrizesSealed))
      for (const p of activatedPacks)
        for (let k = 0; k < T; k++) inPlay[k] += counts.readUInt16BE(((p - 1) * T + k) * 2)
      return inPlay
    }
    const sold = await soldPrizeTags(tx, b)
    const tiers = openPrizeTags(
      ctx.keysOf(b).prizeKey,
      b.gameNo,
      sold.map((r) => r.id - b.firstId),
      sold.map((r) => r.prizeTag),
      T,
    )
    for (const t of tiers) {
      if (t < 0)
        throw new DomainError(
          'INVALID_SIGNATURE',
          `a stored prize tag of game ${b.gameNo} does not open: a ticket row was altered`,
          { gameNo: b.gameNo },
        )
      if (t > 0) inPlay[t - 1]++
    }
    return inPlay
  }

  /** Prize register (INS-5, §7.13): game, ticket, payee names and document, prize, signature reference. */
  async function prizeRegister(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const rows = await payoutsOfBatch(db, b.id)
    return {
      gameNo: b.gameNo,
      name: b.name,
      currency: b.currency,
      entries: rows.map((r) => ({
        payoutId: r.id,
        kind: r.kind,
        serial: r.serial,
        tier: r.tier,
        amountCents: r.amountCents,
        reason: r.reason,
        payee:
          r.kind === 'prize'
            ? {
                name: r.payeeName,
                // Issue 24 point 2: opened for the register's readers.
                document: openDocumentAtRest(ctx.deps.sealer, r.payeeDocument),
                signatureRef: r.signatureRef,
              }
            : null,
        stationId: r.stationId,
        cashierId: r.cashierId,
        paidAt: r.paidAt,
      })),
    }
  }

  /**
   * Reconciliation of a game: generated, distributed, activated, lost or stolen, sold, prizes paid and unpaid per
   * tier (in play, expired, never in play), refunds, and the payout share achieved.
   *
   * Issue 24 point 3: for a pre-printed game the prizes in play are the sums of the activated packs' sealed prize
   * counts, so reading them before and after each activation would tell which pack holds which prizes. While the
   * game is on sale (packs can still be activated) those figures are withheld (null, `inPlayWithheld`); they are
   * given once the game is closed, when the activated stock no longer changes. Paid prizes (the public register,
   * INS-5) are always given. The route is for the lottery's operator and its auditors only (instant.reconcile).
   */
  async function reconciliation(gameNo: number) {
    const b = await batchByGame(db, gameNo)
    const c = checkedOf(b)
    const d = c.design
    const T = d.tiers.length
    const packs = await packsOfBatch(db, b.id)
    const packStatus: Record<string, number> = {}
    for (const p of packs) packStatus[p.status] = (packStatus[p.status] ?? 0) + 1
    const withheld = b.channel === 'printed' && b.status !== 'closed'
    const inPlay = withheld
      ? null
      : await prizesInPlay(
          db,
          b,
          packs.filter((p) => p.status === 'activated').map((p) => p.packNo),
        )
    const paidRows = await payoutTotals(db, b.id)
    const paid = new Array<number>(T).fill(0)
    const paidCents = new Array<number>(T).fill(0)
    let refunds = 0
    let refundCents = 0
    const refundedWinners = new Array<number>(T).fill(0)
    for (const r of paidRows) {
      if (r.kind === 'prize') {
        paid[r.tier - 1] += r.n
        paidCents[r.tier - 1] += r.cents
      } else {
        refunds += r.n
        refundCents += r.cents
        if (r.tier > 0) refundedWinners[r.tier - 1] += r.n
      }
    }
    const sold = await salesTotal(db, b.id)
    const reported = await reportedTicketsByKind(db, b.id)
    const expiry = ctx.claimExpiresAt(b)
    const expired = expiry !== null && now() > expiry
    const packsOf = (s: string) => packStatus[s] ?? 0
    const activatedPacks = b.channel === 'electronic' ? b.packCount : packsOf('activated')
    const distributedPacks = b.channel === 'electronic' ? b.packCount : b.packCount - packsOf('warehouse')
    const soldTickets = sold.tickets
    const soldCents = sold.cents
    // Value of the stock in play: activated pre-printed packs, or electronic tickets sold.
    const inPlayTickets = b.channel === 'electronic' ? soldTickets : activatedPacks * b.packSize
    const inPlayFund = inPlay ? inPlay.reduce((s, n, k) => s + n * d.tiers[k].amountCents, 0) : null
    const totalPaid = paidCents.reduce((a, x) => a + x, 0)
    const salesBase = Math.max(soldCents, b.channel === 'printed' ? inPlayTickets * b.priceCents : 0)
    return {
      gameNo: b.gameNo,
      name: b.name,
      channel: b.channel,
      status: b.status,
      currency: b.currency,
      priceCents: b.priceCents,
      generatedAt: b.generatedAt,
      closedAt: b.closedAt,
      claimExpiresAt: expiry,
      asOf: now(),
      generated: {
        tickets: b.ticketCount,
        packs: b.packCount,
        packSize: b.packSize,
        prizeFundCents: c.prizeFundCents,
        salesValueCents: c.salesCents,
      },
      distributed: { packs: distributedPacks, tickets: distributedPacks * b.packSize },
      activated: { packs: activatedPacks, tickets: activatedPacks * b.packSize },
      packsByStatus: packStatus,
      lostOrStolen: {
        lostTickets: Number(reported.find((r) => r.kind === 'lost')?.n ?? 0),
        stolenTickets: Number(reported.find((r) => r.kind === 'stolen')?.n ?? 0),
      },
      sold: {
        tickets: soldTickets,
        amountCents: soldCents,
        note:
          b.channel === 'printed'
            ? 'tickets scanned as sold at a kiosk or cashier: only these are paid or refunded (INS-12)'
            : 'electronic pool',
      },
      inPlayWithheld: withheld
        ? {
            until: 'closed' as const,
            reason: 'prizes in play of a pre-printed game on sale would tell which pack holds which prizes',
          }
        : null,
      tiers: d.tiers.map((t, k) => {
        const paidLine = {
          tier: k + 1,
          amountCents: t.amountCents,
          generated: t.count,
          paid: paid[k],
          paidCents: paidCents[k],
          refundedAsMisprint: refundedWinners[k],
        }
        if (!inPlay)
          return {
            ...paidLine,
            inPlay: null,
            notInPlay: null,
            unpaid: null,
            unpaidCents: null,
            expired: null,
            expiredCents: null,
          }
        const unpaidInPlay = Math.max(0, inPlay[k] - paid[k] - refundedWinners[k])
        return {
          ...paidLine,
          inPlay: inPlay[k],
          notInPlay: t.count - inPlay[k],
          unpaid: expired ? 0 : unpaidInPlay,
          unpaidCents: expired ? 0 : unpaidInPlay * t.amountCents,
          expired: expired ? unpaidInPlay : 0,
          expiredCents: expired ? unpaidInPlay * t.amountCents : 0,
        }
      }),
      refunds: { tickets: refunds, amountCents: refundCents },
      payoutShare: {
        designBp: c.payoutShareBp,
        inPlayBp:
          inPlayFund !== null && inPlayTickets > 0
            ? Math.floor((inPlayFund * 10_000) / (inPlayTickets * b.priceCents))
            : null,
        paidOfSalesBp: salesBase > 0 ? Math.floor((totalPaid * 10_000) / salesBase) : null,
        salesBaseCents: salesBase,
        paidCents: totalPaid,
      },
    }
  }

  return { prizeRegister, reconciliation }
}
