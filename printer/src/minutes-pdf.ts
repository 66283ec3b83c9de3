/**
 * Session minutes (acta de sesión de bingo) as a printable A4 PDF, rendered from the SessionMinutes model that
 * server/src/app/minutes.ts derives from the hash-chained journal (DESIGN.md "Journal"; BNG-72 to BNG-79).
 *
 * Layout: a session header with the start diligence (ball recount, Jefe de Mesa signature, BNG-73/BNG-78), one
 * block per game with every field BNG-73 and BNG-78 list (with, when the game has them, the halls of a simultaneous
 * game and the additional prizes: prima BNG-64/BNG-61, pots BNG-73 (5)/(8), lucky ball BNG-67), the prima amount
 * changes and the equipment entries (ball sets BNG-24/25/27, device faults, misreads and corrected balls BNG-83)
 * when there are any, the session totals, the remainder rule of the prize split, the journal reference and the
 * closing diligence signed by the Jefe de Mesa and the Director de Bingo.
 *
 * Only the PDF standard fonts are used (Helvetica, Courier), whose encoding is WinAnsi: every string goes through
 * `toWinAnsi`, which keeps Spanish letters and transliterates or replaces anything else, so rendering never throws.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import { FIGURE_NAMES, figureOfKind } from '../../server/src/bingo/patterns.ts'
import { REMAINDER_RULE_ES, type MinutesGame, type SessionMinutes } from '../../server/src/bingo/minutes.ts'
import { formatMoney } from '../../server/src/shared/money.ts'
import { getProfile } from '../../server/src/shared/profile.ts'
import { isoInZone, zoneLabel } from '../../server/src/shared/time-zone.ts'
import {
  BAR,
  BAR_LIGHT,
  BINGO_SHADE,
  CONTENT_BOTTOM,
  CONTENT_W,
  INK,
  KEEP_TOGETHER,
  LINE_SHADE,
  LUCKY_RULE,
  MARGIN_TOP,
  MARGIN_X,
  MUTED,
  PAGE_H,
  PAGE_W,
  RULE,
  VOID_FILL,
  VOID_RULE,
  WHITE,
  Writer,
  type Cell,
  type Fonts,
} from './pdf-kit.ts'

export type MinutesLang = 'es' | 'en'

/** The session as people name it: its number in the hall; its record id only when no number is known. */
function sessionName(m: SessionMinutes): string {
  return m.sessionNo ? `N.º ${m.sessionNo}` : m.sessionId
}

// ------------------------------------------------------------------------------------------------ labels

interface Labels {
  title: string
  subtitle: string
  runningTitle: string
  sessionData: string
  hall: string
  hallId: string
  profile: string
  session: string
  opened: string
  closed: string
  stillOpen: string
  currency: string
  timeZone: string
  lastGameAnnounced: string
  yes: string
  no: string
  startDiligence: string
  startDiligenceText: (opened: string) => string
  ballsCounted: string
  equipmentCheck: string
  equipmentChecked: (withReader: boolean) => string
  confirmedBy: string
  notRecorded: string
  closeRecount: string
  closeRecountText: string
  signatureJefeMesa: string
  games: string
  noGames: string
  game: (n: number) => string
  gameContinued: (n: number) => string
  gameId: string
  lastGame: string
  status: Record<MinutesGame['status'], string>
  seriesSold: string
  range: (code: string, from: string, to: string, count: number) => string
  noSeries: string
  faceValue: string
  cardsSold: string
  totalCollected: string
  linePool: string
  bingoPool: string
  jackpots: string
  noJackpots: string
  linePaid: string
  bingoPaid: string
  jackpotsPaid: string
  /** CFG-13: figure prizes, on their own line (never under the pots). */
  figurePools: string
  figuresPaid: string
  refund: string
  startedAt: string
  firstBallAt: string
  endedAt: string
  gameStatus: string
  winners: string
  noWinners: string
  kind: string
  card: string
  atBall: string
  winningBall: string
  atClaim: string
  amount: string
  kindName: (kind: string) => string
  tie: (kind: string, n: number, total: string) => string
  ballsDrawn: (n: number) => string
  ballsCount: string
  noBalls: string
  legendLine: string
  legendBingo: string
  commitment: string
  salesDigest: string
  beaconRound: string
  beaconRandomness: string
  beaconPending: string
  beaconDemo: string
  voidBox: (reason: string, refund: string) => string
  /** Issue 13 point 7: how many of the void game's cards were refunded, and for how much. */
  refundsPaid: (cards: number, of: number, amount: string) => string
  /** Issue 15 point 4: the two people who annulled the game and their reason. */
  annulledBy: (requestedBy: string, confirmedBy: string, reason: string) => string
  incidents: string
  noIncidents: string
  time: string
  incidentKind: string
  outcome: string
  rule: string
  note: string
  incidentSignatures: string
  /** BNG-74: the column naming the Jefe de Mesa and the Director de Bingo who signed each entry with their credentials. */
  signedBy: string
  signedNames: (jefeMesa: string, director: string) => string
  /** BNG-34 / GEN-31: the CCTV camera of an incident and the recording to review. */
  cctvOf: (cameraId: string, ref: string | null) => string
  /** BNG-27: who counted the balls (the witness is `confirmedBy`). */
  countedBy: string
  directorBingo: string
  rejectedClaims: string
  reason: string
  gameClosingSignature: string
  totals: string
  gamesPlayed: string
  gamesFinished: string
  gamesVoid: string
  totalPrizesPaid: string
  refunds: string
  remainderRule: string
  journal: string
  journalText: (records: number, first: number, last: number) => string
  /** Issue 15 point 5: signed journal checkpoints (DESIGN.md "Journal"). */
  checkpoints: string
  checkpointsText: string
  noCheckpoints: string
  checkpointSeq: string
  checkpointHash: string
  checkpointSignature: string
  checkpointReasons: Record<string, string>
  records: string
  firstSeq: string
  lastSeq: string
  lastHash: string
  closingDiligence: string
  closingText: (closed: string) => string
  closingOpenText: string
  jefeMesa: string
  name: string
  date: string
  signature: string
  footerSession: (id: string) => string
  footerJournal: string
  page: (n: number, total: number) => string
  incidentKinds: Record<string, string>
  outcomes: Record<string, string>
  ballCorrected: (from: string, to: string) => string
  reasons: Record<string, string>
  /** A claim refused while a figure's claim window was open (CFG-13), the figure by its name. */
  windowOpenForFigure: (figure: string) => string
  /** Prima, pots, lucky ball and simultaneous halls (BNG-64, BNG-61, BNG-67, BNG-73 (5)/(8), BNG-100). */
  bonus: BonusLabels
  /** Ball sets, recounts, device faults, misreads and ball corrections (BNG-24, BNG-25, BNG-27, BNG-83). */
  equipment: EquipmentLabels
  book: BookLabels
  /** The server's remainder rule (REMAINDER_RULE_ES) in this language. */
  remainderRuleText: string
}

interface BonusLabels {
  title: string
  prima: string
  onOffer: string
  amount: string
  ballLimit: string
  fundAtStart: string
  deducted: string
  accumulated: string
  outcome: string
  outcomes: Record<'won' | 'not_won' | 'not_offered' | 'void' | 'pending' | 'inactive', string>
  awarded: string
  completedAtBall: string
  atBall: string
  accumulatedGames: string
  paid: string
  nextBallLimit: string
  amountChangedHere: (from: string, to: string) => string
  primaCell: (accumulated: string) => string
  pots: string
  pot: string
  potKind: string
  potKinds: Record<string, string>
  contributed: string
  potAmount: string
  potAwarded: string
  potPaid: string
  lucky: string
  luckyNumbers: string
  luckyPending: string
  luckyAwarded: string
  luckyCommitment: string
  halls: string
  hallId: string
  cardRange: string
  hallSales: string
  primaChanges: string
  primaChangesText: string
  previousAmount: string
  newAmount: string
  fromGame: string
  legendLucky: string
  legendCorrected: string
}

/** Issue 18: the complaints book (BNG-72, GEN-21) and the manual auxiliary book (BNG-76) in the minutes. */
interface BookLabels {
  manualTitle: string
  manualIntro: string
  manualRange: (from: string, resumed: string | null) => string
  range: string
  folios: string
  reason: string
  recordedBy: string
  complaintsTitle: string
  complaintsIntro: string
  number: string
  game: string
  complaint: string
  answer: string
  pendingAnswer: string
  answeredBy: (who: string, at: string) => string
  pendingNote: (n: string) => string
}

interface EquipmentLabels {
  title: string
  intro: string
  game: string
  event: string
  detail: string
  types: Record<string, string>
  setChanged: (d: {
    from: string | null
    to: string
    fromState: string
    reason: string
    witness: string
    reserves: string
  }) => string
  setState: (label: string, played: string, limit: string) => string
  oldTo: Record<string, string>
  recount: (d: {
    phase: string
    label: string
    counted: string
    total: string
    by: string
    played: string
    limit: string
  }) => string
  limitWarning: (d: { label: string; played: string; limit: string; percent: string; reserves: string }) => string
  limitReached: (d: { label: string; limit: string; reserves: string }) => string
  fault: (d: { device: string; code: string; detail: string; balls: string | null; ball: string | null }) => string
  misread: (d: { device: string; read: string; actual: string; confidence: string; by: string }) => string
  corrected: (d: { seq: string; from: string; to: string; kind: string; source: string }) => string
  sources: Record<string, string>
}

/** CFG-13: a figure prize kind's name (any other kind as it is). */
function figureNameOf(kind: string, lang: 'es' | 'en'): string {
  const f = figureOfKind(kind)
  return f ? FIGURE_NAMES[f][lang] : kind
}

