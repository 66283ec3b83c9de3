import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterAll, describe, expect, it } from 'vitest'
import { REMAINDER_RULE_ES, type MinutesGame, type SessionMinutes } from '../../server/src/bingo/minutes.ts'
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatMinutesDate, renderMinutesPdf } from './minutes-pdf.ts'
import { toWinAnsi } from './pdf-kit.ts'

const HALL = 'Salón de Bingo «El Ñandú» — Peñas Güemes, Cochabamba'

/** Deterministic extraction order: a seeded shuffle of 1..90. */
function ballOrder(seed: number, count: number): number[] {
  const a = Array.from({ length: 90 }, (_, i) => i + 1)
  let x = seed
  for (let j = a.length - 1; j > 0; j--) {
    x = (x * 1103515245 + 12345) % 2147483648
    const r = x % (j + 1)
    ;[a[j], a[r]] = [a[r], a[j]]
  }
  return a.slice(0, count)
}

const at = (hh: number, mm: number, ss = 0) =>
  `2025-03-14T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}.000Z`
const hex = (c: string) => c.repeat(64).slice(0, 64)

function baseGame(orderNo: number): MinutesGame {
  return {
    orderNo,
    gameId: `g_${orderNo}_7f3a9c`,
    series: [],
    faceValueCents: 250,
    cardsSold: 0,
    totalCents: 0,
    linePoolCents: 0,
    bingoPoolCents: 0,
    jackpots: [],
    linePaidCents: 0,
    bingoPaidCents: 0,
    jackpotsPaidCents: 0,
    winners: [],
    ballsDrawn: 0,
    balls: [],
    commitment: hex('3f9a'),
    salesDigest: hex('b71c'),
    startedAt: null,
    firstBallAt: null,
    endedAt: null,
    status: 'finished',
    voidReason: null,
    refundCents: 0,
    incidents: [],
    rejectedClaims: [],
    lastGame: false,
  }
}

/** Game 1: 183 cards at Bs 2,50, a line tied between two cards (4575 split 2288 + 2287), bingo at ball 64. */
function game1(): MinutesGame {
  const balls = ballOrder(7, 64)
  return {
    ...baseGame(1),
    series: [{ code: 'A', from: 1, to: 183 }],
    cardsSold: 183,
    totalCents: 45750,
    linePoolCents: 4575,
    bingoPoolCents: 23332,
    linePaidCents: 4575,
    bingoPaidCents: 23332,
    winners: [
      { kind: 'line', serial: 'A-00017', amountCents: 2288, atBall: 31 },
      { kind: 'line', serial: 'A-00142', amountCents: 2287, atBall: 31 },
      { kind: 'bingo', serial: 'A-00098', amountCents: 23332, atBall: 64 },
    ],
    balls,
    ballsDrawn: balls.length,
    startedAt: at(19, 2, 11),
    firstBallAt: at(19, 3, 2),
    endedAt: at(19, 21, 45),
    rejectedClaims: [{ serial: 'A-00055', kind: 'line', atBall: 33, reason: 'line_already_awarded' }],
  }
}

/** Game 2: void after a ball irregularity, full refund. */
function game2(): MinutesGame {
  const balls = ballOrder(11, 12)
  return {
    ...baseGame(2),
    series: [{ code: 'B', from: 1, to: 120 }],
    cardsSold: 120,
    totalCents: 30000,
    linePoolCents: 3000,
    bingoPoolCents: 15300,
    balls,
    ballsDrawn: balls.length,
    startedAt: at(19, 30, 0),
    firstBallAt: at(19, 30, 40),
    endedAt: at(19, 36, 12),
    status: 'void',
    voidReason: 'ball-irregularity',
    refundCents: 30000,
    incidents: [
      {
        at: at(19, 33, 5),
        kind: 'device-failure-after-first-ball',
        outcome: 'continue-manual-with-remaining-balls',
        rule: 'BNG-81',
        note: 'El lector automático dejó de responder; se continúa a mano con las bolas pendientes.',
      },
      {
        at: at(19, 36, 10),
        kind: 'ball-irregularity',
        outcome: 'void-refund',
        rule: 'BNG-82',
        note: 'Bola 47 duplicada en el juego de bolas n.º 3; se leyó en voz alta el párrafo 1.b del reglamento → se anula la partida.',
      },
    ],
  }
}

