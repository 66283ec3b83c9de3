import { identityKeyAtRest } from '../../server/src/shared/document-at-rest.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 18 over real HTTP with authentication on: the posted minimum and maximum bets of a hall, per purchase and
 * per player, on every path that sells cards (BNG-40, GEN-18, CFG-16); the authorised face values (BNG-10); no
 * more players than seats (BNG-93); the hall's entry closed for a game (BNG-19); the previous game's cards handed
 * back before buying (BNG-15); automatic claims as a hall setting (CFG-21); no card transfer where forbidden (BNG-85).
 */
describe('sale rules of a hall: bets, face values, seats, entry, cards handed back, automatic claims, transfer', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-05-05T14:00:00.000Z')
  })
  afterAll(async () => s?.server.cleanup())

  const tills = new Map<string, Till>()
  /** The cashier's own till at "Caja 1" of the hall (a counter sale and the payouts). */
  const cashierTill = async (hallId: string) => {
    let t = tills.get(hallId)
    if (!t) {
      t = await openTill(s.server.url, s.server.services, {
        hallId,
        username: 'cajera',
        password: PASSWORD,
        stationName: 'Caja 1',
        floatCents: 1_000_000,
      })
      tills.set(hallId, t)
    }
    return t
  }
  const tableSale = async (gameId: string, hallId: string, body: Record<string, unknown>, lang = 'es') =>
    api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, ...body },
      {
        ...(await s.till(hallId)).headers,
        'accept-language': lang,
      },
    )
  const counterSale = async (gameId: string, hallId: string, body: Record<string, unknown>) =>
    api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, ...body },
      (await cashierTill(hallId)).headers,
    )
  const cardsSold = async (gameId: string) =>
    (await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold as number
  const journal = async () => {
    const all: Array<{ seq: number; type: string; payload: any }> = []
    for (let from = 0; ;) {
      const page = (await s.call('jefa', 'GET', `/api/journal?from=${from}&limit=1000`)).body.records as typeof all
      all.push(...page)
      if (page.length < 1000) return all
      from = page[page.length - 1].seq + 1
    }
  }

  describe('a Bolivian hall of 5 seats with its own sale rules', () => {
    let hall: Awaited<ReturnType<typeof hallWithSeries>>
    let sessionId = ''
    let gameId = ''
    let kiosk: { id: string; credential: string }
    const asKiosk = () => ({ authorization: `Device ${kiosk.credential}`, 'accept-language': 'es' })
    beforeAll(async () => {
      hall = await hallWithSeries(s, {
        profileId: 'BO-2025',
        name: 'Sala Límites',
        seed: 'limits',
        playingPositions: 5,
        // GEN-18: this hall records its own limits below, the first version of its sale rules.
        noSaleRules: true,
      })
      sessionId = await openSession(s, hall.hallId)
      kiosk = await s.server.services.auth.enrolDevice({
        ...sealed(),
        kind: 'kiosk',
        name: 'Kiosco 1',
        hallId: hall.hallId,
      })
    })

    it("posts the profile's default bets on the public hall information until the hall sets its own (BNG-40, CFG-16)", async () => {
      const info = await api(s.server.url, 'GET', `/api/halls/${hall.hallId}`)
      expect(info.status).toBe(200)
      expect(info.body.bets).toEqual({
        minCardsPerPurchase: 1,
        maxCardsPerPurchase: 50,
        maxCardsPerPlayer: 50,
        faceValuesCents: null,
        authorisationRef: null,
      })
      expect(info.body.door).toEqual({ present: 0, playingPositions: 5, entryClosedForGame: null })
    })

    it('only the director sets the sale rules; they are posted, journaled and versioned (BNG-40, GEN-18, BNG-10)', async () => {
      const rules = {
        authorisationRef: 'AJ/DE/RA/0601/2026',
        minCardsPerPurchase: 2,
        maxCardsPerPurchase: 5,
        maxCardsPerPlayer: 8,
        faceValuesCents: [500, 1000],
      }
      const byFloor = await s.call('mesa1', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, rules)
      expect(byFloor.status).toBe(403)
      const inverted = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, {
        ...rules,
        minCardsPerPurchase: 6,
      })
      expect(inverted.status).toBe(400)
      expect(inverted.body.error.code).toBe('VALIDATION_FAILED')
      const ok = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, rules)
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      expect(ok.body.bets).toEqual({
        minCardsPerPurchase: 2,
        maxCardsPerPurchase: 5,
        maxCardsPerPlayer: 8,
        faceValuesCents: [500, 1000],
        authorisationRef: 'AJ/DE/RA/0601/2026',
      })
      expect((await api(s.server.url, 'GET', `/api/halls/${hall.hallId}`)).body.bets).toEqual(ok.body.bets)
      expect(
        (await api(s.server.url, 'GET', `/api/kiosk/halls/${hall.hallId}/offer`, undefined, asKiosk())).body
          .maxCardsPerPurchase,
      ).toBe(5)
      const rec = (await journal()).filter(
        (r) => r.type === 'hall.plan' && r.payload.kind === 'sale-rules' && r.payload.hallId === hall.hallId,
      )
      expect(rec.map((r) => [r.payload.version, r.payload.authorisationRef, r.payload.by.name])).toEqual([
        [1, 'AJ/DE/RA/0601/2026', 'Marta Quispe'],
      ])
    })

    it('refuses a series at a face value the hall is not authorised for (BNG-10)', async () => {
      const set = await s.call('jefa', 'POST', '/api/master-sets', { count: 50, seed: 'limits-b' })
      const refused = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
        code: 'B',
        masterSetId: set.body.id,
        faceValueCents: 700,
      })
      expect(refused.status).toBe(422)
      expect(refused.body.error.code).toBe('FACE_VALUE_NOT_AUTHORISED')
      expect(refused.body.error.message).toMatch(/valor facial/)
      expect(refused.body.error.details).toMatchObject({ authorised: [500, 1000], rule: 'BNG-10' })
      const ok = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
        code: 'B',
        masterSetId: set.body.id,
        faceValueCents: 1000,
      })
      expect(ok.status).toBe(201)
    })

    it("a table sale below the minimum or above the maximum is refused, and a player's purchases count together (GEN-18, CFG-16)", async () => {
      gameId = (await gameOnSale(s, sessionId, [hall.seriesId], 2)).gameId
      const before = await cardsSold(gameId)
      const low = await tableSale(gameId, hall.hallId, { count: 1 })
      expect(low.status).toBe(422)
      expect(low.body.error.code).toBe('BET_OUT_OF_LIMITS')
      expect(low.body.error.details).toMatchObject({ limit: 'min-per-purchase', rule: 'GEN-18' })
      // Issue 29 point 10: the refusal names the limit with its number (the hall's, from the refusal's details).
      const min = low.body.error.details.minCardsPerPurchase as number
      expect(min).toBeGreaterThan(1)
      expect(low.body.error.message).toBe(`La compra mínima de la sala es de ${min} cartones: compre al menos ${min}.`)
      const high = await tableSale(gameId, hall.hallId, { count: 6 })
      expect(high.status).toBe(422)
      expect(high.body.error.details).toMatchObject({ limit: 'max-per-purchase', maxCardsPerPurchase: 5 })
      expect(high.body.error.message).toMatch(/^Se pueden comprar como máximo 5 cartones por compra: compre 5 o menos/)
      expect(await cardsSold(gameId)).toBe(before)
      expect((await tableSale(gameId, hall.hallId, { count: 5, playerDocument: '4.567.890 LP' })).status).toBe(201)
      // The same document, spelt otherwise: 5 + 4 is over the 8 one player may hold in a game.
      const over = await tableSale(gameId, hall.hallId, { count: 4, playerDocument: '4567890-LP' }, 'en')
      expect(over.status).toBe(422)
      expect(over.body.error.code).toBe('BET_OUT_OF_LIMITS')
      expect(over.body.error.message).toBe(
        'Each player may hold at most 8 cards in the game and already holds 5. Up to 3 cards more can be bought.',
      )
      expect(over.body.error.details).toMatchObject({
        limit: 'max-per-player',
        heldBefore: 5,
        maxCardsPerPlayer: 8,
        rule: 'CFG-16',
      })
      expect((await tableSale(gameId, hall.hallId, { count: 3, playerDocument: '4567890LP' })).status).toBe(201)
      expect(await cardsSold(gameId)).toBe(before + 8)
    })

    it("the cashier's counter sale through the till is held to the same limits (GEN-18)", async () => {
      const high = await counterSale(gameId, hall.hallId, { count: 6 })
      expect(high.status).toBe(422)
      expect(high.body.error.code).toBe('BET_OUT_OF_LIMITS')
      const mine = await counterSale(gameId, hall.hallId, { count: 2, playerDocument: '4567890LP' })
      expect(mine.status).toBe(422)
      expect(mine.body.error.details).toMatchObject({ limit: 'max-per-player' })
      expect((await counterSale(gameId, hall.hallId, { count: 2 })).status).toBe(201)
    })

    it('a kiosk purchase is held to the limits, and the change voucher buys for the same player (GEN-18, CFG-16)', async () => {
      const v = await api(
        s.server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 10_000, cash: countOf(10_000) },
        (await cashierTill(hall.hallId)).headers,
      )
      expect(v.status, JSON.stringify(v.body)).toBe(201)
      const buy = (voucherCode: string, count: number) =>
        api(
          s.server.url,
          'POST',
          '/api/kiosk/purchases',
          { voucherCode, ageConfirmed: true, cards: { gameId, count } },
          asKiosk(),
        )
      const high = await buy(v.body.voucher.code, 6)
      expect(high.status).toBe(422)
      expect(high.body.error.code).toBe('BET_OUT_OF_LIMITS')
      // Nothing was spent: the voucher still buys.
      const first = await buy(v.body.voucher.code, 5)
      expect(first.status, JSON.stringify(first.body)).toBe(201)
      const change = first.body.change.code as string
      const again = await buy(change, 4)
      expect(again.status).toBe(422)
      expect(again.body.error.details).toMatchObject({ limit: 'max-per-player', heldBefore: 5 })
      expect((await buy(change, 3)).status).toBe(201)
    })

    it('no more players hold cards of a game than the hall has seats, named or not, at the table, the counter and the kiosk (BNG-93)', async () => {
      // Four players so far: the unnamed purchase that opened the game, the document, the unnamed counter purchase
      // and the kiosk's voucher chain (BNG-93: an unnamed purchase takes a seat of its own). The fifth seat is
      // taken; then no one more, named or not, in any channel.
      expect((await tableSale(gameId, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })).status).toBe(201)
      const full = await tableSale(gameId, hall.hallId, { count: 2, playerDocument: 'CI 777 002' })
      expect(full.status).toBe(409)
      expect(full.body.error.code).toBe('HALL_FULL')
      expect(full.body.error.message).toMatch(/juego de pie/)
      expect(full.body.error.details).toMatchObject({ playingPositions: 5, players: 5, rule: 'BNG-93' })
      // The audit's scenario: unnamed buyers at the table and the counter are seated players too.
      expect((await tableSale(gameId, hall.hallId, { count: 2 })).body.error.code).toBe('HALL_FULL')
      expect((await counterSale(gameId, hall.hallId, { count: 2 })).body.error.code).toBe('HALL_FULL')
      const v = await api(
        s.server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 2_000, cash: countOf(2_000) },
        (await cashierTill(hall.hallId)).headers,
      )
      const kioskFull = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: v.body.voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
        asKiosk(),
      )
      expect(kioskFull.body.error.code).toBe('HALL_FULL')
      // A seated player buys more within the limits.
      expect((await tableSale(gameId, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })).status).toBe(201)
    })

    it('the door lets in no more players than seats, and the entries are journaled with who recorded them (BNG-93)', async () => {
      const inn = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 5 })
      expect(inn.status, JSON.stringify(inn.body)).toBe(201)
      expect(inn.body).toEqual({ sessionId, present: 5, playingPositions: 5 })
      const more = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })
      expect(more.status).toBe(409)
      expect(more.body.error.code).toBe('HALL_FULL')
      expect(
        (await s.call('auditor', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })).status,
      ).toBe(403)
      expect(
        (await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'out', people: 1 })).body
          .present,
      ).toBe(4)
      expect(
        (await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })).status,
      ).toBe(201)
      expect((await api(s.server.url, 'GET', `/api/halls/${hall.hallId}`)).body.door).toMatchObject({
        present: 5,
        playingPositions: 5,
      })
      const entries = (await journal()).filter((r) => r.type === 'hall.entry' && r.payload.sessionId === sessionId)
      expect(entries.map((r) => [r.payload.direction, r.payload.present, r.payload.by.name])).toEqual([
        ['in', 5, 'Luis Mamani'],
        ['out', 4, 'Luis Mamani'],
        ['in', 5, 'Luis Mamani'],
      ])
    })

    it("a player buys for the next game only once the previous game's cards are handed back (BNG-15)", async () => {
      await voidBeforeFirstBall(s, gameId)
      const next = (await gameOnSale(s, sessionId, [hall.seriesId], 2)).gameId
      const kept = await tableSale(next, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })
      expect(kept.status).toBe(409)
      expect(kept.body.error.code).toBe('PREVIOUS_CARDS_NOT_RETURNED')
      expect(kept.body.error.message).toMatch(/partida anterior/)
      expect(kept.body.error.details.serials).toHaveLength(4)
      // The cards handed back are scanned at the table (never by a kiosk).
      const codesOf = async (document: string) => {
        const rows = await s.server.services.db.all<{ card_id: string }>(
          'SELECT card_id FROM player_cards WHERE game_id = ? AND player_key = ?',
          [gameId, document],
        )
        return rows.map((r) => s.server.services.cashdesk.payouts.cardCode(r.card_id))
      }
      // Issue 24 points 2 and 6: the player's key (the document without its "CI" label) is stored as its keyed hash.
      expect(await codesOf('doc:777001')).toEqual([])
      const codes = await codesOf(`doc:${identityKeyAtRest(s.server.services.sealer, '777001')}`)
      const byKiosk = await api(s.server.url, 'POST', '/api/cards/returns', { code: codes }, asKiosk())
      expect(byKiosk.status).toBe(403)
      const some = await api(
        s.server.url,
        'POST',
        '/api/cards/returns',
        { code: codes.slice(0, 3) },
        (await s.till(hall.hallId)).headers,
      )
      expect(some.status, JSON.stringify(some.body)).toBe(200)
      expect(some.body.returned).toHaveLength(3)
      expect(
        (await tableSale(next, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })).body.error.details.serials,
      ).toHaveLength(1)
      // The fourth is collected into the hall's custody after the game (BNG-87/88): handed back all the same.
      const lastCode = codes.find((code) => !codes.slice(0, 3).includes(code))!
      const collected = await api(
        s.server.url,
        'POST',
        '/api/cards/collect',
        { code: lastCode },
        (await s.till(hall.hallId)).headers,
      )
      expect(collected.status, JSON.stringify(collected.body)).toBe(200)
      expect((await tableSale(next, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })).status).toBe(201)
      const again = await api(
        s.server.url,
        'POST',
        '/api/cards/returns',
        { code: codes.slice(0, 3) },
        (await s.till(hall.hallId)).headers,
      )
      expect([again.body.returned.length, again.body.already.length]).toEqual([0, 3])
      const returned = (await journal()).filter((r) => r.type === 'cards.returned' && r.payload.gameId === gameId)
      expect(returned.flatMap((r) => r.payload.serials)).toHaveLength(3)
      expect(returned[0].payload.by.name).toBe('Luis Mamani')
      // Those handed back at the table are in the hall's custody too: the custody list shows all four returned.
      const custody = (await s.call('mesa1', 'GET', `/api/games/${gameId}/card-custody`)).body.cards as Array<{
        serial: string
        state: string
      }>
      const mine = new Set(kept.body.error.details.serials as string[])
      expect(custody.filter((c) => mine.has(c.serial)).map((c) => c.state)).toEqual([
        'returned',
        'returned',
        'returned',
        'returned',
      ])
    })

    it('BNG-15 / BNG-88: the bulk collect after a game does not count as the player handing back: only cards scanned one by one do', async () => {
      const previous = (await s.server.services.db.get<{ id: string }>(
        "SELECT id FROM games WHERE session_id = ? AND status = 'on_sale' ORDER BY order_no DESC LIMIT 1",
        [sessionId],
      ))!.id
      await voidBeforeFirstBall(s, previous)
      // The caller collects what was left on the tables, in bulk (002 §6.1.5 "el retiro de los cartones jugados").
      const bulk = await s.call('locutor', 'POST', `/api/games/${previous}/card-custody/collect`, {})
      expect(bulk.status, JSON.stringify(bulk.body)).toBe(200)
      const third = (await gameOnSale(s, sessionId, [hall.seriesId], 2)).gameId
      const kept = await tableSale(third, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })
      expect(kept.status, JSON.stringify(kept.body)).toBe(409)
      expect(kept.body.error.code).toBe('PREVIOUS_CARDS_NOT_RETURNED')
      expect(kept.body.error.details.serials).toHaveLength(2)
      // Handed back at the table one by one, scanned: now the player buys.
      const rows = await s.server.services.db.all<{ card_id: string }>(
        'SELECT card_id FROM player_cards WHERE game_id = ? AND player_key = ?',
        [previous, `doc:${identityKeyAtRest(s.server.services.sealer, '777001')}`],
      )
      const back = await api(
        s.server.url,
        'POST',
        '/api/cards/returns',
        { code: rows.map((r) => s.server.services.cashdesk.payouts.cardCode(r.card_id)) },
        (await s.till(hall.hallId)).headers,
      )
      expect(back.status, JSON.stringify(back.body)).toBe(200)
      expect((await tableSale(third, hall.hallId, { count: 2, playerDocument: 'CI 777 001' })).status).toBe(201)
    })
  })

  describe('automatic claims as a hall setting (CFG-21)', () => {
    /** Enters the top row of the first card sold and tells whether the system claimed the line by itself. */
    const lineClaimedBySystem = async (hallId: string, seriesId: string) => {
      const sessionId = await openSession(s, hallId)
      const g = await gameOnSale(s, sessionId, [seriesId], 10, 'manual')
      expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
      const card = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/cards/${g.serials[0]}`)).body
      const top = (card.rows[0] as Array<number | null>).filter((n): n is number => typeof n === 'number' && n > 0)
      for (const b of top)
        expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: b })).status).toBe(200)
      const state = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}`)).body
      expect(['drawing', 'line_window']).toContain(state.status)
      return state.status === 'line_window'
    }

    it('a Bolivian hall whose licence allows them claims for the players by default; a hall the director switched off does not', async () => {
      const on = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Automática', seed: 'auto-claim' })
      const off = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Manual', seed: 'auto-claim' })
      expect((await api(s.server.url, 'GET', `/api/halls/${on.hallId}`)).body.autoClaim).toBe(true)
      expect((await s.call('mesa1', 'PUT', `/api/halls/${off.hallId}/auto-claim`, { autoClaim: false })).status).toBe(
        403,
      )
      const set = await s.call('jefa', 'PUT', `/api/halls/${off.hallId}/auto-claim`, { autoClaim: false })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      expect(set.body.autoClaim).toBe(false)
      expect((await api(s.server.url, 'GET', `/api/halls/${off.hallId}`)).body.autoClaim).toBe(false)
      expect(await lineClaimedBySystem(on.hallId, on.seriesId)).toBe(true)
      expect(await lineClaimedBySystem(off.hallId, off.seriesId)).toBe(false)
      const rec = (await journal()).filter((r) => r.type === 'hall.auto_claim' && r.payload.hallId === off.hallId)
      expect(rec.map((r) => [r.payload.autoClaim, r.payload.by.name])).toEqual([[false, 'Marta Quispe']])
      // null goes back to the default: on, as the hall's licence (the test licence) allows them.
      expect(
        (await s.call('jefa', 'PUT', `/api/halls/${off.hallId}/auto-claim`, { autoClaim: null })).body.autoClaim,
      ).toBe(true)
    })

    it('a Cantabrian hall never claims for the players: switching it on is refused (CFG-21, 004 Bingo III)', async () => {
      const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Cabárceno', seed: 'auto-es' })
      expect((await api(s.server.url, 'GET', `/api/halls/${es.hallId}`)).body.autoClaim).toBe(false)
      const on = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/auto-claim`, { autoClaim: true })
      expect(on.status).toBe(422)
      expect(on.body.error.code).toBe('RULE_DISABLED')
      expect(on.body.error.details).toMatchObject({ rule: 'CFG-21' })
      expect(await lineClaimedBySystem(es.hallId, es.seriesId)).toBe(false)
    })
  })

  describe("the hall's entry closed for a game (BNG-19)", () => {
    it('closes with the close of sales in Cantabria, refuses entries until the game ends, then opens again', async () => {
      const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Castro', seed: 'entry-es' })
      const sessionId = await openSession(s, es.hallId)
      const g = await gameOnSale(s, sessionId, [es.seriesId], 3, 'manual')
      expect(
        (await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 2 })).status,
      ).toBe(201)
      expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
      const late = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })
      expect(late.status).toBe(409)
      expect(late.body.error.code).toBe('HALL_ENTRY_CLOSED')
      expect(late.body.error.message).toMatch(/entrada a la sala está cerrada/)
      expect((await api(s.server.url, 'GET', `/api/halls/${es.hallId}`)).body.door).toMatchObject({
        present: 2,
        entryClosedForGame: g.gameId,
      })
      const closed = (await journal()).filter((r) => r.type === 'hall.entry_closed' && r.payload.gameId === g.gameId)
      expect(closed.map((r) => r.payload.by)).toEqual([{ kind: 'system', reason: 'sales closed' }])
      // Leaving is always possible; once the game has ended, entry opens again.
      expect(
        (await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'out', people: 1 })).status,
      ).toBe(201)
      await voidBeforeFirstBall(s, g.gameId)
      expect(
        (await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })).status,
      ).toBe(201)
    })

    it('the jefe closes it as the reading of the game data begins: no card is sold after, nor anyone let in; not in Bolivia', async () => {
      const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Laredo', seed: 'entry-es-2' })
      const sessionId = await openSession(s, es.hallId)
      const g = await gameOnSale(s, sessionId, [es.seriesId], 3, 'manual')
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/entry/close`)).status).toBe(200)
      const again = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/entry/close`)
      expect(again.status).toBe(409)
      const sale = await tableSale(g.gameId, es.hallId, { count: 1 })
      expect(sale.status).toBe(409)
      expect(sale.body.error.code).toBe('HALL_ENTRY_CLOSED')
      expect(await cardsSold(g.gameId)).toBe(3)
      const entry = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/entries`, { direction: 'in', people: 1 })
      expect(entry.body.error.code).toBe('HALL_ENTRY_CLOSED')
      const rec = (await journal()).filter((r) => r.type === 'hall.entry_closed' && r.payload.gameId === g.gameId)
      expect(rec.map((r) => r.payload.by.name)).toEqual(['Pedro Flores'])
      const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sucre', seed: 'entry-bo' })
      const boSession = await openSession(s, bo.hallId)
      const bg = await gameOnSale(s, boSession, [bo.seriesId], 10, 'manual')
      const refused = await s.call('mesa1', 'POST', `/api/games/${bg.gameId}/entry/close`)
      expect(refused.status).toBe(422)
      expect(refused.body.error.code).toBe('RULE_DISABLED')
    })
  })

  describe('cards are not transferred to another player where the profile forbids it (BNG-85)', () => {
    it("a Bolivian card sold to an identified player pays its prize only to that player's document", async () => {
      const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Potosí', seed: 'transfer-bo' })
      const sessionId = await openSession(s, bo.hallId)
      const g = (
        await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
          seriesIds: [bo.seriesId],
          drawSource: 'manual',
        })
      ).body.gameId as string
      expect((await s.call('mesa1', 'POST', `/api/games/${g}/sales/open`)).status).toBe(200)
      const sold = await tableSale(g, bo.hallId, { count: 10, playerDocument: 'CI 1234567' })
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      const cards = sold.body.cards as Array<{ serial: string; code: string; rows: number[][] }>
      expect((await s.call('mesa1', 'POST', `/api/games/${g}/sales/close`, {})).status).toBe(200)
      // The first card's numbers, in order: its top row gives the line (claimed by the system), the rest the bingo.
      for (const b of cards[0].rows.flat().filter((n) => n > 0)) {
        const st = (await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status
        if (st === 'line_window' || st === 'bingo_window')
          expect((await s.call('mesa1', 'POST', `/api/games/${g}/window/close`, {})).status).toBe(200)
        if ((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status === 'finished') break
        expect((await s.call('locutor', 'POST', `/api/games/${g}/balls`, { ball: b })).status).toBe(200)
      }
      if ((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status === 'bingo_window')
        expect((await s.call('mesa1', 'POST', `/api/games/${g}/window/close`, {})).status).toBe(200)
      expect((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status).toBe('finished')
      const prizes = (await s.call('mesa1', 'GET', `/api/games/${g}/prizes`)).body.prizes as Array<{ card_id: string }>
      const winner = s.server.services.cashdesk.payouts.cardCode(prizes[0].card_id)
      const till = await cashierTill(bo.hallId)
      const pay = (extra: Record<string, unknown>) =>
        api(s.server.url, 'POST', '/api/tickets/pay', { code: winner, payeeName: 'Juan Pérez', ...extra }, till.headers)
      const other = await pay({ payeeDocument: 'CI 7654321' })
      expect(other.status).toBe(403)
      expect(other.body.error.code).toBe('CARD_TRANSFER_FORBIDDEN')
      expect(other.body.error.message).toMatch(/no puede transferirse/)
      const unnamed = await pay({})
      expect(unnamed.status).toBe(403)
      expect(unnamed.body.error.details).toMatchObject({ rule: 'BNG-85' })
      // Issue 24 point 6: the buyer's own CI under another spelling, with its issuing department, is the buyer.
      const own = await pay({ payeeDocument: '1.234.567 LP' })
      expect(own.status, JSON.stringify(own.body)).toBe(200)
    })

    it("CFG-23: a bonus prize (a progressive pot) of a card sold to an identified player is paid only to that player's document", async () => {
      const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Tunari', seed: 'transfer-pot' })
      const pot = await s.call('jefa', 'POST', '/api/pots', {
        name: 'Pozo Tunari',
        authorisationRef: 'AJ-RA-2025-0779',
        kind: 'progressive',
        contributionBp: 1000,
        seedCents: 10_000,
        condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
        hallIds: [bo.hallId],
      })
      expect(pot.status, JSON.stringify(pot.body)).toBe(201)
      const sessionId = await openSession(s, bo.hallId)
      const g = (
        await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
          seriesIds: [bo.seriesId],
          drawSource: 'manual',
        })
      ).body.gameId as string
      expect((await s.call('mesa1', 'POST', `/api/games/${g}/sales/open`)).status).toBe(200)
      const sold = await tableSale(g, bo.hallId, { count: 10, playerDocument: 'CI 2345678' })
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      const cards = sold.body.cards as Array<{ serial: string; rows: number[][] }>
      expect((await s.call('mesa1', 'POST', `/api/games/${g}/sales/close`, {})).status).toBe(200)
      for (const b of cards[0].rows.flat().filter((n) => n > 0)) {
        const st = (await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status
        if (st === 'line_window' || st === 'bingo_window')
          expect((await s.call('mesa1', 'POST', `/api/games/${g}/window/close`, {})).status).toBe(200)
        if ((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status === 'finished') break
        expect((await s.call('locutor', 'POST', `/api/games/${g}/balls`, { ball: b })).status).toBe(200)
      }
      if ((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status === 'bingo_window')
        expect((await s.call('mesa1', 'POST', `/api/games/${g}/window/close`, {})).status).toBe(200)
      expect((await s.call('mesa1', 'GET', `/api/games/${g}`)).body.status).toBe('finished')
      const won = (await s.call('mesa1', 'GET', `/api/games/${g}/bonus-prizes`)).body.prizes as Array<{
        id: string
        cardId: string
        status: string
      }>
      expect(won.length, 'the bingo won the pot').toBeGreaterThan(0)
      // The card is paid whole (its line and bingo with the pot's prize), by the one door, against its code.
      const code = s.server.services.cashdesk.payouts.cardCode(won[0].cardId)
      const till = await cashierTill(bo.hallId)
      const pay = (payeeDocument: string) =>
        api(
          s.server.url,
          'POST',
          '/api/tickets/pay',
          { code, payeeName: 'Juan Pérez', payeeDocument, payeePhone: '71234567' },
          till.headers,
        )
      const other = await pay('CI 7654321')
      expect(other.status, JSON.stringify(other.body)).toBe(403)
      expect(other.body.error).toMatchObject({ code: 'CARD_TRANSFER_FORBIDDEN', details: { rule: 'BNG-85' } })
      expect(
        (await s.server.services.db.get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [
          won[0].id,
        ]))!.status,
      ).toBe('awarded')
      const own = await pay('2345678 CB')
      expect(own.status, JSON.stringify(own.body)).toBe(200)
      expect(own.body.payout.prizes.map((p: { kind: string }) => p.kind)).toContain('progressive')
    })
  })

  describe('a face value the hall no longer has authorised (BNG-10, CFG-15)', () => {
    it('rules [500, 1000], a series at 1000, rules changed to [500]: the series is neither announced nor sold at the table, the counter or the kiosk', async () => {
      const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Valor Facial', seed: 'face-a' })
      const rules = {
        authorisationRef: 'AJ/DE/RA/0701/2026',
        minCardsPerPurchase: 1,
        maxCardsPerPurchase: 50,
        maxCardsPerPlayer: 50,
        faceValuesCents: [500, 1000],
      }
      expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, rules)).status).toBe(200)
      const set = await s.call('jefa', 'POST', '/api/master-sets', { count: 50, seed: 'face-b' })
      const mil = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
        code: 'M',
        masterSetId: set.body.id,
        faceValueCents: 1000,
      })
      expect(mil.status, JSON.stringify(mil.body)).toBe(201)
      const kiosk = await s.server.services.auth.enrolDevice({
        ...sealed(),
        kind: 'kiosk',
        name: 'Kiosco VF',
        hallId: hall.hallId,
      })
      const sessionId = await openSession(s, hall.hallId)
      // Announced and on sale while 1000 was still authorised.
      const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [mil.body.id] })
      expect(g.status, JSON.stringify(g.body)).toBe(201)
      const gameId = g.body.gameId as string
      expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
      const v = await api(
        s.server.url,
        'POST',
        '/api/vouchers',
        { hallId: hall.hallId, amountCents: 10_000, cash: countOf(10_000) },
        (await cashierTill(hall.hallId)).headers,
      )
      expect(v.status, JSON.stringify(v.body)).toBe(201)

      const narrowed = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/sale-rules`, {
        ...rules,
        authorisationRef: 'AJ/DE/RA/0702/2026',
        faceValuesCents: [500],
      })
      expect(narrowed.status).toBe(200)
      const refusedAs = (r: { status: number; body: any }) => {
        expect(r.status, JSON.stringify(r.body)).toBe(422)
        expect(r.body.error.code).toBe('FACE_VALUE_NOT_AUTHORISED')
        expect(r.body.error.details).toMatchObject({ faceValueCents: 1000, authorised: [500], rule: 'BNG-10' })
      }
      refusedAs(await tableSale(gameId, hall.hallId, { count: 2 }))
      refusedAs(await counterSale(gameId, hall.hallId, { count: 2 }))
      const kioskBuy = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: v.body.voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
        { authorization: `Device ${kiosk.credential}`, 'accept-language': 'es' },
      )
      refusedAs(kioskBuy)
      expect(kioskBuy.body.error.message).toMatch(/valor facial/)
      expect(await cardsSold(gameId)).toBe(0)

      // Nor is a new game announced from it; the series at 500 still is.
      await voidBeforeFirstBall(s, gameId)
      refusedAs(await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [mil.body.id] }))
      const ok = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId] })
      expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    })
  })
})
