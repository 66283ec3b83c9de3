/**
 * Calls of the lotto touch screen (same origin). Errors arrive as `{ error: { code, message, detail } }` and become
 * an ApiError; the screen branches on `code` (SALES_CLOSED, SALES_NOT_OPEN, VALIDATION_FAILED...).
 */
import { ApiError } from '../../../web/api.ts'
import type { LottoReceipt } from '../../../server/src/lotto/service.ts'
import type { LottoPlan } from '../../../server/src/lotto/plan.ts'

export { ApiError }
export type { LottoReceipt }

export interface DrawInfo { drawId: string; status: string; plan: LottoPlan; commitment: string }

export function createLottoApi(lang: () => 'es' | 'en') {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await fetch(path, { method, headers: { 'accept-language': lang(), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    } catch (err) {
      throw new ApiError('NETWORK', lang() === 'en' ? 'No connection to the server.' : 'Sin conexión con el servidor.', 0, err instanceof Error ? err.message : String(err))
    }
    const parsed = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string; detail?: string; details?: unknown } } | undefined
    if (parsed?.error) throw new ApiError(parsed.error.code ?? 'ERROR', parsed.error.message ?? 'Error', res.status, parsed.error.detail, parsed.error.details)
    if (!res.ok || parsed === undefined) throw new ApiError(`HTTP_${res.status}`, res.statusText, res.status)
    return parsed as T
  }
  return {
    draws: () => request<{ draws: DrawInfo[] }>('GET', '/api/lotto/draws'),
    draw: (drawId: string) => request<DrawInfo>('GET', `/api/lotto/draws/${encodeURIComponent(drawId)}`),
    buy: (drawId: string, body: unknown) => request<LottoReceipt>('POST', `/api/lotto/draws/${encodeURIComponent(drawId)}/slips`, body),
  }
}
export type LottoApi = ReturnType<typeof createLottoApi>
