import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { api } from './server.ts'

/** Starts `command args` (a server entry point) and resolves with its URL once it printed its banner. */
export function startServerProcess(command: string, args: string[], env: Record<string, string>): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const url = new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 60_000)
    child.stdout!.on('data', (d) => {
      out += d
      const m = /Bolillo en (http:\/\/[\d.:]+)/.exec(out)
      if (m && out.includes('Salud')) { clearTimeout(timer); resolve(m[1]) }
    })
    child.stderr!.on('data', (d) => { out += d })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}: ${out}`)) })
  })
  return { child, url }
}

/**
 * README's promise for a fresh data directory: a working demo hall with authentication on (the default), one staff
 * account per role and enrolled demo devices. `health` is what /api/health must say besides `ok`.
 */
export async function checkDemoHall(url: string, dataDir: string, health: Record<string, unknown>): Promise<void> {
  expect((await api(url, 'GET', '/api/health')).body).toMatchObject({ ok: true, ...health })
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
  const creds = JSON.parse(readFileSync(`${dataDir}/demo-credentials.json`, 'utf8'))
  const kiosk = { authorization: `Device ${creds.devices.find((d: { kind: string }) => d.kind === 'kiosk').credential}` }
  expect((await api(url, 'POST', `/api/games/${gameId}/draw`, undefined, kiosk)).status).toBe(403)
}
