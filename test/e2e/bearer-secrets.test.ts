/**
 * Issue 24 point 2, "no bearer secret at rest": a copy of DATA_DIR must not let anyone cash a ticket or a voucher,
 * nor name the players who showed an identity document. A real server, as shipped (authentication on, enrolled
 * kiosk and cashier station, a cashier logged in at her station, the default file printer), plays a night: vouchers
 * sold at the till, a kiosk purchase by QR code (cards, a named lotto slip, an e-instant ticket), one by the change
 * voucher's typed short code, counter sales of cards, a slip and an e-instant ticket, refused tickets (a kiosk that
 * tries to pay a card, a tampered code) and a player's document amended on a slip (LNS-20). Logs go at debug level
 * into DATA_DIR/logs and a backup is taken with the backup command's code. Then (test/helpers/secret-scan.ts):
 *
 * - every file under DATA_DIR (database, WAL, backup, prints, logs) and every row of every table holds no voucher
 *   code, short code (with or without dashes), card, slip or instant code, nor the signature part of a signed code;
 * - the journal (in the database and in the backup), the logs and the prints hold no identity document in clear.
 *
 * - no identity document planted through the routes is in any file at all, database, WAL and backup included, nor
 *   in any row: a voucher buyer's (a voucher paid in small notes over the GEN-17 limit), a named slip's player and
 *   the player amended on it, a player put on the exclusion list (and her name), a player named in the complaints
 *   book, and the player of a counter sale of cards (BNG-40). Each is sealed under the sealing key, people are
 *   matched by a keyed hash of their key, and the roles that read a document are shown it opened (the AML officer,
 *   the prize payer, the keeper of the exclusion list, the complaints book's readers); a cashier reading the
 *   exclusion list sees it masked.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupSqlite } from '../../server/src/cli/backup.ts'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import type { Logger } from '../../server/src/log.ts'
import { testPostgresUrl } from '../helpers/database.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import {
  bearerCodesIn,
  bearerNeedles,
  databaseRowsText,
  filesUnder,
  findNeedles,
  findNeedlesInText,
  textNeedle,
  type Needle,
} from '../helpers/secret-scan.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

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

describe('no bearer code and no identity document in clear at rest (issue 24 point 2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let auditorToken = ''
  const es = { 'accept-language': 'es' }
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const asAuditor = () => ({ ...es, authorization: `Bearer ${auditorToken}` })
  const player = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }
  const amended = { name: 'Rosa Condori de Quispe', document: 'CI 9035518 SC' }
  const voucherBuyer = 'CI 6677889 CB'
  const buyerNeedles: Needle[] = [
    textNeedle(`identity document ${voucherBuyer}`, voucherBuyer),
    textNeedle(`identity document ${voucherBuyer} (number)`, '6677889', { standalone: true }),
    // Its compact spellings, as a normalised key would write it.
    textNeedle(`identity document ${voucherBuyer} (compact)`, 'CI6677889'),
    textNeedle(`identity document ${voucherBuyer} (compact, suffix)`, '6677889CB'),
  ]
  const excluded = { name: 'Eusebia Choque Flores', document: 'CI 5544332 OR' }
  const complainant = { name: 'Teodoro Huanca', document: 'CI 3322110 PT' }
  const cardPlayer = 'CI 7788990 BE'

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-bearer-'))
    mkdirSync(join(dataDir, 'logs'), { recursive: true })
    writeFileSync(join(dataDir, 'logs', 'server.log'), '')
    server = await startTestServer(
      { auth: 'on', dataDir, logLevel: 'debug' },
      { log: fileLogger(join(dataDir, 'logs', 'server.log')) },
    )
    hall = await paidHall(server.services)
    await server.services.auth.createUser({
      username: 'auditora',
      displayName: 'Carla Rojas',
      role: 'auditor',
      password: PASSWORD,
    })
    auditorToken = (await server.services.auth.login('auditora', PASSWORD)).token
  })
  afterAll(async () => server?.cleanup())

  it('after a night of sales, refusals and a document, DATA_DIR holds no voucher, short, card, slip or instant code and the journal no document', async () => {
    const codes = new Map<string, string>()
    const ok = (r: { status: number; body: unknown }, status: number, what: string) => {
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(status)
      bearerCodesIn(r.body, what, codes)
      return r.body as any
    }

    // Vouchers sold at the till; one buys cards, a named slip and an e-instant ticket at the kiosk by its QR code.
    const voucher = await sellVoucher(server.url, hall.hallId, 5000, {}, asCashier())
    bearerCodesIn(voucher, 'voucher sold at the till', codes)
    const spare = await sellVoucher(server.url, hall.hallId, 2000, {}, asCashier())
    bearerCodesIn(spare, 'voucher kept by its player', codes)
    // GEN-17: Bs 4.000 in small notes, over the limit: the buyer's document is recorded, and an officer's record opened.
    const smallNotes = await sellVoucher(
      server.url,
      hall.hallId,
      400_000,
      { cash: countOf(400_000, { smallCents: 400_000 }), buyerDocument: voucherBuyer },
      asCashier(),
    )
    bearerCodesIn(smallNotes, 'voucher paid in small notes', codes)
    const kiosk = ok(
      await api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        {
          voucherCode: voucher.code,
          ageConfirmed: true,
          cards: { gameId: hall.gameId, count: 2 },
          slips: [{ drawId: hall.drawId, quickPicks: 1, player }],
          instant: { gameNo: hall.gameNo, count: 1 },
        },
        asKiosk(),
      ),
      201,
      'kiosk purchase',
    )
    expect(kiosk.change.shortCode).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
    // The change voucher typed by its short code (looked up by its keyed hash) buys another card.
    const typed = ok(
      await api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        {
          voucherCode: kiosk.change.shortCode.toLowerCase(),
          ageConfirmed: true,
          cards: { gameId: hall.gameId, count: 1 },
        },
        asKiosk(),
      ),
      201,
      'kiosk purchase by short code',
    )
    expect(typed.cards).toHaveLength(1)
    // Counter sales at the cashier's station; one named by the player's document (BNG-40, per-player limits).
    ok(
      await api(server.url, 'POST', `/api/games/${hall.gameId}/sales`, { ageConfirmed: true, count: 2 }, asCashier()),
      201,
      'counter cards',
    )
    ok(
      await api(
        server.url,
        'POST',
        `/api/games/${hall.gameId}/sales`,
        { ageConfirmed: true, count: 1, playerDocument: cardPlayer },
        asCashier(),
      ),
      201,
      'counter cards of a named player',
    )
    // A player put on the exclusion list (GEN-27) and one who complains in the hall's book (BNG-72).
    const exclusion = await api(
      server.url,
      'POST',
      '/api/players/exclusions',
      { ...excluded, kind: 'self_excluded', reason: 'autoexclusión firmada en sala' },
      asDirector(),
    )
    expect(exclusion.status, JSON.stringify(exclusion.body)).toBe(201)
    const complaint = await api(
      server.url,
      'POST',
      `/api/halls/${hall.hallId}/complaints`,
      { playerName: complainant.name, playerDocument: complainant.document, text: 'El cartón no se leyó bien.' },
      asCashier(),
    )
    expect(complaint.status, JSON.stringify(complaint.body)).toBe(201)
    const slip = ok(
      await api(
        server.url,
        'POST',
        `/api/lotto/draws/${hall.drawId}/slips`,
        { ageConfirmed: true, quickPicks: 1, player },
        asCashier(),
      ),
      201,
      'counter slip',
    )
    ok(
      await api(
        server.url,
        'POST',
        `/api/instant/halls/${hall.hallId}/electronic`,
        { ageConfirmed: true, gameNo: hall.gameNo },
        asCashier(),
      ),
      201,
      'counter e-instant',
    )
    const kinds = new Set(
      [...codes.keys()].map((c) =>
        c.startsWith('BLL1.') ? c.split('.')[1] : c.includes('-') && c.length === 14 ? 'short' : 'instant',
      ),
    )
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['C', 'I', 'L', 'V', 'short', 'instant']))

    // Refused tickets: a kiosk may not pay a card (FORBIDDEN, journaled as access.refused), nor a tampered one.
    const card = kiosk.cards[0].code as string
    const refused = await api(server.url, 'POST', '/api/tickets/pay', { code: card }, asKiosk())
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN'])
    const tampered = `${card.slice(0, -3)}${card.endsWith('AAA') ? 'BBB' : 'AAA'}`
    const bad = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: tampered, payeeName: player.name, payeeDocument: player.document },
      asCashier(),
    )
    expect(bad.status).toBeGreaterThanOrEqual(400)
    // A kiosk of another hall presented this hall's card and voucher (WRONG_HALL): the refusal's reason names the code.
    const other = await server.services.bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 50,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const foreignKiosk = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Sajama',
      hallId: other.id,
    })
    for (const body of [{ code: spare.code }, { code: card }]) {
      const wrong = await api(
        server.url,
        'POST',
        body.code.startsWith('BLL1.V') ? '/api/vouchers/check' : '/api/tickets/validate',
        body,
        { ...es, authorization: `Device ${foreignKiosk.credential}` },
      )
      expect([wrong.status, wrong.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    }
    const journal = async (as: Record<string, string>) =>
      (await api(server.url, 'GET', '/api/journal?limit=1000', undefined, as)).body.records as Array<{
        type: string
        payload: any
      }>
    const refusals = (await journal(asDirector())).filter((r) => r.type === 'access.refused')
    expect(refusals.map((r) => r.payload.code)).toEqual(expect.arrayContaining(['FORBIDDEN', 'WRONG_HALL']))
    // The journal names the refused ticket by its kind and id, never by its bearer code.
    expect(refusals.some((r) => String(r.payload.reason).includes(`BLL1.C.${kiosk.cards[0].id}`))).toBe(true)

    // A player's document amended on her slip before the draw (LNS-20): journaled, sealed.
    const amend = await api(
      server.url,
      'POST',
      `/api/lotto/slips/${slip.receiptNumber}/player`,
      { ...amended, evidenceRef: 'CI presentado en caja', reason: 'nombre de casada' },
      asDirector(),
    )
    expect(amend.status, JSON.stringify(amend.body)).toBe(200)

    // The backup command's copy, then the scan.
    const backup = join(server.dataDir, 'backups', 'bolillo-backup.sqlite')
    // A retry of this test (CI) finds the first attempt's backup: made again, not refused.
    rmSync(backup, { force: true })
    if (!testPostgresUrl) await backupSqlite(server.dataDir, backup)
    await server.services.cashdesk.prints.flushPrinted()
    const files = filesUnder(server.dataDir).filter((f) => !f.includes(`${join(server.dataDir, 'keys')}`))
    const names = files.map((f) => f.slice(server.dataDir.length + 1))
    expect(names.some((n) => n.startsWith('prints/'))).toBe(true)
    expect(names).toContain('logs/server.log')
    if (!testPostgresUrl)
      expect(names).toEqual(expect.arrayContaining(['bolillo.sqlite', 'backups/bolillo-backup.sqlite']))

    const codeNeedles = bearerNeedles(codes)
    const documents: Needle[] = [
      player.document,
      amended.document,
      excluded.document,
      complainant.document,
      cardPlayer,
    ].flatMap((d) => [
      textNeedle(`identity document ${d}`, d),
      textNeedle(`identity document ${d} (number)`, d.replace(/\D/g, '')),
    ])
    // The excluded player's name is on the list only, sealed too.
    const personNames: Needle[] = [textNeedle(`excluded player's name`, excluded.name)]
    // The journal as stored: in the live database (either engine) and in the backup.
    const journals = [['journal', await databaseRowsText(server.services.db, ['journal'])]]
    if (!testPostgresUrl) {
      const copy = await openSqliteConnection(backup)
      try {
        journals.push([
          'backup journal',
          (copy.prepare('SELECT * FROM journal').all() as unknown[]).map((r) => JSON.stringify(r)).join('\n'),
        ])
      } finally {
        copy.close()
      }
    }
    const findings = [
      ...findNeedles(files, codeNeedles),
      ...findNeedlesInText('database rows', await databaseRowsText(server.services.db), codeNeedles),
      // Issue 24 point 2: no planted document in any file (database, WAL, backup, prints, logs) nor in any row.
      ...findNeedles(files, [...documents, ...personNames]),
      ...findNeedlesInText('database rows', await databaseRowsText(server.services.db), [...documents, ...personNames]),
      ...journals.flatMap(([label, text]) => findNeedlesInText(label, text, documents)),
      // Issue 24 point 2: the voucher buyer's document nowhere, the database file, its WAL and the backup included.
      ...findNeedles(files, buyerNeedles),
      ...findNeedlesInText('database rows', await databaseRowsText(server.services.db), buyerNeedles),
    ]
    expect(findings).toEqual([])
    // Not vacuous: the same needles find the codes and documents where they are meant to be (the answers given).
    expect(findNeedlesInText('kiosk answer', JSON.stringify(kiosk), codeNeedles).length).toBeGreaterThanOrEqual(6)
    expect(
      findNeedlesInText('request', JSON.stringify({ player, amended, excluded, complainant, cardPlayer }), documents),
    ).toHaveLength(10)
    expect(findNeedlesInText('request', JSON.stringify({ voucherBuyer }), buyerNeedles)).toHaveLength(2)
    // The officer's record (aml.review) shows the document opened; it is stored sealed (and keyed for the totals).
    const reports = (await api(server.url, 'GET', '/api/aml/reports', undefined, asDirector())).body.reports as Array<{
      voucherId: string
      buyerDocument: string
      buyerKey: string
    }>
    expect(reports.find((r) => r.voucherId === smallNotes.id)).toMatchObject({ buyerDocument: voucherBuyer })
    const stored = (await server.services.db.get<{ buyer_document: string }>(
      'SELECT buyer_document FROM vouchers WHERE id = ?',
      [smallNotes.id],
    ))!.buyer_document
    expect(stored.startsWith('idoc1.')).toBe(true)
    // GEN-9 / GEN-10: the auditor audits the records (amounts, decisions) but does not read the person behind them:
    // the document masked, no key, and no look-up of a person's day by document (FORBIDDEN).
    const audited = (await api(server.url, 'GET', '/api/aml/reports', undefined, asAuditor())).body.reports as Array<{
      voucherId: string
      buyerDocument: string | null
      buyerKey: string | null
      amountCents: number
    }>
    expect(audited.find((r) => r.voucherId === smallNotes.id)).toMatchObject({
      buyerDocument: '•••••• CB',
      buyerKey: null,
      amountCents: 400_000,
    })
    expect(JSON.stringify(audited)).not.toContain('6677889')
    const lookUp = await api(server.url, 'GET', '/api/aml/day?document=6677889&day=2030-01-01', undefined, asAuditor())
    expect([lookUp.status, lookUp.body.error?.code]).toEqual([403, 'FORBIDDEN'])

    // Those who read a document see it opened: the prize payer the slip's player, the keeper of the exclusion list
    // its entries, the book's readers the complainant; a cashier reading the exclusion list sees it masked.
    const receipt = await api(server.url, 'GET', `/api/lotto/slips/${slip.receiptNumber}`, undefined, asCashier())
    expect(receipt.body.player).toEqual({ name: amended.name, document: amended.document })
    const listed = (await api(server.url, 'GET', '/api/players/exclusions', undefined, asDirector())).body.exclusions
    expect(listed[0]).toMatchObject({ ...excluded, documentKey: '5544332' })
    const masked = (await api(server.url, 'GET', '/api/players/exclusions', undefined, asCashier())).body.exclusions
    expect(masked[0]).toMatchObject({ name: excluded.name, document: '•••••• OR', documentKey: null })
    expect(JSON.stringify(masked)).not.toContain('5544332')
    const book = (await api(server.url, 'GET', `/api/halls/${hall.hallId}/complaints`, undefined, asDirector())).body
    expect(book.complaints[0].player).toMatchObject(complainant)
    // The excluded player is still refused wherever her document is shown, however it is spelled (GEN-23).
    const refusedSale = await sellVoucher(
      server.url,
      hall.hallId,
      400_000,
      { cash: countOf(400_000, { smallCents: 400_000 }), buyerDocument: '5544332-or' },
      asCashier(),
    ).catch((e: Error) => e)
    expect(String(refusedSale)).toMatch(/PLAYER_EXCLUDED/)

    // The director (aml.decide) reads the documents of the record; the auditor sees them masked, with the same tag.
    const byDirector = (await journal(asDirector())).find((r) => r.type === 'lotto.player_amended')!
    expect(byDirector.payload.after.document).toMatchObject({ protected: 'identity-document', value: amended.document })
    expect(byDirector.payload.before.document.value).toBe(player.document)
    const byAuditor = (await journal(asAuditor())).find((r) => r.type === 'lotto.player_amended')!
    expect(byAuditor.payload.after.document).toEqual({
      protected: 'identity-document',
      tag: byDirector.payload.after.document.tag,
      value: '•••',
    })
    expect(JSON.stringify(await journal(asAuditor()))).not.toContain('9035518')
  })
})

describe('short codes kept in clear by an earlier version are hashed once at startup (issue 24 point 2)', () => {
  it('empties the clear column, and the typed short code still buys', async () => {
    const first = await startTestServer({ auth: 'on' })
    let second: Awaited<ReturnType<typeof startTestServer>> | undefined
    try {
      const hall = await paidHall(first.services)
      const voucher = await sellVoucher(
        first.url,
        hall.hallId,
        1000,
        {},
        { authorization: `Bearer ${hall.cashierToken}` },
      )
      // As an earlier version stored it: the short code in clear, no hash.
      const clear = voucher.shortCode.replace(/-/g, '')
      await first.services.db.run('UPDATE vouchers SET short_code = ?, short_code_hash = NULL WHERE id = ?', [
        clear,
        voucher.id,
      ])
      const config = first.services.config
      await first.close()
      second = await startTestServer({ ...config, port: 0 })
      const row = await second.services.db.get<{ short_code: string | null; short_code_hash: string | null }>(
        'SELECT short_code, short_code_hash FROM vouchers WHERE id = ?',
        [voucher.id],
      )
      expect(row!.short_code).toBeNull()
      expect(row!.short_code_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(row!.short_code_hash).not.toContain(clear)
      const check = await api(
        second.url,
        'POST',
        '/api/vouchers/check',
        { code: voucher.shortCode },
        { authorization: `Device ${hall.kiosk.credential}` },
      )
      expect(check.status, JSON.stringify(check.body)).toBe(200)
      expect(check.body).toMatchObject({ id: voucher.id, status: 'active', shortCode: null })
    } finally {
      if (second) await second.cleanup()
      else await first.cleanup()
    }
  })
})
