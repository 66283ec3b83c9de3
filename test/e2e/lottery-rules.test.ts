import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import {
  lotteryPlan,
  plan649,
  registerLottoBallSets,
  registerTombola,
  registerLotteryBallSets,
} from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 18, lotto and lottery rules over real HTTP with authentication on, real people and enrolled devices.
 * LNS-20: player data amended before the draw, justified and validated, numbers unchanged.
 * LOT-21 / LNS-22: draws only on their (postponed) date; a postponement needs the AJ authorisation reference.
 * RNG-26 / LNS-7: this server runs the shipped BO-2025 profile with no AJ authorisation of an RNG: software draws refused.
 */
const PASSWORD = 'correct horse battery'

describe('lotto and lottery rules of issue 18 (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  async function login() {
    for (const username of ['jefa', 'mesa', 'cajera', 'auditor'])
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    // LOT-18 / LNS-8: the tómbolas the manual draws name, registered, sealed and certified.
    await registerTombola(server.services, 'AJ-T-0042')
    await registerTombola(server.services, 'AJ-T-0007')
    // LNS-9: the 49-ball set and its reserve the manual lotto draws are made with.
    await registerLottoBallSets(server.services)
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const
    for (const [username, displayName, role] of people)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    auth.set(
      'kiosco',
      `Device ${(await server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1' })).credential}`,
    )
  })
  afterAll(async () => server?.cleanup())

  it('RNG-26 / LNS-8 / LOT-18: without the AJ authorisation of an RNG, lotto and lottery plans drawn by software are refused (422); a tómbola plan is accepted', async () => {
    const lotto = await call('jefa', 'POST', '/api/lotto/draws', plan649({ gameCode: 'LOTRNG', drawMethod: 'rng' }))
    expect(lotto.status).toBe(422)
    expect(lotto.body.error.code).toBe('RULE_DISABLED')
    expect(lotto.body.error.detail).toMatch(/RNG-26/)
    expect(lotto.body.error.message).not.toMatch(/RULE_DISABLED|rng/)
    const lottery = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({ gameCode: 'LTRRNG', drawMethod: 'rng' }),
    )
    expect(lottery.status).toBe(422)
    expect(lottery.body.error.detail).toMatch(/RNG-26/)
    const manual = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({ gameCode: 'LTRTOMB', drawMethod: 'manual', drawDevice: 'AJ-T-0042' }),
    )
    expect(manual.status).toBe(201)
  })

  let lateLotto = ''

  it('LOT-21: a lottery draw postponed with the AJ authorisation is not drawn on its old date (409), and is on the new one; the claim period moves with it', async () => {
    const created = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        gameCode: 'LTRPOST',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1000,
        drawMethod: 'manual',
        drawDevice: 'AJ-T-0042',
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
      }),
    )
    expect(created.status).toBe(201)
    const id = created.body.drawId
    const late = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'LOTLATE', drawMethod: 'manual', drawDevice: 'AJ-T-0007' }),
    )
    lateLotto = late.body.drawId
    const body = {
      drawAt: '2025-03-05T18:00:00-04:00',
      authorisationRef: 'AJ-RA-2025-0311',
      reason: 'Feriado departamental',
    }
    const noRef = await call('jefa', 'POST', `/api/lottery/draws/${id}/postpone`, { ...body, authorisationRef: '' })
    expect(noRef.status).toBe(400)
    for (const who of ['mesa', 'cajera', 'kiosco'])
      expect((await call(who, 'POST', `/api/lottery/draws/${id}/postpone`, body)).status, who).toBe(403)
    const past = await call('jefa', 'POST', `/api/lottery/draws/${id}/postpone`, {
      ...body,
      drawAt: '2025-02-20T18:00:00-04:00',
    })
    expect(past.status).toBe(400)
    expect(past.body.error.details.problems[0].rule).toBe('LOT-21')
    const moved = await call('jefa', 'POST', `/api/lottery/draws/${id}/postpone`, body)
    expect(moved.status).toBe(200)
    expect(moved.body.plan).toMatchObject({
      drawAt: '2025-03-05T18:00:00-04:00',
      claimDeadline: '2025-05-04T23:59:59-04:00',
    })
    expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(200)
    const early = await call('jefa', 'POST', `/api/lottery/draws/${id}/numbers`, { number: 7 })
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('DRAW_NOT_DUE')
    expect(early.body.error.message).toMatch(/no se realiza hoy/)
    t = Date.parse('2025-03-05T18:30:00-04:00')
    await login()
    expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/numbers`, { number: 7 })).body.status).toBe('drawn')
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${id}/postpone`, {
          ...body,
          drawAt: '2025-03-20T18:00:00-04:00',
        })
      ).status,
    ).toBe(409)
    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.find((r) => r.type === 'lottery.draw_postponed')!.payload).toMatchObject({
      authorisationRef: 'AJ-RA-2025-0311',
      rule: 'LOT-21',
      actor: { kind: 'person', role: 'director' },
    }) // The manual draw, complete at its one number, has its result record as an RNG draw and lotto's manual draw do.
    expect(journal.filter((r) => r.type === 'lottery.drawn' && r.payload.drawId === id)).toMatchObject([
      { payload: { source: 'manual', numbers: [7] } },
    ])
  })

  describe('LNS-20: amendment of player data before the draw', () => {
    let drawId = ''
    let receipt = ''
    let boards: number[][] = []

    beforeAll(async () => {
      const created = await call(
        'jefa',
        'POST',
        '/api/lotto/draws',
        plan649({ gameCode: 'LOTAMEND', drawMethod: 'manual', drawDevice: 'AJ-T-0007' }),
      )
      expect(created.status).toBe(201)
      drawId = created.body.drawId
      const slip = await server.services.lotto.sellSlip({
        drawId,
        boards: [[3, 11, 19, 27, 38, 45]],
        player: { name: 'Ana Quispe', document: '445566 LP' },
        channel: 'counter',
      })
      receipt = slip.receiptNumber
      boards = slip.boards.map((b) => b.numbers)
    })

    it('LNS-20: a floor manager amends the player data with the supporting document; the numbers stay; the journal names the validator', async () => {
      const amended = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, {
        name: 'Ana Quispe Mamani',
        document: '4455667 LP',
        evidenceRef: 'Fotocopia CI 4455667 LP',
        reason: 'Número de documento mal escrito',
      })
      expect(amended.status).toBe(200)
      const view = await call('cajera', 'GET', `/api/lotto/slips/${receipt}`)
      expect(view.body.player).toEqual({ name: 'Ana Quispe Mamani', document: '4455667 LP' })
      expect(view.body.boards.map((b: any) => b.numbers)).toEqual(boards)
      const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
        type: string
        payload: any
      }>
      const rec = journal.find((r) => r.type === 'lotto.player_amended')!
      // Issue 24 point 2: the documents are sealed in the journal; the director (aml.decide) reads them opened.
      expect(rec.payload).toMatchObject({
        receipt,
        before: { document: { protected: 'identity-document', value: '445566 LP' } },
        after: { document: { protected: 'identity-document', value: '4455667 LP' } },
        evidenceRef: 'Fotocopia CI 4455667 LP',
        rule: 'LNS-20',
        validatedBy: { kind: 'person', role: 'floor_manager' },
      })
    })

    it('LNS-20: refused without its supporting document (400), to a kiosk or a cashier (403), and from the first ball of the draw (409)', async () => {
      const bare = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, {
        name: 'Otra Persona',
        document: '1 LP',
        evidenceRef: ' ',
        reason: 'x',
      })
      expect(bare.status).toBe(400)
      for (const who of ['kiosco', 'cajera', 'auditor']) {
        expect(
          (
            await call(who, 'POST', `/api/lotto/slips/${receipt}/player`, {
              name: 'Otra Persona',
              document: '1 LP',
              evidenceRef: 'doc',
              reason: 'x',
            })
          ).status,
          who,
        ).toBe(403)
      }
      t = Date.parse('2025-03-08T20:00:00-04:00')
      await login()
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
      // Between the close and the draw an amendment is still possible: the data are not in the sales digest.
      expect(
        (
          await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, {
            name: 'Ana Quispe Mamani',
            document: '4455667 LP',
            evidenceRef: 'CI original',
            reason: 'confirmación',
          })
        ).status,
      ).toBe(200)
      // LNS-14: the balls wait the profile's 30 minutes after the participation file is published.
      t += 30 * 60_000
      await login()
      const accomplice = { name: 'Otra Persona', document: '1 LP', evidenceRef: 'doc', reason: 'x' }
      // LNS-20, 002 §7.3.6 "antes del sorteo": the draw has begun at its first ball, though a manual draw stays
      // `closed` until its last. With 5 of 6 balls in and the slip matching all 5, a floor manager may not rename
      // its buyer (the audit's scenario: only the accomplice could then cash it, GEN-16).
      for (const ball of [3, 11, 19, 27, 38]) {
        expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
        const between = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, accomplice)
        expect(between.status, `after ball ${ball}`).toBe(409)
        expect(between.body.error.detail).toMatch(/LNS-20/)
      }
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/balls`, { ball: 45 })).status).toBe(200)
      const late = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, accomplice)
      expect(late.status).toBe(409)
      expect(late.body.error.detail).toMatch(/LNS-20/)
      const view = await call('cajera', 'GET', `/api/lotto/slips/${receipt}`)
      expect(view.body.player).toEqual({ name: 'Ana Quispe Mamani', document: '4455667 LP' })
    })
  })

  it('LNS-22: a lotto draw whose date has passed without a postponement is not drawn (409)', async () => {
    t = Date.parse('2025-03-09T10:00:00-04:00')
    await login()
    expect((await call('jefa', 'POST', `/api/lotto/draws/${lateLotto}/close`, {})).status).toBe(200)
    const r = await call('jefa', 'POST', `/api/lotto/draws/${lateLotto}/balls`, { ball: 1 })
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('DRAW_NOT_DUE')
    expect(r.body.error.detail).toMatch(/has passed/)
  })
})
