/**
 * The cash desk's one refund of a card (issue 29 point 1, BNG-86): only an annulled game's cards, once, at full
 * price, out of the open shift of a station of the card's hall. Real SQLite (or PostgreSQL), the clock injected.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd } from '../../../test/helpers/cashdesk.ts'
import { deskOverDatabase, type DeskSetup } from '../../../test/helpers/cashdesk-unit.ts'
import type { RefundActor } from './refunds.ts'
import type { StationPerson } from './shifts.ts'
import { sealed } from '../../../test/helpers/device-marks.ts'

const open: DeskSetup[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.services.close()
})

const FLOAT = 50_000
const FACE = 500
const ana: RefundActor = { kind: 'person', id: 'u_ana', name: 'Ana Quispe', role: 'cashier' }

/** A hall whose first game ended normally and whose second was annulled after its first ball; Ana's shift open. */
async function annulledGame() {
  const d = await deskOverDatabase()
  open.push(d)
  const { services } = d
  const { shifts, refunds, payouts } = services.cashdesk
  const setup = await hallWithGameOnSale(services, { faceValueCents: FACE })
  const finished = await services.bingo.sell({ gameId: setup.gameId, count: 12, channel: 'counter' })
  await playToTheEnd(services, setup.gameId)
  const gameId = await nextGameOnSale(services, setup)
  const sold = await services.bingo.sell({ gameId, count: 12, channel: 'counter' })
  await services.bingo.closeSales({ gameId })
  await services.bingo.drawNext(gameId)
  // BNG-82: a ball found irregular annuls the game; its cards are refunded.
  await services.bingo.declareIncident({ gameId, kind: 'ball-irregularity', note: 'bola 12 deformada' })
  const device = await services.auth.enrolDevice({
    ...sealed(),
    kind: 'cashier_station',
    name: 'Caja Norte',
    hallId: setup.hallId,
  })
  const anaAt: StationPerson = {
    station: { id: device.id, name: 'Caja Norte', kind: 'cashier_station', hallId: setup.hallId },
    person: { id: ana.id, name: ana.name, role: 'cashier', halls: [setup.hallId] },
  }
  await shifts.open(anaAt, { floatCents: FLOAT })
  const expected = async (sp: StationPerson) => (await shifts.report((await shifts.till(sp)).shiftId!)).expectedCents
  return {
    ...d,
    shifts,
    refunds,
    gameId,
    anaAt,
    till: await shifts.till(anaAt),
    voidCodes: sold.map((c) => payouts.cardCode(c.id)),
    finishedCode: payouts.cardCode(finished[0].id),
    expected,
  }
}

describe("refunding an annulled game's card", () => {
  it('refunds a card once, at its face value, out of the shift; the second presentation is ALREADY_REFUNDED', async () => {
    const g = await annulledGame()
    expect((await g.services.bingo.getGameState(g.gameId)).status).toBe('void')
    const r = await g.refunds.refundCard({ code: g.voidCodes[0], to: 'cash', till: g.till, actor: ana })
    expect(r).toMatchObject({ amountCents: FACE, method: 'cash', gameId: g.gameId, stationId: g.till.stationId })
    expect(await g.expected(g.anaAt)).toBe(FLOAT - FACE)
    await expect(
      g.refunds.refundCard({ code: g.voidCodes[0], to: 'cash', till: g.till, actor: ana }),
    ).rejects.toMatchObject({ code: 'ALREADY_REFUNDED', details: { refundId: r.refundId, method: 'cash' } })
    // Another card of the same game is its own refund; the drawer gave each card's price once.
    await g.refunds.refundCard({ code: g.voidCodes[1], to: 'cash', till: g.till, actor: ana })
    expect(await g.expected(g.anaAt)).toBe(FLOAT - 2 * FACE)
    expect(await g.refunds.ofGame(g.gameId)).toEqual({ count: 2, amountCents: 2 * FACE })
  })

  it('refuses the card of a game that ended normally (BNG-86) and moves no cash', async () => {
    const g = await annulledGame()
    await expect(
      g.refunds.refundCard({ code: g.finishedCode, to: 'cash', till: g.till, actor: ana }),
    ).rejects.toMatchObject({ code: 'NOT_REFUNDABLE', details: { rule: 'BNG-86' } })
    expect(await g.expected(g.anaAt)).toBe(FLOAT)
  })

  it("refuses a refund at another hall's station, and the card stays refundable in its own", async () => {
    const g = await annulledGame()
    await g.shifts.open(g.rosa, { floatCents: FLOAT })
    const rosaTill = await g.shifts.till(g.rosa)
    const rosa: RefundActor = { kind: 'person', id: g.rosa.person.id, name: g.rosa.person.name, role: 'cashier' }
    await expect(
      g.refunds.refundCard({ code: g.voidCodes[0], to: 'cash', till: rosaTill, actor: rosa }),
    ).rejects.toMatchObject({ code: 'WRONG_HALL' })
    expect(await g.expected(g.rosa)).toBe(FLOAT)
    await g.refunds.refundCard({ code: g.voidCodes[0], to: 'cash', till: g.till, actor: ana })
    expect(await g.refunds.ofGame(g.gameId)).toEqual({ count: 1, amountCents: FACE })
  })

  it('puts a card bought over the counter back in cash only, never onto a voucher', async () => {
    const g = await annulledGame()
    await expect(
      g.refunds.refundCard({ code: g.voidCodes[0], to: 'voucher', till: g.till, actor: ana }),
    ).rejects.toMatchObject({ code: 'NOT_REFUNDABLE' })
    // The refused attempt left the card refundable (all or nothing).
    expect(await g.refunds.ofGame(g.gameId)).toEqual({ count: 0, amountCents: 0 })
    expect(
      (await g.refunds.refundCard({ code: g.voidCodes[0], to: 'cash', till: g.till, actor: ana })).amountCents,
    ).toBe(FACE)
  })
})
