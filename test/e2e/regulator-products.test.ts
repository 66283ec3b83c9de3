import { createHash, sign, type KeyObject } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InstantDesign } from '../../server/src/instant/design.ts'
import { canonical, checkExport, type CheckReport } from '../../server/src/regulator-check/check.ts'
import { printRunTickets, type PrintedTicket } from '../helpers/instant.ts'
import { lotteryPlan, rafflePlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill } from '../helpers/till.ts'

/**
 * Issue 28 point 1, numbered lotteries, raffles and instant games: a lottery issued, distributed to a seller, a
 * fraction returned and a range lost, drawn from a tómbola and settled; a raffle sold and drawn; an instant game
 * shipped, sold, validated and paid, a pack stolen, closed and paid again in its claim period. The feed's
 * `lottery.draw` and `instant.game` records pass the independent checker, which recomputes the lottery's winners
 * from the winning numbers and the ranges out of play, and the instant payouts from the prize structure; an
 * altered copy, re-signed with the operator's own key, is caught naming the record.
 */
const PASSWORD = 'correct horse battery'
const design: InstantDesign = {
  gameNo: 4242,
  name: 'Raspa Regulador',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 200,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 5000, count: 4 },
    { amountCents: 2000, count: 20 },
    { amountCents: 1000, count: 30 },
  ],
  payoutShareBp: { min: 0, max: 10_000 },
  packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-4242',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
}

