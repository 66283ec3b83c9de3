/**
 * What the secure printer gets of an instant batch: every ticket's serial, hidden validation code and tier,
 * regenerated here from the batch's sealed seed opened with the server's own sealer. Tests need it to play the
 * part of a player holding a ticket; the server itself opens a seed only for an auditor after the claim period
 * (issue 24 point 3), so a test cannot take it from the audit route while the game is on sale.
 */
import type { Database } from '../../server/src/db/database.ts'
import { sealContext } from '../../server/src/instant/context.ts'
import { checkDesign, type InstantDesign } from '../../server/src/instant/design.ts'
import { packPrintData } from '../../server/src/instant/files.ts'
import type { Sealer } from '../../server/src/shared/sealing.ts'

export interface PrintedTicket {
  serial: string
  pack: number
  position: number
  code: string
  tier: number
}

/** The batch's seed, as the print run had it. */
export async function printRunSeed(db: Database, sealer: Sealer, gameNo: number): Promise<Buffer> {
  const row = await db.get<{ seed_sealed: string; seed_commitment: string }>(
    'SELECT seed_sealed, seed_commitment FROM instant_batches WHERE game_no = ?',
    [gameNo],
  )
  if (!row) throw new Error(`no instant batch ${gameNo}`)
  return sealer.open(row.seed_sealed, sealContext('seed', gameNo, row.seed_commitment))
}

/** Every ticket of the batch, in ticket order, as the print file has it. */
export async function printRunTickets(db: Database, sealer: Sealer, design: InstantDesign): Promise<PrintedTicket[]> {
  const seed = await printRunSeed(db, sealer, design.gameNo)
  return [...packPrintData(checkDesign(design), seed)].flatMap((p) =>
    p.serials.map((serial, i) => ({ serial, pack: p.packNo, position: i, code: p.codes[i], tier: p.tiers[i] })),
  )
}

/**
 * A small printed instant game (600 tickets in 12 packs of 50, four prize tiers, five low prizes in every pack) under
 * the Bolivian test authorisation: what a test of generation, certification or sealing needs. `overrides` changes any
 * field (game number, name, currency, authorisation, back).
 */
export function smallInstantDesign(overrides: Partial<InstantDesign> = {}): InstantDesign {
  return {
    gameNo: 4401,
    name: 'Raspa de pruebas',
    currency: 'BOB',
    priceCents: 1000,
    ticketCount: 600,
    packSize: 50,
    playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
    tiers: [
      { amountCents: 100_000, count: 1 },
      { amountCents: 7500, count: 12 },
      { amountCents: 2500, count: 60 },
      { amountCents: 1500, count: 90 },
    ],
    payoutShareBp: { min: 3000, max: 9000 },
    packRules: { lowTiers: { maxAmountCents: 2500, minPerPack: 5 } },
    claimDays: 60,
    salesEndAt: '2099-12-31T23:59:59-04:00',
    authorisationRef: 'AJ-RA-2025-0042',
    back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
    ...overrides,
  }
}
