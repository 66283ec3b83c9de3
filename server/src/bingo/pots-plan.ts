/**
 * BNG-52 / CFG-24 / CFG-28: the one check that a hall's pots stay within its Plan de Apuestas, called wherever the
 * sum can grow or the plan can shrink: a new pot, a hall joining a pot, a new plan version.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { getProfile } from '../shared/profile.ts'
import { checkPotsWithinPlan, type HallRuleSettings } from './betting-plan.ts'
import { activePotsBpOfHall, hallProfileAndSettings } from './store/pots-plan.ts'

export async function assertHallPotsWithinPlan(
  tx: Sql,
  hallId: string,
  opts: { addedBp?: number; settings?: HallRuleSettings } = {},
): Promise<void> {
  const hall = await hallProfileAndSettings(tx, hallId)
  if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
  const profile = getProfile(hall.profileId)
  if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profileId}`)
  const settings = opts.settings ?? (JSON.parse(hall.settings || '{}') as HallRuleSettings)
  checkPotsWithinPlan(profile, settings, (await activePotsBpOfHall(tx, hallId)) + (opts.addedBp ?? 0))
}
