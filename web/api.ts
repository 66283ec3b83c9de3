/**
 * The caller API over fetch (same origin). Errors arrive as `{ error: { code, message, detail } }` (STYLE.md §4)
 * and become an `ApiError`; clients branch on `code`. The screen's language goes out as Accept-Language so the
 * server answers in it.
 */
import type { GameState } from '../server/src/bingo/service.ts'
import type { SessionMinutes } from '../server/src/bingo/minutes.ts'
import type { Lang } from './i18n.ts'

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly detail?: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export interface HallInfo {
  hall: { id: string; name: string; profileId: string; currency: string; playingPositions: number }
  openSessionId: string | null
  currentGameId: string | null
  series: Array<{ id: string; code: string; cardCount: number; faceValueCents: number; nextCardNo: number }>
}

export interface PrizeInfo {
  id: string; game_id: string; card_id: string; kind: 'line' | 'bingo'; amount_cents: number; at_ball: number
  status: 'awarded' | 'paid' | 'void'; awarded_at: string; paid_at: string | null; paid_by: string | null; serial: string
}

export interface CardInfo { id: string; serial: string; seriesCode: string; cardNo: number; rows: number[][]; status: string; gameId: string }

export type IncidentKind = 'device-failure-before-first-ball' | 'device-failure-after-first-ball' | 'ball-irregularity' | 'caller-error' | 'unresolved-suspension'

export type Recount = { ballsCounted: number; confirmedBy: string }

export interface Principal { kind: 'person' | 'device' | 'anonymous'; id: string; name: string; role: string }
export interface LoginResult { token: string; expiresAt: string; user: { id: string; role: string; displayName: string } }

/**
 * Every call the caller console makes. `base` is '' for same origin; `token` gives the session token of the
 * person logged in (sent as `Authorization: Bearer`), or null when nobody is (authentication off, or not yet).
 */
export function createApi(lang: Lang, options: { base?: string; token?: () => string | null } = {}) {
  const base = options.base ?? ''
  const headers = (json: boolean): Record<string, string> => {
    const h: Record<string, string> = { 'accept-language': lang === 'en' ? 'en' : 'es' }
    if (json) h['content-type'] = 'application/json'
    const token = options.token?.()
    if (token) h.authorization = `Bearer ${token}`
    return h
  }
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await fetch(base + path, {
        method,
        headers: headers(true),
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (err) {
      throw new ApiError('NETWORK', lang === 'en' ? 'No connection to the server.' : 'Sin conexión con el servidor.', 0, err instanceof Error ? err.message : String(err))
    }
    const raw = await res.text()
    let parsed: any = undefined
    try {
      parsed = raw ? JSON.parse(raw) : undefined
    } catch {
      throw new ApiError('BAD_RESPONSE', lang === 'en' ? 'Unexpected answer from the server.' : 'Respuesta inesperada del servidor.', res.status, raw.slice(0, 200))
    }
    if (parsed && typeof parsed === 'object' && parsed.error) {
      const e = parsed.error as { code?: string; message?: string; detail?: string; details?: unknown }
      throw new ApiError(e.code ?? 'ERROR', e.message ?? 'Error', res.status, e.detail, e.details)
    }
    // A rejected claim is a 422 with a result body, not an error: the caller reads `ok` and `reason`.
    if (!res.ok && !(parsed && typeof parsed === 'object' && 'ok' in parsed)) throw new ApiError('HTTP_' + res.status, res.statusText, res.status)
    return parsed as T
  }
  const enc = encodeURIComponent
  return {
    login: (username: string, password: string) => request<LoginResult>('POST', '/api/auth/login', { username, password }),
    logout: () => request<{ ok: true }>('POST', '/api/auth/logout'),
    me: () => request<Principal>('GET', '/api/auth/me'),
    /** The minutes PDF as a blob (a plain link cannot carry the Authorization header). */
    async minutesPdf(sessionId: string): Promise<Blob> {
      const res = await fetch(`${base}/api/sessions/${enc(sessionId)}/minutes.pdf`, { headers: headers(false) })
      if (!res.ok) {
        const e = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; detail?: string } } | null
        throw new ApiError(e?.error?.code ?? `HTTP_${res.status}`, e?.error?.message ?? res.statusText, res.status, e?.error?.detail)
      }
      return res.blob()
    },
    hall: (hallId: string) => request<HallInfo>('GET', `/api/halls/${enc(hallId)}`),
    openSession: (hallId: string, recount: Recount) => request<{ id: string }>('POST', `/api/halls/${enc(hallId)}/sessions`, { recount }),
    session: (sessionId: string) => request<SessionMinutes>('GET', `/api/sessions/${enc(sessionId)}`),
    minutes: (sessionId: string) => request<SessionMinutes>('GET', `/api/sessions/${enc(sessionId)}/minutes`),
    minutesPdfUrl: (sessionId: string) => `${base}/api/sessions/${enc(sessionId)}/minutes.pdf`,
    lastGame: (sessionId: string) => request<{ ok: true }>('POST', `/api/sessions/${enc(sessionId)}/last-game`),
    closeSession: (sessionId: string, recount?: Recount) => request<{ ok: true }>('POST', `/api/sessions/${enc(sessionId)}/close`, recount ? { recount } : {}),
    announce: (sessionId: string, seriesIds: string[], drawSource: 'rng' | 'manual') => request<GameState>('POST', `/api/sessions/${enc(sessionId)}/games`, { seriesIds, drawSource }),
    game: (gameId: string) => request<GameState>('GET', `/api/games/${enc(gameId)}`),
    openSales: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/sales/open`),
    sell: (gameId: string, count: number, channel = 'caller') => request<{ cards: Array<{ serial: string }> }>('POST', `/api/games/${enc(gameId)}/sales`, { count, channel }),
    closeSales: (gameId: string, externalEntropy?: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/sales/close`, externalEntropy ? { externalEntropy } : {}),
    draw: (gameId: string) => request<{ ball: number; state: GameState }>('POST', `/api/games/${enc(gameId)}/draw`),
    enterBall: (gameId: string, ball: number) => request<GameState>('POST', `/api/games/${enc(gameId)}/balls`, { ball }),
    claim: (gameId: string, kind: 'line' | 'bingo', serial: string) => request<{ ok: boolean; reason?: string; state: GameState }>('POST', `/api/games/${enc(gameId)}/claims`, { kind, serial }),
    card: (gameId: string, serial: string) => request<CardInfo>('GET', `/api/games/${enc(gameId)}/cards/${enc(serial)}`),
    closeWindow: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/window/close`),
    stopForClaim: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/stop`),
    resumePlay: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/resume`),
    incident: (gameId: string, kind: IncidentKind, note?: string, correctedBall?: number) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/incidents`, { kind, ...(note ? { note } : {}), ...(correctedBall !== undefined ? { correctedBall } : {}) }),
    resume: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/resume`),
    prizes: (gameId: string) => request<{ prizes: PrizeInfo[] }>('GET', `/api/games/${enc(gameId)}/prizes`),
    pay: (prizeId: string, paidBy: string) => request<PrizeInfo>('POST', `/api/prizes/${enc(prizeId)}/pay`, { paidBy }),
  }
}

export type Api = ReturnType<typeof createApi>
