import { execFileSync, spawnSync } from 'node:child_process'
import { createHash, createPublicKey, verify } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/src/config.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions, printShopDirOf, type PrintedFraction } from '../helpers/lottery-print.ts'
import { lotteryPlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * LOT-26 (AUDIT LOT-26): a print run's payable codes go to the secure printer's outbox only. Over real HTTP with
 * authentication on: every answer of the lottery administration's routes, the PDF the back office downloads and the
 * journal's rows are scanned for every code of the runs (as whole tokens) and hold none; the file set written for
 * the print shop holds them all, its digest is the one the answer named and its manifest is signed by the operator
 * key; no director, lottery operator, cashier or cashier station fetches it over HTTP; a code from the file is
 * judged by the server when the fraction is presented.
 */
const PASSWORD = 'correct horse battery'

describe('LOT-26: lottery print runs go to the secure printer only', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  /** Every HTTP answer of the test, as received (JSON text or PDF text). */
  const answers: Array<{ what: string; text: string }> = []
  let drawId = ''
  let sellerId = ''

  const call = async (who: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { 'content-type': 'application/json', authorization: auth.get(who)!, 'accept-language': 'es' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const bytes = Buffer.from(await res.arrayBuffer())
    const type = res.headers.get('content-type') ?? ''
    const text = type.includes('application/pdf') ? pdfText(bytes) : bytes.toString('utf8')
    answers.push({ what: `${who} ${method} ${path} -> ${res.status}`, text: text + JSON.stringify([...res.headers]) })
    return { status: res.status, text, headers: res.headers, body: type.includes('json') ? JSON.parse(text) : null }
  }
  const pdfFiles: string[] = []
  const pdfText = (bytes: Buffer) => {
    const file = join(server.dataDir, `answer-${answers.length}.pdf`)
    writeFileSync(file, bytes)
    pdfFiles.push(file)
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
  }
  /** Whether `token` occurs in `text` as a whole token (not inside a longer code-like run of characters). */
  const hasToken = (text: string, token: string) => {
    const at = (i: number) => (i < 0 || i >= text.length ? ' ' : text[i])
    const part = /[A-Za-z0-9_\-.]/
    for (let i = text.indexOf(token); i >= 0; i = text.indexOf(token, i + 1))
      if (!part.test(at(i - 1)) && !part.test(at(i + token.length))) return true
    return false
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2)
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['operador', 'Jorge Condori', 'lottery_operator'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    const hall = await api(
      server.url,
      'POST',
      '/api/halls',
      { name: 'Sala Illimani', profileId: 'BO-2025', playingPositions: 200 },
      { authorization: auth.get('jefa')! },
    )
    expect(hall.status).toBe(201)
    const station = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Agencia Norte',
      hallId: hall.body.id,
    })
    auth.set('caja', `Device ${station.credential}`)
    sellerId = station.id
    const created = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        gameCode: 'LNBIMP',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 2,
        licensedMaxTickets: 1000,
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services),
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 }],
      }),
    )
    expect(created.status).toBe(201)
    drawId = created.body.drawId
  })
  afterAll(async () => server?.cleanup())

  it('LOT-26: no payable code leaves by HTTP', async () => {
    // A run as JSON by the director, one as the back office's PDF by the lottery operator, a reprint with a reason.
    const json = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 9 })
    expect(json.status).toBe(201)
    expect(json.body).toMatchObject({
      runNo: 1,
      from: 0,
      to: 9,
      seriesFrom: 1,
      seriesTo: 1,
      printed: 20,
      reprinted: 0,
      printFile: { folder: `lottery-${drawId}-T1`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    expect(json.body).not.toHaveProperty('tickets')
    const pdf = await call('operador', 'POST', `/api/lottery/draws/${drawId}/print-runs`, {
      from: 10,
      to: 14,
      format: 'pdf',
    })
    expect(pdf.status).toBe(200)
    expect(pdf.text).toContain('Control 10-01-01 T2')
    expect(pdf.text).toContain('imprenta segura')
    // Nor as a QR: the served sheet's first page has none (the secure printer's sheet has one per fraction).
    const qrIn = (file: string) => {
      const png = join(server.dataDir, `qr-${pdfFiles.length}-${file.length}`)
      execFileSync('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-singlefile', '-png', file, png])
      return spawnSync('zbarimg', ['-q', '--raw', `${png}.png`], { encoding: 'utf8' }).stdout.trim()
    }
    expect(qrIn(pdfFiles.at(-1)!)).toBe('')
    const printerSheet = join(printShopDirOf(server), `lottery-${drawId}-T2`, `sheet-${drawId}-T2.pdf`)
    expect(qrIn(printerSheet).split('\n')).toContainEqual(
      expect.stringMatching(/^BLL1\.T\.ltr_[a-z0-9]+-10-01-01-r2-[0-9a-f]{16}\./),
    )
    const reprint = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, {
      from: 3,
      to: 3,
      reason: 'billete dañado en imprenta',
    })
    expect(reprint.body).toMatchObject({ runNo: 3, printed: 2, reprinted: 2 })
    expect(
      (await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, { from: 0, to: 9, sellerId })).status,
    ).toBe(201)
    // The other answers of the lottery administration's routes about this draw.
    for (const [who, path] of [
      ['jefa', `/api/lottery/draws/${drawId}`],
      ['jefa', '/api/lottery/draws?product=lottery'],
      ['jefa', `/api/lottery/draws/${drawId}/register`],
      ['auditor', `/api/lottery/draws/${drawId}/register`],
      ['jefa', `/api/lottery/draws/${drawId}/reissues`],
      ['jefa', `/api/lottery/draws/${drawId}/lost-stolen`],
      ['jefa', '/api/lottery/sellers'],
      ['auditor', '/api/journal?limit=1000'],
    ])
      expect((await call(who, 'GET', path)).status, path).toBe(200)

    // The secure printer's file set: every code of the three runs, the digest the answers named, a signed manifest.
    const runs: Array<{ runNo: number; printFile: { folder: string; name: string; sha256: string } }> = [
      json.body,
      {
        runNo: 2,
        printFile: {
          folder: `lottery-${drawId}-T2`,
          name: `fractions-${drawId}-T2.csv`,
          sha256: pdf.headers.get('x-print-file-sha256')!,
        },
      },
      reprint.body,
    ]
    const printed: PrintedFraction[] = runs.flatMap((r) => printedFractions(server, r))
    expect(printed.map((f) => f.printRun)).toEqual([...Array(20).fill(1), ...Array(10).fill(2), 3, 3])
    const codes = printed.map((f) => f.code)
    expect(new Set(codes).size).toBe(32)
    for (const c of codes)
      expect(c).toMatch(/^BLL1\.T\.ltr_[a-z0-9]+-\d\d-01-0[12]-r[123]-[0-9a-f]{16}\.[A-Za-z0-9_-]+$/)
    const operatorKey = createPublicKey((await call('jefa', 'GET', '/api/keys')).body.publicKeyPem)
    for (const r of runs) {
      const dir = join(printShopDirOf(server), r.printFile.folder)
      const manifestText = readFileSync(join(dir, 'manifest.json'), 'utf8')
      const manifest = JSON.parse(manifestText)
      expect(manifest).toMatchObject({ format: 'bolillo-lottery-print-run-v1', drawId, runNo: r.runNo })
      expect(manifest.files[0]).toMatchObject({ name: r.printFile.name, sha256: r.printFile.sha256 })
      for (const f of manifest.files)
        expect(
          createHash('sha256')
            .update(readFileSync(join(dir, f.name)))
            .digest('hex'),
        ).toBe(f.sha256)
      const signature = Buffer.from(readFileSync(join(dir, 'manifest.sig'), 'utf8').trim(), 'base64url')
      expect(verify(null, Buffer.from(manifestText), operatorKey, signature)).toBe(true)
      expect(statSync(join(dir, r.printFile.name)).mode & 0o077).toBe(0)
    }
    // The print shop checks a folder with the same command as an instant batch's print files.
    const checked = spawnSync(
      process.execPath,
      ['bin/bolillo.mjs', 'instant', 'verify', join(printShopDirOf(server), `lottery-${drawId}-T2`)],
      { encoding: 'utf8', env: { ...process.env, DATA_DIR: server.dataDir, BOLILLO_SEED_DEMO: 'true' } },
    )
    expect(checked.stdout + checked.stderr).toContain('OK: 2 files match manifest.json, signature verifies')
    // The PDF run's folder also has the print-ready sheet; the run asked as JSON has the codes file only.
    expect(readdirSync(join(printShopDirOf(server), `lottery-${drawId}-T2`)).sort()).toEqual([
      `fractions-${drawId}-T2.csv`,
      'manifest.json',
      'manifest.sig',
      `sheet-${drawId}-T2.pdf`,
    ])

    // A director, a lottery operator, a cashier or a cashier station asking for the file over HTTP gets no code.
    const folder = json.body.printFile.folder
    const name = json.body.printFile.name
    for (const who of ['jefa', 'operador', 'cajera', 'caja'])
      for (const path of [
        `/api/lottery/draws/${drawId}/print-runs/1`,
        `/api/lottery/draws/${drawId}/print-runs/1/file`,
        `/api/lottery/draws/${drawId}/print-runs/${name}`,
        `/api/lottery/print-runs/${folder}/${name}`,
        `/${folder}/${name}`,
        `/print-shop/${folder}/${name}`,
        `/admin/..%2f..%2f${folder}%2f${name}`,
      ]) {
        const r = await call(who, 'GET', path)
        // An /api path is unknown (404); any other is the screens' page at most, never the file (its codes are
        // looked for below, with every other answer).
        if (path.startsWith('/api/')) expect([401, 403, 404], `${who} ${path}`).toContain(r.status)
        expect(r.text, `${who} ${path}`).not.toContain('print_run,design_version')
      }

    // Every HTTP answer of the test (JSON, PDF text, headers) and every journal row: no code, no code's signature.
    const rows = await server.services.db.all<{ type: string; payload: string }>('SELECT type, payload FROM journal')
    expect(rows.some((r) => r.type === 'lottery.print_run')).toBe(true)
    const printRunRows = rows.filter((r) => r.type === 'lottery.print_run').map((r) => JSON.parse(r.payload))
    expect(printRunRows.map((p) => p.printFileSha256)).toEqual(runs.map((r) => r.printFile.sha256))
    const places = [...answers, ...rows.map((r) => ({ what: `journal ${r.type}`, text: r.payload }))]
    expect(answers.length).toBeGreaterThan(35)
    for (const code of codes)
      for (const token of [code, code.split('.')[3]])
        for (const p of places) expect(hasToken(p.text, token), `${token} in ${p.what}`).toBe(false)

    // The holder's paper (a code of the file) is judged by the server on presentation: distributed, not yet drawn.
    const judged = await call('caja', 'POST', '/api/tickets/validate', { code: printed[0].code })
    expect(judged.status).toBe(200)
    expect(judged.body.outcome).toBe('PENDING')
  })

  it('LOT-26: the print-shop outbox never lies inside DATA_DIR (its copies and backups would carry the codes)', () => {
    expect(loadConfig({ DATA_DIR: '/srv/bolillo' }).printShopDir).toBe('/srv/bolillo-print-shop')
    expect(loadConfig({ DATA_DIR: '/srv/bolillo', BOLILLO_PRINT_SHOP_DIR: '/srv/imprenta' }).printShopDir).toBe(
      '/srv/imprenta',
    )
    expect(() => loadConfig({ DATA_DIR: '/srv/bolillo', BOLILLO_PRINT_SHOP_DIR: '/srv/bolillo/imprenta' })).toThrow(
      /BOLILLO_PRINT_SHOP_DIR=\/srv\/bolillo\/imprenta lies inside DATA_DIR/,
    )
  })
})
