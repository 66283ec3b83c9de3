/**
 * The caller API (same origin). Requests, errors (`ApiError`, branch on `code`) and the Accept-Language header
 * come from http.ts, the station's login and till from station-api.ts, both shared with the cashier's client
 * (cashdesk-api.ts); credentials are kept in credentials.ts.
 */
import type { CashSent } from './cash-count.ts'
import type { GameState } from '../server/src/bingo/service.ts'
import type { ClaimKind } from '../server/src/bingo/game.ts'
import type { SessionMinutes } from '../server/src/bingo/minutes.ts'
import type { CardRefund, RefundService } from '../server/src/cashdesk/refunds.ts'
import { ApiError, createRequest, type SecondPerson } from './http.ts'
import { stationCalls, type LoginResult, type ShiftReport, type TableTill } from './station-api.ts'
import { fetchMe } from './me.ts'
import type { Lang } from './i18n.ts'

export { ApiError }
export type { SecondPerson, LoginResult, TableTill }

export interface HallInfo {
  hall: { id: string; name: string; profileId: string; currency: string; playingPositions: number }
  openSessionId: string | null
  currentGameId: string | null
  series: Array<{ id: string; code: string; cardCount: number; faceValueCents: number; nextCardNo: number }>
}

export interface PrizeInfo {
  id: string
  game_id: string
  card_id: string
  kind: 'line' | 'bingo'
  amount_cents: number
  at_ball: number
  status: 'awarded' | 'paid' | 'void'
  awarded_at: string
  paid_at: string | null
  paid_by: string | null
  serial: string
}

export interface CardInfo {
  id: string
  serial: string
  seriesCode: string
  cardNo: number
  rows: number[][]
  status: string
  gameId: string
}

/** Issue 15 point 4: an annulment's reason and the second person's confirmation. */
/** An annulment's reason, and the second person's credential (also the BNG-74 co-signature of a Bolivian entry). */
export interface Annul {
  reason?: string
  confirm: { username: string; password: string }
}
export type IncidentKind =
  | 'device-failure-before-first-ball'
  | 'device-failure-after-first-ball'
  | 'ball-irregularity'
  | 'caller-error'
  | 'unresolved-suspension'

/** BNG-27: the witness is the second person's credential (X-Bolillo-Second-Person), not a name; `confirmedBy` only with authentication off. */
export type Recount = { ballsCounted: number; confirmedBy?: string }
/** BNG-41: the equipment checked before a session opens. */
export type EquipmentChecklist = {
  extractor: boolean
  cctv: boolean
  displays: boolean
  sound: boolean
  reader?: boolean
  note?: string
}

export interface Principal {
  kind: 'person' | 'device' | 'anonymous'
  id: string
  name: string
  role: string
}
/** Issue 29 point 1: the annulled game's cards this table sold, refunded or still to refund (GET /api/refunds/cards). */
export type TableRefunds = Awaited<ReturnType<RefundService['stationCards']>>
export type { CardRefund }

/** A closed shift as the server reports it: the difference is counted minus expected, to the centavo. */
export type ClosedShift = Pick<
  ShiftReport,
  'shiftId' | 'currency' | 'expectedCents' | 'countedCents' | 'differenceCents'
>

/**
 * Every call the caller console makes. `base` is '' for same origin; `token` gives the session token of the
 * person logged in (sent as `Authorization: Bearer`), or null when nobody is (authentication off, or not yet);
 * `device` is the credential of the enrolled cashier station the console is (issue 13: a login sent with it is
 * bound to the station, so the person's sales at the table move cash through her shift there).
 */
