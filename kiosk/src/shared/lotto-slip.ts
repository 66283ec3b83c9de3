/**
 * The slip being filled on the lotto touch screen (LNS-2, LNS-5): pure helpers, shared by the screen and its tests.
 * A board is either numbers chosen on the 1..n grid, or a quick pick that the server chooses at the sale.
 */
export type Board = { kind: 'chosen'; numbers: number[] } | { kind: 'quick' }

export interface SlipRules {
  range: number
  picks: number
  priceCents: number
  maxBoardsPerSlip: number
  maxDrawsPerSlip: number
}

/** Toggles `n` on the board being filled; never more than `picks` numbers (LNS-21), always ascending. */
export function toggleNumber(
  current: readonly number[],
  n: number,
  rules: Pick<SlipRules, 'range' | 'picks'>,
): number[] {
  if (!Number.isInteger(n) || n < 1 || n > rules.range) return [...current]
  if (current.includes(n)) return current.filter((x) => x !== n)
  if (current.length >= rules.picks) return [...current]
  return [...current, n].sort((a, b) => a - b)
}

/** Whether another board fits on the slip. */
export function canAddBoard(boards: readonly Board[], rules: Pick<SlipRules, 'maxBoardsPerSlip'>): boolean {
  return boards.length < rules.maxBoardsPerSlip
}

/** Price of the slip: boards x draws x price of one board for one draw (every draw of a game costs the same). */
export function slipTotalCents(boards: readonly Board[], draws: number, rules: Pick<SlipRules, 'priceCents'>): number {
  return boards.length * draws * rules.priceCents
}

/** The request body of POST /api/lotto/draws/:drawId/slips. */
export function slipRequest(
  boards: readonly Board[],
  draws: number,
  player: { name: string; document: string },
  channel: string,
) {
  const chosen = boards
    .filter((b): b is Extract<Board, { kind: 'chosen' }> => b.kind === 'chosen')
    .map((b) => b.numbers)
  return {
    boards: chosen,
    quickPicks: boards.length - chosen.length,
    draws,
    player: { name: player.name.trim(), document: player.document.trim() },
    channel,
  }
}

/** What still stops the purchase, or null when the slip can be bought (LNS-6: player data are required). */
export function missing(
  boards: readonly Board[],
  pending: readonly number[],
  player: { name: string; document: string },
): 'boards' | 'pending' | 'player' | null {
  if (pending.length > 0) return 'pending'
  if (boards.length === 0) return 'boards'
  if (player.name.trim().split(/\s+/).length < 2 || !player.document.trim()) return 'player'
  return null
}

/** "08/03/2025 20:00": the date and time as the plan writes them (its own offset), whatever the kiosk's zone. */
export function planTime(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso)
  return m ? `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}` : iso
}
