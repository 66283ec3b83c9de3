/**
 * Texts of the numbered-lottery and raffle back office (issue 29 point 8): Spanish first, English second, one
 * table per language with the same keys, so a missing translation is a type error.
 */
import { lang } from '../session.ts'

const es = {
  issueTitle: 'Emisión de billetes',
  numbersRange: 'Números {from} a {to}',
  fromNumberOf: 'Desde el número ({hint})',
  toNumber: 'Hasta el número',
  seriesFrom: 'Desde la serie',
  seriesTo: 'Hasta la serie',
  fractionFrom: 'Desde la fracción',
  fractionTo: 'Hasta la fracción',
  printTitle: 'Imprimir billetes para la imprenta',
  printHelp:
    'Cada impresión queda en el registro de la emisión con su número de tiraje. Un rango ya impreso solo se reimprime con un motivo, y los códigos anteriores de sus fracciones no distribuidas dejan de valer.',
  printCovers: 'El rango tiene {tickets} billetes, {fractions} fracciones.',
  printPdf: 'Billetes en PDF',
  reprintReason: 'Motivo de la reimpresión',
  printOpened: 'PDF del tiraje abierto: {fractions} fracciones.',
  reprintTitle: 'Reimprimir billetes',
  reprintLead: 'Se reimprimen {fractions} fracciones de los números {from} a {to}.',
  reprintConsequence:
    'Los códigos impresos antes de las fracciones aún no distribuidas dejan de valer: esos billetes viejos no se pagarán. Las ya distribuidas conservan su papel hasta el canje.',
  reprintOk: 'Reimprimir',
  alreadyPrinted: 'Ya hay {n} fracciones impresas en ese rango. Para reimprimirlas escriba el motivo.',
  rangeRequired: 'Escriba el primer y el último número del rango.',
  outOfIssue: 'El rango debe estar entre {from} y {to}.',
  holdsNothing: 'nada',
  seriesShort: 'serie {n}',
  nFractions: '{n} fracciones',
  returnsTitle: 'Devolución de billetes no vendidos',
  returnsHelp:
    'Un vendedor devuelve fracciones que no vendió, antes del cierre de la venta. Elija el vendedor y escriba el rango que entrega: solo se devuelve lo que está en sus manos.',
  noHolders: 'Ningún vendedor tiene fracciones de este sorteo: no hay nada que devolver.',
  seller: 'Vendedor',
  chooseSeller: 'Elija el vendedor…',
  chooseSellerFirst: 'Elija primero el vendedor que devuelve las fracciones.',
  fractionsOutOf: 'Las fracciones van de 1 a {n}.',
  note: 'Nota (opcional)',
  recordReturn: 'Registrar devolución',
  sellerHolds: '{seller} tiene ahora: {ranges}.',
  returnCovers: 'La devolución cubre {n} fracciones, todas en manos de {seller}.',
  returnShort: 'La devolución cubre {n} fracciones, pero {seller} tiene como mucho {held} de ellas: ajuste el rango.',
  returnCoversNoSeller: 'La devolución cubre {n} fracciones.',
  returnTitle: 'Registrar devolución',
  returnLead: '{seller} devuelve {n} fracciones: números {numbers}.',
  returnConsequence:
    'Esas fracciones quedan anuladas para siempre: no se venden ni se pagan aunque salgan premiadas, y se descuentan de lo que {seller} debe. No se puede deshacer.',
  returnOk: 'Registrar la devolución de {n} fracciones',
  returnDone: 'Devolución registrada: {n} fracciones de {seller}.',
}

export type LotteryTextKey = keyof typeof es

const en: Record<LotteryTextKey, string> = {
  issueTitle: 'Ticket issue',
  numbersRange: 'Numbers {from} to {to}',
  fromNumberOf: 'From number ({hint})',
  toNumber: 'To number',
  seriesFrom: 'From series',
  seriesTo: 'To series',
  fractionFrom: 'From fraction',
  fractionTo: 'To fraction',
  printTitle: 'Print tickets for the print shop',
  printHelp:
    'Each print is entered in the issue register with its run number. A range printed before is printed again only with a reason, and the earlier codes of its undistributed fractions stop being valid.',
  printCovers: 'The range has {tickets} tickets, {fractions} fractions.',
  printPdf: 'Tickets as PDF',
  reprintReason: 'Reason for the reprint',
  printOpened: 'PDF of the print run opened: {fractions} fractions.',
  reprintTitle: 'Reprint tickets',
  reprintLead: '{fractions} fractions of numbers {from} to {to} are printed again.',
  reprintConsequence:
    'The codes printed before on fractions not yet distributed stop being valid: those old tickets will not be paid. Fractions already distributed keep their paper until exchanged.',
  reprintOk: 'Reprint',
  alreadyPrinted: '{n} fractions of that range are already printed. To print them again, write the reason.',
  rangeRequired: 'Write the first and the last number of the range.',
  outOfIssue: 'The range must lie between {from} and {to}.',
  holdsNothing: 'nothing',
  seriesShort: 'series {n}',
  nFractions: '{n} fractions',
  returnsTitle: 'Unsold tickets returned',
  returnsHelp:
    'A seller hands back fractions it did not sell, before the close of sales. Choose the seller and type the range handed back: only what is in its hands can be returned.',
  noHolders: 'No seller holds fractions of this draw: there is nothing to return.',
  seller: 'Seller',
  chooseSeller: 'Choose the seller…',
  chooseSellerFirst: 'First choose the seller who hands the fractions back.',
  fractionsOutOf: 'Fractions go from 1 to {n}.',
  note: 'Note (optional)',
  recordReturn: 'Record a return',
  sellerHolds: '{seller} now holds: {ranges}.',
  returnCovers: 'The return covers {n} fractions, all in the hands of {seller}.',
  returnShort: 'The return covers {n} fractions, but {seller} holds at most {held} of them: adjust the range.',
  returnCoversNoSeller: 'The return covers {n} fractions.',
  returnTitle: 'Record a return',
  returnLead: '{seller} hands back {n} fractions: numbers {numbers}.',
  returnConsequence:
    'Those fractions are voided for good: they are not sold or paid even if they win, and they are taken off what {seller} owes. This cannot be undone.',
  returnOk: 'Record the return of {n} fractions',
  returnDone: 'Return recorded: {n} fractions from {seller}.',
}

const tables = { es, en }

/** The text for `key` in the screen's language, with `{name}` placeholders filled from `vars`. */
export function lx(key: LotteryTextKey, vars: Record<string, string | number> = {}): string {
  return tables[lang.value][key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''))
}
