/**
 * Calls of the on-screen instant app (same origin). Errors arrive as `{ error: { code, message, detail } }` and
 * become an ApiError, so screens branch on `code` (RULE_DISABLED: the hall's profile forbids on-screen sales).
 * An enrolled device sends its credential like the card kiosk (web/http.ts, web/device.ts).
 */
import { ApiError, createRequest } from '../../../web/http.ts'
import type { TicketFace } from '../../../server/src/instant/play.ts'

export { ApiError }

export interface InstantGameInfo {
  gameNo: number; name: string; channel: 'printed' | 'electronic'; status: string; currency: string; priceCents: number
  ticketCount: number; playStyle: 'match-three' | 'beat-their-number'; symbolAmountsCents: number[]
  tiers: Array<{ tier: number; amountCents: number; count: number }>; claimDays: number
}

export interface InstantSale {
  gameNo: number; name: string; serial: string; priceCents: number; currency: string; soldAt: string
  playStyle: 'match-three' | 'beat-their-number'; face: TicketFace; symbolAmountsCents: number[]; prizeCents: number
  validationCode: string; qr: string; claimDays: number; paymentPlace: string
  receipt: { printed: boolean; files?: string[]; error?: string }
}

export function createInstantApi(lang: () => 'es' | 'en', options: { device?: string | null } = {}) {
  const request = createRequest({ lang, device: options.device })
  return {
    games: () => request<{ games: InstantGameInfo[] }>('GET', '/api/instant/games'),
    buy: (hallId: string, gameNo: number, stationId: string) => request<InstantSale>('POST', `/api/instant/halls/${encodeURIComponent(hallId)}/electronic`, { gameNo, stationId }),
  }
}
export type InstantApi = ReturnType<typeof createInstantApi>
