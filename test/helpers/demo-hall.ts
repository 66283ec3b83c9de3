import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { api } from './server.ts'
import { countOf } from './cash.ts'

/** Starts `command args` (a server entry point) and resolves with its URL once it printed its banner. */
export function startServerProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const url = new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 60_000)
    child.stdout!.on('data', (d) => {
      out += d
      const m = /Bolillo en (http:\/\/[\d.:]+)/.exec(out)
      if (m && out.includes('Salud')) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.stderr!.on('data', (d) => {
      out += d
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code}: ${out}`))
    })
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
  // Issue 27: a mixed game, 40 paper cards and 3 virtual cards held by the demo's Terminal 2.
  expect(state).toMatchObject({ status: 'on_sale', cardsSold: 43 })

  // One account per role the hall and the regulator need (issue 29: the lottery operator, the compliance officer
  // and the inspector too), each logging in with the published password as that role.
  const roles: Record<string, string> = {}
  for (const username of JSON.parse(readFileSync(`${dataDir}/demo-credentials.json`, 'utf8')).users as string[]) {
    const token = (await api(url, 'POST', '/api/auth/login', { username, password: 'bolillo-demo' })).body.token
    roles[username] = (await api(url, 'GET', '/api/me', undefined, { authorization: `Bearer ${token}` })).body.role
  }
  expect(roles).toMatchObject({
    director: 'director',
    jefe: 'floor_manager',
    locutor: 'caller',
    cajero: 'cashier',
    auditor: 'auditor',
    regulador: 'regulator',
    loterias: 'lottery_operator',
    cumplimiento: 'aml_officer',
    inspector: 'inspector',
  })

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
  const kiosk = {
    authorization: `Device ${creds.devices.find((d: { kind: string }) => d.kind === 'kiosk').credential}`,
  }
  expect((await api(url, 'POST', `/api/games/${gameId}/draw`, undefined, kiosk)).status).toBe(403)
  // Issue 27: the demo's two enrolled terminals; the second holds a session with its three virtual cards.
  const terminals = creds.devices.filter((d: { kind: string }) => d.kind === 'terminal')
  expect(terminals).toHaveLength(2)
  const t2 = await api(url, 'GET', '/api/terminal/state', undefined, {
    authorization: `Device ${terminals[1].credential}`,
  })
  expect(t2.status).toBe(200)
  expect(t2.body.session).toMatchObject({ status: 'open', balanceCents: 500 })
  expect(t2.body.game.cards).toHaveLength(3)

  await checkDemoProductLines(url, creds)
}

/**
 * Issue 17 point 3: a fresh demo sells every product line (a lotto draw on sale now, a numbered lottery issue, an
 * instant game whose packs are activated at the demo kiosk and cashier, an on-screen one), and `/` is a launcher
 * that opens the kiosk, the cashier and the display as the demo's enrolled devices.
 */
export async function checkDemoProductLines(
  url: string,
  creds: { devices: Array<{ kind: string; name: string; credential: string }> },
): Promise<void> {
  const lotto = (await api(url, 'GET', '/api/lotto/draws')).body.draws
  expect(lotto.length).toBeGreaterThan(0)
  const onSale = lotto.find(
    (d: any) =>
      d.status === 'open' &&
      Date.parse(d.plan.salesStartAt) <= Date.now() &&
      Date.now() < Date.parse(d.plan.salesCloseAt),
  )
  expect(onSale, 'a lotto draw on sale now').toBeTruthy()
  // Written in the hall's zone (La Paz under the default profile), not UTC.
  expect(onSale.plan.drawAt).toMatch(/-04:00$/)
  const lottery = (await api(url, 'GET', '/api/lottery/draws')).body.draws
  const issue = lottery.find((d: any) => d.product === 'lottery' && d.status === 'open')
  expect(issue, 'a numbered lottery issue on sale').toBeTruthy()
  // Its register: fractions printed and distributed to the demo kiosk and the demo cashier station.
  const director = {
    authorization: `Bearer ${(await api(url, 'POST', '/api/auth/login', { username: 'director', password: 'bolillo-demo' })).body.token}`,
  }
  const register = await api(url, 'GET', `/api/lottery/draws/${issue.drawId}/register`, undefined, director)
  expect(register.status).toBe(200)
  const registerText = JSON.stringify(register.body)
  for (const d of creds.devices.filter((x) => x.kind === 'kiosk' || x.kind === 'cashier_station'))
    expect(registerText).toContain(d.credential.split('.')[0])
  const games = (await api(url, 'GET', '/api/instant/games')).body.games
  expect(games.map((g: any) => g.channel).sort()).toEqual(['electronic', 'printed'])

  const device = (kind: string) => creds.devices.find((d) => d.kind === kind)!
  // The demo cashier logs in at the demo's Caja 1, opens her shift and sells a credit voucher; the kiosk spends it
  // on a lotto slip and an on-screen instant ticket (no draw refused as "nothing on sale"; issue 13: no value
  // without a payment, so the kiosk sells only against a voucher).
  const login = await api(
    url,
    'POST',
    '/api/auth/login',
    { username: 'cajero', password: 'bolillo-demo' },
    { authorization: `Device ${device('cashier_station').credential}` },
  )
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  const asCashier = { authorization: `Bearer ${login.body.token}` }
  expect((await api(url, 'POST', '/api/shifts', { floatCents: 10_000 }, asCashier)).status).toBe(201)
  const voucher = await api(
    url,
    'POST',
    '/api/vouchers',
    { hallId: 'demo', amountCents: 2000, cash: countOf(2000) },
    asCashier,
  )
  expect(voucher.status, JSON.stringify(voucher.body)).toBe(201)
  const electronic = games.find((g: any) => g.channel === 'electronic')
  const asKiosk = { authorization: `Device ${device('kiosk').credential}` }
  const bought = await api(
    url,
    'POST',
    '/api/kiosk/purchases',
    {
      voucherCode: voucher.body.voucher.shortCode ?? voucher.body.voucher.code,
      ageConfirmed: true,
      slips: [{ drawId: onSale.drawId, quickPicks: 1, player: { name: 'Ana Quispe', document: '4455667 LP' } }],
      instant: { gameNo: electronic.gameNo, count: 1 },
    },
    asKiosk,
  )
  expect(bought.status, JSON.stringify(bought.body)).toBe(201)
  // Bs 5 the slip, Bs 10 the instant ticket: Bs 5 left on the change voucher.
  expect(bought.body.change?.amountCents).toBe(500)

  const page = await fetch(url + '/')
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('<html lang="es">')
  for (const name of [
    'Quiosco de venta',
    'Caja',
    'Pantalla de sala',
    'Consola del locutor',
    'Lotto',
    'Raspadita en pantalla',
  ])
    expect(html).toContain(name)
  const href = (id: string) =>
    new URLSearchParams(
      (new RegExp(`href="([^"]+)" data-testid="launch-${id}"`).exec(html)?.[1] ?? '')
        .replace(/&amp;/g, '&')
        .split('?')[1] ?? '',
    )
  expect(href('kiosk').get('device')).toBe(device('kiosk').credential)
  expect(href('cashier').get('device')).toBe(device('cashier_station').credential)
  expect(href('display').get('device')).toBe(device('display').credential)
  expect(href('caller').get('device')).toBeNull()
  expect(html).not.toMatch(/device-failure|game\.read|hall\.admin/)
}
