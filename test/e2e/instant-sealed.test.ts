/**
 * Issue 15, points 2 and 3 for the instant lottery: nothing under DATA_DIR shows which ticket wins what, nor a
 * batch's seed (DESIGN.md "Sealed secrets"). A real server generates a pre-printed and an electronic batch over
 * HTTP, ships, activates, sells, validates a winner and a loser, pays a winner at the cashier (receipt printed into
 * DATA_DIR/prints), logs at debug level into DATA_DIR/logs, and a backup is taken into DATA_DIR/backups. Then every
 * file under DATA_DIR is scanned (test/helpers/secret-scan.ts) for each batch's seed and derived keys, every
 * ticket's validation code, the pack prize counts and tiers as JSON, a tier beside its serial, and any database
 * column that gives the winning tickets' prizes. The ground truth is regenerated from the sealed seed, opened here
 * with the server's sealer. The ticket paid is left out: a paid prize is on the prize register (INS-5) by rule.
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupSqlite } from '../../server/src/cli/backup.ts'
import { deriveKey, formatValidationCode } from '../../server/src/instant/codes.ts'
import { sealContext } from '../../server/src/instant/context.ts'
import { checkDesign, type InstantDesign } from '../../server/src/instant/design.ts'
import { packPrintData } from '../../server/src/instant/files.ts'
import type { Logger } from '../../server/src/log.ts'
import { testPostgresUrl } from '../helpers/database.ts'
import {
  filesUnder,
  findNeedles,
  findTierBesideSerial,
  findTierColumns,
  secretNeedles,
  textNeedle,
  type KnownTicket,
  type Needle,
} from '../helpers/secret-scan.ts'
import { smallInstantDesign } from '../helpers/instant.ts'
import { api, startTestServer } from '../helpers/server.ts'

const printed: InstantDesign = smallInstantDesign({
  gameNo: 4401,
  name: 'Raspa Sellada',
  packRules: {
    lowTiers: { maxAmountCents: 2500, minPerPack: 5 },
    topTiers: { minAmountCents: 100_000, maxPerPack: 1, notFirstOrLast: true },
  },
})
const electronic: InstantDesign = {
  ...printed,
  gameNo: 4402,
  name: 'Raspa Sellada en pantalla',
  channel: 'electronic',
  ticketCount: 200,
  tiers: [
    { amountCents: 6500, count: 8 },
    { amountCents: 2500, count: 20 },
    { amountCents: 1500, count: 30 },
  ],
  packRules: { lowTiers: { maxAmountCents: 2500, minPerPack: 5 } },
  payoutShareBp: { min: 0, max: 10_000 },
}

/** The server's log, as one-line JSON into DATA_DIR/logs (the file a deployment would keep), at debug level. */
function fileLogger(file: string): Logger {
  const at = (level: string) => (msg: string, extra?: unknown) => {
    const detail = extra instanceof Error ? { error: extra.message, stack: extra.stack } : extra
    appendFileSync(
      file,
      JSON.stringify({ t: new Date().toISOString(), level, msg, ...(detail !== undefined ? { detail } : {}) }) + '\n',
    )
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

describe.skipIf(testPostgresUrl)('instant prize file and seeds are sealed in DATA_DIR', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>
  const post = (path: string, body: unknown) => api(s.url, 'POST', path, body)

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-sealed-'))
    mkdirSync(join(dataDir, 'logs'), { recursive: true })
    writeFileSync(join(dataDir, 'logs', 'server.log'), '')
    s = await startTestServer({ dataDir, logLevel: 'debug' }, { log: fileLogger(join(dataDir, 'logs', 'server.log')) })
  })
  afterAll(async () => {
    await s?.cleanup()
  })

  /** A batch's seed and every ticket, regenerated from the sealed seed opened with the server's sealer. */
  async function opened(d: InstantDesign) {
    const row = await s.services.db.get<{ seed_sealed: string; seed_commitment: string; first_id: number }>(
      'SELECT seed_sealed, seed_commitment, first_id FROM instant_batches WHERE game_no = ?',
      [d.gameNo],
    )
    const seed = s.services.sealer.open(row!.seed_sealed, sealContext('seed', d.gameNo, row!.seed_commitment))
    const packs = [...packPrintData(checkDesign(d), seed)]
    const tickets = packs.flatMap((p) =>
      p.serials.map((serial, i) => ({
        id: Number(row!.first_id) + p.firstIndex + i,
        serial,
        code: p.codes[i],
        tier: p.tiers[i],
        pack: p.packNo,
        amountCents: p.tiers[i] > 0 ? d.tiers[p.tiers[i] - 1].amountCents : 0,
      })),
    )
    return { seed, packs, tickets }
  }

  it('finds neither a seed nor any ticket prize in clear after generation, sales, validation, payout and a backup', async () => {
    for (const d of [printed, electronic]) expect((await post('/api/instant/games', { design: d })).status).toBe(201)
    const p = await opened(printed)
    const e = await opened(electronic)

    expect(
      (
        await post('/api/instant/games/4401/packs/ship', {
          fromPack: 1,
          toPack: 4,
          destination: 'caja-1',
          by: 'almacen',
        })
      ).status,
    ).toBe(200)
    for (const packNo of [1, 2, 3])
      expect(
        (await post('/api/instant/packs/activate', { gameNo: 4401, packNo, location: 'caja-1', by: 'caja-1' })).status,
      ).toBe(200)
    const inPack1 = p.tickets.filter((t) => t.pack === 1)
    const [winner, winner2] = inPack1.filter((t) => t.tier > 0)
    const loser = inPack1.find((t) => t.tier === 0)!
    for (const t of [winner, winner2, loser])
      expect(
        (await post('/api/instant/sales', { ageConfirmed: true, code: t.serial, stationId: 'caja-1' })).status,
      ).toBe(201)
    const v = await post('/api/instant/validate', { code: winner.code, stationId: 'caja-1', cashierId: 'cajera' })
    expect(v.body).toMatchObject({ outcome: 'WIN', tier: winner.tier, amountCents: winner.amountCents })
    expect((await post('/api/instant/validate', { code: winner2.code })).body.outcome).toBe('WIN')
    expect((await post('/api/instant/validate', { code: loser.code })).body.outcome).toBe('NO_WIN')
    // Refusals write their reasons to the journal and the log: a mistyped code, a counterfeit one, a loser's payout.
    expect(
      (await post('/api/instant/validate', { code: loser.code.slice(0, 23) + (loser.code[23] === 'A' ? 'B' : 'A') }))
        .status,
    ).toBe(400)
    const fake = await post('/api/instant/validate', {
      code: formatValidationCode(4401, p.tickets.indexOf(winner2), 12345, 67890),
    })
    expect(fake.body.error.code).toBe('INVALID_SIGNATURE')
    expect(
      (
        await post('/api/tickets/pay', {
          code: loser.code,
          inventoryCode: loser.serial,
          stationId: 'caja-1',
          cashierId: 'cajera',
          payeeName: 'Juana Mamani',
          payeeDocument: '4455667 LP',
        })
      ).body.error.code,
    ).toBe('NOT_A_WINNER')
    expect(
      (await post('/api/tickets/validate', { code: s.services.instant.signCode(loser.code), stationId: 'caja-1' })).body
        .status,
    ).toBe('not_winner')
    const paid = await post('/api/tickets/pay', {
      code: winner.code,
      inventoryCode: winner.serial,
      stationId: 'caja-1',
      cashierId: 'cajera',
      payeeName: 'Juana Mamani',
      payeeDocument: '4455667 LP',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.receipt.printed).toBe(true)
    // Issue 23: the one payout shape the cashier reads, made by the cash desk.
    expect(paid.body.paid).toMatchObject({
      product: 'instant',
      refund: false,
      payoutIds: [paid.body.payout.payoutId],
      amountCents: paid.body.payout.amountCents,
      receipt: 'printed',
    })
    // The prizes in play (opened from the sealed pack prize counts) are given once the game is closed (issue 24).
    expect((await post('/api/instant/games/4401/close', { by: 'director' })).status).toBe(200)
    expect(
      (await api(s.url, 'GET', '/api/instant/games/4401/reconciliation')).body.tiers.reduce(
        (a: number, t: { inPlay: number }) => a + t.inPlay,
        0,
      ),
    ).toBe(p.tickets.filter((t) => t.pack <= 3 && t.tier > 0).length)
    await backupSqlite(s.dataDir, join(s.dataDir, 'backups', 'bolillo-backup.sqlite'))

    const files = filesUnder(s.dataDir)
    const names = files.map((f) => f.slice(s.dataDir.length + 1))
    expect(names).toEqual(
      expect.arrayContaining([
        'bolillo.sqlite',
        'bolillo.sqlite-wal',
        'backups/bolillo-backup.sqlite',
        'logs/server.log',
      ]),
    )
    expect(names.some((n) => n.startsWith('prints/'))).toBe(true)

    // Everything a copy of DATA_DIR must not reveal, for both batches.
    const needles: Needle[] = []
    const known: KnownTicket[] = []
    for (const [d, b] of [
      [printed, p],
      [electronic, e],
    ] as const) {
      needles.push(...secretNeedles(`seed of game ${d.gameNo}`, b.seed))
      for (const label of ['placement', 'code', 'symbols', 'prize'] as const)
        needles.push(...secretNeedles(`${label} key of game ${d.gameNo}`, deriveKey(b.seed, d.gameNo, label)))
      for (const pack of b.packs) {
        const counts = d.tiers.map((_, k) => [...pack.tiers].filter((t) => t === k + 1).length)
        needles.push(textNeedle(`prize counts of pack ${pack.packNo} of game ${d.gameNo}`, JSON.stringify(counts)))
        needles.push(
          textNeedle(`tiers of pack ${pack.packNo} of game ${d.gameNo} (JSON)`, JSON.stringify([...pack.tiers])),
        )
        needles.push(textNeedle(`tiers of pack ${pack.packNo} of game ${d.gameNo} (digits)`, [...pack.tiers].join('')))
      }
      for (const t of b.tickets) needles.push(textNeedle(`validation code of ${t.serial}`, t.code))
      // The paid ticket is on the prize register by rule (INS-5); every other ticket's prize stays sealed.
      known.push(...b.tickets.filter((t) => t.serial !== winner.serial))
    }
    const findings = [
      ...findNeedles(files, needles),
      ...findTierBesideSerial(files, new Map(known.map((t) => [t.serial, t]))),
      ...(await Promise.all(files.map((f) => findTierColumns(f, known)))).flat(),
    ]
    expect(findings).toEqual([])
  })
})

