/**
 * Ticket layout: a ticket (bingo card, credit voucher, payout receipt) becomes a `PrintDoc`, a list of blocks
 * (text, field pairs, rules, the card grid, a QR payload, write-in fields, cut). `flowDoc` then lays the blocks out
 * on the character columns of a thermal roll, which every renderer shares: ESC/POS (escpos.ts) prints the lines,
 * the PDF (pdf.ts) and the screen preview (preview.ts) draw them in the same places. A change here shows up on
 * paper, in the PDF and on screen alike (STYLE.md §7).
 *
 * Pure: no I/O, no clock; dates arrive as ISO strings and are formatted in the time zone given (or the process's).
 *
 * Paper: 80 mm rolls print 576 dots (72 mm) in 48 columns of font A (12 x 24 dots); 58 mm rolls print 384 dots
 * (48 mm) in 32 columns.
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import { FIGURE_NAMES, figureOfKind } from '../../server/src/bingo/patterns.ts'

/** A figure prize kind's name in the language (null for any other kind). */
function figureName(kind: string, lang: 'es' | 'en'): string | null {
  const f = figureOfKind(kind)
  return f ? FIGURE_NAMES[f][lang] : null
}

export type Paper = '80mm' | '58mm'
export type Lang = 'es' | 'en'
export type Align = 'left' | 'center' | 'right'
/** Character size: tall = double height, large = double height and width (half the columns). */
export type TextSize = 'normal' | 'tall' | 'large'

/** Geometry of a roll in printer dots (203 dpi: 8 dots per millimetre). */
export const PAPER = {
  '80mm': { columns: 48, printableDots: 576, paperMm: 80, qrModuleDots: 6 },
  '58mm': { columns: 32, printableDots: 384, paperMm: 58, qrModuleDots: 5 },
} as const satisfies Record<Paper, { columns: number; printableDots: number; paperMm: number; qrModuleDots: number }>
export const DOTS_PER_MM = 8
/** Font A cell and the default line pitch (ESC 2: 30 dots). */
export const CHAR_DOTS = { width: 12, height: 24, line: 30 } as const

export type PrintBlock =
  | { type: 'text'; text: string; align?: Align; size?: TextSize; bold?: boolean; invert?: boolean }
  | { type: 'pair'; left: string; right: string; bold?: boolean }
  | { type: 'rule'; style?: 'single' | 'double' }
  | { type: 'grid'; rows: number[][] }
  | { type: 'qr'; payload: string }
  | { type: 'writeIn'; label: string }
  | { type: 'feed'; lines: number }

/** One cut piece of paper. */
export interface PrintDoc {
  kind: 'card' | 'voucher' | 'payout' | 'instant' | 'lotto'
  /** Short name for files and logs, e.g. "card-A-00012". */
  name: string
  paper: Paper
  blocks: PrintBlock[]
}

/** A line of the roll once laid out: what the printer prints from the left margin, column by column. */
export type FlowLine =
  | { type: 'text'; text: string; align: Align; size: TextSize; bold: boolean; invert: boolean }
  | { type: 'rule'; style: 'single' | 'double' }
  | { type: 'grid'; rows: number[][] }
  | { type: 'qr'; payload: string }
  | { type: 'feed'; lines: number }

// ------------------------------------------------------------------------------------------------ tickets

export interface CardTicket {
  /** The exact signed code `BLL1.C.<cardId>.<sig>` the QR carries. */
  code: string
  cardId: string
  hallName: string
  sessionId: string
  /** The session's number in its hall ("Sesión N.º 3"), printed instead of its id (issue 29 point 6). */
  sessionNo?: number | null
  gameId: string
  gameNo: number
  seriesCode: string
  cardNo: number
  serial: string
  /** BNG-6: the number of cards in the series, shown in a visible place. */
  cardsInSeries: number
  faceValueCents: number
  currency: string
  soldAt: string
  /** The station's name as people call it ("Caja 1", "Kiosco 2"), never its id. */
  station: string
  /** The card's cells, rows x columns (3 x 9 for BNG-5), 0 = blank cell. */
  grid: number[][]
  minimumAge: number
  /** Issue 29 point 4: the code the cashier types when the QR is damaged ("CK7Q-M2XR-…"), printed under the QR. */
  shortCode?: string
  /**
   * GEN-5 / GEN-3: the reference of the hall's licence or authorisation as the server records it (hall settings
   * `licence.authorisationRef`), printed under the hall's name; never typed per sale. Required, so that no caller
   * forgets it: null only where the hall has none recorded.
   */
  authorisationRef: string | null
}

