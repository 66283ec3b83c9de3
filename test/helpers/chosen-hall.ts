/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido with numbers the player chooses): what the chosen-number tests build
 * alike. A Bolivian hall whose AJ Operating Licence sets the terms (`picks` of 1..`universe`, `timesRequired` to
 * win), a fast series of `picks` on the universe under that licence's reference, ball sets of the universe, a
 * registered extractor and an open session (the ball count witnessed by the director); with `onSale`, a game of the
 * series announced with manual balls and its sales open.
 */
import { expect } from 'vitest'
import { hallWithSeries, registerBallSets, registerExtractor, secondPerson, type RulesServer } from './bingo-rules.ts'

export interface ChosenHallOptions {
  /** The series' code; it also names the hall, the seeds and the licence reference (AJ-LO-ELEGIDOS-<code>). */
  code: string
  universe?: number
  picks?: number
  timesRequired?: number
  playerChooses?: boolean
  autoClaims?: boolean
  /** Cards in the master set. */
  count?: number
  /** Announce a game of the series and open its sales. */
  onSale?: boolean
  /** The hall's name, its seed, the master set's seed and the licence reference, where a test fixes them. */
  name?: string
  hallSeed?: string
  setSeed?: string
  reference?: string
}

export interface ChosenHall {
  hallId: string
  sessionId: string
  seriesId: string
  /** The game on sale (with `onSale`), else ''. */
  gameId: string
}

export async function chosenNumbersHall(s: RulesServer, o: ChosenHallOptions): Promise<ChosenHall> {
  const universe = o.universe ?? 30
  const picks = o.picks ?? 5
  const reference = o.reference ?? `AJ-LO-ELEGIDOS-${o.code}`
  const { hallId } = await hallWithSeries(s, {
    profileId: 'BO-2025',
    name: o.name ?? `Sala Elegida ${o.code}`,
    seed: o.hallSeed ?? `chosen-hall-${o.code}`,
    noBallSets: true,
  })
  const lic = await s.call('jefa', 'PUT', `/api/halls/${hallId}/licence`, {
    authorisationRef: reference,
    minimumBasis: 'cards',
    playingPositions: 200,
    ...(o.autoClaims ? { autoClaims: true } : {}),
    fastBingo: { universe, picks, timesRequired: o.timesRequired ?? 3, playerChooses: o.playerChooses ?? true },
  })
  expect(lic.status, JSON.stringify(lic.body)).toBe(200)
  const set = await s.call('jefa', 'POST', '/api/master-sets/modality', {
    modality: 'fast',
    count: o.count ?? 100,
    seed: o.setSeed ?? `chosen-${o.code}`,
    params: { ballCount: universe, picks },
  })
  expect(set.status, JSON.stringify(set.body)).toBe(201)
  const series = await s.call('jefa', 'POST', `/api/halls/${hallId}/series`, {
    code: o.code,
    masterSetId: set.body.id,
    faceValueCents: 500,
    layoutAuthorisationRef: reference,
  })
  expect(series.status, JSON.stringify(series.body)).toBe(201)
  await registerBallSets(s, hallId, { ballCount: universe })
  await registerExtractor(s, hallId)
  const opened = await s.call(
    'mesa1',
    'POST',
    `/api/halls/${hallId}/sessions`,
    { recount: { ballsCounted: universe }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
    secondPerson('jefa'),
  )
  expect(opened.status, JSON.stringify(opened.body)).toBe(201)
  const hall = { hallId, sessionId: opened.body.id as string, seriesId: series.body.id as string, gameId: '' }
  if (!o.onSale) return hall
  const g = await s.call('mesa1', 'POST', `/api/sessions/${hall.sessionId}/games`, {
    seriesIds: [hall.seriesId],
    drawSource: 'manual',
  })
  expect(g.status, JSON.stringify(g.body)).toBe(201)
  expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
  return { ...hall, gameId: g.body.gameId as string }
}
