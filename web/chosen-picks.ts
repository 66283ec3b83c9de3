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

/**
 * "Al azar": the rest of the card being chosen at random among the numbers not yet tapped, or null when every card
 * those taps can make is already chosen (BNG-13: no two equal cards), so that the screen says so instead of doing
 * nothing. Twenty random draws first; when they all repeat a card, the combinations in order from a random one, of
 * which at most one more than the cards chosen need be tried, so the answer is exact and quick.
 */
export function quickPickOrNone(
  d: ChosenDraft,
  t: ChosenTerms,
  maxCards: number,
  random: () => number = () => crypto.getRandomValues(new Uint32Array(1))[0],
): ChosenDraft | null {
  if (d.cards.length >= maxCards) return null
  const taken = new Set(d.cards.map((c) => c.join('-')))
  const join = (rest: number[]) => [...d.pending, ...rest].sort((a, b) => a - b)
  for (let attempt = 0; attempt < 20; attempt++) {
    const picked = new Set(d.pending)
    // Bounded, so that a source that keeps repeating itself cannot hold the screen.
    for (let draws = 0; picked.size < t.picks && draws < 4 * t.universe; draws++)
      picked.add((random() % t.universe) + 1)
    const next = [...picked].sort((a, b) => a - b)
    if (next.length === t.picks && !taken.has(next.join('-'))) return { cards: [...d.cards, next], pending: [] }
  }
  const free = Array.from({ length: t.universe }, (_, i) => i + 1).filter((n) => !d.pending.includes(n))
  const need = t.picks - d.pending.length
  if (need < 0 || need > free.length) return null
  // Combinations of `need` of `free`, in order, starting at a random rotation of `free`.
  const shift = random() % Math.max(1, free.length)
  const pool = [...free.slice(shift), ...free.slice(0, shift)]
  const idx = Array.from({ length: need }, (_, i) => i)
  for (let tried = 0; tried <= d.cards.length + 1; tried++) {
    const next = join(idx.map((i) => pool[i]))
    if (!taken.has(next.join('-'))) return { cards: [...d.cards, next], pending: [] }
    let k = need - 1
    while (k >= 0 && idx[k] === pool.length - need + k) k--
    if (k < 0) return null
    idx[k]++
    for (let j = k + 1; j < need; j++) idx[j] = idx[j - 1] + 1
  }
  return null
}

/** "Al azar" where nothing is to be said: the draft unchanged when no card is left to make (quickPickOrNone). */
export function quickPick(
  d: ChosenDraft,
  t: ChosenTerms,
  maxCards: number,
  random: () => number = () => crypto.getRandomValues(new Uint32Array(1))[0],
): ChosenDraft {
  return quickPickOrNone(d, t, maxCards, random) ?? d
}

/**
 * The columns of a chosen-number grid, so that up to 90 numbers fit a 1366 x 768 kiosk without scrolling: 10 up to
 * 40 numbers (four rows at most), then 15 up to 60 and 18 up to 90 (five rows).
 */
export function chosenGridColumns(universe: number): number {
  if (universe <= 40) return 10
  if (universe <= 60) return 15
  return 18
}
