/**
 * Relay of an MJPEG camera (multipart/x-mixed-replace JPEG frames over HTTP) to any number of viewers (RNG-30: the
 * central's ball-exit image to the halls' displays). One connection to each camera, whoever watches; each viewer gets
 * its own stream in which a slow viewer skips frames (it is always sent the latest one when it is ready for more), so
 * that no viewer waits for another and the camera is never slowed. The camera is dropped when nobody watches, and every
 * viewer's stream ends when the camera stops or sends nothing for `stallMs` (the viewer then says the image is lost).
 * Nothing here touches a database.
 */
import http from 'node:http'
import https from 'node:https'

export const RELAY_BOUNDARY = 'bolillo-frame'

export interface MjpegRelayOptions {
  /** No frame for this long: the camera counts as lost. */
  stallMs?: number
  /** Largest frame accepted (a broken source must not fill the memory). */
  maxFrameBytes?: number
}

interface Viewer {
  controller: ReadableStreamDefaultController<Uint8Array>
  /** The newest frame the viewer was not ready for (older ones are dropped). */
  pending: Uint8Array | null
}

interface Source {
  viewers: Set<Viewer>
  stop(): void
}

function part(jpeg: Buffer): Uint8Array {
  const head = Buffer.from(`--${RELAY_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`)
  return new Uint8Array(Buffer.concat([head, jpeg, Buffer.from('\r\n')]))
}

/**
 * Cuts JPEG frames out of a multipart byte stream: each part's Content-Length when it has one, else up to the next
 * boundary. Returns the frames found and keeps the rest for the next chunk.
 */
export function createMultipartParser(boundary: string, maxFrameBytes: number) {
  const delimiter = Buffer.from(`--${boundary}`)
  let buf: Buffer = Buffer.alloc(0)
  return (chunk: Buffer): Buffer[] => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk
    const frames: Buffer[] = []
    for (;;) {
      const start = buf.indexOf(delimiter)
      if (start < 0) {
        if (buf.length > maxFrameBytes) buf = Buffer.alloc(0)
        break
      }
      const headEnd = buf.indexOf('\r\n\r\n', start)
      if (headEnd < 0) break
      const head = buf.subarray(start + delimiter.length, headEnd).toString('latin1')
      const bodyStart = headEnd + 4
      const length = /content-length:\s*(\d+)/i.exec(head)
      let bodyEnd: number
      if (length) {
        bodyEnd = bodyStart + Number(length[1])
        if (Number(length[1]) > maxFrameBytes) {
          buf = Buffer.alloc(0)
          break
        }
        if (buf.length < bodyEnd) break
      } else {
        const next = buf.indexOf(delimiter, bodyStart)
        if (next < 0) {
          if (buf.length - bodyStart > maxFrameBytes) buf = Buffer.alloc(0)
          break
        }
        bodyEnd = next
        while (bodyEnd > bodyStart && (buf[bodyEnd - 1] === 0x0a || buf[bodyEnd - 1] === 0x0d)) bodyEnd--
      }
      const body = buf.subarray(bodyStart, bodyEnd)
      // Only JPEG frames go on (SOI marker): whatever else a source sends is not shown.
      if (body.length > 2 && body[0] === 0xff && body[1] === 0xd8) frames.push(Buffer.from(body))
      buf = buf.subarray(bodyEnd)
    }
    return frames
  }
}

export function createMjpegRelay(options: MjpegRelayOptions = {}) {
  const stallMs = options.stallMs ?? 5000
  const maxFrameBytes = options.maxFrameBytes ?? 4 * 1024 * 1024
  const sources = new Map<string, Source>()

  function send(v: Viewer, frame: Uint8Array): void {
    // Ready for more: send now. Not ready (a slow screen or network): keep only this newest frame for it.
    if ((v.controller.desiredSize ?? 0) > 0) v.controller.enqueue(frame)
    else v.pending = frame
  }

  function open(url: string): Source {
    const viewers = new Set<Viewer>()
    let stopped = false
    let stall: ReturnType<typeof setTimeout> | undefined
    const end = () => {
      if (stopped) return
      stopped = true
      clearTimeout(stall)
      req.destroy()
      if (sources.get(url) === source) sources.delete(url)
      for (const v of viewers)
        try {
          v.controller.close()
        } catch {
          // already closed by the viewer
        }
      viewers.clear()
    }
    const armStall = () => {
      clearTimeout(stall)
      stall = setTimeout(end, stallMs)
    }
    const get = url.startsWith('https:') ? https.get : http.get
    const req = get(url, (res) => {
      const type = res.headers['content-type'] ?? ''
      const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]?.replace(/^--/, '')
      if (res.statusCode !== 200 || !boundary) {
        res.resume()
        end()
        return
      }
      const parse = createMultipartParser(boundary, maxFrameBytes)
      res.on('data', (chunk: Buffer) => {
        for (const frame of parse(chunk)) {
          armStall()
          const out = part(frame)
          for (const v of viewers) send(v, out)
        }
      })
      res.on('end', end)
      res.on('error', end)
    })
    req.on('error', end)
    armStall()
    const source: Source = { viewers, stop: end }
    return source
  }

  return {
    /** A viewer's stream of the camera at `url` (multipart/x-mixed-replace; boundary RELAY_BOUNDARY). */
    watch(url: string): ReadableStream<Uint8Array> {
      let viewer: Viewer
      return new ReadableStream<Uint8Array>(
        {
          start(controller) {
            let source = sources.get(url)
            if (!source) {
              source = open(url)
              sources.set(url, source)
            }
            viewer = { controller, pending: null }
            source.viewers.add(viewer)
          },
          pull() {
            if (viewer.pending) {
              viewer.controller.enqueue(viewer.pending)
              viewer.pending = null
            }
          },
          cancel() {
            const source = sources.get(url)
            if (!source) return
            source.viewers.delete(viewer)
            if (source.viewers.size === 0) source.stop()
          },
        },
        new CountQueuingStrategy({ highWaterMark: 2 }),
      )
    },
    /** How many cameras are being read now (one per camera, however many viewers). */
    sourceCount: () => sources.size,
    close(): void {
      for (const s of [...sources.values()]) s.stop()
    },
  }
}

export type MjpegRelay = ReturnType<typeof createMjpegRelay>
