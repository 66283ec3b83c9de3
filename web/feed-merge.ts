/**
 * How a screen folds what the server sends into the one state it shows. Pure, so the rules are unit-tested:
 * - a full state replaces the shown one unless it is for another game or older (lower journal seq);
 * - a `ball:drawn` is shown at once, before the full state that follows it (BNG-39); a gap in the count means a
 *   missed event, and the screen reloads the full state.
 */
import type { GameState } from '../server/src/bingo/service.ts'

export interface BallDrawn {
  gameId: string
  seq: number
  ball: number
  count: number
}

/** The state to show after a full `game:state`, or null to ignore it. */
export function mergeState(
  current: GameState | null,
  watchedGameId: string | null,
  incoming: GameState,
): GameState | null {
  if (watchedGameId !== null && incoming.gameId !== watchedGameId) return null
  if (current && current.gameId === incoming.gameId && incoming.seq < current.seq) return null
  return incoming
}

/**
 * The state after a `ball:drawn`. `gap` is true when the event does not follow the balls shown (the screen then
 * asks for the full state); `state` is null when the event changes nothing.
 */
export function mergeBall(current: GameState | null, e: BallDrawn): { state: GameState | null; gap: boolean } {
  if (!current || current.gameId !== e.gameId) return { state: null, gap: current === null }
  const shown = current.balls.length
  if (e.count <= shown) return { state: null, gap: false }
  if (e.count !== shown + 1) return { state: null, gap: true }
  return {
    gap: false,
    state: {
      ...current,
      balls: [...current.balls, e.ball],
      lastBall: e.ball,
      status: current.status === 'sales_closed' ? 'drawing' : current.status,
      seq: Math.max(current.seq, e.seq),
    },
  }
}
