/**
 * Issue 26, RNG-30 (004 Bingo VI.1: in bingo simultáneo "en cada sala se recibirá la información del juego y de las
 * diferentes extracciones a través de imagen de vídeo remitida por la Central Operativa"): the central hall's ball-exit
 * camera. It is registered equipment with the regulator's seal code (GEN-7) and the address of its stream (an MJPEG
 * HTTP source on the hall network). The server relays it (hardware/src/mjpeg-relay.ts) to the displays of the halls
 * that play the game; no display is ever given the camera's address. BNG-34: the same camera is every game's own
 * ball-exit image, relayed to its hall's displays, and the sale of a game opens only with it where the profile says.
 */
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import type { Database, Sql } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import type { Profile } from '../shared/profile.ts'
import { appendJournal } from '../shared/journal.ts'
import {
  activeHallCameras,
  hallCameraById,
  hallCameraBySeal,
  insertHallCamera,
  isHallRegistered,
  setHallCameraStatus,
  type HallCameraRow,
} from './store.ts'
import { DeviceStatus } from './kinds.ts'

export interface HallCamera {
  id: string
  hallId: string
  name: string
  sealCode: string
  status: DeviceStatus
  createdAt: string
}

/** What a screen or a record may see of a camera: never its stream address (displays do not reach the camera). */
function toCamera(r: HallCameraRow): HallCamera {
  return { id: r.id, hallId: r.hall_id, name: r.name, sealCode: r.seal_code, status: r.status, createdAt: r.created_at }
}

/** An MJPEG source on http(s), with no credentials in the address (they would show in every log of it). */
export function isStreamAddress(url: string): boolean {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password
}

