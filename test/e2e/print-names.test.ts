/**
 * Issue 29 point 6: every paper of a night names people, stations and receipts as a person reads them, never by
 * an internal id. A night is played over HTTP with authentication on and enrolled stations (counter and kiosk
 * sales of cards, a lotto slip and an e-instant ticket, vouchers and a change voucher, payouts and a receipt
 * printed again, an annulled game's cards refunded in cash and onto a voucher, the shift closed); then every job
 * the file printer wrote (raw ESC/POS and PDF, opened with the sealing key) and every PDF the back office
 * downloads (session minutes, shift report, prize register, instant reconciliation, lotto receipt, payout
 * receipt, and the numbered lottery's print-shop sheet) is read as text (pdftotext for PDFs) and scanned for internal
 * ids: `dev_`, `u_`, `po_`, `c_`, `ltr_` and the other record prefixes, and the session's and draws' raw ids. Every
 * kind of paper the issue lists must be among them, so a kind that stops printing fails the test.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPrintFile } from '../../printer/src/printers.ts'
import { playToTheEnd, sellVoucher, winningCodes, nextGameOnSale } from '../helpers/cashdesk.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { lotteryPlan } from '../helpers/lottery-plans.ts'
import { paidHall, PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import { api, startTestServer } from '../helpers/server.ts'

const OUT = resolve('test-output/print-names')
const haveTools = spawnSync('which', ['pdftotext']).status === 0
if (!haveTools && process.env.CI === 'true') throw new Error('missing pdftotext: install poppler-utils (.ci/run does)')
const suite = haveTools ? describe : describe.skip

/**
 * Record ids as the server makes them: a short prefix, an underscore, random base-32 letters. A game's id is left
 * out on purpose: the minutes print it as the key of the game's draw proof (GET /api/games/{gameId}/proof).
 */
// Record ids are lower case (shared/record-id.ts): matched as such, so a signature's base64 ('…C_dffxZB…') is not one.
// Issue 29: the numbered lottery's and raffle's draws (ltr_, rfl_), the lotto's (ldr_), print runs, reissues, exchanges,
// shifts, tills, terminal sessions, incidents, ball sets and the other record prefixes of shared/record-id.ts users.
const ID =
  /\b(?:dev|u|po|c|cs|ses|rf|v|sh|cm|pz|hall|kp|lpay|sp|inr|inp|bz|aml|lpr|ltr|rfl|ldr|lri|lex|tl|ts|inc|inb|cmp|cl|ci|he|ser|pot)_[a-z0-9]{6,}\b/g

/** What a person would read on one paper that is an internal id (empty when none). */
export function idsIn(text: string, rawIds: string[]): string[] {
  const found = [...text.matchAll(ID)].map((m) => m[0])
  for (const raw of rawIds) if (raw && text.includes(raw)) found.push(raw)
  return found
}

/**
 * Issue 29 point 5: the night is played from 15:00 UTC of the day after the real one (inside the lotto plan's sales
 * window, which paidHall sets from noon UTC of the real day): its UTC times (15:xx) differ in the hour from the hall's
 * (La Paz, 11:xx), from the lotto draw's (09:00) and from the deadlines' 23:59, so a time printed in UTC, not in the
 * hall's zone, is told apart on any date and at any hour. (A clock twelve hours ahead of the real one met the
 * deadlines' 23:59 when the suite ran at noon UTC.)
 */
const realStart = Date.now()
const START = Math.floor(realStart / 86_400_000) * 86_400_000 + 86_400_000 + 15 * 3_600_000
const clock = { now: () => new Date(START + (Date.now() - realStart)) }
const hhmm = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms)

/** Every minute of the night so far as "HH:MM" on the given zone's clock. */
function minutesOfNight(zone: string): string[] {
  const out: string[] = []
  for (let t = START - 60_000; t <= clock.now().getTime() + 60_000; t += 60_000) out.push(hhmm(t, zone))
  return out
}

/** Times printed on the UTC clock of the night, not on the hall's: "22:14", "T22:14". */
export function utcTimesIn(text: string, utcMinutes: readonly string[]): string[] {
  return [...text.matchAll(/(?<![-+\d])\d{2}:\d{2}(?!\d)/g)].map((m) => m[0]).filter((t) => utcMinutes.includes(t))
}

