/**
 * The caller API (same origin). Requests, errors (`ApiError`, branch on `code`) and the Accept-Language header
 * come from http.ts, shared with the kiosk screens.
 */
import type { GameState } from '../server/src/bingo/service.ts'
import type { SessionMinutes } from '../server/src/bingo/minutes.ts'
import { ApiError, createRequest } from './http.ts'
import type { Lang } from './i18n.ts'

export { ApiError }

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

/** Issue 15 point 4: an annulment's reason and the second person's confirmation. */
export interface Annul { reason: string; confirm: { username: string; password: string } }
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
  const request = createRequest({ lang: () => lang, base, token: options.token })
  const enc = encodeURIComponent
  return {
    login: (username: string, password: string) => request<LoginResult>('POST', '/api/auth/login', { username, password }),
    logout: () => request<{ ok: true }>('POST', '/api/auth/logout'),
    me: () => request<Principal>('GET', '/api/auth/me'),
    /** The minutes PDF as a blob (a plain link cannot carry the Authorization header). */
    minutesPdf: (sessionId: string) => request.blob(`/api/sessions/${enc(sessionId)}/minutes.pdf`),
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
    closeSales: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/sales/close`, {}),
    /** bolillo-draw-v2: a round's signature typed in by staff, or (without one) fetch the round from the relays now. */
    beacon: (gameId: string, signature?: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/beacon`, signature ? { signature } : {}),
    draw: (gameId: string) => request<{ ball: number; state: GameState }>('POST', `/api/games/${enc(gameId)}/draw`),
    enterBall: (gameId: string, ball: number) => request<GameState>('POST', `/api/games/${enc(gameId)}/balls`, { ball }),
    claim: (gameId: string, kind: 'line' | 'bingo', serial: string) => request<{ ok: boolean; reason?: string; state: GameState }>('POST', `/api/games/${enc(gameId)}/claims`, { kind, serial }),
    card: (gameId: string, serial: string) => request<CardInfo>('GET', `/api/games/${enc(gameId)}/cards/${enc(serial)}`),
    closeWindow: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/window/close`),
    stopForClaim: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/stop`),
    resumePlay: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/resume`),
    incident: (gameId: string, kind: IncidentKind, note?: string, correctedBall?: number, annul?: Annul) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/incidents`, { kind, ...(note ? { note } : {}), ...(correctedBall !== undefined ? { correctedBall } : {}), ...(annul ?? {}) }),
    resume: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/resume`),
    prizes: (gameId: string) => request<{ prizes: PrizeInfo[] }>('GET', `/api/games/${enc(gameId)}/prizes`),
    pay: (prizeId: string, paidBy: string) => request<PrizeInfo>('POST', `/api/prizes/${enc(prizeId)}/pay`, { paidBy }),
  }
}

export type Api = ReturnType<typeof createApi>
