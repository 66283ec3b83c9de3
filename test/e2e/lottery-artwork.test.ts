import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, registerTombola } from '../helpers/lottery-plans.ts'
import { countPixels, rasterPage, solidPng } from '../helpers/png.ts'

/**
 * CFG-39, LOT-15 (9), (11) over real HTTP with authentication on: the lottery operator uploads the AJ logo and the
 * MAE's signature as PNG; the print shop's sheet of the next print run draws them. A file that is not a PNG, one
 * over the size limit, and a person without the lottery administration's permission are refused.
 */
const PASSWORD = 'correct horse battery'

describe('lottery ticket artwork: AJ logo and MAE signature uploaded as PNG and drawn on the sheet (CFG-39)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-artwork-'))
  let drawId = ''
  const call = (who: string, method: string, path: string, body?: unknown, lang = 'es') =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': lang })
  const logo = solidPng(60, 40, [230, 0, 0])
  const signature = solidPng(120, 30, [0, 0, 200])

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    for (const [username, displayName, role] of [
      ['loteria', 'Elena Mamani', 'lottery_operator'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    const plan = lotteryPlan({
      gameCode: 'LNBART',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 2,
      licensedMaxTickets: 1000,
      drawMethod: 'manual',
      drawDevice: await registerTombola(server.services),
      prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 }],
    })
    const created = await call('loteria', 'POST', '/api/lottery/draws', plan)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    drawId = created.body.drawId
  })
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    await server?.cleanup()
  })

  async function sheet(from: number, name: string) {
    const res = await fetch(`${server.url}/api/lottery/draws/${drawId}/print-runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth.get('loteria')! },
      body: JSON.stringify({ from, to: from, format: 'pdf' }),
    })
    expect(res.status).toBe(200)
    const file = join(dir, `${name}.pdf`)
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    return {
      raster: rasterPage(file, join(dir, name)),
      text: execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
    }
  }
  const red = (p: number[]) => p[0] > 200 && p[1] < 60 && p[2] < 60
  const blue = (p: number[]) => p[2] > 180 && p[0] < 60 && p[1] < 60
  const logoBox = { x0: 48 + 200, y0: 48 + 136, x1: 48 + 234, y1: 48 + 160 }
  const signatureBox = { x0: 48 + 10, y0: 48 + 153, x1: 48 + 180, y1: 48 + 167 }

  it('without images on record the sheet says so in Spanish, and draws no stand-in logo', async () => {
    const s = await sheet(0, 'before')
    expect(s.text).toContain('Logo AJ: imagen no registrada')
    expect(s.text).toContain('Firma de la MAE: imagen no registrada')
    expect(countPixels(s.raster, logoBox, red)).toBe(0)
    const status = await call('loteria', 'GET', '/api/lottery/artwork')
    expect(status.body.artwork).toEqual([
      { kind: 'aj-logo', onRecord: false },
      { kind: 'mae-signature', onRecord: false },
    ])
  })

  it('a cashier and an auditor cannot upload or list the artwork (403)', async () => {
    for (const who of ['cajera', 'auditor']) {
      const r = await call(who, 'PUT', '/api/lottery/artwork/aj-logo', { pngBase64: logo.toString('base64') })
      expect(r.status, who).toBe(403)
      expect(r.body.error.code).toBe('FORBIDDEN')
      expect((await call(who, 'GET', '/api/lottery/artwork')).status, who).toBe(403)
      expect((await call(who, 'GET', '/api/lottery/artwork/aj-logo')).status, who).toBe(403)
    }
  })

  it('a file that is not a PNG (by its header), or one over 128 KiB, is refused with a message in es and en', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(60)])
    // Signature right, IHDR wrong: the header is checked beyond the first eight bytes.
    const fakePng = Buffer.concat([logo.subarray(0, 12), Buffer.from('IDAT'), logo.subarray(16)])
    // Right signature and IHDR, image data that cannot be decoded: it would break every later sheet.
    const brokenBody = Buffer.concat([logo.subarray(0, 33), Buffer.from([0, 0, 0, 4]), Buffer.from('IDATjunk')])
    for (const bad of [jpeg, fakePng, Buffer.from('not an image at all'), brokenBody]) {
      const r = await call('loteria', 'PUT', '/api/lottery/artwork/aj-logo', { pngBase64: bad.toString('base64') })
      expect(r.status).toBe(415)
      expect(r.body.error.code).toBe('IMAGE_NOT_PNG')
      expect(r.body.error.message).toBe('La imagen debe ser un archivo PNG válido.')
    }
    // A real PNG with a large trailing chunk: valid header, too many bytes.
    const big = Buffer.concat([logo, Buffer.alloc(130 * 1024)])
    const es = await call('loteria', 'PUT', '/api/lottery/artwork/mae-signature', { pngBase64: big.toString('base64') })
    expect(es.status).toBe(413)
    expect(es.body.error.code).toBe('IMAGE_TOO_LARGE')
    expect(es.body.error.message).toMatch(/demasiado grande/)
    const en = await call(
      'loteria',
      'PUT',
      '/api/lottery/artwork/mae-signature',
      { pngBase64: big.toString('base64') },
      'en',
    )
    expect(en.body.error.message).toMatch(/too large/)
    expect((await call('loteria', 'PUT', '/api/lottery/artwork/other', { pngBase64: 'x' })).status).toBe(404)
    const status = await call('loteria', 'GET', '/api/lottery/artwork')
    expect(status.body.artwork.every((a: { onRecord: boolean }) => !a.onRecord)).toBe(true)
  })

  it('the lottery operator uploads both images; the next sheet draws them where the logo and signature go', async () => {
    const up = await call('loteria', 'PUT', '/api/lottery/artwork/aj-logo', { pngBase64: logo.toString('base64') })
    expect(up.status).toBe(200)
    expect(up.body).toMatchObject({ kind: 'aj-logo', width: 60, height: 40, bytes: logo.length })
    // The back office previews the image on record, byte for byte.
    const held = await call('loteria', 'GET', '/api/lottery/artwork/aj-logo')
    expect([held.status, held.body.pngBase64]).toEqual([200, logo.toString('base64')])
    expect((await call('loteria', 'GET', '/api/lottery/artwork/other')).status).toBe(404)
    const sig = await call('loteria', 'PUT', '/api/lottery/artwork/mae-signature', {
      pngBase64: signature.toString('base64'),
    })
    expect(sig.status).toBe(200)
    const s = await sheet(1, 'after')
    expect(countPixels(s.raster, logoBox, red)).toBeGreaterThan(600)
    expect(countPixels(s.raster, signatureBox, blue)).toBeGreaterThan(600)
    expect(s.text).not.toContain('no registrada')
    // The upload is journaled with the image's digest.
    const j = await server.services.db.transaction((tx) =>
      tx.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'lottery.artwork_uploaded'"),
    )
    expect(j.map((r) => JSON.parse(r.payload).kind).sort()).toEqual(['aj-logo', 'mae-signature'])
  })
})
