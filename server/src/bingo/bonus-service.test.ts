import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { certifyTestSoftware } from '../../../test/helpers/device-marks.ts'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { settleGamePrizesForTest } from '../../../test/helpers/table-paid.ts'
import type { Database } from '../db/database.ts'
import { verifyChain, type JournalRecord } from '../shared/journal-chain.ts'
import { verifyLuckyProof } from './pots.ts'
import { createBingoService, type BingoService, type SoldCard } from './service.ts'
import { createBonusService, type BonusService } from './bonus-service.ts'
import { readJournal } from '../shared/journal.ts'
import { loadSessionMinutes } from './minutes.ts'
import { code } from '../../../test/helpers/error-code.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'

/**
 * Prima, pots and lucky ball through the real bingo service and storage (SQLite here, PostgreSQL in CI), with the
 * regulation's numbers: 6 % deduction, amounts 50 to 1,000 in multiples of 50, ball 50, +1 ball per game.
 */
const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

async function setup(profileId: 'ES-CB-2010' | 'BO-2025') {
  const db = await openTestDatabase()
  dbs.push(db)
  const clock = { now: () => new Date('2026-11-21T20:00:00Z') }
  const entropy = { name: 'test', randomBytes: (n: number) => randomBytes(n) }
  await certifyTestSoftware(db, clock)
  const bonus = createBonusService({ db, clock, entropy, sealer: createSealer(sealingKeyFromBytes(randomBytes(32))) })
  const bingo = createBingoService({ db, clock, entropy, hooks: [bonus.hooks] })
  const hall = await bingo.createHall({
    name: 'Sala Pereda',
    profileId,
    playingPositions: 100,
    // GEN-3: the Cantabrian hall's Consejería authorisation on record
    ...(profileId === 'ES-CB-2010'
      ? {
          licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
          saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
        }
      : {}),
    ...(profileId === 'BO-2025'
      ? {
          // CFG-21: the Bolivian hall's licence allows the system's claims, which these games end by.
          licence: TEST_LICENCE,
          bettingPlan: {
            authorisationRef: 'AJ-RA-PRUEBA-1',
            shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
            potsBp: 1000,
            commissionBp: 0,
          },
        }
      : {}),
  })
  const set = await bingo.createMasterSet({ count: 1200, seed: 'bonus-test' })
  const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
  return { db, bingo, bonus, hall, set, series, session }
}

/**
 * Settles a bonus prize as the cash desk does inside its payout (issue 23: the prize is paid with its card at the
 * cash desk; here the product line's half alone), then reads its receipt.
 */
async function payBonus(
  db: Database,
  bonus: BonusService,
  input: { prizeId: string; paidBy: string; payee: { name: string; document: string; phone?: string } },
) {
  await db.transaction((tx) =>
    bonus.settleWithin(tx, {
      ...input,
      at: '2026-11-21T20:00:00.000Z',
      payment: { method: 'cash' },
      stationId: null,
      payoutId: null,
    }),
  )
  return bonus.bonusReceipt(input.prizeId)
}

/** Balls so that `card` completes its bingo exactly with ball number `atBall`: fillers first, then its 15 numbers. */
function ballsForBingoAt(card: SoldCard, atBall: number): number[] {
  const mine = card.rows.flat()
  const fillers = Array.from({ length: 90 }, (_, i) => i + 1)
    .filter((n) => !mine.includes(n))
    .slice(0, atBall - mine.length)
  return [...fillers, ...mine]
}

/** One Cantabria game drawn by hand: 100 cards at 5.00, then a bingo claimed by the first card at `atBall`. */
async function manualGame(bingo: BingoService, sessionId: string, seriesId: string, atBall: number) {
  const g = await bingo.announceGame({ sessionId, seriesIds: [seriesId], drawSource: 'manual' })
  await bingo.openSales(g.gameId)
  const cards = await bingo.sell({ gameId: g.gameId, count: 100, channel: 't' })
  await bingo.closeSales({ gameId: g.gameId })
  for (const ball of ballsForBingoAt(cards[0], atBall)) await bingo.enterBall(g.gameId, ball)
  const claim = await bingo.claim({ gameId: g.gameId, serial: cards[0].serial, kind: 'bingo' })
  expect(claim.ok).toBe(true)
  const end = await bingo.closeWindow(g.gameId)
  expect(end.status).toBe('finished')
  // BNG-71 (Cantabria): the game's prizes are paid before the next one is announced.
  // This test composes no cash desk: the table's payout is stood in for (test/helpers/table-paid.ts).
  await settleGamePrizesForTest(dbs.at(-1)!, g.gameId, '2026-11-21T20:00:00.000Z')
  return { announced: g, end, cards }
}

