import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPrintFile } from '../../printer/src/printers.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { printRunTickets } from '../helpers/instant.ts'
import { startTestServer } from '../helpers/server.ts'
import {
  cashierHall,
  electronicDesign,
  electronicInstant,
  printedInstant,
  secondPersonHeader,
  type CashierHall,
} from '../helpers/cashier.ts'

/**
 * INS-10 (002 §7.4.6.1; 000 §7.2.6.1; REGULATIONS §8 NOT PRESENTED → refuse): an instant prize is paid only against
 * the ticket itself, which nothing replaces. The hidden validation code alone (a photo of the scratched area) pays
 * nothing: every route that settles an instant ticket (the cash desk's payout, the misprint refund, the void for
 * damage) wants the inventory code printed outside the scratch area too, of the same ticket. Judging still answers on
 * the validation code alone, and says the inventory code will be needed. An e-instant ticket printed for an
 * on-screen sale is paid with what its paper carries: the QR and the serial printed as "Boleto".
 *
 * Over real HTTP, authentication on, enrolled stations, a cashier with her shift open; on SQLite and PostgreSQL.
 */
describe('INS-10: an instant ticket is settled only against both of its codes (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let tickets: Awaited<ReturnType<typeof printedInstant>>
  const payee = { payeeName: 'Ana Quispe Mamani', payeeDocument: '4455667 LP' }
  const sell = async (serial: string) =>
    expect(
      (
        await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
          ageConfirmed: true,
          code: serial,
          hallId: h.setup.hallId,
        })
      ).status,
    ).toBe(201)
  /** What the settling routes could have changed: the drawer, the prize register, the ticket states, the journal. */
  const ledger = async () => {
    const shift = (await h.call('cajero@caja2', 'GET', '/api/shifts/current')).body.shift
    const n = async (sql: string) => Number((await server.services.db.get<{ n: number }>(sql))!.n)
    return {
      expectedCents: shift.expectedCents as number,
      movements: await n("SELECT COUNT(*) AS n FROM cash_movements WHERE product = 'instant'"),
      payouts: await n('SELECT COUNT(*) AS n FROM instant_payouts'),
      settled: await n('SELECT COUNT(*) AS n FROM instant_tickets WHERE status > 1'),
      records: await n(
        "SELECT COUNT(*) AS n FROM journal WHERE type IN ('instant.prize_paid', 'instant.misprint_refunded', 'instant.ticket_voided')",
      ),
    }
  }
  const refused = (r: { status: number; body: any }, status: number, code: string) => {
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([status, code])
    // Spanish for the person at the till; the rule named.
    expect(r.body.error.message).not.toMatch(/INVENTORY_CODE|inventoryCode/)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services)
    tickets = await printedInstant(server.services, h.setup.hallId)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 500_000 })).status).toBe(201)
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('the cash desk pays a prize only with both codes of the same ticket: the validation code alone and another ticket’s inventory code are refused, nothing moves, then it pays once', async () => {
    const [winner, other] = tickets.filter((t) => t.tier > 0)
    await sell(winner.serial)
    const before = await ledger()
    const qr = server.services.instant.signCode(winner.code)
    // Typed from under the scratch layer, or its QR read from a photo: refused, in Spanish, naming the rule.
    for (const code of [winner.code, qr]) {
      const alone = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code, ...payee })
      refused(alone, 422, 'INVENTORY_CODE_REQUIRED')
      expect(alone.body.error.message).toMatch(/^Escanee también el código de inventario del boleto/)
      expect(alone.body.error.details).toMatchObject({ rule: 'INS-10', field: 'inventoryCode' })
    }
    // An empty inventory code is no code; the validation code scanned again in its place is not one either.
    for (const inventoryCode of ['  ', winner.code])
      refused(
        await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: winner.code, inventoryCode, ...payee }),
        422,
        'INVENTORY_CODE_REQUIRED',
      )
    // Another ticket's inventory code (a ticket of the same pack, on the counter beside it): refused as a mismatch.
    const mismatch = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: winner.code,
      inventoryCode: other.serial,
      ...payee,
    })
    refused(mismatch, 409, 'INVENTORY_CODE_MISMATCH')
    expect(mismatch.body.error.message).toMatch(/^El código de inventario no es de este boleto/)
    expect(await ledger()).toEqual(before)

    // Still payable: both codes, as scanned (the signed QR outside), pay once.
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: qr,
      inventoryCode: server.services.instant.signCode(winner.serial),
      ...payee,
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const prize = paid.body.payout.amountCents as number
    expect(prize).toBeGreaterThan(0)
    // The receipt the payee signs names the raspadita's game and ticket, the station and the cashier as people read
    // them, never their ids (issue 29 point 6) nor a bingo card's words.
    const receipt = Buffer.from(String(paid.body.preview).split(',')[1], 'base64').toString('utf8')
    for (const words of ['Juego N.º', 'Boleto', 'Premio de raspadita', 'Caja 2', 'Jorge Paz'])
      expect(receipt).toContain(words)
    expect(receipt).not.toMatch(/Partida|Cartón|>instant<|dev_|u_[0-9a-z]/)
    const after = await ledger()
    expect(after).toEqual({
      expectedCents: before.expectedCents - prize,
      movements: before.movements + 1,
      payouts: before.payouts + 1,
      settled: before.settled + 1,
      records: before.records + 1,
    })
    refused(
      await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
        code: winner.code,
        inventoryCode: winner.serial,
        ...payee,
      }),
      409,
      'ALREADY_PAID',
    )
    expect(await ledger()).toEqual(after)
  })

  it('judging answers on the validation code alone and says the inventory code is needed to pay; at the till and at the kiosk', async () => {
    const [, , winner, other] = tickets.filter((t) => t.tier > 0)
    await sell(winner.serial)
    const desk = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: winner.code })
    expect(desk.body).toMatchObject({ status: 'winner', outcome: 'WIN', inventoryCodeRequired: true })
    expect(desk.body.view).toMatchObject({ product: 'instant', verdict: 'winner', inventoryCodeRequired: true })
    // The kiosk judges a presented code too (it pays nothing): the same answer.
    const kiosk = await h.call('kiosk', 'POST', '/api/tickets/validate', { code: winner.code })
    expect(kiosk.body.view).toMatchObject({ verdict: 'winner', inventoryCodeRequired: true })
    const before = await ledger()
    expect((await h.call('kiosk', 'POST', '/api/tickets/pay', { code: winner.code, ...payee })).status).toBe(403)
    // With its own inventory code it needs nothing more; with another ticket's it is refused, judged as settled (INS-9).
    const both = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', {
      code: winner.code,
      inventoryCode: winner.serial,
    })
    expect(both.body).toMatchObject({ outcome: 'WIN', inventoryCodeRequired: false })
    expect(both.body.view).toMatchObject({ verdict: 'winner', inventoryCodeRequired: false })
    const instant = await h.call('cajero@caja2', 'POST', '/api/instant/validate', {
      code: winner.code,
      inventoryCode: other.serial,
    })
    expect(instant.status).toBe(409)
    expect(instant.body.error.code).toBe('INVENTORY_CODE_MISMATCH')
    const mixed = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', {
      code: winner.code,
      inventoryCode: other.serial,
    })
    expect(mixed.status).toBe(409)
    expect(mixed.body.error.message).toMatch(/no es de este boleto/)
    // An inventory code sent with a card's code is a mistake, said so.
    const card = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', {
      code: server.services.cashdesk.payouts.cardCode('c_any'),
      inventoryCode: winner.serial,
    })
    expect(card.status).toBe(400)
    expect(await ledger()).toEqual(before)
  })

  it('a misprint refund and a void for damage need both codes of the same ticket (INS-9, INS-10): a pair of two tickets settles neither; each is still settled afterwards with its own', async () => {
    const [loser] = tickets.filter((t) => t.tier === 0)
    const winner = tickets.filter((t) => t.tier > 0)[4]
    await sell(loser.serial)
    await sell(winner.serial)
    const before = await ledger()
    const refund = { code: loser.code, reason: 'printing-defect', note: 'zona de juego ilegible' }
    refused(
      await h.call('cajero@caja2', 'POST', '/api/instant/refund', refund, secondPersonHeader('mesa')),
      422,
      'INVENTORY_CODE_REQUIRED',
    )
    const damage = { code: winner.code, damage: 'números tachados con bolígrafo', keptAs: 'sobre 7, caja fuerte' }
    refused(await h.call('mesa', 'POST', '/api/instant/void-damage', damage), 422, 'INVENTORY_CODE_REQUIRED')
    refused(
      await h.call('mesa', 'POST', '/api/instant/void-damage', { ...damage, inventoryCode: loser.serial }),
      409,
      'INVENTORY_CODE_MISMATCH',
    )
    // INS-9/INS-10: the hidden code of one ticket with the inventory code of another is refunded as neither: not the
    // hidden code's ticket (it would then never be paid) nor the other one, whichever way round the pair comes.
    for (const pair of [
      { code: winner.code, inventoryCode: loser.serial },
      { code: loser.code, inventoryCode: winner.serial },
    ]) {
      const mismatch = await h.call(
        'cajero@caja2',
        'POST',
        '/api/instant/refund',
        { ...refund, ...pair, reason: 'serial-mismatch' },
        secondPersonHeader('mesa'),
      )
      refused(mismatch, 409, 'INVENTORY_CODE_MISMATCH')
      expect(mismatch.body.error.message).toMatch(/no se paga, reembolsa ni anula ninguno/)
    }
    expect(await ledger()).toEqual(before)

    const refunded = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      { ...refund, inventoryCode: loser.serial },
      secondPersonHeader('mesa'),
    )
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200)
    const voided = await h.call('mesa', 'POST', '/api/instant/void-damage', { ...damage, inventoryCode: winner.serial })
    expect(voided.status, JSON.stringify(voided.body)).toBe(200)
    expect(await ledger()).toMatchObject({
      expectedCents: before.expectedCents - refunded.body.amountCents,
      movements: before.movements + 1,
      settled: before.settled + 2,
      records: before.records + 2,
    })
  })

  it('an e-instant ticket sold at the counter is paid with what its paper carries: the QR and the serial printed as "Boleto"', async () => {
    await electronicInstant(server.services, h.setup.hallId)
    const pool = await printRunTickets(server.services.db, server.services.sealer, electronicDesign)
    const first = pool.findIndex((x) => x.tier > 0)
    expect(first).toBeGreaterThanOrEqual(0)
    let sale: { status: number; body: any } | undefined
    for (let i = 0; i <= first; i++) {
      sale = await h.call('cajero@caja2', 'POST', `/api/instant/halls/${h.setup.hallId}/electronic`, {
        gameNo: electronicDesign.gameNo,
        ageConfirmed: true,
      })
      expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    }
    expect(sale!.body.prizeCents).toBeGreaterThan(0)
    // The paper as the printer got it: its QR and the serial on its "Boleto" line.
    const job = decodeEscPos(openPrintFile(server.services.sealer, sale!.body.receipt.files[0]))
    const qr = job.qr.find((q) => q.startsWith('BLL1.I.'))!
    const serial = /Boleto\s+(\d{4}-\d{6}-\d{3}-\d)/.exec(job.lines.join('\n'))?.[1]
    expect(serial).toBe(sale!.body.serial)
    const before = await ledger()
    refused(
      await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: qr, ...payee }),
      422,
      'INVENTORY_CODE_REQUIRED',
    )
    expect(await ledger()).toEqual(before)
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: qr, inventoryCode: serial, ...payee })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(sale!.body.prizeCents)
  })
})
