import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { plan649, rafflePlan } from '../helpers/lottery-plans.ts'
import { E_INSTANT } from '../helpers/paid-hall.ts'
import { sealed } from '../helpers/device-marks.ts'
import { TERMINAL_TERMS } from '../helpers/terminals.ts'

/**
 * CFG-2 (002 §1.2.1.V: "billetes de corte menor (Bs10 y/o Bs20 y/o monedas fraccionadas)"), over real HTTP with
 * authentication on and an enrolled terminal: a cash count is given by denomination, how many of each note and coin,
 * and the hall's profile (its currency's notes and coins) says which are small for GEN-17, not an amount the cashier
 * types. Every cash intake (a voucher, a terminal's cash load, counter cards, a lotto slip, raffle and instant tickets)
 * records the split the profile makes; a note or coin the currency does not have is refused with a Spanish message
 * naming the hall's notes and coins, and nothing is sold or taken.
 */
const PASSWORD = 'correct horse battery'
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2030-03-12T15:00:00.000Z') + (Date.now() - started)) }
const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`

describe("a cash count by denomination, split by the hall's profile (CFG-2, GEN-17)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: HallSetup
  let till: Till
  let terminal: { id: string; credential: string }
  let drawId = ''
  let raffleId = ''
  const call = (method: string, path: string, body?: unknown, lang = 'es') =>
    api(server.url, method, path, body, { ...till.headers, 'accept-language': lang })
  const intakes = async () =>
    (
      await server.services.db.all<{ source: string; small_cents: number; other_cents: number; amount_cents: number }>(
        'SELECT source, small_cents, other_cents, amount_cents FROM cash_intakes ORDER BY at, id',
      )
    ).map((r) => [r.source, Number(r.small_cents), Number(r.other_cents), Number(r.amount_cents)])
  const n = async (sql: string) => Number((await server.services.db.get<{ n: number }>(sql))?.n ?? 0)

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
    till = await openTill(server.url, server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    await server.services.terminals.setTerms({ hallId: hall.hallId, ...TERMINAL_TERMS, by: 'test' })
    terminal = await auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 1', hallId: hall.hallId })
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
    await instant.generateBatch({ design: E_INSTANT, by: { kind: 'person', id: 'test' } })
    await instant.configureHall({
      hallId: hall.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'test',
    })
  })
  afterAll(async () => server?.cleanup())

  /** Every intake path, each paid with the given cash (`amount` minor units in all). */
  const withCash = (cash: unknown) => ({
    voucher: (amountCents: number) => call('POST', '/api/vouchers', { hallId: hall.hallId, amountCents, cash }),
    terminalLoad: (amountCents: number) =>
      call('POST', '/api/terminal-sessions/load', {
        terminalId: terminal.id,
        amountCents,
        cash,
        ageConfirmed: true,
      }),
    cards: () => call('POST', `/api/games/${hall.gameId}/sales`, { ageConfirmed: true, count: 1, cash }),
    slip: () =>
      call('POST', `/api/lotto/draws/${drawId}/slips`, {
        ageConfirmed: true,
        quickPicks: 1,
        player: { name: 'Juana Rojas Flores', document: '3344556-CB' },
        cash,
      }),
    raffle: () =>
      call('POST', `/api/lottery/draws/${raffleId}/tickets`, {
        ageConfirmed: true,
        count: 1,
        buyerName: 'Juana Rojas',
        buyerDocument: 'CI 3344556',
        cash,
      }),
    instant: () =>
      call('POST', `/api/instant/halls/${hall.hallId}/electronic`, {
        ageConfirmed: true,
        gameNo: E_INSTANT.gameNo,
        cash,
      }),
  })
  /** Every intake path, each paid with the given pieces. */
  const paths = (pieces: Record<string, number>) => withCash({ pieces })

  it('records in every intake the small and other cash the profile counts, whatever the cashier would type', async () => {
    // Bs 5 (a card, a slip): two Bs 2 coins and one Bs 1 coin; every coin is small in Bolivia (monedas fraccionadas).
    const coins = paths({ '200': 2, '100': 1 })
    expect((await coins.cards()).status).toBe(201)
    expect((await coins.slip()).status).toBe(201)
    // A Bs 5 raffle ticket: one Bs 5 coin, small; a Bs 10 e-instant ticket: one Bs 10 note, small.
    const raffle = await paths({ '500': 1 }).raffle()
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    const inst = await paths({ '1000': 1 }).instant()
    expect(inst.status, JSON.stringify(inst.body)).toBe(201)
    // Bs 170: one Bs 100 and one Bs 50 note (not small), one Bs 20 note (small).
    const mixed = paths({ '10000': 1, '5000': 1, '2000': 1 })
    const v = await mixed.voucher(17_000)
    expect(v.status, JSON.stringify(v.body)).toBe(201)
    const load = await mixed.terminalLoad(17_000)
    expect(load.status, JSON.stringify(load.body)).toBe(201)
    const rows = await intakes()
    expect(rows).toEqual([
      ['counter_sale', 500, 0, 500],
      ['counter_sale', 500, 0, 500],
      ['counter_sale', 500, 0, 500],
      ['counter_sale', 1000, 0, 1000],
      ['voucher', 2000, 15_000, 17_000],
      ['voucher', 2000, 15_000, 17_000],
    ])
  })

  it('refuses a note or coin the currency does not have, in every intake, with the notes and coins of the hall', async () => {
    const before = { intakes: (await intakes()).length, cash: await n('SELECT COUNT(*) AS n FROM cash_movements') }
    // A Bs 30 note does not exist; nor does a 0.05 coin.
    const bad = paths({ '3000': 1, '2000': 1 })
    for (const [name, r] of [
      ['voucher', await bad.voucher(5000)],
      ['terminal load', await bad.terminalLoad(5000)],
      ['cards', await paths({ '5': 100 }).cards()],
      ['slip', await paths({ '5': 100 }).slip()],
      ['raffle', await paths({ '5': 100 }).raffle()],
      ['instant', await paths({ '5': 100 }).instant()],
    ] as const) {
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(422)
      expect(r.body.error.code, name).toBe('DENOMINATION_UNKNOWN')
      expect(r.body.error.message, name).toMatch(
        /^Bs (30|0,05) no es un billete ni una moneda de la sala\. Billetes: Bs 10, Bs 20, Bs 50, Bs 100, Bs 200\. Monedas: Bs 0,10, Bs 0,20, Bs 0,50, Bs 1, Bs 2, Bs 5\.$/,
      )
    }
    expect({ intakes: (await intakes()).length, cash: await n('SELECT COUNT(*) AS n FROM cash_movements') }).toEqual(
      before,
    )
    // And in English.
    const en = await call(
      'POST',
      '/api/vouchers',
      { hallId: hall.hallId, amountCents: 3000, cash: { pieces: { '3000': 1 } } },
      'en',
    )
    expect(en.body.error.message).toMatch(/^Bs 30 is not a note or coin of the hall\. Notes: Bs 10, Bs 20/)
  })

  it('refuses the old split (small, other) at every intake, in Spanish and English, and sells or takes nothing', async () => {
    // Issue 26: a cashier typing Bs 4.000 as "other" (or as "small") states the split itself; only pieces are taken.
    const sold = async () => ({
      intakes: (await intakes()).length,
      cash: await n('SELECT COUNT(*) AS n FROM cash_movements'),
      vouchers: await n('SELECT COUNT(*) AS n FROM vouchers'),
      cards: await n('SELECT COUNT(*) AS n FROM cards'),
      slips: await n('SELECT COUNT(*) AS n FROM lotto_slips'),
      raffle: await n('SELECT COUNT(*) AS n FROM lottery_sales'),
      instant: await n('SELECT COUNT(*) AS n FROM instant_sales'),
      sessions: await n('SELECT COUNT(*) AS n FROM terminal_sessions'),
    })
    const before = await sold()
    // Something of each was sold before (the first test), so an unchanged count is a sale refused, not a table unused.
    expect(
      Object.values(before).every((v) => v > 0),
      JSON.stringify(before),
    ).toBe(true)
    const forms = [{ smallCents: 0, otherCents: 400_000 }, { smallCents: 500 }, { otherCents: 500 }]
    for (const split of forms) {
      const old = withCash(split)
      for (const [name, r] of [
        ['voucher', await old.voucher(400_000)],
        ['terminal load', await old.terminalLoad(400_000)],
        ['cards', await old.cards()],
        ['slip', await old.slip()],
        ['raffle', await old.raffle()],
        ['instant', await old.instant()],
      ] as const) {
        expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(400)
        expect(r.body.error.code, name).toBe('CASH_COUNT_BY_PIECE')
        expect(r.body.error.details, name).toMatchObject({ field: 'cash' })
        expect(r.body.error.message, name).toBe(
          'Cuente el efectivo por billete y moneda: cuántos billetes y monedas de cada valor se entregaron. Ya no se acepta un importe repartido a mano entre billetes pequeños y otros; la sala decide cuáles son pequeños.',
        )
      }
    }
    // Beside a count by piece too: the split is not a second opinion on it.
    const both = await withCash({ pieces: { '500': 1 }, smallCents: 0, otherCents: 500 }).cards()
    expect(both.body.error?.code).toBe('CASH_COUNT_BY_PIECE')
    const en = await call(
      'POST',
      '/api/vouchers',
      { hallId: hall.hallId, amountCents: 5000, cash: { smallCents: 0, otherCents: 5000 } },
      'en',
    )
    expect(en.body.error.message).toMatch(/^Count the cash by note and coin: how many notes and coins of each value/)
    expect(await sold()).toEqual(before)
  })

  it('checks the count adds up to the amount from the pieces, not from what is typed', async () => {
    const r = await paths({ '2000': 1 }).voucher(5000)
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.error.code).toBe('VALIDATION_FAILED')
  })
})
