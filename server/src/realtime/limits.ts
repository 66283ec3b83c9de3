/**
 * Issue 24 point 5: socket.io with limits. A screen sends a handful of events (watch a hall, watch a game) and then
 * only listens; one socket sending thousands made every request wait behind their database reads. Each event is
 * paid for from a token bucket of its socket and one of its address (all the address's sockets together), before
 * any handler runs. A socket that runs dry is warned once (`limit:warning`), and disconnected if it keeps going.
 * Anonymous sockets (no credential) get a smaller budget than enrolled devices and staff.
 */

export interface Bucket {
  capacity: number
  perSecond: number
}

export interface SocketLimits {
  /** Largest frame a client may send (socket.io maxHttpBufferSize). */
  maxFrameBytes: number
  /** Largest event a client may send (its arguments as JSON); a screen's requests are a few dozen bytes. */
  maxEventBytes: number
  /** Per socket: anonymous, and authenticated (person or enrolled device). */
  anonymousSocket: Bucket
  authenticatedSocket: Bucket
  /** Per client address, all its sockets together. */
  address: Bucket
  /** Refused events a socket may send after its warning before it is disconnected. */
  refusalsBeforeDisconnect: number
  /** New sockets a minute per address (each handshake checks a credential). */
  connectionsPerMinute: number
  /** Rooms (halls and games watched) one socket may be in. */
  maxRoomsPerSocket: number
}

export const SOCKET_LIMITS: Readonly<SocketLimits> = Object.freeze({
  maxFrameBytes: 16 * 1024,
  maxEventBytes: 2 * 1024,
  anonymousSocket: { capacity: 10, perSecond: 2 },
  authenticatedSocket: { capacity: 40, perSecond: 10 },
  address: { capacity: 100, perSecond: 30 },
  refusalsBeforeDisconnect: 20,
  connectionsPerMinute: 120,
  maxRoomsPerSocket: 16,
})

/** A token bucket: `capacity` events at once, refilled at `perSecond`. Time comes in as milliseconds. */
export function createBucket(spec: Bucket, now: number): { take(at: number): boolean } {
  let tokens = spec.capacity
  let last = now
  return {
    take(at) {
      tokens = Math.min(spec.capacity, tokens + ((at - last) / 1000) * spec.perSecond)
      last = at
      if (tokens < 1) return false
      tokens -= 1
      return true
    },
  }
}

/** Buckets kept per key (client address), forgotten when the map grows past `max` (bounded memory under a flood). */
export function createBucketMap(spec: Bucket, max = 50_000) {
  const buckets = new Map<string, ReturnType<typeof createBucket>>()
  return {
    take(key: string, at: number): boolean {
      let b = buckets.get(key)
      if (!b) {
        if (buckets.size >= max) buckets.clear()
        b = createBucket(spec, at)
        buckets.set(key, b)
      }
      return b.take(at)
    },
  }
}

/** The size of an event's arguments as JSON (acks are functions and count nothing); Infinity when it cannot be sized. */
export function eventBytes(args: readonly unknown[]): number {
  try {
    return Buffer.byteLength(JSON.stringify(args.filter((a) => typeof a !== 'function')) ?? '', 'utf8')
  } catch {
    return Infinity
  }
}