describe('opening an instant batch seed (INS-3 audit)', () => {
  it('is for the auditor only, needs a reason, and the journal names the person from the session, not the body', async () => {
    const s = await startTestServer({ auth: 'on' })
    try {
      const { auth } = s.services
      const bearer: Record<string, string> = {}
      for (const role of ['director', 'auditor'] as const) {
        await auth.createUser({ username: `u-${role}`, displayName: role, role, password: 'correct horse battery' })
        bearer[role] = `Bearer ${(await auth.login(`u-${role}`, 'correct horse battery')).token}`
      }
      const as = (role: string) => ({ authorization: bearer[role] })
      const typed = await api(
        s.url,
        'POST',
        '/api/instant/games',
        { design: printed, seed: 'f'.repeat(64) },
        as('director'),
      )
      expect(typed.status).toBe(400)
      expect(typed.body.error.code).toBe('TYPED_SEED_REFUSED')
      const made = await api(s.url, 'POST', '/api/instant/games', { design: printed }, as('director'))
      expect(made.status).toBe(201)
      // The director who runs the sale cannot read the seed that says which tickets win.
      expect(
        (await api(s.url, 'POST', '/api/instant/games/4401/audit/seed', { reason: 'curiosidad' }, as('director')))
          .status,
      ).toBe(403)
      expect((await api(s.url, 'POST', '/api/instant/games/4401/audit/seed', {}, as('auditor'))).status).toBe(400)
      // On sale the auditor is refused too (issue 24: the seed opens after the claim period, instant-secrets.test.ts),
      // and the refusal is journaled with the person from the session.
      const r = await api(
        s.url,
        'POST',
        '/api/instant/games/4401/audit/seed',
        { reason: 'certificación INS-3', by: 'otra persona' },
        as('auditor'),
      )
      expect(r.status).toBe(400)
      const refused = await api(
        s.url,
        'POST',
        '/api/instant/games/4401/audit/seed',
        { reason: 'certificación INS-3' },
        as('auditor'),
      )
      expect(refused.status).toBe(409)
      expect(refused.body).not.toHaveProperty('seedHex')
      expect(await s.services.db.get("SELECT seq FROM journal WHERE type = 'instant.seed_exported'")).toBeUndefined()
      const rec = await s.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'instant.seed_export_refused'",
      )
      const auditorId = (await s.services.db.get<{ id: string }>("SELECT id FROM users WHERE username = 'u-auditor'"))
        ?.id
      expect(JSON.parse(rec!.payload).by).toMatchObject({ kind: 'person', id: auditorId })
    } finally {
      await s.cleanup()
    }
  })
})