export interface VoucherTicket {
  code: string
  /** Issue 13: the code a player can type at a kiosk, printed large under the QR. */
  shortCode?: string
  voucherId: string
  hallName: string
  amountCents: number
  currency: string
  issuedAt: string
  expiresAt: string
  station: string
  origin: 'cashier' | 'change'
  minimumAge: number
  /** Issue 27: the bingo terminal the voucher's credit was loaded onto at the cashier (its name). */
  loadedTo?: string
  /** GEN-5: the hall's recorded licence or authorisation reference, as on the card (required, null if none). */
  authorisationRef: string | null
}

export interface PayoutTicket {
  payoutId: string
  /** The receipt number people read (issue 29 point 6); the record id is never printed. */
  receiptNo?: number | null
  /** The session's number in its hall. */
  sessionNo?: number | null
  hallName: string
  gameNo: number
  gameId: string
  sessionId: string
  serial: string
  cardId: string
  prizes: Array<{ kind: string; amountCents: number }>
  amountCents: number
  currency: string
  paidAt: string
  /** The station's and the cashier's names, never their ids. */
  station: string
  cashier: string
  payeeName: string | null
  /** BNG-70: a payout by cheque says so with the cheque's number (absent or cash: paid in cash). */
  payment?: { method: 'cash' } | { method: 'cheque'; chequeNumber: string }
  payeeDocument: string | null
  /** An instant ticket's payout: the game and the ticket are named as the raspadita names them, not as a bingo card. */
  line?: 'instant'
}

export interface LayoutOptions {
  paper?: Paper
  lang?: Lang
  /** IANA time zone for printed dates; the process's when absent. */
  timeZone?: string
}

