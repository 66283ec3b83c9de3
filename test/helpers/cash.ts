/**
 * CFG-2 (issue 26): a cash count by note and coin, as every cash intake takes it, for an amount in minor units, of
 * the boliviano's pieces (BO-2025 profile `cash`; every one of them is also a euro's note or coin). The split small
 * and other is the profile's, made by the server: this only chooses which pieces are handed over.
 */
const LARGE = [20_000, 10_000, 5_000]
const SMALL = [2_000, 1_000, 500, 200, 100, 50, 20, 10]

function add(pieces: Record<string, number>, cents: number, of: number[]): void {
  let rest = cents
  for (const v of of) {
    const n = Math.floor(rest / v)
    if (n > 0) pieces[String(v)] = (pieces[String(v)] ?? 0) + n
    rest -= n * v
  }
  if (rest !== 0) throw new Error(`${cents} is not made of the pieces ${of.join(', ')}`)
}

/**
 * The count of `cents`: in large notes (Bs 50, 100, 200) as far as they go and the rest in Bs 20, Bs 10 and coins,
 * all small in Bolivia; or, with `smallCents`, exactly that much in small pieces and the rest in large notes.
 */
export function countOf(cents: number, opts: { smallCents?: number } = {}): { pieces: Record<string, number> } {
  const pieces: Record<string, number> = {}
  const small = opts.smallCents ?? cents % 5_000
  add(pieces, cents - small, LARGE)
  add(pieces, small, SMALL)
  return { pieces }
}