/** Game 3: last game, two series, a progressive pot paid. */
function game3(): MinutesGame {
  const balls = ballOrder(23, 71)
  return {
    ...baseGame(3),
    series: [
      { code: 'A', from: 184, to: 300 },
      { code: 'B', from: 121, to: 200 },
    ],
    faceValueCents: 500,
    cardsSold: 197,
    totalCents: 98500,
    linePoolCents: 9850,
    bingoPoolCents: 50235,
    jackpots: [{ name: 'Pozo progresivo Gran Bingo', amountCents: 150000 }],
    linePaidCents: 9850,
    bingoPaidCents: 50235,
    jackpotsPaidCents: 150000,
    winners: [
      { kind: 'line', serial: 'B-00133', amountCents: 9850, atBall: 27 },
      { kind: 'bingo', serial: 'A-00261', amountCents: 50235, atBall: 71 },
    ],
    balls,
    ballsDrawn: balls.length,
    startedAt: at(19, 45, 0),
    firstBallAt: at(19, 45, 31),
    endedAt: at(20, 6, 58),
    lastGame: true,
  }
}

function minutesWith(games: MinutesGame[]): SessionMinutes {
  return {
    sessionId: 'ses_2025-03-14_n1',
    hallId: 'hall_cbba_01',
    hallName: HALL,
    profileId: 'BO-2025',
    currency: 'BOB',
    openedAt: at(18, 55, 3),
    closedAt: at(20, 15, 40),
    openRecount: { ballsCounted: 90, confirmedBy: 'María José Ibáñez (Jefa de Mesa)' },
    closeRecount: { ballsCounted: 90, confirmedBy: 'Íñigo Pérez Núñez' },
    lastGameAnnounced: true,
    games,
    totals: {
      cardsSold: games.reduce((s, g) => s + g.cardsSold, 0),
      totalCents: games.reduce((s, g) => s + g.totalCents, 0),
      prizesPaidCents: games.reduce((s, g) => s + g.linePaidCents + g.bingoPaidCents + g.jackpotsPaidCents, 0),
      refundCents: games.reduce((s, g) => s + g.refundCents, 0),
    },
    journal: { firstSeq: 1201, lastSeq: 1689, lastHash: hex('e5d1'), records: 489 },
    remainderRule:
      'Reparto a partes iguales entre cartones premiados; los céntimos sobrantes, uno a cada cartón por orden ascendente de serie.',
  }
}

const threeGames = () => minutesWith([game1(), game2(), game3()])

/**
 * A Cantabria session with everything issue #8 and the equipment records add: game 1 awards the prima at ball 52
 * after 5 accumulated games, a progressive pot and the lucky ball, and has ball 18 corrected (called 88, 41 prevails);
 * game 2 is a simultaneous game with the prima not on offer and a new prima amount from it on. Ball set A is
 * changed for B between the games.
 */
