import type { Server as HttpServer } from 'node:http'
import { Server } from 'socket.io'
import { DomainError } from '../shared/errors.ts'
import { ANONYMOUS, type Principal } from '../access/service.ts'
import { isAllowed, socketPermissions, type Role } from '../access/permissions.ts'
import type { Services } from '../services.ts'
import { deviceRoom, gameRoom, hallRoom, type ClientToServerEvents, type ServerToClientEvents } from './events.ts'
import { attachMultiNode } from './multi-node.ts'
import { SOCKET_LIMITS, createBucket, createBucketMap, eventBytes, type SocketLimits } from './limits.ts'
import { clientAddress } from '../http/client-address.ts'

/** Between nodes (the PostgreSQL adapter): a game changed on the node that committed it. */
interface InterServerEvents {
  'game:dirty': (e: { gameId: string; hallId: string; reason: string }) => void
}

/**
 * socket.io on the HTTP server. A screen watches a hall or a game and receives the full state at once
 * (so a screen opened mid-game, or reconnecting, is right immediately), then a full state after every change.
 */
export function attachRealtime(
  http: HttpServer,
  services: Services,
  limits: SocketLimits = { ...SOCKET_LIMITS, ...services.config.socketLimits },
) {
  // Issue 24 point 5: no client frame above maxFrameBytes (a screen's requests are a few dozen bytes).
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents>(http, {
    cors: { origin: true },
    serveClient: false,
    maxHttpBufferSize: limits.maxFrameBytes,
  })
  // Issue #8: nodes joined by the PostgreSQL adapter; hall screens follow the simultaneous games their hall plays.
  const multi = attachMultiNode(io, services)

  // Issue 9: a socket authenticates like an HTTP request (handshake auth {authorization: "Bearer ..." | "Device ..."}),
  // and every event goes through the permission table.
  // Issue 24 point 5: per address, a bounded number of new anonymous sockets a minute and one bucket of events for
  // all its anonymous sockets together; the address as the HTTP rate limit sees it.
  const connections = createBucketMap({
    capacity: limits.connectionsPerMinute,
    perSecond: limits.connectionsPerMinute / 60,
  })
  const addressEvents = createBucketMap(limits.address)
  const addressOf = (socket: {
    handshake: { address: string; headers: Record<string, string | string[] | undefined> }
  }) => {
    const xff = socket.handshake.headers['x-forwarded-for']
    return clientAddress(
      socket.handshake.address,
      Array.isArray(xff) ? xff.join(',') : xff,
      services.config.trustedProxies ?? [],
    )
  }
  // Anonymous sockets and refused credentials count against their address; a person's or an enrolled device's
  // sockets are accountable and limited one by one (a hall's displays may all come through one address).
  const tooManyConnections = () =>
    Object.assign(new Error('RATE_LIMITED'), {
      data: { code: 'RATE_LIMITED', message: 'too many connections from this address: wait a minute' },
    })
  io.use(async (socket, next) => {
    const address = addressOf(socket)
    try {
      const header = (socket.handshake.auth as { authorization?: string } | undefined)?.authorization
      socket.data.principal = services.config.auth === 'on' ? await services.auth.authenticate(header) : ANONYMOUS
      if (socket.data.principal.kind === 'anonymous' && !connections.take(address, Date.now()))
        return next(tooManyConnections())
      next()
    } catch (err) {
      if (!connections.take(address, Date.now())) return next(tooManyConnections())
      next(Object.assign(new Error(err instanceof DomainError ? err.code : 'UNAUTHORIZED'), { data: toError(err) }))
    }
  })
  const allow = (socket: { data: { principal?: Principal } }, event: keyof typeof socketPermissions) => {
    const who = socket.data.principal ?? ANONYMOUS
    if (services.config.auth === 'on' && !isAllowed(socketPermissions[event], who.role as Role))
      throw new DomainError('FORBIDDEN', `${who.role} may not ${event}`)
  }

  io.on('connection', (socket) => {
    // Issue 29 point 7: a device's sockets, and those of people signed in at it, sit in its room, so a revoked or
    // re-enrolled device is cut off at once (on every node, through the adapter).
    const device = socket.data.principal?.device?.id
    if (device) void socket.join(deviceRoom(device))
    // Issue 24 point 5: every event is paid for before any handler runs. Refused events are dropped (an ack gets
    // RATE_LIMITED or VALIDATION_FAILED); the first refusal warns, and a socket that keeps on is disconnected.
    const address = addressOf(socket)
    const anonymous = (socket.data.principal ?? ANONYMOUS).kind === 'anonymous'
    const own = createBucket(anonymous ? limits.anonymousSocket : limits.authenticatedSocket, Date.now())
    let refused = 0
    socket.use((packet, next) => {
      const at = Date.now()
      const tooBig = eventBytes(packet.slice(1)) > limits.maxEventBytes
      // The socket's own bucket first: a socket over its budget does not spend its address's.
      if (!tooBig && own.take(at) && (!anonymous || addressEvents.take(address, at))) return next()
      refused++
      const error = tooBig
        ? { code: 'VALIDATION_FAILED', message: `an event may carry at most ${limits.maxEventBytes} bytes` }
        : { code: 'RATE_LIMITED', message: 'too many events from this screen: slow down' }
      const ack = packet[packet.length - 1]
      if (typeof ack === 'function') (ack as (r: unknown) => void)({ ok: false, error })
      if (refused === 1) socket.emit('limit:warning', error)
      if (refused === limits.refusalsBeforeDisconnect + 1) {
        services.log.warn(`socket ${socket.id} from ${address} disconnected: ${refused} events refused (${error.code})`)
        // A graceful close would go on parsing every frame the flooder already sent: nothing more is read from it,
        // and the connection is cut once the warning and the disconnect have gone out.
        const raw = (
          socket.conn as unknown as {
            transport?: { socket?: { terminate?: () => void; _socket?: { pause?: () => void } } }
          }
        ).transport?.socket
        raw?._socket?.pause?.()
        socket.disconnect(true)
        setTimeout(() => raw?.terminate?.(), 50).unref()
      }
    })
    const roomsLeft = () => {
      // socket.rooms holds the socket's own room too.
      if (socket.rooms.size > limits.maxRoomsPerSocket)
        throw new DomainError('RATE_LIMITED', `a screen watches at most ${limits.maxRoomsPerSocket} halls and games`)
    }
    socket.on('game:watch', async (req, ack) => {
      try {
        allow(socket, 'game:watch')
        if (typeof req?.gameId !== 'string') throw new DomainError('VALIDATION_FAILED', 'gameId required')
        roomsLeft()
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
        roomsLeft()
        if (!(await services.bingo.hallExists(req.hallId))) throw new DomainError('NOT_FOUND', 'hall not found')
        await socket.join(hallRoom(req.hallId))
        const gameId =
          (await multi.joinHallGames(socket, req.hallId)) ?? (await services.bingo.currentGameOfHall(req.hallId))
        ack?.({
          ok: true,
          data: { hallId: req.hallId, gameId, state: gameId ? await services.bingo.getGameState(gameId) : null },
        })
      } catch (err) {
        ack?.({ ok: false, error: toError(err) })
      }
    })
  })

  // Coalesce bursts (a sale of many cards, a ball plus its claims) into one state per game per tick.
  // After a ball the state waits STATE_AFTER_BALL_MS: the small ball frame reaches every screen first and is not
  // queued behind a full state per screen (bench/display.ts); the state (claims, windows) follows unnoticeably.
  const STATE_AFTER_BALL_MS = 40
  // Card sales (issue 23 point 5): at hundreds of sales a second each group commit changed the game, and each change
  // cost a full state read; the screens show the cards sold, which may lag a sale by this much.
  const STATE_AFTER_SALE_MS = 50
  const dirty = new Map<string, string>()
  let scheduled = false
  // The full state of a game nobody watches is not read at all: during sales it was read every 50 ms, a query of
  // every claim, prize and ball, for rooms with no screen in them. Each node reads it for the screens it holds
  // (its adapter's rooms are its own sockets') and sends it to them only; nodes joined by the PostgreSQL adapter
  // learn that a game changed from the node that committed it ('game:dirty', a few bytes), instead of every node's
  // state being read there and carried through the database to all of them, watched or not.
  const clustered = multi.info.adapter !== 'memory'
  const rooms = io.of('/').adapter.rooms
  const watchedHere = (gameId: string, hallId: string) => rooms.has(gameRoom(gameId)) || rooms.has(hallRoom(hallId))
  const flush = async () => {
    scheduled = false
    const games = [...dirty.entries()]
    dirty.clear()
    for (const [gameId, hallId] of games) {
      if (!watchedHere(gameId, hallId)) continue
      try {
        const state = await services.bingo.getGameState(gameId)
        io.local.to(gameRoom(gameId)).to(hallRoom(hallId)).emit('game:state', state)
      } catch (err) {
        services.log.warn('state broadcast failed', err)
      }
    }
  }
  const changed = (e: { gameId: string; hallId: string; reason: string }) => {
    dirty.set(e.gameId, e.hallId)
    if (!scheduled) {
      scheduled = true
      if (e.reason === 'ball') setTimeout(flush, STATE_AFTER_BALL_MS)
      else if (e.reason === 'cards_sold') setTimeout(flush, STATE_AFTER_SALE_MS)
      else setImmediate(flush)
    }
  }
  if (clustered) io.on('game:dirty', changed)
  const off = services.onEvent((e) => {
    if (e.type !== 'game:changed') return
    if (e.reason === 'ball' && e.ball !== undefined) {
      // The ball goes out at once, before the full state, to every node's screens: the hall sees it with no delay
      // (BNG-39).
      io.to(gameRoom(e.gameId))
        .to(hallRoom(e.hallId))
        .emit('ball:drawn', { gameId: e.gameId, seq: e.seq, ball: e.ball, count: e.count ?? 0 })
    }
    if (e.reason === 'announced')
      io.to(hallRoom(e.hallId)).emit('hall:game', { hallId: e.hallId, gameId: e.gameId, seq: e.seq })
    const what = { gameId: e.gameId, hallId: e.hallId, reason: e.reason }
    if (clustered) io.serverSideEmit('game:dirty', what)
    changed(what)
  })
  const offRevoked = services.auth.onDeviceRevoked((deviceId) => io.in(deviceRoom(deviceId)).disconnectSockets(true))
  return {
    io,
    close: () => {
      off()
      offRevoked()
      return new Promise<void>((r) => io.close(() => r())).then(() => multi.close())
    },
  }
}

function toError(err: unknown) {
  if (err instanceof DomainError) return { code: err.code, message: err.message }
  return { code: 'INTERNAL', message: 'internal error' }
}
