/**
 * BNG-17 / BNG-18 / CFG-45: what the jefe de mesa announces once sales close, generated from the cards really sold.
 * Pure: the caller console shows the text to read aloud, the hall display the series and card numbers in play.
 *
 * - `formula` (Bolivia, 002 §6.1.5; 000 §6.1.4): the fixed words "tickets autorizados vendidos, cartones vendidos, de la
 *   serie … del número … al … y de la serie … del número … al …", then the line and bingo prizes and the start.
 * - `ranges` (Cantabria, 004 Bingo III): any method that makes the series and card numbers in play known, the line and
 *   bingo amounts, "the amounts of the other prizes are shown on the information panels", and the start.
 *
 * A series sold by blocks (the hall terminals' reserved range, BNG-9; a seller's own block) is announced as each block
 * actually sold, never as one span that would name unsold numbers.
 */
export type AnnouncementStyle = 'formula' | 'ranges'

/** One contiguous run of card numbers sold in a series. */
export interface SoldRange {
  series: string
  from: number
  to: number
  count: number
}

type Lang = 'es' | 'en'

/** The runs grouped by series, in the order given (series order, then card number). */
function bySeries(ranges: readonly SoldRange[]): Array<{ series: string; runs: SoldRange[] }> {
  const out: Array<{ series: string; runs: SoldRange[] }> = []
  for (const r of ranges) {
    const last = out.at(-1)
    if (last && last.series === r.series) last.runs.push(r)
    else out.push({ series: r.series, runs: [r] })
  }
  return out
}

const joinAnd = (parts: string[], and: string) =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} ${and} ${parts.at(-1)}`

/** The series and numbers in play, as a panel shows them ("A 1–120, 301–310 · B 1–40"). */
export function rangesInPlay(ranges: readonly SoldRange[]): string {
  return bySeries(ranges)
    .map((s) => `${s.series} ${s.runs.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`)).join(', ')}`)
    .join(' · ')
}

export function salesAnnouncement(
  input: {
    style: AnnouncementStyle
    ranges: readonly SoldRange[]
    cardsSold: number
    /** Already in the hall's money format. */
    linePrize: string
    bingoPrize: string
  },
  lang: Lang,
): string {
  const series = bySeries(input.ranges)
  const es = lang === 'es'
  const runs = (s: { runs: SoldRange[] }) =>
    joinAnd(
      s.runs.map((r) => (es ? `del número ${r.from} al ${r.to}` : `from number ${r.from} to ${r.to}`)),
      es ? 'y' : 'and',
    )
  const prizes = es
    ? `Premio de línea: ${input.linePrize}. Premio de bingo: ${input.bingoPrize}.`
    : `Line prize: ${input.linePrize}. Bingo prize: ${input.bingoPrize}.`
  const start = es ? 'Comienza la partida.' : 'The game begins.'
  if (input.style === 'formula') {
    const what = series.map((s) => (es ? `de la serie ${s.series} ${runs(s)}` : `of series ${s.series} ${runs(s)}`))
    const sold = es
      ? `Tickets autorizados vendidos, ${input.cardsSold} cartones vendidos, ${joinAnd(what, 'y')}.`
      : `Authorised tickets sold, ${input.cardsSold} cards sold, ${joinAnd(what, 'and')}.`
    return `${sold} ${prizes} ${start}`
  }
  const what = series.map((s) => (es ? `serie ${s.series}, ${runs(s)}` : `series ${s.series}, ${runs(s)}`))
  const sold = es
    ? `Cartones vendidos: ${input.cardsSold}. En juego: ${what.join('; ')}.`
    : `Cards sold: ${input.cardsSold}. In play: ${what.join('; ')}.`
  const panels = es
    ? 'Los importes de los demás premios se muestran en los paneles de información.'
    : 'The amounts of the other prizes are shown on the information panels.'
  return `${sold} ${prizes} ${panels} ${start}`
}
