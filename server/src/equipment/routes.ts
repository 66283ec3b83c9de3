/**
 * HTTP routes of issue #5: the device registry (GEN-7), ball sets (BNG-24 to BNG-27), the blower of a game
 * (release next ball, confirm a low-confidence read) and the entropy source's health. Errors are DomainErrors,
 * turned into localized JSON by app.ts.
 */
import { actorOf, body, nameOf, needs, param, secondPerson, witnessOf, type App } from '../http/context.ts'
import { RELAY_BOUNDARY } from '../../../hardware/src/mjpeg-relay.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const deviceId = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9._:-]+$/)
const person = z.string().min(1).max(120)
const optText = (max: number) => z.string().max(max).nullable().optional()
const kind = z.enum(['blower', 'ball_reader', 'rng', 'printer', 'kiosk', 'display', 'terminal'])

export function registerEquipmentRoutes(app: App, services: Services): void {
  const { devices, ballSets, blowers } = services

  // ---- the central's ball-exit camera (RNG-30): registered with its seal; its image relayed to the halls' displays
  app.get('/api/halls/:hallId/cameras', needs('minutes.read'), async (c) =>
    c.json({ cameras: await services.cameras.list(param(c, 'hallId')) }),
  )
  app.post('/api/halls/:hallId/cameras', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          id: deviceId,
          name: z.string().min(1).max(120),
          streamUrl: z.string().min(1).max(500),
          sealCode: z.string().min(1).max(40),
        })
        .strict(),
    )
    return c.json(await services.cameras.register({ ...b, hallId: param(c, 'hallId') }, actorOf(c)), 201)
  })
  // BNG-34 / RNG-30: the ball-exit image of any game, from its hall's registered camera. The hall guard (needs) lets
  // through only a display of the game's hall or, in a simultaneous game, of a hall that joined it: a hall's own
  // camera reaches its own displays and no other hall's.
  app.get('/api/games/:gameId/central-video', needs('game.central_video'), async (c) => {
    const state = await services.bingo.getGameState(param(c, 'gameId'))
    const rule = state.halls?.length ? 'RNG-30' : 'BNG-34'
    if (state.status === 'finished' || state.status === 'void')
      throw new DomainError('ILLEGAL_TRANSITION', `game ${state.gameId} has ended: no image to relay`, { rule })
    const source = await services.cameras.streamOf(state.hallId)
    if (!source)
      throw new DomainError('NOT_FOUND', `hall ${state.hallId} has no registered ball-exit camera (${rule})`, { rule })
    // No transaction is open here: the stream runs for as long as the display watches.
    return new Response(services.videoRelay.watch(source.streamUrl), {
      headers: {
        'content-type': `multipart/x-mixed-replace; boundary=${RELAY_BOUNDARY}`,
        'cache-control': 'no-store',
        'x-bolillo-camera': source.cameraId,
      },
    })
  })

  // ---- device registry (GEN-6, GEN-7)
  app.get('/api/devices', needs('minutes.read'), async (c) => {
    const k = c.req.query('kind')
    const parsed = k ? kind.safeParse(k) : null
    if (parsed && !parsed.success)
      throw new DomainError('VALIDATION_FAILED', `unknown device kind ${k}`, { field: 'kind' })
    return c.json({ devices: await devices.list({ hallId: c.req.query('hallId') || undefined, kind: parsed?.data }) })
  })
  app.post('/api/devices', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          id: deviceId,
          kind,
          name: z.string().min(1).max(120),
          hallId: id.nullable().optional(),
          manufacturer: optText(120),
          model: optText(120),
          serialNo: optText(120),
          sealCode: optText(40),
          certificateId: optText(40),
          certificateExpiresAt: optText(40),
          typeApprovalNo: optText(60),
          parentId: deviceId.nullable().optional(),
          firmware: optText(40),
          servesDeviceId: deviceId.nullable().optional(),
          issuingAuthorisation: optText(120),
        })
        .strict(),
    )
    return c.json(await devices.register(b), 201)
  })
  app.get('/api/devices/:deviceId', needs('minutes.read'), async (c) => c.json(await devices.get(param(c, 'deviceId'))))
  app.patch('/api/devices/:deviceId', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          by: person.optional(),
          name: z.string().min(1).max(120).optional(),
          hallId: id.nullable().optional(),
          manufacturer: optText(120),
          model: optText(120),
          serialNo: optText(120),
          sealCode: optText(40),
          certificateId: optText(40),
          certificateExpiresAt: optText(40),
          typeApprovalNo: optText(60),
          parentId: deviceId.nullable().optional(),
          firmware: optText(40),
          servesDeviceId: deviceId.nullable().optional(),
          issuingAuthorisation: optText(120),
        })
        .strict(),
    )
    const { by, ...patch } = b
    return c.json(await devices.update(param(c, 'deviceId'), patch, nameOf(c, by)))
  })
  app.post('/api/devices/:deviceId/status', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          status: z.enum(['active', 'suspended', 'retired']),
          reason: z.string().min(1).max(500),
          by: person.optional(),
        })
        .strict(),
    )
    return c.json(await devices.setStatus(param(c, 'deviceId'), b.status, b.reason, nameOf(c, b.by)))
  })
  app.get('/api/blowers', needs('minutes.read'), (c) => c.json({ blowers: blowers.list() }))

  // ---- certified software (issue 26: RNG-3, RNG-24/25, RNG-29, RNG-32 point 5)
  // The records and the running builds' hashes (what a certificate must name to count).
  app.get('/api/software', needs('minutes.read'), async (c) => c.json(await services.software.list()))
  // A certificate is recorded by whoever registers devices; never as a demo record (only the demo's seed makes those).
  app.post('/api/software', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          component: z.enum(['draw-engine', 'pot-award', 'derived-bingo']),
          jurisdiction: z.string().min(1).max(40),
          version: z.string().min(1).max(40),
          buildSha256: z.string().regex(/^[0-9a-f]{64}$/),
          certificateRef: z.string().min(1).max(120),
          laboratory: z.string().min(1).max(120),
          by: person.optional(),
        })
        .strict(),
    )
    const { by, ...input } = b
    return c.json(await services.software.record(input, nameOf(c, by)), 201)
  })
  app.post('/api/software/:softwareId/withdraw', needs('device.admin'), async (c) => {
    const b = await body(c, z.object({ reason: z.string().min(1).max(500), by: person.optional() }).strict())
    return c.json(await services.software.withdraw(param(c, 'softwareId'), b.reason, nameOf(c, b.by)))
  })

  // ---- ball sets (BNG-23 to BNG-27)
  app.get('/api/halls/:hallId/ball-sets', needs('minutes.read'), async (c) =>
    c.json(await ballSets.list(param(c, 'hallId'))),
  )
  app.post('/api/halls/:hallId/ball-sets', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          label: z.string().min(1).max(40),
          approvalNo: optText(60),
          ballCount: z.number().int().min(1).max(999).optional(),
          guaranteedGames: z.number().int().min(1).max(1_000_000).nullable().optional(),
          gameLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
          warnPercent: z.number().int().min(1).max(100).optional(),
          status: z.enum(['active', 'reserve']).optional(),
        })
        .strict(),
    )
    return c.json(await ballSets.register({ hallId: param(c, 'hallId'), ...b }), 201)
  })
  app.post('/api/halls/:hallId/ball-sets/change', needs('session.open'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          toSetId: id,
          reason: z.string().min(1).max(500),
          witnessedBy: person.optional(),
          keepOldAsReserve: z.boolean().optional(),
        })
        .strict(),
    )
    // BNG-25/27 (BNG-94: the director is present): witnessed by a second person with their own credential; the
    // profile says whether that person must be the director (ball-sets.ts change).
    if (!c.get('authOn'))
      return c.json(
        await ballSets.change({
          hallId: param(c, 'hallId'),
          ...b,
          witnessedBy: await witnessOf(c, 'ball-set.witness', b.witnessedBy),
        }),
      )
    const witness = await secondPerson(c, 'ball-set.witness')
    return c.json(
      await ballSets.change({ hallId: param(c, 'hallId'), ...b, witnessedBy: witness.name, witnessRole: witness.role }),
    )
  })
  app.post('/api/ball-sets/:setId/retire', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ reason: z.string().min(1).max(500), by: person.optional() }).strict())
    return c.json(await ballSets.retire({ setId: param(c, 'setId'), ...b, by: nameOf(c, b.by) }))
  })

  // ---- the blower of a game (BNG-30 to BNG-33, BNG-80 to BNG-83)
  app.get('/api/games/:gameId/blower', needs('game.read'), async (c) =>
    c.json(await blowers.status(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/blower/start', needs('game.draw'), async (c) => {
    await blowers.start(param(c, 'gameId'))
    return c.json({ ok: true })
  })
  app.post('/api/games/:gameId/blower/stop', needs('game.draw'), async (c) => {
    await blowers.stop(param(c, 'gameId'))
    return c.json({ ok: true })
  })
  app.post('/api/games/:gameId/blower/release', needs('game.draw'), async (c) =>
    c.json(await blowers.release(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/blower/confirm', needs('game.incident'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), confirmedBy: person.optional() }).strict())
    return c.json(await blowers.confirm(param(c, 'gameId'), b.ball, nameOf(c, b.confirmedBy, 'confirmedBy')))
  })

  // ---- entropy source of the draw seeds (RNG-32)
  app.get('/api/entropy', needs('journal.read'), (c) => c.json(services.equipment.entropyStatus()))
}