const LUCKY = 27
const CORRECTED = { seq: 18, from: 88, to: 41 }
function bonusMinutes(): SessionMinutes {
  const balls = ballOrder(31, 90)
    .filter((b) => b !== CORRECTED.from && b !== CORRECTED.to && b !== LUCKY)
    .slice(0, 49)
  balls.splice(4, 0, LUCKY)
  balls.splice(CORRECTED.seq - 1, 0, CORRECTED.to)
  balls.push(66)
  const g1: MinutesGame = {
    ...baseGame(1),
    series: [{ code: 'A', from: 1, to: 100 }],
    faceValueCents: 500,
    cardsSold: 100,
    totalCents: 50000,
    linePoolCents: 5000,
    bingoPoolCents: 25000,
    linePaidCents: 5000,
    bingoPaidCents: 25000,
    jackpotsPaidCents: 5000 + 11500,
    winners: [
      { kind: 'line', serial: 'A-00007', amountCents: 5000, atBall: 5 },
      { kind: 'bingo', serial: 'A-00064', amountCents: 25000, atBall: 52 },
    ],
    balls: balls.slice(0, 52),
    ballsDrawn: 52,
    startedAt: at(19, 0, 0),
    firstBallAt: at(19, 0, 30),
    endedAt: at(19, 18, 0),
    prima: {
      active: true,
      amountCents: 5000,
      ballLimit: 52,
      fundAtStartCents: 12000,
      deductedCents: 3000,
      accumulatedCents: 15000,
      awardedCents: 5000,
      atBall: 52,
      completedAtBall: 52,
      accumulatedGames: 5,
      paidCents: 5000,
      outcome: 'won',
      nextBallLimit: 50,
    },
    jackpots: [
      {
        potId: 'pot_ill',
        name: 'Pozo Illimani',
        kind: 'progressive',
        amountCents: 11500,
        contributedCents: 2000,
        awardedCents: 11500,
        paidCents: 11500,
      },
      {
        potId: 'pot_loca',
        name: 'Bola loca Pereda',
        kind: 'lucky',
        amountCents: 2500,
        contributedCents: 500,
        awardedCents: 2500,
        paidCents: 0,
      },
    ],
    luckyBall: { commitment: hex('9c4e'), numbers: [LUCKY] },
    incidents: [
      {
        at: at(19, 9, 0),
        kind: 'reader-misread',
        outcome: `ball-corrected:${CORRECTED.from}->${CORRECTED.to}`,
        rule: 'BNG-83',
        note: 'El lector leyó 88; la bola es el 41.',
      },
    ],
  }
  const g2: MinutesGame = {
    ...baseGame(2),
    series: [{ code: 'B', from: 1, to: 80 }],
    faceValueCents: 500,
    cardsSold: 80,
    totalCents: 40000,
    linePoolCents: 4000,
    bingoPoolCents: 20000,
    linePaidCents: 4000,
    bingoPaidCents: 20000,
    balls: ballOrder(5, 61),
    ballsDrawn: 61,
    startedAt: at(19, 30, 0),
    firstBallAt: at(19, 30, 20),
    endedAt: at(19, 50, 0),
    winners: [
      { kind: 'line', serial: 'B-00011', amountCents: 4000, atBall: 20 },
      { kind: 'bingo', serial: 'B-00070', amountCents: 20000, atBall: 61 },
    ],
    prima: {
      active: false,
      amountCents: 10000,
      ballLimit: 50,
      fundAtStartCents: 10000,
      deductedCents: 2400,
      accumulatedCents: 12400,
      awardedCents: 0,
      atBall: null,
      completedAtBall: null,
      accumulatedGames: null,
      paidCents: 0,
      outcome: 'not_offered',
      nextBallLimit: null,
    },
    halls: [
      { hallId: 'hall_pereda', fromCardNo: 1, toCardNo: 50, cardsSold: 50, salesCents: 25000 },
      { hallId: 'hall_sardinero', fromCardNo: 51, toCardNo: 80, cardsSold: 30, salesCents: 15000 },
    ],
    lastGame: true,
  }
  const m = minutesWith([g1, g2])
  m.profileId = 'ES-CB-2010'
  m.currency = 'EUR'
  m.primaChanges = [{ fromCents: 5000, toCents: 10000, fromGameNo: 2, at: at(19, 20, 0) }]
  m.equipment = [
    {
      at: at(18, 55, 3),
      type: 'ball_set.recount',
      details: {
        phase: 'start',
        ballSetId: 'bs_a',
        label: 'A',
        ballCount: 90,
        ballsCounted: 90,
        confirmedBy: 'Ana Ruiz',
        gamesPlayed: 2999,
        gameLimit: 3000,
        rule: 'BNG-27',
      },
    },
    {
      at: at(19, 0, 30),
      type: 'ball_set.limit_reached',
      details: { ballSetId: 'bs_a', label: 'A', gamesPlayed: 3000, gameLimit: 3000, reservesLeft: 1, rule: 'BNG-24' },
    },
    {
      at: at(19, 5, 12),
      type: 'device.misread',
      details: {
        gameId: g1.gameId,
        deviceId: 'BLW-7',
        readBall: 88,
        actualBall: 41,
        confidence: 62,
        seq: 311,
        confirmedBy: 'Jefe de Mesa Luis Gómez',
        rule: 'BNG-83',
      },
    },
    {
      at: at(19, 9, 0),
      type: 'ball.corrected',
      details: {
        gameId: g1.gameId,
        seq: CORRECTED.seq,
        from: CORRECTED.from,
        to: CORRECTED.to,
        source: 'manual',
        kind: 'reader-misread',
        rule: 'BNG-83',
      },
    },
    {
      at: at(19, 25, 0),
      type: 'ball_set.changed',
      details: {
        hallId: 'hall_pereda',
        from: { id: 'bs_a', label: 'A', gamesPlayed: 3000, gameLimit: 3000, to: 'retired' },
        to: { id: 'bs_b', label: 'B', gamesPlayed: 0, gameLimit: 3000 },
        reason: 'límite de partidas',
        witnessedBy: 'Director del Bingo Pedro Sáinz',
        reservesLeft: 0,
        rule: 'BNG-25',
      },
    },
    {
      at: at(19, 40, 0),
      type: 'device.fault',
      details: { gameId: g2.gameId, deviceId: 'BLW-7', code: 'JAM', detail: 'atasco en el tubo', ballsDrawn: 30 },
    },
  ]
  m.totals.prizesPaidCents += g1.jackpotsPaidCents
  return m
}

