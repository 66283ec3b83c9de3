import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * GEN-25, issue 26. The audit's scenario: "an excluded player buys anonymously at the counter or kiosk" (the
 * exclusion list is asked only about documents a sale names). A hall may require a verified player before selling:
 * then every channel (counter cards and e-instant, kiosk, terminal) refuses a sale that names no identity document
 * (PLAYER_ID_REQUIRED), and the one it names is asked about on the exclusion list. Over real HTTP, authentication on.
 */
describe('a hall that sells only to identified players (GEN-25)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let terminal: { id: string; credential: string }
  const es = { 'accept-language': 'es' }
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const cardsSold = async () => (await server.services.bingo.getGameState(hall.gameId)).cardsSold
  const cards = (body: Record<string, unknown>) =>
    api(server.url, 'POST', `/api/games/${hall.gameId}/sales`, { count: 1, ageConfirmed: true, ...body }, asCashier())
  const kioskBuys = (voucherCode: string) =>
    api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
  const refusedAnonymous = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(403)
    expect(r.body.error.code).toBe('PLAYER_ID_REQUIRED')
    expect(r.body.error.message).toMatch(/^Esta sala vende solo a jugadores identificados/)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    terminal = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 1',
      hallId: hall.hallId,
    })
    const excluded = await api(
      server.url,
      'POST',
      '/api/players/exclusions',
      {
        document: '5566778 LP',
        name: 'Jugador Autoexcluido',
        kind: 'self_excluded',
        reason: 'autoexclusión pedida por el jugador',
      },
      asDirector(),
    )
    expect(excluded.status, JSON.stringify(excluded.body)).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  it('sells anonymously while the hall does not require it (the default)', async () => {
    expect((await cards({})).status).toBe(201)
  })

  it('is set by the director only, and journaled', async () => {
    const path = `/api/halls/${hall.hallId}/identified-sales`
    expect((await api(server.url, 'PUT', path, { required: true }, asCashier())).status).toBe(403)
    const set = await api(server.url, 'PUT', path, { required: true }, asDirector())
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body).toEqual({ hallId: hall.hallId, identifiedSales: true })
    const rec = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'hall.identified_sales_set'",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ required: true, rule: 'GEN-25' })
  })

  it('refuses an anonymous counter sale of cards or an e-instant ticket; an excluded document is refused by name', async () => {
    const before = await cardsSold()
    refusedAnonymous(await cards({}))
    refusedAnonymous(
      await api(
        server.url,
        'POST',
        `/api/instant/halls/${hall.hallId}/electronic`,
        { gameNo: hall.gameNo, ageConfirmed: true },
        asCashier(),
      ),
    )
    // Whichever field names the person, the exclusion list is asked about it.
    for (const named of [{ playerDocument: '5566778 LP' }, { buyerDocument: '5566778lp' }]) {
      const r = await cards(named)
      expect([r.status, r.body.error?.code]).toEqual([403, 'PLAYER_EXCLUDED'])
    }
    expect(await cardsSold()).toBe(before)
    expect((await cards({ playerDocument: '4812377 LP' })).status).toBe(201)
    expect(await cardsSold()).toBe(before + 1)
  })

  it('refuses a kiosk purchase with an anonymous voucher; a voucher naming its buyer buys', async () => {
    const anonymous = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const before = await cardsSold()
    refusedAnonymous(await kioskBuys(anonymous.code))
    expect(await cardsSold()).toBe(before)
    const named = await sellVoucher(server.url, hall.hallId, 1000, { buyerDocument: '4812377 LP' }, asCashier())
    const ok = await kioskBuys(named.code)
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('refuses a terminal session opened with an anonymous voucher, which keeps its credit', async () => {
    const anonymous = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const asTerminal = { ...es, authorization: `Device ${terminal.credential}` }
    refusedAnonymous(
      await api(
        server.url,
        'POST',
        '/api/terminal/session',
        { voucherCode: anonymous.code, ageConfirmed: true },
        asTerminal,
      ),
    )
    const check = await api(server.url, 'POST', '/api/vouchers/check', { code: anonymous.code }, asCashier())
    expect(check.body.status ?? check.body.voucher?.status).toBe('active')
  })
})
