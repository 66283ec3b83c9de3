import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkDemoHall, startServerProcess } from '../helpers/demo-hall.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { api } from '../helpers/server.ts'

/**
 * `npm run start:bun`: the same demo hall under Bun, on bun:sqlite, with the lotto writer and signer threads
 * selling durable slips. Bun comes from the `bun` devDependency.
 */
const bun = join(process.cwd(), 'node_modules', '.bin', 'bun')

describe.skipIf(!existsSync(bun))('npm run start:bun: the demo hall under Bun', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-bun-start-'))
  let child: ChildProcess | null = null
  afterAll(() => {
    child?.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('reports runtime bun on sqlite, runs the demo game with authentication on, and sells lotto slips', async () => {
    const started = startServerProcess(bun, [join(process.cwd(), 'server', 'src', 'main.ts')], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BOLILLO_LOG_LEVEL: 'error',
      BOLILLO_AUTH: '',
      BOLILLO_SEED_DEMO: '',
    })
    child = started.child
    const url = await started.url
    await checkDemoHall(url, dataDir, { engine: 'sqlite', runtime: 'bun' })

    // 60 concurrent paid lotto sales on bun:sqlite, each in its own transaction with its cash movement.
    const director = {
      authorization: `Bearer ${(await api(url, 'POST', '/api/auth/login', { username: 'director', password: 'bolillo-demo' })).body.token}`,
    }
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const draw = await api(
      url,
      'POST',
      '/api/lotto/draws',
      plan649({
        salesStartAt: iso(now - 3_600_000),
        salesCloseAt: iso(now + 86_400_000),
        drawAt: iso(now + 90_000_000),
        claimDeadline: iso(now + 90 * 86_400_000),
      }),
      director,
    )
    expect(draw.status, JSON.stringify(draw.body)).toBe(201)
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'))
    // Issue 13: slips are sold for cash at the counter, by the demo cashier at Caja 1 (her shift was opened above).
    const desk = {
      authorization: `Device ${creds.devices.find((d: { kind: string }) => d.kind === 'cashier_station').credential}`,
    }
    const cashier = {
      authorization: `Bearer ${(await api(url, 'POST', '/api/auth/login', { username: 'cajero', password: 'bolillo-demo' }, desk)).body.token}`,
    }
    const sales = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api(
          url,
          'POST',
          `/api/lotto/draws/${draw.body.drawId}/slips`,
          {
            ageConfirmed: true,
            boards: [],
            quickPicks: 2,
            player: { name: `Jugador ${i}`, document: `${1_000_000 + i} LP` },
          },
          cashier,
        ),
      ),
    )
    for (const s of sales) expect(s.status, JSON.stringify(s.body)).toBe(201)
    expect(new Set(sales.map((s) => s.body.receiptNumber)).size).toBe(60)
    const checked = await api(url, 'POST', '/api/lotto/tickets/validate', { code: sales[7].body.code }, director)
    expect(checked.status, JSON.stringify(checked.body)).toBe(200)
    expect(JSON.stringify(checked.body)).toContain(sales[7].body.receiptNumber)
  }, 120_000)
})
