import type { GameState } from '../../../server/src/bingo/service.ts'
import { stateWord } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'
import { incidentOutcomeText } from '../../../web/incident-texts.ts'

const VOID_REASONS: Record<string, { es: string; en: string }> = {
  'ball-irregularity': {
    es: 'Irregularidad en las bolas o en el extractor',
    en: 'Irregularity of the balls or the blower',
  },
  'caller-error': { es: 'Error del locutor al cantar un número', en: "Caller's error announcing a number" },
  'unresolved-suspension': { es: 'Avería no resuelta', en: 'Unresolved device failure' },
}

/** What the hall reads when a game is annulled (refund, BNG-82/83/86) or suspended (BNG-80). */
export function Notice({ state, lang }: { state: GameState; lang: Lang }) {
  const reason = state.voidReason ? (VOID_REASONS[state.voidReason]?.[lang] ?? state.voidReason) : null
  return (
    <div class={`hd-notice hd-notice--${state.status}`} data-testid="notice">
      <div class="hd-notice__title">{stateWord(state.status, lang)}</div>
      {state.status === 'void' ? (
        <>
          {reason && (
            <div class="hd-notice__reason">
              {text(lang, 'voidReason')}: {reason}
            </div>
          )}
          {/* Issue 15 point 4: the reason the two people gave when they annulled it. */}
          {state.annulment && (
            <div class="hd-notice__reason" data-testid="annul-reason">
              {state.annulment.reason}
            </div>
          )}
          <div class="hd-notice__text">{text(lang, 'refund')}</div>
        </>
      ) : (
        <div class="hd-notice__text">
          {state.incident ? incidentOutcomeText(state.incident.outcome, lang) : text(lang, 'suspendedHint')}
        </div>
      )}
    </div>
  )
}