const ES: Labels = {
  title: 'ACTA DE SESIÓN DE BINGO',
  subtitle: 'Libro de actas · derivada del diario encadenado por hash (BNG-72 a BNG-79)',
  runningTitle: 'Acta de sesión de bingo',
  sessionData: 'Datos de la sesión',
  hall: 'Sala',
  hallId: 'Id. de sala',
  profile: 'Perfil jurisdiccional',
  session: 'Sesión',
  opened: 'Apertura',
  closed: 'Cierre',
  stillOpen: 'Sesión abierta',
  currency: 'Moneda',
  timeZone: 'Hora de la sala',
  lastGameAnnounced: 'Último juego anunciado',
  yes: 'Sí',
  no: 'No',
  startDiligence: 'Diligencia de inicio de sesión',
  startDiligenceText: (opened) =>
    `En la fecha y hora de apertura (${opened}) se comprobaron el material y las instalaciones de juego y se efectuó el recuento de las bolas antes de su carga en el extractor (BNG-27, BNG-41).`,
  ballsCounted: 'Bolas contadas',
  equipmentCheck: 'Material e instalaciones (BNG-41)',
  equipmentChecked: (reader) =>
    `Comprobados y en funcionamiento: bombo, cámara de la salida de bolas y monitores, pantallas, sonido${reader ? ', lector automático' : ''}`,
  confirmedBy: 'Confirmado por',
  notRecorded: 'No registrado',
  closeRecount: 'Recuento de bolas al cierre',
  closeRecountText: 'Al cierre de la sesión se volvió a contar el juego de bolas (BNG-27).',
  signatureJefeMesa: 'Firma del Jefe de Mesa',
  games: 'Partidas',
  noGames: 'No se celebraron partidas en esta sesión.',
  game: (n) => `PARTIDA N.º ${n}`,
  gameContinued: (n) => `Partida n.º ${n} (continuación)`,
  gameId: 'Id. de partida',
  lastGame: 'ÚLTIMO JUEGO',
  status: { finished: 'Finalizada', void: 'Anulada', in_progress: 'En curso' },
  seriesSold: 'Series y cartones vendidos',
  range: (code, from, to, count) =>
    `Serie ${code} del ${from} al ${to} (${count} ${count === 1 ? 'cartón' : 'cartones'})`,
  noSeries: 'Sin venta registrada',
  faceValue: 'Precio (valor facial)',
  cardsSold: 'Cartones vendidos',
  totalCollected: 'Total recaudado',
  linePool: 'Premio de línea',
  bingoPool: 'Premio de bingo',
  jackpots: 'Pozos progresivos / prima',
  noJackpots: 'Ninguno',
  linePaid: 'Pagado por línea',
  bingoPaid: 'Pagado por bingo',
  jackpotsPaid: 'Pagado de pozos / prima',
  figurePools: 'Premios de figura',
  figuresPaid: 'Pagado por figuras',
  refund: 'Devolución',
  startedAt: 'Inicio (cierre de venta)',
  firstBallAt: 'Primera bola',
  endedAt: 'Fin de la partida',
  gameStatus: 'Estado',
  winners: 'Cartones premiados',
  noWinners: 'Sin cartones premiados.',
  kind: 'Premio',
  card: 'N.º de cartón',
  atBall: 'Bolas extraídas al ganar',
  winningBall: 'Bola ganadora',
  atClaim: 'Bolas extraídas al reclamar',
  amount: 'Importe',
  kindName: (k) => (k === 'line' ? 'Línea' : k === 'bingo' ? 'Bingo' : figureNameOf(k, 'es')),
  tie: (kind, n, total) =>
    `Empate en ${kind.toLowerCase()}: ${n} cartones premiados en la misma bola se reparten ${total} según la regla de reparto de restos.`,
  ballsDrawn: (n) => `Bolas extraídas en orden de extracción: ${n}`,
  ballsCount: 'Bolas extraídas',
  noBalls: 'No se extrajo ninguna bola.',
  legendLine: 'bola con la que se cantó línea',
  legendBingo: 'bola con la que se cantó bingo',
  commitment: 'Compromiso del sorteo (SHA-256)',
  salesDigest: 'Resumen de ventas (SHA-256)',
  beaconRound: 'Ronda del faro público (fijada por el cierre de venta)',
  beaconRandomness: 'Aleatoriedad del faro (SHA-256 de la firma)',
  beaconPending: 'pendiente',
  beaconDemo:
    'FARO DE DEMOSTRACIÓN: la aleatoriedad de este sorteo viene de una clave local del servidor, no de un faro público; no es un sorteo públicamente verificable.',
  voidBox: (reason, refund) =>
    `PARTIDA ANULADA. Motivo: ${reason}. Devolución íntegra del precio de los cartones: ${refund}.`,
  refundsPaid: (cards, of, amount) => `Cartones reembolsados: ${cards} de ${of}, por ${amount}.`,
  annulledBy: (by, confirmed, reason) => `Anulada por ${by}, confirmada por ${confirmed}, motivo: ${reason}`,
  incidents: 'Incidencias',
  noIncidents: 'Sin incidencias.',
  time: 'Fecha y hora',
  incidentKind: 'Incidencia',
  outcome: 'Resolución',
  rule: 'Norma',
  note: 'Observaciones',
  incidentSignatures: 'Firmas de las incidencias (BNG-74):',
  signedBy: 'Firmado por (BNG-74)',
  signedNames: (jefe, director) => `Jefe de Mesa: ${jefe} · Director de Bingo: ${director}`,
  cctvOf: (cam, ref) => `Cámara ${cam}${ref ? `, grabación ${ref}` : ''}`,
  countedBy: 'Contado por',
  directorBingo: 'Director de Bingo',
  rejectedClaims: 'Reclamaciones rechazadas',
  reason: 'Motivo',
  gameClosingSignature: 'Cierre de la partida. Firma del Jefe de Mesa:',
  totals: 'Totales de la sesión',
  gamesPlayed: 'Partidas',
  gamesFinished: 'Finalizadas',
  gamesVoid: 'Anuladas',
  totalPrizesPaid: 'Total premios pagados',
  refunds: 'Devoluciones',
  remainderRule: 'Regla de reparto de restos',
  journal: 'Referencia al diario',
  checkpoints: 'Puntos de control firmados del diario',
  checkpointsText:
    'El servidor firma (Ed25519, clave del operador) el número y el hash del último registro al cerrar cada venta, al terminar cada partida y cada pocos minutos. Quien conserve esta lista (o GET /api/journal/checkpoints) detecta cualquier registro reescrito: npx bolillo verify-journal --checkpoints <fichero>.',
  noCheckpoints: 'Sin puntos de control en esta sesión.',
  checkpointSeq: 'Registro n.º',
  checkpointHash: 'Hash del registro',
  checkpointSignature: 'Firma (abreviada)',
  checkpointReasons: {
    'game-ended': 'Fin de partida',
    'sales-closed': 'Cierre de venta',
    timer: 'Periódico',
    'session-closed': 'Cierre de sesión',
  },
  journalText: (records, first, last) =>
    `Esta acta se deriva del diario de eventos encadenado por hash, sin registros aparte: ${records} registros, del n.º ${first} al n.º ${last}. Cualquier lector puede comprobar la cadena (npx bolillo verify-journal) y cotejar el hash del último registro.`,
  records: 'Registros',
  firstSeq: 'Primer registro',
  lastSeq: 'Último registro',
  lastHash: 'Hash del último registro (SHA-256)',
  closingDiligence: 'Diligencia de cierre de sesión',
  closingText: (closed) =>
    `Se cierra la sesión el ${closed}. Los abajo firmantes dan fe de que los datos de esta acta corresponden a las partidas celebradas.`,
  closingOpenText: 'La sesión sigue abierta a la fecha de emisión de esta acta.',
  jefeMesa: 'Jefe de Mesa',
  name: 'Nombre y apellidos',
  date: 'Fecha',
  signature: 'Firma',
  footerSession: (id) => `Sesión ${id}`,
  footerJournal: 'Derivada del diario encadenado',
  page: (n, total) => `Página ${n} de ${total}`,
  incidentKinds: {
    'device-failure-before-first-ball': 'Fallo de dispositivos antes de la primera bola',
    'device-failure-after-first-ball': 'Fallo de dispositivos tras la primera bola',
    'ball-irregularity': 'Irregularidad de las bolas',
    'caller-error': 'Error del locutor',
    'unresolved-suspension': 'Suspensión no resuelta',
    'reader-misread': 'Lectura errónea del lector automático',
  },
  outcomes: {
    suspended: 'Partida suspendida provisionalmente',
    'void-refund': 'Anulación y devolución íntegra',
    'continue-manual-with-remaining-balls': 'Continúa con extracción manual de las bolas pendientes',
    'call-corrected-ball-prevails': 'Canto corregido; prevalece la bola extraída',
  },
  ballCorrected: (from, to) => `Bola corregida: ${from} por ${to}`,
  reasons: {
    'ball-irregularity': 'irregularidad de las bolas (BNG-82)',
    'caller-error': 'error del locutor (BNG-83)',
    'unresolved-suspension': 'fallo no resuelto antes de la primera bola (BNG-80)',
    line_already_awarded: 'la línea ya estaba adjudicada',
    no_complete_row: 'ninguna fila completa',
    card_not_complete: 'cartón no completo',
    window_open_for_line: 'ventana de reclamación abierta para línea',
    window_open_for_bingo: 'ventana de reclamación abierta para bingo',
    // CFG-13: a figure claim rejected.
    figure_not_formed: 'figura no formada con las bolas extraídas',
    figure_already_awarded: 'la figura ya estaba adjudicada',
    figure_not_in_game: 'la figura no se juega en esta partida',
  },
  windowOpenForFigure: (figure) => `ventana de reclamación abierta para ${figure}`,
  bonus: {
    title: 'Premios adicionales',
    prima: 'Prima de bingo (BNG-57 a BNG-64)',
    onOffer: 'En juego',
    amount: 'Importe de la prima',
    ballLimit: 'Bola máxima',
    fundAtStart: 'Fondo al inicio',
    deducted: 'Detraído en la partida',
    accumulated: 'Acumulado',
    outcome: 'Resultado',
    outcomes: {
      won: 'Adjudicada',
      not_won: 'No adjudicada',
      not_offered: 'No ofrecida',
      void: 'Partida anulada: detracción revertida',
      pending: 'Pendiente',
      inactive: 'No en juego en esta partida',
    },
    awarded: 'Importe adjudicado',
    completedAtBall: 'Bolas al completar el cartón ganador',
    atBall: 'Bolas al cantar bingo',
    accumulatedGames: 'Partidas acumuladas',
    paid: 'Pagado de la prima',
    nextBallLimit: 'Bola máxima en la partida siguiente',
    amountChangedHere: (from, to) => `Desde esta partida el importe de la prima pasa de ${from} a ${to} (BNG-61).`,
    primaCell: (acc) => `Prima (acumulado): ${acc}`,
    pots: 'Pozos (BNG-73 (5) y (8))',
    pot: 'Pozo',
    potKind: 'Tipo',
    potKinds: { progressive: 'Progresivo', interconnected: 'Interconectado', lucky: 'Bola loca', prima: 'Prima' },
    contributed: 'Aportación en la partida',
    potAmount: 'Importe del pozo',
    potAwarded: 'Adjudicado',
    potPaid: 'Pagado',
    lucky: 'Bola loca (BNG-67)',
    luckyNumbers: 'Números de la bola loca',
    luckyPending: 'Sin sortear',
    luckyAwarded: 'Adjudicado por bola loca',
    luckyCommitment: 'Compromiso de la bola loca (SHA-256)',
    halls: 'Salas del juego simultáneo (BNG-100)',
    hallId: 'Sala',
    cardRange: 'Cartones',
    hallSales: 'Recaudación',
    primaChanges: 'Prima de bingo: cambios de importe',
    primaChangesText:
      'Cambios del importe de la prima elegidos por el Jefe de Sala, con el número de partida desde el que se aplican (BNG-61).',
    previousAmount: 'Importe anterior',
    newAmount: 'Importe nuevo',
    fromGame: 'Desde la partida n.º',
    legendLucky: 'número de la bola loca',
    legendCorrected: 'bola corregida; tachado, el número cantado (BNG-83)',
  },
  equipment: {
    title: 'Equipos y juego de bolas',
    intro:
      'Cambios, recuentos y avisos de límite del juego de bolas (BNG-24, BNG-25, BNG-27), fallos y lecturas erróneas de los dispositivos y bolas corregidas (BNG-83), en el orden del diario.',
    game: 'Partida',
    event: 'Evento',
    detail: 'Detalle',
    types: {
      'ball_set.changed': 'Cambio de juego de bolas (BNG-25)',
      'ball_set.recount': 'Recuento de bolas (BNG-27)',
      'ball_set.limit_warning': 'Aviso de límite de partidas (BNG-24)',
      'ball_set.limit_reached': 'Límite de partidas alcanzado (BNG-24)',
      'device.fault': 'Fallo de dispositivo',
      'device.misread': 'Lectura errónea del lector (BNG-83)',
      'ball.corrected': 'Bola corregida (BNG-83)',
    },
    setChanged: (d) =>
      `${d.from ? `Sale el juego ${d.from} (${d.fromState}); entra` : 'Entra'} el juego ${d.to}. Motivo: ${d.reason}. En presencia de: ${d.witness}. Juegos de reserva disponibles: ${d.reserves}.`,
    setState: (label, played, limit) => `${label}, ${played} de ${limit} partidas`,
    oldTo: { reserve: 'pasa a reserva', retired: 'retirado' },
    recount: (d) =>
      `${d.phase === 'end' ? 'Cierre' : 'Inicio'} de sesión. Juego ${d.label}: ${d.counted} bolas contadas de ${d.total}; confirmado por ${d.by}. Partidas jugadas con el juego: ${d.played} de ${d.limit}.`,
    limitWarning: (d) =>
      `Juego ${d.label}: ${d.played} de ${d.limit} partidas (aviso al ${d.percent} %). Juegos de reserva disponibles: ${d.reserves}.`,
    limitReached: (d) =>
      `Juego ${d.label}: alcanzado el límite de ${d.limit} partidas; se cambia antes de la próxima partida con bolas. Juegos de reserva disponibles: ${d.reserves}.`,
    fault: (d) =>
      `${d.device}: ${d.code}${d.detail ? ` (${d.detail})` : ''}${d.ball ? `; bola ${d.ball}` : ''}${d.balls ? `; bolas extraídas: ${d.balls}` : ''}.`,
    misread: (d) =>
      `El lector ${d.device} leyó ${d.read}; la bola es ${d.actual} (confianza ${d.confidence} %). Confirmado por ${d.by}.`,
    corrected: (d) => `Bola n.º ${d.seq}: cantada ${d.from}, prevalece ${d.to} (${d.kind}; ${d.source}).`,
    sources: { manual: 'entrada manual', rng: 'generador aleatorio' },
  },
  book: {
    manualTitle: 'Libro auxiliar manual',
    manualIntro:
      'Partidas registradas en el libro auxiliar manual, encuadernado y foliado, por avería del sistema informático, desde la partida en que se produjo hasta su reparación (BNG-76).',
    manualRange: (from, resumed) =>
      resumed
        ? `Avería del sistema desde la partida ${from}; se reanuda en la partida ${resumed}`
        : `Avería del sistema desde la partida ${from}; no se reanudó en la sesión`,
    range: 'Partidas en el libro manual',
    folios: 'Folios',
    reason: 'Avería',
    recordedBy: 'Anotado por',
    complaintsTitle: 'Libro de reclamos u observaciones',
    complaintsIntro:
      'Reclamos de los jugadores sobre esta sesión, numerados en el libro de la sala, con su respuesta (BNG-72, GEN-21). Los datos personales del jugador constan en el libro.',
    number: 'N.º',
    game: 'Partida',
    complaint: 'Reclamo',
    answer: 'Respuesta',
    pendingAnswer: 'Pendiente de respuesta',
    answeredBy: (who, at) => `${who}, ${at}`,
    pendingNote: (n) => `${n} reclamo(s) pendiente(s) de resolución: esta acta se conserva hasta que se resuelvan.`,
  },
  remainderRuleText: REMAINDER_RULE_ES,
}