const LABELS = {
  es: {
    card: 'CARTÓN DE BINGO',
    authorisation: (ref: string) => `Autorización: ${ref}`,
    game: 'Partida N.º',
    session: 'Sesión',
    series: 'Serie',
    cardNo: 'Cartón N.º',
    no: 'N.º',
    seriesSize: (n: number) => `Serie de ${n.toLocaleString('es')} cartones`,
    faceValue: 'Valor facial',
    soldAt: 'Vendido',
    station: 'Terminal',
    validOnce: (g: number) => `VÁLIDO SOLO PARA LA PARTIDA N.º ${g}`,
    validOnceShort: (g: number) => `VÁLIDO SOLO PARTIDA N.º ${g}`,
    validNote: 'Un cartón es válido para una sola partida. Entréguelo intacto para cobrar un premio.',
    cardShortCode: 'Código para la caja si el QR no se lee:',
    playerData: 'Datos del jugador:',
    name: 'Nombre',
    idDoc: 'C.I./Pasaporte',
    phone: 'Teléfono',
    minors: (age: number) => `Prohibido el juego a menores de ${age} años.`,
    voucher: 'VALE DE CRÉDITO',
    changeVoucher: 'VALE DE CAMBIO',
    credit: 'Crédito',
    issued: 'Emitido',
    expires: 'Válido hasta',
    voucherNote:
      'Canjeable por cartones en los kioscos de la sala. Se usa una sola vez: el saldo restante se entrega en un vale nuevo.',
    voucherCash: 'El saldo se reembolsa solo en caja.',
    loadedTo: 'Cargado en',
    loadedNote: 'Guarde este vale: si la sesión del terminal se pierde, la caja le devuelve el saldo con él.',
    payout: 'PAGO DE PREMIO',
    receipt: 'Comprobante',
    paidAt: 'Pagado',
    cashier: 'Cajero',
    cardLabel: 'Cartón',
    instantGame: 'Juego N.º',
    ticketLabel: 'Boleto',
    total: 'TOTAL PAGADO',
    payee: 'Cobrador',
    document: 'Documento',
    signature: 'Firma del jugador',
    kinds: {
      line: 'Línea',
      bingo: 'Bingo',
      prima: 'Prima de bingo',
      progressive: 'Pozo progresivo',
      interconnected: 'Bingo interconectado',
      lucky: 'Bola loca',
      instant: 'Premio de raspadita',
    } as Record<string, string>,
    register: 'Registrado en el libro de registro de premios.',
    paidIn: 'Forma de pago',
    inCash: 'Efectivo',
    byCheque: (n: string) => `Cheque N.º ${n}`,
  },
  en: {
    card: 'BINGO CARD',
    authorisation: (ref: string) => `Authorisation: ${ref}`,
    game: 'Game no.',
    session: 'Session',
    series: 'Series',
    cardNo: 'Card no.',
    no: 'No.',
    seriesSize: (n: number) => `Series of ${n.toLocaleString('en')} cards`,
    faceValue: 'Face value',
    soldAt: 'Sold',
    station: 'Terminal',
    validOnce: (g: number) => `VALID FOR GAME NO. ${g} ONLY`,
    validOnceShort: (g: number) => `GAME NO. ${g} ONLY`,
    validNote: 'A card is valid for one game only. Hand it in intact to collect a prize.',
    cardShortCode: "Code for the cash desk if the QR can't be read:",
    playerData: 'Player data:',
    name: 'Name',
    idDoc: 'ID/Passport',
    phone: 'Phone',
    minors: (age: number) => `No play under ${age}.`,
    voucher: 'CREDIT VOUCHER',
    changeVoucher: 'CHANGE VOUCHER',
    credit: 'Credit',
    issued: 'Issued',
    expires: 'Valid until',
    voucherNote: 'Exchange for cards at the hall kiosks. Used once: the remaining balance comes on a new voucher.',
    voucherCash: 'Balances are refunded at the cashier only.',
    loadedTo: 'Loaded onto',
    loadedNote: "Keep this voucher: if the terminal's session is lost, the cashier pays its balance back against it.",
    payout: 'PRIZE PAYOUT',
    receipt: 'Receipt',
    paidAt: 'Paid',
    cashier: 'Cashier',
    cardLabel: 'Card',
    instantGame: 'Game no.',
    ticketLabel: 'Ticket',
    total: 'TOTAL PAID',
    payee: 'Payee',
    document: 'Document',
    signature: 'Player signature',
    kinds: {
      line: 'Line',
      bingo: 'Bingo',
      prima: 'Prima bonus',
      progressive: 'Progressive jackpot',
      interconnected: 'Interconnected bingo',
      lucky: 'Lucky ball',
      instant: 'Instant prize',
    } as Record<string, string>,
    register: 'Entered in the prize register.',
    paidIn: 'Paid by',
    inCash: 'Cash',
    byCheque: (n: string) => `Cheque no. ${n}`,
  },
} as const

/**
 * A bingo card ticket with every field of §7.1 (BNG-5 to BNG-7): hall, session, game, series and the number of
 * cards in it, card number and serial, face value, date and time, "valid for one game only", the 3 x 9 grid, the
 * QR of the signed code, and write-in fields for the player's name, ID and phone (BNG-7: single-sided thermal
 * paper has no reverse, so they are printed on the front).
 */
