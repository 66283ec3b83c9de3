/**
 * Several server nodes, one hall picture (DESIGN.md "at scale"; BNG-100 simultaneous bingo, RNG-30).
 *
 * - With DATABASE_URL on PostgreSQL, socket.io's rooms are joined across nodes by @socket.io/postgres-adapter
 *   (LISTEN/NOTIFY on the same database; payloads over 8 kB travel through the `socket_io_attachments` table it
 *   reads). A node publishes the events of the transactions it committed; displays on every node receive them.
 * - A hall that joins a simultaneous game has its screens put in the game's room on every node
 *   (`socketsJoin` goes through the adapter), and a screen that starts watching such a hall later joins the
 *   game's room too, so each hall sees the central draw live.
 *
 * Consistency across nodes does not depend on the adapter: every write is one PostgreSQL transaction behind the
 * advisory lock of db/postgres.ts (one journal chain), and the bingo service revalidates its in-memory detector
 * against the balls in storage before each ball (app/bingo.ts cacheFor).
 */
import { createAdapter } from '@socket.io/postgres-adapter'
import pg from 'pg'
import type { Server, Socket } from 'socket.io'
import type { Services } from '../services.ts'
import { gameRoom, hallRoom } from './events.ts'
import { SOCKET_IO_ATTACHMENTS_DDL } from '../db/postgres.ts'

export interface ClusterInfo {
  adapter: 'postgres' | 'memory'
  /** Nodes this one sees (itself included), from the adapter's heartbeats. */
  nodes(): Promise<number>
}

const clusters = new WeakMap<object, ClusterInfo>()

/** The cluster a server's realtime hub joined (for /api/cluster and tests). */
export function clusterOf(services: object): ClusterInfo | undefined {
  return clusters.get(services)
}

export function attachMultiNode(io: Server<any, any, any, any>, services: Services) {
  let pool: pg.Pool | null = null
  if (services.config.databaseUrl && services.db.engine === 'postgres') {
    pool = new pg.Pool({ connectionString: services.config.databaseUrl, max: 4 })
    pool.on('error', (err) => services.log.warn('socket.io adapter connection error', err))
    // The adapter's table for large payloads; two nodes starting together may race on it, which is harmless.
    pool.query(SOCKET_IO_ATTACHMENTS_DDL).catch((err: { code?: string }) => {
      if (err.code !== '23505' && err.code !== '42P07') services.log.warn('could not create socket_io_attachments', err)
    })
    io.adapter(
      createAdapter(pool, {
        heartbeatInterval: 2_000,
        heartbeatTimeout: 7_000,
        errorHandler: (err) => services.log.warn('socket.io adapter error', err),
      }),
    )
  }
  const info: ClusterInfo = {
    adapter: pool ? 'postgres' : 'memory',
    async nodes() {
      const adapter = io.of('/').adapter as unknown as { serverCount?: () => Promise<number> }
      return adapter.serverCount ? adapter.serverCount() : 1
    },
  }
  clusters.set(services, info)
  const offJoined = services.bonus.onHallJoined(({ gameId, hallId }) => {
    io.in(hallRoom(hallId)).socketsJoin(gameRoom(gameId))
  })
  return {
    info,
    /** Puts a hall screen in the rooms of the simultaneous games the hall plays; returns the latest of them. */
    async joinHallGames(socket: Socket, hallId: string): Promise<string | null> {
      const games = await services.bonus.activeGamesOfHall(hallId)
      for (const g of games) await socket.join(gameRoom(g))
      return games.at(-1) ?? null
    },
    /** Call after io.close(): the adapter has released its LISTEN connection by then. */
    async close(): Promise<void> {
      offJoined()
      clusters.delete(services)
      // The adapter may still hold its LISTEN client after io.close() (a heartbeat in flight): pool.end() then waits
      // for it forever, so a stop waits at most 2 s for the pool and then goes on (the process or test ends it).
      if (pool) {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([
          pool.end(),
          new Promise<void>((r) => {
            timer = setTimeout(r, 2000)
            timer.unref()
          }),
        ])
        clearTimeout(timer)
      }
    },
  }
}
