// Load generator of the lotto.sell benchmark (bench/lotto.ts), run as a child process so that its CPU is not the
// server's: `concurrency` keep-alive HTTP/1.1 connections, each with one request in flight, POST slips to the
// real server. A minimal raw-socket client (like wrk) keeps the generator's own cost low. Prints one JSON line:
// { ok, errors, seconds, latenciesMs: sorted sample } for the measured window (after a warm-up). Each body is sent
// once before any is sent again, in order.
import net from 'node:net'
import { readFileSync } from 'node:fs'

const [, , host, portText, path, concurrencyText, warmupText, durationText, bodiesJson] = process.argv
const port = Number(portText)
const concurrency = Number(concurrencyText)
const warmupMs = Number(warmupText)
const durationMs = Number(durationText)
// `@file`: the bodies read from a JSON file (a paid-sales run sends one voucher per request, too many for argv). An
// element `{ "headers": {...}, "body": ... }` sends its own headers with its body (an enrolled device's credential);
// any other element is the body itself.
const bodies = JSON.parse(bodiesJson.startsWith('@') ? readFileSync(bodiesJson.slice(1), 'utf8') : bodiesJson).map(
  (b) => {
    const own = b && typeof b === 'object' && 'headers' in b && 'body' in b
    const json = Buffer.from(JSON.stringify(own ? b.body : b))
    const extra = own
      ? Object.entries(b.headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')
      : ''
    return Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${json.length}\r\nConnection: keep-alive\r\n\r\n`,
      ),
      json,
    ])
  },
)

const start = performance.now()
const cpu0 = process.cpuUsage()
const measureFrom = start + warmupMs
const measureTo = measureFrom + durationMs
let ok = 0
let errors = 0
const statuses = {}
const latencies = []
let next = 0

function client() {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, noDelay: true })
    let buf = Buffer.alloc(0)
    let sentAt = 0
    const send = () => {
      if (performance.now() >= measureTo) {
        socket.end()
        resolve()
        return
      }
      sentAt = performance.now()
      socket.write(bodies[next++ % bodies.length])
    }
    socket.on('connect', send)
    socket.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk
      for (;;) {
        const end = buf.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buf.subarray(0, end).toString('latin1')
        const m = /content-length:\s*(\d+)/i.exec(head)
        const len = m ? Number(m[1]) : 0
        if (buf.length < end + 4 + len) return
        const status = Number(head.slice(9, 12))
        buf = buf.subarray(end + 4 + len)
        const now = performance.now()
        if (sentAt >= measureFrom && now <= measureTo) {
          if (status === 201) {
            ok++
            latencies.push(now - sentAt)
          } else {
            errors++
            statuses[status] = (statuses[status] ?? 0) + 1
          }
        }
        send()
      }
    })
    socket.on('error', () => {
      errors++
      resolve()
    })
    socket.on('close', () => resolve())
  })
}

await Promise.all(Array.from({ length: concurrency }, client))
latencies.sort((a, b) => a - b)
const p = (q) => latencies[Math.max(0, Math.ceil(latencies.length * q) - 1)] ?? null
const cpu = process.cpuUsage(cpu0)
process.stdout.write(
  JSON.stringify({
    ok,
    errors,
    statuses,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    totalSent: next,
    seconds: durationMs / 1000,
    p50: p(0.5),
    p99: p(0.99),
    max: latencies.at(-1) ?? null,
  }) + '\n',
)