export function cardTicket(t: CardTicket, options: LayoutOptions = {}): PrintDoc {
  const paper = options.paper ?? '80mm'
  const L = LABELS[options.lang ?? 'es']
  const money = (c: number) => formatMoney(c, t.currency, options.lang ?? 'es')
  const narrow = paper === '58mm'
  const blocks: PrintBlock[] = [
    ...hallHeader(t.hallName, t.authorisationRef, options.lang),
    { type: 'text', text: L.card, align: 'center', size: 'large', bold: true },
    { type: 'rule', style: 'double' },
    { type: 'pair', left: `${L.game} ${t.gameNo}`, right: `${L.series} ${t.seriesCode}`, bold: true },
    { type: 'text', text: t.serial, align: 'center', size: 'large', bold: true },
    { type: 'pair', left: `${narrow ? L.no : L.cardNo} ${t.cardNo}`, right: L.seriesSize(t.cardsInSeries) },
    { type: 'pair', left: L.faceValue, right: money(t.faceValueCents), bold: true },
    { type: 'pair', left: L.soldAt, right: formatStamp(t.soldAt, options.timeZone) },
    {
      type: 'pair',
      left: narrow ? t.station : `${L.station} ${t.station}`,
      right: t.sessionNo ? `${L.session} ${L.no} ${t.sessionNo}` : '',
    },
    { type: 'grid', rows: t.grid },
    {
      type: 'text',
      text: fits(L.validOnce(t.gameNo), paper) ? L.validOnce(t.gameNo) : L.validOnceShort(t.gameNo),
      align: 'center',
      bold: true,
      invert: true,
    },
    { type: 'qr', payload: t.code },
    ...(t.shortCode
      ? [
          { type: 'text', text: L.cardShortCode, align: 'center' } as const,
          { type: 'text', text: t.shortCode, align: 'center', bold: true } as const,
        ]
      : []),
    { type: 'text', text: L.validNote, align: 'center' },
    { type: 'rule' },
    { type: 'text', text: L.playerData, bold: true },
    { type: 'writeIn', label: L.name },
    { type: 'writeIn', label: L.idDoc },
    { type: 'writeIn', label: L.phone },
    { type: 'rule' },
    { type: 'text', text: L.minors(t.minimumAge), align: 'center' },
  ]
  return { kind: 'card', name: `card-${t.serial}`, paper, blocks }
}

/**
 * The head of every paper a hall prints that gives access to play or carries value (card, voucher, change voucher of
 * a kiosk, a terminal or a refund, refund receipt): the hall's name, then the authorisation it is issued under.
 * GEN-5 (002 §1.1.s: cards and tickets are means of access, and "requieren autorización de la AJ"; GEN-3 in
 * Cantabria): the reference is the hall's as recorded (hall settings `licence.authorisationRef`), never typed per
 * sale; no line when the hall has none recorded.
 */
export function hallHeader(hallName: string, authorisationRef: string | null, lang: Lang = 'es'): PrintBlock[] {
  const ref = authorisationRef?.trim()
  return [
    { type: 'text', text: hallName, align: 'center', bold: true },
    ...(ref ? [{ type: 'text', text: LABELS[lang].authorisation(ref), align: 'center' } as const] : []),
  ]
}

/** A credit voucher (or the change voucher a kiosk prints after a purchase) with the QR of its signed code. */
export function voucherTicket(t: VoucherTicket, options: LayoutOptions = {}): PrintDoc {
  const paper = options.paper ?? '80mm'
  const L = LABELS[options.lang ?? 'es']
  const money = (c: number) => formatMoney(c, t.currency, options.lang ?? 'es')
  const blocks: PrintBlock[] = [
    ...hallHeader(t.hallName, t.authorisationRef, options.lang),
    {
      type: 'text',
      text: t.origin === 'change' ? L.changeVoucher : L.voucher,
      align: 'center',
      size: 'large',
      bold: true,
    },
    { type: 'rule', style: 'double' },
    { type: 'text', text: L.credit, align: 'center' },
    { type: 'text', text: money(t.amountCents), align: 'center', size: 'large', bold: true },
    { type: 'rule' },
    { type: 'pair', left: L.issued, right: formatStamp(t.issuedAt, options.timeZone) },
    { type: 'pair', left: L.expires, right: formatStamp(t.expiresAt, options.timeZone), bold: true },
    { type: 'pair', left: L.station, right: t.station },
    ...(t.loadedTo ? [{ type: 'pair', left: L.loadedTo, right: t.loadedTo, bold: true } as const] : []),
    { type: 'qr', payload: t.code },
    ...(t.shortCode ? [{ type: 'text', text: t.shortCode, align: 'center', size: 'tall', bold: true } as const] : []),
    // A voucher loaded onto a terminal is spent: it is kept as the proof a lost session is recovered with.
    { type: 'text', text: t.loadedTo ? L.loadedNote : L.voucherNote, align: 'center' },
    { type: 'text', text: L.voucherCash, align: 'center' },
    { type: 'rule' },
    { type: 'text', text: L.minors(t.minimumAge), align: 'center' },
  ]
  return { kind: 'voucher', name: `voucher-${t.voucherId}`, paper, blocks }
}

