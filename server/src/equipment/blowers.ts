/**
 * Blowers with automatic ball readers under the draw server (BNG-30 to BNG-33, BNG-80 to BNG-83).
 *
 * - A reader comes online only when the registry knows it, it is sealed, certified and active, and its HELLO
 *   shows the seal on record (GEN-7); otherwise it is refused and whatever it says is ignored.
 * - A game announced with `drawSource: 'blower'` and a `deviceId` takes its balls from that reader, through the
 *   same service path as any ball (`enterBall`, journaled as `ball.called` with the device id).
 * - The caller's "release next ball" goes to the device; the answer is the ball it read.
 * - A read below the confidence threshold waits for the floor manager to confirm the number on the ball; a
 *   correction is journaled with both values (`device.misread`).
 * - Device trouble applies the regulation's outcome through `declareIncident`: a fault or disconnection before
 *   the first ball suspends the game (BNG-80); after it the caller continues by hand with the balls not yet
 *   drawn (BNG-81); a duplicate ball or a ball outside the set ends the game with refunds (BNG-82).
 */
import type { BallRead, BallReader, ConnectionChange, DeviceFault, Unsubscribe } from '../../../hardware/src/ports.ts'
import { DomainError } from '../shared/errors.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../log.ts'
import type { BingoService, GameState } from '../bingo/service.ts'
import type { Clock } from '../shared/clock.ts'
import type { DeviceRegistry } from './devices.ts'
import { appendJournal } from '../shared/journal.ts'
import { gameWithBlower, unfinishedGameOfBlower, type BlowerGameRow } from './store.ts'

export interface BlowerControlOptions {
  db: Database
  bingo: BingoService
  devices: DeviceRegistry
  clock: Clock
  log: Logger
  /** Reads below this confidence (percent) wait for the floor manager's confirmation (default 90). */
  minConfidence?: number
  /** How long "release next ball" waits for the read (default 10 s). */
  releaseTimeoutMs?: number
}

/** What a release (or a confirmation) led to. */
export type ReleaseOutcome =
  | { outcome: 'ball'; ball: number; confidence: number; state: GameState }
  | { outcome: 'needs-confirmation'; ball: number; confidence: number; state: GameState }
  | { outcome: 'ball-irregularity'; ball: number; reason: string; state: GameState }

interface Attached {
  reader: BallReader
  deviceId: string | null
  online: boolean
  refusal: DomainError | null
  queue: Promise<void>
  offs: Unsubscribe[]
}

type GameLink = BlowerGameRow

const DRAWABLE = ['sales_closed', 'drawing']
const PRE_FIRST_BALL = ['announced', 'on_sale', 'sales_closed']
const AFTER_FIRST_BALL = ['drawing', 'line_window']

