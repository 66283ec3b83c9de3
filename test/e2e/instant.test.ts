/**
 * Instant lottery end to end over real HTTP: a pre-printed game generated, packs shipped and activated on arrival,
 * a ticket sold by its inventory code, validated by its hidden code, paid once under 50 concurrent payouts,
 * refusals for unactivated, lost and stolen stock and counterfeit codes, a misprint refunded, the on-screen sale
 * refused by the profile and allowed by a hall override, the prize register and the reconciliation.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPrintData } from '../../server/src/instant/files.ts'
import { formatValidationCode, groupCode } from '../../server/src/instant/codes.ts'
import { checkDesign, type InstantDesign } from '../../server/src/instant/design.ts'
import { evaluateFace } from '../../server/src/instant/play.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { printRunSeed } from '../helpers/instant.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const design: InstantDesign = {
  gameNo: 777,
  name: 'Raspa Test',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 500,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 100_000, count: 1 },
    { amountCents: 5000, count: 10 },
    { amountCents: 2000, count: 50 },
    { amountCents: 1000, count: 80 },
  ],
  payoutShareBp: { min: 5000, max: 8000 },
  packRules: {
    lowTiers: { maxAmountCents: 2000, minPerPack: 5 },
    topTiers: { minAmountCents: 100_000, maxPerPack: 1, notFirstOrLast: true },
  },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}
const electronic: InstantDesign = {
  ...design,
  gameNo: 778,
  name: 'Raspa en pantalla',
  channel: 'electronic',
  ticketCount: 100,
  tiers: [
    { amountCents: 5000, count: 4 },
    { amountCents: 2000, count: 10 },
    { amountCents: 1000, count: 20 },
  ],
  packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
  payoutShareBp: { min: 0, max: 10_000 },
}

type Ticket = { serial: string; pack: number; position: number; code: string; tier: number }
/** Every ticket of the game as the print file has it (serial, hidden code, tier), regenerated from the seed an auditor opened. */
let tickets: Ticket[] = []
const ticketsOf = (d: InstantDesign, seed: Buffer): Ticket[] =>
  [...packPrintData(checkDesign(d), seed)].flatMap((p) =>
    p.serials.map((serial, i) => ({ serial, pack: p.packNo, position: i, code: p.codes[i], tier: p.tiers[i] })),
  )
const inPack = (pack: number, winner: boolean, skip = 0) =>
  tickets.filter((t) => t.pack === pack && t.tier > 0 === winner)[skip]

