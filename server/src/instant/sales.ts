/**
 * Instant sales: pre-printed tickets sold by their inventory code, electronic tickets from the pre-generated pool
 * (INS-15 switch), and the hall setting that allows the latter.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { assertHoldsHall } from '../access/acting-hall.ts'
import { codeTag, formatValidationCode, groupCode } from './codes.ts'
import { evaluateFace, ticketFace } from './play.ts'
import { getProfile } from '../shared/profile.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import { appendJournal } from '../shared/journal.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import { instantSaleTicket } from '../../../printer/src/instant-ticket.ts'
import type { InstantContext } from './context.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { salesOver } from './claim-period.ts'
import { DEFAULT_SECURITY_WARNINGS, instructionsFor } from './design.ts'
import {
  advanceSaleIndex,
  hallById,
  insertSale,
  markElectronicTicketSold,
  markTicketSold,
  setHallSettings,
  ticketPrizeTagAndStatus,
  type Batch,
} from './store.ts'

interface InstantHallSettings {
  electronicInstantAllowed?: boolean
  authorisationRef?: string
}

export function createSaleUseCases(ctx: InstantContext) {
  const { db, deps, keys, now, batchByGame, checkedOf, scopeOf, serialOfIndex } = ctx

  /**
   * Issue 24 point 4: a server without the demo sells nothing of a game designed or generated under a demo reference
   * (a data directory that ran the demo), nor on screen in a hall switched on with one.
   */
  function refuseDemoReferences(b: Batch, hallRef?: string | null) {
    if (!deps.demoReferencesRefused) return
    const generator = b.generator ? (JSON.parse(b.generator) as { certificationRef?: string | null }) : null
    for (const ref of [checkedOf(b).design.authorisationRef, generator?.certificationRef, hallRef]) {
      if (isDemoReference(ref))
        throw new DomainError(
          'RULE_DISABLED',
          `instant game ${b.gameNo} is under a demo reference ("${ref}"): a server without the demo sells only under real authorisations`,
          { rule: 'INS-3' },
        )
    }
  }

  /** A pre-printed ticket sold by scanning its inventory code at a kiosk or cashier; its pack must be activated. */
  /** Closed, or past the design's last moment of sale (INS-10): no ticket of the game is sold any more. */
  function assertOnSale(b: Batch) {
    if (b.status === 'closed' || salesOver(b.closedAt, checkedOf(b).design.salesEndAt, now()))
      throw new DomainError('SALES_CLOSED', `instant game ${b.gameNo} is closed (sales ended; INS-10)`, {
        rule: 'INS-10',
      })
  }

  /**
   * Issue 23 point 5: a sale writes the game's rows and its record in the `instant` chain (an instant game is the
   * operator's, shared by every hall) and a sale row of the hall it is recorded in: it locks those two alone, so that
   * another hall's open transaction does not hold it up. A hall's lock is `operator` for a sale of no hall.
   */
  const saleScopes = (hallId: string | undefined) => [...new Set([chainOfScope(`hall:${hallId ?? ''}`), 'instant'])]

  async function sellPrinted(input: { code: string; stationId: string; hallId?: string }) {
    return db.transaction((tx) => sellPrintedWithin(tx, input), { scopes: saleScopes(input.hallId) })
  }

  /** sellPrinted inside a caller's transaction: a counter sale that takes the cash into the station's drawer (issue 13). */
  async function sellPrintedWithin(tx: Sql, input: { code: string; stationId: string; hallId?: string }) {
    const t = await ctx.byInventoryCode(tx, input.code)
    if (t.batch.channel !== 'printed')
      throw new DomainError('VALIDATION_FAILED', 'electronic tickets are sold from the pool, not scanned')
    assertOnSale(t.batch)
    refuseDemoReferences(t.batch)
    const blocked = await ctx.blockedBy(tx, t)
    if (blocked)
      throw new DomainError(
        'TICKET_BLOCKED',
        `ticket ${t.serial} is in a range reported ${blocked.kind} (LST-4, LST-5)`,
        { reportId: blocked.id },
      )
    if (t.packStatus !== 'activated')
      throw new DomainError(
        'PACK_NOT_ACTIVATED',
        `pack ${t.packNo} of game ${t.batch.gameNo} is ${t.packStatus}: activate it on arrival before selling`,
        { packNo: t.packNo },
      )
    if ((await markTicketSold(tx, t.ticketId)) !== 1)
      throw new DomainError('CONFLICT', `ticket ${t.serial} was already sold`, { serial: t.serial })
    const at = now()
    await insertSale(tx, {
      ticketId: t.ticketId,
      batchId: t.batch.id,
      channel: 'printed',
      hallId: input.hallId ?? null,
      stationId: input.stationId,
      priceCents: t.batch.priceCents,
      soldAt: at,
    })
    const rec = await appendJournal(tx, {
      at,
      type: 'instant.ticket_sold',
      scope: scopeOf(t.batch),
      payload: {
        gameNo: t.batch.gameNo,
        serial: t.serial,
        channel: 'printed',
        stationId: input.stationId,
        hallId: input.hallId ?? null,
        priceCents: t.batch.priceCents,
      },
    })
    return {
      serial: t.serial,
      gameNo: t.batch.gameNo,
      name: t.batch.name,
      priceCents: t.batch.priceCents,
      currency: t.batch.currency,
      soldAt: at,
      journalSeq: rec.seq,
    }
  }

  async function hallSettings(tx: Sql, hallId: string) {
    const hall = await hallById(tx, hallId)
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    const profile = getProfile(hall.profileId)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profileId}`)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown> & { instant?: InstantHallSettings }
    return {
      hall,
      profile,
      settings,
      electronicInstantAllowed: settings.instant?.electronicInstantAllowed ?? profile.electronicInstantAllowed,
    }
  }

  /**
   * Overrides the profile's on-screen instant switch for one hall (INS-15/16: allowed only under a specific
   * authorisation, whose reference is required to switch it on). Journaled.
   */
  async function configureHall(input: {
    hallId: string
    electronicInstantAllowed: boolean
    authorisationRef?: string
    by: string
  }) {
    if (input.electronicInstantAllowed && !input.authorisationRef?.trim())
      throw new DomainError(
        'VALIDATION_FAILED',
        'switching on-screen instant sales on needs the authorisation reference (INS-15)',
        { field: 'authorisationRef' },
      )
    // Issue 23 point 5: the hall's own row and a record of its chain, under its lock alone (INS-15).
    return db.transaction(
      async (tx) => {
        const { hall, settings } = await hallSettings(tx, input.hallId)
        // Issue 23 point 3: the hall's own switch, changed only by someone who holds that hall.
        assertHoldsHall(hall.id, 'hall')
        const instant: InstantHallSettings = {
          electronicInstantAllowed: input.electronicInstantAllowed,
          authorisationRef: input.authorisationRef?.trim(),
        }
        await setHallSettings(tx, hall.id, JSON.stringify({ ...settings, instant }))
        const rec = await appendJournal(tx, {
          at: now(),
          type: 'instant.hall_configured',
          scope: `hall:${hall.id}`,
          payload: { hallId: hall.id, ...instant, by: input.by },
        })
        return { hallId: hall.id, ...instant, journalSeq: rec.seq }
      },
      { scopes: [chainOfScope(`hall:${input.hallId}`)] },
    )
  }

  /**
   * On-screen (e-instant) sale: the next ticket of the game's pre-generated pool, in generated order, so the finite
   * prize structure holds exactly as for paper. Refused with RULE_DISABLED where the hall's profile has
   * electronicInstantAllowed off. The validation code is issued now, from the OS CSPRNG, and only its tag stored.
   */
  async function sellElectronic(input: { hallId: string; gameNo: number; stationId: string }) {
    return db.transaction((tx) => sellElectronicWithin(tx, input), { scopes: saleScopes(input.hallId) })
  }

  /**
   * sellElectronic inside a caller's transaction (issue 13): a kiosk purchase paid with a voucher, or a counter sale
   * with the cash in the drawer, which prints the ticket before it commits (all or nothing with the paper).
   */
  async function sellElectronicWithin(tx: Sql, input: { hallId: string; gameNo: number; stationId: string }) {
    const hs = await hallSettings(tx, input.hallId)
    if (!hs.electronicInstantAllowed) {
      throw new DomainError(
        'RULE_DISABLED',
        `profile ${hs.profile.id} does not allow on-screen instant sales: that needs the AJ's specific regulation (INS-15, INS-16)`,
        { rule: 'INS-15', profileId: hs.profile.id },
      )
    }
    const b = await batchByGame(tx, input.gameNo)
    if (b.channel !== 'electronic')
      throw new DomainError(
        'VALIDATION_FAILED',
        `game ${b.gameNo} is pre-printed: sell it by scanning its inventory code`,
      )
    assertOnSale(b)
    refuseDemoReferences(b, hs.settings.instant?.authorisationRef)
    const index = b.nextSaleIndex
    if (index >= b.ticketCount)
      throw new DomainError('SERIES_EXHAUSTED', `every ticket of game ${b.gameNo} has been sold`)
    if ((await advanceSaleIndex(tx, b.id, index)) !== 1)
      throw new DomainError('CONFLICT', 'another sale took this ticket; try again')
    const secret = Buffer.from(deps.entropy.randomBytes(8))
    const code = formatValidationCode(b.gameNo, index, secret.readUInt32BE(0) >>> 2, secret.readUInt32BE(4) >>> 2)
    const ticketId = b.firstId + index
    if ((await markElectronicTicketSold(tx, ticketId, codeTag(deps.pepper, code))) !== 1)
      throw new DomainError('CONFLICT', `ticket ${index} of game ${b.gameNo} is not in stock`)
    const at = now()
    await insertSale(tx, {
      ticketId,
      batchId: b.id,
      channel: 'electronic',
      hallId: input.hallId,
      stationId: input.stationId,
      priceCents: b.priceCents,
      soldAt: at,
    })
    const c = checkedOf(b)
    // The buyer sees the face now (the on-screen scratch): the tier is opened for this ticket, in this sale only.
    const tier = ctx.tierOf({
      batch: b,
      design: c,
      index,
      prizeTag: (await ticketPrizeTagAndStatus(tx, ticketId))!.prizeTag,
    })
    const serial = serialOfIndex(b, index)
    const rec = await appendJournal(tx, {
      at,
      type: 'instant.ticket_sold',
      scope: scopeOf(b),
      payload: {
        gameNo: b.gameNo,
        serial,
        channel: 'electronic',
        stationId: input.stationId,
        hallId: input.hallId,
        priceCents: b.priceCents,
      },
    })
    const face = ticketFace(c, ctx.keysOf(b).symbolsKey, index, tier)
    return {
      gameNo: b.gameNo,
      name: b.name,
      serial,
      priceCents: b.priceCents,
      currency: b.currency,
      soldAt: at,
      playStyle: c.design.playStyle.type,
      face,
      symbolAmountsCents: c.symbolAmountsCents,
      prizeCents: evaluateFace(face, c.symbolAmountsCents).amountCents,
      validationCode: code,
      qr: encodeTicketCode({ kind: TicketKind.instant, id: code }, keys.privateKey),
      instructions: c.design.back.instructions ?? null,
      claimDays: c.design.claimDays,
      paymentPlace: c.design.back.paymentPlace,
      // INS-4 / INS-15: what the back of a pre-printed ticket carries, printed on the paper of an on-screen sale.
      back: {
        tiers: c.design.tiers.map((tr) => ({ amountCents: tr.amountCents, count: tr.count })),
        ticketCount: b.ticketCount,
        instructions: instructionsFor(c),
        securityWarnings: c.design.back.securityWarnings ?? DEFAULT_SECURITY_WARNINGS,
        issuer: c.design.back.issuer,
        authorisationRef: c.design.authorisationRef ?? null,
      },
      journalSeq: rec.seq,
    }
  }

  /** sellElectronic, then the ticket printed at the station; a failed print is reported in `receipt`, the sale stands. */
  async function sellElectronicAndPrint(input: { hallId: string; gameNo: number; stationId: string }) {
    if (!deps.printers) throw new Error('sellElectronicAndPrint needs the printers')
    const sale = await sellElectronic(input)
    // Printed after the commit: the sale is a fact whether or not the paper comes out (reprint from the journal).
    const printer = deps.printers.forStation(input.stationId)
    const doc = instantSaleTicket(
      {
        ...sale,
        qr: sale.qr,
        codeText: groupCode(sale.validationCode),
        prizeCents: sale.prizeCents,
        station: input.stationId,
      },
      printer.paper,
    )
    let receipt: { printed: boolean; files?: string[]; error?: string }
    try {
      receipt = { printed: true, files: (await printer.print([doc], `instant-${sale.serial}`)).files }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      receipt = { printed: false, error: err.message }
    }
    return { ...sale, receipt }
  }

  /** Whether the hall may sell on-screen instant tickets (INS-15/16: its profile or its authorised setting). */
  async function electronicAllowed(hallId: string): Promise<boolean> {
    return (await hallSettings(db, hallId)).electronicInstantAllowed
  }

  return {
    sellPrinted,
    sellPrintedWithin,
    electronicAllowed,
    configureHall,
    sellElectronic,
    sellElectronicWithin,
    sellElectronicAndPrint,
  }
}