const EN: Labels = {
  title: 'BINGO SESSION MINUTES',
  subtitle: 'Minutes book · derived from the hash-chained journal (BNG-72 to BNG-79)',
  runningTitle: 'Bingo session minutes',
  sessionData: 'Session data',
  hall: 'Hall',
  hallId: 'Hall id',
  profile: 'Jurisdiction profile',
  session: 'Session',
  opened: 'Opened',
  closed: 'Closed',
  stillOpen: 'Session open',
  currency: 'Currency',
  timeZone: 'Hall time',
  lastGameAnnounced: 'Last game announced',
  yes: 'Yes',
  no: 'No',
  startDiligence: 'Session start diligence',
  startDiligenceText: (opened) =>
    `At the opening date and time (${opened}) the gaming material and installations were checked and the balls were counted before loading them into the blower (BNG-27, BNG-41).`,
  ballsCounted: 'Balls counted',
  equipmentCheck: 'Equipment and installations (BNG-41)',
  equipmentChecked: (reader) =>
    `Checked and working: extractor, ball-exit camera and monitors, screens, sound${reader ? ', automatic reader' : ''}`,
  confirmedBy: 'Confirmed by',
  notRecorded: 'Not recorded',
  closeRecount: 'Ball recount at close',
  closeRecountText: 'At the close of the session the ball set was counted again (BNG-27).',
  signatureJefeMesa: 'Floor manager (Jefe de Mesa) signature',
  games: 'Games',
  noGames: 'No games were played in this session.',
  game: (n) => `GAME NO. ${n}`,
  gameContinued: (n) => `Game no. ${n} (continued)`,
  gameId: 'Game id',
  lastGame: 'LAST GAME',
  status: { finished: 'Finished', void: 'Void', in_progress: 'In progress' },
  seriesSold: 'Series and cards sold',
  range: (code, from, to, count) => `Series ${code} from ${from} to ${to} (${count} ${count === 1 ? 'card' : 'cards'})`,
  noSeries: 'No sales recorded',
  faceValue: 'Price (face value)',
  cardsSold: 'Cards sold',
  totalCollected: 'Total collected',
  linePool: 'Line prize',
  bingoPool: 'Bingo prize',
  jackpots: 'Progressive pots / prima',
  noJackpots: 'None',
  linePaid: 'Paid for line',
  bingoPaid: 'Paid for bingo',
  jackpotsPaid: 'Paid from pots / prima',
  figurePools: 'Figure prizes',
  figuresPaid: 'Paid for figures',
  refund: 'Refund',
  startedAt: 'Start (sales closed)',
  firstBallAt: 'First ball',
  endedAt: 'End of game',
  gameStatus: 'Status',
  winners: 'Winning cards',
  noWinners: 'No winning cards.',
  kind: 'Prize',
  card: 'Card no.',
  atBall: 'Balls drawn when won',
  winningBall: 'Winning ball',
  atClaim: 'Balls drawn at claim',
  amount: 'Amount',
  kindName: (k) => (k === 'line' ? 'Line' : k === 'bingo' ? 'Bingo' : figureNameOf(k, 'en')),
  tie: (kind, n, total) =>
    `Tie for ${kind.toLowerCase()}: ${n} cards winning at the same ball share ${total} under the remainder rule.`,
  ballsDrawn: (n) => `Balls drawn in extraction order: ${n}`,
  ballsCount: 'Balls drawn',
  noBalls: 'No ball was drawn.',
  legendLine: 'ball that completed the line',
  legendBingo: 'ball that completed the bingo',
  commitment: 'Draw commitment (SHA-256)',
  salesDigest: 'Sales digest (SHA-256)',
  beaconRound: 'Public beacon round (fixed by the close of sales)',
  beaconRandomness: 'Beacon randomness (SHA-256 of the signature)',
  beaconPending: 'pending',
  beaconDemo:
    'DEMO BEACON: the randomness of this draw comes from a local key of the server, not from a public beacon; it is not a publicly verifiable draw.',
  voidBox: (reason, refund) => `GAME VOID. Reason: ${reason}. Full refund of the card price: ${refund}.`,
  refundsPaid: (cards, of, amount) => `Cards refunded: ${cards} of ${of}, for ${amount}.`,
  annulledBy: (by, confirmed, reason) => `Annulled by ${by}, confirmed by ${confirmed}, reason: ${reason}`,
  incidents: 'Incidents',
  noIncidents: 'No incidents.',
  time: 'Date and time',
  incidentKind: 'Incident',
  outcome: 'Outcome',
  rule: 'Rule',
  note: 'Note',
  incidentSignatures: 'Incident signatures (BNG-74):',
  signedBy: 'Signed by (BNG-74)',
  signedNames: (jefe, director) => `Floor manager: ${jefe} · Bingo director: ${director}`,
  cctvOf: (cam, ref) => `Camera ${cam}${ref ? `, recording ${ref}` : ''}`,
  countedBy: 'Counted by',
  directorBingo: 'Bingo Director (Director de Bingo)',
  rejectedClaims: 'Rejected claims',
  reason: 'Reason',
  gameClosingSignature: 'Game closed. Floor manager signature:',
  totals: 'Session totals',
  gamesPlayed: 'Games',
  gamesFinished: 'Finished',
  gamesVoid: 'Void',
  totalPrizesPaid: 'Total prizes paid',
  refunds: 'Refunds',
  remainderRule: 'Remainder rule of the prize split',
  journal: 'Journal reference',
  checkpoints: 'Signed journal checkpoints',
  checkpointsText:
    'The server signs (Ed25519, operator key) the number and hash of the last record at every sales close, every game end and every few minutes. Whoever keeps this list (or GET /api/journal/checkpoints) detects any rewritten record: npx bolillo verify-journal --checkpoints <file>.',
  noCheckpoints: 'No checkpoints in this session.',
  checkpointSeq: 'Record no.',
  checkpointHash: 'Record hash',
  checkpointSignature: 'Signature (shortened)',
  checkpointReasons: {
    'game-ended': 'Game end',
    'sales-closed': 'Sales close',
    timer: 'Periodic',
    'session-closed': 'Session close',
  },
  journalText: (records, first, last) =>
    `These minutes are derived from the hash-chained event journal and kept nowhere else: ${records} records, from no. ${first} to no. ${last}. Any reader can check the chain (npx bolillo verify-journal) and compare the hash of the last record.`,
  records: 'Records',
  firstSeq: 'First record',
  lastSeq: 'Last record',
  lastHash: 'Hash of the last record (SHA-256)',
  closingDiligence: 'Session closing diligence',
  closingText: (closed) =>
    `The session is closed on ${closed}. The undersigned attest that these minutes match the games played.`,
  closingOpenText: 'The session is still open at the time these minutes were issued.',
  jefeMesa: 'Floor manager (Jefe de Mesa)',
  name: 'Full name',
  date: 'Date',
  signature: 'Signature',
  footerSession: (id) => `Session ${id}`,
  footerJournal: 'Derived from the hash-chained journal',
  page: (n, total) => `Page ${n} of ${total}`,
  incidentKinds: {
    'device-failure-before-first-ball': 'Device failure before the first ball',
    'device-failure-after-first-ball': 'Device failure after the first ball',
    'ball-irregularity': 'Ball irregularity',
    'caller-error': 'Caller error',
    'unresolved-suspension': 'Unresolved suspension',
    'reader-misread': 'Automatic reader misread',
  },
  outcomes: {
    suspended: 'Game provisionally suspended',
    'void-refund': 'Game void, full refund',
    'continue-manual-with-remaining-balls': 'Continues by hand with the balls still pending',
    'call-corrected-ball-prevails': 'Call corrected; the drawn ball prevails',
  },
  ballCorrected: (from, to) => `Ball corrected: ${from} replaced by ${to}`,
  reasons: {
    'ball-irregularity': 'ball irregularity (BNG-82)',
    'caller-error': 'caller error (BNG-83)',
    'unresolved-suspension': 'failure before the first ball not resolved (BNG-80)',
    line_already_awarded: 'line already awarded',
    no_complete_row: 'no complete row',
    card_not_complete: 'card not complete',
    window_open_for_line: 'claim window open for line',
    window_open_for_bingo: 'claim window open for bingo',
    figure_not_formed: 'figure not formed by the balls drawn',
    figure_already_awarded: 'figure already awarded',
    figure_not_in_game: 'figure not played in this game',
  },
  windowOpenForFigure: (figure) => `claim window open for ${figure}`,
  bonus: {
    title: 'Additional prizes',
    prima: 'Bingo prima (BNG-57 to BNG-64)',
    onOffer: 'On offer',
    amount: 'Prima amount',
    ballLimit: 'Maximum ball',
    fundAtStart: 'Fund at start',
    deducted: 'Deducted in this game',
    accumulated: 'Accumulated',
    outcome: 'Outcome',
    outcomes: {
      won: 'Awarded',
      not_won: 'Not awarded',
      not_offered: 'Not offered',
      void: 'Game void: deduction reversed',
      pending: 'Pending',
      inactive: 'Not on offer in this game',
    },
    awarded: 'Amount awarded',
    completedAtBall: 'Balls drawn when the winning card was completed',
    atBall: 'Balls drawn at the bingo call',
    accumulatedGames: 'Accumulated games',
    paid: 'Paid from the prima',
    nextBallLimit: 'Maximum ball in the next game',
    amountChangedHere: (from, to) => `From this game the prima amount changes from ${from} to ${to} (BNG-61).`,
    primaCell: (acc) => `Prima (accumulated): ${acc}`,
    pots: 'Pots (BNG-73 (5) and (8))',
    pot: 'Pot',
    potKind: 'Kind',
    potKinds: { progressive: 'Progressive', interconnected: 'Interconnected', lucky: 'Lucky ball', prima: 'Prima' },
    contributed: 'Contribution in this game',
    potAmount: 'Pot amount',
    potAwarded: 'Awarded',
    potPaid: 'Paid',
    lucky: 'Lucky ball (bola loca, BNG-67)',
    luckyNumbers: 'Lucky ball numbers',
    luckyPending: 'Not drawn yet',
    luckyAwarded: 'Awarded for the lucky ball',
    luckyCommitment: 'Lucky ball commitment (SHA-256)',
    halls: 'Halls of the simultaneous game (BNG-100)',
    hallId: 'Hall',
    cardRange: 'Cards',
    hallSales: 'Sales',
    primaChanges: 'Bingo prima: amount changes',
    primaChangesText:
      'Prima amount changes chosen by the hall manager (Jefe de Sala), with the game number from which each applies (BNG-61).',
    previousAmount: 'Previous amount',
    newAmount: 'New amount',
    fromGame: 'From game no.',
    legendLucky: 'lucky ball number',
    legendCorrected: 'corrected ball; struck out, the number called (BNG-83)',
  },
  equipment: {
    title: 'Equipment and ball set',
    intro:
      'Ball-set changes, recounts and game-limit warnings (BNG-24, BNG-25, BNG-27), device faults and misreads, and corrected balls (BNG-83), in journal order.',
    game: 'Game',
    event: 'Event',
    detail: 'Detail',
    types: {
      'ball_set.changed': 'Ball set changed (BNG-25)',
      'ball_set.recount': 'Ball recount (BNG-27)',
      'ball_set.limit_warning': 'Game-limit warning (BNG-24)',
      'ball_set.limit_reached': 'Game limit reached (BNG-24)',
      'device.fault': 'Device fault',
      'device.misread': 'Reader misread (BNG-83)',
      'ball.corrected': 'Ball corrected (BNG-83)',
    },
    setChanged: (d) =>
      `${d.from ? `Set ${d.from} out (${d.fromState}); set` : 'Set'} ${d.to} in. Reason: ${d.reason}. Witnessed by: ${d.witness}. Reserve sets available: ${d.reserves}.`,
    setState: (label, played, limit) => `${label}, ${played} of ${limit} games`,
    oldTo: { reserve: 'back to reserve', retired: 'retired' },
    recount: (d) =>
      `Session ${d.phase === 'end' ? 'close' : 'start'}. Set ${d.label}: ${d.counted} balls counted of ${d.total}; confirmed by ${d.by}. Games played with the set: ${d.played} of ${d.limit}.`,
    limitWarning: (d) =>
      `Set ${d.label}: ${d.played} of ${d.limit} games (warning at ${d.percent} %). Reserve sets available: ${d.reserves}.`,
    limitReached: (d) =>
      `Set ${d.label}: limit of ${d.limit} games reached; it is changed before the next game drawn with balls. Reserve sets available: ${d.reserves}.`,
    fault: (d) =>
      `${d.device}: ${d.code}${d.detail ? ` (${d.detail})` : ''}${d.ball ? `; ball ${d.ball}` : ''}${d.balls ? `; balls drawn: ${d.balls}` : ''}.`,
    misread: (d) =>
      `Reader ${d.device} read ${d.read}; the ball is ${d.actual} (confidence ${d.confidence} %). Confirmed by ${d.by}.`,
    corrected: (d) => `Ball no. ${d.seq}: called ${d.from}, ${d.to} prevails (${d.kind}; ${d.source}).`,
    sources: { manual: 'entered by hand', rng: 'random number generator' },
  },
  book: {
    manualTitle: 'Manual auxiliary book',
    manualIntro:
      'Games recorded in the bound, folio-numbered manual auxiliary book because the computer system failed, from the game in which it failed until it was fixed (BNG-76).',
    manualRange: (from, resumed) =>
      resumed
        ? `System failure from game ${from}; resumed at game ${resumed}`
        : `System failure from game ${from}; not resumed in the session`,
    range: 'Games in the manual book',
    folios: 'Folios',
    reason: 'Failure',
    recordedBy: 'Recorded by',
    complaintsTitle: 'Complaints book',
    complaintsIntro:
      "Players' complaints about this session, numbered in the hall's book, with their answers (BNG-72, GEN-21). The player's personal data are in the book.",
    number: 'No.',
    game: 'Game',
    complaint: 'Complaint',
    answer: 'Answer',
    pendingAnswer: 'Awaiting an answer',
    answeredBy: (who, at) => `${who}, ${at}`,
    pendingNote: (n) => `${n} complaint(s) awaiting resolution: these minutes are kept until they are resolved.`,
  },
  remainderRuleText:
    'Equal split among the winning cards; the leftover cents go one to each card in ascending serial order.',
}

