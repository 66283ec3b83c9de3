import { expect } from 'vitest'
import { sellVoucher } from './cashdesk.ts'
import { sealed } from './device-marks.ts'
import { PASSWORD, hallWithSeries, openSession, type RulesServer } from './bingo-rules.ts'
import { api } from './server.ts'
import { openTill } from './till.ts'

/**
 * A Bolivian hall missing one of the records a sale needs (its AJ-approved bet limits, GEN-18, or its operating licence,
 * GEN-1; or none, a hall that sells: the tests of a game's own limits, CFG-7), with a game on sale in every channel: the counter's till, the caller's table, an enrolled kiosk, a
 * hall terminal with an open session, and the member hall of a simultaneous game (BNG-100) of two more halls missing
 * the same record. The tests of each rule drive every channel through it (one door: every sale admits the same way).
 */
export async function everyChannelHall(
  s: RulesServer,
  options: { seed: string; missing?: { noSaleRules: true } | { noLicence: true } },
) {
  const es = { 'accept-language': 'es' }
  const hall = await hallWithSeries(s, {
    profileId: 'BO-2025',
    name: 'Sala Illimani',
    seed: options.seed,
    ...options.missing,
  })
  const sessionId = await openSession(s, hall.hallId)
  // Electronic bingo runs under the AJ's terms (BNG-101): recorded, so that only what `missing` leaves out is.
  const terms = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, {
    reference: 'AJ-RND-2026-0117 (terminales de bingo)',
    terms: {
      markingMode: 'automatic',
      maxCardCents: 600,
      maxGameCents: 5000,
      maxSessionCents: 10000,
      minGameSeconds: 0,
      prizeReturnBp: { min: 6000, max: 8500 },
      terminalRangePercent: 25,
      onDisconnect: 'play-on-credit',
    },
  })
  expect(terms.status, JSON.stringify(terms.body)).toBe(200)
  const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId] })
  expect(g.status, JSON.stringify(g.body)).toBe(201)
  const gameId = g.body.gameId
  expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
  const counter = await openTill(s.server.url, s.server.services, {
    hallId: hall.hallId,
    username: 'cajera',
    password: PASSWORD,
    stationName: 'Caja 1',
    floatCents: 100_000,
  })
  const kiosk = await s.server.services.auth.enrolDevice({
    ...sealed(),
    kind: 'kiosk',
    name: 'Kiosco 1',
    hallId: hall.hallId,
  })
  const terminal = await s.server.services.auth.enrolDevice({
    ...sealed(),
    kind: 'terminal',
    name: 'Terminal 1',
    hallId: hall.hallId,
  })
  const voucher = await sellVoucher(s.server.url, hall.hallId, 5_000, {}, counter.headers)
  const opened = await api(
    s.server.url,
    'POST',
    '/api/terminal/session',
    { ageConfirmed: true, voucherCode: voucher.code },
    { ...es, authorization: `Device ${terminal.credential}` },
  )
  expect(opened.status, JSON.stringify(opened.body)).toBe(201)

  // A simultaneous game (BNG-100) of two more Bolivian halls missing the same record: the member hall sells from its range.
  const c = await hallWithSeries(s, {
    profileId: 'BO-2025',
    name: 'Sala Central',
    seed: `${options.seed}-sim`,
    ...options.missing,
  })
  const central = { hallId: c.hallId, seriesId: c.seriesId }
  const m = await hallWithSeries(s, {
    profileId: 'BO-2025',
    name: 'Sala El Alto',
    seed: `${options.seed}-member`,
    ...options.missing,
  })
  const mSeries = await s.call('jefa', 'POST', `/api/halls/${m.hallId}/series`, {
    code: 'M',
    masterSetId: c.masterSetId,
    faceValueCents: 500,
  })
  expect(mSeries.status, JSON.stringify(mSeries.body)).toBe(201)
  const member = { hallId: m.hallId, seriesId: mSeries.body.id }
  const centralSession = await openSession(s, central.hallId)
  const sg = await s.call('mesa1', 'POST', `/api/sessions/${centralSession}/games`, {
    seriesIds: [central.seriesId],
  })
  expect(sg.status, JSON.stringify(sg.body)).toBe(201)
  const simultaneousId = sg.body.gameId
  for (const [hallId, seriesId, from, to] of [
    [central.hallId, central.seriesId, 1, 150],
    [member.hallId, member.seriesId, 151, 300],
  ] as const) {
    const j = await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/halls`, {
      hallId,
      seriesId,
      fromCardNo: from,
      toCardNo: to,
    })
    expect(j.status, JSON.stringify(j.body)).toBe(201)
  }
  expect((await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/sales/open`)).status).toBe(200)

  /** Every channel's purchase of `count` cards of the hall's game (and of the simultaneous game in the member hall). */
  const channels = () => ({
    counter: () =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, counter.headers),
    table: async () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(hall.hallId)).headers,
      ),
    kiosk: async () => {
      const voucher = await sellVoucher(s.server.url, hall.hallId, 1_000, {}, counter.headers)
      const r = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
        { ...es, authorization: `Device ${kiosk.credential}` },
      )
      const check = await api(s.server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, counter.headers)
      return { ...r, voucherStatus: check.body.status ?? check.body.voucher?.status }
    },
    terminal: () =>
      api(
        s.server.url,
        'POST',
        '/api/terminal/cards',
        { count: 2 },
        { ...es, authorization: `Device ${terminal.credential}` },
      ),
    simultaneous: async () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${simultaneousId}/halls/${member.hallId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(member.hallId)).headers,
      ),
  })

  return {
    hall,
    gameId,
    counter,
    kiosk,
    terminal,
    central,
    member,
    simultaneousId,
    channels,
    cardsSold: async (id: string) => (await s.call('auditor', 'GET', `/api/games/${id}`)).body.cardsSold as number,
    /** The cash the counter sales took, in all. */
    cashTaken: async () =>
      Number(
        (
          await s.server.services.db.get<{ n: number }>(
            "SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE kind = 'counter_sale'",
          )
        )?.n ?? 0,
      ),
  }
}

export type EveryChannelHall = Awaited<ReturnType<typeof everyChannelHall>>
