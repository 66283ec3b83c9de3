import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import type { Till } from '../helpers/till.ts'
import { playManualBingo, primaHall } from '../helpers/prima-hall.ts'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  payTablePrizes,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * Issue 24 point 1 for the bonus prizes (prima, pots, lucky ball, interconnected), over real HTTP with authentication
 * on and an enrolled cash desk: a prima row, or the card that won it, edited in the database behind the journal is
 * not paid (ROW_TAMPERED, a `row.tampered` record naming the row and the person who tried), and verify-journal lists
 * it; put back as the server wrote it, it is paid once.
 */
describe('a bonus prize or its card edited behind the journal is not paid (issue 24 point 1, BNG-55)', () => {
  let s: RulesServer
  let cashier: Till
  let seriesId: string
  let sessionId: string
  const db = () => s.server.services.db
  const asCashier = (method: string, path: string, b?: unknown) => api(s.server.url, method, path, b, cashier.headers)

  const tamper = (sql: string, params: unknown[]) => tamperWith(s.server, sql, params)
  const refusalsOf = async (table: string, id: string) =>
    (await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq"))
      .map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }>; actor?: unknown })
      .filter((p) => p.rows.some((x) => x.table === table && x.id === id))
  const problems = async () => {
    const r = await s.call('auditor', 'GET', '/api/journal/verify')
    expect(r.status).toBe(200)
    return r.body as { ok: boolean; rows: { problems: Array<{ table: string; id: string; what: string }> } }
  }

  beforeAll(async () => {
    const h = await primaHall('prima-seal')
    ;({ s, seriesId, sessionId, cashier } = h)
    expect(h.prima.status).toBe(200)
  })
  afterAll(async () => s?.server.cleanup())

  const manualBingo = (cards: number) => playManualBingo({ s, seriesId, sessionId }, cards)

  it('a prima whose amount was raised, or whose card was edited, is refused at the cash desk, journaled and listed by verify-journal; put back, it is paid once', async () => {
    // 20 cards x 50.00 at 6 % fill the prima's 50.00: the next game offers it (BNG-60).
    await manualBingo(20)
    // Its card keeps its prizes: the desk pays it whole below.
    const g = await playManualBingo({ s, seriesId, sessionId }, 20, { tablePays: false })
    const prima = (
      (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{
        id: string
        source: string
        cardId: string
      }>
    ).find((p) => p.source === 'prima')!
    expect(prima).toBeDefined()
    const code = s.server.services.cashdesk.payouts.cardCode(prima.cardId)
    const pay = () =>
      asCashier('POST', '/api/tickets/pay', {
        code,
        payeeName: 'Ana Ruiz',
        payeeDocument: '12345678Z',
        payment: { method: 'cash' },
      })
    const prizeOutflows = async () =>
      Number(
        (await db().get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout' AND shift_id = ?",
          [cashier.shiftId],
        ))!.n,
      )

    // The prima's amount raised.
    await tamper('UPDATE bonus_prizes SET amount_cents = ? WHERE id = ?', [500_000, prima.id])
    const raised = await pay()
    expect(raised.status, JSON.stringify(raised.body)).toBe(409)
    expect(raised.body.error.code).toBe('ROW_TAMPERED')
    expect(raised.body.error.message).toMatch(/no coinciden con su sello/)
    expect(await refusalsOf('bonus_prizes', prima.id)).toHaveLength(1)
    expect((await problems()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'bonus_prizes', id: prima.id })]),
    )
    await tamper('UPDATE bonus_prizes SET amount_cents = ? WHERE id = ?', [5_000, prima.id])

    // The card that won it: its numbers or its status edited behind the journal.
    const card = (await db().get<{ numbers: string; status: string }>(
      'SELECT numbers, status FROM cards WHERE id = ?',
      [prima.cardId],
    ))!
    await tamper('UPDATE cards SET status = ? WHERE id = ?', ['refunded', prima.cardId])
    const edited = await pay()
    expect(edited.status, JSON.stringify(edited.body)).toBe(409)
    expect(edited.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf('cards', prima.cardId)).toHaveLength(1)
    expect((await problems()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'cards', id: prima.cardId })]),
    )
    await tamper('UPDATE cards SET status = ? WHERE id = ?', [card.status, prima.cardId])
    expect(await prizeOutflows()).toBe(0)
    expect(
      (await db().get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [prima.id]))!.status,
    ).toBe('awarded')

    // As the server wrote them: verified, and paid once.
    expect((await problems()).ok).toBe(true)
    const paid = await pay()
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    // Paid whole: the prima's 50.00 with the card's line and bingo.
    expect(paid.body.payout.prizes).toContainEqual(expect.objectContaining({ id: prima.id, amountCents: 5_000 }))
    expect(await prizeOutflows()).toBe(1)
    expect((await problems()).ok).toBe(true)

    // Issue 24 point 2 (GEN-9, GEN-10): the winner's document, in the receipt and in the journal's `bonus.paid`, is
    // read opened by the roles that read identities (the director, the inspector) and masked for the cashier and the
    // auditor, as in the AML records.
    await s.server.services.auth.createUser({
      username: 'inspector',
      displayName: 'Raúl Gemio',
      role: 'inspector',
      password: PASSWORD,
    })
    const inspector = { authorization: `Bearer ${(await s.server.services.auth.login('inspector', PASSWORD)).token}` }
    expect((await asCashier('GET', `/api/bonus-prizes/${prima.id}/receipt`)).body.payee).toEqual({
      name: 'Ana Ruiz',
      document: '••••••78Z',
    })
    expect((await s.call('jefa', 'GET', `/api/bonus-prizes/${prima.id}/receipt`)).body.payee.document).toBe('12345678Z')
    const payeeInJournal = async (headers: Record<string, string>) => {
      const seq = Number(
        (await db().get<{ seq: number }>("SELECT seq FROM journal WHERE type = 'bonus.paid' ORDER BY seq DESC"))!.seq,
      )
      const r = await api(s.server.url, 'GET', `/api/journal?from=${seq - 1}&limit=5`, undefined, headers)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      const rec = (r.body.records as Array<{ seq: number; type: string; payload: any }>).find((x) => x.seq === seq)
      expect(rec?.type, JSON.stringify(r.body.records)).toBe('bonus.paid')
      return rec!.payload.payee.document.value as string
    }
    expect(await payeeInJournal(inspector)).toBe('12345678Z')
    expect(await payeeInJournal(s.headers('auditor'))).not.toContain('12345678')
  })

  it("a pot whose ledger was raised behind the journal awards nothing: the line's window does not close (ROW_TAMPERED, journaled) and verify-journal lists the entry; put back, the pot is awarded its balance", async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'pot-seal' })
    const pot = await s.call('jefa', 'POST', '/api/pots', {
      name: 'Pozo Sajama',
      authorisationRef: 'AJ-RA-2025-0778',
      kind: 'progressive',
      contributionBp: 1000,
      seedCents: 10_000,
      condition: { prize: 'line', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [bo.hallId],
    })
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    const potId = pot.body.id as string
    const session = await openSession(s, bo.hallId)
    const g = await gameOnSale(s, session, [bo.seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const balance = async () =>
      Number(
        (await db().get<{ m: number }>('SELECT SUM(main_cents) AS m FROM pot_ledger WHERE pot_id = ?', [potId]))!.m,
      )
    const before = await balance()
    expect(before).toBeGreaterThan(0)
    const first = (await db().get<{ entry_no: number; main_cents: number }>(
      'SELECT entry_no, main_cents FROM pot_ledger WHERE pot_id = ? ORDER BY entry_no LIMIT 1',
      [potId],
    ))!
    const card = (await db().get<{ id: string; numbers: string }>(
      'SELECT id, numbers FROM cards WHERE game_id = ? AND serial = ?',
      [g.gameId, g.serials[0]],
    ))!
    for (const ball of (JSON.parse(card.numbers) as number[][])[0].filter((n) => n > 0))
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    expect(
      (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'line', serial: g.serials[0] })).body
        .ok,
    ).toBe(true)
    // Bs 10,000 added to the pot's first entry in the database, behind the journal.
    await tamper('UPDATE pot_ledger SET main_cents = ? WHERE pot_id = ? AND entry_no = ?', [
      Number(first.main_cents) + 1_000_000,
      potId,
      Number(first.entry_no),
    ])
    const refused = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error.code).toBe('ROW_TAMPERED')
    const entry = `${potId}|${Number(first.entry_no)}`
    expect(await refusalsOf('pot_ledger', entry)).toHaveLength(1)
    expect((await problems()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'pot_ledger', id: entry })]),
    )
    expect(
      Number((await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM bonus_prizes WHERE pot_id = ?', [potId]))!.n),
    ).toBe(0)
    // As the server wrote it: the window closes and the pot is awarded its balance, not the raised one.
    await tamper('UPDATE pot_ledger SET main_cents = ? WHERE pot_id = ? AND entry_no = ?', [
      Number(first.main_cents),
      potId,
      Number(first.entry_no),
    ])
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    const won = (await db().get<{ amount_cents: number; card_id: string }>(
      'SELECT amount_cents, card_id FROM bonus_prizes WHERE pot_id = ?',
      [potId],
    ))!
    expect([Number(won.amount_cents), won.card_id]).toEqual([before, card.id])
    expect((await problems()).ok).toBe(true)
  })

  it("a prima whose hall fund, announced amount or ledger entry was raised behind the journal is not awarded: the bingo's window does not close (ROW_TAMPERED, journaled) and verify-journal lists the row; put back, the prima is awarded its announced amount (BNG-57, BNG-64)", async () => {
    const es = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Liébana',
      seed: 'prima-fund-seal',
      cards: 200,
      faceValueCents: 5_000,
    })
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/prima`, { amountsCents: [5_000], amountCents: 5_000 }))
        .status,
    ).toBe(200)
    const session = await openSession(s, es.hallId)
    const bingoClaimed = async (): Promise<{ gameId: string; cardId: string }> => {
      const g = await gameOnSale(s, session, [es.seriesId], 20, 'manual')
      expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
      const card = (await db().get<{ id: string; numbers: string }>(
        'SELECT id, numbers FROM cards WHERE game_id = ? AND serial = ?',
        [g.gameId, g.serials[0]],
      ))!
      for (const ball of (JSON.parse(card.numbers) as number[][]).flat().filter((n) => n > 0))
        expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
      expect(
        (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'bingo', serial: g.serials[0] })).body
          .ok,
      ).toBe(true)
      return { gameId: g.gameId, cardId: card.id }
    }
    // The first game fills the fund (20 x 50.00 at 6 % = 60.00, BNG-58); the second offers the prima's 50.00.
    const first = await bingoClaimed()
    expect((await s.call('mesa1', 'POST', `/api/games/${first.gameId}/window/close`, {})).status).toBe(200)
    await payTablePrizes(s, first.gameId)
    const g = await bingoClaimed()
    const fund = Number(
      (await db().get<{ f: number }>('SELECT fund_cents AS f FROM prima_halls WHERE hall_id = ?', [es.hallId]))!.f,
    )
    expect(fund).toBe(12_000)
    const close = () => s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})
    const edits: Array<{ table: string; id: string; raise: string; back: string; params: unknown[] }> = [
      {
        table: 'prima_halls',
        id: es.hallId,
        raise: 'UPDATE prima_halls SET fund_cents = fund_cents + 1000000 WHERE hall_id = ?',
        back: 'UPDATE prima_halls SET fund_cents = fund_cents - 1000000 WHERE hall_id = ?',
        params: [es.hallId],
      },
      {
        table: 'prima_games',
        id: g.gameId,
        raise: 'UPDATE prima_games SET amount_cents = amount_cents + 1000000 WHERE game_id = ?',
        back: 'UPDATE prima_games SET amount_cents = amount_cents - 1000000 WHERE game_id = ?',
        params: [g.gameId],
      },
      {
        table: 'prima_ledger',
        id: `${es.hallId}|1`,
        raise: 'UPDATE prima_ledger SET amount_cents = amount_cents + 1000000 WHERE hall_id = ? AND entry_no = 1',
        back: 'UPDATE prima_ledger SET amount_cents = amount_cents - 1000000 WHERE hall_id = ? AND entry_no = 1',
        params: [es.hallId],
      },
    ]
    for (const edit of edits) {
      // Bs 10,000 more in the database, behind the journal.
      await tamper(edit.raise, edit.params)
      const refused = await close()
      expect(refused.status, `${edit.table}: ${JSON.stringify(refused.body)}`).toBe(409)
      expect(refused.body.error.code).toBe('ROW_TAMPERED')
      expect(await refusalsOf(edit.table, edit.id)).toHaveLength(1)
      expect((await problems()).rows.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ table: edit.table, id: edit.id })]),
      )
      expect(
        Number(
          (await db().get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM bonus_prizes WHERE game_id = ? AND source = 'prima'",
            [g.gameId],
          ))!.n,
        ),
      ).toBe(0)
      await tamper(edit.back, edit.params)
    }
    // As the server wrote them: the window closes and the prima is awarded its announced 50.00, out of the true fund.
    expect((await close()).status).toBe(200)
    const won = (await db().get<{ amount_cents: number; card_id: string }>(
      "SELECT amount_cents, card_id FROM bonus_prizes WHERE game_id = ? AND source = 'prima'",
      [g.gameId],
    ))!
    expect([Number(won.amount_cents), won.card_id]).toEqual([5_000, g.cardId])
    expect(
      Number(
        (await db().get<{ f: number }>('SELECT fund_cents AS f FROM prima_halls WHERE hall_id = ?', [es.hallId]))!.f,
      ),
    ).toBe(7_000)
    expect((await problems()).ok).toBe(true)
  })

  it("a series' or a game's face value edited behind the journal prices nothing: the game is not announced and the card is not sold (ROW_TAMPERED, journaled) and verify-journal lists the row; put back, cards sell at the true price (BNG-10)", async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'price-seal' })
    const session = await openSession(s, bo.hallId)
    const till = (await s.till(bo.hallId)).headers
    const sell = (gameId: string) =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, till)
    const refusedWith = async (
      r: { status: number; body: { error?: { code: string } } },
      table: string,
      id: string,
    ): Promise<void> => {
      expect(r.status, JSON.stringify(r.body)).toBe(409)
      expect(r.body.error!.code).toBe('ROW_TAMPERED')
      expect(await refusalsOf(table, id)).toHaveLength(1)
      expect((await problems()).rows.problems).toEqual(expect.arrayContaining([expect.objectContaining({ table, id })]))
    }
    // The series lowered from Bs 5 to Bs 0.50 a card: no game is announced at that price.
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [50, bo.seriesId])
    await refusedWith(
      await s.call('mesa1', 'POST', `/api/sessions/${session}/games`, { seriesIds: [bo.seriesId], drawSource: 'rng' }),
      'series',
      bo.seriesId,
    )
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [500, bo.seriesId])
    const g = await s.call('mesa1', 'POST', `/api/sessions/${session}/games`, {
      seriesIds: [bo.seriesId],
      drawSource: 'rng',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    // The game's own price lowered: the cash desk does not sell at it.
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [50, gameId])
    await refusedWith(await sell(gameId), 'games', gameId)
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [500, gameId])
    // The series raised after the game was announced: refused too, until it is put back.
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [5_000, bo.seriesId])
    expect((await sell(gameId)).body.error?.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf('series', bo.seriesId)).toHaveLength(2)
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [500, bo.seriesId])
    const cardsSold = async () =>
      Number((await db().get<{ n: number }>('SELECT cards_sold AS n FROM games WHERE id = ?', [gameId]))!.n)
    expect(await cardsSold()).toBe(0)
    // As the server wrote them: two cards sold at Bs 5 each.
    const sold = await sell(gameId)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect(await cardsSold()).toBe(2)
    const rec = (await db().get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'cards.sold' AND payload LIKE ? ORDER BY seq DESC LIMIT 1",
      [`%${gameId}%`],
    ))!
    expect((JSON.parse(rec.payload) as { amountCents: number }).amountCents).toBe(1_000)
    expect((await problems()).ok).toBe(true)
  })
  it("a sale after sales that checked the price still sees a game's or a series' price, or a seal, edited behind the journal since (the check's memo is of the values and seal it read), and a closed game sells nothing", async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'price-memo' })
    const session = await openSession(s, bo.hallId)
    const till = (await s.till(bo.hallId)).headers
    const g = await s.call('mesa1', 'POST', `/api/sessions/${session}/games`, {
      seriesIds: [bo.seriesId],
      drawSource: 'rng',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const sell = (count = 1) =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count }, till)
    const sold = async (count = 1) => {
      const r = await sell(count)
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    }
    const refused = async (table: string, id: string, times: number) => {
      const r = await sell()
      expect(r.status, JSON.stringify(r.body)).toBe(409)
      expect(r.body.error.code).toBe('ROW_TAMPERED')
      expect(await refusalsOf(table, id)).toHaveLength(times)
    }
    // Two sales at the true price: the game's and the series' rows have matched their seals.
    await sold()
    await sold()
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [50, gameId])
    await refused('games', gameId, 1)
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [500, gameId])
    await sold()
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [50, bo.seriesId])
    await refused('series', bo.seriesId, 1)
    await tamper('UPDATE series SET face_value_cents = ? WHERE id = ?', [500, bo.seriesId])
    await sold()
    // The values as they were, their seal removed or rewritten: refused too.
    const seal = (await db().get<{ journal_seq: number; mac: string }>(
      "SELECT journal_seq, mac FROM row_seals WHERE tbl = 'games' AND row_id = ?",
      [gameId],
    ))!
    // A first letter the MAC does not have (base64url: one in 64 began with x, and the rewrite then changed nothing).
    const rewritten = `${seal.mac.startsWith('x') ? 'y' : 'x'}${seal.mac.slice(1)}`
    await tamper("UPDATE row_seals SET mac = ? WHERE tbl = 'games' AND row_id = ?", [rewritten, gameId])
    await refused('games', gameId, 2)
    await tamper("DELETE FROM row_seals WHERE tbl = 'games' AND row_id = ?", [gameId])
    await refused('games', gameId, 3)
    await tamper('INSERT INTO row_seals (tbl, row_id, journal_seq, mac) VALUES (?, ?, ?, ?)', [
      'games',
      gameId,
      seal.journal_seq,
      seal.mac,
    ])
    await sold()
    const cardsSold = async () =>
      Number((await db().get<{ n: number }>('SELECT cards_sold AS n FROM games WHERE id = ?', [gameId]))!.n)
    expect(await cardsSold()).toBe(5)
    // Sales closed (BNG-21: ten cards at least): the memo of its price sells nothing more.
    await sold(5)
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`)
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const late = await sell()
    expect(late.status, JSON.stringify(late.body)).toBe(409)
    expect(late.body.error.code).toBe('SALES_CLOSED')
    expect(await cardsSold()).toBe(10)
  })
})
