import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { PASSWORD, gameOnSale, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * Issue 18, over real HTTP with authentication on, in a Cantabrian hall (004 Bingo V.2.a and V.3):
 * - BNG-69: a prima paid prints its detailed receipt (accumulated games, amount) and a duplicate marked DUPLICADO
 *   with the ball extraction order and the winning card's series, to attach to the card.
 * - BNG-70: paid in cash out of the paying station's drawer, or by a cheque on the company's account with the
 *   player's consent: its number recorded, no cash moved. The Bolivian profile pays no cheques.
 */
describe('prima receipt, duplicate and cheque (BNG-69, BNG-70)', () => {
  let s: RulesServer
  let cashier: Till
  let hallId: string
  let seriesId: string
  let sessionId: string
  const db = () => s.server.services.db
  const asCashier = (method: string, path: string, b?: unknown) => api(s.server.url, method, path, b, cashier.headers)

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    ;({ hallId, seriesId } = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Pereda', seed: 'prima-receipt', cards: 600, faceValueCents: 5_000 }))
    const prima = await s.call('jefa', 'PUT', `/api/halls/${hallId}/prima`, { amountsCents: [5_000], amountCents: 5_000 })
    expect(prima.status, JSON.stringify(prima.body)).toBe(200)
    sessionId = await openSession(s, hallId)
    cashier = await openTill(s.server.url, s.server.services, { hallId, username: 'cajera', password: PASSWORD, stationName: 'Caja 1', floatCents: 200_000 })
  })
  afterAll(async () => s?.server.cleanup())

  /** A manual game: `cards` sold, then the first card's numbers drawn and its bingo claimed; ordinary prizes paid. */
  async function manualBingo(cards: number): Promise<{ gameId: string; serial: string; balls: number[] }> {
    const g = await gameOnSale(s, sessionId, [seriesId], cards, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = await db().get<{ numbers: string }>('SELECT numbers FROM cards WHERE game_id = ? AND serial = ?', [g.gameId, g.serials[0]])
    const balls = (JSON.parse(card!.numbers) as number[][]).flat().filter((n) => n > 0)
    for (const ball of balls) expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'bingo', serial: g.serials[0] })).body.ok).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    // BNG-71 (Cantabria): the game's ordinary prizes are paid before the next one.
    await s.server.services.bingo.payAllPrizes(g.gameId, 'cajera')
    return { gameId: g.gameId, serial: g.serials[0], balls }
  }

  async function primaPrize(): Promise<{ id: string; serial: string; gameId: string; balls: number[] }> {
    const g = await manualBingo(20)
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{ id: string; source: string; serial: string; amountCents: number }>
    const prima = prizes.find((p) => p.source === 'prima')
    expect(prima, JSON.stringify(prizes)).toBeDefined()
    return { id: prima!.id, serial: prima!.serial, gameId: g.gameId, balls: g.balls }
  }

  it('BNG-69/70: pays the prima in cash out of the drawer and prints the receipt and its DUPLICADO with the extraction order and the card\'s series', async () => {
    // 20 cards x 50.00 = 1,000.00; 6 % = 60.00 >= 50.00: the next game offers the prima (BNG-60).
    await manualBingo(20)
    const prima = await primaPrize()
    const paid = await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, { payee: { name: 'Ana Ruiz', document: '12345678Z' }, payment: { method: 'cash' } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body).toMatchObject({ status: 'paid', amountCents: 5_000, accumulatedGames: 2, payment: { method: 'cash' }, paidBy: 'Rosa Vargas' })
    // Cash left the cashier's drawer, under her shift, once.
    const out = await db().all<{ amount_cents: number; shift_id: string }>("SELECT amount_cents, shift_id FROM cash_movements WHERE kind = 'prize_payout' AND ref_id = ?", [prima.id])
    expect(out.map((m) => [Number(m.amount_cents), m.shift_id])).toEqual([[-5_000, cashier.shiftId]])

    expect(paid.body.receipt.printed, JSON.stringify(paid.body.receipt)).toBe(true)
    const job = decodeEscPos(readFileSync(paid.body.receipt.print.files.find((f: string) => f.endsWith('.escpos'))))
    expect(job.cuts).toBe(2) // two pieces of paper: the player's receipt and the duplicate
    const text = job.lines.join('\n')
    expect(text).toMatch(/ORIGINAL/)
    expect(text.match(/DUPLICADO/g)).toHaveLength(1)
    expect(text).toMatch(/Partidas acumuladas\s+2/)
    expect(text).toMatch(/Efectivo/)
    const duplicate = text.slice(text.indexOf('DUPLICADO'))
    expect(duplicate).toContain(prima.serial)
    expect(duplicate).toMatch(/Serie\s+A/)
    expect(duplicate).toContain('ORDEN DE SALIDA DE LAS BOLAS')
    expect(duplicate).toContain(prima.balls.map((b, i) => `${i + 1}:${b}`).slice(0, 3).join(' '))
    // The player's copy carries no extraction order: only the duplicate goes with the card.
    expect(text.slice(0, text.indexOf('DUPLICADO'))).not.toContain('ORDEN DE SALIDA')
    // Paid once.
    expect((await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, { payee: { name: 'Ana Ruiz', document: '12345678Z' } })).body.error.code).toBe('ALREADY_PAID')
  })

  it('BNG-70: pays by cheque only with its number and the player\'s consent; no cash moves; the receipt says cheque and its number', async () => {
    // The fund kept 10.00 after the award and the winning game added 60.00: this game offers it again.
    const prima = await primaPrize()
    const payee = { name: 'Juan Pérez', document: '87654321X' }
    const noNumber = await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, { payee, payment: { method: 'cheque', chequeNumber: ' ', playerConsent: true } })
    expect(noNumber.status).toBe(400)
    const noConsent = await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, { payee, payment: { method: 'cheque', chequeNumber: '0004521', playerConsent: false } })
    expect(noConsent.status).toBe(400)
    expect(noConsent.body.error.message).toMatch(/[a-záéíóú]/)
    const paid = await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, { payee, payment: { method: 'cheque', chequeNumber: '0004521', playerConsent: true } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payment).toEqual({ method: 'cheque', chequeNumber: '0004521' })
    expect(Number((await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM cash_movements WHERE ref_id = ?", [prima.id]))!.n)).toBe(0)
    const rec = JSON.parse((await db().get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'bonus.paid' ORDER BY seq DESC LIMIT 1"))!.payload)
    expect(rec).toMatchObject({ prizeId: prima.id, payment: 'cheque', chequeNumber: '0004521', rule: 'BNG-70', actor: { name: 'Rosa Vargas' } })
    const text = decodeEscPos(readFileSync(paid.body.receipt.print.files.find((f: string) => f.endsWith('.escpos')))).lines.join('\n')
    expect(text).toContain('Cheque N.º 0004521')
    expect(text).not.toMatch(/Efectivo/)
  })

  it('BNG-70: a Bolivian hall pays no cheque (profile prizeChequeAllowed false)', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'prima-bo' })
    // A bonus prize of a Bolivian hall: a progressive pot won in its first game (BNG-55 allows them there).
    const pot = await s.call('jefa', 'POST', '/api/pots', { name: 'Pozo Illimani', authorisationRef: 'AJ-RA-2025-0777', kind: 'progressive', contributionBp: 1000, seedCents: 10_000, condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] }, hallIds: [bo.hallId] })
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    const session = await openSession(s, bo.hallId)
    const g = await gameOnSale(s, session, [bo.seriesId], 20)
    const { playToTheEnd } = await import('../helpers/cashdesk.ts')
    await playToTheEnd(s.server.services, g.gameId)
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{ id: string }>
    expect(prizes.length).toBeGreaterThan(0)
    const till = await openTill(s.server.url, s.server.services, { hallId: bo.hallId, username: 'cajera', password: PASSWORD, stationName: 'Caja BO' })
    const r = await api(s.server.url, 'POST', `/api/bonus-prizes/${prizes[0].id}/pay`, { payee: { name: 'Rosa Condori', document: 'CI 1234567' }, payment: { method: 'cheque', chequeNumber: '77', playerConsent: true } }, till.headers)
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('RULE_DISABLED')
    expect((await s.server.services.db.get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [prizes[0].id]))!.status).toBe('awarded')
  })
})
