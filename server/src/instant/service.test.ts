import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { checkDesign, type InstantDesign } from './design.ts'
import { fromPrivateKey } from '../shared/keys.ts'
import { createInstantService, type InstantService } from './service.ts'
import { packPrintData } from './files.ts'

/** Service tests on SQLite, and on PostgreSQL with BOLILLO_TEST_DATABASE_URL: claim period, reconciliation, regeneration after a crash. */
const design: InstantDesign = {
  gameNo: 55, name: 'Raspa Reloj', currency: 'EUR', priceCents: 200, ticketCount: 300, packSize: 30,
  playStyle: { type: 'beat-their-number', rows: 4, maxNumber: 15, decoyAmountsCents: [100] },
  tiers: [{ amountCents: 2000, count: 3 }, { amountCents: 400, count: 30 }, { amountCents: 200, count: 60 }],
  payoutShareBp: { min: 4000, max: 8000 },
  packRules: { lowTiers: { maxAmountCents: 400, minPerPack: 6 }, topTiers: { minAmountCents: 2000, maxPerPack: 1, notFirstOrLast: true } },
  claimDays: 30, back: { issuer: 'Loterías de prueba', paymentPlace: 'puntos de venta' },
}
const seed = 'service-test-seed'
const tickets = [...packPrintData(checkDesign(design), seed)].flatMap((p) => p.codes.map((code, i) => ({ code, tier: p.tiers[i], pack: p.packNo, serial: p.serials[i] })))

describe('instant service', () => {
  let db: Database
  let service: InstantService
  let now = new Date('2026-03-01T10:00:00Z')
  const payee = { stationId: 'caja-1', cashierId: 'c1', payeeName: 'Ana Pérez', payeeDocument: '12345678Z' }

  beforeAll(async () => {
    db = await openTestDatabase()
    service = createInstantService({
      db, clock: { now: () => now }, entropy: { name: 'test', randomBytes: (n) => randomBytes(n) },
      keys: fromPrivateKey(generateKeyPairSync('ed25519').privateKey), pepper: randomBytes(32),
    })
  })
  afterAll(async () => { await db?.close() })

  it('regenerates a game left half-written by a crash, with the same placement', async () => {
    // A crash after the batch row and some tickets: the row stays `generating`.
    const first = await service.generateBatch({ design, seed })
    await db.run("UPDATE instant_batches SET status = 'generating' WHERE game_no = ?", [55])
    const again = await service.generateBatch({ design, seed })
    expect(again.placementSha256).toBe(first.placementSha256)
    expect(again.tierCounts).toEqual([3, 30, 60])
    const n = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM instant_tickets')
    expect(Number(n?.n)).toBe(300)
  })

  it('pays within the claim period and refuses after it (INS-10), and reconciles what expired', async () => {
    await service.shipPacks({ gameNo: 55, fromPack: 1, toPack: 10, destination: 'estanco-7', by: 'almacen' })
    for (let p = 1; p <= 10; p++) await service.activatePack({ gameNo: 55, packNo: p, location: 'estanco-7', by: 'estanco-7' })
    const winners = tickets.filter((t) => t.tier > 0)
    const paid = await service.pay({ code: winners[0].code, ...payee })
    expect(paid.amountCents).toBe(design.tiers[winners[0].tier - 1].amountCents)
    await service.closeGame({ gameNo: 55, by: 'director' })
    now = new Date('2026-03-30T10:00:00Z')
    expect((await service.validate({ code: winners[1].code })).outcome).toBe('WIN')
    now = new Date('2026-04-01T10:00:01Z')
    const late = await service.validate({ code: winners[2].code })
    expect(late.outcome).toBe('EXPIRED')
    await expect(service.pay({ code: winners[2].code, ...payee })).rejects.toMatchObject({ code: 'TICKET_EXPIRED' })
    const rec = await service.reconciliation(55)
    const expired = rec.tiers.reduce((s, t) => s + t.expired, 0)
    expect(expired).toBe(93 - 1)
    expect(rec.tiers.reduce((s, t) => s + t.paid, 0)).toBe(1)
    expect(rec.activated.tickets).toBe(300)
    expect(rec.payoutShare.inPlayBp).toBe(checkDesign(design).payoutShareBp)
  })

  it('refuses sales once the game is closed', async () => {
    await expect(service.sellPrinted({ code: tickets[5].serial, stationId: 'estanco-7' })).rejects.toMatchObject({ code: 'SALES_CLOSED' })
  })
})
