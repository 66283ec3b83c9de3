import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { sealed } from '../helpers/device-marks.ts'
import { CAMERA_JPEG, startMjpegCamera, watch, type MjpegCamera } from '../helpers/mjpeg-camera.ts'
import { asDevice, simultaneousGameOnSale } from '../helpers/simultaneous-video.ts'

/**
 * Issue 26, RNG-30 (004 Bingo VI.1: in bingo simultáneo "en cada sala se recibirá la información del juego y de las
 * diferentes extracciones a través de imagen de vídeo remitida por la Central Operativa"), over real HTTP with
 * authentication on, enrolled displays and a real MJPEG camera on a TCP port. The audit's finding: the halls received
 * data events, never the central's image. Now the central's ball-exit camera is registered equipment with its seal,
 * a Cantabrian simultaneous game does not start without it, and the server relays its frames to the displays of the
 * halls that play the game, and to no one else.
 */

describe('the central camera image reaches the displays of the halls that play a simultaneous game (RNG-30)', () => {
  let s: RulesServer
  let camera: MjpegCamera
  let game: Awaited<ReturnType<typeof simultaneousGameOnSale>>
  const videoUrl = () => `${s.server.url}/api/games/${game.gameId}/central-video`

  beforeAll(async () => {
    s = await startRulesServer('2026-11-27T20:00:00.000Z')
    camera = await startMjpegCamera(50)
    game = await simultaneousGameOnSale(s.server.services, { profileId: 'ES-CB-2010', tag: 'cb' })
  }, 120_000)
  afterAll(async () => {
    await s?.server.cleanup()
    await camera?.close()
  })

  it('Cantabria: the game does not start without the central camera; the director registers it with its seal', async () => {
    const refused = await s.call('mesa1', 'POST', `/api/games/${game.gameId}/sales/close`, {})
    expect(refused.status, JSON.stringify(refused.body)).toBe(422)
    expect(refused.body.error.code).toBe('DEVICE_NOT_CERTIFIED')
    expect(refused.body.error.details).toMatchObject({ rule: 'RNG-30', problems: ['no-central-camera'] })
    expect((await s.call('mesa1', 'GET', `/api/games/${game.gameId}`)).body.status).toBe('on_sale')

    const camBody = { id: 'CAM-CENTRAL-1', name: 'Salida de bolas', streamUrl: camera.url, sealCode: 'AJ-CAM-0001' }
    // Only the director registers it; a camera without its seal, or with credentials in its address, is refused.
    for (const who of ['mesa1', 'locutor', 'cajera'] as const)
      expect((await s.call(who, 'POST', `/api/halls/${game.halls.central.id}/cameras`, camBody)).status, who).toBe(403)
    const noSeal = await s.call('jefa', 'POST', `/api/halls/${game.halls.central.id}/cameras`, {
      ...camBody,
      sealCode: ' ',
    })
    expect(noSeal.status).toBe(400)
    const withPassword = await s.call('jefa', 'POST', `/api/halls/${game.halls.central.id}/cameras`, {
      ...camBody,
      streamUrl: camera.url.replace('http://', 'http://admin:clave@'),
    })
    expect(withPassword.status).toBe(400)
    const reg = await s.call('jefa', 'POST', `/api/halls/${game.halls.central.id}/cameras`, camBody)
    expect(reg.status, JSON.stringify(reg.body)).toBe(201)
    // What a screen may read of it never includes the stream's address.
    expect(JSON.stringify(reg.body)).not.toContain(camera.url)

    const closed = await s.call('mesa1', 'POST', `/api/games/${game.gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const rec = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'simultaneous.central_camera' AND payload LIKE ?",
      [`%${game.gameId}%`],
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ cameraId: 'CAM-CENTRAL-1', sealCode: 'AJ-CAM-0001' })
  })

  it("a participating hall's display receives the camera's frames through the server; others get 401/403", async () => {
    const joined = await watch(videoUrl(), asDevice(game.halls.joined.display), 3)
    expect(joined.status).toBe(200)
    expect(joined.type).toMatch(/^multipart\/x-mixed-replace; boundary=/)
    expect(joined.frames.length).toBeGreaterThanOrEqual(3)
    for (const f of joined.frames) expect(f.equals(CAMERA_JPEG)).toBe(true)
    // The central's own display sees it too.
    expect((await watch(videoUrl(), asDevice(game.halls.central.display), 1)).frames).toHaveLength(1)

    // A display of a hall that does not play the game, a stranger, a person of staff: no image.
    const outside = await watch(videoUrl(), asDevice(game.halls.outside.display), 1)
    expect(outside.status).toBe(403)
    expect(outside.frames).toHaveLength(0)
    expect((await watch(videoUrl(), { 'accept-language': 'es' }, 1)).status).toBe(401)
    expect((await watch(videoUrl(), asDevice('dev_x.not-a-secret'), 1)).status).toBe(401)
    expect((await watch(videoUrl(), s.headers('jefa'), 1)).status).toBe(403)
    // Another enrolled device of the participating hall (a kiosk) is not a display: no image either.
    const kiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco adherida',
      hallId: game.halls.joined.id,
    })
    expect((await watch(videoUrl(), asDevice(kiosk.credential), 1)).status).toBe(403)
  })

  it('a display that does not read does not delay another display nor the draw; one camera connection serves all', async () => {
    const before = camera.connections()
    // A stalled display: it connects and never reads (its socket's buffers fill up).
    const stalled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(videoUrl(), { headers: asDevice(game.halls.joined.display) }, (res) => {
        res.pause()
        resolve(res)
      })
      req.on('error', reject)
    })
    expect(stalled.statusCode).toBe(200)
    // Let the stalled one fall well behind: 1.5 s of frames (50 ms each) never read.
    await new Promise((r) => setTimeout(r, 1500))
    const t0 = Date.now()
    const other = await watch(videoUrl(), asDevice(game.halls.central.display), 20, 8000)
    const elapsed = Date.now() - t0
    expect(other.frames.length).toBe(20)
    // 20 frames of a 50 ms camera: about 1 s, far from the 8 s a blocked relay would take.
    expect(elapsed).toBeLessThan(4000)
    for (const f of other.frames) expect(f.equals(CAMERA_JPEG)).toBe(true)
    // The draw goes on while the stalled display is connected.
    const d0 = Date.now()
    const ball = await s.call('locutor', 'POST', `/api/games/${game.gameId}/balls`, { ball: 42 })
    expect(ball.status, JSON.stringify(ball.body)).toBe(200)
    expect(Date.now() - d0).toBeLessThan(3000)
    // Both displays were served by the same connection to the camera.
    expect(camera.connections() - before).toBe(1)
    stalled.destroy()
  })

  it("when the camera stops, the display's stream ends (it says the image is lost) and comes back with it", async () => {
    const pending = watch(videoUrl(), asDevice(game.halls.joined.display), 1000, 6000)
    await new Promise((r) => setTimeout(r, 300))
    camera.stop()
    const cut = await pending
    expect(cut.status).toBe(200)
    expect(cut.frames.length).toBeGreaterThan(0)
    expect(cut.ended).toBe(true)
    camera.start()
    const again = await watch(videoUrl(), asDevice(game.halls.joined.display), 2)
    expect(again.frames).toHaveLength(2)
  })
})

describe('Bolivia 2025: a simultaneous game starts without a camera (002 §6.1.4.1 asks for the numbers on screens)', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-11-27T20:00:00.000Z')
  }, 120_000)
  afterAll(async () => s?.server.cleanup())

  it('closes sales with no camera registered, and its displays are told there is none', async () => {
    const game = await simultaneousGameOnSale(s.server.services, { profileId: 'BO-2025', tag: 'bo' })
    const closed = await s.call('mesa1', 'POST', `/api/games/${game.gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const none = await watch(
      `${s.server.url}/api/games/${game.gameId}/central-video`,
      asDevice(game.halls.joined.display),
      1,
    )
    expect(none.status).toBe(404)
  })
})
