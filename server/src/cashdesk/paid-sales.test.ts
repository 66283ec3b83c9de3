/**
 * Issue 13: nothing of value without a recorded payment. Cards sold at a counter take cash into the seller's open
 * shift; cards bought at a kiosk spend a voucher of the kiosk's hall, its change on a new voucher; each all or
 * nothing with the cards it issues. Real SQLite (or PostgreSQL), the clock injected.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hallWithGameOnSale } from '../../../test/helpers/cashdesk.ts'
import { deskOverDatabase, type DeskSetup } from '../../../test/helpers/cashdesk-unit.ts'
import type { StationPerson } from './shifts.ts'
import { sealed } from '../../../test/helpers/device-marks.ts'
import { countOf } from '../../../test/helpers/cash.ts'

const open: DeskSetup[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.services.close()
})

const FLOAT = 20_000
const FACE = 1_000

/** A game on sale in its own hall, Ana's cashier station there with an open shift, and a kiosk of the hall. */
async function hallOnSale() {
  const d = await deskOverDatabase()
  open.push(d)
  const { services } = d
  const { shifts, vouchers } = services.cashdesk
  const setup = await hallWithGameOnSale(services, { faceValueCents: FACE })
  const device = await services.auth.enrolDevice({
    ...sealed(),
    kind: 'cashier_station',
    name: 'Caja Norte',
    hallId: setup.hallId,
  })
  const ana: StationPerson = {
    station: { id: device.id, name: 'Caja Norte', kind: 'cashier_station', hallId: setup.hallId },
    person: { id: 'u_ana', name: 'Ana Quispe', role: 'cashier', halls: [setup.hallId] },
  }
  await shifts.open(ana, { floatCents: FLOAT })
  const till = await shifts.till(ana)
  const kiosk = await services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })
  const expected = async () => (await shifts.report(till.shiftId!)).expectedCents
  const sold = async () => (await services.bingo.getGameState(setup.gameId)).cardsSold
  const voucher = async (amountCents: number) =>
    (
      await vouchers.sell({
        hallId: setup.hallId,
        amountCents,
        cash: countOf(amountCents),
        ...till,
      })
    ).voucher
  return { ...d, shifts, vouchers, paid: services.paidSales, setup, ana, till, kiosk, expected, sold, voucher }
}

describe('cards sold at the counter', () => {
  it("takes the cards' price into the seller's drawer with the cards", async () => {
    const h = await hallOnSale()
    const sale = await h.paid.counterCards({
      stationId: h.till.stationId,
      soldBy: h.till.cashierId,
      shiftId: h.till.shiftId,
      gameId: h.setup.gameId,
      count: 3,
      cash: countOf(3 * FACE),
      ageConfirmed: true,
    })
    expect(sale.cards).toHaveLength(3)
    expect(sale.amountCents).toBe(3 * FACE)
    expect(await h.expected()).toBe(FLOAT + 3 * FACE)
    expect(await h.sold()).toBe(3)
  })

  it('sells no card into a shift closed meanwhile (the cards and the cash are one transaction)', async () => {
    const h = await hallOnSale()
    await h.shifts.close(h.ana, { countedCents: FLOAT })
    await expect(
      h.paid.counterCards({
        stationId: h.till.stationId,
        soldBy: h.till.cashierId,
        shiftId: h.till.shiftId,
        gameId: h.setup.gameId,
        count: 2,
        cash: countOf(2 * FACE),
        ageConfirmed: true,
      }),
    ).rejects.toMatchObject({ code: 'SHIFT_NOT_OPEN' })
    expect(await h.sold()).toBe(0)
  })
})

describe('cards bought at a kiosk with a voucher (GEN-13, GEN-14)', () => {
  it('spends the voucher once, gives the change on a new voucher, and refuses the spent voucher', async () => {
    const h = await hallOnSale()
    const v = await h.voucher(2_500)
    const bought = await h.paid.kioskPurchase({
      voucherCode: v.code,
      kioskId: h.kiosk.id,
      ageConfirmed: true,
      cards: { gameId: h.setup.gameId, count: 2 },
    })
    expect(bought).toMatchObject({ count: 2, amountCents: 2 * FACE, voucherId: v.id })
    expect(bought.change).toMatchObject({ status: 'active', amountCents: 500 })
    expect(await h.vouchers.check(v.code)).toMatchObject({ status: 'spent' })
    await expect(
      h.paid.kioskPurchase({
        voucherCode: v.code,
        kioskId: h.kiosk.id,
        ageConfirmed: true,
        cards: { gameId: h.setup.gameId, count: 1 },
      }),
    ).rejects.toMatchObject({ code: 'VOUCHER_SPENT' })
    expect(await h.sold()).toBe(2)
  })

  it("refuses a voucher at another hall's kiosk, and the voucher stays whole", async () => {
    const h = await hallOnSale()
    const v = await h.voucher(2_000)
    const elsewhere = await h.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Centro',
      hallId: h.hallId,
    })
    await expect(
      h.paid.kioskPurchase({
        voucherCode: v.code,
        kioskId: elsewhere.id,
        ageConfirmed: true,
        cards: { gameId: h.setup.gameId, count: 1 },
      }),
    ).rejects.toMatchObject({ code: 'WRONG_HALL' })
    expect(await h.vouchers.check(v.code)).toMatchObject({ status: 'active', amountCents: 2_000 })
    expect(await h.sold()).toBe(0)
  })
})
