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

  await checkDemoProductLines(url, creds)
}

/**
 * Issue 17 point 3: a fresh demo sells every product line (a lotto draw on sale now, a numbered lottery issue, an
 * instant game whose packs are activated at the demo kiosk and cashier, an on-screen one), and `/` is a launcher
 * that opens the kiosk, the cashier and the display as the demo's enrolled devices.
 */
export async function checkDemoProductLines(url: string, creds: { devices: Array<{ kind: string; name: string; credential: string }> }): Promise<void> {
  const lotto = (await api(url, 'GET', '/api/lotto/draws')).body.draws
  expect(lotto.length).toBeGreaterThan(0)
  const onSale = lotto.find((d: any) => d.status === 'open' && Date.parse(d.plan.salesStartAt) <= Date.now() && Date.now() < Date.parse(d.plan.salesCloseAt))
  expect(onSale, 'a lotto draw on sale now').toBeTruthy()
  // Written in the hall's zone (La Paz under the default profile), not UTC.
  expect(onSale.plan.drawAt).toMatch(/-04:00$/)
  const lottery = (await api(url, 'GET', '/api/lottery/draws')).body.draws
  expect(lottery.filter((d: any) => d.product === 'lottery' && d.status === 'open').length).toBeGreaterThan(0)
  const games = (await api(url, 'GET', '/api/instant/games')).body.games
  expect(games.map((g: any) => g.channel).sort()).toEqual(['electronic', 'printed'])

  const device = (kind: string) => creds.devices.find((d) => d.kind === kind)!
  // The kiosk sells a lotto slip (no draw refused as "nothing on sale") and an on-screen instant ticket.
  const asKiosk = { authorization: `Device ${device('kiosk').credential}` }
  const slip = await api(url, 'POST', `/api/lotto/draws/${onSale.drawId}/slips`, { quickPicks: 1, player: { name: 'Ana Quispe', document: '4455667 LP' }, channel: 'kiosk:1' }, asKiosk)
  expect(slip.status, JSON.stringify(slip.body)).toBe(201)
  const electronic = games.find((g: any) => g.channel === 'electronic')
  const sold = await api(url, 'POST', '/api/instant/halls/demo/electronic', { gameNo: electronic.gameNo, stationId: 'kiosk-1' }, asKiosk)
  expect(sold.status, JSON.stringify(sold.body)).toBe(201)

  const page = await fetch(url + '/')
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('<html lang="es">')
  for (const name of ['Quiosco de venta', 'Caja', 'Pantalla de sala', 'Consola del locutor', 'Lotto', 'Raspadita en pantalla']) expect(html).toContain(name)
  const href = (id: string) => new URLSearchParams((new RegExp(`href="([^"]+)" data-testid="launch-${id}"`).exec(html)?.[1] ?? '').replace(/&amp;/g, '&').split('?')[1] ?? '')
  expect(href('kiosk').get('device')).toBe(device('kiosk').credential)
  expect(href('cashier').get('device')).toBe(device('cashier_station').credential)
  expect(href('display').get('device')).toBe(device('display').credential)
  expect(href('caller').get('device')).toBeNull()
  expect(html).not.toMatch(/device-failure|game\.read|hall\.admin/)
}
