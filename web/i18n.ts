/**
 * Screen texts: Spanish first, English with `?lang=en` (DESIGN.md: Spanish-speaking markets first).
 * One table per language with the same keys, so a missing translation is a type error.
 */
export type Lang = 'es' | 'en'

const es = {
  // hall display
  waitingGame: 'Esperando la próxima partida',
  hall: 'Sala',
  game: 'Partida',
  gameNo: 'Partida nº',
  lastGame: 'ÚLTIMA PARTIDA',
  currentBall: 'Bola',
  extractions: 'Extracciones',
  extractionOf: 'de',
  lastBalls: 'Últimas bolas',
  cardsSold: 'Cartones vendidos',
  faceValue: 'Valor del cartón',
  linePrize: 'Premio línea',
  bingoPrize: 'Premio bingo',
  totalCollected: 'Recaudación',
  prima: 'Prima de bingo',
  primaLimit: 'hasta la bola',
  primaInactive: 'acumulando fondo',
  jackpots: 'Pozo',
  ofPrice: 'del precio',
  luckyBall: 'Bola loca',
  atClose: 'al cierre de venta',
  commitment: 'Compromiso del sorteo',
  commitmentHint: 'SHA-256 de la semilla, publicado antes de la venta',
  // bolillo-draw-v2: the public randomness beacon round fixed by the close of sales
  beaconRound: 'Ronda del faro',
  beaconAwaiting: 'esperando su publicación',
  beaconRandomness: 'Aleatoriedad del faro',
  beaconPublic: 'faro público drand',
  beaconDemo: 'FARO DE DEMOSTRACIÓN (no público)',
  beaconWaiting: 'Esperando la ronda {round} del faro público…',
  winnerLine: 'LÍNEA',
  winnerBingo: 'BINGO',
  card: 'Cartón',
  prize: 'Premio',
  prizeShared: 'a repartir entre',
  cards: 'cartones',
  // Issue 29 point 10: the extraction's number (the 75th ball drawn), not a ball's number.
  atBallN: 'en la extracción',
  paid: 'PAGADO',
  claimRejected: 'SIN PREMIO',
  checked: 'Comprobado',
  offline: 'SIN CONEXIÓN · reconectando…',
  soundOn: 'Sonido activado',
  soundOff: 'Activar sonido',
  voice: 'Voz',
  defaultVoice: 'Voz predeterminada',
  notFound: 'Sala o partida no encontrada',
  draw: 'Sorteo',
  drawRng: 'generador aleatorio',
  drawManual: 'bombo',
  voidReason: 'Motivo',
  refund: 'Se devuelve el importe íntegro de los cartones',
  suspendedHint: 'Partida suspendida provisionalmente por una incidencia',
  onSaleHint: 'Adquiera sus cartones',
  announcedHint: 'La venta abre en breve',
  salesClosedHint: 'Comienza la partida',
  // states
  st_announced: 'PRÓXIMA PARTIDA',
  st_on_sale: 'EN VENTA',
  st_sales_closed: 'VENTA CERRADA',
  st_drawing: 'EN JUEGO',
  st_checking: 'COMPROBANDO',
  st_line_window: 'LÍNEA',
  st_bingo_window: 'BINGO',
  st_finished: 'PARTIDA TERMINADA',
  st_suspended: 'SUSPENDIDA',
  st_void: 'PARTIDA ANULADA',
  anyMoreLine: '¿ALGUNA LÍNEA MÁS?',
  anyMoreBingo: '¿ALGÚN BINGO MÁS?',
  // claim reasons
  r_no_complete_row: 'ninguna fila completa',
  r_card_not_complete: 'el cartón no está completo',
  r_line_already_awarded: 'la línea ya fue premiada',
  r_window_open_for_line: 'está abierta la comprobación de línea',
  r_window_open_for_bingo: 'está abierta la comprobación de bingo',
}

export type TextKey = keyof typeof es

const en: Record<TextKey, string> = {
  waitingGame: 'Waiting for the next game',
  hall: 'Hall',
  game: 'Game',
  gameNo: 'Game no.',
  lastGame: 'LAST GAME',
  currentBall: 'Ball',
  extractions: 'Balls drawn',
  extractionOf: 'of',
  lastBalls: 'Last balls',
  cardsSold: 'Cards sold',
  faceValue: 'Card price',
  linePrize: 'Line prize',
  bingoPrize: 'Bingo prize',
  totalCollected: 'Takings',
  prima: 'Bingo bonus',
  primaLimit: 'up to ball',
  primaInactive: 'fund building up',
  jackpots: 'Jackpot',
  ofPrice: 'of the price',
  luckyBall: 'Lucky ball',
  atClose: 'at close of sales',
  commitment: 'Draw commitment',
  commitmentHint: 'SHA-256 of the seed, published before sales',
  beaconRound: 'Beacon round',
  beaconAwaiting: 'awaiting publication',
  beaconRandomness: 'Beacon randomness',
  beaconPublic: 'drand public beacon',
  beaconDemo: 'DEMO BEACON (not public)',
  beaconWaiting: 'Waiting for round {round} of the public beacon…',
  winnerLine: 'LINE',
  winnerBingo: 'BINGO',
  card: 'Card',
  prize: 'Prize',
  prizeShared: 'shared among',
  cards: 'cards',
  atBallN: 'at draw',
  paid: 'PAID',
  claimRejected: 'NOT A WINNER',
  checked: 'Checked',
  offline: 'OFFLINE · reconnecting…',
  soundOn: 'Sound on',
  soundOff: 'Turn sound on',
  voice: 'Voice',
  defaultVoice: 'Default voice',
  notFound: 'Hall or game not found',
  draw: 'Draw',
  drawRng: 'random generator',
  drawManual: 'blower',
  voidReason: 'Reason',
  refund: 'Cards are refunded in full',
  suspendedHint: 'Game provisionally suspended after an incident',
  onSaleHint: 'Buy your cards now',
  announcedHint: 'Sales open shortly',
  salesClosedHint: 'The game is about to start',
  st_announced: 'NEXT GAME',
  st_on_sale: 'ON SALE',
  st_sales_closed: 'SALES CLOSED',
  st_drawing: 'IN PLAY',
  st_checking: 'CHECKING A CLAIM',
  st_line_window: 'LINE',
  st_bingo_window: 'BINGO',
  st_finished: 'GAME OVER',
  st_suspended: 'SUSPENDED',
  st_void: 'GAME ANNULLED',
  anyMoreLine: 'ANY MORE LINES?',
  anyMoreBingo: 'ANY MORE BINGOS?',
  r_no_complete_row: 'no complete row',
  r_card_not_complete: 'the card is not complete',
  r_line_already_awarded: 'the line was already awarded',
  r_window_open_for_line: 'the line check is open',
  r_window_open_for_bingo: 'the bingo check is open',
}

const tables: Record<Lang, Record<TextKey, string>> = { es, en }

/** The text for `key` in `lang`. */
export function text(lang: Lang, key: TextKey): string {
  return tables[lang][key]
}

/** `?lang=en` picks English; anything else is Spanish. */
export function langFromSearch(search: string): Lang {
  return new URLSearchParams(search).get('lang')?.toLowerCase().startsWith('en') ? 'en' : 'es'
}

/** BCP 47 tag for Intl and speech synthesis. */
export function localeOf(lang: Lang): string {
  return lang === 'en' ? 'en-GB' : 'es-ES'
}
