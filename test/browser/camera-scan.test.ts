import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import QRCode from 'qrcode'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserSuite, CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt } from '../helpers/browser.ts'
import { hallWithGameOnSale, sellVoucher, type HallSetup } from '../helpers/cashdesk.ts'
import { startTestServer } from '../helpers/server.ts'

/**
 * The kiosk reads a voucher's QR through a camera (issue 3: "also a camera with a QR library"). Chromium's fake
 * capture device plays a Y4M video of the printed QR; the kiosk decodes it (BarcodeDetector where the browser has
 * one, jsQR otherwise) and moves on to the card count with the voucher's credit.
 */

/** A 640x480 grey-scale Y4M clip of the code's QR, black modules on white with a quiet zone. */
function qrVideo(code: string): Buffer {
  const W = 640
  const H = 480
  const qr = QRCode.create(code, { errorCorrectionLevel: 'M' })
  const n = qr.modules.size
  const scale = Math.floor(400 / (n + 8))
  const side = (n + 8) * scale
  const x0 = Math.floor((W - side) / 2)
  const y0 = Math.floor((H - side) / 2)
  const y = Buffer.alloc(W * H, 235)
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue
      for (let dy = 0; dy < scale; dy++) {
        const row = y0 + (r + 4) * scale + dy
        y.fill(16, row * W + x0 + (c + 4) * scale, row * W + x0 + (c + 5) * scale)
      }
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128)
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma])
  return Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`),
    ...Array.from({ length: 10 }, () => frame),
  ])
}

browserSuite('kiosk camera scan', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  let setup: HallSetup
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-camera-'))

  beforeAll(async () => {
    ensureBuilt(['kiosk'])
    server = await startTestServer()
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 500, name: 'Sala Cámara' })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads the voucher QR from the camera and shows its credit', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2000)
    const video = join(dir, 'voucher.y4m')
    writeFileSync(video, qrVideo(voucher.code))
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    })
    const context = await browser.newContext({ viewport: { width: 1080, height: 1920 } })
    await context.grantPermissions(['camera'], { origin: server.url })
    const kiosk = await context.newPage()
    await kiosk.goto(`${server.url}/kiosk/?hall=${setup.hallId}&kiosk=kiosk-1`)
    await kiosk.getByTestId('kiosk-voucher').waitFor()
    await kiosk.getByTestId('camera-toggle').click()
    await kiosk.getByTestId('kiosk-credit').waitFor({ timeout: 20_000 })
    expect(await kiosk.getByTestId('kiosk-credit').textContent()).toMatch(/Bs\s20,00/)
  }, 60_000)
})
