import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { PASSWORD, cashierHall, type CashierHall } from '../helpers/cashier.ts'
import { startTestServer } from '../helpers/server.ts'
import { countOf } from '../helpers/cash.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * Issue 24, over real HTTP with authentication on and enrolled cash desks:
 * - point 2 (GEN-9, GEN-10): a person's identity document is read, in every register, record and journal view, only
 *   by the roles that read identities (aml.identity: the AML officer, the director, the regulator's inspector); a
 *   floor manager, a cashier and an auditor read the same register with the document masked.
 * - point 1 (GEN-17): the AML officer's records and the intakes their day totals add up are sealed rows bound to the
 *   journal: the record the inspector reads and the journal's `aml.flagged` say the same amounts; an edited record or
 *   a re-keyed intake is listed by verify-journal, and the buyer's next sale is refused (ROW_TAMPERED, journaled)
 *   rather than added up from a changed day.
 */
const run = promisify(execFile)
const pdfText = async (bytes: Uint8Array) => {
  const { writeFile, mkdtemp } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const file = join(await mkdtemp(join(tmpdir(), 'reg-')), 'r.pdf')
  await writeFile(file, bytes)
  return (await run('pdftotext', [file, '-'])).stdout
}

describe('identity documents to the roles that read them, AML records bound to the journal (issue 24)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  const db = () => server.services.db
  const DOCUMENT = '7654321 LP'
  let payoutId = ''

  const tamper = (sql: string, params: unknown[]) => tamperWith(server, sql, params)
  const verify = async () => {
    const r = await h.call('inspector', 'GET', '/api/journal/verify')
    expect(r.status).toBe(200)
    return r.body as { ok: boolean; rows: { problems: Array<{ table: string; id: string; what: string }> } }
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 })
    h = await cashierHall(server.url, server.services, { faceValueCents: 500 })
    for (const [username, displayName, role] of [
      ['auditora', 'Eva Rojas', 'auditor'],
      ['inspector', 'Raúl Gemio', 'inspector'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      h.tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)
    }
    expect((await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 100_000 })).status).toBe(201)
    expect(
      (await h.call('cajera@caja1', 'POST', `/api/games/${h.setup.gameId}/sales`, { count: 40, ageConfirmed: true }))
        .status,
    ).toBe(201)
    await playToTheEnd(server.services, h.setup.gameId)
    const [winner] = await winningCodes(server.services, h.setup.gameId)
    const paid = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', {
      code: winner.code,
      payeeName: 'Ana Ruiz',
      payeeDocument: DOCUMENT,
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    payoutId = paid.body.payout.payoutId
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it("the prize register, a payout and its receipt show the payee's document to the director and the inspector only; a floor manager, a cashier and an auditor read it masked (GEN-9, GEN-10)", async () => {
    const documentsIn = async (who: string) => {
      const register = await h.call(who, 'GET', `/api/prize-register?hallId=${h.setup.hallId}`)
      expect(register.status, `${who}: ${JSON.stringify(register.body)}`).toBe(200)
      expect(register.body.rows.length).toBeGreaterThanOrEqual(1)
      return register.body.rows.map((r: { payeeDocument: string | null }) => r.payeeDocument)
    }
    for (const who of ['jefa', 'inspector']) expect(await documentsIn(who)).toContain(DOCUMENT)
    for (const who of ['mesa', 'auditora']) {
      const docs = await documentsIn(who)
      expect(docs).not.toContain(DOCUMENT)
      expect(docs).toContain('•••••• LP')
    }
    // The payout by id (report.read: every cash desk reads it).
    expect((await h.call('cajero@caja2', 'GET', `/api/payouts/${payoutId}`)).body.payeeDocument).toBe('•••••• LP')
    expect((await h.call('inspector', 'GET', `/api/payouts/${payoutId}`)).body.payeeDocument).toBe(DOCUMENT)
    // The printed forms: the register's PDF and the receipt's copy.
    const pdfOf = async (who: string, path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${h.tokens.get(who)}` } })
      expect(res.status, path).toBe(200)
      return pdfText(new Uint8Array(await res.arrayBuffer()))
    }
    expect(await pdfOf('auditora', `/api/prize-register.pdf?hallId=${h.setup.hallId}`)).not.toContain('7654321')
    expect(await pdfOf('inspector', `/api/prize-register.pdf?hallId=${h.setup.hallId}`)).toContain('7654321')
    expect(await pdfOf('cajero@caja2', `/api/payouts/${payoutId}/receipt.pdf`)).not.toContain('7654321')
  })

  it("the officer's record and the journal say the same amounts; an edited record or a re-keyed intake is listed by verify-journal, and the buyer's next sale is refused and journaled (GEN-17)", async () => {
    const sell = (smallCents: number, buyerDocument: string) =>
      h.call('cajera@caja1', 'POST', '/api/vouchers', {
        hallId: h.setup.hallId,
        amountCents: smallCents,
        cash: countOf(smallCents, { smallCents }),
        buyerDocument,
      })
    // Bs 2,000 then Bs 2,000 in small notes: the second crosses the Bs 3,000 limit of the day (GEN-17).
    expect((await sell(200_000, '4455667 LP')).body.aml.flagged).toBe(false)
    const second = await sell(200_000, '4455667-lp')
    expect(second.status, JSON.stringify(second.body)).toBe(201)
    expect(second.body.aml.flagged).toBe(true)
    const reportId = second.body.aml.reportId as string
    // The inspector's AML view and the journal's record of it: the same amounts, the same person.
    const view = (await h.call('inspector', 'GET', '/api/aml/reports')).body.reports.find(
      (r: { id: string }) => r.id === reportId,
    )
    expect(view).toMatchObject({ amountCents: 200_000, smallCents: 200_000, windowSmallCents: 400_000 })
    expect(view.buyerDocument).toBe('4455667-lp')
    const flagged = (await db().get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'aml.flagged' ORDER BY seq DESC",
    ))!.payload
    expect(JSON.parse(flagged)).toMatchObject({
      reportId,
      amountCents: view.amountCents,
      smallCents: view.smallCents,
      windowSmallCents: view.windowSmallCents,
      limitCents: view.limitCents,
    })
    expect((await verify()).ok).toBe(true)

    // The record's amount lowered behind the journal: listed.
    await tamper('UPDATE aml_reports SET window_small_cents = ? WHERE id = ?', [300_000, reportId])
    expect((await verify()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'aml_reports', id: reportId })]),
    )
    await tamper('UPDATE aml_reports SET window_small_cents = ? WHERE id = ?', [400_000, reportId])
    expect((await verify()).ok).toBe(true)

    // The buyer's first intake re-keyed so that his day no longer adds it up: listed, and his next sale refused.
    const intake = (await db().get<{ id: string; buyer_key: string }>(
      'SELECT id, buyer_key FROM cash_intakes WHERE ref_id = ?',
      [second.body.voucher.id],
    ))!
    const first = (await db().get<{ id: string }>(
      'SELECT id FROM cash_intakes WHERE buyer_key = ? AND id <> ? ORDER BY at LIMIT 1',
      [intake.buyer_key, intake.id],
    ))!
    await tamper('UPDATE cash_intakes SET buyer_key = ? WHERE id = ?', ['0'.repeat(64), first.id])
    expect((await verify()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'cash_intakes', id: first.id })]),
    )
    await tamper('UPDATE cash_intakes SET buyer_key = ? WHERE id = ?', [intake.buyer_key, first.id])
    expect((await verify()).ok).toBe(true)
    // The day's second intake lowered to Bs 10: the buyer's next sale would add up a day he did not buy.
    await tamper('UPDATE cash_intakes SET amount_cents = ?, small_cents = ? WHERE id = ?', [1_000, 1_000, intake.id])
    const movementsBefore = Number((await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements'))!.n)
    const third = await sell(100_000, '4455667 lp')
    expect(third.status, JSON.stringify(third.body)).toBe(409)
    expect(third.body.error.code).toBe('ROW_TAMPERED')
    expect(third.body.error.message).toMatch(/no coinciden con su sello/)
    expect(Number((await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements'))!.n)).toBe(movementsBefore)
    const refusals = (
      await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq")
    ).map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }> })
    expect(refusals.some((p) => p.rows.some((r) => r.table === 'cash_intakes' && r.id === intake.id))).toBe(true)
  })
})
