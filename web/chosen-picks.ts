/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido): the cards a buyer chooses number by number, as the counter's screen
 * builds them. Pure: a tap or "Al azar" gives the next cards and the card being chosen; a card joins once it holds
 * its picks and never twice (BNG-13: no two equal cards in a game; the server checks against those already sold).
 */
export interface ChosenTerms {
  universe: number
  picks: number
}

export interface ChosenDraft {
  /** Cards complete, each sorted. */
  cards: number[][]
  /** The card being chosen, sorted. */
  pending: number[]
}

const same = (a: number[], b: number[]) => a.join('-') === b.join('-')

/** A number tapped: off if on; on if the card has room; the card joins the list when full (not a repeat). */
export function tapNumber(d: ChosenDraft, n: number, t: ChosenTerms, maxCards: number): ChosenDraft {
  if (d.pending.includes(n)) return { ...d, pending: d.pending.filter((x) => x !== n) }
  if (n < 1 || n > t.universe || d.pending.length >= t.picks || d.cards.length >= maxCards) return d
  const next = [...d.pending, n].sort((a, b) => a - b)
  if (next.length < t.picks) return { ...d, pending: next }
  if (d.cards.some((c) => same(c, next))) return d
  return { cards: [...d.cards, next], pending: [] }
}

/** "Al azar": the rest of the card being chosen at random among the numbers not yet tapped. */
export function quickPick(
  d: ChosenDraft,
  t: ChosenTerms,
  maxCards: number,
  random: () => number = () => crypto.getRandomValues(new Uint32Array(1))[0],
): ChosenDraft {
  if (d.cards.length >= maxCards) return d
  for (let attempt = 0; attempt < 20; attempt++) {
    const picked = new Set(d.pending)
    while (picked.size < t.picks) picked.add((random() % t.universe) + 1)
    const next = [...picked].sort((a, b) => a - b)
    if (!d.cards.some((c) => same(c, next))) return { cards: [...d.cards, next], pending: [] }
  }
  return d
}