export function createApi(
  lang: Lang,
  options: { base?: string; token?: () => string | null; device?: string | null } = {},
) {
  const base = options.base ?? ''
  const requestOptions = { lang: () => lang, base, token: options.token, device: options.device }
  const request = createRequest(requestOptions)
  const enc = encodeURIComponent
  return {
    ...stationCalls(request, requestOptions),
    me: () => request<Principal>('GET', '/api/auth/me'),
    /** Who is logged in, in words, and the permissions of that role (issue 14 point 7). */
    whoAmI: () => fetchMe(request),
    /** The minutes PDF as a blob (a plain link cannot carry the Authorization header). */
    minutesPdf: (sessionId: string) => request.blob(`/api/sessions/${enc(sessionId)}/minutes.pdf`),
    hall: (hallId: string) => request<HallInfo>('GET', `/api/halls/${enc(hallId)}`),
    openSession: (hallId: string, recount: Recount, checklist: EquipmentChecklist, second?: SecondPerson) =>
      request<{ id: string }>(
        'POST',
        `/api/halls/${enc(hallId)}/sessions`,
        { recount, checklist },
        { secondPerson: second },
      ),
    session: (sessionId: string) => request<SessionMinutes>('GET', `/api/sessions/${enc(sessionId)}`),
    minutes: (sessionId: string) => request<SessionMinutes>('GET', `/api/sessions/${enc(sessionId)}/minutes`),
    minutesPdfUrl: (sessionId: string) => `${base}/api/sessions/${enc(sessionId)}/minutes.pdf`,
    lastGame: (sessionId: string, second?: SecondPerson) =>
      request<{ ok: true }>('POST', `/api/sessions/${enc(sessionId)}/last-game`, undefined, { secondPerson: second }),
    closeSession: (sessionId: string, recount?: Recount, second?: SecondPerson) =>
      request<{ ok: true }>('POST', `/api/sessions/${enc(sessionId)}/close`, recount ? { recount } : {}, {
        secondPerson: second,
      }),
    announce: (sessionId: string, seriesIds: string[], drawSource: 'rng' | 'manual', second?: SecondPerson) =>
      request<GameState>(
        'POST',
        `/api/sessions/${enc(sessionId)}/games`,
        { seriesIds, drawSource },
        { secondPerson: second },
      ),
    game: (gameId: string) => request<GameState>('GET', `/api/games/${enc(gameId)}`),
    openSales: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/sales/open`),
    /** GEN-17: the cash counted for the sale (small notes and coins, other notes) and, past the limit, the buyer. */
    sell: (
      gameId: string,
      count: number,
      channel = 'caller',
      cash?: CashSent,
      buyerDocument?: string,
      /** GEN-23: the seller's tick that the player is of age (the server refuses the sale without it). */
      ageConfirmed = false,
      /** BNG-98: in a chosen-number game, the buyer's numbers, one list per card. */
      picks?: number[][],
    ) =>
      request<{ cards: Array<{ serial: string }> }>('POST', `/api/games/${enc(gameId)}/sales`, {
        count,
        channel,
        ageConfirmed,
        ...(picks ? { picks } : {}),
        ...(cash ? { cash } : {}),
        ...(buyerDocument ? { buyerDocument } : {}),
      }),
    closeSales: (gameId: string, second?: SecondPerson) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/sales/close`, {}, { secondPerson: second }),
    /** bolillo-draw-v2: a round's signature typed in by staff, or (without one) fetch the round from the relays now. */
    beacon: (gameId: string, signature?: string) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/beacon`, signature ? { signature } : {}),
    draw: (gameId: string) => request<{ ball: number; state: GameState }>('POST', `/api/games/${enc(gameId)}/draw`),
    enterBall: (gameId: string, ball: number) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/balls`, { ball }),
    claim: (gameId: string, kind: ClaimKind, serial: string) =>
      request<{ ok: boolean; reason?: string; state: GameState }>('POST', `/api/games/${enc(gameId)}/claims`, {
        kind,
        serial,
      }),
    card: (gameId: string, serial: string) =>
      request<CardInfo>('GET', `/api/games/${enc(gameId)}/cards/${enc(serial)}`),
    closeWindow: (gameId: string, second?: SecondPerson) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/window/close`, undefined, { secondPerson: second }),
    stopForClaim: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/stop`),
    resumePlay: (gameId: string) => request<GameState>('POST', `/api/games/${enc(gameId)}/claims/resume`),
    incident: (
      gameId: string,
      kind: IncidentKind,
      note?: string,
      correctedBall?: number,
      annul?: Annul,
      second?: SecondPerson,
    ) =>
      request<GameState>(
        'POST',
        `/api/games/${enc(gameId)}/incidents`,
        {
          kind,
          ...(note ? { note } : {}),
          ...(correctedBall !== undefined ? { correctedBall } : {}),
          ...(annul ?? {}),
        },
        { secondPerson: second },
      ),
    resume: (gameId: string, second?: SecondPerson) =>
      request<GameState>('POST', `/api/games/${enc(gameId)}/resume`, undefined, { secondPerson: second }),
    prizes: (gameId: string) => request<{ prizes: PrizeInfo[] }>('GET', `/api/games/${enc(gameId)}/prizes`),
    /** BNG-71, issue 13 point 6: a prize is paid against its card's signed code (none given: the server refuses). */
    pay: (prizeId: string, code: string, paidBy: string, second?: SecondPerson) =>
      request<unknown>(
        'POST',
        `/api/prizes/${enc(prizeId)}/pay`,
        { ...(code ? { code } : {}), paidBy },
        { secondPerson: second },
      ),
    /** Issue 29 point 1 (BNG-86): the annulled game's cards sold at this table, and a card handed back refunded. */
    tableRefunds: (gameId: string) =>
      request<TableRefunds>('GET', `/api/refunds/cards?gameId=${encodeURIComponent(gameId)}`),
    refundCard: (code: string) => request<CardRefund>('POST', '/api/refunds/cards', { code, to: 'cash' }),
  }
}

export type Api = ReturnType<typeof createApi>
