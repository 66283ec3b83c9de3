/**
 * Incidents the caller can declare (POST /games/:id/incidents), each with the regulation paragraph the Jefe de
 * Sala reads aloud before acting (BNG-84) and the outcome the server applies (BNG-80 to BNG-83, BNG-86). The
 * outcome of a caller's error depends on the hall's profile (`callerError`), never on the jurisdiction's name.
 */
import type { GameState } from '../../../server/src/bingo/service.ts'
import { GameAction, isLegal } from '../../../server/src/bingo/game.ts'
import { getProfile } from '../../../server/src/shared/profile.ts'
import type { IncidentKind } from '../../../web/api.ts'
import type { Lang } from '../../../web/i18n.ts'

export const INCIDENT_KINDS: readonly IncidentKind[] = [
  'device-failure-before-first-ball',
  'unresolved-suspension',
  'device-failure-after-first-ball',
  'ball-irregularity',
  'caller-error',
]

type Words = { es: string; en: string }

export interface IncidentRule {
  kind: IncidentKind
  rule: string
  title: Words
  /** The paragraph to read aloud (BNG-84). */
  paragraph: Words
  /** What the system does when it is confirmed. */
  outcome: Words
  /** The game is annulled and every card refunded. */
  voids: boolean
}

const RULES: Record<Exclude<IncidentKind, 'caller-error'>, IncidentRule> = {
  'device-failure-before-first-ball': {
    kind: 'device-failure-before-first-ball',
    rule: 'BNG-80',
    voids: false,
    title: { es: 'Avería antes de la primera bola', en: 'Device failure before the first ball' },
    paragraph: {
      es: 'Si antes de extraerse la primera bola fallan los aparatos o las instalaciones, o un accidente impide continuar, la partida se suspende provisionalmente durante un tiempo prudencial. Si el problema no se resuelve, se devuelve a los jugadores el importe íntegro de los cartones, previa entrega de estos en la mesa.',
      en: 'If devices or installations fail, or an accident prevents continuing, before the first ball is drawn, the game is provisionally suspended for a reasonable time. If the problem cannot be solved, players are refunded the full price of their cards after handing them back to the table.',
    },
    outcome: {
      es: 'La partida queda SUSPENDIDA. Reanúdela cuando se resuelva la avería.',
      en: 'The game is SUSPENDED. Resume it once the failure is solved.',
    },
  },
  'unresolved-suspension': {
    kind: 'unresolved-suspension',
    rule: 'BNG-80',
    voids: true,
    title: { es: 'Avería sin solución (partida suspendida)', en: 'Unresolved failure (suspended game)' },
    paragraph: {
      es: 'Si el problema que motivó la suspensión no puede resolverse, se devuelve a los jugadores el importe íntegro de los cartones, previa entrega de estos en la mesa.',
      en: 'If the problem that caused the suspension cannot be solved, players are refunded the full price of their cards after handing them back to the table.',
    },
    outcome: {
      es: 'Se ANULA la partida y se devuelve el precio íntegro de todos los cartones (BNG-86).',
      en: 'The game is ANNULLED and every card is refunded in full (BNG-86).',
    },
  },
  'device-failure-after-first-ball': {
    kind: 'device-failure-after-first-ball',
    rule: 'BNG-81',
    voids: false,
    title: { es: 'Avería después de la primera bola', en: 'Device failure after the first ball' },
    paragraph: {
      es: 'Si la avería se produce después de extraída la primera bola, la partida continúa mediante extracción manual, garantizando en todo momento la aleatoriedad y utilizando únicamente las bolas pendientes de extraer.',
      en: 'If the failure happens after the first ball, the game continues with manual extraction, guaranteeing randomness at all times and using only the balls still to be drawn.',
    },
    outcome: {
      es: 'La partida CONTINÚA con bolas introducidas a mano (solo las pendientes).',
      en: 'The game CONTINUES with balls entered by hand (only those still to be drawn).',
    },
  },
  'ball-irregularity': {
    kind: 'ball-irregularity',
    rule: 'BNG-82',
    voids: true,
    title: { es: 'Irregularidad en las bolas o el extractor', en: 'Irregularity of the balls or the blower' },
    paragraph: {
      es: 'Si comenzada la partida se detecta la falta de alguna bola, la existencia de bolas duplicadas, defectuosas o con sobrepeso, o cualquier otra irregularidad de las bolas o del mecanismo de extracción, la partida se suspende y se da por finalizada, devolviéndose a los jugadores el importe íntegro de los cartones, previa entrega de estos en la mesa.',
      en: 'If, once the game has started, a ball is missing, balls are duplicated, defective or overweight, or any other irregularity of the balls or the extraction mechanism is found, the game is suspended and ended, and players are refunded the full price of their cards after handing them back.',
    },
    outcome: {
      es: 'Se ANULA la partida y se devuelve el precio íntegro de todos los cartones (BNG-86).',
      en: 'The game is ANNULLED and every card is refunded in full (BNG-86).',
    },
  },
}

