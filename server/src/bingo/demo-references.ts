/**
 * Issue 24 point 4: on a server without the demo, a hall whose Plan de Apuestas, licence or sale rules carry a demo
 * reference (a data directory that ran the demo) announces no game and sells no card: a DEMO reference is no AJ
 * resolution (BNG-52).
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import type { BingoHooks } from './types.ts'
import { hallProfileSettings } from './store/halls.ts'

async function assertNoDemoReference(sql: Sql, hallId: string): Promise<void> {
  const hall = await hallProfileSettings(sql, hallId)
  if (!hall) return
  const settings = JSON.parse(hall.settings || '{}') as HallRuleSettings
  for (const ref of [
    settings.bettingPlan?.authorisationRef,
    settings.licence?.authorisationRef,
    settings.saleRules?.authorisationRef,
  ]) {
    if (isDemoReference(ref))
      throw new DomainError(
        'BETTING_PLAN_REQUIRED',
        `hall ${hallId} plays under a demo reference ("${ref}"): a server without the demo needs the hall's real Plan de Apuestas (BNG-52)`,
        { hallId, rule: 'BNG-52' },
      )
  }
}

export const demoReferenceHooks: BingoHooks = {
  gameAnnounced: (tx, e) => assertNoDemoReference(tx, e.hallId),
  cardsSelling: (tx, e) => assertNoDemoReference(tx, e.game.hallId),
}
