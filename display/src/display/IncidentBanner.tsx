import type { GameState } from '../../../server/src/bingo/service.ts'
import { incidentKindText, incidentOutcomeText } from '../../../web/incident-texts.ts'
import type { Lang } from '../../../web/i18n.ts'

/**
 * Issue 17 point 5: the hall is told what happened and how the game goes on, as soon as the incident is recorded
 * (the server sends the new state; nothing is reloaded). Shown while the game is still being played.
 */
export function IncidentBanner({ state, lang }: { state: GameState; lang: Lang }) {
  const i = state.incident
  // A suspended or annulled game says it in its notice (Notice.tsx), with the same words.
  if (!i || state.status === 'finished' || state.status === 'void' || state.status === 'suspended') return null
  // A suspension the game is no longer in was resumed: say so, not "suspended until repaired" (BNG-80).
  const outcome = i.outcome === 'suspended' ? 'resumed' : i.outcome
  return (
    <div
      class="hd-incident"
      data-testid="incident"
      data-kind={i.kind}
      data-outcome={outcome}
      role="status"
      aria-live="assertive"
    >
      <strong class="hd-incident__what" data-testid="incident-what">
        {incidentKindText(i.kind, lang)}
      </strong>
      <span class="hd-incident__how" data-testid="incident-how">
        {incidentOutcomeText(outcome, lang)}
      </span>
    </div>
  )
}
