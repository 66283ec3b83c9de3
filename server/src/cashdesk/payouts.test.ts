/**
 * The cash desk's one door for a bingo card's prizes (issue 23): paid once, out of the payer's open shift, at a
 * station of the card's hall (REGULATIONS.md §8, BNG-71). Real SQLite (or PostgreSQL), the clock injected.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hallWithGameOnSale, playToTheEnd, winningCodes } from '../../../test/helpers/cashdesk.ts'
import { deskOverDatabase, type DeskSetup } from '../../../test/helpers/cashdesk-unit.ts'
import type { StationPerson } from './shifts.ts'
import { sealed } from '../../../test/helpers/device-marks.ts'

const open: DeskSetup[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.services.close()
})

const FLOAT = 100_000
// GEN-26: a prize from the identification threshold up is paid to a named payee; every payment here names one.
const payee = { payeeName: 'Juana Flores Mamani', payeeDocument: '4567890 LP' }

/** A finished game in its own hall with 12 cards sold, two stations of that hall with open shifts. */
async function finishedGame() {
  const d = await deskOverDatabase()
  open.push(d)
  const { services } = d
  const { shifts, payouts } = services.cashdesk
  const setup = await hallWithGameOnSale(services)
  const station = async (name: string, person: { id: string; name: string }): Promise<StationPerson> => {
    const device = await services.auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name, hallId: setup.hallId })
    return {
      station: { id: device.id, name, kind: 'cashier_station', hallId: setup.hallId },
      person: { ...person, role: 'cashier', halls: [setup.hallId] },
    }
  }
  const ana = await station('Caja Norte', { id: 'u_ana', name: 'Ana Quispe' })
  const luis = await station('Caja Sur', { id: 'u_luis', name: 'Luis Condori' })
  for (const sp of [ana, luis]) await shifts.open(sp, { floatCents: FLOAT })
  const cards = await services.bingo.sell({ gameId: setup.gameId, count: 12, channel: 'counter' })
  await playToTheEnd(services, setup.gameId)
  const winners = await winningCodes(services, setup.gameId)
  const winnerIds = new Set(winners.map((w) => w.cardId))
  const loser = cards.find((c) => !winnerIds.has(c.id))!
  /** What the shift's drawer should hold now. */
  const expected = async (sp: StationPerson) => (await shifts.report((await shifts.till(sp)).shiftId!)).expectedCents
  return {
    ...d,
    shifts,
    payouts,
    ana,
    luis,
    anaTill: await shifts.till(ana),
    luisTill: await shifts.till(luis),
    winner: winners[0],
    loserCode: payouts.cardCode(loser.id),
    expected,
  }
}

describe('paying a bingo card at the cashier', () => {
  it("pays a winning card once, out of the payer's drawer; a second station finds it paid (§8 ALREADY PAID)", async () => {
    const g = await finishedGame()
    expect(g.winner.amountCents).toBeGreaterThan(0)
    const paid = await g.payouts.pay({ code: g.winner.code, ...g.anaTill, ...payee })
    expect(paid.payout.amountCents).toBe(g.winner.amountCents)
    expect(await g.expected(g.ana)).toBe(FLOAT - g.winner.amountCents)
    await expect(g.payouts.pay({ code: g.winner.code, ...g.luisTill, ...payee })).rejects.toMatchObject({
      code: 'ALREADY_PAID',
    })
    // The refused second payment moved no cash at the other station.
    expect(await g.expected(g.luis)).toBe(FLOAT)
    expect(await g.payouts.validate(g.winner.code)).toMatchObject({ status: 'paid' })
  })

  it("refuses a card at another hall's station, and the card stays payable in its own hall", async () => {
    const g = await finishedGame()
    // Rosa works at a station of the desk's first hall, not the game's.
    await g.shifts.open(g.rosa, { floatCents: FLOAT })
    const rosaTill = await g.shifts.till(g.rosa)
    await expect(g.payouts.pay({ code: g.winner.code, ...rosaTill, ...payee })).rejects.toMatchObject({
      code: 'WRONG_HALL',
    })
    expect(await g.expected(g.rosa)).toBe(FLOAT)
    expect(await g.payouts.validate(g.winner.code)).toMatchObject({ status: 'winner' })
  })

  it('pays nothing for a card that did not win', async () => {
    const g = await finishedGame()
    await expect(g.payouts.pay({ code: g.loserCode, ...g.anaTill, ...payee })).rejects.toMatchObject({
      code: 'NOT_A_WINNER',
    })
    expect(await g.expected(g.ana)).toBe(FLOAT)
  })

  it('refuses to pay out of a shift closed meanwhile (the close wins), and the card stays unpaid', async () => {
    const g = await finishedGame()
    // The till was read while the shift was open; the drawer is counted and closed before the payment commits.
    await g.shifts.close(g.ana, { countedCents: FLOAT })
    await expect(g.payouts.pay({ code: g.winner.code, ...g.anaTill, ...payee })).rejects.toMatchObject({
      code: 'SHIFT_NOT_OPEN',
    })
    expect(await g.payouts.validate(g.winner.code)).toMatchObject({ status: 'winner' })
  })
})