/** The receipt of a prize paid at the cashier, with the signature line of the prize register (§7.13). */
export function payoutReceipt(t: PayoutTicket, options: LayoutOptions = {}): PrintDoc {
  const paper = options.paper ?? '80mm'
  const L = LABELS[options.lang ?? 'es']
  const money = (c: number) => formatMoney(c, t.currency, options.lang ?? 'es')
  const blocks: PrintBlock[] = [
    { type: 'text', text: t.hallName, align: 'center', bold: true },
    { type: 'text', text: L.payout, align: 'center', size: 'large', bold: true },
    { type: 'rule', style: 'double' },
    ...(t.receiptNo ? [{ type: 'pair', left: L.receipt, right: `${L.no} ${t.receiptNo}`, bold: true } as const] : []),
    {
      type: 'pair',
      left: `${t.line === 'instant' ? L.instantGame : L.game} ${t.gameNo}`,
      right: t.sessionNo ? `${L.session} ${L.no} ${t.sessionNo}` : '',
    },
    { type: 'pair', left: t.line === 'instant' ? L.ticketLabel : L.cardLabel, right: t.serial, bold: true },
    { type: 'rule' },
    ...t.prizes.map((p): PrintBlock => ({
      type: 'pair',
      // CFG-13: a figure's prize is printed with the figure's name (Cuatro esquinas, Cruz, ...).
      left: L.kinds[p.kind] ?? figureName(p.kind, options.lang ?? 'es') ?? p.kind,
      right: money(p.amountCents),
    })),
    { type: 'rule' },
    { type: 'pair', left: L.total, right: money(t.amountCents), bold: true },
    { type: 'text', text: money(t.amountCents), align: 'center', size: 'large', bold: true },
    { type: 'rule' },
    { type: 'pair', left: L.paidAt, right: formatStamp(t.paidAt, options.timeZone) },
    {
      type: 'pair',
      left: L.paidIn,
      right: t.payment?.method === 'cheque' ? L.byCheque(t.payment.chequeNumber) : L.inCash,
    },
    { type: 'pair', left: L.station, right: t.station },
    { type: 'pair', left: L.cashier, right: t.cashier },
    { type: 'pair', left: L.payee, right: t.payeeName ?? '-' },
    { type: 'pair', left: L.document, right: t.payeeDocument ?? '-' },
    { type: 'feed', lines: 2 },
    { type: 'writeIn', label: L.signature },
    { type: 'text', text: L.register, align: 'center' },
  ]
  return { kind: 'payout', name: `payout-${t.payoutId}`, paper, blocks }
}

/** A prima, interconnected, progressive or lucky-ball prize paid (BNG-69, BNG-70). */
export interface BonusPrizeTicket {
  prizeId: string
  hallName: string
  /** What the prize is ("Prima de bingo", a pot's name). */
  name: string
  source: string
  gameNo: number
  accumulatedGames: number | null
  amountCents: number
  currency: string
  seriesCode: string
  cardNo: number
  serial: string
  /** The extraction order of the game, as drawn (BNG-69: printed with the duplicate). */
  balls: number[]
  atBall: number
  paidAt: string
  payment: { method: 'cash' } | { method: 'cheque'; chequeNumber: string }
  payeeName: string | null
  payeeDocument: string | null
  paidBy: string
}

