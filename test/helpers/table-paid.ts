/**
 * BNG-71 asks a game's prizes paid before the next game is announced. Unit tests of the bingo service alone (no cash
 * desk, station or shift composed) stand in for that payout with this: the game's awarded line and bingo prizes
 * marked paid, resealed and journaled `prize.paid`, as the cash desk writes them. The product has one door for
 * every prize (cashdesk/payouts.ts, against the card's signed code, out of an open shift); the e2e tests pay
 * through it (test/helpers/bingo-rules.ts payTablePrizes).
 */
import type { Database } from '../../server/src/db/database.ts'
import { gameScope } from '../../server/src/bingo/context.ts'
import { appendJournal } from '../../server/src/shared/journal.ts'
import { touchRows } from '../../server/src/shared/row-seals.ts'

export async function settleGamePrizesForTest(db: Database, gameId: string, at: string): Promise<number> {
  return db.transaction(async (tx) => {
    const game = (await tx.get<{ hall_id: string; session_id: string }>(
      'SELECT hall_id, session_id FROM games WHERE id = ?',
      [gameId],
    ))!
    const prizes = await tx.all<{ id: string; kind: string; amount_cents: number }>(
      "SELECT id, kind, amount_cents FROM prizes WHERE game_id = ? AND status = 'awarded' ORDER BY id",
      [gameId],
    )
    for (const p of prizes) {
      await tx.run("UPDATE prizes SET status = 'paid', paid_at = ?, paid_by = ? WHERE id = ?", [at, 'test', p.id])
      touchRows(tx, 'prizes', [p.id])
      await appendJournal(tx, {
        at,
        type: 'prize.paid',
        scope: gameScope({ hallId: game.hall_id, sessionId: game.session_id, id: gameId }),
        payload: { gameId, prizeId: p.id, kind: p.kind, amountCents: Number(p.amount_cents), paidBy: 'test' },
      })
    }
    return prizes.length
  })
}
