import { readFileSync } from 'node:fs'
import http, { createServer, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { resolve } from 'node:path'
import { createMultipartParser } from '../../hardware/src/mjpeg-relay.ts'

/** A small JPEG (320x180, made once with Chromium's screenshot): the frame the test camera sends. */
export const CAMERA_JPEG = readFileSync(resolve('test/fixtures/central-camera.jpg'))

/**
 * A real MJPEG camera on a TCP port: GET /stream answers multipart/x-mixed-replace with a JPEG frame every
 * `intervalMs`, as IP cameras do. `stop()` cuts every viewer and answers 503 from then on (the camera lost), `freeze()` keeps the connections open
 * and sends nothing more;
 * `start()` brings it back. `connections` counts the streams it was asked for.
 */
export async function startMjpegCamera(intervalMs = 100) {
  const boundary = 'camframe'
  const sockets = new Set<Socket>()
  const viewers = new Set<ServerResponse>()
  let running = true
  let frozen = false
  let connections = 0
  const server: Server = createServer((req, res) => {
    if (req.url !== '/stream' || !running) {
      res.writeHead(running ? 404 : 503).end()
      return
    }
    connections++
    res.writeHead(200, {
      'content-type': `multipart/x-mixed-replace; boundary=${boundary}`,
      'cache-control': 'no-cache',
    })
    viewers.add(res)
    res.on('close', () => viewers.delete(res))
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  const timer = setInterval(() => {
    if (frozen) return
    for (const res of viewers) {
      // Some cameras send Content-Length, some do not: this one does not, so the relay cuts frames at the boundary.
      res.write(`--${boundary}\r\nContent-Type: image/jpeg\r\n\r\n`)
      res.write(CAMERA_JPEG)
      res.write('\r\n')
    }
  }, intervalMs)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/stream`,
    connections: () => connections,
    viewers: () => viewers.size,
    stop() {
      running = false
      for (const s of sockets) s.destroy()
    },
    start() {
      running = true
      frozen = false
    },
    /** Keeps every connection open and sends nothing more (a frozen camera). */
    freeze() {
      frozen = true
    },
    async close() {
      clearInterval(timer)
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
export type MjpegCamera = Awaited<ReturnType<typeof startMjpegCamera>>

export type Watch = { status: number; type: string; frames: Buffer[]; ended: boolean; req: http.ClientRequest }

/** A display's GET of the relay, reading frames until `want` arrived (or the stream ended, or `timeoutMs`). */
export function watch(url: string, headers: Record<string, string>, want: number, timeoutMs = 5000): Promise<Watch> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const out: Watch = {
        status: res.statusCode ?? 0,
        type: String(res.headers['content-type'] ?? ''),
        frames: [],
        ended: false,
        req,
      }
      const boundary = /boundary=([^;]+)/.exec(out.type)?.[1]
      if (out.status !== 200 || !boundary) {
        res.resume()
        res.on('end', () => resolve(out))
        return
      }
      const parse = createMultipartParser(boundary, 1 << 20)
      const timer = setTimeout(() => {
        req.destroy()
        resolve(out)
      }, timeoutMs)
      res.on('data', (chunk: Buffer) => {
        out.frames.push(...parse(chunk))
        if (out.frames.length >= want) {
          clearTimeout(timer)
          req.destroy()
          resolve(out)
        }
      })
      res.on('end', () => {
        clearTimeout(timer)
        out.ended = true
        resolve(out)
      })
      res.on('error', () => {
        clearTimeout(timer)
        resolve(out)
      })
    })
    req.on('error', reject)
  })
}
