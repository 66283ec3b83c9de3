/**
 * The live feed of one hall or one game over socket.io (same origin). On every (re)connection the screen emits
 * `hall:watch` / `game:watch` and takes the full state from the ack, so a screen opened mid-game, or back from a
 * network cut or a server restart, is right at once. Then it renders every `game:state` and shows each
 * `ball:drawn` immediately. `hall:game` (a new game announced) makes a hall screen watch again.
 */
import { signal, type Signal } from '@preact/signals'
import { io, type Socket } from 'socket.io-client'
import type { GameState } from '../server/src/bingo/service.ts'
import type { ClientToServerEvents, ServerToClientEvents } from '../server/src/realtime/events.ts'
import { mergeBall, mergeState, type BallDrawn } from './feed-merge.ts'

export type FeedTarget = { hallId: string; gameId?: undefined } | { gameId: string; hallId?: undefined }
export type Connection = 'connecting' | 'online' | 'offline'

export interface GameFeed {
  /** What the server last said about the watched game (null: no game in the hall yet). */
  state: Signal<GameState | null>
  connection: Signal<Connection>
  /** A watch the server refused (unknown hall or game): code and message. */
  error: Signal<{ code: string; message: string } | null>
  /** The last ball received live (not on load): screens speak it and animate it. */
  lastCall: Signal<BallDrawn | null>
  /** Asks for the full state again. */
  refresh(): Promise<void>
  close(): void
}

const WATCH_TIMEOUT_MS = 8000

/** Parses `?hall=demo` or `?game=<id>`; the demo hall when neither is given. */
export function targetFromSearch(search: string): FeedTarget {
  const q = new URLSearchParams(search)
  const game = q.get('game')
  if (game) return { gameId: game }
  return { hallId: q.get('hall') || 'demo' }
}

export function createGameFeed(target: FeedTarget, options: { url?: string } = {}): GameFeed {
  const state = signal<GameState | null>(null)
  const connection = signal<Connection>('connecting')
  const error = signal<{ code: string; message: string } | null>(null)
  const lastCall = signal<BallDrawn | null>(null)
  let watchedGameId: string | null = target.gameId ?? null
  let watching: Promise<void> | null = null

  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(options.url ?? '', {
    transports: ['websocket', 'polling'],
    reconnectionDelay: 300,
    reconnectionDelayMax: 2000,
    randomizationFactor: 0.3,
  })

  async function watchOnce(): Promise<void> {
    try {
      if (target.gameId !== undefined) {
        const r = await socket.timeout(WATCH_TIMEOUT_MS).emitWithAck('game:watch', { gameId: target.gameId })
        if (!r.ok) {
          error.value = r.error
          return
        }
        error.value = null
        state.value = r.data
      } else {
        const r = await socket.timeout(WATCH_TIMEOUT_MS).emitWithAck('hall:watch', { hallId: target.hallId })
        if (!r.ok) {
          error.value = r.error
          return
        }
        error.value = null
        watchedGameId = r.data.gameId
        const current = state.value
        // Keep a newer state that raced ahead of the ack (same game, higher seq).
        if (!(current && r.data.state && current.gameId === r.data.state.gameId && current.seq > r.data.state.seq))
          state.value = r.data.state
      }
    } catch {
      // No ack in time: the connection is probably going down; the next 'connect' watches again.
      if (socket.connected)
        setTimeout(() => {
          void refresh()
        }, 1000)
    }
  }

  let again: Promise<void> | null = null
  function refresh(): Promise<void> {
    // A refresh asked for while a watch is in flight (a new game announced while a gap after a ball is being
    // filled) watches once more afterwards: the answer in flight may be the old game's, and the hall screen would
    // stay on it all night, dropping the new game's states.
    if (watching) {
      again ??= watching.then(() => {
        again = null
        return refresh()
      })
      return again
    }
    watching = watchOnce().finally(() => {
      watching = null
    })
    return watching
  }

  socket.on('connect', () => {
    connection.value = 'online'
    void refresh()
  })
  socket.on('disconnect', () => {
    connection.value = 'offline'
  })
  socket.on('connect_error', () => {
    connection.value = 'offline'
  })

  socket.on('game:state', (incoming) => {
    const next = mergeState(state.value, watchedGameId, incoming)
    if (next) state.value = next
  })
  socket.on('ball:drawn', (e) => {
    if (watchedGameId !== null && e.gameId !== watchedGameId) return
    const r = mergeBall(state.value, e)
    if (r.state) {
      state.value = r.state
      lastCall.value = e
    } else if (r.gap) {
      lastCall.value = e
      void refresh()
    }
  })
  socket.on('hall:game', (e) => {
    if (target.hallId === undefined || e.hallId !== target.hallId || e.gameId === watchedGameId) return
    watchedGameId = e.gameId
    void refresh()
  })

  return {
    state,
    connection,
    error,
    lastCall,
    refresh,
    close: () => {
      socket.close()
    },
  }
}