async function journalOk(db: Database) {
  const records: JournalRecord[] = []
  for await (const r of readJournal(db)) records.push(r)
  return verifyChain(records)
}

describe('prima de bingo in a Cantabria hall (BNG-57 to BNG-64)', () => {
  it('funds 6 % per game, activates after the fund reaches the amount, grows the ball limit game after game, and pays the winner once', async () => {
    const { db, bingo, bonus, hall, series, session } = await setup('ES-CB-2010')
    expect(await code(bonus.configurePrima(hall.id, { amountsCents: [2_500] }))).toBe('VALIDATION_FAILED') // 25: below 50
    expect(await code(bonus.configurePrima(hall.id, { amountsCents: [7_500] }))).toBe('VALIDATION_FAILED') // 75: not a multiple of 50
    expect(await code(bonus.configurePrima(hall.id, { amountsCents: [110_000] }))).toBe('VALIDATION_FAILED') // over 1,000
    const prima = await bonus.configurePrima(hall.id, { amountsCents: [5_000, 10_000, 100_000], amountCents: 5_000 })
    expect(prima.rules).toMatchObject({
      deductionBp: 600,
      baseBallLimit: 50,
      incrementPerGame: 1,
      resetAfterAward: 'base',
    })

    // 100 cards x 5.00 = 500.00 per game; 6 % = 30.00 into the fund; the hall's prima is 50.00.
    const g1 = await manualGame(bingo, session.id, series.id, 30)
    expect(g1.announced).toMatchObject({ primaActive: false, primaAmountCents: 5_000, primaBallLimit: 50 })
    const g2 = await manualGame(bingo, session.id, series.id, 30)
    expect(g2.announced.primaActive).toBe(false) // 30.00 < 50.00 when it was announced
    // BNG-60: the fund reached 60.00 during game 2: game 3 offers it, with ball 50.
    const g3 = await manualGame(bingo, session.id, series.id, 60)
    expect(g3.announced).toMatchObject({
      primaActive: true,
      primaAmountCents: 5_000,
      primaBallLimit: 50,
      primaFundCents: 6_000,
    })
    expect(g3.end.bonusWinners).toEqual([])
    // BNG-62: not won within 50: 51, then 52.
    const g4 = await manualGame(bingo, session.id, series.id, 55)
    expect(g4.announced).toMatchObject({ primaActive: true, primaBallLimit: 51 })
    const g5 = await manualGame(bingo, session.id, series.id, 52)
    expect(g5.announced).toMatchObject({ primaActive: true, primaBallLimit: 52 })
    expect(g5.end.bonusWinners).toMatchObject([
      { source: 'prima', serial: g5.cards[0].serial, amountCents: 5_000, atBall: 52, status: 'awarded' },
    ])
    // BNG-71 (Cantabria): no next game while the prima is unpaid.
    expect(
      await code(bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })),
    ).toBe('PRIZES_UNPAID') // Paid once, against the payee's identity (BNG-69 receipt with the accumulated games).
    const prizeId = g5.end.bonusWinners![0].id
    expect(await code(payBonus(db, bonus, { prizeId, paidBy: 'jefe', payee: { name: '', document: '' } }))).toBe(
      'PAYEE_ID_REQUIRED',
    )
    const receipt = await payBonus(db, bonus, {
      prizeId,
      paidBy: 'jefe',
      payee: { name: 'Ana Ruiz', document: '12345678Z' },
    })
    expect(receipt).toMatchObject({
      source: 'prima',
      amountCents: 5_000,
      accumulatedGames: 5,
      serial: g5.cards[0].serial,
      status: 'paid',
      completedAtBall: 52,
    })
    expect(receipt.balls).toHaveLength(52)
    expect(await code(payBonus(db, bonus, { prizeId, paidBy: 'otro', payee: { name: 'X', document: 'Y' } }))).toBe(
      'ALREADY_PAID',
    )
    // Reset to the base after the award; continued funding left 5 x 30.00 - 50.00 = 100.00, so it is on offer again.
    const g6 = await manualGame(bingo, session.id, series.id, 80)
    expect(g6.announced).toMatchObject({ primaActive: true, primaBallLimit: 50, primaFundCents: 10_000 })

    const after = await bonus.getPrima(hall.id)
    expect(after!.state).toMatchObject({ fundCents: 13_000, ballLimit: 51, cycleGames: 1, unwonGames: 1 })
    expect(after!.ledger.map((l) => [l.kind, l.amountCents])).toEqual([
      ['deduction', 3_000],
      ['deduction', 3_000],
      ['deduction', 3_000],
      ['deduction', 3_000],
      ['deduction', 3_000],
      ['award', -5_000],
      ['payment', 0],
      ['deduction', 3_000],
    ])
    expect(after!.ledger.at(-1)!.fundAfterCents).toBe(after!.state.fundCents)

    // BNG-64 in the minutes: deducted per game, accumulated, balls at the award, accumulated games.
    const minutes = await loadSessionMinutes(db, session.id)
    expect(minutes.games.map((g) => g.prima?.deductedCents)).toEqual([3_000, 3_000, 3_000, 3_000, 3_000, 3_000])
    expect(minutes.games.map((g) => g.prima?.accumulatedCents)).toEqual([3_000, 6_000, 9_000, 12_000, 15_000, 13_000])
    expect(minutes.games.map((g) => g.prima?.ballLimit)).toEqual([50, 50, 50, 51, 52, 50])
    expect(minutes.games[4].prima).toMatchObject({
      active: true,
      awardedCents: 5_000,
      atBall: 52,
      completedAtBall: 52,
      accumulatedGames: 5,
      paidCents: 5_000,
    })
    expect(minutes.games[2].prima).toMatchObject({ active: true, awardedCents: 0 })
    expect(minutes.games[4].jackpotsPaidCents).toBe(5_000)
    expect((await journalOk(db)).ok).toBe(true)
  })

  it('changes the amount only after it was awarded, and the minutes state the game number (BNG-61)', async () => {
    const { db, bingo, bonus, hall, series, session } = await setup('ES-CB-2010')
    await bonus.configurePrima(hall.id, { amountsCents: [5_000, 10_000], amountCents: 5_000 })
    await manualGame(bingo, session.id, series.id, 40)
    expect(await code(bonus.configurePrima(hall.id, { amountsCents: [5_000, 10_000], amountCents: 10_000 }))).toBe(
      'ILLEGAL_TRANSITION',
    )
    await manualGame(bingo, session.id, series.id, 40)
    const g3 = await manualGame(bingo, session.id, series.id, 40) // on offer (60.00 >= 50.00), won at ball 40
    expect(g3.end.bonusWinners?.[0]).toMatchObject({ source: 'prima', amountCents: 5_000 })
    await payBonus(db, bonus, {
      prizeId: g3.end.bonusWinners![0].id,
      paidBy: 'jefe',
      payee: { name: 'Ana Ruiz', document: '12345678Z' },
    })
    await bonus.configurePrima(hall.id, { amountsCents: [5_000, 10_000], amountCents: 10_000 })
    const g4 = await manualGame(bingo, session.id, series.id, 40)
    expect(g4.announced).toMatchObject({ primaAmountCents: 10_000, primaActive: false, primaFundCents: 4_000 })
    const minutes = await loadSessionMinutes(db, session.id)
    expect(minutes.primaChanges).toEqual([{ fromCents: 5_000, toCents: 10_000, fromGameNo: 4, at: expect.any(String) }])
  })

  it('reverses the deduction of a void game (BNG-86) and leaves the ball limit alone', async () => {
    const { bingo, bonus, hall, series, session } = await setup('ES-CB-2010')
    await bonus.configurePrima(hall.id, { amountsCents: [5_000] })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 100, channel: 't' })
    await bingo.closeSales({ gameId: g.gameId })
    expect((await bonus.getPrima(hall.id))!.state.fundCents).toBe(3_000)
    await bingo.enterBall(g.gameId, 7)
    await bingo.declareIncident({ gameId: g.gameId, kind: 'ball-irregularity', note: 'bola 33 deformada' })
    const p = await bonus.getPrima(hall.id)
    expect(p!.state).toMatchObject({ fundCents: 0, cycleGames: 0, ballLimit: 50 })
    expect(p!.ledger.map((l) => l.kind)).toEqual(['deduction', 'reversal'])
  })
})

