import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { countOf } from '../helpers/cash.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * §8 ALREADY PAID under load (BNG-71: a prize is paid once; GEN-13: every payout paid once, against the ticket's
 * signed code, out of a named drawer), run as the product ships: authentication on, the card bought at an enrolled
 * kiosk with its device credential and a voucher sold at a cashier's till, then fifty cashiers, each logged in at
 * an enrolled cashier station of her own in the hall with her own open shift, scan the same winning card at the same
 * moment over real HTTP. Exactly one payout happens; the forty-nine others are refused with 409 ALREADY_PAID; the
 * books show one payment (prizes paid once, one payout row, one cash movement, one prize.paid record per prize), and
 * its cash left the paying cashier's own shift while every other shift stayed as it was.
 */
const DESKS = 50
const PASSWORD = 'correct horse battery'
const FLOAT = 100_000

describe('fifty simultaneous payouts of one winning card', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let winner: { cardId: string; serial: string; amountCents: number; code: string }
  const tills: Till[] = []

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const setup = await hallWithGameOnSale(server.services)
    const kiosk = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco 1',
      hallId: setup.hallId,
    })
    // Fifty cashiers of the hall, each at an enrolled station of her own, logged in there with her own shift open.
    for (let i = 1; i <= DESKS; i++) {
      const username = `cajera${String(i).padStart(2, '0')}`
      await server.services.auth.createUser({
        username,
        displayName: `Cajera ${i}`,
        role: 'cashier',
        password: PASSWORD,
        halls: [setup.hallId],
      })
      tills.push(
        await openTill(server.url, server.services, {
          hallId: setup.hallId,
          username,
          password: PASSWORD,
          stationName: `Caja ${i}`,
          floatCents: FLOAT,
        }),
      )
    }
    // The buyer's voucher, paid in cash at Caja 1, spent at the kiosk on twenty cards.
    const voucher = await api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: setup.hallId, amountCents: 10_000, cash: countOf(10_000) },
      tills[0].headers,
    )
    expect(voucher.status, JSON.stringify(voucher.body)).toBe(201)
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.body.voucher.code, cards: { gameId: setup.gameId, count: 20 }, ageConfirmed: true },
      { authorization: `Device ${kiosk.credential}`, 'accept-language': 'es' },
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    await playToTheEnd(server.services, setup.gameId)
    ;[winner] = await winningCodes(server.services, setup.gameId)
  }, 180_000)
  afterAll(async () => {
    await server?.cleanup()
  })

  const shiftAt = async (till: Till) => {
    const r = await api(server.url, 'GET', '/api/shifts/current', undefined, till.headers)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return r.body.shift as { shiftId: string; expectedCents: number; movements: unknown[] }
  }

  it('pays once, out of the paying cashier’s own shift, and refuses the other 49 with ALREADY_PAID (BNG-71, GEN-13)', async () => {
    const before = await Promise.all(tills.map(shiftAt))
    const attempts = await Promise.all(
      tills.map((till, i) =>
        api(
          server.url,
          'POST',
          '/api/tickets/pay',
          { code: winner.code, payeeName: 'Rosa Condori', payeeDocument: `CI ${7000000 + i}` },
          till.headers,
        ),
      ),
    )
    const ok = attempts.filter((a) => a.status === 200)
    const refused = attempts.filter((a) => a.status === 409)
    expect(ok, JSON.stringify(attempts.filter((a) => a.status !== 409).map((a) => a.body))).toHaveLength(1)
    expect(refused).toHaveLength(DESKS - 1)
    for (const r of refused) expect(r.body.error.code).toBe('ALREADY_PAID')
    const payout = ok[0].body.payout
    expect(payout.amountCents).toBe(winner.amountCents)
    expect(winner.amountCents).toBeGreaterThan(0)

    // The payer is the cashier whose request was answered 200: her station, her shift.
    const payer = attempts.findIndex((a) => a.status === 200)
    expect(payout.stationId).toBe(tills[payer].station.id)

    const db = server.services.db
    const n = async (sql: string, params: unknown[]) => Number((await db.get<{ n: number }>(sql, params))?.n ?? 0)
    expect(await n('SELECT COUNT(*) AS n FROM payouts WHERE card_id = ?', [winner.cardId])).toBe(1)
    const movements = await db.all<{ shift_id: string; station_id: string; amount_cents: number }>(
      "SELECT shift_id, station_id, amount_cents FROM cash_movements WHERE kind = 'prize_payout' AND ref_id = ?",
      [payout.payoutId],
    )
    expect(movements).toHaveLength(1)
    expect(movements[0]).toMatchObject({ shift_id: tills[payer].shiftId, station_id: tills[payer].station.id })
    expect(Number(movements[0].amount_cents)).toBe(-winner.amountCents)
    expect(await n("SELECT COUNT(*) AS n FROM prizes WHERE card_id = ? AND status <> 'paid'", [winner.cardId])).toBe(0)
    const paidRecords = (
      await db.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'prize.paid'")
    ).map((r) => JSON.parse(r.payload))
    expect(paidRecords.filter((p) => p.serial === winner.serial)).toHaveLength(payout.prizes.length)
    expect(new Set(paidRecords.map((p) => p.payoutId))).toEqual(new Set([payout.payoutId]))

    // The prize left the payer's drawer, and only hers: her expected cash is lower by it, every other shift as it was.
    const after = await Promise.all(tills.map(shiftAt))
    for (let i = 0; i < DESKS; i++) {
      expect(after[i].shiftId).toBe(tills[i].shiftId)
      if (i === payer) {
        expect(after[i].expectedCents).toBe(before[i].expectedCents - winner.amountCents)
        expect(after[i].movements).toHaveLength(before[i].movements.length + 1)
      } else {
        expect(after[i].expectedCents, `Caja ${i + 1}`).toBe(before[i].expectedCents)
        expect(after[i].movements, `Caja ${i + 1}`).toHaveLength(before[i].movements.length)
      }
    }

    const scanned = await api(server.url, 'POST', '/api/tickets/validate', { code: winner.code }, tills[0].headers)
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200)
    expect(scanned.body).toMatchObject({ status: 'paid', stationId: payout.stationId, payoutId: payout.payoutId })
  })
})
