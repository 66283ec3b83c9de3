import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { checkDesign, type InstantDesign } from './design.ts'
import { fromPrivateKey } from '../shared/keys.ts'
import { createInstantService, type InstantService } from './service.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'
import { sealContext } from './context.ts'
import { printRunTickets } from '../../../test/helpers/instant.ts'
import type { OnPaid } from '../shared/settlement.ts'

/** Service tests on SQLite, and on PostgreSQL with BOLILLO_TEST_DATABASE_URL: claim period, reconciliation, regeneration after a crash. */
const design: InstantDesign = {
  gameNo: 55,
  name: 'Raspa Reloj',
  currency: 'EUR',
  priceCents: 200,
  ticketCount: 300,
  packSize: 30,
  playStyle: { type: 'beat-their-number', rows: 4, maxNumber: 15, decoyAmountsCents: [100] },
  tiers: [
    { amountCents: 2000, count: 3 },
    { amountCents: 400, count: 30 },
    { amountCents: 200, count: 60 },
  ],
  payoutShareBp: { min: 4000, max: 8000 },
  packRules: {
    lowTiers: { maxAmountCents: 400, minPerPack: 6 },
    topTiers: { minAmountCents: 2000, maxPerPack: 1, notFirstOrLast: true },
  },
  claimDays: 30,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  back: { issuer: 'Loterías de prueba', paymentPlace: 'puntos de venta' },
}
type Ticket = { code: string; tier: number; pack: number; serial: string }
const journalOf = async (db: Database, type: string) =>
  (await db.all<{ payload: string }>('SELECT payload FROM journal WHERE type = ? ORDER BY seq', [type])).map((r) =>
    JSON.parse(r.payload),
  )
const auditor = { kind: 'person', id: 'auditora-1' }

