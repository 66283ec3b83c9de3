import type { Lang } from '../../../web/i18n.ts'
import type { Offer } from './store.ts'
import { t } from './texts.ts'

/** Marks a button whose action a jefe authorises on this console (issue 14 point 7). */
export function JefeMark({ how, lang }: { how: Offer; lang: Lang }) {
  if (how !== 'jefe') return null
  return (
    <small class="cc-jefe" data-testid="needs-jefe">
      {t(lang, 'needsJefe')}
    </small>
  )
}
