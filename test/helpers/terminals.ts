/**
 * Issue 27 (BNG-100, BNG-101): what the hall-terminal tests build alike. The e2e files play on one paid hall with
 * two enrolled terminals; the browser files on a central and a joined hall (El Alto) sharing an interconnected
 * game, with El Alto's terminals and a voucher for each.
 */
import type { Services } from '../../server/src/services.ts'
import { equipForManualGames } from './ball-sets.ts'
import { sealed } from './device-marks.ts'
import { paidHall, type PaidHall } from './paid-hall.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from './sale-rules.ts'
import { countOf } from './cash.ts'

type Terminal = { id: string; credential: string }

/** The authority's terms for a hall's terminals (BNG-101), as the director records them over HTTP. */
export const TERMINAL_TERMS = {
  reference: 'AJ-RND-2026-0117 (terminales de bingo)',
  terms: {
    markingMode: 'automatic',
    maxCardCents: 600,
    maxGameCents: 2500,
    maxSessionCents: 5000,
    minGameSeconds: 0,
    prizeReturnBp: { min: 6000, max: 8500 },
    terminalRangePercent: 25,
    onDisconnect: 'play-on-credit',
  },
} as const

/** The request headers of an enrolled terminal, in Spanish. */
export const asTerminal = (t: { credential: string }) => ({
  'accept-language': 'es',
  authorization: `Device ${t.credential}`,
})

/** A paid hall (paidHall) with "Terminal 1" and "Terminal 2" enrolled in it; no terms recorded yet. */
export async function paidHallWithTerminals(services: Services): Promise<{ hall: PaidHall; terminals: Terminal[] }> {
  const hall = await paidHall(services)
  const terminals: Terminal[] = []
  for (const name of ['Terminal 1', 'Terminal 2'])
    terminals.push(await services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: hall.hallId }))
  return { hall, terminals }
}

/** A paid hall (paidHall) under TERMINAL_TERMS, recorded as set-up, with one terminal of the given name enrolled. */
export async function paidHallWithTerminal(
  services: Services,
  name: string,
): Promise<{ hall: PaidHall; terminal: Terminal }> {
  const hall = await paidHall(services)
  await services.terminals.setTerms({ hallId: hall.hallId, ...TERMINAL_TERMS, by: 'test' })
  const terminal = await services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: hall.hallId })
  return { hall, terminal }
}

export interface InterconnectedHalls {
  central: { id: string; series: string }
  alto: { id: string; series: string }
  /** The central's game, El Alto joined (cards 201-400 of the master set), on sale. */
  gameId: string
  /** The central's manual drum. */
  extractorId: string
}

/**
 * "Central La Paz" (series A) and "Sala El Alto" (series B) under the same terms, and the central's manual game that
 * both join (BNG-100), its sales open. With `autoClaim: false` the halls' cards wait for the player's claim.
 */
export async function interconnectedHalls(
  services: Services,
  options: { seed: string; autoClaim?: false },
): Promise<InterconnectedHalls> {
  const { bingo, bonus, terminals: service } = services
  const set = await bingo.createMasterSet({ count: 400, seed: options.seed })
  const halls: Array<{ id: string; series: string }> = []
  for (const [name, code] of [
    ['Central La Paz', 'A'],
    ['Sala El Alto', 'B'],
  ]) {
    const h = await bingo.createHall({
      name,
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const series = await bingo.createSeries({ hallId: h.id, code, masterSetId: set.id, faceValueCents: 500 })
    halls.push({ id: h.id, series: series.id })
    if (options.autoClaim === false)
      await bingo.setAutoClaim({
        hallId: h.id,
        autoClaim: false,
        by: { kind: 'system', id: 't', name: 't', role: 'system' },
      })
    await service.setTerms({
      hallId: h.id,
      reference: 'AJ-RND-2026-0117',
      terms: {
        markingMode: 'automatic',
        maxCardCents: 600,
        maxGameCents: 5000,
        maxSessionCents: 20_000,
        minGameSeconds: 0,
        prizeReturnBp: { min: 6000, max: 8500 },
        terminalRangePercent: 25,
        onDisconnect: 'play-on-credit',
      },
      by: 'test',
    })
  }
  const [central, alto] = halls
  const { extractorId } = await equipForManualGames(services, central.id)
  const session = await bingo.openSession({ hallId: central.id, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
  const { gameId } = await bingo.announceGame({
    sessionId: session.id,
    seriesIds: [central.series],
    drawSource: 'manual',
    deviceId: extractorId,
  })
  await bonus.joinGame({ gameId, hallId: central.id, seriesId: central.series, fromCardNo: 1, toCardNo: 200 })
  await bonus.joinGame({ gameId, hallId: alto.id, seriesId: alto.series, fromCardNo: 201, toCardNo: 400 })
  await bingo.openSales(gameId)
  return { central, alto, gameId, extractorId }
}

/** Two terminals enrolled in a hall, and a 20 BOB voucher for each bought at the hall's cashier ("Caja B"). */
export async function terminalsWithVouchers(
  services: Services,
  hallId: string,
): Promise<{ terminals: Terminal[]; vouchers: string[] }> {
  const { auth } = services
  const desk = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja B', hallId })
  const terminals: Terminal[] = []
  for (const name of ['Terminal 1', 'Terminal 2'])
    terminals.push(await auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId }))
  const vouchers: string[] = []
  for (let i = 0; i < terminals.length; i++) {
    const { voucher } = await services.cashdesk.vouchers.sell({
      hallId,
      amountCents: 2000,
      cash: countOf(2000),
      stationId: desk.id,
      cashierId: 'cajera',
    })
    vouchers.push(voucher.shortCode ?? voucher.code)
  }
  return { terminals, vouchers }
}
