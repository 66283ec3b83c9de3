import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { openPrintFile } from '../../printer/src/printers.ts'
import {
  hallWithGameOnSale,
  nextGameOnSale,
  playToTheEnd,
  sellVoucher,
  winningCodes,
  type HallSetup,
} from '../helpers/cashdesk.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * The money path over real HTTP with the file printer: cash -> voucher at the cashier (GEN-13) -> cards at the
 * kiosk with a change voucher -> validation outcomes (§8) -> payout once -> station cash and the prize register.
 */
describe('vouchers, kiosk purchases, validation and payout', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) }

  beforeAll(async () => {
    server = await startTestServer({ idRequiredPrizeCents: 5_000, amlThresholdCents: 100_000 }, { clock })
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 500 })
  })
  afterAll(async () => {
    await server?.cleanup()
  })

  it('sells a voucher for cash, journals it and prints it with its signed code (GEN-13)', async () => {
    const bad = await api(server.url, 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 5000,
      cash: countOf(4_000),
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.rule).toBe('GEN-17')
    const r = await api(server.url, 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 5000,
      cash: countOf(5_000),
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(r.status).toBe(201)
    expect(r.body.voucher).toMatchObject({ amountCents: 5000, currency: 'BOB', status: 'active', origin: 'cashier' })
    expect(r.body.voucher.code).toMatch(/^BLL1\.V\.v_[a-z0-9]+\.[A-Za-z0-9_-]{86}$/)
    expect(r.body.aml.flagged).toBe(false)
    expect(r.body.print.target).toBe('file')
    expect(r.body.preview).toMatch(/^data:image\/svg\+xml;base64,/)
    const files = readdirSync(join(server.dataDir, 'prints')).filter((f) => f.includes(r.body.voucher.id))
    // Issue 24 point 2: the voucher's code is a bearer value; the file printer keeps the job and its PDF sealed.
    expect(files.map((f) => f.split('.').slice(-2).join('.')).sort()).toEqual(['escpos.sealed', 'pdf.sealed'])
    const job = openPrintFile(
      server.services.sealer,
      join(
        server.dataDir,
        'prints',
        files.find((f) => f.endsWith('.escpos.sealed'))!,
      ),
    )
    expect(job.includes(Buffer.from(r.body.voucher.code))).toBe(true)
    const days = (Date.parse(r.body.voucher.expiresAt) - Date.parse(r.body.voucher.issuedAt)) / 86_400_000
    expect(days).toBe(30)
    const journal = await api(server.url, 'GET', '/api/journal?limit=1000')
    expect(journal.body.records.map((x: any) => x.type)).toEqual(
      expect.arrayContaining(['voucher.issued', 'voucher.sold']),
    )
  })

  it('raises a suspicious-operation record when small notes exceed 30 % of the UIF threshold (GEN-17)', async () => {
    // Threshold Bs 1.000,00 in this test: 30 % is Bs 300,00 of small notes.
    const under = await sellVoucher(server.url, setup.hallId, 30_000, { cash: countOf(30_000, { smallCents: 30_000 }) })
    expect(under.amountCents).toBe(30_000)
    // Issue 13 point 8: over the limit the buyer's identity document is asked for first.
    const anonymous = await api(server.url, 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 40_000,
      cash: countOf(40_000, { smallCents: 35_000 }),
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(anonymous.status).toBe(422)
    expect(anonymous.body.error).toMatchObject({
      code: 'BUYER_ID_REQUIRED',
      details: { rule: 'GEN-17', field: 'buyerDocument' },
    })
    const over = await api(server.url, 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 40_000,
      cash: countOf(40_000, { smallCents: 35_000 }),
      stationId: 'caja-1',
      cashierId: 'Ana',
      buyerDocument: 'CI 1122334',
    })
    expect(over.status).toBe(201)
    expect(over.body.aml).toMatchObject({ flagged: true, limitCents: 30_000 })
    // The same buyer's day adds up (CFG-3 window): two purchases of Bs 200 in small notes.
    await sellVoucher(server.url, setup.hallId, 20_000, {
      cash: countOf(20_000, { smallCents: 20_000 }),
      buyerDocument: 'CI 4455667',
    })
    const second = await api(server.url, 'POST', '/api/vouchers', {
      hallId: setup.hallId,
      amountCents: 20_000,
      cash: countOf(20_000, { smallCents: 20_000 }),
      stationId: 'caja-2',
      cashierId: 'Luis',
      buyerDocument: 'CI 4455667',
    })
    expect(second.body.aml.flagged).toBe(true)
    const list = await api(server.url, 'GET', '/api/aml/reports?status=open')
    expect(list.body.reports).toHaveLength(2)
    expect(list.body.reports.map((r: any) => r.rule)).toEqual(['GEN-17', 'GEN-17'])
    const windowed = list.body.reports.find((r: any) => r.buyerDocument === 'CI 4455667')
    expect(windowed.windowSmallCents).toBe(40_000)
    const shortNote = await api(server.url, 'POST', `/api/aml/reports/${windowed.id}/review`, {
      status: 'dismissed',
      note: 'ok',
      officer: 'FR',
    })
    expect(shortNote.status).toBe(400)
    const filed = await api(server.url, 'POST', `/api/aml/reports/${windowed.id}/review`, {
      status: 'filed',
      note: 'ROS 2025-17 enviado a la UIF',
      officer: 'FR',
    })
    expect(filed.body.status).toBe('filed')
  })

  it('buys cards at the kiosk with a voucher and gets a change voucher; the old voucher is spent (BNG-12)', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const young = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 3,
      kioskId: 'kiosk-1',
      ageConfirmed: false,
    })
    expect(young.status).toBe(400)
    const r = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 3,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    expect(r.status).toBe(201)
    expect(r.body.cards.map((c: any) => c.serial)).toEqual(['A-00001', 'A-00002', 'A-00003'])
    expect(r.body.amountCents).toBe(1_500)
    expect(r.body.change).toMatchObject({ amountCents: 500, origin: 'change', status: 'active', parentId: voucher.id })
    for (const c of r.body.cards) expect(c.code).toBe(server.services.cashdesk.payouts.cardCode(c.id))
    const again = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 1,
      kioskId: 'kiosk-2',
      ageConfirmed: true,
    })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('VOUCHER_SPENT')
    const tooMany = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: r.body.change.code,
      gameId: setup.gameId,
      count: 2,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.error).toMatchObject({ code: 'VOUCHER_INSUFFICIENT', details: { maxCards: 1 } })
    const exact = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: r.body.change.code,
      gameId: setup.gameId,
      count: 1,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    expect(exact.status).toBe(201)
    expect(exact.body.change).toBeNull()
    const check = await api(server.url, 'POST', '/api/vouchers/check', { code: r.body.change.code })
    expect(check.body).toMatchObject({ status: 'spent', spentFor: 'purchase', spentStation: 'kiosk-1' })
    const forged = await api(server.url, 'POST', '/api/vouchers/check', {
      code: voucher.code.slice(0, -2) + (voucher.code.endsWith('AA') ? 'BA' : 'AA'),
    })
    expect(forged.status).toBe(422)
    expect(forged.body.error.code).toBe('INVALID_SIGNATURE')
    const offer = await api(server.url, 'GET', `/api/kiosk/halls/${setup.hallId}/offer`)
    expect(offer.body).toMatchObject({
      state: 'on_sale',
      game: {
        gameId: setup.gameId,
        cardsSold: 4,
        faceValueCents: 500,
        series: [{ code: 'A', cardCount: 400, nextCardNo: 5 }],
      },
    })
    expect(offer.body.game.prizes).toMatchObject({ lineBp: 1000, bingoBp: 5100, lineCents: 200, final: false })
  })

  it('expires vouchers after the configured days and refunds active ones at the cashier only', async () => {
    const v = await sellVoucher(server.url, setup.hallId, 1_000)
    clock.offsetMs = 31 * 86_400_000
    try {
      const late = await api(server.url, 'POST', '/api/kiosk/purchases', {
        voucherCode: v.code,
        gameId: setup.gameId,
        count: 1,
        kioskId: 'kiosk-1',
        ageConfirmed: true,
      })
      expect(late.status).toBe(410)
      expect(late.body.error.code).toBe('VOUCHER_EXPIRED')
      expect((await api(server.url, 'POST', '/api/vouchers/check', { code: v.code })).body.status).toBe('expired')
    } finally {
      clock.offsetMs = 0
    }
    const refund = await api(server.url, 'POST', '/api/vouchers/cashout', {
      code: v.code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(refund.status).toBe(200)
    expect(refund.body).toMatchObject({ paidCents: 1_000, voucher: { status: 'spent', spentFor: 'cashout' } })
  })

  it('answers every validation outcome and pays a winner exactly once (§8, BNG-71)', async () => {
    // Bring the game to the minimum participation through the kiosk, then play it.
    const voucher = await sellVoucher(server.url, setup.hallId, 10_000)
    const bought = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 20,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    expect(bought.status).toBe(201)
    const pending = await api(server.url, 'POST', '/api/tickets/validate', {
      code: bought.body.cards[0].code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(pending.body.status).toBe('pending')
    const payEarly = await api(server.url, 'POST', '/api/tickets/pay', {
      code: bought.body.cards[0].code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(payEarly.body.error.code).toBe('PRIZE_PENDING')
    await playToTheEnd(server.services, setup.gameId)
    const winners = await winningCodes(server.services, setup.gameId)
    expect(winners.length).toBeGreaterThan(0)
    const winnerIds = new Set(winners.map((w) => w.cardId))
    const loser = bought.body.cards.find((c: any) => !winnerIds.has(c.id))
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: loser.code })).body.status).toBe(
      'not_winner',
    )
    const lost = await api(server.url, 'POST', '/api/tickets/pay', {
      code: loser.code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect([lost.status, lost.body.error.code, lost.body.error.message]).toEqual([
      422,
      'NOT_A_WINNER',
      'Este cartón no tiene premio.',
    ])
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: 'BLL1.C.nonsense' })).body).toMatchObject({
      status: 'invalid',
      reason: 'signature',
    })
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: voucher.code })).body).toMatchObject({
      status: 'invalid',
      reason: 'kind',
    })
    expect(
      (
        await api(server.url, 'POST', '/api/tickets/validate', {
          code: server.services.cashdesk.payouts.cardCode('c_neversold1'),
        })
      ).body,
    ).toMatchObject({ status: 'invalid', reason: 'unknown' })

    const w = winners[0]
    const v = await api(server.url, 'POST', '/api/tickets/validate', {
      code: w.code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(v.body).toMatchObject({ status: 'winner', amountCents: w.amountCents, serial: w.serial, currency: 'BOB' })
    expect(v.body.idRequired).toBe(w.amountCents >= 5_000)
    if (v.body.idRequired) {
      const noId = await api(server.url, 'POST', '/api/tickets/pay', {
        code: w.code,
        stationId: 'caja-1',
        cashierId: 'Ana',
      })
      expect(noId.status).toBe(422)
      expect(noId.body.error.code).toBe('PAYEE_ID_REQUIRED')
    }
    const paid = await api(server.url, 'POST', '/api/tickets/pay', {
      code: w.code,
      stationId: 'caja-1',
      cashierId: 'Ana',
      payeeName: 'Juan Pérez Mamani',
      payeeDocument: 'CI 1234567 LP',
    })
    expect(paid.status).toBe(200)
    expect(paid.body.payout).toMatchObject({
      amountCents: w.amountCents,
      serial: w.serial,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(paid.body.receipt.printed).toBe(true)
    const twice = await api(server.url, 'POST', '/api/tickets/pay', {
      code: w.code,
      stationId: 'caja-2',
      cashierId: 'Luis',
      payeeName: 'X',
      payeeDocument: 'Y',
    })
    expect(twice.status).toBe(409)
    expect(twice.body.error).toMatchObject({ code: 'ALREADY_PAID', details: { stationId: 'caja-1', cashierId: 'Ana' } })
    const after = await api(server.url, 'POST', '/api/tickets/validate', { code: w.code })
    expect(after.body).toMatchObject({
      status: 'paid',
      stationId: 'caja-1',
      cashierId: 'Ana',
      payoutId: paid.body.payout.payoutId,
    })

    // The journal keeps one prize.paid per prize, without the payee's personal data.
    const journal = (await api(server.url, 'GET', '/api/journal?limit=1000')).body.records
    const paidRecords = journal.filter((r: any) => r.type === 'prize.paid')
    expect(paidRecords.length).toBe(paid.body.payout.prizes.length)
    expect(JSON.stringify(paidRecords)).not.toContain('1234567')
    expect(journal.filter((r: any) => r.type === 'ticket.validated').length).toBeGreaterThanOrEqual(6)

    // Prize register (§7.13) as JSON and PDF.
    const register = await api(server.url, 'GET', `/api/prize-register?hallId=${setup.hallId}`)
    expect(register.body.rows[0]).toMatchObject({
      entry: 1,
      serial: w.serial,
      payeeName: 'Juan Pérez Mamani',
      payeeDocument: 'CI 1234567 LP',
      gameNo: 1,
      amountCents: w.amountCents,
    })
    const pdf = await fetch(`${server.url}/api/prize-register.pdf?hallId=${setup.hallId}`)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    mkdirSync(resolve('test-output/tickets'), { recursive: true })
    const file = resolve('test-output/tickets/prize-register.pdf')
    writeFileSync(file, bytes)
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    if (text.status === 0) {
      // §7.13: game number, winning card, names, identity document, prize, signature column.
      for (const needle of [
        'LIBRO DE REGISTRO DE PREMIOS',
        w.serial,
        'Juan Pérez Mamani',
        'CI 1234567 LP',
        'Firma del jugador',
      ])
        expect(text.stdout).toContain(needle)
    }

    // Station cash: voucher sales in, payout and refund out.
    const day = (await api(server.url, 'GET', '/api/stations/caja-1/movements')).body
    const kinds = day.movements.map((m: any) => m.kind)
    expect(kinds).toEqual(expect.arrayContaining(['voucher_sale', 'voucher_cashout', 'prize_payout']))
    expect(day.balanceCents).toBe(day.inCents - day.outCents)
    expect(day.movements.find((m: any) => m.kind === 'prize_payout').amountCents).toBe(-w.amountCents)
  })

  it('refuses cards reported lost or stolen and cards of a voided game (LST-4, BNG-82)', async () => {
    const gameId = await nextGameOnSale(server.services, setup)
    const voucher = await sellVoucher(server.url, setup.hallId, 1_000)
    const r = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId,
      count: 2,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    const [a, b] = r.body.cards
    const blocked = await api(server.url, 'POST', '/api/tickets/block', {
      code: a.code,
      reason: 'stolen',
      note: 'denuncia FELCC 123',
      reportedBy: 'Jefe de Sala',
    })
    expect(blocked.status).toBe(201)
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: a.code })).body).toMatchObject({
      status: 'blocked',
      reason: 'stolen',
    })
    await server.services.bingo.declareIncident({ gameId, kind: 'ball-irregularity', note: 'bola defectuosa' })
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: b.code })).body).toMatchObject({
      status: 'void',
      refundCents: 500,
    })
    const pay = await api(server.url, 'POST', '/api/tickets/pay', {
      code: b.code,
      stationId: 'caja-1',
      cashierId: 'Ana',
    })
    expect(pay.body.error.code).toBe('TICKET_VOID')
  })

  it('answers expired after the claim period of the game (CFG-40 analogue)', async () => {
    const gameId = await nextGameOnSale(server.services, setup)
    const voucher = await sellVoucher(server.url, setup.hallId, 5_000)
    expect(
      (
        await api(server.url, 'POST', '/api/kiosk/purchases', {
          voucherCode: voucher.code,
          gameId,
          count: 10,
          kioskId: 'kiosk-1',
          ageConfirmed: true,
        })
      ).status,
    ).toBe(201)
    await playToTheEnd(server.services, gameId)
    const [w] = await winningCodes(server.services, gameId)
    expect((await api(server.url, 'POST', '/api/tickets/validate', { code: w.code })).body.status).toBe('winner')
    clock.offsetMs = 31 * 86_400_000
    try {
      expect((await api(server.url, 'POST', '/api/tickets/validate', { code: w.code })).body).toMatchObject({
        status: 'expired',
        amountCents: w.amountCents,
      })
      const late = await api(server.url, 'POST', '/api/tickets/pay', {
        code: w.code,
        stationId: 'caja-1',
        cashierId: 'Ana',
        payeeName: 'A',
        payeeDocument: 'B',
      })
      expect(late.status).toBe(410)
      expect(late.body.error.code).toBe('TICKET_EXPIRED')
    } finally {
      clock.offsetMs = 0
    }
  })
})
