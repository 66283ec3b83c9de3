/**
 * Calls of the on-screen instant app (same origin). Errors arrive as `{ error: { code, message, detail } }` and
 * become an ApiError, so screens branch on `code` (RULE_DISABLED: the hall's profile forbids on-screen sales).
 */
import { ApiError } from '../../../web/api.ts'
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

export function createInstantApi(lang: () => 'es' | 'en') {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await fetch(path, { method, headers: { 'accept-language': lang(), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    } catch (err) {
      throw new ApiError('NETWORK', lang() === 'en' ? 'No connection to the server.' : 'Sin conexión con el servidor.', 0, err instanceof Error ? err.message : String(err))
    }
    const parsed = await res.json().catch(() => undefined) as { error?: { code?: string; message?: string; detail?: string; details?: unknown } } | undefined
    if (parsed?.error) throw new ApiError(parsed.error.code ?? 'ERROR', parsed.error.message ?? 'Error', res.status, parsed.error.detail, parsed.error.details)
    if (!res.ok || parsed === undefined) throw new ApiError(`HTTP_${res.status}`, res.statusText, res.status)
    return parsed as T
  }
  return {
    games: () => request<{ games: InstantGameInfo[] }>('GET', '/api/instant/games'),
    buy: (hallId: string, gameNo: number, stationId: string) => request<InstantSale>('POST', `/api/instant/halls/${encodeURIComponent(hallId)}/electronic`, { gameNo, stationId }),
  }
}
export type InstantApi = ReturnType<typeof createInstantApi>
