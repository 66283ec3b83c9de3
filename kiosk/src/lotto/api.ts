/**
 * Calls of the lotto touch screen (same origin). Errors arrive as `{ error: { code, message, detail } }` and become
 * an ApiError; the screen branches on `code` (SALES_CLOSED, SALES_NOT_OPEN, VALIDATION_FAILED...).
 * An enrolled device sends its credential like the card kiosk (web/http.ts, web/device.ts).
 */
import { ApiError, createRequest } from '../../../web/http.ts'
import type { LottoReceipt } from '../../../server/src/lotto/service.ts'
import type { LottoPlan } from '../../../server/src/lotto/plan.ts'

export { ApiError }
export type { LottoReceipt }

export interface DrawInfo { drawId: string; status: string; plan: LottoPlan; commitment: string }

export function createLottoApi(lang: () => 'es' | 'en', options: { device?: string | null } = {}) {
  const request = createRequest({ lang, device: options.device })
  return {
    draws: () => request<{ draws: DrawInfo[] }>('GET', '/api/lotto/draws'),
    draw: (drawId: string) => request<DrawInfo>('GET', `/api/lotto/draws/${encodeURIComponent(drawId)}`),
    buy: (drawId: string, body: unknown) => request<LottoReceipt>('POST', `/api/lotto/draws/${encodeURIComponent(drawId)}/slips`, body),
  }
}
export type LottoApi = ReturnType<typeof createLottoApi>