export function createBlowerControl(opts: BlowerControlOptions) {
  const { db, bingo, devices, log } = opts
  const minConfidence = opts.minConfidence ?? 90
  const releaseTimeoutMs = opts.releaseTimeoutMs ?? 10_000
  const attached = new Set<Attached>()
  const waiters = new Map<
    string,
    { resolve: (o: ReleaseOutcome) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }
  >()
  const pendingReads = new Map<string, BallRead>()
  const now = () => opts.clock.now().toISOString()
  const scopeOf = (g: GameLink) => `hall:${g.hall_id}/session:${g.session_id}/game:${g.id}`

  const byDevice = (deviceId: string) =>
    [...attached].find((a) => a.deviceId === deviceId && a.online) ?? [...attached].find((a) => a.deviceId === deviceId)

  async function journal(type: string, scope: string, payload: Record<string, unknown>) {
    await db.transaction((tx) => appendJournal(tx, { at: now(), type, scope, payload }))
  }

  /** The unfinished game announced with this blower, if any. */
  async function gameOf(deviceId: string): Promise<GameLink | undefined> {
    return unfinishedGameOfBlower(db, deviceId)
  }

  async function gameLink(gameId: string): Promise<GameLink> {
    const g = await gameWithBlower(db, gameId)
    if (!g) throw new DomainError('GAME_NOT_FOUND', `game ${gameId} not found`, { gameId })
    return g
  }

  function settle(gameId: string, result: ReleaseOutcome | Error) {
    const w = waiters.get(gameId)
    if (!w) return
    waiters.delete(gameId)
    clearTimeout(w.timer)
    if (result instanceof Error) w.reject(result)
    else w.resolve(result)
  }

  /** Runs device events one at a time per reader, so a ball and a disconnection never interleave. */
  function serial(a: Attached, fn: () => Promise<void>) {
    a.queue = a.queue.then(fn).catch((err) => log.error('blower event failed', err))
  }

  async function onConnection(a: Attached, change: ConnectionChange) {
    if (change.connected && change.identity) {
      a.deviceId = change.identity.deviceId
      const r = await devices.bringOnline({
        deviceId: change.identity.deviceId,
        sealCode: change.identity.sealCode,
        firmware: change.identity.firmware,
        port: a.reader.label,
      })
      a.online = r.ok
      a.refusal = r.ok ? null : r.error
      if (!r.ok) log.warn(`blower ${change.identity.deviceId} refused: ${r.error.message}`)
      return
    }
    if (change.connected) return
    const wasOnline = a.online
    a.online = false
    if (!a.deviceId || !wasOnline) return
    await devices.recordOffline(a.deviceId, change.reason)
    await trouble(
      a.deviceId,
      { deviceId: a.deviceId, code: 'OTHER', detail: `disconnected: ${change.reason}` },
      'DISCONNECTED',
    )
  }

  /** A fault or a lost device: the outcome depends on whether the first ball is out (BNG-80, BNG-81). */
  async function trouble(deviceId: string, fault: DeviceFault, label: string) {
    const g = await gameOf(deviceId)
    const what = `${label === 'DISCONNECTED' ? 'DISCONNECTED' : fault.code}: ${fault.detail}`
    if (!g) {
      await journal('device.fault', `device:${deviceId}`, { deviceId, code: label, detail: fault.detail })
      return
    }
    settle(g.id, new DomainError('DEVICE_UNAVAILABLE', `blower ${deviceId} ${what}`, { deviceId }))
    const state = await bingo.getGameState(g.id)
    await journal('device.fault', scopeOf(g), {
      gameId: g.id,
      deviceId,
      code: label,
      detail: fault.detail,
      ballsDrawn: state.balls.length,
    })
    const note = `blower ${deviceId} ${what} (declared by the draw server)`
    if (state.balls.length === 0 && PRE_FIRST_BALL.includes(state.status)) {
      await bingo.declareIncident({ gameId: g.id, kind: 'device-failure-before-first-ball', note })
    } else if (state.balls.length > 0 && AFTER_FIRST_BALL.includes(state.status)) {
      pendingReads.delete(g.id)
      await bingo.declareIncident({ gameId: g.id, kind: 'device-failure-after-first-ball', note })
    }
  }

  async function onFault(a: Attached, fault: DeviceFault) {
    if (!a.online || !a.deviceId) return
    await trouble(a.deviceId, fault, fault.code)
  }

  async function onBall(a: Attached, read: BallRead) {
    if (!a.online || !a.deviceId) {
      await journal('device.ball_ignored', `device:${read.deviceId}`, {
        deviceId: read.deviceId,
        ball: read.ball,
        seq: read.seq,
        reason: a.refusal?.message ?? 'device not online',
      })
      return
    }
    const g = await gameOf(a.deviceId)
    if (!g || !DRAWABLE.includes(g.status)) {
      await journal('device.ball_ignored', g ? scopeOf(g) : `device:${a.deviceId}`, {
        deviceId: a.deviceId,
        ball: read.ball,
        seq: read.seq,
        confidence: read.confidence,
        reason: g ? `game ${g.id} is ${g.status}` : 'no game is being drawn with this blower',
      })
      return
    }
    if (pendingReads.has(g.id)) {
      // A second ball while one waits for confirmation: two balls out at once is an irregularity of the mechanism.
      await irregular(
        g,
        read,
        `ball ${read.ball} came out while ball ${pendingReads.get(g.id)!.ball} awaited confirmation`,
      )
      return
    }
    if (read.confidence < minConfidence) {
      pendingReads.set(g.id, read)
      await journal('ball.read_unconfirmed', scopeOf(g), {
        gameId: g.id,
        deviceId: a.deviceId,
        ball: read.ball,
        confidence: read.confidence,
        seq: read.seq,
        minConfidence,
      })
      settle(g.id, {
        outcome: 'needs-confirmation',
        ball: read.ball,
        confidence: read.confidence,
        state: await bingo.getGameState(g.id),
      })
      return
    }
    await record(g, read.ball, read)
  }

  async function irregular(g: GameLink, read: BallRead, reason: string): Promise<ReleaseOutcome> {
    pendingReads.delete(g.id)
    await journal('device.fault', scopeOf(g), {
      gameId: g.id,
      deviceId: read.deviceId,
      code: 'BALL_IRREGULARITY',
      detail: reason,
      ball: read.ball,
      seq: read.seq,
      confidence: read.confidence,
    })
    const state = await bingo.declareIncident({
      gameId: g.id,
      kind: 'ball-irregularity',
      note: `reader ${read.deviceId}: ${reason} (frame ${read.seq}, declared by the draw server)`,
    })
    const outcome: ReleaseOutcome = { outcome: 'ball-irregularity', ball: read.ball, reason, state }
    settle(g.id, outcome)
    return outcome
  }

  async function record(g: GameLink, ball: number, read: BallRead): Promise<ReleaseOutcome> {
    try {
      const state = await bingo.enterBall(g.id, ball, read.deviceId)
      const outcome: ReleaseOutcome = { outcome: 'ball', ball, confidence: read.confidence, state }
      settle(g.id, outcome)
      return outcome
    } catch (err) {
      if (err instanceof DomainError && err.code === 'BALL_ALREADY_DRAWN')
        return irregular(g, read, `ball ${ball} was already drawn in this game: duplicate ball (BNG-82)`)
      if (err instanceof DomainError && err.code === 'BALL_OUT_OF_RANGE')
        return irregular(g, read, `ball ${ball} is not in the set: defective or foreign ball (BNG-82)`)
      await journal('device.ball_rejected', scopeOf(g), {
        gameId: g.id,
        deviceId: read.deviceId,
        ball,
        seq: read.seq,
        code: err instanceof DomainError ? err.code : 'INTERNAL',
        reason: (err as Error).message,
      })
      settle(g.id, err as Error)
      throw err
    }
  }

  async function blowerFor(gameId: string): Promise<{ g: GameLink; a: Attached }> {
    const g = await gameLink(gameId)
    if (g.draw_source !== 'blower' || !g.device_id)
      throw new DomainError('ILLEGAL_TRANSITION', `game ${gameId} is not drawn by a blower (it is ${g.draw_source})`, {
        drawSource: g.draw_source,
      })
    const a = byDevice(g.device_id)
    if (!a)
      throw new DomainError('DEVICE_UNAVAILABLE', `blower ${g.device_id} is not connected`, { deviceId: g.device_id })
    if (a.refusal && !a.online && a.reader.connected && a.reader.identity) {
      // Refused at its HELLO; the registry may have been put right since (registered, sealed, reactivated).
      await new Promise<void>((resolve) =>
        serial(a, async () => {
          try {
            await onConnection(a, { connected: true, identity: a.reader.identity, reason: 'recheck' })
          } finally {
            resolve()
          }
        }),
      )
    }
    if (a.refusal && !a.online) throw a.refusal
    if (!a.online || !a.reader.connected)
      throw new DomainError('DEVICE_UNAVAILABLE', `blower ${g.device_id} is not online`, { deviceId: g.device_id })
    await devices.assertUsable(db, g.device_id)
    return { g, a }
  }

  return {
    /** Starts listening to a reader; it comes online at its HELLO if the registry allows it. */
    attach(reader: BallReader): () => void {
      const a: Attached = { reader, deviceId: null, online: false, refusal: null, queue: Promise.resolve(), offs: [] }
      attached.add(a)
      a.offs.push(
        reader.onConnection((c) => serial(a, () => onConnection(a, c))),
        reader.onFault((f) => serial(a, () => onFault(a, f))),
        reader.onBall((b) => serial(a, () => onBall(a, b))),
      )
      if (reader.connected && reader.identity)
        serial(a, () => onConnection(a, { connected: true, identity: reader.identity, reason: 'hello' }))
      return () => {
        for (const off of a.offs) off()
        attached.delete(a)
      }
    },

    /** Waits until every event received so far has been handled (tests, shutdown). */
    async settled(): Promise<void> {
      await Promise.all([...attached].map((a) => a.queue))
    },

    /** Caller: start mixing. */
    async start(gameId: string): Promise<void> {
      const { a } = await blowerFor(gameId)
      await a.reader.start()
    },
    async stop(gameId: string): Promise<void> {
      const { a } = await blowerFor(gameId)
      await a.reader.stop()
    },

    /** Caller: "release next ball". Resolves with what the reader read and what it led to. */
    async release(gameId: string): Promise<ReleaseOutcome> {
      const { g, a } = await blowerFor(gameId)
      if (!DRAWABLE.includes(g.status))
        throw new DomainError('ILLEGAL_TRANSITION', `cannot draw game ${gameId} while it is ${g.status}`, {
          status: g.status,
        })
      if (pendingReads.has(gameId))
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `ball ${pendingReads.get(gameId)!.ball} awaits the floor manager's confirmation`,
          { pending: pendingReads.get(gameId) },
        )
      if (waiters.has(gameId)) throw new DomainError('CONFLICT', 'a ball is already on its way')
      // CFG-20: the hall's rhythm is checked before the machine lets a ball out, not after.
      await bingo.assertBallDue(gameId)
      if (a.reader.state !== 'MIXING' && a.reader.state !== 'READY') await a.reader.start()
      const result = new Promise<ReleaseOutcome>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(gameId)
          reject(
            new DomainError(
              'DEVICE_UNAVAILABLE',
              `no ball read from blower ${g.device_id} within ${releaseTimeoutMs} ms`,
              { deviceId: g.device_id },
            ),
          )
        }, releaseTimeoutMs)
        waiters.set(gameId, { resolve, reject, timer })
      })
      try {
        await a.reader.release()
      } catch (err) {
        settle(gameId, err as Error)
      }
      return result
    },

    /**
     * Floor manager: the number on the ball of a low-confidence read. If it differs from the read, the misread is
     * journaled with both values before the ball is recorded.
     */
    async confirm(gameId: string, ball: number, confirmedBy: string): Promise<ReleaseOutcome> {
      const read = pendingReads.get(gameId)
      if (!read) throw new DomainError('ILLEGAL_TRANSITION', `no read of game ${gameId} awaits confirmation`)
      const g = await gameLink(gameId)
      if (ball !== read.ball) {
        await journal('device.misread', scopeOf(g), {
          gameId,
          deviceId: read.deviceId,
          readBall: read.ball,
          actualBall: ball,
          confidence: read.confidence,
          seq: read.seq,
          confirmedBy,
          rule: 'BNG-83',
        })
      }
      pendingReads.delete(gameId)
      try {
        return await record(g, ball, read)
      } catch (err) {
        if (err instanceof DomainError && err.code !== 'DEVICE_UNAVAILABLE') pendingReads.set(gameId, read)
        throw err
      }
    },

    async status(gameId: string) {
      const g = await gameLink(gameId)
      const a = g.device_id ? byDevice(g.device_id) : undefined
      return {
        gameId,
        drawSource: g.draw_source,
        deviceId: g.device_id ?? null,
        attached: Boolean(a),
        online: Boolean(a?.online && a.reader.connected),
        state: a?.reader.state ?? null,
        refusal: a?.refusal ? { code: a.refusal.code, message: a.refusal.message } : null,
        pendingRead: pendingReads.get(gameId) ?? null,
        minConfidence,
      }
    },

    list() {
      return [...attached].map((a) => ({
        port: a.reader.label,
        deviceId: a.deviceId,
        online: a.online && a.reader.connected,
        state: a.reader.state,
        refusal: a.refusal?.message ?? null,
      }))
    },

    async close(): Promise<void> {
      for (const [id] of waiters) settle(id, new DomainError('DEVICE_UNAVAILABLE', 'server closing'))
      const all = [...attached]
      for (const a of all) for (const off of a.offs) off()
      await Promise.all(all.map((a) => a.queue))
      attached.clear()
    },
  }
}

export type BlowerControl = ReturnType<typeof createBlowerControl>
