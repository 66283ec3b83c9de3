import { afterEach, describe, expect, it } from 'vitest'
import { CAMERA_JPEG, startMjpegCamera, type MjpegCamera } from '../../test/helpers/mjpeg-camera.ts'
import { createMjpegRelay, createMultipartParser, RELAY_BOUNDARY, type MjpegRelay } from './mjpeg-relay.ts'

/** RNG-30: the relay of the central's camera, against a real MJPEG camera on a TCP port. */
let camera: MjpegCamera | undefined
let relay: MjpegRelay | undefined
afterEach(async () => {
  relay?.close()
  await camera?.close()
})

/** The frames a viewer can read now (whatever is queued), waiting at most `ms` for each. */
async function framesQueued(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<number> {
  let n = 0
  for (;;) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), ms))])
    if (!next || next.done) return n
    n++
  }
}

describe('MJPEG relay', () => {
  it('cuts frames at the boundary or by Content-Length, and only passes JPEGs on', () => {
    const parse = createMultipartParser('b', 1 << 20)
    const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 0xff, 0xd9])
    const text = Buffer.from('not an image')
    const stream = Buffer.concat([
      Buffer.from('--b\r\nContent-Type: image/jpeg\r\n\r\n'),
      jpeg,
      Buffer.from('\r\n--b\r\nContent-Type: text/plain\r\n\r\n'),
      text,
      Buffer.from(`\r\n--b\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`),
      jpeg,
      Buffer.from('\r\n--b\r\n'),
    ])
    // Fed byte by byte, as a slow network would deliver it.
    const frames = [...stream].flatMap((b) => parse(Buffer.from([b])))
    expect(frames.map((f) => f.toString('hex'))).toEqual([jpeg.toString('hex'), jpeg.toString('hex')])
  })

  it('a viewer that does not read keeps only the newest frames; the one that reads gets them all, from one camera connection', async () => {
    camera = await startMjpegCamera(20)
    relay = createMjpegRelay()
    const slow = relay.watch(camera.url).getReader()
    const fast = relay.watch(camera.url).getReader()
    const parse = createMultipartParser(RELAY_BOUNDARY, 1 << 20)
    const got: Buffer[] = []
    while (got.length < 30) {
      const { value, done } = await fast.read()
      expect(done).toBe(false)
      got.push(...parse(Buffer.from(value!)))
    }
    for (const f of got) expect(f.equals(CAMERA_JPEG)).toBe(true)
    // 30 frames went by; the viewer that never read has at most its queue (2) and the newest frame waiting.
    expect(await framesQueued(slow, 10)).toBeLessThanOrEqual(3)
    expect(camera.connections()).toBe(1)
    expect(relay.sourceCount()).toBe(1)
    // Nobody watching: the camera is let go.
    await slow.cancel()
    await fast.cancel()
    expect(relay.sourceCount()).toBe(0)
  })

  it("ends every viewer's stream when the camera stops sending, even without closing the connection", async () => {
    camera = await startMjpegCamera(20)
    relay = createMjpegRelay({ stallMs: 300 })
    const reader = relay.watch(camera.url).getReader()
    expect((await reader.read()).done).toBe(false)
    camera.freeze()
    const t0 = Date.now()
    for (;;) if ((await reader.read()).done) break
    // Ended by the relay's own watch (stallMs), not by the camera: its connection is still open.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200)
    expect(relay.sourceCount()).toBe(0)
  })
})
