/**
 * INS-10 (002 §7.4.6.1): the right to an instant prize expires when the ticket is not presented within the period
 * on its back. The period runs from the close of the game; a game nobody closes ends its sales at the design's
 * salesEndAt, so every game's claim period ends. Pure: no I/O.
 */

const DAY_MS = 86_400_000

/** The moment sales end: the close if it came first, else the design's last moment of sale (null for old designs without it, still on sale). */
export function salesEndOf(closedAt: string | null, salesEndAt: string | undefined): string | null {
  const fixed =
    salesEndAt && Number.isFinite(Date.parse(salesEndAt)) ? new Date(Date.parse(salesEndAt)).toISOString() : null
  if (closedAt && fixed) return Date.parse(closedAt) < Date.parse(fixed) ? closedAt : fixed
  return closedAt ?? fixed
}

/** End of the claim period: claimDays after the end of sales; null only for an old design never closed. */
export function claimDeadlineOf(
  closedAt: string | null,
  design: { claimDays: number; salesEndAt?: string },
): string | null {
  const end = salesEndOf(closedAt, design.salesEndAt)
  return end ? new Date(Date.parse(end) + design.claimDays * DAY_MS).toISOString() : null
}

/** Whether a ticket can still be sold at `now`: not closed and before the design's last moment of sale. */
export function salesOver(closedAt: string | null, salesEndAt: string | undefined, now: string): boolean {
  const end = salesEndOf(closedAt, salesEndAt)
  return end !== null && Date.parse(now) >= Date.parse(end)
}
