/**
 * Issue 17: an incident in words for the hall and the console: what happened (its kind) and how the game goes on
 * (its outcome), Spanish first. Never the raw id ("device-failure-after-first-ball").
 */
type Lang = 'es' | 'en'

const KINDS: Record<string, Record<Lang, string>> = {
  'device-failure-before-first-ball': {
    es: 'Avería de los dispositivos antes de la primera bola',
    en: 'Device failure before the first ball',
  },
  'device-failure-after-first-ball': {
    es: 'Avería de los dispositivos tras la primera bola',
    en: 'Device failure after the first ball',
  },
  'ball-irregularity': { es: 'Irregularidad en las bolas', en: 'Ball irregularity' },
  'caller-error': { es: 'Error del locutor', en: 'Caller error' },
  'unresolved-suspension': { es: 'Avería no resuelta', en: 'Unresolved failure' },
  'reader-misread': { es: 'Lectura errónea del lector automático', en: 'Automatic reader misread' },
}

const OUTCOMES: Record<string, Record<Lang, string>> = {
  suspended: {
    es: 'La partida queda suspendida hasta reparar la avería. Conserve sus cartones.',
    en: 'The game is suspended until the failure is repaired. Keep your cards.',
  },
  'void-refund': {
    es: 'La partida se anula y se devuelve íntegro el importe de los cartones.',
    en: 'The game is void and every card is refunded in full.',
  },
  'continue-manual-with-remaining-balls': {
    es: 'La partida sigue: las bolas que faltan se extraen a mano.',
    en: 'The game goes on: the remaining balls are drawn by hand.',
  },
  'resume-committed-order': {
    es: 'La partida sigue con el orden de extracción ya comprometido.',
    en: 'The game goes on in the draw order already committed.',
  },
  // Not an outcome the server records: what a suspension became once the floor manager resumed the game (BNG-80).
  resumed: {
    es: 'Avería reparada: la partida se reanuda y sus cartones siguen en juego.',
    en: 'Failure repaired: the game resumes and your cards are still in play.',
  },
  'call-corrected-ball-prevails': {
    es: 'El canto se corrige: vale la bola extraída y la partida sigue.',
    en: 'The call is corrected: the drawn ball stands and the game goes on.',
  },
}

/** What happened, in words. */
export function incidentKindText(kind: string, lang: Lang): string {
  return KINDS[kind]?.[lang] ?? (lang === 'en' ? 'Incident' : 'Incidencia')
}

/** How the game goes on, in words. */
export function incidentOutcomeText(outcome: string, lang: Lang): string {
  const corrected = /^ball-corrected:(\d+)->(\d+)$/.exec(outcome)
  if (corrected)
    return lang === 'en'
      ? `Ball ${corrected[1]} corrected to ${corrected[2]}; the game goes on.`
      : `La bola ${corrected[1]} se corrige por ${corrected[2]}; la partida sigue.`
  return (
    OUTCOMES[outcome]?.[lang] ??
    (lang === 'en'
      ? 'The floor manager will tell the hall how the game goes on.'
      : 'El jefe de mesa indicará cómo sigue la partida.')
  )
}
