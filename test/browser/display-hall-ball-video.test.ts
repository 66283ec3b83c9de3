import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
/**
 * BNG-34 (004 Bingo II.3: "una cámara enfocará permanentemente el lugar de salida de aquellas y la imagen será
 * recogida por los distintos monitores") in a real Chromium, authentication on: the enrolled display of a hall shows,
 * in a game of its own (not simultaneous), the hall's registered ball-exit camera relayed by the server from a real
 * MJPEG camera on a TCP port, beside the called ball, labelled "Imagen de la salida de bolas"; when the camera stops it
 * says "Sin imagen de la cámara" while the balls keep arriving.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { startTestServer } from '../helpers/server.ts'
import { startMjpegCamera, type MjpegCamera } from '../helpers/mjpeg-camera.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { sealed } from '../helpers/device-marks.ts'

browserSuite("the hall's own ball-exit camera on its display (BNG-34)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let camera: MjpegCamera
  let hallId = ''
  let display = ''
  let gameId = ''

  beforeAll(async () => {
    ensureBuilt(['display'], ['display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    camera = await startMjpegCamera(100)
    const { bingo, auth, cameras } = server.services
    const set = await bingo.createMasterSet({ count: 300, seed: 'hall-video-screen' })
    const h = await bingo.createHall({
      name: 'Sala Propia',
      profileId: 'ES-CB-2010',
      playingPositions: 100,
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
    })
    hallId = h.id
    const series = await bingo.createSeries({ hallId, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    display = (await auth.enrolDevice({ ...sealed(), kind: 'display', name: 'Pantalla A', hallId })).credential
    const { extractorId } = await equipForManualGames(server.services, hallId)
    await cameras.register(
      { hallId, id: 'CAM-SALA-1', name: 'Salida de bolas', streamUrl: camera.url, sealCode: 'AJ-CAM-0201' },
      { kind: 'system', id: 'test', name: 'test', role: 'system' },
    )
    const session = await bingo.openSession({ hallId, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    ;({ gameId } = await bingo.announceGame({
      sessionId: session.id,
      seriesIds: [series.id],
      drawSource: 'manual',
      deviceId: extractorId,
    }))
    await bingo.openSales(gameId)
    await bingo.sell({ gameId, count: 5, channel: 'counter' })
    await bingo.closeSales({ gameId })
    for (const b of [7, 23]) await bingo.enterBall(gameId, b, null)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
    await camera?.close()
  })

  const videoState = (page: Page) => page.getByTestId('central-video').getAttribute('data-state')

  it('shows "Imagen de la salida de bolas" beside the ball, then "Sin imagen de la cámara" when it stops', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/display/?hall=${hallId}&device=${display}`)
    await expect.poll(() => page.getByTestId('display').getAttribute('data-game'), { timeout: 15_000 }).toBe(gameId)
    await expect.poll(() => videoState(page), { timeout: 10_000 }).toBe('live')
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const img = document.querySelector<HTMLImageElement>('[data-testid="central-video-img"]')
            return img?.complete ? img.naturalWidth : 0
          }),
        { timeout: 10_000 },
      )
      .toBe(320)
    expect((await page.getByTestId('central-video-caption').textContent())?.trim()).toBe('Imagen de la salida de bolas')
    expect((await page.getByTestId('current-ball').textContent())?.trim()).toBe('23')
    const ball = (await page.locator('.hd-ball-panel').boundingBox())!
    const video = (await page.getByTestId('central-video').boundingBox())!
    expect(video.x).toBeGreaterThanOrEqual(ball.x + ball.width - 1)
    await settled(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-hall-ball-video-live.png') })

    camera.stop()
    await expect.poll(() => videoState(page), { timeout: 10_000 }).toBe('lost')
    expect((await page.getByTestId('central-video-notice').textContent())?.replace(/\s+/g, ' ')).toContain(
      'Sin imagen de la cámara',
    )
    await server.services.bingo.enterBall(gameId, 61, null)
    await expect.poll(async () => (await page.getByTestId('current-ball').textContent())?.trim()).toBe('61')
  })
})
