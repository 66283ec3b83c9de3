import { execFile } from 'node:child_process'
import { createHash, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  PASSWORD,
  startRulesServer,
  TEST_PLAN,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { playToTheEnd } from '../helpers/cashdesk.ts'
import { plan649, registerLottoBallSets } from '../helpers/lottery-plans.ts'
import { api } from '../helpers/server.ts'
import { checkExport, canonical, type CheckReport } from '../../server/src/regulator-check/check.ts'

/**
 * Issue 28 over real HTTP with authentication on: a night of bingo (two games played to the end, one suspended by an
 * incident and annulled with refund) and a lotto draw are derived into control records, closed into signed,
 * hash-chained batches every 15 minutes, read by the hall's regulator account and exported; the independent checker
 * passes the export. Then, each in its own copy: one record altered, one batch removed, one amount changed (by
 * someone holding the operator's key: the checker recomputes the prize split and the daily totals itself), one batch
 * re-signed with another key. Each is caught with a message naming it.
 */
describe('the regulator control feed and its independent checker (issue 28)', () => {
  let s: RulesServer
  let hallId = ''
  let otherHallId = ''
  let exportDir = ''
  const work = mkdtempSync(join(tmpdir(), 'bolillo-regfeed-'))
  let report: CheckReport
  let publishedBeforeDraw: { status: number; body: any }
  let regulatorBeforeDraw: { status: number; body: any }
  let lottoDrawId = ''
  const regulator = async (username: string) => ({
    authorization: `Bearer ${(await s.server.services.auth.login(username, PASSWORD)).token}`,
    'accept-language': 'es',
  })

  beforeAll(async () => {
    // 10:00 in La Paz, inside plan649's sales window.
    s = await startRulesServer('2025-03-05T14:00:00.000Z', { selfVerification: true, regulatorIntervalMs: 0 })
    const hall = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Illimani',
      seed: 'regulator-feed',
      cards: 300,
    })
    hallId = hall.hallId
    // An accumulated pot of the hall (RNG-18): 3 % of each game's takings, won by a bingo within 90 balls.
    const pot = await s.call('jefa', 'POST', '/api/pots', {
      name: 'Pozo acumulado Illimani',
      kind: 'progressive',
      contributionBp: 300,
      condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [hallId],
      authorisationRef: 'AJ/DE/RA/0601/2025',
    })
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    const other = await s.call('jefa', 'POST', '/api/halls', {
      name: 'Sala Sucre',
      profileId: 'BO-2025',
      playingPositions: 100,
      bettingPlan: TEST_PLAN,
    })
    expect(other.status).toBe(201)
    otherHallId = other.body.id
    const { auth } = s.server.services
    await auth.createUser({
      username: 'regulador',
      displayName: 'Inspección AJ La Paz',
      role: 'regulator',
      password: PASSWORD,
      halls: [hallId],
    })
    await auth.createUser({
      username: 'regsucre',
      displayName: 'Inspección AJ Sucre',
      role: 'regulator',
      password: PASSWORD,
      halls: [otherHallId],
    })
    const tick = () => s.server.services.regulator.tick()
    const later = async (minutes: number) => {
      await s.at(new Date(s.now().getTime() + minutes * 60_000).toISOString())
      await tick()
    }

    // Bingo: game 1 to the end, game 2 suspended and annulled (BNG-80 incident), game 3 to the end; 20 minutes apart,
    // so that each game's records travel in a batch of its own (closed 15 minutes after its first record).
    const sessionId = await openSession(s, hallId)
    const g1 = await gameOnSale(s, sessionId, [hall.seriesId], 40)
    await playToTheEnd(s.server.services, g1.gameId)
    await later(1)
    await later(20)
    const g2 = await gameOnSale(s, sessionId, [hall.seriesId], 20)
    await voidBeforeFirstBall(s, g2.gameId)
    await later(1)
    await later(20)
    const g3 = await gameOnSale(s, sessionId, [hall.seriesId], 30)
    await playToTheEnd(s.server.services, g3.gameId)
    await later(1)
    await later(20)

    // Lotto: a draw by the registered tómbola, sold, closed, drawn and settled.
    const tombola = await s.call('jefa', 'POST', '/api/devices', {
      id: 'tombola-7',
      kind: 'blower',
      name: 'Tómbola de sorteos',
      sealCode: 'AJ-T-0007',
      certificateId: 'AJ-CERT-2024-07',
    })
    expect(tombola.status).toBe(201)
    const draw = await s.call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'REGF', drawMethod: 'manual', drawDevice: 'AJ-T-0007' }),
    )
    expect(draw.status, JSON.stringify(draw.body)).toBe(201)
    const drawId = draw.body.drawId as string
    for (const boards of [
      [[1, 2, 3, 4, 5, 6]],
      [[1, 2, 3, 4, 5, 40]],
      [[1, 2, 3, 30, 31, 32]],
      [[20, 21, 22, 23, 24, 25]],
    ]) {
      await s.server.services.lotto.sellSlip({
        drawId,
        boards,
        player: { name: 'Ana Quispe', document: '445566 LP' },
        channel: 'counter',
      })
    }
    // Issue 28 point 3: nothing to publish while sales are open.
    const early = await api(s.server.url, 'GET', `/api/lotto/draws/${drawId}/close-of-sales`)
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('ILLEGAL_TRANSITION')
    await s.at('2025-03-08T20:05:00-04:00')
    expect((await s.call('jefa', 'POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
    // Published at once, before any ball: to anyone, and to the regulator through its own door.
    publishedBeforeDraw = await api(s.server.url, 'GET', `/api/lotto/draws/${drawId}/close-of-sales`)
    regulatorBeforeDraw = await api(
      s.server.url,
      'GET',
      `/api/regulator/lotto/${drawId}/close-of-sales`,
      undefined,
      await regulator('regsucre'),
    )
    lottoDrawId = drawId
    await registerLottoBallSets(s.server.services) // LNS-9: the set and reserve the balls come from
    await s.at('2025-03-08T20:40:00-04:00')
    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await s.call('jefa', 'POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
    const settled = await s.call('jefa', 'POST', `/api/lotto/draws/${drawId}/settle`)
    expect(settled.status, JSON.stringify(settled.body)).toBe(200)
    // The next morning: the days before have ended, their totals are due.
    await s.at('2025-03-09T12:00:00-04:00')
    await tick()
    exportDir = join(work, 'export')
    await s.server.services.regulator.exportTo(exportDir)
    report = checkExport(exportDir, { publicKeyPem: s.server.services.keys.publicInfo().publicKeyPem })
  }, 120_000)
  afterAll(async () => {
    await s?.server.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it('the export of the night passes the independent checker, which recomputed every game, draw and daily total', () => {
    expect(report.differences).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.games).toBe(3)
    expect(report.draws).toBe(1)
    // Bingo on 5 March in the hall, lotto on 8 March for the operator.
    expect(report.totals).toBe(2)
    expect(report.chains.sort()).toEqual([hallId, otherHallId, 'operator'].sort())
    // The hall's records came in several batches, closed by the 15-minute rule.
    expect(readdirSync(join(exportDir, hallId)).length).toBeGreaterThanOrEqual(3)
  })

  it('each bingo game record carries the envelope and the facts of the minutes: winners with their extraction, balls, beacon, incidents', () => {
    const records = readdirSync(join(exportDir, hallId)).flatMap((f) =>
      readFileSync(join(exportDir, hallId, f), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l)),
    )
    const games = records.filter((r) => r.type === 'bingo.game')
    expect(games.map((g) => [g.data.gameNo, g.data.status])).toEqual([
      [1, 'finished'],
      [2, 'void'],
      [3, 'finished'],
    ])
    const g1 = games[0]
    expect(g1).toMatchObject({
      schema: 'bolillo-control-v1',
      hall: hallId,
      part: 1,
      parts: 1,
      replaces: null,
      zone: 'America/La_Paz',
    })
    expect(g1.at).toMatch(/-04:00$/)
    expect(g1.batch).toMatch(new RegExp(`^${hallId}-b\\d+$`))
    expect(g1.data).toMatchObject({
      cardsSold: 40,
      faceValueCents: 500,
      collectedCents: 20_000,
      poolsCents: { line: 2000, bingo: 10_200 },
      beacon: { round: expect.any(Number) },
    })
    expect(g1.data.prizes.find((p: any) => p.kind === 'bingo').winners[0]).toEqual({
      serial: expect.any(String),
      atBall: expect.any(Number),
      amountCents: expect.any(Number),
    })
    expect(g1.data.balls.length).toBeGreaterThan(10)
    expect(games[1].data.incidents.map((i: any) => i.kind)).toEqual([
      'device-failure-before-first-ball',
      'unresolved-suspension',
    ])
    expect(games[1].data).toMatchObject({ refundedCards: 20, refundCents: 10_000 })
    // The close-of-sales parts: every card of game 1 with its numbers.
    const cards = records.filter((r) => r.type === 'bingo.cards' && r.data.gameId === g1.data.gameId)
    expect(cards.flatMap((c) => c.data.cards)).toHaveLength(40)
    // Significant events: the hall's configuration and its devices.
    expect(records.filter((r) => r.type === 'event.significant').map((r) => r.data.kind)).toContain('device')
  })

  it('bingo games carry their pot movements, and the daily totals the increases, decreases and the tax base (issue 28 point 2)', () => {
    const records = readdirSync(join(exportDir, hallId)).flatMap((f) =>
      readFileSync(join(exportDir, hallId, f), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l)),
    )
    const games = records.filter((r) => r.type === 'bingo.game')
    const moves = games.map((g) => g.data.potMovements.map((m: any) => [m.direction, m.amountCents, m.event]))
    // 3 % of 200.00 and of 150.00 paid in; each game's bingo, within 90 balls, takes the pot. The annulled game
    // had drawn no ball: nothing was paid in.
    expect(moves).toEqual([
      [
        ['increase', 600, 'pot.contributed'],
        ['decrease', 600, 'pot.awarded'],
      ],
      [],
      [
        ['increase', 450, 'pot.contributed'],
        ['decrease', 450, 'pot.awarded'],
      ],
    ])
    const day = records.find((r) => r.type === 'totals.daily')
    expect(day.data).toMatchObject({
      product: 'bingo',
      events: 3,
      potIncreasesCents: 1050,
      potDecreasesCents: 1050,
      taxBasis: 'gross-gaming-revenue',
      taxBaseCents: day.data.grossGamingRevenueCents,
    })
  })

  it("the server's self-verification at start (digest of its code and configuration) reaches the regulator as a significant event", async () => {
    const records = readdirSync(join(exportDir, 'operator')).flatMap((f) =>
      readFileSync(join(exportDir, 'operator', f), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l)),
    )
    const self = records.filter((r) => r.type === 'event.significant' && r.data.kind === 'self-verification')
    expect(self).toHaveLength(1)
    expect(self[0].data.details).toMatchObject({
      reason: 'start',
      codeSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      configSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      changed: false,
    })
    expect(self[0].data.details.files).toBeGreaterThan(100)
    const state = await api(s.server.url, 'GET', '/api/regulator/state', undefined, await regulator('regulador'))
    expect(state.status).toBe(200)
    expect(state.body.selfVerification).toMatchObject({
      codeSha256: self[0].data.details.codeSha256,
      at: '2025-03-05T14:00:00.000Z',
    })
    expect(state.body.chains.map((c: any) => c.chain).sort()).toEqual([hallId, 'operator'].sort())
    expect(state.body).toMatchObject({ verified: true, broken: [] })
    expect((await api(s.server.url, 'GET', '/api/regulator/state', undefined, s.headers('cajera'))).status).toBe(403)
  })

  it("the hall's regulator reads its batches; another hall's regulator and a cashier do not", async () => {
    const mine = await api(
      s.server.url,
      'GET',
      '/api/regulator/batches?since=2025-01-01T00:00:00Z',
      undefined,
      await regulator('regulador'),
    )
    expect(mine.status).toBe(200)
    expect(mine.body.chains.sort()).toEqual([hallId, 'operator'].sort())
    expect(mine.body.batches.some((b: any) => b.header.chain === hallId)).toBe(true)
    // The same bytes as the export.
    const first = mine.body.batches.find((b: any) => b.header.chain === hallId && b.header.seq === 1)
    expect(
      [JSON.stringify({ header: first.header, hash: first.hash, signature: first.signature }), ...first.lines].join(
        '\n',
      ) + '\n',
    ).toBe(readFileSync(join(exportDir, hallId, '000001.jsonl'), 'utf8'))
    // `since` pages forward.
    const after = await api(
      s.server.url,
      'GET',
      `/api/regulator/batches?since=${encodeURIComponent(mine.body.next)}`,
      undefined,
      await regulator('regulador'),
    )
    expect(after.body.batches).toEqual([])
    const sucre = await regulator('regsucre')
    const theirs = await api(s.server.url, 'GET', '/api/regulator/batches', undefined, sucre)
    expect(theirs.status).toBe(200)
    // Its own hall's chain (the hall's creation is a significant event) and the operator's; never Illimani's.
    expect(theirs.body.chains.sort()).toEqual([otherHallId, 'operator'].sort())
    expect(theirs.body.batches.length).toBeGreaterThan(0)
    expect(theirs.body.batches.filter((b: any) => b.header.chain === hallId)).toEqual([])
    const asked = await api(s.server.url, 'GET', `/api/regulator/batches?hallId=${hallId}`, undefined, sucre)
    expect(asked.status).toBe(403)
    expect(asked.body.error.code).toBe('WRONG_HALL')
    const cashier = await api(s.server.url, 'GET', '/api/regulator/batches', undefined, s.headers('cajera'))
    expect(cashier.status).toBe(403)
    expect((await api(s.server.url, 'GET', '/api/regulator/batches')).status).toBe(401)
    const bad = await api(
      s.server.url,
      'GET',
      '/api/regulator/batches?since=ayer',
      undefined,
      await regulator('regulador'),
    )
    expect(bad.status).toBe(400)
    // Read only: there is no way to write through the feed.
    expect((await api(s.server.url, 'POST', '/api/regulator/batches', {}, await regulator('regulador'))).status).toBe(
      404,
    )
  })

  it('a closed batch cannot be rewritten in the database', async () => {
    await expect(s.server.services.db.run("UPDATE regulator_batches SET content = 'x' WHERE seq = 1")).rejects.toThrow(
      /append-only/,
    )
    await expect(s.server.services.db.run('DELETE FROM regulator_batches')).rejects.toThrow(/append-only/)
  })

  it('npx bolillo regulator-export writes the same chains, and npx bolillo regulator-check passes it with the pinned key', async () => {
    const run = promisify(execFile)
    const out = join(work, 'cli-export')
    const keyFile = join(work, 'operator.pem')
    writeFileSync(keyFile, s.server.services.keys.publicInfo().publicKeyPem)
    // The operator's keys, kept outside DATA_DIR as a server without the demo keeps them.
    const keyDir = join(work, 'keys')
    cpSync(join(s.server.dataDir, 'keys'), keyDir, { recursive: true })
    rmSync(join(s.server.dataDir, 'keys'), { recursive: true })
    rmSync(join(keyDir, 'demo-beacon.key'), { force: true })
    chmodSync(keyDir, 0o700)
    // The CLI reads the server's own database: the SQLite file in DATA_DIR, or the PostgreSQL one on that engine's run.
    const databaseUrl = s.server.services.config.databaseUrl
    const env = {
      ...process.env,
      DATA_DIR: s.server.dataDir,
      BOLILLO_KEY_DIR: keyDir,
      BOLILLO_SEED_DEMO: 'false',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }
    const exported = await run(process.execPath, ['bin/bolillo.mjs', 'regulator-export', '--out', out], { env })
    expect(exported.stdout).toMatch(/lotes de 3 cadenas/)
    // The batches the server had closed are the same bytes.
    expect(readFileSync(join(out, hallId, '000001.jsonl'), 'utf8')).toBe(
      readFileSync(join(exportDir, hallId, '000001.jsonl'), 'utf8'),
    )
    const ok = await run(process.execPath, ['bin/bolillo.mjs', 'regulator-check', out, '--key', keyFile], { env })
    expect(ok.stdout).toMatch(/^OK: la exportación verifica/m)
    // A tampered copy: exit code 1 and the difference on stdout.
    const bad = join(work, 'cli-bad')
    cpSync(out, bad, { recursive: true })
    rmSync(join(bad, hallId, '000002.jsonl'))
    const failed = await run(process.execPath, ['bin/bolillo.mjs', 'regulator-check', bad, '--key', keyFile], {
      env,
    }).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stdout).toContain(`DIFERENCIA / DIFFERENCE: falta el lote ${hallId}-b2`)
  }, 60_000)

  /** A copy of the export to tamper with. */
  function copy(name: string): string {
    const dir = join(work, name)
    cpSync(exportDir, dir, { recursive: true })
    return dir
  }
  const hallFiles = (dir: string) =>
    readdirSync(join(dir, hallId))
      .sort()
      .map((f) => join(dir, hallId, f))
  const check = (dir: string) => checkExport(dir, { publicKeyPem: s.server.services.keys.publicInfo().publicKeyPem })

  /** Rewrites every header, link and signature of a copy with `key`, as someone holding that key would. */
  function resign(dir: string, key: KeyObject, only?: string) {
    const sha = (t: string) => createHash('sha256').update(t).digest('hex')
    const heads: Record<string, { lastSeq: number; lastHash: string }> = {}
    for (const chain of readdirSync(dir)
      .filter((n) => !n.endsWith('.json'))
      .sort()) {
      let prev = '0'.repeat(64)
      for (const f of readdirSync(join(dir, chain)).sort()) {
        const file = join(dir, chain, f)
        const [first, ...lines] = readFileSync(file, 'utf8').trim().split('\n')
        const head = JSON.parse(first)
        if (!only || only === file) {
          head.header = {
            ...head.header,
            prevHash: prev,
            recordsSha256: sha(lines.join('\n')),
            recordHashes: lines.map(sha),
          }
          head.hash = sha(canonical(head.header))
          head.signature = sign(null, Buffer.from(head.hash, 'hex'), key).toString('base64')
          writeFileSync(file, [JSON.stringify(head), ...lines].join('\n') + '\n')
        }
        prev = head.hash
        heads[head.header.chain] = { lastSeq: head.header.seq, lastHash: head.hash }
      }
    }
    if (only) return
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    delete m.signature
    m.chains = heads
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ ...m, signature: sign(null, Buffer.from(canonical(m)), key).toString('base64') }),
    )
  }

  it('one record altered: caught, naming the record and its batch', () => {
    const dir = copy('altered')
    const file = hallFiles(dir).find((f) => readFileSync(f, 'utf8').includes('fallo de prueba'))!
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace('fallo de prueba', 'sin novedad'))
    const line = text.split('\n').find((l) => l.includes('fallo de prueba'))!
    const record = JSON.parse(line).record as string
    const r = check(dir)
    expect(r.ok).toBe(false)
    expect(r.differences.some((d) => d.includes(`registro ${record}`) && d.includes('alterado'))).toBe(true)
  })

  it('one batch removed: caught, naming the missing batch', () => {
    const dir = copy('removed')
    const files = hallFiles(dir)
    const victim = files[1]
    const removed = JSON.parse(readFileSync(victim, 'utf8').split('\n')[0]).header.batchId as string
    rmSync(victim)
    const r = check(dir)
    expect(r.ok).toBe(false)
    expect(r.differences.some((d) => d.startsWith(`falta el lote ${removed}`))).toBe(true)
    // The last batch too: the signed manifest names the chain's head.
    const dir2 = copy('removed-last')
    const last = hallFiles(dir2).at(-1)!
    const lastId = JSON.parse(readFileSync(last, 'utf8').split('\n')[0]).header.batchId as string
    rmSync(last)
    expect(check(dir2).differences.some((d) => d.startsWith(`falta el lote ${lastId}`))).toBe(true)
  })

  it("one amount changed, even re-signed with the operator's own key: the recomputed split and the daily totals differ", () => {
    const dir = copy('amount')
    const file = hallFiles(dir).find((f) => readFileSync(f, 'utf8').includes('"type":"bingo.game"'))!
    const lines = readFileSync(file, 'utf8').trim().split('\n')
    let serial = ''
    let record = ''
    const changed = lines.map((l, i) => {
      if (i === 0) return l
      const r = JSON.parse(l)
      if (r.type !== 'bingo.game' || r.data.status !== 'finished' || serial) return l
      const w = r.data.prizes.find((p: any) => p.kind === 'bingo').winners[0]
      w.amountCents += 1000
      serial = w.serial
      record = r.record
      return JSON.stringify(r)
    })
    expect(serial).not.toBe('')
    writeFileSync(file, changed.join('\n') + '\n')
    resign(dir, s.server.services.keys.privateKey)
    const r = check(dir)
    expect(r.ok).toBe(false)
    // No hash, link or signature complains: the facts themselves do.
    expect(r.differences.filter((d) => /firma|enlaza|hash|alterado/.test(d))).toEqual([])
    expect(r.differences.some((d) => d.includes(`registro ${record}`) && d.includes(`cartón ${serial}`))).toBe(true)
    expect(r.differences.some((d) => d.includes('prizesCents'))).toBe(true)
  })

  it('the lotto draw is settled again from its close-of-sales file: a winner added to a category shows, even re-signed', () => {
    const operatorFiles = (dir: string) =>
      readdirSync(join(dir, 'operator'))
        .sort()
        .map((f) => join(dir, 'operator', f))
    const lines = operatorFiles(exportDir).flatMap((f) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l)),
    )
    const draw = lines.find((r) => r.type === 'lotto.draw')
    expect(draw.data).toMatchObject({
      status: 'settled',
      winningNumbers: [1, 2, 3, 4, 5, 6],
      closeOfSales: { receipts: 4, salesCents: 2000 },
      poolCents: 1000,
    })
    expect(draw.data.categories.map((c: any) => [c.code, c.winners])).toEqual([
      ['C6', 1],
      ['C5', 1],
      ['C4', 0],
      ['C3', 1],
    ])
    expect(lines.filter((r) => r.type === 'lotto.plays').flatMap((r) => r.data.plays)).toHaveLength(4)
    const dir = copy('lotto')
    const file = operatorFiles(dir).find((f) => readFileSync(f, 'utf8').includes('"type":"lotto.draw"'))!
    const text = readFileSync(file, 'utf8').trim().split('\n')
    writeFileSync(
      file,
      text
        .map((l, i) => {
          if (i === 0 || !l.includes('"type":"lotto.draw"')) return l
          const r = JSON.parse(l)
          r.data.categories.find((c: any) => c.code === 'C5').winners = 2
          return JSON.stringify(r)
        })
        .join('\n') + '\n',
    )
    resign(dir, s.server.services.keys.privateKey)
    const r = check(dir)
    expect(r.differences).toContainEqual(
      expect.stringContaining(
        `registro ${draw.record} (sorteo ${draw.data.drawId}): categoría C5: 2 ganadores, recalculados 1 con las jugadas`,
      ),
    )
    // Nothing else is wrong with the copy: every difference is about that record.
    expect(r.differences.every((d) => d.startsWith(`registro ${draw.record}`))).toBe(true)
  })

  it('the close-of-sales file of the lotto draw was published, signed, before the draw, and the settlement matches it (002 §7.3.4.2-3)', () => {
    expect(publishedBeforeDraw.status).toBe(200)
    expect(regulatorBeforeDraw.status).toBe(200)
    expect(regulatorBeforeDraw.body).toEqual(publishedBeforeDraw.body)
    const doc = publishedBeforeDraw.body
    expect(doc.body).toMatchObject({
      schema: 'bolillo-close-of-sales-v1',
      drawId: lottoDrawId,
      gameCode: 'REGF',
      receipts: 4,
      excluded: [],
    })
    // Every participating slip with its receipt number and its combination (in receipt order).
    expect(doc.body.plays.map((p: any) => p.receipt)).toEqual([...doc.body.plays.map((p: any) => p.receipt)].sort())
    expect(doc.body.plays.map((p: any) => p.boards[0].join('-')).sort()).toEqual([
      '1-2-3-30-31-32',
      '1-2-3-4-5-40',
      '1-2-3-4-5-6',
      '20-21-22-23-24-25',
    ])
    // Its digest and signature, checked with the operator's public key alone.
    expect(createHash('sha256').update(canonical(doc.body)).digest('hex')).toBe(doc.digest)
    expect(
      verify(
        null,
        Buffer.from(doc.digest, 'hex'),
        createPublicKey(s.server.services.keys.publicInfo().publicKeyPem),
        Buffer.from(doc.signature, 'base64'),
      ),
    ).toBe(true)
    // The export carries the same document; the checker held the settlement against it (the export passed).
    expect(JSON.parse(readFileSync(join(exportDir, `close-of-sales-${lottoDrawId}.json`), 'utf8'))).toEqual(doc)
    expect(report.ok).toBe(true)
  })

  it('a slip altered after the close, its settlement made to agree and re-signed with the operator key: the published file names it', () => {
    const dir = copy('slip-after-close')
    const file = readdirSync(join(dir, 'operator'))
      .map((f) => join(dir, 'operator', f))
      .find((f) => readFileSync(f, 'utf8').includes('"type":"lotto.plays"'))!
    let receipt = ''
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l, i) => {
        if (i === 0) return l
        const r = JSON.parse(l)
        if (r.type === 'lotto.plays') {
          // The losing slip made a winner of the first category after the close.
          const slip = r.data.plays.find((p: any) => p.boards[0][0] === 20)
          slip.boards = [[1, 2, 3, 4, 5, 6]]
          receipt = slip.receipt
        }
        if (r.type === 'lotto.draw') r.data.categories.find((c: any) => c.code === 'C6').winners = 2
        return JSON.stringify(r)
      })
    writeFileSync(file, lines.join('\n') + '\n')
    resign(dir, s.server.services.keys.privateKey)
    const r = check(dir)
    expect(r.ok).toBe(false)
    expect(r.differences).toContainEqual(
      expect.stringContaining(`el comprobante ${receipt} tiene otras jugadas que en el fichero de cierre publicado`),
    )
    expect(r.differences.filter((d) => /firma|enlaza|hash|alterado/.test(d))).toEqual([])
  })

  it('one batch re-signed with another key: caught, naming the batch', () => {
    const dir = copy('other-key')
    const file = hallFiles(dir)[0]
    const batchId = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).header.batchId as string
    resign(dir, generateKeyPairSync('ed25519').privateKey, file)
    const r = check(dir)
    expect(r.ok).toBe(false)
    expect(r.differences.some((d) => d.startsWith(`lote ${batchId}: la firma no es del operador`))).toBe(true)
  })

  it('the feed is rate-limited per regulator account: 429 RATE_LIMITED with a message in Spanish', async () => {
    const headers = await regulator('regulador')
    const statuses: number[] = []
    for (let i = 0; i < 32 && !statuses.includes(429); i++)
      statuses.push((await api(s.server.url, 'GET', '/api/regulator/batches?limit=1', undefined, headers)).status)
    expect(statuses).toContain(429)
    expect(statuses.filter((x) => x === 200).length).toBeLessThanOrEqual(30)
    const refused = await api(s.server.url, 'GET', '/api/regulator/batches?limit=1', undefined, headers)
    expect(refused.body.error.code).toBe('RATE_LIMITED')
    expect(refused.body.error.message).toBe('Demasiadas peticiones. Espere un momento.')
  })
})