function pdfText(bytes: Buffer, name: string): string {
  const file = join(OUT, `${name}.pdf`)
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
}

suite('names, not ids, on every paper of a night (issue 29 point 6)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const papers = new Map<string, string>()
  const es = { 'accept-language': 'es' }
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  let asFloor: Record<string, string> = {}
  const player = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }
  const ok = (r: { status: number; body: unknown }, status = 201) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status)
    return r.body as any
  }
  async function download(path: string, name: string, headers = asDirector()) {
    const r = await fetch(`${server.url}${path}`, { headers })
    expect(r.status, `${path}: ${r.status}`).toBe(200)
    papers.set(name, pdfText(Buffer.from(await r.arrayBuffer()), name))
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true })
    server = await startTestServer({ auth: 'on' }, { clock })
    hall = await paidHall(server.services)
    await server.services.auth.createUser({
      username: 'mesa',
      displayName: 'Luis Mamani',
      role: 'floor_manager',
      password: PASSWORD,
    })
    asFloor = { ...es, authorization: `Bearer ${(await server.services.auth.login('mesa', PASSWORD)).token}` }
  }, 60_000)
  afterAll(async () => server?.cleanup())

  it(
    'plays a night and prints every paper with names: not one internal id on paper or PDF',
    { timeout: 120_000 },
    async () => {
      const { hallId, gameId, drawId, gameNo, sessionId } = hall
      /** Record ids looked for as they are, whatever their prefix. */
      const rawIds: string[] = [drawId]
      // Counter: a voucher, cards, a lotto slip and an e-instant ticket at Caja 1, paid in cash into Rosa's drawer.
      const voucher = await sellVoucher(server.url, hallId, 5_000, {}, asCashier())
      ok(await api(server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 30 }, asCashier()))
      const slip = ok(
        await api(
          server.url,
          'POST',
          `/api/lotto/draws/${drawId}/slips`,
          { ageConfirmed: true, quickPicks: 1, player },
          asCashier(),
        ),
      )
      ok(
        await api(
          server.url,
          'POST',
          `/api/instant/halls/${hallId}/electronic`,
          { ageConfirmed: true, gameNo },
          asCashier(),
        ),
      )
      // Kiosk: the voucher buys a card, a slip and an e-instant ticket; the change comes back on a voucher.
      ok(
        await api(
          server.url,
          'POST',
          '/api/kiosk/purchases',
          {
            voucherCode: voucher.code,
            ageConfirmed: true,
            cards: { gameId, count: 2 },
            slips: [{ drawId, quickPicks: 1, player }],
            instant: { gameNo, count: 1 },
          },
          asKiosk(),
        ),
      )
      // The game is played and every winner paid at Caja 1; the first receipt printed again.
      await playToTheEnd(server.services, gameId)
      const payouts: string[] = []
      for (const w of await winningCodes(server.services, gameId)) {
        const paid = ok(
          await api(
            server.url,
            'POST',
            '/api/tickets/pay',
            { code: w.code, payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' },
            asCashier(),
          ),
          200,
        )
        payouts.push(paid.payout.payoutId)
      }
      expect(payouts.length).toBeGreaterThan(0)
      ok(
        await api(
          server.url,
          'POST',
          `/api/payouts/${payouts[0]}/receipt/print`,
          { stationId: hall.station.id },
          asCashier(),
        ),
        200,
      )

      // A second game is annulled; its cards are refunded in cash at the till and onto a voucher at the kiosk.
      const annulled = await nextGameOnSale(server.services, hall)
      const refundVoucher = await sellVoucher(server.url, hallId, 1_000, {}, asCashier())
      const kioskBuy = ok(
        await api(
          server.url,
          'POST',
          '/api/kiosk/purchases',
          { voucherCode: refundVoucher.code, ageConfirmed: true, cards: { gameId: annulled, count: 1 } },
          asKiosk(),
        ),
      )
      const counter = ok(
        await api(server.url, 'POST', `/api/games/${annulled}/sales`, { ageConfirmed: true, count: 12 }, asCashier()),
      )
      await server.services.bingo.closeSales({ gameId: annulled })
      await server.services.bingo.drawNext(annulled)
      ok(
        await api(
          server.url,
          'POST',
          `/api/games/${annulled}/incidents`,
          {
            kind: 'ball-irregularity',
            note: 'bola 12 deformada',
            reason: 'La bola 12 está deformada',
            confirm: { username: 'jefa', password: PASSWORD },
          },
          asFloor,
        ),
        200,
      )
      const code = (id: string) => server.services.cashdesk.payouts.cardCode(id)
      ok(await api(server.url, 'POST', '/api/refunds/cards', { code: code(counter.cards[0].id) }, asCashier()))
      ok(
        await api(
          server.url,
          'POST',
          '/api/refunds/cards',
          { code: code(kioskBuy.cards[0].id), to: 'voucher' },
          asKiosk(),
        ),
      )

      // The shift is closed as counted; the back office downloads the night's PDFs.
      const current = ok(await api(server.url, 'GET', '/api/shifts/current', undefined, asCashier()), 200).shift
      const closed = ok(
        await api(
          server.url,
          'POST',
          '/api/shifts/current/close',
          { countedCents: current.expectedCents },
          asCashier(),
        ),
        200,
      )
      const shiftId = closed.shiftId ?? closed.shift?.shiftId ?? current.shiftId
      await download(`/api/shifts/${shiftId}/report.pdf`, 'shift-report')
      await download(`/api/sessions/${sessionId}/minutes.pdf`, 'minutes')
      await download(`/api/prize-register.pdf?hallId=${hallId}`, 'prize-register')
      await download(`/api/payouts/${payouts[0]}/receipt.pdf`, 'payout-receipt')
      await download(`/api/lotto/slips/${slip.receiptNumber ?? slip.slip?.receiptNumber}/receipt.pdf`, 'lotto-receipt')
      await download(`/api/instant/games/${gameNo}/reconciliation.pdf`, 'instant-reconciliation')
      // The numbered lottery's print-shop sheet (issue 29: it printed the draw's record id, ltr_…, in NO RASPAR).
      const at = (h: number) => new Date(clock.now().getTime() + h * 3_600_000).toISOString()
      const lottery = ok(
        await api(
          server.url,
          'POST',
          '/api/lottery/draws',
          lotteryPlan({
            numbering: { from: 0, to: 9_999, digits: 4 },
            series: 1,
            fractions: 10,
            licensedMaxTickets: 10_000,
            salesStartAt: at(-2),
            salesCloseAt: at(26),
            // Printed on the hall's clock: 22 h 30 min after the night's start there, never one of the night's UTC minutes.
            drawAt: at(26.5),
            claimDeadline: at(90 * 24),
          }),
          asDirector(),
        ),
      )
      const sheet = await fetch(`${server.url}/api/lottery/draws/${lottery.drawId}/print-runs`, {
        method: 'POST',
        headers: { ...asDirector(), 'content-type': 'application/json' },
        body: JSON.stringify({ from: 0, to: 0, format: 'pdf' }),
      })
      expect(sheet.status).toBe(200)
      papers.set('lottery-sheet', pdfText(Buffer.from(await sheet.arrayBuffer()), 'lottery-sheet'))
      expect(papers.get('lottery-sheet')).toMatch(/Control 0000-01-01 T1/)
      rawIds.push(lottery.drawId)

      // Every job the file printer wrote, opened with the server's sealing key.
      const prints = join(server.dataDir, 'prints')
      const kinds = new Set<string>()
      for (const f of readdirSync(prints).filter((x) => x.endsWith('.sealed'))) {
        const bytes = openPrintFile(server.services.sealer, join(prints, f))
        const text = f.includes('.pdf.')
          ? pdfText(bytes, f.replace(/\.pdf\.sealed$/, ''))
          : decodeEscPos(bytes).lines.join('\n')
        papers.set(f, text)
        kinds.add(/^[\dT:.-]+Z-([a-z]+)-/.exec(f)?.[1] ?? f)
      }
      writeFileSync(join(OUT, 'papers.txt'), [...papers].map(([n, t]) => `==== ${n}\n${t}`).join('\n'))
      // The night printed every kind of paper (issue 29 "What it must show"): cards, slips and instant tickets sold at
      // the counter and the kiosk (a counter slip's receipt at the station, LNS-2: "slip"), vouchers, payouts and the
      // reprinted receipt, refunds; and the back office's PDFs:
      // acta, shift report, prize register, receipts, reconciliation, the lottery's print-shop sheet.
      expect([...kinds].sort()).toEqual(['counter', 'instant', 'kiosk', 'payout', 'refund', 'slip', 'voucher'])
      for (const pdf of [
        'shift-report',
        'minutes',
        'prize-register',
        'payout-receipt',
        'lotto-receipt',
        'instant-reconciliation',
        'lottery-sheet',
      ])
        expect(papers.get(pdf), pdf).toBeTruthy()
      expect(papers.size).toBeGreaterThan(10)
      const joined = [...papers.values()].join('\n')
      for (const shown of ['Rosa Vargas', 'Caja 1', 'Kiosco 1']) expect(joined).toContain(shown)

      const leaks = [...papers].flatMap(([name, text]) =>
        idsIn(text, [sessionId.slice(sessionId.indexOf('_') + 1, sessionId.indexOf('_') + 11), ...rawIds]).map(
          (id) => `${name}: ${id}`,
        ),
      )
      expect(leaks).toEqual([])

      // What people read instead: the station's and the cashier's names, the receipt's and the session's numbers,
      // the serials of a counter sale in the shift report.
      // Issue 29 "Also": the receipt printed again is marked COPIA, head and foot; the first paper is not.
      const escpos = (suffix: string) =>
        [...papers].filter(([n]) => n.includes(`-payout-${payouts[0]}${suffix}.escpos`)).map(([, t]) => t)
      expect(escpos('-copia')).toHaveLength(1)
      expect(escpos('-copia')[0].match(/COPIA/g)).toHaveLength(2)
      expect(escpos('')).toHaveLength(1)
      expect(escpos('')[0]).not.toContain('COPIA')
      const receipt = papers.get('payout-receipt')!
      expect(receipt).toMatch(/Comprobante\s+N\.º 1\b/)
      expect(receipt).toMatch(/Terminal\s+Caja 1/)
      expect(receipt).toMatch(/Cajero\s+Rosa Vargas/)
      expect(receipt).toMatch(/Sesión N\.º 1/)
      const cardJob = [...papers].find(([n]) => n.includes('-counter-') && n.endsWith('.escpos.sealed'))![1]
      expect(cardJob).toMatch(/Caja 1\s+Sesión N\.º 1/)
      // Issue 23 point 5: a kiosk card's session number and hall are read with its game and its kiosk (one statement
      // each): the paper still names them.
      const kioskCardJobs = [...papers].filter(
        ([n, t]) => n.includes('-kiosk-') && n.endsWith('.escpos.sealed') && t.includes('Serie'),
      )
      expect(kioskCardJobs.length).toBeGreaterThan(0)
      for (const [, t] of kioskCardJobs) {
        expect(t).toMatch(/Kiosco 1\s+Sesión N\.º 1/)
        expect(t).toContain('Sala Illimani')
      }
      expect(papers.get('shift-report')).toMatch(/Venta en caja\s+A-\d{5} … A-\d{5} \(30\)/)
      expect(papers.get('minutes')).toContain('Sesión N.º 1')

      // Issue 29 point 5: every time on paper is the hall's (La Paz), none on the UTC clock of the night.
      const utcMinutes = minutesOfNight('UTC')
      const utc = [...papers].flatMap(([name, text]) => utcTimesIn(text, utcMinutes).map((t) => `${name}: ${t}`))
      expect(utc).toEqual([])
      const hallTime = (text: string, label: string) =>
        new RegExp(`${label}\\s+\\d{2}/\\d{2}/\\d{4} (\\d{2}:\\d{2})`).exec(text)?.[1] ?? ''
      expect(minutesOfNight('America/La_Paz')).toContain(hallTime(cardJob, 'Vendido'))
      expect(minutesOfNight('America/La_Paz')).toContain(hallTime(receipt, 'Pagado'))
    },
  )
})
