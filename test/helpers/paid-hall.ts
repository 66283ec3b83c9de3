/**
 * Issue 13: a hall where every product is on sale, with authentication on: a bingo game with sales open, a lotto
 * draw whose sales window holds now, an e-instant game the hall is authorised to sell on screen, and the people and
 * enrolled devices that sell them (a kiosk, a cashier station, a cashier who logs in there).
 */
import type { Services } from '../../server/src/services.ts'
import type { InstantDesign } from '../../server/src/instant/design.ts'
import { hallWithGameOnSale, type HallSetup } from './cashdesk.ts'
import { plan649 } from './lottery-plans.ts'
import { sealed } from './device-marks.ts'

export const PASSWORD = 'correct horse battery'

export const E_INSTANT: InstantDesign = {
  gameNo: 880,
  name: 'Raspa en pantalla',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 100,
  packSize: 50,
  channel: 'electronic',
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 5000, count: 4 },
    { amountCents: 2000, count: 10 },
    { amountCents: 1000, count: 20 },
  ],
  payoutShareBp: { min: 0, max: 10_000 },
  packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}

/** "2026-11-24T10:00:00-04:00" for `ms`, in La Paz time (the plan's own offset). */
function laPaz(ms: number): string {
  return `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
}

export interface PaidHall extends HallSetup {
  drawId: string
  gameNo: number
  kiosk: { id: string; credential: string }
  station: { id: string; credential: string }
  /** The cashier's session opened at the station (her requests name it as `device`). */
  cashierToken: string
  /** The director's session, opened at no station. */
  directorToken: string
}

export async function paidHall(
  services: Services,
  options: { faceValueCents?: number; name?: string } = {},
): Promise<PaidHall> {
  const setup = await hallWithGameOnSale(services, {
    faceValueCents: options.faceValueCents ?? 500,
    name: options.name ?? 'Sala Illimani',
  })
  const { auth } = services
  const kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId })
  const station = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId: setup.hallId })
  await auth.createUser({ username: 'cajera', displayName: 'Rosa Vargas', role: 'cashier', password: PASSWORD })
  await auth.createUser({ username: 'jefa', displayName: 'Marta Quispe', role: 'director', password: PASSWORD })
  const desk = { id: station.id, name: 'Caja 1', kind: 'cashier_station' as const, hallId: setup.hallId }
  const login = await auth.login('cajera', PASSWORD, desk)
  const cashierToken = login.token
  // Her shift at the desk, opened with a counted float: counter sales move cash only through it (issue 13 point 5).
  await services.cashdesk.shifts.open(
    { station: desk, person: { id: login.user.id, name: 'Rosa Vargas', role: 'cashier' } },
    { floatCents: 10_000 },
  )
  const directorToken = (await auth.login('jefa', PASSWORD)).token
  // Noon UTC of the real day: a window of fixed times of day (a test's clock may run at any hour of it), wide enough
  // for a clock at the real time or some hours ahead of it.
  const now = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000
  const draw = await services.lotto.createDraw(
    plan649({
      gameCode: `LOTO${setup.hallId
        .slice(-4)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, 'X')}`,
      salesStartAt: laPaz(now - 86_400_000),
      salesCloseAt: laPaz(now + 5 * 86_400_000),
      drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
      claimDeadline: laPaz(now + 70 * 86_400_000),
    }),
  )
  await services.instant.generateBatch({ design: E_INSTANT, by: { kind: 'person', id: 'test' } })
  await services.instant.configureHall({
    hallId: setup.hallId,
    electronicInstantAllowed: true,
    authorisationRef: 'AJ-RA-2025-0042',
    by: 'test',
  })
  return { ...setup, drawId: draw.drawId, gameNo: E_INSTANT.gameNo, kiosk, station, cashierToken, directorToken }
}