// ------------------------------------------------------------------------------------------------ formatting

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * dd/mm/yyyy HH:MM:SS; "—" when absent; the raw text when it is not a date. A time written with an offset
 * (the hall's wall clock, issue 17: see {@link minutesOnHallClock}) is shown as written; a UTC one says "UTC".
 */
export function formatMinutesDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?[+-]\d{2}:\d{2}$/.exec(iso)
  if (local) return `${local[3]}/${local[2]}/${local[1]} ${local[4]}:${local[5]}:${local[6]}`
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} UTC`
}

const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/

/**
 * Issue 17: the minutes with every UTC instant rewritten on the hall's wall clock (ISO with the zone's offset), so
 * every table prints the hall's time. Hashes, ids and other strings are left alone.
 */
export function minutesOnHallClock<T>(value: T, timeZone: string): T {
  if (typeof value === 'string') return (UTC_INSTANT.test(value) ? isoInZone(Date.parse(value), timeZone) : value) as T
  if (Array.isArray(value)) return value.map((v) => minutesOnHallClock(v, timeZone)) as T
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, minutesOnHallClock(v, timeZone)])) as T
  return value
}

function moneyFormatter(currency: string, lang: MinutesLang): (cents: number) => string {
  return (cents) => {
    try {
      return formatMoney(cents, currency, lang)
    } catch {
      // An unknown currency code must not stop the minutes from printing.
      return `${currency} ${(cents / 100).toFixed(2)}`
    }
  }
}

/** Series range as the regulation writes it: "Serie A del 00001 al 00250". */
function rangeText(L: Labels, s: MinutesGame['series'][number]): string {
  // The journal's sales.closed record names the code `series`; accept both spellings.
  const code = s.code ?? (s as { series?: string }).series ?? '?'
  const width = Math.max(5, String(s.to).length)
  const count = Math.max(0, s.to - s.from + 1)
  return L.range(code, String(s.from).padStart(width, '0'), String(s.to).padStart(width, '0'), count)
}

function describe(map: Record<string, string>, code: string | null | undefined): string {
  if (!code) return '—'
  return map[code] ?? code
}

/** A rejected claim's reason; claims.ts writes `window_open_for_<kind>`, a figure's kind included. */
function rejectionText(L: Labels, reason: string): string {
  const open = /^window_open_for_(figure:.+)$/.exec(reason)
  return open ? L.windowOpenForFigure(L.kindName(open[1])) : describe(L.reasons, reason)
}

function outcomeText(L: Labels, outcome: string): string {
  const corrected = /^ball-corrected:(\d+)->(\d+)$/.exec(outcome)
  if (corrected) return L.ballCorrected(corrected[1], corrected[2])
  return describe(L.outcomes, outcome)
}

// ------------------------------------------------------------------------------------------------ layout engine

/**
 * Renders the session minutes as an A4 portrait PDF: Spanish by default, English labels with lang 'en'.
 * Amounts use formatMoney with the hall's currency (BOB when the model carries none).
 */
export async function renderMinutesPdf(minutes: SessionMinutes, lang: MinutesLang = 'es'): Promise<Uint8Array> {
  const L = lang === 'en' ? EN : ES
  const zone = minutes.timeZone ?? getProfile(minutes.profileId)?.timeZone ?? 'UTC'
  const m = minutesOnHallClock(minutes, zone)
  const money = moneyFormatter(m.currency || 'BOB', lang)
  const int = (n: number) =>
    new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'es-BO', { maximumFractionDigits: 0 }).format(n)

  const doc = await PDFDocument.create()
  doc.setTitle(toAscii(`${L.runningTitle} ${m.sessionId}`))
  doc.setSubject(toAscii(`${m.hallName} (${m.hallId})`))
  doc.setAuthor('Bolillo')
  doc.setCreator('Bolillo')
  doc.setProducer('Bolillo / pdf-lib')
  doc.setLanguage(lang === 'en' ? 'en' : 'es')
  const f: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    mono: await doc.embedFont(StandardFonts.Courier),
    monoBold: await doc.embedFont(StandardFonts.CourierBold),
  }
  const charset = new Set(f.regular.getCharacterSet())

  const w = new Writer(doc, f, charset, (wr) => {
    const base = wr.y - 8
    wr.text(L.runningTitle, MARGIN_X, base, 'bold', 7.5, MUTED)
    wr.textRight(
      wr.fit(`${m.hallName} · ${sessionName(m)}`, 'regular', 7.5, CONTENT_W * 0.6),
      MARGIN_X + CONTENT_W,
      base,
      'regular',
      7.5,
      MUTED,
    )
    wr.hline(MARGIN_X, MARGIN_X + CONTENT_W, wr.y - 12, 0.5, RULE)
    wr.y -= 22
  })
  w.newPage()

  // ---------------------------------------------------------------- title and session header
  w.hline(MARGIN_X, MARGIN_X + CONTENT_W, w.y, 1.6, BAR)
  w.hline(MARGIN_X, MARGIN_X + CONTENT_W, w.y - 3, 0.5, BAR)
  w.textCenter(L.title, PAGE_W / 2, w.y - 24, 'bold', 17, BAR)
  w.textCenter(L.subtitle, PAGE_W / 2, w.y - 38, 'regular', 8, MUTED)
  w.hline(MARGIN_X, MARGIN_X + CONTENT_W, w.y - 47, 0.5, BAR)
  w.hline(MARGIN_X, MARGIN_X + CONTENT_W, w.y - 50, 1.6, BAR)
  w.y -= 64

  const profile = getProfile(m.profileId)
  w.heading(L.sessionData, 80)
  w.grid([
    { label: L.hall, value: m.hallName, span: 4, font: 'bold', size: 11 },
    { label: L.profile, value: profile ? `${m.profileId} · ${profile.name}` : m.profileId, span: 2 },
    { label: L.session, value: sessionName(m), span: 2 },
    { label: L.opened, value: formatMinutesDate(m.openedAt) },
    { label: L.closed, value: m.closedAt ? formatMinutesDate(m.closedAt) : L.stillOpen },
    { label: L.currency, value: m.currency || 'BOB' },
    { label: L.timeZone, value: zoneLabel(Date.parse(minutes.openedAt), zone) },
    { label: L.lastGameAnnounced, value: m.lastGameAnnounced ? L.yes : L.no },
  ])
  w.space(14)

  w.heading(L.startDiligence, 90)
  w.paragraph(L.startDiligenceText(formatMinutesDate(m.openedAt)))
  w.space(4)
  w.grid([
    { label: L.opened, value: formatMinutesDate(m.openedAt) },
    { label: L.ballsCounted, value: m.openRecount ? int(m.openRecount.ballsCounted) : L.notRecorded },
    // BNG-27: who counted, and the witness who confirmed it with their own credential.
    ...(m.openRecount?.countedBy ? [{ label: L.countedBy, value: m.openRecount.countedBy }] : []),
    {
      label: L.confirmedBy,
      value: m.openRecount?.confirmedBy || L.notRecorded,
      span: m.openRecount?.countedBy ? 1 : 2,
    },
    // BNG-41: the check of the material and installations before the session.
    {
      label: L.equipmentCheck,
      value: m.equipmentCheck
        ? L.equipmentChecked(m.equipmentCheck.reader !== undefined) +
          (m.equipmentCheck.note ? ` (${m.equipmentCheck.note})` : '')
        : L.notRecorded,
      span: 2,
    },
  ])
  if (m.closeRecount) {
    w.space(8)
    w.subheading(L.closeRecount, 40)
    w.paragraph(L.closeRecountText, { size: 8.5 })
    w.space(2)
    w.grid([
      { label: L.closed, value: m.closedAt ? formatMinutesDate(m.closedAt) : L.stillOpen },
      { label: L.ballsCounted, value: int(m.closeRecount.ballsCounted) },
      ...(m.closeRecount.countedBy ? [{ label: L.countedBy, value: m.closeRecount.countedBy }] : []),
      {
        label: L.confirmedBy,
        value: m.closeRecount.confirmedBy || L.notRecorded,
        span: m.closeRecount.countedBy ? 1 : 2,
      },
    ])
  }
  w.ensure(30 + 26)
  w.space(30)
  w.signatureLine(MARGIN_X + CONTENT_W - 210, 210, L.signatureJefeMesa, formatMinutesDate(m.openedAt))
  w.space(34)

  // ---------------------------------------------------------------- games
  w.heading(L.games, 120)
  if (m.games.length === 0) w.paragraph(L.noGames, { font: 'italic' })
  const equipment = m.equipment ?? []
  const primaChanges = m.primaChanges ?? []
  for (const g of m.games) {
    renderGame(w, L, g, money, int, extrasOf(g, equipment, primaChanges))
    w.space(16)
  }

  // ---------------------------------------------------------------- prima amount changes (BNG-61)
  if (primaChanges.length > 0) {
    w.heading(L.bonus.primaChanges, 70)
    w.paragraph(L.bonus.primaChangesText, { size: 8.5 })
    w.space(3)
    w.table(
      [
        { title: L.time, w: 1.6 },
        { title: L.bonus.previousAmount, w: 1.2, align: 'right' },
        { title: L.bonus.newAmount, w: 1.2, align: 'right', font: 'bold' },
        { title: L.bonus.fromGame, w: 1.1, align: 'center', font: 'bold' },
      ],
      primaChanges.map((c) => [
        formatMinutesDate(c.at),
        money(c.fromCents),
        money(c.toCents),
        c.fromGameNo === null ? '—' : int(c.fromGameNo),
      ]),
    )
    w.space(14)
  }

  // ---------------------------------------------------------------- ball sets and devices (BNG-24, BNG-25, BNG-27, BNG-83)
  if (equipment.length > 0) {
    const gameNo = new Map(m.games.map((g) => [g.gameId, g.orderNo]))
    w.heading(L.equipment.title, 80)
    w.paragraph(L.equipment.intro, { size: 8.5 })
    w.space(3)
    w.table(
      [
        { title: L.time, w: 1.55 },
        { title: L.equipment.game, w: 0.6, align: 'center' },
        { title: L.equipment.event, w: 1.5, font: 'bold' },
        { title: L.equipment.detail, w: 3.6 },
      ],
      equipment.map((e) => {
        const no = typeof e.details.gameId === 'string' ? gameNo.get(e.details.gameId) : undefined
        return [
          formatMinutesDate(e.at),
          no === undefined ? '—' : int(no),
          describe(L.equipment.types, e.type),
          equipmentDetail(L, e, int),
        ]
      }),
    )
    w.space(14)
  }

  // ---------------------------------------------------------------- manual auxiliary book (BNG-76)
  const manual = m.manualBook ?? []
  if (manual.length > 0) {
    w.heading(L.book.manualTitle, 70)
    w.paragraph(L.book.manualIntro, { size: 8.5 })
    w.space(3)
    w.table(
      [
        { title: L.time, w: 1.4 },
        { title: L.book.range, w: 2.6, font: 'bold' },
        { title: L.book.folios, w: 0.9 },
        { title: L.book.reason, w: 1.8 },
        { title: L.book.recordedBy, w: 1.2 },
      ],
      manual.map((e) => [
        formatMinutesDate(e.at),
        L.book.manualRange(int(e.fromGame), e.resumedAtGame === null ? null : int(e.resumedAtGame)),
        e.folios,
        e.reason,
        e.recordedBy,
      ]),
    )
    w.space(14)
  }

  // ---------------------------------------------------------------- complaints book (BNG-72, GEN-21; 004 IV.3)
  const complaints = m.complaints ?? []
  if (complaints.length > 0) {
    w.heading(L.book.complaintsTitle, 70)
    w.paragraph(L.book.complaintsIntro, { size: 8.5 })
    w.space(3)
    w.table(
      [
        { title: L.book.number, w: 0.5, align: 'right', font: 'bold' },
        { title: L.time, w: 1.3 },
        { title: L.book.game, w: 0.6, align: 'center' },
        { title: L.book.complaint, w: 2.6 },
        { title: L.book.answer, w: 2.4 },
      ],
      complaints.map((c) => [
        String(c.number),
        `${formatMinutesDate(c.at)}\n${c.recordedBy}`,
        c.gameNo === null ? '—' : int(c.gameNo),
        c.text,
        c.answer === null
          ? L.book.pendingAnswer
          : `${c.answer}\n${L.book.answeredBy(c.answeredBy ?? '', formatMinutesDate(c.answeredAt))}`,
      ]),
    )
    if ((m.pendingComplaints ?? 0) > 0) {
      w.space(3)
      w.paragraph(L.book.pendingNote(int(m.pendingComplaints ?? 0)), { font: 'bold', size: 8.5 })
    }
    w.space(14)
  }

  // ---------------------------------------------------------------- totals, remainder rule, journal
  const finished = m.games.filter((g) => g.status === 'finished').length
  const voided = m.games.filter((g) => g.status === 'void').length
  const paidLine = m.games.reduce((s, g) => s + g.linePaidCents, 0)
  const paidBingo = m.games.reduce((s, g) => s + g.bingoPaidCents, 0)
  const paidPots = m.games.reduce((s, g) => s + g.jackpotsPaidCents, 0)
  const paidFigures = m.games.reduce((s, g) => s + (g.figuresPaidCents ?? 0), 0)
  // CFG-13: figures get their own total, per figure, only in a session that played one.
  const figureTotals = new Map<string, number>()
  for (const g of m.games)
    for (const f of g.figures ?? []) figureTotals.set(f.figure, (figureTotals.get(f.figure) ?? 0) + f.paidCents)
  w.heading(L.totals, 90)
  w.grid([
    { label: L.gamesPlayed, value: int(m.games.length) },
    { label: L.gamesFinished, value: int(finished) },
    { label: L.gamesVoid, value: int(voided) },
    { label: L.cardsSold, value: int(m.totals.cardsSold) },
  ])
  w.grid(
    [
      { label: L.totalCollected, value: money(m.totals.totalCents), font: 'bold' },
      { label: L.totalPrizesPaid, value: money(m.totals.prizesPaidCents), font: 'bold' },
      { label: L.refunds, value: money(m.totals.refundCents), font: 'bold' },
    ],
    3,
  )
  if (figureTotals.size === 0)
    w.grid(
      [
        { label: L.linePaid, value: money(paidLine) },
        { label: L.bingoPaid, value: money(paidBingo) },
        { label: L.jackpotsPaid, value: money(paidPots) },
      ],
      3,
    )
  else
    w.grid([
      { label: L.linePaid, value: money(paidLine) },
      { label: L.bingoPaid, value: money(paidBingo) },
      {
        label: L.figuresPaid,
        value: [
          money(paidFigures),
          ...[...figureTotals].map(([f, cents]) => `${L.kindName(`figure:${f}`)}: ${money(cents)}`),
        ],
      },
      { label: L.jackpotsPaid, value: money(paidPots) },
    ])
  w.space(14)

  w.heading(L.remainderRule, 30)
  // The server writes the rule in Spanish; an English copy says it in English.
  w.paragraph((m.remainderRule === REMAINDER_RULE_ES ? L.remainderRuleText : m.remainderRule) || '—')
  w.space(12)

  w.heading(L.journal, 90)
  w.paragraph(L.journalText(m.journal.records, m.journal.firstSeq, m.journal.lastSeq))
  w.space(4)
  w.grid([
    { label: L.records, value: int(m.journal.records) },
    { label: L.firstSeq, value: String(m.journal.firstSeq) },
    { label: L.lastSeq, value: String(m.journal.lastSeq) },
    { label: L.session, value: sessionName(m) },
    { label: L.lastHash, value: m.journal.lastHash || '—', span: 4, font: 'mono', size: 8.5 },
  ])
  w.space(14)

  // Signed checkpoints (issue 15 point 5): seq, head hash, time and the signature, shortened to fit one line.
  w.heading(L.checkpoints, 70)
  w.paragraph(L.checkpointsText, { size: 8.5 })
  w.space(4)
  const cps = m.checkpoints ?? []
  if (cps.length === 0) w.paragraph(L.noCheckpoints, { font: 'italic', size: 8.5, color: MUTED })
  else {
    const short = (t: string, head: number, tail: number) =>
      t.length > head + tail + 1 ? `${t.slice(0, head)}…${t.slice(-tail)}` : t
    w.table(
      [
        { title: L.checkpointSeq, w: 0.8, align: 'right', font: 'bold' },
        { title: L.time, w: 1.3 },
        { title: L.reason, w: 1 },
        { title: L.checkpointHash, w: 2.4, font: 'mono' },
        { title: L.checkpointSignature, w: 1.9, font: 'mono' },
      ],
      cps.map((c) => [
        String(c.seq),
        formatMinutesDate(c.at),
        describe(L.checkpointReasons, c.reason),
        short(c.hash, 16, 8),
        `${c.keyId} ${short(c.signature, 8, 6)}`,
      ]),
    )
  }
  w.space(14)

  // ---------------------------------------------------------------- closing diligence and signatures
  w.heading(L.closingDiligence, 110)
  w.paragraph(m.closedAt ? L.closingText(formatMinutesDate(m.closedAt)) : L.closingOpenText)
  w.ensure(50 + 70)
  w.space(50)
  const sigW = 205
  for (const [x, role] of [
    [MARGIN_X, L.jefeMesa],
    [MARGIN_X + CONTENT_W - sigW, L.directorBingo],
  ] as const) {
    w.text(L.signature, x, w.y + 4, 'regular', 6.5, MUTED)
    w.signatureLine(x, sigW, role)
    w.text(`${L.name}:`, x, w.y - 32, 'regular', 7.5, MUTED)
    w.hline(x + w.width(`${L.name}:`, 'regular', 7.5) + 4, x + sigW, w.y - 33, 0.4, RULE)
    w.text(`${L.date}:`, x, w.y - 50, 'regular', 7.5, MUTED)
    w.hline(x + w.width(`${L.date}:`, 'regular', 7.5) + 4, x + sigW, w.y - 51, 0.4, RULE)
  }
  w.space(60)

  // ---------------------------------------------------------------- footers (the page count is known now)
  const total = w.pages.length
  w.pages.forEach((page, i) => {
    w.page = page
    const base = 30
    w.hline(MARGIN_X, MARGIN_X + CONTENT_W, base + 11, 0.5, RULE)
    const right = L.page(i + 1, total)
    const rightW = w.width(right, 'bold', 7.5)
    const left = w.fit(L.footerSession(sessionName(m)), 'regular', 7.5, CONTENT_W * 0.45)
    w.text(left, MARGIN_X, base, 'regular', 7.5, MUTED)
    w.textRight(right, MARGIN_X + CONTENT_W, base, 'bold', 7.5, INK)
    const center = `${L.footerJournal} · ${m.journal.firstSeq}-${m.journal.lastSeq}`
    const centerW = w.width(center, 'regular', 7)
    const leftW = w.width(left, 'regular', 7.5)
    if (
      PAGE_W / 2 - centerW / 2 > MARGIN_X + leftW + 12 &&
      PAGE_W / 2 + centerW / 2 < MARGIN_X + CONTENT_W - rightW - 12
    )
      w.textCenter(center, PAGE_W / 2, base, 'regular', 7, MUTED)
  })

  return doc.save()
}

/** Document metadata is stored as PDF text strings; keep it plain. */
function toAscii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '?')
}

/** What the session carries about one game outside the game itself. */
interface GameExtras {
  /** Corrected balls by extraction order, with the number first called (BNG-83). */
  corrected: Map<number, number>
  /** Prima amount changes that apply from this game on (BNG-61). */
  primaChanges: NonNullable<SessionMinutes['primaChanges']>
}

type EquipmentEntry = NonNullable<SessionMinutes['equipment']>[number]

function extrasOf(
  g: MinutesGame,
  equipment: readonly EquipmentEntry[],
  primaChanges: NonNullable<SessionMinutes['primaChanges']>,
): GameExtras {
  const corrected = new Map<number, number>()
  for (const e of equipment) {
    if (e.type !== 'ball.corrected' || e.details.gameId !== g.gameId) continue
    const seq = Number(e.details.seq)
    const from = Number(e.details.from)
    // A ball corrected twice keeps the number called first.
    if (Number.isInteger(seq) && Number.isInteger(from) && !corrected.has(seq)) corrected.set(seq, from)
  }
  return { corrected, primaChanges: primaChanges.filter((c) => c.fromGameNo === g.orderNo) }
}

/** One line of the equipment table, from the journal record's payload (ball-sets.ts, blowers.ts, bingo.ts). */
function equipmentDetail(L: Labels, e: EquipmentEntry, int: (n: number) => string): string {
  const E = L.equipment
  const d = e.details
  const s = (v: unknown): string =>
    v === null || v === undefined || v === '' ? '—' : typeof v === 'number' ? int(v) : String(v)
  const obj = (v: unknown): Record<string, unknown> | null =>
    v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null
  switch (e.type) {
    case 'ball_set.changed': {
      const from = obj(d.from)
      const to = obj(d.to)
      return E.setChanged({
        from: from ? E.setState(s(from.label), s(from.gamesPlayed), s(from.gameLimit)) : null,
        fromState: from ? describe(E.oldTo, typeof from.to === 'string' ? from.to : null) : '',
        to: to ? E.setState(s(to.label), s(to.gamesPlayed), s(to.gameLimit)) : '—',
        reason: s(d.reason),
        witness: s(d.witnessedBy),
        reserves: s(d.reservesLeft),
      })
    }
    case 'ball_set.recount':
      return E.recount({
        phase: s(d.phase),
        label: s(d.label),
        counted: s(d.ballsCounted),
        total: s(d.ballCount),
        by: s(d.confirmedBy),
        played: s(d.gamesPlayed),
        limit: s(d.gameLimit),
      })
    case 'ball_set.limit_warning':
      return E.limitWarning({
        label: s(d.label),
        played: s(d.gamesPlayed),
        limit: s(d.gameLimit),
        percent: s(d.warnPercent),
        reserves: s(d.reservesLeft),
      })
    case 'ball_set.limit_reached':
      return E.limitReached({ label: s(d.label), limit: s(d.gameLimit), reserves: s(d.reservesLeft) })
    case 'device.fault':
      return E.fault({
        device: s(d.deviceId),
        code: s(d.code),
        detail: d.detail ? String(d.detail) : '',
        balls: d.ballsDrawn == null ? null : s(d.ballsDrawn),
        ball: d.ball == null ? null : s(d.ball),
      })
    case 'device.misread':
      return E.misread({
        device: s(d.deviceId),
        read: s(d.readBall),
        actual: s(d.actualBall),
        confidence: s(d.confidence),
        by: s(d.confirmedBy),
      })
    case 'ball.corrected':
      return E.corrected({
        seq: s(d.seq),
        from: s(d.from),
        to: s(d.to),
        kind: describe(L.incidentKinds, typeof d.kind === 'string' ? d.kind : null),
        source: describe(E.sources, typeof d.source === 'string' ? d.source : null),
      })
    default:
      // A record type this renderer does not know yet: its plain fields, so nothing recorded is left out.
      return (
        Object.entries(d)
          .filter(([k, v]) => k !== 'gameId' && v !== null && typeof v !== 'object')
          .map(([k, v]) => `${k}: ${s(v)}`)
          .join('; ') || '—'
      )
  }
}

/** Additional prizes of one game: prima (BNG-64, BNG-61), pots (BNG-73 (5)/(8)) and lucky ball (BNG-67). */
function renderBonus(
  w: Writer,
  L: Labels,
  g: MinutesGame,
  x: GameExtras,
  money: (c: number) => string,
  int: (n: number) => string,
): void {
  const B = L.bonus
  const p = g.prima ?? null
  const lucky = g.luckyBall ?? null
  if (!p && g.jackpots.length === 0 && !lucky && x.primaChanges.length === 0) return
  const opt = (v: number | undefined) => (v === undefined ? '—' : money(v))
  w.space(8)
  w.subheading(B.title, 60)

  if (p) {
    const cells: Cell[] = [
      { label: B.onOffer, value: p.active ? L.yes : L.no, font: 'bold' },
      { label: B.amount, value: money(p.amountCents) },
      { label: B.ballLimit, value: int(p.ballLimit) },
      { label: B.fundAtStart, value: money(p.fundAtStartCents) },
      { label: B.deducted, value: money(p.deductedCents), font: 'bold' },
      { label: B.accumulated, value: money(p.accumulatedCents), font: 'bold' },
    ]
    const outcome = p.outcome ?? (p.active ? 'pending' : 'inactive')
    if (outcome === 'won') {
      const completed = p.completedAtBall ?? p.atBall
      const balls =
        completed === null
          ? '—'
          : p.atBall !== null && p.atBall !== completed
            ? `${int(completed)} (${int(p.atBall)})`
            : int(completed)
      cells.push(
        { label: B.outcome, value: B.outcomes.won, font: 'bold' },
        { label: B.awarded, value: money(p.awardedCents), font: 'bold' },
        {
          label:
            p.atBall !== null && p.atBall !== completed
              ? `${B.completedAtBall} (${B.atBall.toLowerCase()})`
              : B.completedAtBall,
          value: balls,
          font: 'bold',
        },
        { label: B.accumulatedGames, value: p.accumulatedGames === null ? '—' : int(p.accumulatedGames), font: 'bold' },
        { label: B.paid, value: money(p.paidCents) },
        { label: B.nextBallLimit, value: p.nextBallLimit === null ? '—' : int(p.nextBallLimit) },
      )
    } else if (outcome === 'not_won') {
      cells.push(
        { label: B.outcome, value: B.outcomes.not_won, font: 'bold', span: 2 },
        { label: B.atBall, value: p.atBall === null ? '—' : int(p.atBall), span: 2 },
        { label: B.nextBallLimit, value: p.nextBallLimit === null ? '—' : int(p.nextBallLimit), span: 2 },
      )
    } else if (outcome !== 'inactive') {
      cells.push({ label: B.outcome, value: B.outcomes[outcome], font: 'bold', span: 6 })
    }
    w.minorHeading(B.prima, w.gridHeight(cells, 6))
    w.grid(cells, 6)
  }
  for (const c of x.primaChanges) {
    w.space(3)
    w.paragraph(B.amountChangedHere(money(c.fromCents), money(c.toCents)), { font: 'bold', size: 8, color: BAR })
  }

  if (g.jackpots.length > 0) {
    w.space(p ? 6 : 0)
    w.minorHeading(B.pots, 30)
    w.table(
      [
        { title: B.pot, w: 2.1, font: 'bold' },
        { title: B.potKind, w: 1.1 },
        { title: B.contributed, w: 1.2, align: 'right' },
        { title: B.potAmount, w: 1.2, align: 'right' },
        { title: B.potAwarded, w: 1.2, align: 'right' },
        { title: B.potPaid, w: 1.1, align: 'right' },
      ],
      g.jackpots.map((j) => [
        j.name,
        j.kind ? describe(B.potKinds, j.kind) : '—',
        opt(j.contributedCents),
        money(j.amountCents),
        opt(j.awardedCents),
        opt(j.paidCents),
      ]),
    )
  }

  if (lucky) {
    const luckyPots = g.jackpots.filter((j) => j.kind === 'lucky')
    const numbers =
      lucky.numbers === null
        ? B.luckyPending
        : lucky.numbers.length === 0
          ? '—'
          : lucky.numbers.map((n) => int(n)).join(' · ')
    const cells: Cell[] = [
      {
        label: B.luckyNumbers,
        value: numbers,
        font: lucky.numbers === null ? 'italic' : 'bold',
        size: lucky.numbers === null ? 9 : 11,
      },
      {
        label: B.luckyAwarded,
        value: luckyPots.length > 0 ? money(luckyPots.reduce((t, j) => t + (j.awardedCents ?? 0), 0)) : '—',
      },
      { label: B.luckyCommitment, value: lucky.commitment || '—', span: 4, font: 'mono', size: 8 },
    ]
    w.space(6)
    w.minorHeading(B.lucky, w.gridHeight(cells, 6))
    w.grid(cells, 6)
  }
}

const GAME_CLOSING_H = 26 + 14

function renderGame(
  w: Writer,
  L: Labels,
  g: MinutesGame,
  money: (c: number) => string,
  int: (n: number) => string,
  x: GameExtras,
): void {
  // Sales, prizes and times (BNG-73 (1)-(8), BNG-78 (1)-(5)).
  const pots = g.jackpots.map((j) => `${j.name}: ${money(j.amountCents)}`)
  if (g.prima) pots.push(L.bonus.primaCell(money(g.prima.accumulatedCents)))
  const jackpots = pots.length > 0 ? pots : [L.noJackpots]
  const fields: Cell[] = [
    {
      label: L.seriesSold,
      value: g.series.length > 0 ? g.series.map((s) => rangeText(L, s)) : [L.noSeries],
      span: 4,
      font: 'bold',
    },
    { label: L.faceValue, value: money(g.faceValueCents) },
    { label: L.cardsSold, value: int(g.cardsSold) },
    { label: L.totalCollected, value: money(g.totalCents), font: 'bold' },
    { label: L.ballsCount, value: int(g.ballsDrawn) },
    { label: L.linePool, value: money(g.linePoolCents) },
    { label: L.bingoPool, value: money(g.bingoPoolCents) },
    { label: L.jackpots, value: jackpots, span: 2 },
    { label: L.linePaid, value: money(g.linePaidCents) },
    { label: L.bingoPaid, value: money(g.bingoPaidCents) },
    { label: L.jackpotsPaid, value: money(g.jackpotsPaidCents) },
    { label: L.refund, value: money(g.refundCents), font: g.refundCents > 0 ? 'bold' : 'regular' },
    // CFG-13: the game's figures, each by its name, with its pool and what was paid for it.
    ...((g.figures ?? []).length > 0
      ? [
          {
            label: L.figurePools,
            value: (g.figures ?? []).map((f) => `${L.kindName(`figure:${f.figure}`)}: ${money(f.poolCents)}`),
            span: 2,
          },
          {
            label: L.figuresPaid,
            value: (g.figures ?? []).map((f) => `${L.kindName(`figure:${f.figure}`)}: ${money(f.paidCents)}`),
            span: 2,
          },
        ]
      : []),
    { label: L.startedAt, value: formatMinutesDate(g.startedAt) },
    { label: L.firstBallAt, value: formatMinutesDate(g.firstBallAt) },
    { label: L.endedAt, value: formatMinutesDate(g.endedAt) },
    { label: L.gameStatus, value: L.status[g.status], font: 'bold' },
  ]

  // Game bar; a continuation bar repeats the game number when the block runs onto a new page.
  const barH = 21
  w.ensure(barH + Math.min(w.gridHeight(fields), KEEP_TOGETHER))
  w.rect(MARGIN_X, w.y, CONTENT_W, barH, BAR, undefined)
  w.text(L.game(g.orderNo), MARGIN_X + 8, w.y - 14.5, 'bold', 11, WHITE)
  const statusText = L.status[g.status].toUpperCase()
  let right = MARGIN_X + CONTENT_W - 8
  w.textRight(statusText, right, w.y - 14.5, 'bold', 9, WHITE)
  right -= w.width(statusText, 'bold', 9) + 10
  if (g.lastGame) {
    const tagW = w.width(L.lastGame, 'bold', 7.5) + 10
    w.rect(right - tagW, w.y - 4.5, tagW, 12.5, BINGO_SHADE, undefined)
    w.textCenter(L.lastGame, right - tagW / 2, w.y - 13.6, 'bold', 7.5, BAR)
    right -= tagW + 10
  }
  const idLabel = `${L.gameId}: `
  const idX = MARGIN_X + 8 + w.width(L.game(g.orderNo), 'bold', 11) + 14
  const idValueX = idX + w.width(idLabel, 'regular', 7.5)
  w.text(idLabel, idX, w.y - 14, 'regular', 7.5, BAR_LIGHT)
  w.text(w.fit(g.gameId, 'bold', 7.5, Math.max(20, right - idValueX)), idValueX, w.y - 14, 'bold', 7.5, BAR_LIGHT)
  w.y -= barH
  w.continuation = () => {
    const h = 15
    w.rect(MARGIN_X, w.y, CONTENT_W, h, BAR_LIGHT, undefined)
    w.text(L.gameContinued(g.orderNo), MARGIN_X + 8, w.y - 10.5, 'bold', 8, BAR)
    w.textRight(L.status[g.status], MARGIN_X + CONTENT_W - 8, w.y - 10.5, 'regular', 8, BAR)
    w.y -= h + 6
  }

  w.grid(fields)

  // Halls of a simultaneous game (BNG-100), each with its card range and sales.
  if (g.halls && g.halls.length > 0) {
    w.space(6)
    w.subheading(L.bonus.halls)
    w.table(
      [
        { title: L.bonus.hallId, w: 1.8, font: 'bold' },
        { title: L.bonus.cardRange, w: 1.6, align: 'center' },
        { title: L.cardsSold, w: 1, align: 'right' },
        { title: L.bonus.hallSales, w: 1.2, align: 'right' },
      ],
      g.halls.map((h) => [
        h.hallId,
        `${int(h.fromCardNo)} - ${int(h.toCardNo)}`,
        int(h.cardsSold),
        money(h.salesCents),
      ]),
    )
  }

  // Void: reason and refund, highlighted (BNG-80, BNG-82, BNG-83, BNG-86).
  if (g.status === 'void') {
    w.space(6)
    const lines = w.wrap(
      L.voidBox(describe(L.reasons, g.voidReason), money(g.refundCents)),
      'bold',
      8.5,
      CONTENT_W - 16,
    )
    if (g.annulment)
      lines.push(
        ...w.wrap(
          L.annulledBy(g.annulment.requestedBy, g.annulment.confirmedBy, g.annulment.reason),
          'bold',
          8.5,
          CONTENT_W - 16,
        ),
      )
    if (g.refundsPaid)
      lines.push(
        ...w.wrap(
          L.refundsPaid(g.refundsPaid.cards, g.refundCards ?? g.cardsSold, money(g.refundsPaid.amountCents)),
          'bold',
          8.5,
          CONTENT_W - 16,
        ),
      )
    const h = 8 + lines.length * 11
    w.ensure(h)
    w.rect(MARGIN_X, w.y, CONTENT_W, h, VOID_FILL, VOID_RULE, 0.8)
    lines.forEach((t, i) => w.text(t, MARGIN_X + 8, w.y - 5 - 8 * 0.85 - i * 11, 'bold', 8.5, VOID_RULE))
    w.y -= h
  }

  // Winning cards (BNG-73 (9)).
  w.space(8)
  w.subheading(L.winners)
  if (g.winners.length === 0) {
    w.paragraph(L.noWinners, { font: 'italic', size: 8.5, color: MUTED })
  } else {
    const ordered = [...g.winners].sort(
      (a, b) =>
        (a.kind === b.kind ? 0 : a.kind === 'line' ? -1 : 1) ||
        a.atBall - b.atBall ||
        (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0),
    )
    w.table(
      [
        { title: L.kind, w: 1.1 },
        { title: L.card, w: 1.6, font: 'bold' },
        { title: L.atBall, w: 1.5, align: 'center' },
        { title: L.winningBall, w: 1.1, align: 'center' },
        { title: L.amount, w: 1.5, align: 'right' },
      ],
      ordered.map((x) => [
        L.kindName(x.kind),
        x.serial,
        int(x.atBall),
        g.balls[x.atBall - 1] !== undefined ? String(g.balls[x.atBall - 1]) : '—',
        money(x.amountCents),
      ]),
    )
    for (const kind of ['line', 'bingo'] as const) {
      const tied = g.winners.filter((x) => x.kind === kind)
      if (tied.length > 1) {
        w.space(3)
        w.paragraph(L.tie(L.kindName(kind), tied.length, money(tied.reduce((s, x) => s + x.amountCents, 0))), {
          font: 'italic',
          size: 7.8,
          color: MUTED,
        })
      }
    }
  }

  // Prima, pots and lucky ball (BNG-64, BNG-61, BNG-73 (5)/(8), BNG-67).
  renderBonus(w, L, g, x, money, int)

  // Balls in extraction order, numbered, with the winning balls shaded.
  w.space(8)
  w.subheading(L.ballsDrawn(g.ballsDrawn), Math.min(ballGridHeight(g.balls.length), 240))
  if (g.balls.length === 0) w.paragraph(L.noBalls, { font: 'italic', size: 8.5, color: MUTED })
  else renderBalls(w, L, g, x)

  // Draw commitment and sales digest (bolillo-draw-v1).
  w.space(8)
  w.grid([
    { label: L.commitment, value: g.commitment || '—', span: 4, font: 'mono', size: 8 },
    { label: L.salesDigest, value: g.salesDigest || '—', span: 4, font: 'mono', size: 8 },
  ])
  // bolillo-draw-v2: the beacon round and its randomness; a demo beacon is said in plain words (DESIGN.md point 9).
  if (g.beacon) {
    w.grid([
      {
        label: L.beaconRound,
        value: `${g.beacon.round}${g.beacon.scheme === 'drand-quicknet' ? ' · drand quicknet' : ''}`,
        span: 4,
      },
      { label: L.beaconRandomness, value: g.beacon.randomness ?? L.beaconPending, span: 4, font: 'mono', size: 8 },
    ])
    if (g.beacon.demo) w.paragraph(L.beaconDemo, { font: 'bold', size: 9, color: rgb(0.75, 0.35, 0) })
  }

  // Incidents (BNG-74, BNG-80 to BNG-86), each signed by the Jefe de Mesa and the Director de Bingo.
  w.space(8)
  // With nothing after it but the closing signature, keep that signature on the same page as this heading.
  w.subheading(L.incidents, g.incidents.length === 0 && g.rejectedClaims.length === 0 ? 12 + GAME_CLOSING_H : 30)
  if (g.incidents.length === 0) {
    w.paragraph(L.noIncidents, { font: 'italic', size: 8.5, color: MUTED })
  } else {
    w.table(
      [
        // The rule's ID ("BNG-81") must fit on one line beside the signatures column (BNG-74).
        { title: L.time, w: 1.3 },
        { title: L.incidentKind, w: 1.25 },
        { title: L.outcome, w: 1.3 },
        { title: L.rule, w: 0.8, align: 'center' },
        { title: L.note, w: 1.5 },
        { title: L.signedBy, w: 1.6 },
      ],
      g.incidents.map((i) => [
        formatMinutesDate(i.at),
        describe(L.incidentKinds, i.kind),
        outcomeText(L, i.outcome),
        i.rule || '—',
        [i.note, i.cctv ? L.cctvOf(i.cctv.cameraId, i.cctv.cctvRef) : ''].filter(Boolean).join(' · ') || '—',
        i.signedBy ? L.signedNames(i.signedBy.jefeMesa, i.signedBy.director) : '—',
      ]),
    )
    w.ensure(26 + 24)
    w.space(26)
    w.text(L.incidentSignatures, MARGIN_X, w.y + 2, 'regular', 7.5, MUTED)
    const x0 = MARGIN_X + w.width(L.incidentSignatures, 'regular', 7.5) + 14
    const sw = (MARGIN_X + CONTENT_W - x0 - 20) / 2
    w.signatureLine(x0, sw, L.jefeMesa)
    w.signatureLine(x0 + sw + 20, sw, L.directorBingo)
    w.space(14)
  }

  // Rejected claims.
  if (g.rejectedClaims.length > 0) {
    w.space(8)
    w.subheading(L.rejectedClaims)
    w.table(
      [
        { title: L.card, w: 1.4, font: 'bold' },
        { title: L.kind, w: 1 },
        { title: L.atClaim, w: 1.3, align: 'center' },
        { title: L.reason, w: 3 },
      ],
      g.rejectedClaims.map((c) => [c.serial, L.kindName(c.kind), int(c.atBall), rejectionText(L, c.reason)]),
    )
  }

  // Closing entry of the game, signed by the Jefe de Mesa (BNG-73).
  w.ensure(GAME_CLOSING_H)
  w.space(26)
  const sigW = 170
  const sigX = MARGIN_X + CONTENT_W - sigW
  w.textRight(L.gameClosingSignature, sigX - 8, w.y + 2, 'regular', 7.5, MUTED)
  w.hline(sigX, sigX + sigW, w.y, 0.6, INK)
  // Signed in the system by the jefe logged in (game.closing_signed): her name over the line, the time of signing.
  if (g.closing) w.text(g.closing.signedBy, sigX + 4, w.y + 3, 'regular', 8, INK)
  w.text(formatMinutesDate(g.closing?.at ?? g.endedAt), sigX, w.y - 9, 'regular', 7, MUTED)
  w.y -= 12
  w.continuation = null
}

const BALLS_PER_ROW = 20
const BALL_CELL_H = 19
const ballGridHeight = (n: number) => (n === 0 ? 14 : Math.ceil(n / BALLS_PER_ROW) * BALL_CELL_H + 13)

function renderBalls(w: Writer, L: Labels, g: MinutesGame, extras: GameExtras): void {
  const cellW = CONTENT_W / BALLS_PER_ROW
  const perRow = BALLS_PER_ROW
  const cellH = BALL_CELL_H
  const lineAt = new Set(g.winners.filter((x) => x.kind === 'line').map((x) => x.atBall))
  const bingoAt = new Set(g.winners.filter((x) => x.kind === 'bingo').map((x) => x.atBall))
  const lucky = new Set(g.luckyBall?.numbers ?? [])
  const calledAs = (order: number, ball: number) => {
    const was = extras.corrected.get(order)
    return was !== undefined && was !== ball ? was : null
  }
  // Keep the grid (and its legend) on one page when it is not taller than a third of a page.
  const gridH = ballGridHeight(g.balls.length)
  if (gridH < (PAGE_H - MARGIN_TOP - CONTENT_BOTTOM) / 3) w.ensure(gridH)
  for (let start = 0; start < g.balls.length; start += perRow) {
    w.ensure(cellH)
    const row = g.balls.slice(start, start + perRow)
    row.forEach((ball, i) => {
      const order = start + i + 1
      const x = MARGIN_X + i * cellW
      const was = calledAs(order, ball)
      const shade = bingoAt.has(order)
        ? BINGO_SHADE
        : lineAt.has(order)
          ? LINE_SHADE
          : was !== null
            ? VOID_FILL
            : undefined
      w.rect(x, w.y, cellW, cellH, shade, RULE, 0.4)
      // The lucky-ball numbers are framed (BNG-67).
      if (lucky.has(ball)) w.rect(x + 1.3, w.y - 1.3, cellW - 2.6, cellH - 2.6, undefined, LUCKY_RULE, 1.2)
      w.text(String(order), x + 2.4, w.y - 6, 'regular', 4.6, MUTED)
      // A corrected ball shows the number first called, struck out, in the corner (BNG-83).
      if (was !== null) {
        const t = String(was)
        const tw = w.width(t, 'bold', 5.2)
        const tx = x + cellW - 2.6 - tw
        w.text(t, tx, w.y - 6.2, 'bold', 5.2, VOID_RULE)
        w.hline(tx - 0.6, tx + tw + 0.6, w.y - 4.4, 0.6, VOID_RULE)
      }
      w.textCenter(String(ball), x + cellW / 2 + 1.5, w.y - 14.6, 'bold', 9.5, INK)
    })
    w.y -= cellH
  }
  const drawn = new Set(g.balls)
  const legend = [
    { label: L.legendLine, show: lineAt.size > 0, fill: LINE_SHADE, border: RULE, width: 0.4 },
    { label: L.legendBingo, show: bingoAt.size > 0, fill: BINGO_SHADE, border: RULE, width: 0.4 },
    {
      label: L.bonus.legendLucky,
      show: [...lucky].some((n) => drawn.has(n)),
      fill: undefined,
      border: LUCKY_RULE,
      width: 1.2,
    },
    {
      label: L.bonus.legendCorrected,
      show: g.balls.some((b, i) => calledAs(i + 1, b) !== null),
      fill: VOID_FILL,
      border: VOID_RULE,
      width: 0.4,
    },
  ].filter((l) => l.show)
  if (legend.length > 0) {
    w.ensure(12)
    let x = MARGIN_X
    for (const l of legend) {
      const itemW = 13 + w.width(l.label, 'regular', 7)
      if (x > MARGIN_X && x + itemW > MARGIN_X + CONTENT_W) {
        w.y -= 11
        w.ensure(12)
        x = MARGIN_X
      }
      const base = w.y - 9
      w.rect(x, base + 7, 9, 7, l.fill, l.border, l.width)
      w.text(l.label, x + 13, base, 'regular', 7, MUTED)
      x += itemW + 18
    }
    w.y -= 13
  }
}
