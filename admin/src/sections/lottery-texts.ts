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
}

const tables = { es, en }

/** The text for `key` in the screen's language, with `{name}` placeholders filled from `vars`. */
export function lx(key: LotteryTextKey, vars: Record<string, string | number> = {}): string {
  return tables[lang.value][key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''))
}
