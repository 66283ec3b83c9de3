import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DomainError } from '../../server/src/shared/errors.ts'
import { startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, type HallSetup } from '../helpers/cashdesk.ts'

/**
 * Property (§8 ALREADY PAID): whatever the interleaving of validate and pay calls from several stations, a card
 * is paid at most once; a winning card that someone tried to pay is paid exactly once; a card that did not win
 * is never paid; and afterwards validation says "paid" exactly for the cards that were.
 */
describe('pay at most once under random interleavings', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup
  let first = true

  beforeAll(async () => {
    server = await startTestServer({ idRequiredPrizeCents: Number.MAX_SAFE_INTEGER })
    setup = await hallWithGameOnSale(server.services, { cards: 3000 })
  })
  afterAll(async () => {
    await server?.cleanup()
  })

  /** A fresh finished game of 12 cards: the codes of all of them, and which won. */
  async function finishedGame() {
    const gameId = first ? setup.gameId : await nextGameOnSale(server.services, setup)
    first = false
    const cards = await server.services.bingo.sell({ gameId, count: 12, channel: 'counter' })
    await playToTheEnd(server.services, gameId)
    const winners = new Set((await server.services.bingo.listPrizes(gameId)).map((p) => p.cardId))
    return {
      gameId,
      cards: cards.map((c) => ({
        id: c.id,
        code: server.services.cashdesk.payouts.cardCode(c.id),
        won: winners.has(c.id),
      })),
    }
  }

  it('never pays a card twice', { timeout: 180_000 }, async () => {
    const { payouts } = server.services.cashdesk
    let paidCards = 0
    const op = fc.record({
      kind: fc.constantFrom('validate', 'pay'),
      card: fc.nat({ max: 11 }),
      station: fc.constantFrom('caja-1', 'caja-2', 'caja-3'),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(op, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        async (s, ops, winnersFirst) => {
          const game = await finishedGame()
          // Bias half of the runs towards the winning cards, where paying can happen at all.
          const order = winnersFirst ? [...game.cards].sort((a, b) => Number(b.won) - Number(a.won)) : game.cards
          const pay = s.scheduleFunction(async (code: string, stationId: string) => {
            try {
              return {
                ok: true as const,
                payoutId: (await payouts.pay({ code, stationId, cashierId: `${stationId}-cajero` })).payout.payoutId,
              }
            } catch (err) {
              if (err instanceof DomainError) return { ok: false as const, code: err.code }
              throw err
            }
          })
          const validate = s.scheduleFunction((code: string, stationId: string) =>
            payouts.validate(code, { stationId, cashierId: `${stationId}-cajero` }),
          )
          const calls = ops.map((o) =>
            s.schedule(Promise.resolve(o)).then((o2) => {
              const card = order[o2.card]
              return o2.kind === 'pay'
                ? pay(card.code, o2.station).then((r) => ({ card, r }))
                : validate(card.code, o2.station).then(() => null)
            }),
          )
          await s.waitAll()
          const results = (await Promise.all(calls)).filter((x) => x !== null)
          for (const card of game.cards) {
            const attempts = results.filter((x) => x.card.id === card.id)
            const successes = attempts.filter((x) => x.r.ok)
            paidCards += successes.length
            if (!card.won) expect(successes).toHaveLength(0)
            else if (attempts.length > 0) expect(successes).toHaveLength(1)
            for (const x of attempts) if (!x.r.ok) expect(x.r.code).toBe(card.won ? 'ALREADY_PAID' : 'NOT_A_WINNER')
            const rows = await server.services.db.all('SELECT id FROM payouts WHERE card_id = ?', [card.id])
            expect(rows).toHaveLength(successes.length)
            const final = await payouts.evaluate(server.services.db, card.id, new Date().toISOString())
            expect(final.status).toBe(successes.length ? 'paid' : card.won ? 'winner' : 'not_winner')
          }
        },
      ),
      { numRuns: 25 },
    )
    // The runs did exercise payouts, not only refusals.
    expect(paidCards).toBeGreaterThan(0)
  })
})