const BONUS_LABELS = {
  es: {
    title: 'JUSTIFICANTE DE PREMIO',
    original: 'ORIGINAL — PARA EL JUGADOR',
    duplicate: 'DUPLICADO',
    duplicateNote: 'Se adjunta al cartón premiado',
    receipt: 'Justificante',
    game: 'Partida N.º',
    accumulated: 'Partidas acumuladas',
    amount: 'IMPORTE DEL PREMIO',
    payment: 'Forma de pago',
    cash: 'Efectivo',
    cheque: (n: string) => `Cheque N.º ${n}`,
    chequeNote: 'Cheque contra la cuenta corriente de la empresa, a petición o con la conformidad del jugador.',
    paidAt: 'Pagado',
    paidBy: 'Pagado por',
    payee: 'Ganador',
    document: 'Documento',
    card: 'Cartón premiado',
    series: 'Serie',
    cardNo: 'Cartón N.º',
    atBall: 'Bingo en la extracción N.º',
    order: 'ORDEN DE SALIDA DE LAS BOLAS',
    signature: 'Firma del jugador',
    tray: 'Entregado en bandeja aparte del premio de bingo ordinario.',
  },
  en: {
    title: 'PRIZE RECEIPT',
    original: 'ORIGINAL — FOR THE PLAYER',
    duplicate: 'DUPLICATE',
    duplicateNote: 'Attached to the winning card',
    receipt: 'Receipt',
    game: 'Game no.',
    accumulated: 'Accumulated games',
    amount: 'PRIZE AMOUNT',
    payment: 'Paid by',
    cash: 'Cash',
    cheque: (n: string) => `Cheque no. ${n}`,
    chequeNote: "Cheque on the company's current account, at the player's request or with their consent.",
    paidAt: 'Paid',
    paidBy: 'Paid by',
    payee: 'Winner',
    document: 'Document',
    card: 'Winning card',
    series: 'Series',
    cardNo: 'Card no.',
    atBall: 'Bingo at draw no.',
    order: 'BALL EXTRACTION ORDER',
    signature: 'Player signature',
    tray: 'Handed over on a tray apart from the ordinary bingo prize.',
  },
} as const

/**
 * BNG-69 (004 Bingo V.3): the detailed receipt of a prima or interconnected prize, with the number of accumulated
 * games and the amount, and its duplicate, marked DUPLICADO, which is attached to the winning card together with
 * the ball extraction order and the winning card's series number. BNG-70: the payment, in cash or by cheque.
 */
export function bonusPrizeReceipt(
  t: BonusPrizeTicket,
  copy: 'original' | 'duplicate',
  options: LayoutOptions = {},
): PrintDoc {
  const paper = options.paper ?? '80mm'
  const L = BONUS_LABELS[options.lang ?? 'es']
  const money = (c: number) => formatMoney(c, t.currency, options.lang ?? 'es')
  const blocks: PrintBlock[] = [
    { type: 'text', text: t.hallName, align: 'center', bold: true },
    { type: 'text', text: L.title, align: 'center', size: 'large', bold: true },
    { type: 'text', text: t.name, align: 'center', bold: true },
    {
      type: 'text',
      text: copy === 'duplicate' ? L.duplicate : L.original,
      align: 'center',
      bold: true,
      invert: copy === 'duplicate',
    },
    ...(copy === 'duplicate' ? [{ type: 'text', text: L.duplicateNote, align: 'center' } as PrintBlock] : []),
    { type: 'rule', style: 'double' },
    { type: 'pair', left: L.receipt, right: t.prizeId },
    { type: 'pair', left: L.game, right: String(t.gameNo) },
    {
      type: 'pair',
      left: L.accumulated,
      right: t.accumulatedGames === null ? '-' : String(t.accumulatedGames),
      bold: true,
    },
    { type: 'pair', left: L.card, right: t.serial, bold: true },
    { type: 'pair', left: L.series, right: t.seriesCode },
    { type: 'pair', left: L.cardNo, right: String(t.cardNo) },
    { type: 'pair', left: L.atBall, right: String(t.atBall) },
    { type: 'rule' },
    { type: 'text', text: L.amount, align: 'center' },
    { type: 'text', text: money(t.amountCents), align: 'center', size: 'large', bold: true },
    {
      type: 'pair',
      left: L.payment,
      right: t.payment.method === 'cheque' ? L.cheque(t.payment.chequeNumber) : L.cash,
      bold: true,
    },
    ...(t.payment.method === 'cheque' ? [{ type: 'text', text: L.chequeNote } as PrintBlock] : []),
    { type: 'text', text: L.tray },
    { type: 'rule' },
    { type: 'pair', left: L.paidAt, right: formatStamp(t.paidAt, options.timeZone) },
    { type: 'pair', left: L.paidBy, right: t.paidBy },
    { type: 'pair', left: L.payee, right: t.payeeName ?? '-' },
    { type: 'pair', left: L.document, right: t.payeeDocument ?? '-' },
  ]
  if (copy === 'duplicate') {
    blocks.push(
      { type: 'rule' },
      { type: 'text', text: L.order, align: 'center', bold: true },
      { type: 'text', text: t.balls.map((b, i) => `${i + 1}:${b}`).join(' ') },
    )
  }
  blocks.push({ type: 'feed', lines: 2 }, { type: 'writeIn', label: L.signature })
  return { kind: 'payout', name: `bonus-${t.prizeId}-${copy}`, paper, blocks }
}

