import type { Server as HttpServer } from 'node:http'
import { Server } from 'socket.io'
import { DomainError } from '../shared/errors.ts'
import { ANONYMOUS, type Principal } from '../access/service.ts'
import { isAllowed, socketPermissions, type Role } from '../access/permissions.ts'
import type { Services } from '../services.ts'
import { gameRoom, hallRoom, type ClientToServerEvents, type ServerToClientEvents } from './events.ts'
import { attachMultiNode } from './multi-node.ts'

/**
 * socket.io on the HTTP server. A screen watches a hall or a game and receives the full state at once
 * (so a screen opened mid-game, or reconnecting, is right immediately), then a full state after every change.
 */
export function attachRealtime(http: HttpServer, services: Services) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(http, { cors: { origin: true }, serveClient: false })
  // Issue #8: nodes joined by the PostgreSQL adapter; hall screens follow the simultaneous games their hall plays.
  const multi = attachMultiNode(io, services)

  // Issue 9: a socket authenticates like an HTTP request (handshake auth {authorization: "Bearer ..." | "Device ..."}),
  // and every event goes through the permission table.
  io.use(async (socket, next) => {
    try {
      const header = (socket.handshake.auth as { authorization?: string } | undefined)?.authorization
      socket.data.principal = services.config.auth === 'on' ? await services.auth.authenticate(header) : ANONYMOUS
      next()
    } catch (err) {
      next(Object.assign(new Error(err instanceof DomainError ? err.code : 'UNAUTHORIZED'), { data: toError(err) }))
    }
  })
  const allow = (socket: { data: { principal?: Principal } }, event: keyof typeof socketPermissions) => {
    const who = socket.data.principal ?? ANONYMOUS
    if (services.config.auth === 'on' && !isAllowed(socketPermissions[event], who.role as Role)) throw new DomainError('FORBIDDEN', `${who.role} may not ${event}`)
  }

  io.on('connection', (socket) => {
    socket.on('game:watch', async (req, ack) => {
      try {
        allow(socket, 'game:watch')
        if (typeof req?.gameId !== 'string') throw new DomainError('VALIDATION_FAILED', 'gameId required')
        const state = await services.bingo.getGameState(req.gameId)
        await socket.join(gameRoom(req.gameId))
        ack?.({ ok: true, data: state })
      } catch (err) {
        ack?.({ ok: false, error: toError(err) })
      }
    })
    socket.on('hall:watch', async (req, ack) => {
      try {
        allow(socket, 'hall:watch')
        if (typeof req?.hallId !== 'string') throw new DomainError('VALIDATION_FAILED', 'hallId required')
        if (!(await services.bingo.hallExists(req.hallId))) throw new DomainError('NOT_FOUND', 'hall not found')
        await socket.join(hallRoom(req.hallId))
        const gameId = (await multi.joinHallGames(socket, req.hallId)) ?? (await services.bingo.currentGameOfHall(req.hallId))
        ack?.({ ok: true, data: { hallId: req.hallId, gameId, state: gameId ? await services.bingo.getGameState(gameId) : null } })
      } catch (err) {
        ack?.({ ok: false, error: toError(err) })
      }
    })
  })

  // Coalesce bursts (a sale of many cards, a ball plus its claims) into one state per game per tick.
  // After a ball the state waits STATE_AFTER_BALL_MS: the small ball frame reaches every screen first and is not
  // queued behind a full state per screen (bench/display.ts); the state (claims, windows) follows unnoticeably.
  const STATE_AFTER_BALL_MS = 40
  const dirty = new Map<string, string>()
  let scheduled = false
  const flush = async () => {
    scheduled = false
    const games = [...dirty.entries()]
    dirty.clear()
    for (const [gameId, hallId] of games) {
      try {
        const state = await services.bingo.getGameState(gameId)
        io.to(gameRoom(gameId)).to(hallRoom(hallId)).emit('game:state', state)
      } catch (err) {
        services.log.warn('state broadcast failed', err)
      }
    }
  }
  const off = services.onEvent((e) => {
    if (e.type !== 'game:changed') return
    if (e.reason === 'ball' && e.ball !== undefined) {
      // The ball goes out at once, before the full state: the hall sees it with no delay (BNG-39).
      io.to(gameRoom(e.gameId)).to(hallRoom(e.hallId)).emit('ball:drawn', { gameId: e.gameId, seq: e.seq, ball: e.ball, count: e.count ?? 0 })
    }
    if (e.reason === 'announced') io.to(hallRoom(e.hallId)).emit('hall:game', { hallId: e.hallId, gameId: e.gameId, seq: e.seq })
    dirty.set(e.gameId, e.hallId)
    if (!scheduled) {
      scheduled = true
      if (e.reason === 'ball') setTimeout(flush, STATE_AFTER_BALL_MS)
      else setImmediate(flush)
    }
  })
  return { io, close: () => { off(); return new Promise<void>((r) => io.close(() => r())).then(() => multi.close()) } }
}

function toError(err: unknown) {
  if (err instanceof DomainError) return { code: err.code, message: err.message }
  return { code: 'INTERNAL', message: 'internal error' }
}
