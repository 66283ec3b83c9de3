import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 13 point 4 over real HTTP with authentication on, real people and enrolled devices: looking a lotto slip up by
 * its (sequential) receipt number never returns the bearer code, and the player's identity document only to the
 * roles that pay prizes. A kiosk may not look another player's slip up at all (403); an auditor reads it without
 * code or document; a copy of the receipt prints without its QR.
 */
const PASSWORD = 'correct horse battery'
const has = (cmd: string, arg: string) => spawnSync(cmd, [arg]).error === undefined
const tools = has('pdftotext', '-v') && has('zbarimg', '--version') && has('pdftoppm', '-v')

describe('lotto receipt lookups: no bearer code, the document only to those who pay prizes (issue 13 point 4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  let receipt = ''
  let next = ''
  let code = ''

  const call = (who: string, method: string, path: string) =>
    api(server.url, method, path, undefined, { authorization: auth.get(who)!, 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const
    for (const [username, displayName, role] of people) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    for (const [name, kind] of [
      ['kiosco', 'kiosk'],
      ['caja', 'cashier_station'],
    ] as const)
      auth.set(name, `Device ${(await server.services.auth.enrolDevice({ ...sealed(), kind, name })).credential}`)
    const created = await api(server.url, 'POST', '/api/lotto/draws', plan649(), { authorization: auth.get('jefa')! })
    expect(created.status).toBe(201)
    // Two players' slips, sold one after the other: their receipt numbers are consecutive.
    const a = await server.services.lotto.sellSlip({
      drawId: created.body.drawId,
      boards: [[3, 11, 19, 27, 38, 45]],
      player: { name: 'Ana Quispe Mamani', document: '4455667 LP' },
      channel: 'counter',
    })
    const b = await server.services.lotto.sellSlip({
      drawId: created.body.drawId,
      quickPicks: 1,
      player: { name: 'Luis Mamani Choque', document: '998877 CB' },
      channel: 'counter',
    })
    receipt = a.receiptNumber
    code = a.code
    next = b.receiptNumber
    expect(code).toMatch(/^BLL1\.L\./)
  })
  afterAll(async () => server?.cleanup())

  it("a kiosk cannot read another player's slip by its receipt number, nor print a copy of it (403)", async () => {
    for (const path of [
      `/api/lotto/slips/${next}`,
      `/api/lotto/slips/${receipt}`,
      `/api/lotto/slips/${next}/receipt.pdf`,
    ]) {
      const r = await call('kiosco', 'GET', path)
      expect(r.status, path).toBe(403)
      expect(r.body.error.code).toBe('FORBIDDEN')
      expect(JSON.stringify(r.body)).not.toMatch(/BLL1\.|998877|4455667/)
    }
  })

  it("an auditor reads the slip without the bearer code and without the player's document", async () => {
    const r = await call('auditor', 'GET', `/api/lotto/slips/${next}`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ receiptNumber: next, player: { name: 'Luis Mamani Choque', document: null } })
    expect(r.body.code).toBeUndefined()
    expect(JSON.stringify(r.body)).not.toMatch(/BLL1\.|998877/)
  })

  it('a cashier (person or station) sees the document, to pay the prize, but never the bearer code', async () => {
    for (const who of ['cajera', 'caja', 'jefa']) {
      const r = await call(who, 'GET', `/api/lotto/slips/${receipt}`)
      expect(r.status, who).toBe(200)
      expect(r.body.player).toEqual({ name: 'Ana Quispe Mamani', document: '4455667 LP' })
      expect(r.body.code).toBeUndefined()
      expect(JSON.stringify(r.body)).not.toContain(code)
      expect(JSON.stringify(r.body)).not.toMatch(/BLL1\./)
    }
  })

  it('a copy of the receipt is marked as a copy and carries no QR code', async (ctx) => {
    const res = await fetch(`${server.url}/api/lotto/slips/${receipt}/receipt.pdf`, {
      headers: { authorization: auth.get('auditor')! },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    if (!tools) {
      if (process.env.CI === 'true') throw new Error('pdftotext, pdftoppm and zbarimg are required under CI=true')
      ctx.skip()
    }
    const file = join(server.dataDir, 'copia.pdf')
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain('COPIA - NO VALIDA PARA EL COBRO')
    expect(text).toContain(receipt)
    expect(text).not.toContain('4455667')
    execFileSync('pdftoppm', ['-r', '150', '-singlefile', '-png', file, join(server.dataDir, 'copia')])
    const scan = spawnSync('zbarimg', ['-q', '--raw', join(server.dataDir, 'copia.png')], { encoding: 'utf8' })
    expect(scan.stdout.trim()).toBe('')
  })
})
