import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { everyChannelHall, type EveryChannelHall } from '../helpers/every-channel-hall.ts'
import { api } from '../helpers/server.ts'

/**
 * CFG-7 (002 §1.2.1.1: the minimum and maximum bets of the Plan de Apuestas approved by the AJ, posted "respecto de
 * cada juego"): a game has its own limits within the hall's, and per sale channel where the plan sets them. Over real
 * HTTP with authentication on, real people and enrolled devices, every channel that reaches a card sale (the
 * cashier's counter, the caller's table, an enrolled kiosk, a hall terminal, a simultaneous game's member hall) is
 * held to the limits of its own channel, decided from who or what sells, with a 422 whose Spanish message names the
 * limit and what is left; a refused sale sells nothing and takes no cash.
 */
describe("a game's own bet limits, per channel, in every sale path (CFG-7)", () => {
  let s: RulesServer
  let w: EveryChannelHall
  const es = { 'accept-language': 'es' }
  const one = { minCardsPerPurchase: 1, maxCardsPerPurchase: 1, maxCardsPerPlayer: 1 }
  const setLimits = (gameId: string, limits: unknown, who: 'jefa' | 'cajera' | 'mesa1' = 'jefa') =>
    s.call(who, 'PUT', `/api/games/${gameId}/sale-limits`, { limits })
  const refused = (r: { status: number; body: any }, what: string, message: RegExp) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(422)
    expect(r.body.error.code, what).toBe('BET_OUT_OF_LIMITS')
    expect(r.body.error.message, what).toMatch(message)
  }
  const sold = (r: { status: number; body: any }, what: string) =>
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(201)

  beforeAll(async () => {
    s = await startRulesServer('2026-11-24T15:00:00.000Z')
    w = await everyChannelHall(s, { seed: 'cfg7-limits' })
  })
  afterAll(async () => s?.server.cleanup())

  it('only the director sets them, within the hall limits and with the AJ reference in Bolivia', async () => {
    const ok = { authorisationRef: 'AJ-RA-PLAN-2026-7 (partida 1)', ...one }
    // A cashier or a jefe de mesa cannot widen or narrow the approved bets.
    expect((await setLimits(w.gameId, ok, 'cajera')).status).toBe(403)
    expect((await setLimits(w.gameId, ok, 'mesa1')).status).toBe(403)
    // Beyond the hall's approved 50 per purchase: refused, naming the hall's limit.
    const wide = await setLimits(w.gameId, { ...ok, maxCardsPerPurchase: 60, maxCardsPerPlayer: 60 })
    expect(wide.status, JSON.stringify(wide.body)).toBe(400)
    expect(wide.body.error.details.problems.join('; ')).toMatch(/above the hall's 50/)
    // A channel wider than the game's own limit: refused.
    const ch = await setLimits(w.gameId, { ...ok, channels: { kiosk: { ...one, maxCardsPerPlayer: 2 } } })
    expect(ch.status, JSON.stringify(ch.body)).toBe(400)
    // Bolivia (002 §1.2.1.1, "previa aprobación de la AJ"): no reference, no limits.
    const noRef = await setLimits(w.gameId, { ...one, authorisationRef: null })
    expect(noRef.status, JSON.stringify(noRef.body)).toBe(400)
    expect(noRef.body.error.details.problems.join('; ')).toMatch(/approving the game's limits is required/)
  })

  it("refuses every channel at its game's own limit, and nothing is sold or taken", async () => {
    // Two cards a purchase in every channel; the game allows one (its sale in every channel is refused).
    expect((await setLimits(w.gameId, { authorisationRef: 'AJ-RA-PLAN-2026-7', ...one })).status).toBe(200)
    expect((await setLimits(w.simultaneousId, { authorisationRef: 'AJ-RA-PLAN-2026-7', ...one })).status).toBe(200)
    // Posted with the game (BNG-40: "respecto de cada juego"), for every screen that reads it.
    const posted = await api(s.server.url, 'GET', `/api/games/${w.gameId}`)
    expect(posted.body.gameBets).toEqual({ authorisationRef: 'AJ-RA-PLAN-2026-7', ...one, channels: {} })
    const before = {
      cards: await w.cardsSold(w.gameId),
      sim: await w.cardsSold(w.simultaneousId),
      cash: await w.cashTaken(),
    }
    const ch = w.channels()
    const gameMax = /^Se pueden comprar como máximo 1 cartón por compra de esta partida: compre 1 o menos/
    refused(await ch.counter(), 'counter', gameMax)
    refused(await ch.table(), 'table', gameMax)
    const k = await ch.kiosk()
    refused(k, 'kiosk', gameMax)
    expect(k.voucherStatus).toBe('active')
    refused(await ch.terminal(), 'terminal', gameMax)
    refused(await ch.simultaneous(), 'simultaneous', gameMax)
    expect({
      cards: await w.cardsSold(w.gameId),
      sim: await w.cardsSold(w.simultaneousId),
      cash: await w.cashTaken(),
    }).toEqual(before)
  })

  it('holds each channel to its own limit, decided from who or what sells (never the body)', async () => {
    const game = { authorisationRef: 'AJ-RA-PLAN-2026-7', minCardsPerPurchase: 1, maxCardsPerPurchase: 10 }
    const texts = { counter: 'en caja', table: 'en la mesa', kiosk: 'en el quiosco', terminal: 'en los terminales' }
    const channels = ['counter', 'table', 'kiosk', 'terminal'] as const
    for (const [i, only] of channels.entries()) {
      // Only `only` is held to one card a purchase; the channel after it sells its two.
      const r = await setLimits(w.gameId, { ...game, maxCardsPerPlayer: 40, channels: { [only]: one } })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      const ch = w.channels()
      refused(
        await ch[only](),
        only,
        new RegExp(`^Se pueden comprar como máximo 1 cartón por compra de esta partida ${texts[only]}:`),
      )
      const next = channels[(i + 1) % channels.length]
      sold(await ch[next](), `${next} while only ${only} is limited`)
    }
    // The table's channel comes from the seller's role: a cashier at the same game is at the counter.
    expect((await setLimits(w.gameId, { ...game, maxCardsPerPlayer: 40, channels: { table: one } })).status).toBe(200)
    sold(await w.channels().counter(), 'counter under a table-only limit')
  })

  it("counts a player's cards against the game's per-player limit, named or not, and says what is left", async () => {
    expect(
      (
        await setLimits(w.gameId, {
          authorisationRef: 'AJ-RA-PLAN-2026-7',
          minCardsPerPurchase: 1,
          maxCardsPerPurchase: 3,
          maxCardsPerPlayer: 3,
        })
      ).status,
    ).toBe(200)
    // Counter: the player the seller names, however the document is typed.
    const buy = (count: number, playerDocument: string) =>
      api(
        s.server.url,
        'POST',
        `/api/games/${w.gameId}/sales`,
        { ageConfirmed: true, count, playerDocument },
        w.counter.headers,
      )
    sold(await buy(2, '4455667 LP'), 'counter, first purchase')
    refused(
      await buy(2, '4455667lp'),
      'counter, same player',
      /^Cada jugador puede tener como máximo 3 cartones en la partida \(límite de esta partida\) y ya tiene 2\. Puede comprar hasta 1 cartón más\.$/,
    )
    // Kiosk, nobody named: the player is the voucher and the change voucher it gave.
    const voucher = await sellVoucher(s.server.url, w.hall.hallId, 2_500, {}, w.counter.headers)
    const k1 = await api(
      s.server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: w.gameId, count: 2 } },
      { ...es, authorization: `Device ${w.kiosk.credential}` },
    )
    sold(k1, 'kiosk, first purchase')
    const change = k1.body.change?.code
    expect(change, JSON.stringify(k1.body)).toBeTruthy()
    refused(
      await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: change, ageConfirmed: true, cards: { gameId: w.gameId, count: 2 } },
        { ...es, authorization: `Device ${w.kiosk.credential}` },
      ),
      'kiosk, the change of the same voucher',
      /y ya tiene 2\. Puede comprar hasta 1 cartón más\.$/,
    )
  })

  it('answers in English too', async () => {
    expect((await setLimits(w.gameId, { authorisationRef: 'AJ-RA-PLAN-2026-7', ...one })).status).toBe(200)
    const r = await api(
      s.server.url,
      'POST',
      `/api/games/${w.gameId}/sales`,
      { ageConfirmed: true, count: 2 },
      { ...w.counter.headers, 'accept-language': 'en' },
    )
    expect(r.status).toBe(422)
    expect(r.body.error.message).toMatch(/^At most 1 card can be bought in one purchase of this game: buy 1 or fewer/)
  })
})