describe('progressive pot, lucky ball and interconnected bonus (BNG-55, BNG-66, BNG-67, RNG-15 to RNG-22)', () => {
  it('funds a progressive pot from each game, shows it in the state, awards it within the ball scale and starts again from the reserve', async () => {
    const { db, bingo, bonus, hall, series, session } = await setup('BO-2025')
    const pot = await bonus.createPot({
      authorisationRef: 'AJ-RA-2025-0077',
      name: 'Pozo Illimani',
      kind: 'progressive',
      contributionBp: 200,
      reserveBp: 2_500,
      seedCents: 10_000,
      condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [hall.id],
    })
    expect(pot.amountCents).toBe(10_000)
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    expect(g.pots).toMatchObject([
      {
        id: pot.id,
        amountCents: 10_000,
        // RNG-17: no game has funded it yet: the seed is not an increment.
        incrementCents: null,
        contributionBp: 200,
        conditions: expect.stringMatching(/^bingo en 90 bolas o menos: 100 % del pozo\. Se financia con el 2 %/),
      },
    ])
    await bingo.openSales(g.gameId)
    await bingo.sell({ gameId: g.gameId, count: 200, channel: 't' })
    const closed = await bingo.closeSales({ gameId: g.gameId })
    // 200 x 5.00 = 1,000.00; 2 % = 20.00, of which 25 % (5.00) to the reserve.
    // RNG-17: the increment shown with the pot is this game's 15.00 into the main pot.
    expect(closed.pots![0]).toMatchObject({ amountCents: 11_500, reserveCents: 500, incrementCents: 1_500 })
    let s = closed
    while (s.status !== 'finished')
      s = s.window ? await bingo.closeWindow(g.gameId) : (await bingo.drawNext(g.gameId)).state
    const bingos = s.winners.filter((w) => w.kind === 'bingo')
    const jackpot = s.bonusWinners!.filter((b) => b.source === 'progressive')
    expect(jackpot.map((b) => b.serial)).toEqual(bingos.map((b) => b.serial).sort())
    expect(jackpot.reduce((t, b) => t + b.amountCents, 0)).toBe(11_500)
    // After the award the reserve (5.00) is the new main pot.
    expect(s.pots![0]).toMatchObject({ amountCents: 500, reserveCents: 0, incrementCents: null })
    const detail = await bonus.getPot(pot.id)
    expect(detail.ledger.map((l) => l.kind)).toEqual(['seed', 'contribution', 'award', 'reserve_transfer'])
    expect(detail.ledger.reduce((t, l) => t + l.mainCents, 0)).toBe(500)
    const receipt = await payBonus(db, bonus, {
      prizeId: jackpot[0].id,
      paidBy: 'cajero',
      // CFG-22 (002 §6.1): a Bolivian progressive pot's winner also gives a contact telephone.
      payee: { name: 'Juan Mamani', document: 'CI 4455667 LP', phone: '71234567' },
    })
    expect(receipt.payee).toEqual({ name: 'Juan Mamani', document: 'CI 4455667 LP' })
    expect((await bonus.getPot(pot.id)).ledger.at(-1)).toMatchObject({
      kind: 'payment',
      mainCents: 0,
      // Issue 24 point 2: the ledger names the winner; the document stays sealed on the prize.
      detail: { payee: { name: 'Juan Mamani' } },
    })
    expect(JSON.stringify((await bonus.getPot(pot.id)).ledger)).not.toContain('4455667')
    const minutes = await loadSessionMinutes(db, session.id)
    expect(minutes.games[0].jackpots).toEqual([
      expect.objectContaining({
        potId: pot.id,
        name: 'Pozo Illimani',
        contributedCents: 2_000,
        amountCents: 11_500,
        awardedCents: 11_500,
      }),
    ])
    expect((await journalOk(db)).ok).toBe(true)
  })

  it('draws the lucky ball from its own seed before the first ball and pays it when it completes the winning line (BNG-67, RNG-28)', async () => {
    const { bingo, bonus, hall, series, session } = await setup('BO-2025')
    const pot = await bonus.createPot({
      authorisationRef: 'AJ-RA-2025-0077',
      name: 'Bola loca',
      kind: 'lucky',
      contributionBp: 100,
      seedCents: 2_000,
      condition: { luckyPrizes: ['line', 'bingo'], numbers: 1 },
      hallIds: [hall.id],
    })
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })
    expect(g.luckyBall).toEqual({ commitment: expect.stringMatching(/^[0-9a-f]{64}$/), numbers: null })
    expect(g.luckyBall!.commitment).not.toBe(g.commitment)
    await bingo.openSales(g.gameId)
    const cards = await bingo.sell({ gameId: g.gameId, count: 100, channel: 't' })
    await bingo.closeSales({ gameId: g.gameId })
    // bolillo-lucky-v2: the lucky number is fixed once the game's beacon round is verified, before the first ball.
    const closed = await bingo.obtainBeacon(g.gameId)
    const [lucky] = closed.luckyBall!.numbers!
    // A sold card with the lucky number in a row: call the row's other numbers first, the lucky number last.
    const card = cards.find((c) => c.rows.some((r) => r.includes(lucky)))!
    const row = card.rows.find((r) => r.includes(lucky))!
    for (const b of [...row.filter((n) => n !== lucky), lucky]) await bingo.enterBall(g.gameId, b)
    let s = await bingo.getGameState(g.gameId)
    expect(s.status).toBe('line_window')
    s = await bingo.closeWindow(g.gameId)
    const lineWinners = s.winners.filter((w) => w.kind === 'line')
    const luckyWinners = s.bonusWinners!.filter((b) => b.source === 'lucky')
    expect(luckyWinners.map((w) => w.serial)).toContain(card.serial)
    expect(luckyWinners.every((w) => lineWinners.some((l) => l.serial === w.serial))).toBe(true)
    expect(luckyWinners.reduce((t, w) => t + w.amountCents, 0)).toBe(2_000 + 500) // seed + 1 % of 500.00
    expect(s.pots!.find((p) => p.id === pot.id)!.amountCents).toBe(0)
    // Finish the game by hand, then the lucky-ball proof is published and checks.
    const remaining = Array.from({ length: 90 }, (_, i) => i + 1).filter((n) => !s.balls.includes(n))
    while (s.status !== 'finished')
      s = s.window ? await bingo.closeWindow(g.gameId) : await bingo.enterBall(g.gameId, remaining.shift()!)
    const proof = await bonus.luckyProof(g.gameId)
    expect(proof.numbers).toEqual([lucky])
    expect(verifyLuckyProof(proof)).toEqual({ ok: true, errors: [] })
    // Anyone can check it offline with the CLI; a changed number is caught.
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-lucky-'))
    const cli = (file: string) =>
      spawnSync(process.execPath, [join(process.cwd(), 'bin', 'bolillo.mjs'), 'verify-lucky', file], {
        encoding: 'utf8',
      })
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(proof))
    expect(cli(join(dir, 'ok.json'))).toMatchObject({ status: 0, stdout: expect.stringMatching(/^OK: lucky ball/) })
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...proof, numbers: [lucky === 1 ? 2 : 1] }))
    expect(cli(join(dir, 'bad.json'))).toMatchObject({ status: 1, stdout: expect.stringMatching(/^FAILED/) })
    rmSync(dir, { recursive: true, force: true })
  })

  it('shares an interconnected bonus between halls and pays it only within the ball scale (BNG-66)', async () => {
    const { db, bingo, bonus, hall, set, series, session } = await setup('ES-CB-2010')
    const other = await bingo.createHall({
      name: 'Sala Sardinero',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    const otherSeries = await bingo.createSeries({
      hallId: other.id,
      code: 'S',
      masterSetId: set.id,
      faceValueCents: 500,
    })
    const otherSession = await bingo.openSession({
      hallId: other.id,
      recount: { ballsCounted: 90, confirmedBy: 'jefe' },
    })
    const pot = await bonus.createPot({
      authorisationRef: 'AJ-RA-2025-0077',
      name: 'Interconectado Cantabria',
      kind: 'interconnected',
      contributionBp: 300,
      maxCents: 100_000,
      condition: {
        prize: 'bingo',
        scale: [
          { withinBalls: 40, shareBp: 10_000 },
          { withinBalls: 45, shareBp: 5_000 },
        ],
      },
      hallIds: [hall.id],
    })
    await bonus.addPotHall(pot.id, other.id)
    // Each hall's game: 100 x 5.00 = 500.00, 3 % = 15.00 into the shared pot.
    await manualGame(bingo, session.id, series.id, 60) // bingo at 60: beyond the scale
    const g2 = await manualGame(bingo, otherSession.id, otherSeries.id, 43) // at 43: second step, 50 %
    // RNG-17: announced in the other hall, the shared pot shows the first hall's game as its increment.
    expect(g2.announced.pots!.find((p) => p.id === pot.id)).toMatchObject({ amountCents: 1_500, incrementCents: 1_500 })
    expect(g2.end.bonusWinners).toMatchObject([
      { source: 'interconnected', hallId: other.id, amountCents: 1_500, atBall: 43 },
    ])
    expect(g2.end.pots!.find((p) => p.id === pot.id)!.amountCents).toBe(1_500)
    const detail = await bonus.getPot(pot.id)
    expect(detail.ledger.filter((l) => l.kind === 'contribution').map((l) => [l.hallId, l.mainCents])).toEqual([
      [hall.id, 1_500],
      [other.id, 1_500],
    ])
    expect((await journalOk(db)).ok).toBe(true)
  })
})

