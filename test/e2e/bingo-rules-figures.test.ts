import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { PASSWORD, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * CFG-13 / BNG-103 / CFG-35 over real HTTP with authentication on: a prize figure beyond line and bingo (four
 * corners), played as the hall's approved plan states it (002 §6.1.9: the modalities "deben estar claramente
 * establecidos en la Licencia de Operaciones emitida por la AJ"; 004 Bingo VI.4: bingo plus only), claimed and
 * verified on the one claim path, its pool taken out of the bingo's share, and paid by the cashier's payout with the
 * line and the bingo of the same card.
 */
const pdfDir = mkdtempSync(join(tmpdir(), 'bolillo-figures-'))
afterAll(() => rmSync(pdfDir, { recursive: true, force: true }))

/** The PDF's text, white space folded; null where poppler-utils is missing (never in CI). */
function pdfText(bytes: Uint8Array): string | null {
  try {
    execFileSync('which', ['pdftotext'], { stdio: 'ignore' })
  } catch {
    if (process.env.CI === 'true') throw new Error('pdftotext is missing: CI must install poppler-utils')
    return null
  }
  const file = join(pdfDir, 'minutes.pdf')
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /[\s\u00a0\u202f]+/g,
    ' ',
  )
}

describe('CFG-13: prize figures beyond line and bingo', () => {
  let s: RulesServer
  let cashier: Till
  beforeAll(async () => {
    s = await startRulesServer('2026-11-23T20:00:00.000Z')
  })
  afterAll(async () => s?.server.cleanup())

  const plan = { authorisationRef: 'AJ/LIC/FIG-2026-7', prizes: [{ figure: 'four-corners', shareBp: 500 }] }
  const rowsOf = async (gameId: string, serial: string) =>
    JSON.parse(
      (await s.server.services.db.get<{ numbers: string }>(
        'SELECT numbers FROM cards WHERE game_id = ? AND serial = ?',
        [gameId, serial],
      ))!.numbers,
    ) as number[][]

  /**
   * A BO-2025 hall with its figure plan, a manual game playing `figures`, `count` cards sold at the till and the sales
   * closed unless `keepOpen`: the set-up the tests below share.
   */
  async function figureGame(o: {
    name: string
    seed: string
    figurePlan: { authorisationRef: string; prizes: Array<{ figure: string; shareBp: number }> }
    figures: string[]
    count: number
    autoClaim?: boolean
  }) {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: o.name, seed: o.seed })
    if (o.autoClaim === false)
      expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: false })).status).toBe(
        200,
      )
    expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/figure-plan`, o.figurePlan)).status).toBe(200)
    const sessionId = await openSession(s, hall.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
      figures: o.figures,
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const till = await s.till(hall.hallId)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: o.count },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closed.status).toBe(200)
    return { gameId, serial: sold.body.cards[0].serial as string, closed }
  }

  it('only the director records the figure plan, with the approval reference; a profile with line and bingo only refuses it', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'fig-rules' })
    for (const who of ['locutor', 'cajera', 'mesa1'] as const) {
      const r = await s.call(who, 'PUT', `/api/halls/${bo.hallId}/figure-plan`, plan)
      expect(r.status, who).toBe(403)
    }
    const noRef = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/figure-plan`, { ...plan, authorisationRef: ' ' })
    expect(noRef.status).toBe(400)
    expect(noRef.body.error.code).toBe('VALIDATION_FAILED')
    // Cantabria's ordinary bingo premia "a) Línea ... b) Bingo" (004 Bingo V.1): figures on bingo plus cards only.
    const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Liébana', seed: 'fig-es' })
    expect((await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/figure-plan`, plan)).status).toBe(200)
    const esSession = await openSession(s, es.hallId)
    const esGame = await s.call('mesa1', 'POST', `/api/sessions/${esSession}/games`, {
      seriesIds: [es.seriesId],
      drawSource: 'manual',
      figures: ['four-corners'],
    })
    expect(esGame.status, JSON.stringify(esGame.body)).toBe(422)
    expect(esGame.body.error.code).toBe('RULE_DISABLED')
  })

  it('a four-corners prize: verified when its four numbers are called and never before, awarded from the bingo share, paid at the cashier', async () => {
    const hall = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Sajama',
      seed: 'fig-play',
      faceValueCents: 500,
    })
    // The system claims nothing here: every prize is called by the player and checked by the table.
    expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: false })).status).toBe(200)
    const sessionId = await openSession(s, hall.hallId)
    // Without a plan, a game asking for a figure is refused.
    const none = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
      figures: ['four-corners'],
    })
    expect(none.status).toBe(422)
    expect(none.body.error.code).toBe('RULE_DISABLED')
    expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/figure-plan`, plan)).status).toBe(200)
    // A figure the plan does not hold is refused too.
    const cross = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
      figures: ['cross'],
    })
    expect(cross.status).toBe(422)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
      figures: ['four-corners'],
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect(g.body.figures).toEqual([
      expect.objectContaining({ kind: 'figure:four-corners', name: { es: 'Cuatro esquinas', en: 'Four corners' } }),
    ])
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const till = await s.till(hall.hallId)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 10 },
      till.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const serials = sold.body.cards.map((c: { serial: string }) => c.serial) as string[]
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    // BNG-21: 10 cards x 5.00 = 50.00: line 10 % = 5.00; bingo 51 % = 25.50, of which four corners 5 % = 2.50.
    expect(closed.body.linePoolCents).toBe(500)
    expect(closed.body.bingoPoolCents).toBe(2300)
    expect(closed.body.figures[0].poolCents).toBe(250)

    const rows = await rowsOf(gameId, serials[0])
    const corners = [rows[0][0], rows[0][rows[0].length - 1], rows[2][0], rows[2][rows[2].length - 1]]
    const ball = (b: number) => s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })
    const claimFigure = (serial: string) =>
      s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'figure:four-corners', serial })
    for (const b of corners.slice(0, 3)) expect((await ball(b)).status).toBe(200)
    // Three corners called: not formed, the claim is rejected and play goes on.
    const early = await claimFigure(serials[0])
    expect(early.status).toBe(422)
    expect(early.body.reason).toBe('figure_not_formed')
    expect((await ball(corners[3])).status).toBe(200)
    const ok = await claimFigure(serials[0])
    expect(ok.body.ok, JSON.stringify(ok.body)).toBe(true)
    expect(ok.body.state.window).toBe('figure:four-corners')
    // The hall sees the verified winner with the figure's name while the window is open.
    const shown = ok.body.state.winners.filter((w: { kind: string }) => w.kind === 'figure:four-corners')
    expect(shown.map((w: { serial: string }) => w.serial)).toEqual([serials[0]])
    const window = await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})
    expect(window.status, JSON.stringify(window.body)).toBe(200)
    expect(window.body.status).toBe('drawing')
    expect(window.body.figures[0].awarded).toBe(true)
    // The figure is given: no second award of it, even to a card on which it is formed now.
    const other = await rowsOf(gameId, serials[1])
    const otherCorners = [other[0][0], other[0][other[0].length - 1], other[2][0], other[2][other[2].length - 1]]
    for (const b of otherCorners.filter((n) => !corners.includes(n))) expect((await ball(b)).status).toBe(200)
    const again = await claimFigure(serials[1])
    expect(again.body.ok).toBe(false)
    expect(again.body.reason).toBe('figure_already_awarded')

    for (const b of rows.flat().filter((n) => !corners.includes(n) && !otherCorners.includes(n)))
      expect((await ball(b)).status).toBe(200)
    const bingo = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'bingo', serial: serials[0] })
    expect(bingo.body.ok, JSON.stringify(bingo.body)).toBe(true)
    const end = await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})
    expect(end.body.status).toBe('finished')
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes as Array<{
      kind: string
      serial: string
      amount_cents: number
    }>
    const total = prizes.reduce((t, p) => t + Number(p.amount_cents), 0)
    // Line (at the bingo, BNG-56) + bingo + figure = the plan's line + bingo, not a centavo more or less.
    expect(total).toBe(500 + 2550)
    expect(prizes.find((p) => p.kind === 'figure:four-corners')).toMatchObject({ serial: serials[0] })

    // The one payout door: the cashier pays the card's line, bingo and figure together, from her shift's drawer.
    cashier = await openTill(s.server.url, s.server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
    const code = s.server.services.cashdesk.payouts.cardCode(
      (await s.server.services.db.get<{ id: string }>('SELECT id FROM cards WHERE game_id = ? AND serial = ?', [
        gameId,
        serials[0],
      ]))!.id,
    )
    const pay = await api(
      s.server.url,
      'POST',
      '/api/tickets/pay',
      { code, payeeName: 'Juana Flores Soto', payeeDocument: '7200011', payeePhone: '70000001' },
      cashier.headers,
    )
    expect(pay.status, JSON.stringify(pay.body)).toBe(200)
    expect(pay.body.payout.amountCents).toBe(500 + 2300 + 250)
    expect(pay.body.payout.prizes).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'figure:four-corners', amountCents: 250 })]),
    )
    // The prize receipt printed for the payee names the figure (its preview is the printed document).
    const receipt = Buffer.from(String(pay.body.preview).split(',')[1], 'base64').toString('utf8')
    expect(receipt).toContain('Cuatro esquinas')
    const moved = await s.server.services.db.get<{ total: number }>(
      "SELECT SUM(amount_cents) AS total FROM cash_movements WHERE kind = 'prize_payout' AND shift_id = ?",
      [cashier.shiftId],
    )
    expect(Math.abs(Number(moved!.total))).toBe(3050)
    // Paid once: the same card presented again pays nothing.
    const twice = await api(s.server.url, 'POST', '/api/tickets/pay', { code }, cashier.headers)
    expect(twice.status).toBe(409)

    // BNG-73 (6)-(8), CFG-13: the minutes report the figure prize as what it is, on its own line, never as a pot.
    const minutes = await s.call('auditor', 'GET', `/api/sessions/${sessionId}/minutes`)
    expect(minutes.status).toBe(200)
    const acta = minutes.body.games.find((x: { gameId: string }) => x.gameId === gameId)
    expect(acta).toMatchObject({
      linePaidCents: 500,
      bingoPaidCents: 2300,
      figuresPaidCents: 250,
      jackpotsPaidCents: 0,
      figures: [{ figure: 'four-corners', name: 'Cuatro esquinas', poolCents: 250, paidCents: 250 }],
    })
    expect(minutes.body.totals).toMatchObject({
      prizesPaidCents: 3050,
      linePaidCents: 500,
      bingoPaidCents: 2300,
      figuresPaidCents: 250,
      jackpotsPaidCents: 0,
      figures: [{ figure: 'four-corners', name: 'Cuatro esquinas', paidCents: 250 }],
    })
    const pdf = await fetch(`${s.server.url}/api/sessions/${sessionId}/minutes.pdf`, {
      headers: { ...s.headers('auditor'), 'accept-language': 'es' },
    })
    expect(pdf.status).toBe(200)
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()))
    if (text !== null) {
      // The game's figure pool and payment by name, and the session's totals with pots at zero (labels print upper case).
      expect(text).toContain('PREMIOS DE FIGURA PAGADO POR FIGURAS Cuatro esquinas: Bs 2,50 Cuatro esquinas: Bs 2,50')
      // A rejected figure claim's reason in Spanish, not its code.
      expect(text).toContain('A-00001 Cuatro esquinas 3 figura no formada con las bolas extraídas')
      expect(text).toContain(
        'TOTAL PREMIOS PAGADOS DEVOLUCIONES Bs 50,00 Bs 30,50 Bs 0,00 PAGADO POR LÍNEA PAGADO POR BINGO PAGADO POR FIGURAS PAGADO DE POZOS / PRIMA Bs 5,00 Bs 23,00 Bs 2,50 Cuatro esquinas: Bs 2,50 Bs 0,00',
      )
    }
  })
  it("a figure nobody claimed before the bingo is formed on the bingo card and paid with it: the plan's money is paid out to the centavo", async () => {
    const frame = { authorisationRef: 'AJ/LIC/FIG-2026-8', prizes: [{ figure: 'frame', shareBp: 300 }] }
    const { gameId, serial, closed } = await figureGame({
      name: 'Sala Huayna',
      seed: 'fig-bingo',
      figurePlan: frame,
      figures: ['frame'],
      count: 11,
      autoClaim: false,
    })
    // 11 x 5.00 = 55.00: line 10 % = 5.50; bingo 51 % = 28.05, of which the frame 3 % = 1.65 (both rounded down).
    expect([closed.body.linePoolCents, closed.body.bingoPoolCents, closed.body.figures[0].poolCents]).toEqual([
      550, 2640, 165,
    ])
    for (const b of (await rowsOf(gameId, serial)).flat())
      expect((await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })).status).toBe(200)
    const bingo = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'bingo', serial })
    expect(bingo.body.ok, JSON.stringify(bingo.body)).toBe(true)
    const end = await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})
    expect(end.body.status).toBe('finished')
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes as Array<{
      kind: string
      serial: string
      amount_cents: number
    }>
    expect(prizes.map((p) => [p.kind, p.serial, Number(p.amount_cents)]).sort()).toEqual(
      [
        ['bingo', serial, 2640],
        ['figure:frame', serial, 165],
        ['line', serial, 550],
      ].sort(),
    )
    const journal = await s.server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'prize.awarded' AND payload LIKE ?",
      [`%${gameId}%figureAtBingo%`],
    )
    expect(journal).toHaveLength(1)
  })
  it('where the players claim, a figure formed and not claimed is recorded silently for the minutes at the ball that formed it, as a line is, and nobody is told (BNG-48, CFG-13)', async () => {
    const { gameId, serial } = await figureGame({
      name: 'Sala Pomerape',
      seed: 'fig-silent',
      figurePlan: plan,
      figures: ['four-corners'],
      count: 10,
      autoClaim: false,
    })
    const rows = await rowsOf(gameId, serial)
    const corners = [rows[0][0], rows[0][rows[0].length - 1], rows[2][0], rows[2][rows[2].length - 1]]
    const silent = () => s.server.services.bingo.silentWins(gameId)
    for (const b of corners.slice(0, 3)) {
      const r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })
      expect(r.status).toBe(200)
    }
    expect((await silent()).filter((w) => w.kind === 'figure:four-corners')).toEqual([])
    const last = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: corners[3] })
    expect(last.status).toBe(200)
    // Nobody is told: no window opens and no winner is shown; the first win is kept for the minutes.
    expect(last.body.window).toBeNull()
    expect(last.body.winners ?? []).toEqual([])
    expect(await silent()).toContainEqual({ serial, kind: 'figure:four-corners', atBall: 4 })
    // The player who did not claim it in time still may: the claim path verifies it against the called balls.
    const claim = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, {
      kind: 'figure:four-corners',
      serial,
    })
    expect(claim.body.ok, JSON.stringify(claim.body)).toBe(true)
    // Once awarded, a figure formed later on another card is no first win of an open figure: nothing more recorded.
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})).status).toBe(200)
    const recorded = (await silent()).filter((w) => w.kind === 'figure:four-corners').length
    for (const b of rows
      .flat()
      .filter((n) => !corners.includes(n))
      .slice(0, 6))
      expect((await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })).status).toBe(200)
    expect((await silent()).filter((w) => w.kind === 'figure:four-corners')).toHaveLength(recorded)
  })

  it('where the system claims for the players (CFG-21), it claims a figure at the ball that forms it, not before', async () => {
    const { gameId, serial } = await figureGame({
      name: 'Sala Tunari',
      seed: 'fig-auto',
      figurePlan: plan,
      figures: ['four-corners'],
      count: 10,
    })
    const rows = await rowsOf(gameId, serial)
    const corners = [rows[0][0], rows[0][rows[0].length - 1], rows[2][0], rows[2][rows[2].length - 1]]
    for (const b of corners.slice(0, 3)) {
      const r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })
      expect(r.body.window).toBeNull()
    }
    const last = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: corners[3] })
    expect(last.body.window).toBe('figure:four-corners')
    expect(last.body.winners.map((w: { serial: string }) => w.serial)).toContain(serial)
  })

  it('where the system claims for the players, a figure formed at the same ball as a line is claimed after the line at that ball, for the cards that formed it then (CFG-21)', async () => {
    const { gameId, serial } = await figureGame({
      name: 'Sala Tunari II',
      seed: 'fig-auto-line',
      figurePlan: plan,
      figures: ['four-corners'],
      count: 10,
    })
    const rows = await rowsOf(gameId, serial)
    const top = rows[0]
    const bottom = rows[rows.length - 1]
    // The bottom corners, then the top row with its first corner last: ball 7 forms the line and the four corners.
    const balls = [bottom[0], bottom[bottom.length - 1], ...top.slice(1), top[0]]
    let r
    for (const b of balls) r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: b })
    expect(r!.body.window).toBe('line')
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})).status).toBe(200)
    const next = Array.from({ length: 90 }, (_, i) => i + 1).find(
      (b) => !rows.flat().includes(b) && !balls.includes(b),
    )!
    const after = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: next })
    expect(after.body.window).toBe('figure:four-corners')
    const claims = await s.server.services.db.all<{ serial: string; at_ball: number }>(
      "SELECT serial, at_ball FROM claims WHERE game_id = ? AND kind = 'figure:four-corners' AND status = 'verified'",
      [gameId],
    )
    // At the ball that formed it (7), not at the one after the line's window (8).
    expect(claims.map((c) => [c.serial, Number(c.at_ball)])).toEqual([[serial, balls.length]])
  })
})
