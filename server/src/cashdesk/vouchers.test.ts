import { TEST_LICENCE, TEST_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { deskOverDatabase, type DeskSetup } from '../../../test/helpers/cashdesk-unit.ts'
import { code } from '../../../test/helpers/error-code.ts'
import { testConfig } from '../../../test/helpers/server.ts'
import type { StationPerson } from './shifts.ts'
import { sealed } from '../../../test/helpers/device-marks.ts'
import { countOf } from '../../../test/helpers/cash.ts'

const open: DeskSetup[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.services.close()
})

async function desk() {
  const d = await deskOverDatabase()
  open.push(d)
  const { shifts, vouchers } = d.services.cashdesk
  const tillOf = async (sp: StationPerson, floatCents = 100_000) => {
    await shifts.open(sp, { floatCents })
    return shifts.till(sp)
  }
  const rosa = await tillOf(d.rosa)
  const sell = (amountCents: number, cash = countOf(amountCents)) =>
    vouchers.sell({ hallId: d.hallId, amountCents, cash, ...rosa })
  return { ...d, shifts, vouchers, tillOf, rosaTill: rosa, sell }
}

describe('credit vouchers at the cashier', () => {
  it('pays a voucher cashed out twice once: the second is refused and the drawer moves once (GEN-13)', async () => {
    const { shifts, vouchers, sell, rosaTill, advance } = await desk()
    const { voucher } = await sell(7_500)
    expect(voucher).toMatchObject({ status: 'active', amountCents: 7_500 })
    // A minute later: the report lists movements in time order.
    advance(60_000)
    const paid = await vouchers.cashOut({ code: voucher.code, ...rosaTill })
    expect(paid.paidCents).toBe(7_500)
    expect(paid.voucher.status).toBe('spent')
    await expect(vouchers.cashOut({ code: voucher.code, ...rosaTill })).rejects.toMatchObject({
      code: 'VOUCHER_SPENT',
      details: { voucherId: voucher.id, spentFor: 'cashout' },
    })
    const report = await shifts.report(rosaTill.shiftId!)
    expect(report.movements.map((m) => [m.kind, m.amountCents])).toEqual([
      ['voucher_sale', 7_500],
      ['voucher_cashout', -7_500],
    ])
    // The scanned voucher names the station where it was spent, not its device id.
    expect(await vouchers.check(voucher.code)).toMatchObject({ status: 'spent', spentStationName: 'Caja 1' })
  })

  it('pays a voucher once when two stations cash it out at the same moment', async () => {
    const d = await desk()
    const jorgeTill = await d.tillOf(d.jorge)
    const { voucher } = await d.sell(20_000)
    const results = await Promise.allSettled([
      d.vouchers.cashOut({ code: voucher.code, ...d.rosaTill }),
      d.vouchers.cashOut({ code: voucher.code, ...jorgeTill }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ code: 'VOUCHER_SPENT' })
    const out = [
      ...(await d.shifts.report(d.rosaTill.shiftId!)).movements,
      ...(await d.shifts.report(jorgeTill.shiftId!)).movements,
    ].filter((m) => m.kind === 'voucher_cashout')
    expect(out.map((m) => m.amountCents)).toEqual([-20_000])
  })

  it('sells a voucher only with a cash count that adds up, and writes nothing when it does not (GEN-17)', async () => {
    const { shifts, sell, rosaTill } = await desk()
    // Bs 20 and Bs 50 counted for a Bs 100 voucher.
    expect(await code(sell(10_000, { pieces: { '2000': 1, '5000': 1 } }))).toBe('VALIDATION_FAILED')
    expect(await code(sell(0, countOf(0)))).toBe('VALIDATION_FAILED')
    // CFG-2 (issue 26): the split itself, stated by whoever calls, is not a count.
    const split = { smallCents: 2_000, otherCents: 8_000 } as unknown as { pieces: Record<string, number> }
    expect(await code(sell(10_000, split))).toBe('CASH_COUNT_BY_PIECE')
    expect((await shifts.report(rosaTill.shiftId!)).movements).toEqual([])
    const { voucher } = await sell(10_000, countOf(10_000, { smallCents: 5_000 }))
    expect((await shifts.report(rosaTill.shiftId!)).movements.map((m) => m.refId)).toEqual([voucher.id])
  })

  it('refuses a voucher past its date, and one of another hall at this drawer', async () => {
    const { vouchers, sell, rosaTill, advance, services } = await desk()
    const { voucher } = await sell(3_000)
    // A station of another hall pays none of this hall's vouchers (issue 23 point 3).
    const other = await services.bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 50,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const device = await services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Caja S',
      hallId: other.id,
    })
    const foreign = { stationId: device.id, cashierId: 'u_ana', shiftId: null }
    expect(await code(vouchers.cashOut({ code: voucher.code, ...foreign }))).toBe('WRONG_HALL')
    advance((testConfig().voucherDays + 1) * 86_400_000)
    expect(await code(vouchers.cashOut({ code: voucher.code, ...rosaTill }))).toBe('VOUCHER_EXPIRED')
    // Refused, not spent: the screen shows it expired.
    expect((await vouchers.check(voucher.code)).status).toBe('expired')
  })
})

describe("a station's day is its hall's", () => {
  it("lists a movement of 21:30 in La Paz (01:30 UTC the next day) under the hall's day, not the server's", async () => {
    const d = await deskOverDatabase('2026-11-22T01:30:00Z')
    open.push(d)
    const { shifts, vouchers } = d.services.cashdesk
    await shifts.open(d.rosa, { floatCents: 100_000 })
    const till = await shifts.till(d.rosa)
    await vouchers.sell({ hallId: d.hallId, amountCents: 2_500, cash: countOf(2_500), ...till })
    const today = await vouchers.stationDay(d.rosa.station.id)
    expect(today.day).toBe('2026-11-21')
    expect(today.movements.map((m) => [m.kind, m.amountCents])).toEqual([['voucher_sale', 2_500]])
    // The day runs from local midnight to local midnight (La Paz is UTC-4 all year).
    expect([today.from, today.to]).toEqual(['2026-11-21T04:00:00.000Z', '2026-11-22T04:00:00.000Z'])
    expect((await vouchers.stationDay(d.rosa.station.id, '2026-11-21')).movements).toHaveLength(1)
    expect((await vouchers.stationDay(d.rosa.station.id, '2026-11-22')).movements).toHaveLength(0)
  })
})