const CALLER_ERROR_ANNUL: IncidentRule = {
  kind: 'caller-error',
  rule: 'BNG-83',
  voids: true,
  title: { es: 'Error del locutor al cantar', en: "Caller's error announcing a number" },
  paragraph: {
    es: 'Cualquier error del locutor-vendedor al cantar un número que afecte sustancialmente al desarrollo de la partida causa la anulación de la partida, con la devolución íntegra del importe de los cartones, previa entrega de estos en la mesa.',
    en: "Any caller-seller's error announcing a number that substantially affects the game annuls the game, with a full refund of the cards after they are handed back to the table.",
  },
  outcome: {
    es: 'Se ANULA la partida y se devuelve el precio íntegro de todos los cartones (BNG-86).',
    en: 'The game is ANNULLED and every card is refunded in full (BNG-86).',
  },
}

const CALLER_ERROR_BALL_PREVAILS: IncidentRule = {
  kind: 'caller-error',
  rule: 'BNG-83',
  voids: false,
  title: { es: 'Error del locutor al cantar', en: "Caller's error announcing a number" },
  paragraph: {
    es: 'Prevalecerá siempre el número de la bola extraída. El error será corregido por el propio locutor o, con lector automático, por el Jefe de Mesa-Cajero, y la partida continuará si no hay incidencias. Si el error no puede corregirse antes de adjudicarse la línea, el bingo, la prima u otros premios y afecta sustancialmente a la partida, esta se anulará con devolución íntegra de los cartones.',
    en: 'The number on the drawn ball always prevails. The error is corrected by the caller or, with an automatic reader, by the Jefe de Mesa-Cajero, and the game continues if there are no incidents. An error that cannot be corrected before the line, bingo, prima or other prizes are awarded and that substantially affects the game annuls it, with a full refund.',
  },
  outcome: {
    es: 'Se CORRIGE el canto: prevalece la bola extraída y la partida continúa.',
    en: 'The call is CORRECTED: the drawn ball prevails and the game continues.',
  },
}

/**
 * Issue 15 point 4: in an RNG game the server is the device; after a failure it resumes the committed order and
 * nobody enters balls by hand (BNG-81's manual extraction is for blower games).
 */
const DEVICE_FAILURE_RNG: IncidentRule = {
  ...RULES['device-failure-after-first-ball'],
  outcome: {
    es: 'La partida SIGUE con el orden de extracción comprometido del generador aleatorio: nadie introduce bolas a mano.',
    en: "The game CONTINUES with the random generator's committed draw order: nobody enters balls by hand.",
  },
}

/** The rule shown for `kind` in a hall with profile `profileId`, for a game drawn from `drawSource`. */
export function incidentRule(kind: IncidentKind, profileId: string, drawSource?: string): IncidentRule {
  if (kind === 'device-failure-after-first-ball' && drawSource === 'rng') return DEVICE_FAILURE_RNG
  if (kind !== 'caller-error') return RULES[kind]
  return getProfile(profileId)?.callerError === 'ball-prevails' ? CALLER_ERROR_BALL_PREVAILS : CALLER_ERROR_ANNUL
}

/** Whether `kind` may be declared now (the server has the last word; this only spares a refused request). */
export function isIncidentAvailable(
  kind: IncidentKind,
  state: Pick<GameState, 'status' | 'balls' | 'profileId'>,
): boolean {
  const drawn = state.balls.length > 0
  switch (kind) {
    case 'device-failure-before-first-ball':
      return !drawn && isLegal(GameAction.Suspend, state.status)
    case 'unresolved-suspension':
      return state.status === 'suspended'
    case 'device-failure-after-first-ball':
      return drawn && isLegal(GameAction.SwitchToManual, state.status)
    case 'ball-irregularity':
      return isLegal(GameAction.Annul, state.status)
    case 'caller-error':
      return incidentRule('caller-error', state.profileId).voids
        ? isLegal(GameAction.Annul, state.status)
        : drawn && isLegal(GameAction.Claim, state.status)
    default: {
      const _never: never = kind
      return _never
    }
  }
}

/** Words in the console's language. */
export function say(words: Words, lang: Lang): string {
  return words[lang]
}