const hasPdftotext = (() => {
  try {
    execFileSync('which', ['pdftotext'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const dir = mkdtempSync(join(tmpdir(), 'bolillo-minutes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Extracted text with every run of white space (including no-break spaces) folded to one space. */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = join(dir, `${name}.pdf`)
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /[\s\u00a0\u202f]+/g,
    ' ',
  )
}
const norm = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ')

describe('renderMinutesPdf', () => {
  it('renders a valid A4 PDF for a realistic session', async () => {
    const bytes = await renderMinutesPdf(threeGames())
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
    const doc = await PDFDocument.load(bytes)
    const { width, height } = doc.getPage(0).getSize()
    expect(Math.round(width)).toBe(595)
    expect(Math.round(height)).toBe(842)
    // Keep a copy to look at: MINUTES_PDF_OUT=/tmp/minutes-sample.pdf npx vitest run printer
    if (process.env.MINUTES_PDF_OUT) writeFileSync(process.env.MINUTES_PDF_OUT, bytes)
  })

  it('breaks pages when there are many games', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      ...[game1(), game2(), game3()][i % 3],
      orderNo: i + 1,
      gameId: `g_${i + 1}`,
      lastGame: i === 11,
    }))
    const three = await PDFDocument.load(await renderMinutesPdf(threeGames()))
    const twelve = await PDFDocument.load(await renderMinutesPdf(minutesWith(many)))
    expect(twelve.getPageCount()).toBeGreaterThan(1)
    expect(twelve.getPageCount()).toBeGreaterThan(three.getPageCount())
  })

  it('never throws on characters outside WinAnsi', async () => {
    const m = threeGames()
    m.hallName = 'Bingo 🎱 北京 Łódź Ørsted — Ñoño ≤ 5 → ok\tfin\u0301'
    m.games[1].incidents[0].note = 'Línea 1\nLínea 2 ✓ ∑ 𝔘'
    for (const lang of ['es', 'en'] as const) {
      const bytes = await renderMinutesPdf(m, lang)
      expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('%PDF')
    }
    const doc = await PDFDocument.create()
    const charset = new Set((await doc.embedFont(StandardFonts.Helvetica)).getCharacterSet())
    expect(toWinAnsi('¿Año? ¡Sí! pingüino Ñandú', charset)).toBe('¿Año? ¡Sí! pingüino Ñandú')
    expect(toWinAnsi('Łódź 5 → 6 ≤ 7 🎱 e\u0301 北京 №3', charset)).toBe('Lódz 5 -> 6 <= 7  é ?? N.º3')
  })

  it('renders empty and still-open sessions', async () => {
    const m = minutesWith([])
    m.closedAt = null
    m.closeRecount = null
    m.openRecount = null
    m.currency = ''
    const doc = await PDFDocument.load(await renderMinutesPdf(m, 'en'))
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1)
  })

  it('prints the prima, pots, lucky ball, ball sets and corrected balls (pdftotext)', async (ctx) => {
    if (!hasPdftotext) {
      if (process.env.CI === 'true') throw new Error('pdftotext is missing: CI must install poppler-utils')
      ctx.skip('pdftotext (poppler-utils) is not installed: text extraction not checked')
    }
    const m = bonusMinutes()
    const bytes = await renderMinutesPdf(m)
    if (process.env.MINUTES_PDF_OUT)
      writeFileSync(process.env.MINUTES_PDF_OUT.replace(/\.pdf$/, '') + '-bonus.pdf', bytes)
    const text = pdfText(bytes, 'bonus-es')
    const eur = (c: number) => norm(formatMoney(c, 'EUR', 'es'))
    for (const expected of [
      // BNG-64: deducted, accumulated, award with balls and accumulated games.
      'Premios adicionales',
      'PRIMA DE BINGO (BNG-57 A BNG-64)',
      eur(3000),
      eur(15000),
      eur(12000),
      'Adjudicada',
      eur(2400),
      eur(12400),
      'No ofrecida',
      // BNG-61: the new amount with the game number.
      'Desde esta partida el importe de la prima pasa de',
      eur(10000),
      'PRIMA DE BINGO: CAMBIOS DE IMPORTE',
      // BNG-73 (5)/(8): pots with contributions, awards and payments.
      'POZOS (BNG-73 (5) Y (8))',
      'Pozo Illimani',
      'Progresivo',
      eur(2000),
      eur(11500),
      'Bola loca Pereda',
      eur(2500),
      eur(500),
      // BNG-67.
      'BOLA LOCA (BNG-67)',
      hex('9c4e'),
      'número de la bola loca',
      // BNG-100.
      'Salas del juego simultáneo (BNG-100)',
      'hall_sardinero',
      eur(15000),
      // BNG-24, BNG-25, BNG-27, BNG-83.
      'EQUIPOS Y JUEGO DE BOLAS',
      'Director del Bingo Pedro Sáinz',
      'límite de partidas',
      'Ana Ruiz',
      'BLW-7',
      'atasco en el tubo',
      'Jefe de Mesa Luis Gómez',
      `cantada ${CORRECTED.from}, prevalece ${CORRECTED.to}`,
      `Bola corregida: ${CORRECTED.from} por ${CORRECTED.to}`,
      'Lectura errónea del lector automático',
      'bola corregida; tachado, el número cantado (BNG-83)',
    ])
      expect(text).toContain(norm(expected))
    // Balls drawn when the winning card was completed and accumulated games, as printed in the prima grid.
    expect(text).toMatch(/BOLAS AL COMPLETAR EL CART[ÓO]N GANADOR/)
    expect(text).toMatch(/PARTIDAS ACUMULADAS/)

    const en = pdfText(await renderMinutesPdf(m, 'en'), 'bonus-en')
    for (const expected of [
      'Additional prizes',
      'Accumulated games'.toUpperCase(),
      'EQUIPMENT AND BALL SET',
      `called ${CORRECTED.from}, ${CORRECTED.to} prevails`,
      'Ball set changed (BNG-25)',
      'From this game the prima amount changes from',
    ]) {
      expect(en).toContain(norm(expected))
    }
    // The server's Spanish remainder rule is printed in English; any other rule as it is.
    expect(en).toContain('the leftover cents go one to each card in ascending serial order')
    expect(en).not.toContain('céntimos sobrantes')
    expect(m.remainderRule).toBe(REMAINDER_RULE_ES)
    m.remainderRule = 'Regla propia de la sala: reparto por jugador.'
    expect(pdfText(await renderMinutesPdf(m, 'en'), 'own-rule')).toContain(
      'Regla propia de la sala: reparto por jugador.',
    )

    // Without any of it, none of the new blocks appears.
    const plain = pdfText(await renderMinutesPdf(minutesWith([game1(), game2()])), 'plain')
    for (const absent of ['Premios adicionales', 'EQUIPOS Y JUEGO DE BOLAS', 'CAMBIOS DE IMPORTE', 'BOLA LOCA'])
      expect(plain).not.toContain(absent)
  })

  it('keeps the new blocks inside the margins over many pages (pdftotext -bbox)', async (ctx) => {
    if (!hasPdftotext) {
      if (process.env.CI === 'true') throw new Error('pdftotext is missing: CI must install poppler-utils')
      ctx.skip('pdftotext (poppler-utils) is not installed: word positions not checked')
    }
    const m = bonusMinutes()
    m.games = Array.from({ length: 8 }, (_, i) => ({
      ...structuredClone(m.games[i % 2]),
      orderNo: i + 1,
      gameId: `g_${i + 1}`,
      lastGame: i === 7,
    }))
    m.equipment = Array.from({ length: 6 }, () => m.equipment!).flat()
    const file = join(dir, 'bbox.pdf')
    writeFileSync(file, await renderMinutesPdf(m))
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' })
    const pages = html.split('<page ').slice(1)
    expect(pages.length).toBeGreaterThan(6)
    for (const page of pages) {
      for (const [, x0, y0, x1, y1] of page.matchAll(
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"/g,
      )) {
        // Inside the side margins (48 pt); above the content bottom (62 pt) unless it is the footer line.
        expect(Number(x0)).toBeGreaterThanOrEqual(47)
        expect(Number(x1)).toBeLessThanOrEqual(595.28 - 47)
        const inFooter = Number(y0) >= 841.89 - 42
        expect(inFooter || Number(y1) <= 841.89 - 60).toBe(true)
        expect(Number(y0)).toBeGreaterThanOrEqual(40)
      }
    }
  })

  it("formats dates as dd/mm/yyyy HH:MM:SS: on the hall's clock when written with its offset, else saying UTC (issue 17)", () => {
    expect(formatMinutesDate('2025-03-04T03:05:09-04:00')).toBe('04/03/2025 03:05:09')
    expect(formatMinutesDate('2025-03-04T07:05:09.000Z')).toBe('04/03/2025 07:05:09 UTC')
    expect(formatMinutesDate(null)).toBe('—')
  })

  it('prints every field of the minutes (pdftotext)', async (ctx) => {
    if (!hasPdftotext) {
      if (process.env.CI === 'true') throw new Error('pdftotext is missing: CI must install poppler-utils')
      ctx.skip('pdftotext (poppler-utils) is not installed: text extraction not checked')
    }
    const m = { ...threeGames(), sessionNo: 4 }
    const text = pdfText(await renderMinutesPdf(m), 'es')
    const bob = (c: number) => norm(formatMoney(c, 'BOB', 'es'))
    for (const expected of [
      HALL,
      'ACTA DE SESIÓN DE BINGO',
      'BO-2025',
      '14/03/2025 14:55:03',
      'La Paz, UTC-04:00',
      'María José Ibáñez',
      'Serie A del 00001 al 00183',
      'Serie A del 00184 al 00300',
      'Serie B del 00121 al 00200',
      'A-00017',
      'A-00142',
      'A-00098',
      'B-00133',
      'A-00261',
      'A-00055',
      bob(2288),
      bob(2287),
      bob(23332),
      bob(45750),
      bob(150000),
      bob(30000),
      bob(m.totals.totalCents),
      bob(m.totals.prizesPaidCents),
      'PARTIDA N.º 1',
      'PARTIDA N.º 3',
      'ÚLTIMO JUEGO',
      'Anulada',
      'irregularidad de las bolas',
      'BNG-82',
      'BNG-81',
      'la línea ya estaba adjudicada',
      hex('3f9a'),
      hex('e5d1'),
      'Empate en línea',
      'céntimos sobrantes',
      'Jefe de Mesa',
      'Director de Bingo',
      'diario de eventos encadenado',
    ])
      expect(text).toContain(norm(expected))
    expect(text).toMatch(/Página 1 de \d+/)
    // Issue 29 point 6: the session by its number in the hall, the hall by its name; no record id on paper.
    expect(text).toContain('Sesión N.º 4')
    expect(text).not.toContain('hall_cbba_01')
    expect(text).not.toContain(m.sessionId)

    const en = pdfText(await renderMinutesPdf(m, 'en'), 'en')
    for (const expected of [
      'BINGO SESSION MINUTES',
      HALL,
      'Series A from 00001 to 00183',
      'GAME NO. 2',
      'Void',
      norm(formatMoney(2288, 'BOB', 'en')),
      'Director de Bingo',
    ]) {
      expect(en).toContain(norm(expected))
    }
    expect(en).toMatch(/Page 1 of \d+/)
  })

  it('prints figure prizes on their own line, by name, per game and in the totals; never under the pots (CFG-13, BNG-73)', async (ctx) => {
    if (!hasPdftotext) {
      if (process.env.CI === 'true') throw new Error('pdftotext is missing: CI must install poppler-utils')
      ctx.skip('pdftotext (poppler-utils) is not installed: text extraction not checked')
    }
    const g1 = game1()
    const g2 = game2()
    g1.figures = [
      { figure: 'four-corners', name: 'Cuatro esquinas', poolCents: 2288, paidCents: 2288 },
      { figure: 'cross', name: 'Cruz', poolCents: 915, paidCents: 0 },
    ]
    g1.figuresPaidCents = 2288
    // A line claimed while the four corners' window was open, and a second four corners: reasons in words.
    g1.rejectedClaims.push(
      { serial: 'A-00111', kind: 'line', atBall: 30, reason: 'window_open_for_figure:four-corners' },
      { serial: 'A-00112', kind: 'figure:four-corners', atBall: 31, reason: 'figure_already_awarded' },
    )
    g2.figures = [{ figure: 'four-corners', name: 'Cuatro esquinas', poolCents: 1001, paidCents: 1001 }]
    g2.figuresPaidCents = 1001
    const m = minutesWith([g1, g2, game3()])
    m.totals.prizesPaidCents += 2288 + 1001
    const bob = (c: number) => norm(formatMoney(c, 'BOB', 'es'))
    const es = pdfText(await renderMinutesPdf(m), 'figures-es')
    expect(es).toContain(
      `PREMIOS DE FIGURA PAGADO POR FIGURAS Cuatro esquinas: ${bob(2288)} Cruz: ${bob(915)} Cuatro esquinas: ${bob(2288)} Cruz: ${bob(0)}`,
    )
    const pots = [g1, g2, game3()].reduce((t, g) => t + g.jackpotsPaidCents, 0)
    expect(es).toContain(
      `PAGADO POR FIGURAS PAGADO DE POZOS / PRIMA ${bob([g1, g2, game3()].reduce((t, g) => t + g.linePaidCents, 0))}`,
    )
    expect(es).toContain(`${bob(3289)} Cuatro esquinas: ${bob(3289)} Cruz: ${bob(0)} ${bob(pots)}`)
    expect(es).toContain('A-00111 Línea 30 ventana de reclamación abierta para Cuatro esquinas')
    expect(es).toContain('A-00112 Cuatro esquinas 31 la figura ya estaba adjudicada')
    const en = pdfText(await renderMinutesPdf(m, 'en'), 'figures-en')
    expect(en).toContain('A-00111 Line 30 claim window open for Four corners')
    expect(en).toContain('FIGURE PRIZES PAID FOR FIGURES Four corners:')
    expect(en).toContain('Cross:')
    // A session without figures keeps its three columns: no figure line at all.
    const plain = pdfText(await renderMinutesPdf(threeGames()), 'no-figures-es')
    expect(plain).not.toContain('FIGURA')
  })
})
