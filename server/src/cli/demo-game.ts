import type { Services } from '../services.ts'
import { DEMO_BETTING_PLAN, DEMO_LICENCE } from '../bingo/betting-plan.ts'
import { markDemo } from '../demo.ts'
import { registerDemoRng } from '../equipment/service.ts'
import type { ClaimKind } from '../bingo/game.ts'

export interface DemoResult {
  gameId: string
  hallId: string
  sessionId: string
  currency: string
  cardsSold: number
  faceValue: number
  linePool: number
  bingoPool: number
  balls: number[]
  proof: unknown
  winners: Array<{ kind: ClaimKind; serial: string; numbers: number[][]; atBall: number; amount: number }>
  cards?: Array<{ serial: string; numbers: number[][] }>
}

/**
 * Plays one whole RNG game headless through the same services the server uses: hall, master set, series,
 * session, sale, close of sales, draw until bingo, "any more?" windows closed, session closed. Prizes are awarded,
 * not paid: nobody stands at a cash desk here, and no money was taken for its cards.
 * Prize shares are the demo Plan de Apuestas' (10 % line / 51 % bingo: Bolivia fixes none, BNG-52). The proof is
 * bolillo-draw-v2, with the demo beacon unless the services were given published rounds (`--beacon-file`).
 */
export async function runDemoGame(
  services: Services,
  options: { cards: number; withCards?: boolean; faceValueCents?: number; afterClose?: () => void },
): Promise<DemoResult> {
  const { bingo } = services
  const hall = await bingo.createHall({
    name: 'Sala demo (CLI)',
    profileId: 'BO-2025',
    playingPositions: Math.max(100, options.cards),
    bettingPlan: DEMO_BETTING_PLAN,
    // GEN-1 / CFG-21: the demo's labelled licence, which allows the system's claims: nobody is there to call.
    licence: DEMO_LICENCE,
  })
  // The demo beacon signs the demo's own halls only (issue 24 point 4).
  await markDemo(services, [{ hallId: hall.id }])
  // Issue 26 (GEN-6): its RNG game is drawn by the demo's registered RNG device.
  await registerDemoRng(services)
  const set = await bingo.createMasterSet({ count: options.cards })
  const series = await bingo.createSeries({
    hallId: hall.id,
    code: 'A',
    masterSetId: set.id,
    faceValueCents: options.faceValueCents ?? 500,
  })
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'demo' } })
  const announced = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'rng' })
  const gameId = announced.gameId
  await bingo.openSales(gameId)
  const sold: Array<{ serial: string; numbers: number[][] }> = []
  for (let left = options.cards; left > 0; left -= Math.min(left, 10_000)) {
    const cards = await bingo.sell({ gameId, count: Math.min(left, 10_000), channel: 'demo' })
    for (const c of cards) sold.push({ serial: c.serial, numbers: c.rows })
  }
  // bolillo-draw-v2: the close fixes the beacon round; the first draw waits for it (or the demo beacon signs it).
  await bingo.closeSales({ gameId })
  options.afterClose?.()
  for (let guard = 0; guard < 400; guard++) {
    const state = await bingo.getGameState(gameId)
    if (state.status === 'finished' || state.status === 'void') break
    if (state.status === 'line_window' || state.status === 'bingo_window') await bingo.closeWindow(gameId)
    else await bingo.drawNext(gameId)
  }
  // The demo's prizes stay awarded, unpaid: its cards were sold on the demo channel with no money taken, and a prize is
  // paid only at the cash desk, against the card's signed code, by a person out of an open shift (issue 23 point 2).
  await bingo.closeSession(session.id, { ballsCounted: 90, confirmedBy: 'demo' })
  const state = await bingo.getGameState(gameId)
  const proof = await bingo.getProof(gameId)
  return {
    gameId,
    hallId: hall.id,
    sessionId: session.id,
    currency: state.currency,
    cardsSold: state.cardsSold,
    faceValue: state.faceValueCents,
    linePool: state.linePoolCents ?? 0,
    bingoPool: state.bingoPoolCents ?? 0,
    balls: state.balls,
    proof,
    winners: state.winners.map((w) => ({
      kind: w.kind,
      serial: w.serial,
      numbers: w.rows,
      atBall: w.atBall,
      amount: w.amountCents ?? 0,
    })),
    ...(options.withCards ? { cards: sold } : {}),
  }
}