describe('no prize beyond the regulated ones in Cantabria (BNG-68)', () => {
  const codeOf = async (p: Promise<unknown>) =>
    p.then(
      () => 'OK',
      (err: { code?: string; details?: { rule?: string } }) => `${err.code}:${err.details?.rule}`,
    )
  it('refuses a progressive pot and seed money in a Cantabrian hall, keeps interconnected bingo and bola loca without seed', async () => {
    const { bingo, bonus, hall } = await setup('ES-CB-2010')
    const scale = { prize: 'bingo' as const, scale: [{ withinBalls: 40, shareBp: 10_000 }] }
    expect(
      await codeOf(
        bonus.createPot({
          authorisationRef: 'AJ-RA-2025-0077',
          name: 'Pozo',
          kind: 'progressive',
          contributionBp: 200,
          condition: scale,
          hallIds: [hall.id],
        }),
      ),
    ).toBe('RULE_DISABLED:BNG-68')
    expect(
      await codeOf(
        bonus.createPot({
          authorisationRef: 'AJ-RA-2025-0077',
          name: 'Inter',
          kind: 'interconnected',
          contributionBp: 300,
          seedCents: 5_000,
          condition: scale,
          hallIds: [hall.id],
        }),
      ),
    ).toBe('RULE_DISABLED:BNG-68')
    expect(
      await codeOf(
        bonus.createPot({
          authorisationRef: 'AJ-RA-2025-0077',
          name: 'Bola loca',
          kind: 'lucky',
          contributionBp: 100,
          seedCents: 2_000,
          condition: { luckyPrizes: ['line'], numbers: 1 },
          hallIds: [hall.id],
        }),
      ),
    ).toBe('RULE_DISABLED:BNG-68')
    const inter = await bonus.createPot({
      authorisationRef: 'AJ-RA-2025-0077',
      name: 'Interconectado',
      kind: 'interconnected',
      contributionBp: 300,
      condition: scale,
      hallIds: [hall.id],
    })
    expect(inter.amountCents).toBe(0)
    expect(
      await codeOf(
        bonus.createPot({
          authorisationRef: 'AJ-RA-2025-0077',
          name: 'Bola loca',
          kind: 'lucky',
          contributionBp: 100,
          condition: { luckyPrizes: ['line'], numbers: 1 },
          hallIds: [hall.id],
        }),
      ),
    ).toBe('OK')
    // A Bolivian hall may run a progressive pot with seed money (BNG-55).
    const bo = await bingo.createHall({
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      bettingPlan: {
        authorisationRef: 'AJ-RA-PRUEBA-1',
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
        potsBp: 1000,
        commissionBp: 0,
      },
    })
    expect(
      await codeOf(
        bonus.createPot({
          authorisationRef: 'AJ-RA-2025-0077',
          name: 'Pozo',
          kind: 'progressive',
          contributionBp: 200,
          seedCents: 10_000,
          condition: scale,
          hallIds: [bo.id],
        }),
      ),
    ).toBe('OK')
  })
})