describe('regulator feed: numbered lotteries, raffles and instant games (issue 28)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const work = mkdtempSync(join(tmpdir(), 'bolillo-regprod-'))
  let exportDir = ''
  let report: CheckReport
  let lotteryId = ''
  let raffleId = ''
  let cancelledId = ''
  let tickets: PrintedTicket[] = []
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const relogin = async () => auth.set('jefa', `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`)
  const payee = { stationId: 'caja-1', cashierId: 'cajera', payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    const { services } = server
    await services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    await relogin()
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 100,
    })
    expect(hall.status).toBe(201)
    const seller = await services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Agencia Norte',
      hallId: hall.body.id,
    })

    // A numbered lottery 00-99, one series of 2 fractions, drawn from the registered tómbola.
    const created = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        gameCode: 'LNBREG',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 2,
        licensedMaxTickets: 1000,
        drawMethod: 'manual',
        drawDevice: await registerTombola(services),
        prizes: [
          { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 },
          {
            code: 'A1',
            name: 'Aproximación',
            rule: { type: 'approximation', of: 'P1', distance: 1 },
            amountCents: 100_000,
          },
          { code: 'T1', name: 'Reintegro', rule: { type: 'ending', of: 'P1', digits: 1 }, amountCents: 10_000 },
        ],
      }),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    lotteryId = created.body.drawId
    expect((await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/print-runs`, { from: 0, to: 9 })).status).toBe(
      201,
    )
    const given = await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/distributions`, {
      from: 0,
      to: 4,
      sellerId: seller.id,
    })
    expect(given.status).toBe(201)
    const back = await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/returns`, {
      from: 4,
      to: 4,
      sellerId: seller.id,
    })
    expect(back.status, JSON.stringify(back.body)).toBe(201)
    // Tickets 20-29 lost before distribution (LST-1): out of play, and so out of the winners of the reintegro.
    const lost = await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/lost-stolen`, {
      kind: 'lost',
      from: 20,
      to: 29,
      discoveredAt: '2025-02-10T09:00:00-04:00',
      reportedToAjAt: '2025-02-10T11:00:00-04:00',
      distributed: false,
      remedy: 'none',
      notice: 'Extravío de 10 billetes en imprenta',
    })
    expect(lost.status, JSON.stringify(lost.body)).toBe(201)
    t = Date.parse('2025-03-01T18:00:00-04:00')
    await relogin()
    expect((await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/close`, {})).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/numbers`, { number: 3 })).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${lotteryId}/settle`)).status).toBe(200)

    // A raffle of 500 tickets: 12 sold at the counter, drawn among the sold tickets.
    t = Date.parse('2025-06-05T12:00:00+02:00')
    await relogin()
    const raffle = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        drawMethod: 'manual',
        drawDevice: 'Bombo de la Peña',
        gameCode: 'RIFAREG',
        currency: 'BOB',
        authorisationRef: 'AJ-RIFA-PRUEBA-1',
      }),
    )
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    raffleId = raffle.body.drawId
    // Sold at the hall's counter by a cashier out of her open shift, the cash into her drawer (issue 23 point 2).
    await services.auth.createUser({
      username: 'cajera',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [hall.body.id],
    })
    const till = await openTill(server.url, services, {
      hallId: hall.body.id,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
    const sellAtCounter = async (drawId: string, count: number) => {
      const r = await api(
        server.url,
        'POST',
        `/api/lottery/draws/${drawId}/tickets`,
        { count, ageConfirmed: true },
        till.headers,
      )
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body as { tickets: Array<{ code: string }> }
    }
    await sellAtCounter(raffleId, 12)
    // LOT-21: a second raffle, 3 tickets sold, withdrawn with the AJ's authorisation; one ticket refunded at a desk.
    const withdrawn = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        drawMethod: 'manual',
        drawDevice: 'Bombo de la Peña',
        gameCode: 'RIFACAN',
        currency: 'BOB',
        authorisationRef: 'AJ-RIFA-PRUEBA-1',
      }),
    )
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(201)
    cancelledId = withdrawn.body.drawId
    const sold = await sellAtCounter(cancelledId, 3)
    const cancelled = await call('jefa', 'POST', `/api/lottery/draws/${cancelledId}/cancel`, {
      kind: 'withdrawal',
      authorisationRef: 'AJ-RA-2025-0999',
      reason: 'Desistimiento autorizado por la AJ',
    })
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
    // Its refund at the same counter, out of the same drawer.
    const refunded = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: sold.tickets[0].code, payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' },
      till.headers,
    )
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200)
    t = Date.parse('2025-06-23T22:00:00+02:00')
    await relogin()
    expect((await call('jefa', 'POST', `/api/lottery/draws/${raffleId}/close`, {})).status).toBe(200)
    for (const number of [7, 2])
      expect((await call('jefa', 'POST', `/api/lottery/draws/${raffleId}/numbers`, { number })).status).toBe(200)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${raffleId}/settle`)).status).toBe(200)

    // An instant game: packs 1-2 shipped and activated, tickets sold, validated and paid; pack 4 stolen.
    t = Date.parse('2025-07-01T10:00:00-04:00')
    await services.instant.generateBatch({ design, by: { kind: 'person', id: 'jefa' } } as never)
    tickets = await printRunTickets(services.db, services.sealer, design)
    await services.instant.shipPacks({ gameNo: 4242, fromPack: 1, toPack: 2, destination: 'kiosk-1', by: 'almacen' })
    for (const packNo of [1, 2])
      await services.instant.activatePack({ gameNo: 4242, packNo, location: 'kiosk-1', by: 'kiosk-1' })
    const winners = tickets.filter((x) => x.pack === 1 && x.tier > 0).slice(0, 3)
    const losers = tickets.filter((x) => x.pack === 1 && x.tier === 0).slice(0, 4)
    for (const x of [...winners, ...losers])
      await services.instant.sellPrinted({ code: services.instant.signCode(x.serial), stationId: 'kiosk-1' })
    for (const x of [winners[0], winners[1], losers[0]]) await services.instant.validate({ code: x.code })
    for (const x of [winners[0], winners[1]])
      await services.instant.pay({ code: x.code, inventoryCode: x.serial, ...payee, onPaid: async () => undefined })
    await services.instant.reportLostOrStolen({
      gameNo: 4242,
      kind: 'stolen',
      fromPack: 4,
      toPack: 4,
      discoveredAt: '2025-07-01T08:00:00-04:00',
      regulatorReportedAt: '2025-07-01',
      policeReportRef: 'FELCC-2025-77',
      by: 'gerente',
    })
    t = Date.parse('2025-07-20T10:00:00-04:00')
    await services.instant.closeGame({ gameNo: 4242, by: 'jefa' })
    // Paid in the claim period, after the close: the game's record is sent again, replacing the first.
    t = Date.parse('2025-07-21T10:00:00-04:00')
    await services.instant.pay({
      code: winners[2].code,
      inventoryCode: winners[2].serial,
      ...payee,
      onPaid: async () => undefined,
    })

    await services.regulator.tick()
    exportDir = join(work, 'export')
    await services.regulator.exportTo(exportDir)
    report = checkExport(exportDir, { publicKeyPem: services.keys.publicInfo().publicKeyPem })
  }, 120_000)
  afterAll(async () => {
    await server?.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  const operatorRecords = (dir: string) =>
    readdirSync(join(dir, 'operator'))
      .sort()
      .flatMap((f) =>
        readFileSync(join(dir, 'operator', f), 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => JSON.parse(l)),
      )

  it('the export passes the independent checker, which recomputed both draws and the instant game', () => {
    expect(report.differences).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.lotteries).toBe(3)
    // The first instant.game record was replaced by the one after the claim-period payout: one game checked.
    expect(report.instants).toBe(1)
  })

  it('lottery.draw carries the close of sales, the winning numbers, the winners and amounts of each prize and the ranges out of play', () => {
    const draws = operatorRecords(exportDir).filter((r) => r.type === 'lottery.draw')
    const lottery = draws.find((r) => r.data.drawId === lotteryId)
    expect(lottery.data).toMatchObject({
      product: 'lottery',
      status: 'settled',
      drawn: [3],
      winning: { P1: 3 },
      // Fractions 0-4 distributed (10), ticket 4 returned (2): 8 fractions sold at 50.00.
      closeOfSales: { salesCents: 8 * 5_000, ticketsInPlay: 89 },
      refundCents: 0,
    })
    // P1: 03; A1: 02 and 04, but 04 was returned; T1: x3 but 03 itself, less 23 (lost): 8 tickets.
    expect(lottery.data.prizes).toEqual([
      { code: 'P1', numbersCount: 1, ticketsInPlay: 1, liabilityCents: 1_000_000 },
      { code: 'A1', numbersCount: 2, ticketsInPlay: 1, liabilityCents: 100_000 },
      { code: 'T1', numbersCount: 9, ticketsInPlay: 8, liabilityCents: 80_000 },
    ])
    expect(lottery.data.ranges.map((x: any) => [x.kind, x.from, x.to])).toEqual(
      expect.arrayContaining([
        ['lost', 20, 29],
        ['returned', 4, 4],
      ]),
    )
    expect(lottery.data.ranges.find((x: any) => x.kind === 'lost')).toMatchObject({
      discoveredAt: '2025-02-10T09:00:00-04:00',
      reportedToAjAt: '2025-02-10T11:00:00-04:00',
    })
    const raffle = draws.find((r) => r.data.drawId === raffleId)
    expect(raffle.data).toMatchObject({
      product: 'raffle',
      winning: { R1: 7, R2: 2 },
      closeOfSales: { ticketsSold: 12, salesCents: 12 * 500, ticketsInPlay: 12 },
    })
    expect(raffle.data.soldSerials).toHaveLength(12)
  })

  it('instant.game carries pack states, the stolen range with its dates, validations, payouts and each payee as a keyed reference, never the document', () => {
    const games = operatorRecords(exportDir).filter((r) => r.type === 'instant.game')
    expect(games).toHaveLength(2)
    expect(games[1].replaces).toBe(games[0].record)
    const g = games[1].data
    expect(g).toMatchObject({
      gameNo: 4242,
      status: 'closed',
      sales: { tickets: 7, salesCents: 7000 },
      validations: { WIN: 2, NO_WIN: 1 },
      identityThresholdCents: 0,
      packs: { activated: 2, stolen: 1, warehouse: 1 },
    })
    expect(g.tiers).toEqual([
      { tier: 1, amountCents: 5000, count: 4 },
      { tier: 2, amountCents: 2000, count: 20 },
      { tier: 3, amountCents: 1000, count: 30 },
    ])
    expect(g.reports).toEqual([
      expect.objectContaining({
        kind: 'stolen',
        discoveredAt: '2025-07-01T08:00:00-04:00',
        regulatorReportedAt: '2025-07-01',
        tickets: 50,
      }),
    ])
    expect(g.payouts).toHaveLength(3)
    expect(games[0].data.payouts).toHaveLength(2)
    for (const p of g.payouts) expect(p.payee).toMatch(/^[0-9a-f]{64}$/)
    // The same player, the same reference; the document itself never travels.
    expect(new Set(g.payouts.map((p: any) => p.payee)).size).toBe(1)
    expect(readFileSync(join(exportDir, 'operator', readdirSync(join(exportDir, 'operator'))[0]), 'utf8')).not.toMatch(
      /4455667|Juana/,
    )
    for (const f of readdirSync(join(exportDir, 'operator')))
      expect(readFileSync(join(exportDir, 'operator', f), 'utf8')).not.toMatch(/4455667|Juana Mamani/)
  })

  it('totals.monthly per chain and product: summed from the daily totals of each ended month, with the tax base (issue 28 point 2)', () => {
    const records = operatorRecords(exportDir)
    const daily = records.filter((r) => r.type === 'totals.daily')
    expect(daily.map((r) => [r.data.day, r.data.product])).toEqual([
      ['2025-03-01', 'lottery'],
      ['2025-06-05', 'lottery'],
      ['2025-06-23', 'lottery'],
      ['2025-07-01', 'instant'],
    ])
    const monthly = records.filter((r) => r.type === 'totals.monthly')
    expect(monthly.map((r) => r.data)).toEqual([
      {
        month: '2025-03',
        product: 'lottery',
        days: 1,
        events: 1,
        stakesCents: 40_000,
        refundsCents: 0,
        prizesCents: 1_180_000,
        grossGamingRevenueCents: 40_000 - 1_180_000,
        potIncreasesCents: 0,
        potDecreasesCents: 0,
        taxBasis: 'gross-gaming-revenue',
        taxBaseCents: 40_000 - 1_180_000,
      },
      // The withdrawn raffle: its 3 tickets' price in, and owed back (LOT-21).
      expect.objectContaining({ month: '2025-06', days: 2, stakesCents: 6000 + 1500, refundsCents: 1500 }),
    ])
    // The checker summed every month from its days.
    expect(report.totals).toBe(6)
  })

  it("a monthly total changed, re-signed with the operator's own key: the sum of its days names the record", () => {
    const [dir, record] = tampered(
      'monthly',
      'totals.monthly',
      (d) => {
        d.stakesCents += 5000
        d.grossGamingRevenueCents += 5000
        d.taxBaseCents += 5000
      },
      server.services.keys.privateKey,
    )
    const differences = check(dir)
    expect(differences).toEqual([
      expect.stringContaining(
        `registro ${record}: totales de 2025-03 (lottery) stakesCents = 45000, recalculado 40000`,
      ),
      expect.stringContaining(`registro ${record}: margen bruto`),
      expect.stringContaining(`registro ${record}: base imponible`),
    ])
  })

  /** A copy of the export with one record's data changed and every batch re-signed with `key`. */
  function tampered(
    name: string,
    type: string,
    change: (data: any) => boolean | void,
    key: KeyObject,
  ): [string, string] {
    const dir = join(work, name)
    cpSync(exportDir, dir, { recursive: true })
    const sha = (x: string) => createHash('sha256').update(x).digest('hex')
    let record = ''
    let prev = '0'.repeat(64)
    const heads: Record<string, { lastSeq: number; lastHash: string }> = {}
    for (const chain of readdirSync(dir).filter((n) => !n.endsWith('.json'))) {
      prev = '0'.repeat(64)
      for (const f of readdirSync(join(dir, chain)).sort()) {
        const file = join(dir, chain, f)
        const [first, ...lines] = readFileSync(file, 'utf8').trim().split('\n')
        const changed = lines.map((l) => {
          const r = JSON.parse(l)
          if (r.type !== type || record) return l
          if (change(r.data) === false) return l
          record = r.record
          return JSON.stringify(r)
        })
        const head = JSON.parse(first)
        head.header = {
          ...head.header,
          prevHash: prev,
          recordsSha256: sha(changed.join('\n')),
          recordHashes: changed.map(sha),
        }
        head.hash = sha(canonical(head.header))
        head.signature = sign(null, Buffer.from(head.hash, 'hex'), key).toString('base64')
        writeFileSync(file, [JSON.stringify(head), ...changed].join('\n') + '\n')
        prev = head.hash
        heads[chain] = { lastSeq: head.header.seq, lastHash: head.hash }
      }
    }
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    delete m.signature
    m.chains = heads
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ ...m, signature: sign(null, Buffer.from(canonical(m)), key).toString('base64') }),
    )
    return [dir, record]
  }
  const check = (dir: string) =>
    checkExport(dir, { publicKeyPem: server.services.keys.publicInfo().publicKeyPem }).differences

  it("a lottery prize's winners raised, re-signed with the operator's own key: the recomputation names the record", () => {
    const [dir, record] = tampered(
      'lottery',
      'lottery.draw',
      (d) => {
        const t1 = d.prizes.find((p: any) => p.code === 'T1')
        t1.ticketsInPlay += 1
        t1.liabilityCents += 10_000
        d.liabilityCents += 10_000
      },
      server.services.keys.privateKey,
    )
    const differences = check(dir)
    expect(differences).toContainEqual(
      expect.stringContaining(
        `registro ${record} (sorteo ${lotteryId}): premio T1: 9 billetes ganadores en juego, recalculados 8`,
      ),
    )
    expect(differences.filter((x) => /firma|enlaza|hash|alterado/.test(x))).toEqual([])
  })

  it('an instant payout raised above its tier, re-signed with the operator key: caught, naming the record and the payout', () => {
    let payoutId = ''
    const [dir, record] = tampered(
      'instant',
      'instant.game',
      (d) => {
        // The record in force: the one sent after the claim-period payout.
        if (d.payouts.length !== 3) return false
        d.payouts[0].amountCents += 3000
        payoutId = d.payouts[0].payoutId
      },
      server.services.keys.privateKey,
    )
    const differences = check(dir)
    expect(differences).toContainEqual(
      expect.stringMatching(
        new RegExp(`^registro ${record} \\(juego instantáneo 4242\\): pago ${payoutId} .* la categoría \\d paga`),
      ),
    )
    expect(differences.filter((x) => /firma|enlaza|hash|alterado/.test(x))).toEqual([])
  })

  it('LOT-21: a withdrawn raffle sends its lottery.draw record with the cancellation and what it owes, again with each refund paid; the checker recomputes it', () => {
    const records = operatorRecords(exportDir).filter((r) => r.type === 'lottery.draw' && r.data.drawId === cancelledId)
    // Sent at the cancellation, and again when the refund was paid (replacing the first).
    expect(records).toHaveLength(2)
    expect(records[1].replaces).toBe(records[0].record)
    expect(records[1].data).toMatchObject({
      product: 'raffle',
      status: 'cancelled',
      drawn: [],
      liabilityCents: 0,
      closeOfSales: { ticketsSold: 3, salesCents: 1500 },
      refundCents: 1500,
      cancellation: {
        kind: 'withdrawal',
        authorisationRef: 'AJ-RA-2025-0999',
        reason: 'Desistimiento autorizado por la AJ',
        ticketsToRefund: 3,
        rule: 'LOT-21',
      },
      refunds: { paid: 1, paidCents: 500 },
    })
    expect(records[0].data.refunds).toEqual({ paid: 0, paidCents: 0 })
  })

  it('LOT-21: a withdrawn raffle whose refunds owed were lowered, re-signed with the operator key: caught, naming the record', () => {
    const [dir, record] = tampered(
      'cancelled',
      'lottery.draw',
      (d) => {
        if (d.status !== 'cancelled' || d.refunds.paid !== 1) return false
        d.refundCents = 500
      },
      server.services.keys.privateKey,
    )
    const differences = check(dir)
    expect(differences).toContainEqual(
      expect.stringContaining(`registro ${record} (sorteo ${cancelledId}): devoluciones 500, recalculadas 1500`),
    )
  })

  it("instant sales and payouts are in the daily totals on the day each happened (issue 28 point 1); a day's instant stakes changed, re-signed, are caught naming the record", () => {
    const records = operatorRecords(exportDir)
    const game = records.filter((r) => r.type === 'instant.game').at(-1)
    const day = records.find((r) => r.type === 'totals.daily' && r.data.product === 'instant')
    const paidThatDay = (game.data.payouts as Array<{ paidAt: string; amountCents: number }>)
      .filter((p) => p.paidAt.startsWith('2025-07-01'))
      .reduce((t, p) => t + p.amountCents, 0)
    expect(paidThatDay).toBeGreaterThan(0)
    // 7 tickets of 10.00 sold on 1 July (3 winners and 4 others), and the two prizes paid that day.
    expect(day.data).toMatchObject({
      day: '2025-07-01',
      events: 1,
      stakesCents: 7 * 1000,
      prizesCents: paidThatDay,
      refundsCents: 0,
      grossGamingRevenueCents: 7000 - paidThatDay,
    })
    const [dir, record] = tampered(
      'instant-day',
      'totals.daily',
      (d) => {
        if (d.product !== 'instant') return false
        d.stakesCents += 1000
        d.grossGamingRevenueCents += 1000
        d.taxBaseCents += 1000
      },
      server.services.keys.privateKey,
    )
    expect(check(dir)).toContainEqual(
      expect.stringContaining(
        `registro ${record}: totales del 2025-07-01 (instant) stakesCents = ${7000 + 1000}, recalculado 7000`,
      ),
    )
  })
})
