import { expect } from 'vitest'
import type { Services } from '../../server/src/services.ts'
import { equipForManualGames } from './ball-sets.ts'
import { sealed } from './device-marks.ts'
import { TEST_SALE_RULES, TEST_ES_SALE_RULES, testLicence } from './sale-rules.ts'
import { TEST_PLAN } from './bingo-rules.ts'

/**
 * Issue 26 (RNG-30, BNG-100): a simultaneous game on sale, set up through the use cases: the central hall draws it by
 * hand, a second hall plays it with its own range of the master set, a third hall does not take part. Each hall has
 * an enrolled display; the central has a table station too. Sales are not closed (the test closes them over HTTP).
 */
export async function simultaneousGameOnSale(
  services: Services,
  input: { profileId: 'ES-CB-2010' | 'BO-2025'; tag: string; cardsPerHall?: number },
) {
  const { bingo, bonus, auth } = services
  const bo = input.profileId === 'BO-2025'
  const set = await bingo.createMasterSet({ count: 600, seed: `video-${input.tag}` })
  const halls: Record<'central' | 'joined' | 'outside', { id: string; series: string; display: string }> = {} as never
  for (const [key, name, code] of [
    ['central', `Central ${input.tag}`, 'A'],
    ['joined', `Sala adherida ${input.tag}`, 'B'],
    ['outside', `Sala ajena ${input.tag}`, 'C'],
  ] as const) {
    const h = await bingo.createHall({
      name,
      profileId: input.profileId,
      playingPositions: 100,
      licence: testLicence(input.profileId), // GEN-1 / GEN-3: the AJ's licence or the Consejería's authorisation
      // BNG-10: the Cantabrian hall's face values as the Consejería set them.
      ...(bo ? { saleRules: TEST_SALE_RULES, bettingPlan: TEST_PLAN } : { saleRules: TEST_ES_SALE_RULES }),
    })
    const s = await bingo.createSeries({ hallId: h.id, code, masterSetId: set.id, faceValueCents: 500 })
    const display = await auth.enrolDevice({ ...sealed(), kind: 'display', name: `Pantalla ${code}`, hallId: h.id })
    halls[key] = { id: h.id, series: s.id, display: display.credential }
  }
  const { extractorId } = await equipForManualGames(services, halls.central.id)
  const session = await bingo.openSession({
    hallId: halls.central.id,
    recount: { ballsCounted: 90, confirmedBy: 'Jefe' },
  })
  const { gameId } = await bingo.announceGame({
    sessionId: session.id,
    seriesIds: [halls.central.series],
    drawSource: 'manual',
    deviceId: extractorId,
  })
  await bonus.joinGame({
    gameId,
    hallId: halls.central.id,
    seriesId: halls.central.series,
    fromCardNo: 1,
    toCardNo: 300,
  })
  await bonus.joinGame({
    gameId,
    hallId: halls.joined.id,
    seriesId: halls.joined.series,
    fromCardNo: 301,
    toCardNo: 600,
  })
  await bingo.openSales(gameId)
  const n = input.cardsPerHall ?? 40
  for (const h of [halls.central, halls.joined])
    expect((await bonus.sellInHall({ gameId, hallId: h.id, count: n, channel: 'counter' })).length).toBe(n)
  return { gameId, sessionId: session.id, halls }
}

/** A Device credential's request headers, in Spanish. */
export const asDevice = (credential: string) => ({ authorization: `Device ${credential}`, 'accept-language': 'es' })