describe('instant lottery end to end', () => {
  let s: Server
  let hallId: string
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    api(s.url, 'POST', path, body, headers)
  /** The batch seed as the print run had it (the audit route opens it only after the claim period, issue 24). */
  const printSeed = (gameNo: number) => printRunSeed(s.services.db, s.services.sealer, gameNo)
  const payee = { stationId: 'caja-1', cashierId: 'cajera-ana', payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' }

  beforeAll(async () => {
    s = await startTestServer()
    hallId = (
      await s.services.bingo.createHall({
        name: 'Sala Instantánea',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 50,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
    ).id
  })
  afterAll(async () => {
    await s?.cleanup()
  })

  it('generates the game with the design counts and refuses a design that cannot be met', async () => {
    const bad = await post('/api/instant/games', { design: { ...design, gameNo: 779, ticketCount: 510 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.detail).toMatch(/not a whole number of packs/)
    const r = await post('/api/instant/games', { design })
    expect(r.status).toBe(201)
    expect(r.body.tierCounts).toEqual([1, 10, 50, 80])
    expect(r.body.packCount).toBe(10)
    expect(r.body.seedCommitment).toMatch(/^[0-9a-f]{64}$/)
    const again = await post('/api/instant/games', { design })
    expect(again.status).toBe(409)
    tickets = ticketsOf(design, await printSeed(777))
    expect(
      createHash('sha256')
        .update(await printSeed(777))
        .digest('hex'),
    ).toBe(r.body.seedCommitment)
    // The seed is not opened while the game is on sale, not even for the audit (issue 24; instant-secrets.test.ts).
    expect((await post('/api/instant/games/777/audit/seed', { reason: 'auditoría de pruebas' })).status).toBe(409)
    expect(tickets.filter((t) => t.tier > 0).length).toBe(141)
  })

  it('refuses a typed seed with a clear message in Spanish and English, and stores nothing', async () => {
    for (const seed of ['e2e-instant-seed-0001', 'a'.repeat(64), '']) {
      const es = await post('/api/instant/games', { design: { ...design, gameNo: 780 }, seed })
      expect(es.status).toBe(400)
      expect(es.body.error.code).toBe('TYPED_SEED_REFUSED')
      expect(es.body.error.message).toMatch(/nadie la escribe/)
      const en = await post(
        '/api/instant/games',
        { design: { ...design, gameNo: 780 }, seed },
        { 'accept-language': 'en' },
      )
      expect(en.body.error.message).toMatch(/nobody types it/)
    }
    expect((await api(s.url, 'GET', '/api/instant/games/780')).status).toBe(404)
  })

  it('ships packs and activates them only on arrival where they were sent', async () => {
    expect(
      (
        await post('/api/instant/games/777/packs/ship', {
          fromPack: 1,
          toPack: 3,
          destination: 'kiosk-1',
          by: 'almacen',
        })
      ).body.packs,
    ).toBe(3)
    const wrongPlace = await post('/api/instant/packs/activate', {
      code: inPack(1, false).serial,
      location: 'kiosk-9',
      by: 'kiosk-9',
    })
    expect(wrongPlace.status).toBe(409)
    const signed = s.services.instant.signCode(inPack(1, false).serial)
    expect(
      (await post('/api/instant/packs/activate', { code: signed, location: 'kiosk-1', by: 'kiosk-1' })).status,
    ).toBe(200)
    expect(
      (await post('/api/instant/packs/activate', { gameNo: 777, packNo: 2, location: 'kiosk-1', by: 'kiosk-1' }))
        .status,
    ).toBe(200)
    const twice = await post('/api/instant/packs/activate', {
      gameNo: 777,
      packNo: 2,
      location: 'kiosk-1',
      by: 'kiosk-1',
    })
    expect(twice.status).toBe(409)
  })

  it('sells a pre-printed ticket by its inventory code once, and refuses the hidden code as an inventory code', async () => {
    const w = inPack(1, true)
    const sold = await post('/api/instant/sales', {
      ageConfirmed: true,
      code: s.services.instant.signCode(w.serial),
      stationId: 'kiosk-1',
      hallId,
    })
    expect(sold.status).toBe(201)
    expect(sold.body.serial).toBe(w.serial)
    expect(
      (await post('/api/instant/sales', { ageConfirmed: true, code: w.serial, stationId: 'kiosk-1' })).status,
    ).toBe(409)
    const hidden = await post('/api/instant/sales', { ageConfirmed: true, code: w.code, stationId: 'kiosk-1' })
    expect(hidden.status).toBe(400)
    expect(hidden.body.error.detail).toMatch(/hidden validation code/)
    const unactivated = await post('/api/instant/sales', {
      ageConfirmed: true,
      code: inPack(3, false).serial,
      stationId: 'kiosk-1',
    })
    expect(unactivated.status).toBe(409)
    expect(unactivated.body.error.code).toBe('PACK_NOT_ACTIVATED')
  })

  it('validates by the hidden code (typed or scanned) and pays once under 50 concurrent payouts', async () => {
    const w = inPack(1, true)
    const amount = design.tiers[w.tier - 1].amountCents
    const typed = await post('/api/instant/validate', {
      code: groupCode(w.code).toLowerCase(),
      stationId: 'caja-1',
      cashierId: 'cajera-ana',
    })
    expect(typed.body).toMatchObject({ outcome: 'WIN', serial: w.serial, amountCents: amount, tier: w.tier })
    expect(evaluateFace(typed.body.face, typed.body.symbolAmountsCents).amountCents).toBe(amount)
    const qr = s.services.instant.signCode(w.code)
    const generic = await post('/api/tickets/validate', { code: qr, stationId: 'caja-1', cashierId: 'cajera-ana' })
    expect(generic.body).toMatchObject({ kind: 'instant', status: 'winner', amountCents: amount })
    const noPayee = await post('/api/tickets/pay', { code: qr, stationId: 'caja-1', cashierId: 'cajera-ana' })
    expect(noPayee.status).toBe(422)
    expect(noPayee.body.error.code).toBe('PAYEE_ID_REQUIRED')

    const results = await Promise.all(
      // INS-10: both codes of the ticket, as scanned: the QR under the scratch layer and the one printed outside.
      Array.from({ length: 50 }, () =>
        post('/api/tickets/pay', { code: qr, inventoryCode: s.services.instant.signCode(w.serial), ...payee }),
      ),
    )
    const ok = results.filter((r) => r.status === 200)
    expect(ok.length).toBe(1)
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'ALREADY_PAID').length).toBe(49)
    const after = await post('/api/instant/validate', { code: w.code })
    expect(after.body.outcome).toBe('ALREADY_PAID')
    // Exactly one cash movement left the drawer, in the payout's own transaction.
    const moved = await s.services.db.all<{ amount_cents: number; ref_id: string }>(
      "SELECT amount_cents, ref_id FROM cash_movements WHERE kind = 'prize_payout' AND ref_id = ?",
      [ok[0].body.payoutId ?? ok[0].body.payout?.payoutId ?? ok[0].body.prizes?.[0]?.id],
    )
    expect(moved.map((m) => Number(m.amount_cents))).toEqual([
      -(ok[0].body.amountCents ?? ok[0].body.payout?.amountCents),
    ])
  })

  it('tells a losing ticket, refuses to pay it, and refuses a counterfeit code', async () => {
    const l = inPack(1, false, 1)
    expect(
      (await post('/api/instant/sales', { ageConfirmed: true, code: l.serial, stationId: 'kiosk-1' })).status,
    ).toBe(201)
    expect((await post('/api/instant/validate', { code: l.code })).body.outcome).toBe('NO_WIN')
    const pay = await post('/api/tickets/pay', { code: l.code, inventoryCode: l.serial, ...payee })
    expect(pay.status).toBe(422)
    expect(pay.body.error.code).toBe('NOT_A_WINNER')
    // Named as what it is, a raspadita (the bingo word "cartón" was shown before).
    expect(pay.body.error.message).toBe('Esta raspadita no tiene premio.')
    const index = (l.pack - 1) * design.packSize + l.position
    const fake = await post('/api/instant/validate', { code: formatValidationCode(777, index, 12345, 67890) })
    expect(fake.status).toBe(422)
    expect(fake.body.error.code).toBe('INVALID_SIGNATURE')
    const typo = await post('/api/instant/validate', {
      code: l.code.slice(0, 10) + (l.code[10] === 'A' ? 'B' : 'A') + l.code.slice(11),
    })
    expect(typo.status).toBe(400)
  })

  it('refuses prizes of packs never activated', async () => {
    const w = inPack(3, true)
    expect((await post('/api/instant/validate', { code: w.code })).body.outcome).toBe('NOT_ACTIVATED')
    const pay = await post('/api/tickets/pay', { code: w.code, inventoryCode: w.serial, ...payee })
    expect(pay.status).toBe(409)
    expect(pay.body.error.code).toBe('PACK_NOT_ACTIVATED')
  })

  it('refuses sale, payment and refund in ranges reported stolen or lost (LST-)', async () => {
    const noPolice = await post('/api/instant/games/777/reports', {
      kind: 'stolen',
      fromPack: 2,
      toPack: 2,
      discoveredAt: '2025-11-20T10:00:00Z',
      by: 'gerente',
    })
    expect(noPolice.status).toBe(400)
    const stolen = await post('/api/instant/games/777/reports', {
      kind: 'stolen',
      fromPack: 2,
      toPack: 2,
      discoveredAt: '2025-11-20T10:00:00Z',
      regulatorReportedAt: '2025-11-21',
      policeReportRef: 'FELCC-2025-118',
      by: 'gerente',
    })
    expect(stolen.status).toBe(201)
    expect(stolen.body).toMatchObject({ tickets: 50, stage: 'after-distribution' })
    const w = inPack(2, true)
    expect((await post('/api/instant/validate', { code: w.code })).body.outcome).toBe('REPORTED_LOST_STOLEN')
    const pay = await post('/api/tickets/pay', { code: w.code, inventoryCode: w.serial, ...payee })
    expect(pay.status).toBe(423)
    expect(pay.body.error.code).toBe('TICKET_BLOCKED')
    expect(
      (
        await post('/api/instant/refund', {
          code: w.code,
          inventoryCode: w.serial,
          reason: 'illegible',
          stationId: 'caja-1',
          cashierId: 'x',
        })
      ).status,
    ).toBe(423)
    expect(
      (await post('/api/instant/sales', { ageConfirmed: true, code: inPack(2, false).serial, stationId: 'kiosk-1' }))
        .status,
    ).toBe(423)

    const lost = tickets.filter((t) => t.pack === 1 && t.position >= 40 && t.position <= 44)
    const lr = await post('/api/instant/games/777/reports', {
      kind: 'lost',
      fromSerial: lost[0].serial,
      toSerial: lost[4].serial,
      discoveredAt: '2025-11-21T09:00:00Z',
      regulatorReportedAt: '2025-11-21',
      by: 'gerente',
    })
    expect(lr.body.tickets).toBe(5)
    expect((await post('/api/instant/validate', { code: lost[2].code })).body.outcome).toBe('REPORTED_LOST_STOLEN')
    const notice = await api(s.url, 'GET', '/api/instant/games/777/notice')
    expect(notice.body.ranges.length).toBe(2)
    expect(notice.body.text).toMatch(/no se pagan, reembolsan ni canjean/)
  })

  it('refunds a misprint once, price only, against both codes of the same ticket (INS-9, INS-10)', async () => {
    const l = inPack(1, false, 2)
    const other = inPack(1, false, 3)
    // INS-12: only a sold ticket is refunded.
    expect(
      (
        await post('/api/instant/refund', {
          code: l.code,
          inventoryCode: other.serial,
          reason: 'serial-mismatch',
          stationId: 'caja-1',
          cashierId: 'cajera-ana',
        })
      ).body.error.code,
    ).toBe('PACK_NOT_ACTIVATED')
    expect(
      (await post('/api/instant/sales', { ageConfirmed: true, code: l.serial, stationId: 'kiosk-1' })).status,
    ).toBe(201)
    const v = await post('/api/instant/validate', { code: l.code, inventoryCode: other.serial })
    // Judged as it would be settled: refused, no price refund offered.
    expect(v.status).toBe(409)
    expect(v.body.error.code).toBe('INVENTORY_CODE_MISMATCH')
    // INS-9/INS-10: a pair of codes of two tickets refunds neither.
    const mismatch = await post('/api/instant/refund', {
      code: l.code,
      inventoryCode: other.serial,
      reason: 'serial-mismatch',
      stationId: 'caja-1',
      cashierId: 'cajera-ana',
    })
    expect([mismatch.status, mismatch.body.error?.code]).toEqual([409, 'INVENTORY_CODE_MISMATCH'])
    const r = await post('/api/instant/refund', {
      code: l.code,
      inventoryCode: l.serial,
      reason: 'printing-defect',
      stationId: 'caja-1',
      cashierId: 'cajera-ana',
    })
    expect(r.status).toBe(200)
    expect(r.body.amountCents).toBe(design.priceCents)
    expect(
      (
        await post('/api/instant/refund', {
          code: l.code,
          reason: 'serial-mismatch',
          stationId: 'caja-1',
          cashierId: 'cajera-ana',
        })
      ).status,
    ).toBe(409)
  })

  it('refuses the on-screen sale where the profile forbids it, and sells from the pool with a hall override', async () => {
    expect((await post('/api/instant/games', { design: electronic })).status).toBe(201)
    const refused = await post(`/api/instant/halls/${hallId}/electronic`, {
      ageConfirmed: true,
      gameNo: 778,
      stationId: 'kiosk-1',
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error.code).toBe('RULE_DISABLED')
    expect(refused.body.error.detail).toMatch(/INS-15/)
    expect(
      (await post(`/api/instant/halls/${hallId}/settings`, { electronicInstantAllowed: true, by: 'director' })).status,
    ).toBe(400)
    expect(
      (
        await post(`/api/instant/halls/${hallId}/settings`, {
          electronicInstantAllowed: true,
          authorisationRef: 'AJ-RA-2025-0042',
          by: 'director',
        })
      ).status,
    ).toBe(200)
    const tiers = [...packPrintData(checkDesign(electronic), await printSeed(778))].flatMap((p) => [...p.tiers])
    for (let i = 0; i < 3; i++) {
      const sale = await post(`/api/instant/halls/${hallId}/electronic`, {
        ageConfirmed: true,
        gameNo: 778,
        stationId: 'kiosk-1',
      })
      expect(sale.status).toBe(201)
      const expected = tiers[i] > 0 ? electronic.tiers[tiers[i] - 1].amountCents : 0
      expect(sale.body.prizeCents).toBe(expected)
      expect(evaluateFace(sale.body.face, sale.body.symbolAmountsCents).amountCents).toBe(expected)
      expect(sale.body.receipt.printed).toBe(true)
      expect(sale.body.receipt.files.some((f: string) => existsSync(f))).toBe(true)
      const v = await post('/api/instant/validate', { code: sale.body.qr })
      expect(v.body.outcome).toBe(expected > 0 ? 'WIN' : 'NO_WIN')
    }
  })

  it('keeps the prize register and reconciles the game (JSON and PDF), and the journal verifies', async () => {
    const reg = await api(s.url, 'GET', '/api/instant/games/777/register')
    expect(reg.body.entries.map((e: { kind: string }) => e.kind).sort()).toEqual(['prize', 'refund'])
    expect(reg.body.entries.find((e: { kind: string }) => e.kind === 'prize').payee).toMatchObject({
      name: 'Juana Mamani',
      document: '4455667 LP',
    })
    const rec = (await api(s.url, 'GET', '/api/instant/games/777/reconciliation')).body
    expect(rec.generated.tickets).toBe(500)
    expect(rec.distributed.packs).toBe(3)
    expect(rec.activated.packs).toBe(1)
    expect(rec.lostOrStolen).toEqual({ lostTickets: 5, stolenTickets: 50 })
    expect(rec.sold.tickets).toBe(3)
    const paidTier = rec.tiers.find((t: { paid: number }) => t.paid === 1)
    expect(paidTier.tier).toBe(inPack(1, true).tier)
    expect(rec.tiers.reduce((a: number, t: { generated: number }) => a + t.generated, 0)).toBe(141)
    expect(rec.refunds).toEqual({ tickets: 1, amountCents: 1000 })
    expect(rec.payoutShare.designBp).toBe(checkDesign(design).payoutShareBp)
    const pdf = await fetch(`${s.url}/api/instant/games/777/reconciliation.pdf`)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect((await api(s.url, 'GET', '/api/journal/verify')).body.ok).toBe(true)
  })
})
