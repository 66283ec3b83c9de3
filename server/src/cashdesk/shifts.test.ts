import { afterEach, describe, expect, it } from 'vitest'
import { code } from '../../../test/helpers/error-code.ts'
import { deskOverDatabase, type DeskSetup } from '../../../test/helpers/cashdesk-unit.ts'
import { countOf } from '../../../test/helpers/cash.ts'

const open: DeskSetup[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.services.close()
})
async function desk() {
  const d = await deskOverDatabase()
  open.push(d)
  return d
}

describe('cashier shifts', () => {
  it('closes with a report whose figures are its movements: float + in - out, to the centavo', async () => {
    const { services, hallId, rosa, advance } = await desk()
    const { shifts, vouchers } = services.cashdesk
    await shifts.open(rosa, { floatCents: 50_000 })
    const till = await shifts.till(rosa)
    const sell = (amountCents: number) =>
      vouchers.sell({
        hallId,
        amountCents,
        cash: countOf(amountCents),
        stationId: till.stationId,
        cashierId: till.cashierId,
        shiftId: till.shiftId,
      })
    const a = await sell(10_000)
    advance(60_000)
    await sell(2_550)
    advance(60_000)
    await vouchers.cashOut({ code: a.voucher.code, ...till })

    const closed = await shifts.close(rosa, { countedCents: 50_000 + 10_000 + 2_550 - 10_000 })
    expect(closed).toMatchObject({
      status: 'closed',
      floatCents: 50_000,
      inCents: 12_550,
      outCents: 10_000,
      expectedCents: 52_550,
      countedCents: 52_550,
      differenceCents: 0,
      station: { id: rosa.station.id, name: 'Caja 1' },
      cashier: { id: 'u_rosa', name: 'Rosa Mamani' },
    })
    expect(closed.movements.map((m) => m.amountCents)).toEqual([10_000, 2_550, -10_000])
    expect(closed.lines).toEqual([
      { product: 'voucher', kind: 'voucher_cashout', count: 1, inCents: 0, outCents: 10_000 },
      { product: 'voucher', kind: 'voucher_sale', count: 2, inCents: 12_550, outCents: 0 },
    ])
    // The report read back later says the same: the stored close, not a sum made again.
    expect(await shifts.report(closed.shiftId)).toEqual(closed)
    // GET /api/shifts keeps the column names of its listing, money as numbers.
    expect(await shifts.list({ hallId })).toEqual([
      expect.objectContaining({
        id: closed.shiftId,
        hall_id: hallId,
        station_id: rosa.station.id,
        cashier_name: 'Rosa Mamani',
        float_cents: 50_000,
        expected_cents: 52_550,
        difference_cents: 0,
        status: 'closed',
      }),
    ])
  })

  it('refuses a count that differs without a note, and records the difference to the centavo with one', async () => {
    const { services, hallId, rosa } = await desk()
    const { shifts, vouchers } = services.cashdesk
    await shifts.open(rosa, { floatCents: 20_000 })
    const till = await shifts.till(rosa)
    await vouchers.sell({
      hallId,
      amountCents: 5_000,
      cash: countOf(5_000),
      ...till,
    })
    const short = shifts.close(rosa, { countedCents: 24_950 })
    await expect(short).rejects.toMatchObject({ code: 'SHIFT_COUNT_DIFFERS', details: { differenceCents: -50 } })
    // Still open: the refused close changed nothing.
    expect((await shifts.current(rosa))?.status).toBe('open')
    const closed = await shifts.close(rosa, { countedCents: 24_950, note: 'moneda de 50 centavos perdida' })
    expect(closed).toMatchObject({ expectedCents: 25_000, countedCents: 24_950, differenceCents: -50 })
    expect(closed.note).toBe('moneda de 50 centavos perdida')
  })

  it('files no cash into a closed shift: a sale with its till after the close is refused and nothing is written', async () => {
    const { services, hallId, rosa } = await desk()
    const { shifts, vouchers } = services.cashdesk
    await shifts.open(rosa, { floatCents: 0 })
    const till = await shifts.till(rosa)
    const closed = await shifts.close(rosa, { countedCents: 0 })
    const late = vouchers.sell({ hallId, amountCents: 1_000, cash: countOf(1_000), ...till })
    expect(await code(late)).toBe('SHIFT_NOT_OPEN')
    expect((await shifts.report(closed.shiftId)).movements).toEqual([])
  })

  it("keeps one drawer per station and one person's drawer to that person", async () => {
    const { services, rosa, jorge } = await desk()
    const { shifts } = services.cashdesk
    await shifts.open(rosa, { floatCents: 1_000 })
    expect(await code(shifts.open(rosa, { floatCents: 1_000 }))).toBe('SHIFT_ALREADY_OPEN')
    // Jorge logged in at Rosa's station moves none of her cash, nor closes her drawer.
    const jorgeAtCaja1 = { station: rosa.station, person: jorge.person }
    expect(await code(shifts.till(jorgeAtCaja1))).toBe('SHIFT_NOT_OPEN')
    expect(await code(shifts.close(jorgeAtCaja1, { countedCents: 1_000 }))).toBe('SHIFT_NOT_OPEN')
    // His own station has no shift until he opens one.
    expect(await code(shifts.till(jorge))).toBe('SHIFT_NOT_OPEN')
    expect(await shifts.current(jorge)).toBeNull()
  })

  it('refuses a float that is not whole centavos, zero or more', async () => {
    const { services, rosa } = await desk()
    for (const floatCents of [-1, 10.5, Number.NaN])
      expect(await code(services.cashdesk.shifts.open(rosa, { floatCents }))).toBe('VALIDATION_FAILED')
    expect(await services.cashdesk.shifts.current(rosa)).toBeNull()
  })
})
