/**
 * What this machine can serve at all, beside sales.paid (issue 23 point 5): the same 100 keep-alive clients
 * (bench/lotto-load.mjs in a child process), the same purchase bodies and device header, against a server that does
 * no sale. It is the ceiling any paid-sale figure on this machine sits under, measured the same way.
 *
 * - sales.paid.floor.http: Hono on @hono/node-server (the server's framework and adapter) reading the JSON body and
 *   answering 201 with a small JSON: HTTP alone.
 * - sales.paid.floor.signed: the same, plus the least a sale owes the ticket-code contract (DESIGN.md): the
 *   voucher's Ed25519 signature verified and one ticket code signed, both on the thread pool as the server does
 *   them (shared/ticket-code.ts). No database, no journal, no authentication.
 *
 * BENCH_FLOOR_SECONDS (5) of measurement after a 2 s warm-up; BENCH_FLOOR_CLIENTS (100).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPairSync } from 'node:crypto'
import { Hono } from 'hono'
import { serve, type ServerType } from '@hono/node-server'
import {
  encodeTicketCode,
  encodeTicketCodeAsync,
  TicketKind,
  verifyTicketCodeAsync,
} from '../server/src/shared/ticket-code.ts'
import { runLoad } from './load.ts'

interface BenchResult {
  name: string
  value: number
  unit: string
}

function log(message: string): void {
  process.stderr.write(`[bench sales.paid.floor] ${message}\n`)
}

export async function benchHttpFloor(emit: (r: BenchResult) => void): Promise<void> {
  const smoke = process.env.BOLILLO_BENCH_SMOKE === '1'
  const seconds = Number(process.env.BENCH_FLOOR_SECONDS ?? (smoke ? 1 : 5))
  const clients = Number(process.env.BENCH_FLOOR_CLIENTS ?? (smoke ? 4 : 100))
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-bench-floor-'))
  try {
    // Bodies shaped as the sales.paid bench's: a signed voucher code each, a kiosk's device credential.
    const bodies = Array.from({ length: 2000 }, (_, i) => ({
      headers: { authorization: `Device dev_bench${i % clients}.${'s'.repeat(43)}` },
      body: {
        voucherCode: encodeTicketCode({ kind: TicketKind.voucher, id: `v_bench${i}` }, privateKey),
        ageConfirmed: true,
        cards: { gameId: 'g_bench', count: 1 },
      },
    }))
    const bodiesFile = join(dir, 'bodies.json')
    writeFileSync(bodiesFile, JSON.stringify(bodies))
    for (const mode of ['http', 'signed'] as const) {
      let n = 0
      const app = new Hono()
      app.post('/api/kiosk/purchases', async (c) => {
        const b = (await c.req.json()) as { voucherCode: string }
        let code = ''
        if (mode === 'signed') {
          await verifyTicketCodeAsync(b.voucherCode, publicKey)
          code = await encodeTicketCodeAsync({ kind: TicketKind.card, id: `c_bench${n++}` }, privateKey)
        }
        return c.json({ purchaseId: `kp_${n}`, cards: [{ code }] }, 201)
      })
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
      })
      try {
        const port = (server.address() as AddressInfo).port
        const r = await runLoad({
          host: '127.0.0.1',
          port,
          path: '/api/kiosk/purchases',
          clients,
          warmupMs: smoke ? 200 : 2000,
          durationMs: seconds * 1000,
          bodiesFile,
        })
        const rate = Math.round(r.ok / r.seconds)
        log(`${mode}: ${r.ok} answers in ${r.seconds.toFixed(1)} s, ${r.errors} errors; p99 ${r.p99?.toFixed(1)} ms`)
        emit({ name: `sales.paid.floor.${mode}`, value: rate, unit: 'requests/s' })
        if (r.p99 !== null) emit({ name: `sales.paid.floor.${mode}.p99`, value: Number(r.p99.toFixed(1)), unit: 'ms' })
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