export function createCameraRegistry(deps: { db: Database; clock: Clock; demoReferencesRefused: boolean }) {
  const { db, clock } = deps
  const now = () => clock.now().toISOString()

  async function register(
    input: { hallId: string; id: string; name: string; streamUrl: string; sealCode: string },
    actor: unknown,
  ): Promise<HallCamera> {
    const sealCode = input.sealCode.trim()
    if (!sealCode)
      throw new DomainError('VALIDATION_FAILED', 'the camera carries the seal code of the regulator (GEN-7)', {
        field: 'sealCode',
      })
    if (deps.demoReferencesRefused && isDemoReference(sealCode))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `sealCode "${sealCode}" is a demo reference: a server without the demo records only real ones (GEN-7)`,
        { field: 'sealCode', rule: 'GEN-7' },
      )
    if (!isStreamAddress(input.streamUrl))
      throw new DomainError('VALIDATION_FAILED', 'streamUrl is an http(s) address without credentials in it', {
        field: 'streamUrl',
      })
    // Issue 23 point 3: a camera is registered in a hall by a person of that hall.
    assertHoldsHall(input.hallId, 'camera')
    return db.transaction(async (tx) => {
      if (!(await isHallRegistered(tx, input.hallId)))
        throw new DomainError('NOT_FOUND', `hall ${input.hallId} not found`, { hallId: input.hallId })
      if (await hallCameraById(tx, input.id))
        throw new DomainError('CONFLICT', `camera ${input.id} is already registered`, { field: 'id' })
      if (await hallCameraBySeal(tx, sealCode))
        throw new DomainError('CONFLICT', `seal code ${sealCode} names another camera (GEN-7)`, { field: 'sealCode' })
      const at = now()
      await insertHallCamera(tx, { ...input, sealCode, at })
      await appendJournal(tx, {
        at,
        type: 'camera.registered',
        scope: `hall:${input.hallId}/camera:${input.id}`,
        // The stream's address is journaled: which source the halls were shown is part of the record (RNG-30).
        payload: {
          cameraId: input.id,
          hallId: input.hallId,
          name: input.name,
          sealCode,
          streamUrl: input.streamUrl,
          actor,
          rule: 'RNG-30',
        },
      })
      return toCamera((await hallCameraById(tx, input.id))!)
    })
  }

  async function setStatus(id: string, status: DeviceStatus, actor: unknown): Promise<HallCamera> {
    return db.transaction(async (tx) => {
      const row = await hallCameraById(tx, id)
      if (!row) throw new DomainError('NOT_FOUND', `camera ${id} is not registered`, { cameraId: id })
      // Issue 23 point 3: the camera's hall as stored decides who may suspend or retire it.
      assertHoldsHall(row.hall_id, 'camera')
      const at = now()
      await setHallCameraStatus(tx, id, status, at)
      await appendJournal(tx, {
        at,
        type: 'camera.status_changed',
        scope: `hall:${row.hall_id}/camera:${id}`,
        payload: { cameraId: id, hallId: row.hall_id, from: row.status, to: status, actor, rule: 'RNG-30' },
      })
      return toCamera((await hallCameraById(tx, id))!)
    })
  }

  /** The central hall's camera the halls see: its first active one (null: none registered). */
  async function centralCamera(sql: Sql, hallId: string): Promise<HallCameraRow | null> {
    return (await activeHallCameras(sql, hallId))[0] ?? null
  }

  /**
   * RNG-30, inside the close of sales of a simultaneous game (the moment it starts): where the profile requires it,
   * no start without the central's registered camera; the camera the halls are shown is journaled with its seal.
   */
  async function simultaneousStarting(
    tx: Sql,
    e: { game: { id: string; hallId: string }; profile: Profile; at: string; scope: string },
  ): Promise<void> {
    const camera = await centralCamera(tx, e.game.hallId)
    const rule = e.profile.simultaneousCentralCamera
    if (!camera) {
      if (!rule.required) return
      throw new DomainError(
        'DEVICE_NOT_CERTIFIED',
        `hall ${e.game.hallId} has no registered ball-exit camera: the halls of a simultaneous game receive the extractions by video image from the central (RNG-30, ${rule.source})`,
        { rule: 'RNG-30', problems: ['no-central-camera'], hallId: e.game.hallId },
      )
    }
    await appendJournal(tx, {
      at: e.at,
      type: 'simultaneous.central_camera',
      scope: e.scope,
      payload: { gameId: e.game.id, cameraId: camera.id, sealCode: camera.seal_code, rule: 'RNG-30' },
    })
  }

  /**
   * BNG-34, inside the opening of a game's sale: where the profile requires the ball-exit camera on the monitors, no
   * sale opens without the hall's registered camera; the camera the hall's displays are shown is journaled with its
   * seal.
   */
  async function salesOpening(
    tx: Sql,
    e: { game: { id: string; hallId: string }; profile: Profile; at: string; scope: string },
  ): Promise<void> {
    const camera = await centralCamera(tx, e.game.hallId)
    const rule = e.profile.ballExitCamera
    if (!camera) {
      if (!rule.required) return
      throw new DomainError(
        'DEVICE_NOT_CERTIFIED',
        `hall ${e.game.hallId} has no registered ball-exit camera: its image is shown on the hall's monitors (BNG-34, ${rule.source})`,
        { rule: 'BNG-34', problems: ['no-ball-exit-camera'], hallId: e.game.hallId },
      )
    }
    await appendJournal(tx, {
      at: e.at,
      type: 'game.ball_exit_camera',
      scope: e.scope,
      payload: { gameId: e.game.id, cameraId: camera.id, sealCode: camera.seal_code, rule: 'BNG-34' },
    })
  }

  return {
    register,
    setStatus,
    simultaneousStarting,
    salesOpening,
    /** The stream address of the central's camera, read outside any transaction by the relay's route only. */
    async streamOf(hallId: string): Promise<{ cameraId: string; streamUrl: string } | null> {
      const c = await centralCamera(db, hallId)
      return c ? { cameraId: c.id, streamUrl: c.stream_url } : null
    },
    async list(hallId: string): Promise<HallCamera[]> {
      return (await activeHallCameras(db, hallId)).map(toCamera)
    },
  }
}

export type CameraRegistry = ReturnType<typeof createCameraRegistry>