/**
 * Issue 23 point 5: a ticket printed again after its first print failed carries "REIMPRESIÓN n" at its head and
 * foot (n counts every reprint of the sale), so the paper itself says it is not the first copy. Nothing else
 * changes: same code, same card number (the correlative numbering stays whole).
 */
export function reprintDoc(doc: PrintDoc, n: number): PrintDoc {
  const mark: PrintBlock = { type: 'text', text: `REIMPRESIÓN ${n}`, align: 'center', bold: true, invert: true }
  return { ...doc, name: `${doc.name}-r${n}`, blocks: [mark, ...doc.blocks, { type: 'rule' }, mark] }
}

/**
 * Issue 29 "Also": a receipt printed again on request (for the file, or because the first was lost) says COPIA at
 * its head and foot, so two papers for one payout never read as two payouts.
 */
export function copyDoc(doc: PrintDoc): PrintDoc {
  const mark: PrintBlock = { type: 'text', text: 'COPIA', align: 'center', bold: true, invert: true }
  return { ...doc, name: `${doc.name}-copia`, blocks: [mark, ...doc.blocks, { type: 'rule' }, mark] }
}

// ------------------------------------------------------------------------------------------------ flow

/** Columns of a line at a size (large characters are twice as wide). */
export function columnsFor(paper: Paper, size: TextSize = 'normal'): number {
  return size === 'large' ? PAPER[paper].columns / 2 : PAPER[paper].columns
}

/**
 * Lays a document out on the roll's columns: wraps text at word boundaries, right-aligns the value of each
 * pair (on its own line when both halves do not fit), and turns write-in fields into labelled blank lines.
 */
export function flowDoc(doc: PrintDoc): FlowLine[] {
  const out: FlowLine[] = []
  const cols = PAPER[doc.paper].columns
  for (const b of doc.blocks) {
    switch (b.type) {
      case 'text': {
        const size = b.size ?? 'normal'
        for (const line of wrap(b.text, columnsFor(doc.paper, size))) {
          out.push({
            type: 'text',
            text: line,
            align: b.align ?? 'left',
            size,
            bold: b.bold ?? false,
            invert: b.invert ?? false,
          })
        }
        break
      }
      case 'pair': {
        const left = b.left.trim()
        const right = b.right.trim()
        if (left.length + right.length + 1 <= cols) {
          out.push({
            type: 'text',
            text: left + ' '.repeat(cols - left.length - right.length) + right,
            align: 'left',
            size: 'normal',
            bold: b.bold ?? false,
            invert: false,
          })
        } else {
          for (const line of wrap(left, cols))
            out.push({ type: 'text', text: line, align: 'left', size: 'normal', bold: b.bold ?? false, invert: false })
          for (const line of wrap(right, cols))
            out.push({ type: 'text', text: line, align: 'right', size: 'normal', bold: b.bold ?? false, invert: false })
        }
        break
      }
      case 'rule':
        out.push({ type: 'rule', style: b.style ?? 'single' })
        break
      case 'grid':
        out.push({ type: 'grid', rows: b.rows })
        break
      case 'qr':
        out.push({ type: 'qr', payload: b.payload })
        break
      case 'writeIn': {
        // A blank line above gives room to write; the label and the underline share the line below.
        const label = `${b.label}: `
        out.push({ type: 'feed', lines: 1 })
        // Under 20 columns left to write in, the label takes a line of its own above a full-width one.
        if (cols - label.length < 20) {
          out.push({ type: 'text', text: label.trim(), align: 'left', size: 'normal', bold: false, invert: false })
          out.push({ type: 'feed', lines: 1 })
          out.push({ type: 'text', text: '_'.repeat(cols), align: 'left', size: 'normal', bold: false, invert: false })
        } else {
          out.push({
            type: 'text',
            text: label + '_'.repeat(cols - label.length),
            align: 'left',
            size: 'normal',
            bold: false,
            invert: false,
          })
        }
        break
      }
      case 'feed':
        out.push({ type: 'feed', lines: b.lines })
        break
      default: {
        const _never: never = b
        throw new Error(`unknown block ${JSON.stringify(_never)}`)
      }
    }
  }
  return out
}