describe('instant service', () => {
  let db: Database
  let service: InstantService
  let tickets: Ticket[] = []
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  let now = new Date('2026-03-01T10:00:00Z')
  // The settle port's contract (shared/settlement.ts): the instant line asks the cash desk to move the money in its
  // transaction; here the request is recorded so that the tests see what each payout or refund asked for.
  const moved: Array<{ amountCents: number; kind: string; refId: string }> = []
  const onPaid: OnPaid = async (_tx, m) => {
    moved.push({ amountCents: m.amountCents, kind: m.kind, refId: m.refId })
  }
  const payee = { stationId: 'caja-1', cashierId: 'c1', payeeName: 'Ana Pérez', payeeDocument: '12345678Z', onPaid }

  beforeAll(async () => {
    db = await openTestDatabase()
    service = createInstantService({
      db,
      clock: { now: () => now },
      entropy: { name: 'test', randomBytes: (n) => randomBytes(n) },
      keys: fromPrivateKey(generateKeyPairSync('ed25519').privateKey),
      pepper: randomBytes(32),
      sealer,
    })
  })
  afterAll(async () => {
    await db?.close()
  })

  it('regenerates a game left half-written by a crash, with the same placement', async () => {
    // A crash after the batch row and some tickets: the row stays `generating`.
    const first = await service.generateBatch({ design })
    await db.run("UPDATE instant_batches SET status = 'generating' WHERE game_no = ?", [55])
    // Redone with the seed it was given (sealed in the half-written row): a crash cannot re-roll the placement.
    const again = await service.generateBatch({ design })
    expect(again.placementSha256).toBe(first.placementSha256)
    expect(again.seedCommitment).toBe(first.seedCommitment)
    // The tickets as the print run has them (the audit route opens the seed only after the claim period).
    tickets = await printRunTickets(db, sealer, design)
    expect(again.tierCounts).toEqual([3, 30, 60])
    const n = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM instant_tickets')
    expect(Number(n?.n)).toBe(300)
  })

  it('pays within the claim period and refuses after it (INS-10), and reconciles what expired', async () => {
    await service.shipPacks({ gameNo: 55, fromPack: 1, toPack: 10, destination: 'estanco-7', by: 'almacen' })
    for (let p = 1; p <= 10; p++)
      await service.activatePack({ gameNo: 55, packNo: p, location: 'estanco-7', by: 'estanco-7' })
    const winners = tickets.filter((t) => t.tier > 0)
    for (const w of winners.slice(0, 3)) await service.sellPrinted({ code: w.serial, stationId: 'estanco-7' })
    const paid = await service.pay({ code: winners[0].code, inventoryCode: winners[0].serial, ...payee })
    expect(paid.amountCents).toBe(design.tiers[winners[0].tier - 1].amountCents)
    // The prize asks the cash desk to move exactly its amount, under its payout id, once.
    expect(moved.filter((m) => m.refId === paid.payoutId)).toEqual([
      { amountCents: paid.amountCents, kind: 'prize_payout', refId: paid.payoutId },
    ])
    // Issue 24 point 3: while the game is on sale the prizes in play by tier are withheld (packs are being activated).
    const onSale = await service.reconciliation(55)
    expect(onSale.inPlayWithheld).not.toBeNull()
    expect(onSale.tiers.every((t) => t.inPlay === null && t.unpaid === null)).toBe(true)
    expect(onSale.payoutShare.inPlayBp).toBeNull()
    await service.closeGame({ gameNo: 55, by: 'director' })
    now = new Date('2026-03-30T10:00:00Z')
    expect((await service.validate({ code: winners[1].code })).outcome).toBe('WIN')
    now = new Date('2026-04-01T10:00:01Z')
    const late = await service.validate({ code: winners[2].code })
    expect(late.outcome).toBe('EXPIRED')
    await expect(
      service.pay({ code: winners[2].code, inventoryCode: winners[2].serial, ...payee }),
    ).rejects.toMatchObject({ code: 'TICKET_EXPIRED' })
    const rec = await service.reconciliation(55)
    expect(rec.inPlayWithheld).toBeNull()
    const expired = rec.tiers.reduce((s, t) => s + (t.expired ?? 0), 0)
    expect(expired).toBe(93 - 1)
    expect(rec.tiers.reduce((s, t) => s + t.paid, 0)).toBe(1)
    expect(rec.activated.tickets).toBe(300)
    expect(rec.payoutShare.inPlayBp).toBe(checkDesign(design).payoutShareBp)
  })

  it('opens a seed only after the game is closed and its claim period has ended, by the injected clock, journaling refusals and the opening (issue 24, INS-3, INS-10)', async () => {
    const d: InstantDesign = { ...design, gameNo: 59 }
    const made = await service.generateBatch({ design: d })
    const refusedBefore = (await journalOf(db, 'instant.seed_export_refused')).length
    // On sale: refused, with why and when it opens, and the refusal is in the journal with who asked.
    const onSale = await service.exportSeed({ gameNo: 59, reason: 'curiosidad en venta', by: auditor }).catch((e) => e)
    expect(onSale).toMatchObject({ code: 'ILLEGAL_TRANSITION', details: { gameNo: 59, opensAt: null, rule: 'INS-10' } })
    expect(onSale.message).toMatch(/on sale/)
    const closed = await service.closeGame({ gameNo: 59, by: 'director' })
    const opensAt = new Date(Date.parse(closed.closedAt) + d.claimDays * 86_400_000).toISOString()
    // During the claim period, to the last millisecond: refused.
    now = new Date(Date.parse(closed.closedAt) + 86_400_000)
    await expect(service.exportSeed({ gameNo: 59, reason: 'durante el plazo', by: auditor })).rejects.toMatchObject({
      code: 'ILLEGAL_TRANSITION',
      details: { opensAt },
    })
    now = new Date(opensAt)
    await expect(service.exportSeed({ gameNo: 59, reason: 'al vencer el plazo', by: auditor })).rejects.toMatchObject({
      code: 'ILLEGAL_TRANSITION',
    })
    const refusals = (await journalOf(db, 'instant.seed_export_refused')).slice(refusedBefore)
    expect(refusals).toMatchObject([
      { gameNo: 59, why: 'on-sale', reason: 'curiosidad en venta', by: auditor },
      { gameNo: 59, why: 'claim-period', opensAt, reason: 'durante el plazo', by: auditor },
      { gameNo: 59, why: 'claim-period', opensAt, reason: 'al vencer el plazo', by: auditor },
    ])
    expect((await journalOf(db, 'instant.seed_exported')).filter((p) => p.gameNo === 59)).toEqual([])
    // After the claim period: opened, and the opening journaled with who and why.
    now = new Date(Date.parse(opensAt) + 1)
    const opened = await service.exportSeed({ gameNo: 59, reason: 'auditoría final', by: auditor })
    expect(createHash('sha256').update(Buffer.from(opened.seedHex, 'hex')).digest('hex')).toBe(made.seedCommitment)
    expect((await journalOf(db, 'instant.seed_exported')).filter((p) => p.gameNo === 59)).toMatchObject([
      { by: auditor, reason: 'auditoría final', rule: 'INS-3' },
    ])
  })

  it('takes a fresh 256-bit seed from the entropy source for every batch, refuses a typed one, and commits with SHA-256 of the sealed seed', async () => {
    await expect(
      service.generateBatch({ design: { ...design, gameNo: 56 }, seed: 'a-seed-i-chose' } as never),
    ).rejects.toMatchObject({ code: 'TYPED_SEED_REFUSED' })
    expect(await service.getGame(56).catch((e) => e.code)).toBe('NOT_FOUND')
    const a = await service.generateBatch({ design: { ...design, gameNo: 56 } })
    const b = await service.generateBatch({ design: { ...design, gameNo: 57 } })
    expect(a.seedCommitment).not.toBe(b.seedCommitment)
    for (const [gameNo, summary] of [
      [56, a],
      [57, b],
    ] as const) {
      const row = await db.get<{ seed_sealed: string; seed_commitment: string }>(
        'SELECT seed_sealed, seed_commitment FROM instant_batches WHERE game_no = ?',
        [gameNo],
      )
      const seed = sealer.open(row!.seed_sealed, sealContext('seed', gameNo, row!.seed_commitment))
      expect(seed.length).toBe(32)
      expect(summary.seedCommitment).toBe(createHash('sha256').update(seed).digest('hex'))
      expect(row!.seed_sealed).not.toContain(seed.toString('hex'))
    }
    // The export names who opened it and why, in the journal; the placement regenerates from it (after the claim period).
    const closedAt = (await service.closeGame({ gameNo: 56, by: 'director' })).closedAt
    now = new Date(Date.parse(closedAt) + (design.claimDays + 1) * 86_400_000)
    const opened = await service.exportSeed({ gameNo: 56, reason: 'certificación INS-3', by: auditor })
    expect(createHash('sha256').update(Buffer.from(opened.seedHex, 'hex')).digest('hex')).toBe(a.seedCommitment)
    const rec = await db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'instant.seed_exported' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ gameNo: 56, by: auditor, reason: 'certificación INS-3' })
    expect(rec!.payload).not.toContain(opened.seedHex)
    await expect(service.exportSeed({ gameNo: 56, reason: ' ', by: auditor })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    })
  })

  it('validates and pays a winner, tells a loser, never pays a ticket never sold, and refuses an altered prize tag', async () => {
    const d: InstantDesign = { ...design, gameNo: 58 }
    await service.generateBatch({ design: d })
    const all: Ticket[] = await printRunTickets(db, sealer, d)
    await service.shipPacks({ gameNo: 58, fromPack: 1, toPack: 1, destination: 'estanco-7', by: 'almacen' })
    await service.activatePack({ gameNo: 58, packNo: 1, location: 'estanco-7', by: 'estanco-7' })
    const winner = all.find((t) => t.pack === 1 && t.tier > 0)!
    const loser = all.find((t) => t.pack === 1 && t.tier === 0)!
    await service.sellPrinted({ code: winner.serial, stationId: 'estanco-7' })
    await service.sellPrinted({ code: loser.serial, stationId: 'estanco-7' })
    const v = await service.validate({ code: winner.code })
    expect(v).toMatchObject({ outcome: 'WIN', tier: winner.tier, amountCents: d.tiers[winner.tier - 1].amountCents })
    expect((await service.validate({ code: loser.code })).outcome).toBe('NO_WIN')
    await expect(service.pay({ code: loser.code, inventoryCode: loser.serial, ...payee })).rejects.toMatchObject({
      code: 'NOT_A_WINNER',
    })
    const paid = await service.pay({ code: winner.code, inventoryCode: winner.serial, ...payee })
    expect(paid).toMatchObject({ tier: winner.tier, amountCents: d.tiers[winner.tier - 1].amountCents })
    await expect(service.pay({ code: winner.code, inventoryCode: winner.serial, ...payee })).rejects.toMatchObject({
      code: 'ALREADY_PAID',
    })
    // A winner in a pack still in the warehouse was never on sale: not paid.
    const unsold = all.find((t) => t.pack === 2 && t.tier > 0)!
    expect((await service.validate({ code: unsold.code })).outcome).toBe('NOT_ACTIVATED')
    await expect(service.pay({ code: unsold.code, inventoryCode: unsold.serial, ...payee })).rejects.toMatchObject({
      code: 'PACK_NOT_ACTIVATED',
    })
    // Someone with write access to the table moves a winner's prize tag onto a sold loser: it opens to nothing.
    const loser2 = all.find((t) => t.pack === 1 && t.tier === 0 && t.serial !== loser.serial)!
    await service.sellPrinted({ code: loser2.serial, stationId: 'estanco-7' })
    const firstId = Number(
      (await db.get<{ first_id: number }>('SELECT first_id FROM instant_batches WHERE game_no = 58'))!.first_id,
    )
    const idOf = (t: Ticket) => firstId + all.indexOf(t)
    const tag = await db.get<{ prize_tag: number }>('SELECT prize_tag FROM instant_tickets WHERE id = ?', [
      idOf(winner),
    ])
    await db.run('UPDATE instant_tickets SET prize_tag = ? WHERE id = ?', [tag!.prize_tag, idOf(loser2)])
    await expect(service.pay({ code: loser2.code, inventoryCode: loser2.serial, ...payee })).rejects.toMatchObject({
      code: 'INVALID_SIGNATURE',
    })
  })

  it('pays or refunds a pre-printed ticket of an activated pack only once it was sold, and then once (INS-12)', async () => {
    const d: InstantDesign = { ...design, gameNo: 60 }
    await service.generateBatch({ design: d })
    const all = await printRunTickets(db, sealer, d)
    await service.shipPacks({ gameNo: 60, fromPack: 1, toPack: 1, destination: 'estanco-7', by: 'almacen' })
    await service.activatePack({ gameNo: 60, packNo: 1, location: 'estanco-7', by: 'estanco-7' })
    const [w1, w2] = all.filter((t) => t.pack === 1 && t.tier > 0)
    const [l1] = all.filter((t) => t.pack === 1 && t.tier === 0)
    const till = { stationId: 'caja-1', cashierId: 'c1', onPaid }
    // Activated, never scanned as sold: neither paid nor refunded nor voided, and nothing is written for it.
    expect(await service.validate({ code: w1.code })).toMatchObject({
      outcome: 'NOT_ACTIVATED',
      reason: expect.stringMatching(/never sold.*INS-12/),
    })
    await expect(service.pay({ code: w1.code, inventoryCode: w1.serial, ...payee })).rejects.toMatchObject({
      code: 'PACK_NOT_ACTIVATED',
      details: { outcome: 'NOT_ACTIVATED' },
    })
    await expect(service.pay({ code: w1.code, inventoryCode: w1.serial, ...payee })).rejects.toMatchObject({
      code: 'PACK_NOT_ACTIVATED',
    })
    await expect(
      service.refund({ code: l1.code, inventoryCode: l1.serial, reason: 'illegible', ...till }),
    ).rejects.toMatchObject({
      code: 'PACK_NOT_ACTIVATED',
    })
    await expect(
      service.voidForDamage({
        code: w2.code,
        inventoryCode: w2.serial,
        damage: 'tachaduras sobre los números',
        keptAs: 'sobre 12',
        decidedBy: { kind: 'person', id: 'j', name: 'Jefa', role: 'floor_manager' },
      }),
    ).rejects.toMatchObject({ code: 'PACK_NOT_ACTIVATED' })
    const b = (await db.get<{ first_id: number; ticket_count: number }>(
      'SELECT first_id, ticket_count FROM instant_batches WHERE game_no = 60',
    ))!
    expect(
      await db.all('SELECT id FROM instant_tickets WHERE id >= ? AND id < ? AND status <> 0', [
        Number(b.first_id),
        Number(b.first_id) + Number(b.ticket_count),
      ]),
    ).toEqual([])
    expect(
      Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM instant_payouts WHERE game_no = 60'))?.n),
    ).toBe(0)
    // Sold by its inventory code: paid once, refunded once.
    await service.sellPrinted({ code: w1.serial, stationId: 'estanco-7' })
    await service.sellPrinted({ code: l1.serial, stationId: 'estanco-7' })
    expect((await service.pay({ code: w1.code, inventoryCode: w1.serial, ...payee })).amountCents).toBe(
      d.tiers[w1.tier - 1].amountCents,
    )
    await expect(service.pay({ code: w1.code, inventoryCode: w1.serial, ...payee })).rejects.toMatchObject({
      code: 'ALREADY_PAID',
    })
    expect(
      (await service.refund({ code: l1.code, inventoryCode: l1.serial, reason: 'illegible', ...till })).amountCents,
    ).toBe(d.priceCents)
    await expect(
      service.refund({ code: l1.code, inventoryCode: l1.serial, reason: 'illegible', ...till }),
    ).rejects.toMatchObject({
      code: 'ALREADY_PAID',
    })
  })

  it('refuses sales once the game is closed', async () => {
    await expect(service.sellPrinted({ code: tickets[5].serial, stationId: 'estanco-7' })).rejects.toMatchObject({
      code: 'SALES_CLOSED',
    })
  })
})
