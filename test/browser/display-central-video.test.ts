/**
 * Issue 26, RNG-30 (004 Bingo VI.1) in a real Chromium, authentication on: the enrolled display of a hall that plays
 * a simultaneous game shows the central's ball-exit camera, relayed by the server from a real MJPEG camera on a TCP
 * port, beside the called ball and labelled in Spanish; when the camera stops it says plainly that the image is lost,
 * while the balls keep arriving as data; when the camera is back, so is the image.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, ensureBuilt, launchChromium, SCREENSHOTS, settled } from '../helpers/browser.ts'
import { startTestServer } from '../helpers/server.ts'
import { startMjpegCamera, type MjpegCamera } from '../helpers/mjpeg-camera.ts'
import { simultaneousGameOnSale } from '../helpers/simultaneous-video.ts'

browserSuite("the central's image on a participating hall's display (RNG-30)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let camera: MjpegCamera
  let game: Awaited<ReturnType<typeof simultaneousGameOnSale>>

  beforeAll(async () => {
    ensureBuilt(['display'], ['display/src', 'web'])
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startTestServer({ auth: 'on' })
    camera = await startMjpegCamera(100)
    game = await simultaneousGameOnSale(server.services, { profileId: 'ES-CB-2010', tag: 'pantalla' })
    await server.services.cameras.register(
      {
        hallId: game.halls.central.id,
        id: 'CAM-CENTRAL-1',
        name: 'Salida de bolas',
        streamUrl: camera.url,
        sealCode: 'AJ-CAM-0002',
      },
      { kind: 'system', id: 'test', name: 'test', role: 'system' },
    )
    await server.services.bingo.closeSales({ gameId: game.gameId })
    for (const b of [7, 23, 42]) await server.services.bingo.enterBall(game.gameId, b, null)
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
    await camera?.close()
  })

  const videoState = (page: Page) => page.getByTestId('central-video').getAttribute('data-state')
  const imageWidth = (page: Page) =>
    page.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="central-video-img"]')
      return img?.complete ? img.naturalWidth : 0
    })

  it('shows the live image beside the ball, then "Sin imagen de la central" when the camera stops', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/display/?hall=${game.halls.joined.id}&device=${game.halls.joined.display}`)
    await expect
      .poll(() => page.getByTestId('display').getAttribute('data-game'), { timeout: 15_000 })
      .toBe(game.gameId)
    await expect.poll(() => videoState(page), { timeout: 10_000 }).toBe('live')
    await expect.poll(() => imageWidth(page), { timeout: 10_000 }).toBe(320)
    expect((await page.getByTestId('central-video-caption').textContent())?.trim()).toBe(
      'Imagen en directo de la central',
    )
    expect((await page.getByTestId('current-ball').textContent())?.trim()).toBe('42')
    // Beside the called ball: same row, to its right.
    const ball = (await page.locator('.hd-ball-panel').boundingBox())!
    const video = (await page.getByTestId('central-video').boundingBox())!
    expect(video.x).toBeGreaterThanOrEqual(ball.x + ball.width - 1)
    expect(Math.abs(video.y - ball.y)).toBeLessThan(5)
    // The display's credential never shows in an address the page used (it went in a header).
    expect(page.url()).not.toContain(game.halls.joined.display.split('.')[1])
    await settled(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-central-video-live.png') })

    camera.stop()
    await expect.poll(() => videoState(page), { timeout: 10_000 }).toBe('lost')
    expect(await page.getByTestId('central-video-img').count()).toBe(0)
    expect((await page.getByTestId('central-video-notice').textContent())?.replace(/\s+/g, ' ')).toContain(
      'Sin imagen de la central',
    )
    // The balls keep arriving as data.
    await server.services.bingo.enterBall(game.gameId, 61, null)
    await expect.poll(async () => (await page.getByTestId('current-ball').textContent())?.trim()).toBe('61')
    await settled(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'display-central-video-lost.png') })

    camera.start()
    await expect.poll(() => videoState(page), { timeout: 15_000 }).toBe('live')
    await expect.poll(() => imageWidth(page), { timeout: 10_000 }).toBe(320)
  })

  it("a non-participating hall's display shows no image of the game (it is not told the game at all)", async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await page.goto(`${server.url}/display/?hall=${game.halls.outside.id}&device=${game.halls.outside.display}`)
    await expect.poll(() => page.getByTestId('display').getAttribute('data-status'), { timeout: 15_000 }).toBe('none')
    expect(await page.getByTestId('central-video').count()).toBe(0)
  })
})