/** Splits text into lines of at most `width` characters, at spaces where possible. */
export function wrap(text: string, width: number): readonly string[] {
  // Every ticket repeats the same fixed texts (terms, notices, headings): each is cut once per width, not per sale.
  const key = `${width}\u0000${text}`
  const known = wrapped.get(key)
  if (known) return known
  const lines = cut(text, width)
  if (wrapped.size >= WRAPPED_KEPT) wrapped.clear()
  wrapped.set(key, Object.freeze(lines))
  return lines
}
const WRAPPED_KEPT = 2048
const wrapped = new Map<string, readonly string[]>()

function cut(text: string, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let w = word
      while (w.length > width) {
        if (line) {
          lines.push(line)
          line = ''
        }
        lines.push(w.slice(0, width))
        w = w.slice(width)
      }
      if (!w) continue
      if (!line) line = w
      else if (line.length + 1 + w.length <= width) line += ' ' + w
      else {
        lines.push(line)
        line = w
      }
    }
    lines.push(line)
  }
  return lines
}

/** Places a line of `text` in `width` columns. */
export function alignText(text: string, width: number, align: Align): string {
  const room = Math.max(0, width - text.length)
  if (align === 'right') return ' '.repeat(room) + text
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(room - Math.floor(room / 2))
  return text + ' '.repeat(room)
}

/**
 * The card grid as printed characters: each cell is `cellWidth` columns between box-drawing rules; a blank cell
 * is shaded. On 80 mm the numbers are printed double width and height (a cell of 4 columns holds 2 large digits);
 * on 58 mm, double height in a cell of 2 columns.
 */
export function gridGeometry(
  paper: Paper,
  columnCount: number,
): { cellWidth: number; width: number; largeNumbers: boolean } {
  const cols = PAPER[paper].columns
  for (const [cellWidth, largeNumbers] of [
    [4, true],
    [3, false],
    [2, false],
  ] as const) {
    const width = columnCount * (cellWidth + 1) + 1
    if (width <= cols) return { cellWidth, width, largeNumbers: largeNumbers && cellWidth === 4 }
  }
  return { cellWidth: 2, width: columnCount * 3 + 1, largeNumbers: false }
}

/**
 * The characters of a number in its cell: large digits are centred (a single one between normal-width blanks,
 * which escpos.ts adds); small ones are right-aligned in 2 columns.
 */
export function gridCellText(n: number, largeNumbers: boolean): string {
  return largeNumbers ? String(n) : String(n).padStart(2, ' ')
}

// ------------------------------------------------------------------------------------------------ helpers

function fits(text: string, paper: Paper, size: TextSize = 'normal'): boolean {
  return text.length <= columnsFor(paper, size)
}

/** "21/11/2025 14:32" in the given time zone. */
export function formatStamp(iso: string, timeZone?: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const key = timeZone ?? ''
  // Every ticket of a sale, and every sale of the same second, prints the same stamp: formatToParts is the costly
  // step, so recent stamps are kept by zone and whole second (no zone's offset has a fraction of a second).
  const recentKey = `${key}|${Math.floor(d.getTime() / 1000)}`
  const recent = recentStamps.get(recentKey)
  if (recent !== undefined) return recent
  let format = stampFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    stampFormats.set(key, format)
  }
  const parts = format.formatToParts(d)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const text = `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`
  if (recentStamps.size >= 64) recentStamps.clear()
  recentStamps.set(recentKey, text)
  return text
}

/** One date formatter per time zone, kept (building one costs far more than using it). */
const stampFormats = new Map<string, Intl.DateTimeFormat>()
/** Stamps formatted lately, by time zone and whole second (a few dozen at most). */
const recentStamps = new Map<string, string>()

/** The distinctive tail of an id such as `ses_k3j9x2m4pq` (the prefix is the same for all). */
export function shortId(id: string): string {
  const tail = id.includes('_') ? id.slice(id.indexOf('_') + 1) : id
  return tail.length > 10 ? tail.slice(0, 10) : tail
}
