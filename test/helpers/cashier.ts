/**
 * A hall run as it ships (authentication on): people with passwords (the AML officer among them), two cashier stations and a kiosk enrolled in
 * the hall, each cashier logged in at a station (a session bound to it), and calls made with those credentials.
 * Used by the cashier shift, payout and refund suites (issue 13 points 5 to 8).
 */
import type { InstantDesign } from '../../server/src/instant/design.ts'
import type { Services } from '../../server/src/services.ts'
import { hallWithGameOnSale, type HallSetup } from './cashdesk.ts'
import { api } from './server.ts'
import { countOf } from './cash.ts'
import { expect } from 'vitest'
import { sealed } from './device-marks.ts'

export const PASSWORD = 'correct horse battery'
export const secondPersonHeader = (username: string, password = PASSWORD) => ({
  'x-bolillo-second-person': Buffer.from(`${username}:${password}`, 'utf8').toString('base64'),
})

export interface CashierHall {
  setup: HallSetup
  devices: Record<'caja1' | 'caja2' | 'kiosk', { id: string; credential: string }>
  /** Bearer tokens: people logged in without a station (jefa, mesa, oficial) and at one (cajera@caja1 ...). */
  tokens: Map<string, string>
  call(
    who: string,
    method: string,
    path: string,
    body?: unknown,
    extra?: Record<string, string>,
  ): Promise<{ status: number; body: any }>
}

/** People: director, two floor managers, two cashiers, an auditor; stations Caja 1, Caja 2 and Kiosco 1. */
export async function cashierHall(
  url: string,
  services: Services,
  options: { faceValueCents?: number } = {},
): Promise<CashierHall> {
  const setup = await hallWithGameOnSale(services, {
    faceValueCents: options.faceValueCents ?? 500,
    cards: 600,
    name: 'Sala Cajas',
  })
  const { auth } = services
  const people = [
    ['jefa', 'Marta Quispe', 'director'],
    ['mesa', 'Luis Mamani', 'floor_manager'],
    ['mesa2', 'Ana Choque', 'floor_manager'],
    ['cajera', 'Rosa Vargas', 'cashier'],
    ['cajero', 'Jorge Paz', 'cashier'],
    ['oficial', 'Elena Ríos', 'aml_officer'],
  ] as const
  const tokens = new Map<string, string>()
  for (const [username, displayName, role] of people) {
    await auth.createUser({ username, displayName, role, password: PASSWORD })
    tokens.set(username, (await auth.login(username, PASSWORD)).token)
  }
  const devices = {
    caja1: await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId: setup.hallId }),
    caja2: await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 2', hallId: setup.hallId }),
    kiosk: await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: setup.hallId }),
  }
  const loginAt = async (username: string, device: { credential: string }) => {
    const r = await api(
      url,
      'POST',
      '/api/auth/login',
      { username, password: PASSWORD },
      { authorization: `Device ${device.credential}` },
    )
    if (r.status !== 200)
      throw new Error(`login of ${username} at a station failed: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.token as string
  }
  tokens.set('cajera@caja1', await loginAt('cajera', devices.caja1))
  tokens.set('cajero@caja2', await loginAt('cajero', devices.caja2))
  tokens.set('cajero@caja1', await loginAt('cajero', devices.caja1))
  tokens.set('mesa@caja2', await loginAt('mesa', devices.caja2))
  const call = (who: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const device = (devices as Record<string, { credential: string }>)[who]
    const authorization = device ? `Device ${device.credential}` : `Bearer ${tokens.get(who)}`
    return api(url, method, path, body, { authorization, 'accept-language': 'es', ...extra })
  }
  return { setup, devices, tokens, call }
}

/** A pre-printed instant game (INS-9 misprints are of printed tickets) and an electronic one. */
export const printedDesign: InstantDesign = {
  gameNo: 5501,
  name: 'Raspa Caja',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 200,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 7500, count: 4 },
    { amountCents: 2500, count: 20 },
    { amountCents: 1500, count: 30 },
  ],
  payoutShareBp: { min: 0, max: 10_000 },
  packRules: { lowTiers: { maxAmountCents: 2500, minPerPack: 5 } },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}
export const electronicDesign: InstantDesign = {
  ...printedDesign,
  gameNo: 5502,
  name: 'Raspa Caja en pantalla',
  channel: 'electronic',
}

/** Generates the printed game, ships and activates its packs in the hall, and returns every ticket's codes and tier. */
export async function printedInstant(
  services: Services,
  hallId: string,
): Promise<Array<{ serial: string; code: string; tier: number; pack: number }>> {
  const tickets: Array<{ serial: string; code: string; tier: number; pack: number }> = []
  await services.instant.generateBatch({
    design: printedDesign,
    onPack: (p) => {
      p.serials.forEach((serial, i) => tickets.push({ serial, code: p.codes[i], tier: p.tiers[i], pack: p.packNo }))
    },
  })
  const packs = Math.max(...tickets.map((t) => t.pack))
  await services.instant.shipPacks({
    gameNo: printedDesign.gameNo,
    fromPack: 1,
    toPack: packs,
    destination: hallId,
    by: 'almacen',
  })
  for (let packNo = 1; packNo <= packs; packNo++)
    await services.instant.activatePack({ gameNo: printedDesign.gameNo, packNo, location: hallId, by: 'almacen' })
  return tickets
}

/** Generates the electronic game and allows on-screen sales in the hall. */
export async function electronicInstant(services: Services, hallId: string): Promise<void> {
  await services.instant.generateBatch({ design: electronicDesign })
  await services.instant.configureHall({
    hallId,
    electronicInstantAllowed: true,
    authorisationRef: 'AJ-RA-2025-0042',
    by: 'jefa',
  })
}

/**
 * A voucher sold at Caja 2 naming `buyer` (his identity document), spent at the hall's kiosk on `count` cards of
 * `gameId` (of `faceValueCents` each, the hall's 500 by default); answers the cards' signed codes.
 */
export async function kioskCardsBoughtBy(
  h: CashierHall,
  buyer: string,
  gameId: string,
  count: number,
  faceValueCents = 500,
): Promise<string[]> {
  const sold = await h.call('cajero@caja2', 'POST', '/api/vouchers', {
    hallId: h.setup.hallId,
    amountCents: count * faceValueCents,
    cash: countOf(count * faceValueCents),
    buyerDocument: buyer,
  })
  expect(sold.status, JSON.stringify(sold.body)).toBe(201)
  const bought = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
    voucherCode: sold.body.voucher.code,
    cards: { gameId, count },
    ageConfirmed: true,
  })
  expect(bought.status, JSON.stringify(bought.body)).toBe(201)
  return bought.body.cards.map((c: { code: string }) => c.code)
}
