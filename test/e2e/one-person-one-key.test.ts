import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { plan649, rafflePlan } from '../helpers/lottery-plans.ts'
import { E_INSTANT } from '../helpers/paid-hall.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 24 point 6, over real HTTP with authentication on and enrolled devices: one person, one key. A review found
 * that the AML totals were keyed by the identity document as typed (three spellings of one CI bought Bs 6,000 in
 * small notes with no record) and that the counter sales of slips, raffle and instant tickets recorded no notes at
 * all (GEN-17). Now every match of a person reads the key of the document (shared/identity.ts), and every cash
 * intake records its denominations on one path (cashdesk/cash-intake.ts), added up per person per day.
 */
const PASSWORD = 'correct horse battery'
// The server's clock: a fixed midday (UTC and La Paz on the same day), then real time, so that the buyer's day
// (CFG-3, a UTC day) holds every sale of the test whatever the real date.
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2030-03-12T15:00:00.000Z') + (Date.now() - started)) }
const DAY = '2030-03-12'
const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
// GEN-17 with the defaults: 30 % of a Bs 10,000 UIF threshold.
const LIMIT = 300_000

describe('one person, one key: AML totals, denominations and the exclusion list (issue 24 point 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: HallSetup
  let till: Till
  let kiosk: { id: string; credential: string }
  let drawId = ''
  let raffleId = ''
  /** A raffle of Bs 1,000 tickets: four of them are over the GEN-17 limit. */
  let dearRaffleId = ''
  const tokens = new Map<string, string>()
  const headersOf = (who: string): Record<string, string> => {
    if (who === 'caja') return till.headers
    if (who === 'kiosco') return { authorization: `Device ${kiosk.credential}`, 'accept-language': 'es' }
    return { authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' }
  }
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, headersOf(who))
  const n = async (sql: string, args: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, args))?.n ?? 0)
  const ok = (r: { status: number; body: any }, status = 201) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status)
    return r.body
  }
  const refused = (r: { status: number; body: any }, status: number, code: string) =>
    expect([r.status, r.body?.error?.code], JSON.stringify(r.body)).toEqual([status, code])
  const voucher = (amountCents: number, smallCents: number, buyerDocument?: string) =>
    call('caja', 'POST', '/api/vouchers', {
      hallId: hall.hallId,
      amountCents,
      cash: countOf(amountCents, { smallCents }),
      ...(buyerDocument !== undefined ? { buyerDocument } : {}),
    })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, lotto, lottery, instant } = server.services
    hall = await hallWithGameOnSale(server.services, { faceValueCents: 500, cards: 300, name: 'Sala Illimani' })
    await auth.createUser({
      username: 'cajera',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [hall.hallId],
    })
    await auth.createUser({ username: 'oficial', displayName: 'Elena Mamani', role: 'aml_officer', password: PASSWORD })
    tokens.set('oficial', (await auth.login('oficial', PASSWORD)).token)
    till = await openTill(server.url, server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: hall.hallId })
    const now = clock.now().getTime()
    drawId = (
      await lotto.createDraw(
        plan649({
          gameCode: 'LOTOKEY',
          salesStartAt: laPaz(now - 86_400_000),
          salesCloseAt: laPaz(now + 5 * 86_400_000),
          drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
          claimDeadline: laPaz(now + 70 * 86_400_000),
        }),
      )
    ).drawId
    raffleId = (
      await lottery.createRaffle(
        rafflePlan({
          gameCode: 'RIFAKEY',
          currency: 'BOB',
          authorisationRef: 'AJ-RIFA-PRUEBA-1',
          salesStartAt: new Date(now - 3_600_000).toISOString(),
          salesCloseAt: new Date(now + 86_400_000).toISOString(),
          drawAt: new Date(now + 90_000_000).toISOString(),
          claimDeadline: new Date(now + 70 * 86_400_000).toISOString(),
        } as Parameters<typeof rafflePlan>[0]),
      )
    ).drawId
    dearRaffleId = (
      await lottery.createRaffle(
        rafflePlan({
          gameCode: 'RIFAMIL',
          currency: 'BOB',
          authorisationRef: 'AJ-RIFA-PRUEBA-2',
          ticketPriceCents: 100_000,
          salesStartAt: new Date(now - 3_600_000).toISOString(),
          salesCloseAt: new Date(now + 86_400_000).toISOString(),
          drawAt: new Date(now + 90_000_000).toISOString(),
          claimDeadline: new Date(now + 70 * 86_400_000).toISOString(),
        } as Parameters<typeof rafflePlan>[0]),
      )
    ).drawId
    await instant.generateBatch({ design: E_INSTANT, by: { kind: 'person', id: 'test' } })
    await instant.configureHall({
      hallId: hall.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'test',
    })
  })
  afterAll(async () => server?.cleanup())

  it("three spellings of one CI buying Bs 6,000 in small notes are one person: the second sale crosses GEN-17 and opens the officer's record", async () => {
    const spellings = ['4567890 LP', '4567890-lp', ' 4567890lp']
    const answers = []
    for (const doc of spellings) answers.push(ok(await voucher(200_000, 200_000, doc)))
    // Bs 2,000 each, under the limit alone; the person's day is Bs 2,000, 4,000, 6,000 (limit Bs 3,000).
    expect(answers.map((a) => a.aml.flagged)).toEqual([false, true, true])
    const reports = ok(await call('oficial', 'GET', '/api/aml/reports?status=open'), 200).reports.filter(
      (r: { buyerKey: string | null }) => r.buyerKey === '4567890',
    )
    expect(reports.map((r: { windowSmallCents: number }) => r.windowSmallCents).sort()).toEqual([400_000, 600_000])
    // The record keeps the document as the cashier typed it (display), and names the rule.
    expect(reports.map((r: { buyerDocument: string }) => r.buyerDocument).sort()).toEqual(['4567890-lp', '4567890lp'])
    expect(
      reports.every((r: { rule: string; limitCents: number }) => r.rule === 'GEN-17' && r.limitCents === LIMIT),
    ).toBe(true)
    // The officer's view of the person's day, asked with a fourth spelling.
    const day = ok(
      await call('oficial', 'GET', `/api/aml/day?document=${encodeURIComponent('CI 4.567.890 La Paz')}&day=${DAY}`),
      200,
    )
    expect(day).toMatchObject({ buyerKey: '4567890', smallCents: 600_000, amountCents: 600_000, notCountedCents: 0 })
    expect(day.intakes).toHaveLength(3)
    // A cashier does not read it.
    refused(await call('caja', 'GET', `/api/aml/day?document=4567890&day=${DAY}`), 403, 'FORBIDDEN')
  })

  it("counter sales of a lotto slip, raffle and instant tickets record their notes, and the buyer's day adds them to the voucher bought in small notes (GEN-17)", async () => {
    // Bs 2,980 of small notes on a voucher: under the limit.
    expect(ok(await voucher(298_000, 298_000, '3344556 cb')).aml.flagged).toBe(false)
    const slip = ok(
      await call('caja', 'POST', `/api/lotto/draws/${drawId}/slips`, {
        ageConfirmed: true,
        quickPicks: 1,
        player: { name: 'Juana Rojas Flores', document: '3344556-CB' },
        cash: countOf(500),
      }),
    )
    expect(slip.payment).toMatchObject({ paidBy: 'cash', amountCents: 500, aml: { flagged: false } })
    const raffle = ok(
      await call('caja', 'POST', `/api/lottery/draws/${raffleId}/tickets`, {
        ageConfirmed: true,
        count: 2,
        buyerName: 'Juana Rojas',
        buyerDocument: 'CI 3344556',
        cash: countOf(1000),
      }),
    )
    expect(raffle.payment).toMatchObject({ amountCents: 1000, aml: { flagged: false } })
    // The e-instant ticket takes the person's day to Bs 3,005: over the limit, the record opens on this counter sale.
    const ticket = ok(
      await call('caja', 'POST', `/api/instant/halls/${hall.hallId}/electronic`, {
        ageConfirmed: true,
        gameNo: E_INSTANT.gameNo,
        buyerDocument: '3.344.556 Cochabamba',
        cash: countOf(1000),
      }),
    )
    expect(ticket.payment.aml).toMatchObject({ flagged: true, counted: true })
    const report = ok(await call('oficial', 'GET', '/api/aml/reports'), 200).reports.find(
      (r: { id: string }) => r.id === ticket.payment.aml.reportId,
    )
    expect(report).toMatchObject({
      buyerKey: '3344556',
      windowSmallCents: 300_500,
      voucherId: '',
      saleId: ticket.payment.saleId,
      smallCents: 1000,
    })
    // A card sold at the counter with its notes not counted (an older screen): recorded so, and counted whole.
    const cards = ok(
      await call('caja', 'POST', `/api/games/${hall.gameId}/sales`, {
        ageConfirmed: true,
        count: 1,
        playerDocument: '3344556 CB',
      }),
    )
    expect(cards.aml).toMatchObject({ flagged: true, counted: false })
    const day = ok(await call('oficial', 'GET', `/api/aml/day?document=3344556&day=${DAY}&hallId=${hall.hallId}`), 200)
    expect(
      day.intakes.map(
        (i: {
          source: string
          counted: boolean
          smallCents: number | null
          otherCents: number | null
          amountCents: number
        }) => [i.source, i.counted, i.smallCents, i.otherCents, i.amountCents],
      ),
    ).toEqual([
      ['voucher', true, 298_000, 0, 298_000],
      ['counter_sale', true, 500, 0, 500],
      ['counter_sale', true, 1000, 0, 1000],
      ['counter_sale', true, 1000, 0, 1000],
      ['counter_sale', false, null, null, 500],
    ])
    expect(day).toMatchObject({ smallCents: 301_000, notCountedCents: 500, limitCents: LIMIT })
    // Each counter sale's intake is the sale of its cash movement, under the same person's key as the voucher's. The
    // stored key is keyed under the sealing key (issue 24 point 2): the plain key '3344556' is not in the table.
    expect(
      await n(
        "SELECT COUNT(*) AS n FROM cash_intakes i JOIN cash_movements m ON m.ref_id = i.ref_id AND m.kind = 'counter_sale' WHERE i.source = 'counter_sale' AND i.buyer_key = (SELECT buyer_key FROM cash_intakes WHERE source = 'voucher' AND small_cents = 298000)",
      ),
    ).toBe(4)
    expect(
      await n("SELECT COUNT(*) AS n FROM cash_intakes WHERE buyer_key = '3344556' OR buyer_document LIKE '%3344556%'"),
    ).toBe(0)
  })

  it('a counter sale is refused when its notes do not add up, when it is over the limit uncounted, or when its small notes over the limit name nobody; nothing is sold', async () => {
    const before = {
      moves: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      raffle: await n('SELECT COUNT(*) AS n FROM lottery_sales WHERE draw_id IN (?, ?)', [raffleId, dearRaffleId]),
    }
    const bad = await call('caja', 'POST', `/api/lottery/draws/${raffleId}/tickets`, {
      ageConfirmed: true,
      count: 2,
      cash: countOf(500),
    })
    refused(bad, 400, 'VALIDATION_FAILED')
    expect(bad.body.error.details).toMatchObject({ field: 'cash', rule: 'GEN-17' })
    // Four Bs 1,000 raffle tickets: over the limit, the notes are counted.
    const uncounted = await call('caja', 'POST', `/api/lottery/draws/${dearRaffleId}/tickets`, {
      ageConfirmed: true,
      count: 4,
    })
    refused(uncounted, 422, 'CASH_COUNT_REQUIRED')
    expect(uncounted.body.error.message).toMatch(/contar el efectivo por billete y moneda/)
    expect(uncounted.body.error.details).toMatchObject({ field: 'cash', rule: 'GEN-17' })
    refused(
      await call('caja', 'POST', `/api/lottery/draws/${dearRaffleId}/tickets`, {
        ageConfirmed: true,
        count: 4,
        cash: countOf(400_000, { smallCents: 350_000 }),
      }),
      422,
      'BUYER_ID_REQUIRED',
    )
    expect({
      moves: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      raffle: await n('SELECT COUNT(*) AS n FROM lottery_sales WHERE draw_id IN (?, ?)', [raffleId, dearRaffleId]),
    }).toEqual(before)
  })

  it('a player excluded as "CI 7654321 LP" is refused under any other spelling at every sale that names a buyer: voucher, counter slip, cards, raffle, instant, kiosk purchase (GEN-23, GEN-27)', async () => {
    const { players } = server.services
    await players.exclude(
      {
        document: 'CI 7654321 LP',
        name: 'Jugador Autoexcluido',
        kind: 'self_excluded',
        reason: 'autoexclusión voluntaria',
      },
      'oficial',
    )
    // A voucher sold before a second exclusion, to a player excluded afterwards under a shorter spelling.
    const early = ok(await voucher(5_000, 0, '1112223 SC')).voucher
    await players.exclude(
      { document: '1112223', name: 'Otro Jugador', kind: 'prohibited', reason: 'prohibido por la sala' },
      'oficial',
    )
    const counts = async () => ({
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'),
      slips: await n('SELECT COUNT(*) AS n FROM lotto_slips'),
      moves: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      cards: (await server.services.bingo.getGameState(hall.gameId)).cardsSold,
    })
    const before = await counts()
    const player = { name: 'Jugador Autoexcluido', document: '7654321 La Paz' }
    const attempts: Array<[string, string, string, unknown]> = [
      [
        'caja',
        'POST',
        '/api/vouchers',
        {
          hallId: hall.hallId,
          amountCents: 5_000,
          cash: countOf(5_000),
          buyerDocument: '7654321-lp',
        },
      ],
      [
        'caja',
        'POST',
        `/api/lotto/draws/${drawId}/slips`,
        { ageConfirmed: true, quickPicks: 1, player, cash: countOf(500) },
      ],
      [
        'caja',
        'POST',
        `/api/games/${hall.gameId}/sales`,
        { ageConfirmed: true, count: 1, playerDocument: '7.654.321' },
      ],
      [
        'caja',
        'POST',
        `/api/games/${hall.gameId}/sales`,
        { ageConfirmed: true, count: 1, buyerDocument: ' 7654321lp' },
      ],
      [
        'caja',
        'POST',
        `/api/lottery/draws/${raffleId}/tickets`,
        { ageConfirmed: true, count: 1, buyerDocument: 'ci7654321', cash: countOf(500) },
      ],
      [
        'caja',
        'POST',
        `/api/instant/halls/${hall.hallId}/electronic`,
        { ageConfirmed: true, gameNo: E_INSTANT.gameNo, buyerDocument: '7654321 exp. LP' },
      ],
      [
        'kiosco',
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: early.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      ],
    ]
    for (const [who, method, path, body] of attempts) {
      const r = await call(who, method, path, body)
      refused(r, 403, 'PLAYER_EXCLUDED')
      expect(r.body.error.message).toMatch(/exclu/i)
    }
    // A clean voucher buys at the kiosk, but not a slip naming the excluded player under another spelling.
    const clean = ok(await voucher(5_000, 0)).voucher
    refused(
      await call('kiosco', 'POST', '/api/kiosk/purchases', {
        voucherCode: clean.code,
        ageConfirmed: true,
        slips: [{ drawId, quickPicks: 1, player: { name: 'X Y', document: '7654321-LP' } }],
      }),
      403,
      'PLAYER_EXCLUDED',
    )
    expect(await counts()).toEqual({ ...before, vouchers: before.vouchers + 1, moves: before.moves + 1 })
    // The excluded buyer's voucher keeps its credit.
    expect(
      (await server.services.db.get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [early.id]))
        ?.status,
    ).toBe('active')
    // The journal records each refusal (the fact, not the document).
    expect(await n("SELECT COUNT(*) AS n FROM journal WHERE type = 'player.refused'")).toBeGreaterThanOrEqual(
      attempts.length + 1,
    )
  })
})
