import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed, TEST_PRINTER_ID } from '../helpers/device-marks.ts'
import { openTill } from '../helpers/till.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * Issue 24 point 1 for the rules added with migrations 0340-0380: a game's own bet limits (CFG-7), the hall's figure
 * plan and a game's figures (CFG-13), the certified software records and a game's software (RNG-32), the registered
 * ticket printers (GEN-4, GEN-7, BNG-9) and the exclusion list with its source (GEN-23, CFG-4). Over real HTTP
 * with authentication on: a row edited (or deleted) in the database behind the journal is refused where the server
 * reads it (ROW_TAMPERED, a `row.tampered` record), verify-journal lists it, and put back as the server wrote it, the
 * sale, the announcement, the close or the claim goes through.
 */
describe('the rule tables edited behind the journal are refused where they are read (issue 24 point 1)', () => {
  let s: RulesServer
  const db = () => s.server.services.db

  const tamper = (sql: string, params: unknown[]) => tamperWith(s.server, sql, params)
  const refusalsOf = async (table: string, id: string) =>
    (await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq"))
      .map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }> })
      .filter((p) => p.rows.some((x) => x.table === table && x.id === id))
  const problems = async () => {
    const r = await s.call('auditor', 'GET', '/api/journal/verify')
    expect(r.status).toBe(200)
    return r.body as { ok: boolean; rows: { problems: Array<{ table: string; id: string; what: string }> } }
  }
  /** Refused for the row `table`/`id`, the refusal journaled (`times` so far) and the row listed by verify. */
  const refusedFor = async (
    r: { status: number; body: { error?: { code: string } } },
    table: string,
    id: string,
    times = 1,
  ): Promise<void> => {
    expect(r.status, JSON.stringify(r.body)).toBe(409)
    expect(r.body.error!.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf(table, id)).toHaveLength(times)
    expect((await problems()).rows.problems).toEqual(expect.arrayContaining([expect.objectContaining({ table, id })]))
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-25T20:00:00.000Z')
  })
  afterAll(async () => s?.server.cleanup())

  async function gameOnSale(hallId: string, seriesId: string, body: Record<string, unknown> = {}) {
    const sessionId = await openSession(s, hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [seriesId],
      drawSource: 'manual',
      ...body,
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    return { sessionId, gameId }
  }

  it("a game's own bet limits raised or deleted in the database sell nothing: the sale is refused and verify lists the row; put back, the limits hold again (CFG-7)", async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'seal-limits' })
    const { gameId } = await gameOnSale(hall.hallId, hall.seriesId)
    const one = {
      authorisationRef: 'AJ-RA-PLAN-2026-9',
      minCardsPerPurchase: 1,
      maxCardsPerPurchase: 1,
      maxCardsPerPlayer: 1,
    }
    expect((await s.call('jefa', 'PUT', `/api/games/${gameId}/sale-limits`, { limits: one })).status).toBe(200)
    const till = (await s.till(hall.hallId)).headers
    const sell = (count: number) =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count }, till)
    expect((await sell(2)).body.error?.code).toBe('BET_OUT_OF_LIMITS')
    const row = (await db().get<Record<string, string | null>>('SELECT * FROM game_sale_limits WHERE game_id = ?', [
      gameId,
    ]))!
    // The game's limit widened to 50 a purchase behind the journal: two cards are not sold at it.
    await tamper('UPDATE game_sale_limits SET limits = ? WHERE game_id = ?', [
      JSON.stringify({ ...JSON.parse(row.limits!), maxCardsPerPurchase: 50, maxCardsPerPlayer: 50 }),
      gameId,
    ])
    await refusedFor(await sell(2), 'game_sale_limits', gameId)
    // The row deleted (the hall's wider limits would apply): refused as well.
    await tamper('DELETE FROM game_sale_limits WHERE game_id = ?', [gameId])
    await refusedFor(await sell(2), 'game_sale_limits', gameId, 2)
    await tamper(
      'INSERT INTO game_sale_limits (game_id, limits, authorisation_ref, set_at, set_by) VALUES (?, ?, ?, ?, ?)',
      [row.game_id, row.limits, row.authorisation_ref, row.set_at, row.set_by],
    )
    expect((await sell(2)).body.error?.code).toBe('BET_OUT_OF_LIMITS')
    expect((await sell(1)).status).toBe(201)
    // Removed by the director, through the server: the hall's limits apply and the removal is itself sealed.
    expect((await s.call('jefa', 'PUT', `/api/games/${gameId}/sale-limits`, { limits: null })).status).toBe(200)
    const two = await sell(2)
    expect(two.status, JSON.stringify(two.body)).toBe(201)
    expect((await problems()).ok).toBe(true)
  })

  it("the hall's figure plan or a game's figure edited in the database: no game is announced from the plan, no pool is fixed from the share and no figure is paid from the pool; put back, the game is played (CFG-13)", async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Tuni', seed: 'seal-figures' })
    const plan = { authorisationRef: 'AJ/LIC/FIG-2026-9', prizes: [{ figure: 'four-corners', shareBp: 500 }] }
    expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/figure-plan`, plan)).status).toBe(200)
    const planRow = (await db().get<{ id: string; body: string }>(
      "SELECT id, body FROM hall_plans WHERE hall_id = ? AND kind = 'figures'",
      [hall.hallId],
    ))!
    const sessionId = await openSession(s, hall.hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
        seriesIds: [hall.seriesId],
        drawSource: 'manual',
        figures: ['four-corners'],
      })
    // The approved share of four corners raised from 5 % to 40 % behind the journal: no game plays it.
    const raised = JSON.stringify({ ...JSON.parse(planRow.body), prizes: [{ figure: 'four-corners', shareBp: 4000 }] })
    await tamper('UPDATE hall_plans SET body = ? WHERE id = ?', [raised, planRow.id])
    await refusedFor(await announce(), 'hall_plans', planRow.id)
    await tamper('UPDATE hall_plans SET body = ? WHERE id = ?', [planRow.body, planRow.id])
    const g = await announce()
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    const figureId = `${gameId}|four-corners`
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const till = (await s.till(hall.hallId)).headers
    const sold = await api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 10 }, till)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const serial = sold.body.cards[0].serial as string
    // The game's share raised behind the journal: the sales are not closed on it (no pool is fixed from it).
    await tamper('UPDATE game_figures SET share_bp = ? WHERE game_id = ?', [4000, gameId])
    await refusedFor(await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {}), 'game_figures', figureId)
    await tamper('UPDATE game_figures SET share_bp = ? WHERE game_id = ?', [500, gameId])
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    // 10 x 5.00 = 50.00: four corners 5 % = 2.50.
    expect(closed.body.figures[0].poolCents).toBe(250)
    const rows = JSON.parse(
      (await db().get<{ numbers: string }>('SELECT numbers FROM cards WHERE game_id = ? AND serial = ?', [
        gameId,
        serial,
      ]))!.numbers,
    ) as number[][]
    for (const b of [rows[0][0], rows[0][rows[0].length - 1], rows[2][0], rows[2][rows[2].length - 1]])
      expect((await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })).status).toBe(200)
    // The figure's pool raised to 500.00 behind the journal: the claim of it pays nothing.
    await tamper('UPDATE game_figures SET pool_cents = ? WHERE game_id = ?', [50_000, gameId])
    const claim = () =>
      s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'figure:four-corners', serial })
    await refusedFor(await claim(), 'game_figures', figureId, 2)
    await tamper('UPDATE game_figures SET pool_cents = ? WHERE game_id = ?', [250, gameId])
    const ok = await claim()
    expect(ok.body.ok, JSON.stringify(ok.body)).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})).status).toBe(200)
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes as Array<{
      kind: string
      amount_cents: number
    }>
    expect(prizes.filter((p) => p.kind === 'figure:four-corners').map((p) => Number(p.amount_cents))).toEqual([250])
    expect((await problems()).ok).toBe(true)
  })

  it("a software certificate edited in the database certifies nothing: a game drawn by software is not announced; a game's recorded software edited is listed by verify (RNG-32)", async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Condoriri', seed: 'seal-software' })
    const sessionId = await openSession(s, hall.hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId], drawSource: 'rng' })
    const cert = (await db().get<{ id: string; certificate_ref: string }>(
      "SELECT id, certificate_ref FROM certified_software WHERE component = 'draw-engine' AND jurisdiction = 'BO-2025' AND status = 'active'",
    ))!
    // The laboratory's reference rewritten behind the journal: the draw engine is not certified by it.
    await tamper('UPDATE certified_software SET certificate_ref = ? WHERE id = ?', ['CERT-FALSO', cert.id])
    await refusedFor(await announce(), 'certified_software', cert.id)
    await tamper('UPDATE certified_software SET certificate_ref = ? WHERE id = ?', [cert.certificate_ref, cert.id])
    const g = await announce()
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    // The certificate a game ran under rewritten in its record: verify-journal lists it.
    await tamper("UPDATE game_software SET certificate_ref = ? WHERE game_id = ? AND component = 'draw-engine'", [
      'CERT-FALSO',
      gameId,
    ])
    expect((await problems()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'game_software', id: `${gameId}|draw-engine` })]),
    )
    await tamper("UPDATE game_software SET certificate_ref = ? WHERE game_id = ? AND component = 'draw-engine'", [
      cert.certificate_ref,
      gameId,
    ])
    expect((await problems()).ok).toBe(true)
  })
  it("a printer's seal code blanked or the device it serves changed in the database: the kiosk and the counter sell nothing on it; put back, they sell (GEN-7, GEN-4, BNG-9)", async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'seal-printer' })
    const { gameId } = await gameOnSale(hall.hallId, hall.seriesId)
    const counter = await openTill(s.server.url, s.server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja Illimani',
      floatCents: 100_000,
    })
    const kiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco Illimani',
      hallId: hall.hallId,
    })
    const vouchers: Array<{ code: string }> = []
    for (let i = 0; i < 3; i++) vouchers.push(await sellVoucher(s.server.url, hall.hallId, 1_000, {}, counter.headers))
    const atCounter = () =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 1 }, counter.headers)
    const atKiosk = async () => {
      const r = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: vouchers[0].code, ageConfirmed: true, cards: { gameId, count: 1 } },
        { authorization: `Device ${kiosk.credential}`, 'accept-language': 'es' },
      )
      if (r.status === 201) vouchers.shift()
      return r
    }
    const printer = (await db().get<{ seal_code: string; serves_device_id: string | null }>(
      'SELECT seal_code, serves_device_id FROM devices WHERE id = ?',
      [TEST_PRINTER_ID],
    ))!
    expect(printer.serves_device_id).toBeNull()
    // The operator's printer's seal code blanked behind the journal: neither the kiosk nor the counter believes it.
    await tamper('UPDATE devices SET seal_code = NULL WHERE id = ?', [TEST_PRINTER_ID])
    await refusedFor(await atKiosk(), 'devices', TEST_PRINTER_ID)
    await refusedFor(await atCounter(), 'devices', TEST_PRINTER_ID, 2)
    await tamper('UPDATE devices SET seal_code = ? WHERE id = ?', [printer.seal_code, TEST_PRINTER_ID])
    const sold = await atKiosk()
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const counterSold = await atCounter()
    expect(counterSold.status, JSON.stringify(counterSold.body)).toBe(201)
    // The printer made the kiosk's own behind the journal: the kiosk does not print value on it.
    await tamper('UPDATE devices SET serves_device_id = ? WHERE id = ?', [kiosk.id, TEST_PRINTER_ID])
    await refusedFor(await atKiosk(), 'devices', TEST_PRINTER_ID, 3)
    await tamper('UPDATE devices SET serves_device_id = NULL WHERE id = ?', [TEST_PRINTER_ID])
    const again = await atKiosk()
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect((await problems()).ok).toBe(true)
  })

  it("an exclusion's list source edited in the database is listed by verify; put back, the journal verifies (GEN-23, CFG-4)", async () => {
    const r = await s.call('jefa', 'POST', '/api/players/exclusions', {
      document: 'CI 7654321 LP',
      name: 'Rosa Mamani',
      kind: 'prohibited',
      reason: 'lista internacional',
      listSource: 'UIF 2025-10',
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const id = (r.body.id ?? r.body.exclusion?.id) as string
    const row = (await db().get<{ list_source: string }>('SELECT list_source FROM player_exclusions WHERE id = ?', [
      id,
    ]))!
    expect(row.list_source).toBeTruthy()
    await tamper('UPDATE player_exclusions SET list_source = ? WHERE id = ?', ['UIF 2019-01', id])
    expect((await problems()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'player_exclusions', id })]),
    )
    await tamper('UPDATE player_exclusions SET list_source = ? WHERE id = ?', [row.list_source, id])
    expect((await problems()).ok).toBe(true)
  })
})
