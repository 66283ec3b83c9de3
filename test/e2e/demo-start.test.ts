import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'

/**
 * README's promise: `npm start` on a fresh data directory brings up a working demo hall, with authentication on
 * (the default), one staff account per role and enrolled demo devices.
 */
describe('npm start: the demo hall', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-demo-start-'))
  let child: ChildProcess | null = null
  afterAll(() => {
    child?.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('serves a demo game that staff can run and strangers cannot touch', async () => {
    child = spawn(process.execPath, [join(process.cwd(), 'bin', 'bolillo.mjs'), 'start'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, BOLILLO_LOG_LEVEL: 'error', BOLILLO_AUTH: '', BOLILLO_SEED_DEMO: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 60_000)
      child!.stdout!.on('data', (d) => {
        out += d
        const m = /Bolillo en (http:\/\/[\d.:]+)/.exec(out)
        if (m && out.includes('Salud')) { clearTimeout(timer); resolve(m[1]) }
      })
      child!.stderr!.on('data', (d) => { out += d })
    })
    expect((await api(url, 'GET', '/api/health')).body).toMatchObject({ ok: true, engine: 'sqlite' })
    const hall = (await api(url, 'GET', '/api/halls/demo')).body
    const gameId = hall.currentGameId
    const state = (await api(url, 'GET', `/api/games/${gameId}`)).body
    expect(state).toMatchObject({ status: 'on_sale', cardsSold: 40 })

    // Authentication is on: nobody anonymous closes sales; the floor manager can.
    expect((await api(url, 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(401)
    const login = await api(url, 'POST', '/api/auth/login', { username: 'jefe', password: 'bolillo-demo' })
    expect(login.status).toBe(200)
    const asJefe = { authorization: `Bearer ${login.body.token}` }
    expect((await api(url, 'POST', `/api/games/${gameId}/sales/close`, {}, asJefe)).body.status).toBe('sales_closed')
    const drawn = await api(url, 'POST', `/api/games/${gameId}/draw`, undefined, asJefe)
    expect(drawn.body.ball).toBeGreaterThanOrEqual(1)

    // The enrolled demo kiosk may sell but may not draw.
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'))
    const kiosk = { authorization: `Device ${creds.devices.find((d: { kind: string }) => d.kind === 'kiosk').credential}` }
    expect((await api(url, 'POST', `/api/games/${gameId}/draw`, undefined, kiosk)).status).toBe(403)
  }, 120_000)
})
