import type { GameState } from '../bingo/service.ts'

/** Server -> screen facts. Every one carries gameId and seq; a screen that sees a gap reloads the state. */
export interface ServerToClientEvents {
  'game:state': (state: GameState) => void
  'ball:drawn': (e: { gameId: string; seq: number; ball: number; count: number }) => void
  'hall:game': (e: { hallId: string; gameId: string; seq: number }) => void
  /** Issue 24 point 5: the socket's events are being refused (rate or size); keeping on disconnects it. */
  'limit:warning': (e: { code: string; message: string }) => void
}

export type Ack<T> = (r: { ok: true; data: T } | { ok: false; error: { code: string; message: string } }) => void

/** Screen -> server requests, each with an ack. */
export interface ClientToServerEvents {
  'game:watch': (req: { gameId: string }, ack: Ack<GameState>) => void
  'hall:watch': (
    req: { hallId: string },
    ack: Ack<{ hallId: string; gameId: string | null; state: GameState | null }>,
  ) => void
}

export const gameRoom = (gameId: string) => `game:${gameId}`
export const hallRoom = (hallId: string) => `hall:${hallId}`
/** Issue 29 point 7: every socket of an enrolled device (and of people signed in at it), cut when it is revoked. */
export const deviceRoom = (deviceId: string) => `device:${deviceId}`
