/**
 * The terminal's state (issue 27): its session as the server keeps it (balance, cards, terms), and the hall's game as
 * the socket feed brings it (balls). Marks follow the hall's marking mode: automatic (every called number), per ball
 * (the player touches each called number), catch-up (a button marks every called number at once). A claim is only
 * a request: the server verifies it against the called balls.
 */
import { computed, effect, signal } from '@preact/signals'
import type { ApiRequest } from '../../../web/http.ts'
import { ApiError } from '../../../web/http.ts'
import type { GameFeed } from '../../../web/socket.ts'
import type { TerminalService } from '../../../server/src/terminals/service.ts'
import { rankCards } from '../../../server/src/terminals/rules.ts'
import type { Lang } from './texts.ts'

export type TerminalView = Awaited<ReturnType<TerminalService['view']>>
export type Ended = Awaited<ReturnType<TerminalService['end']>>
export type HeldCard = NonNullable<TerminalView['game']>['cards'][number]

export function createTerminalStore(request: ApiRequest, feed: GameFeed, lang: Lang, hallId?: string) {
  const view = signal<TerminalView | null>(null)
  const ended = signal<Ended | null>(null)
  const busy = signal(false)
  const message = signal<{ kind: 'ok' | 'error'; text: string } | null>(null)
  const langSig = signal<Lang>(lang)
  /** Numbers the player marked by hand (per-ball and catch-up modes), per game. */
  const marked = signal<{ gameId: string | null; numbers: Set<number> }>({ gameId: null, numbers: new Set() })

  const game = computed(() => {
    const s = feed.state.value
    const v = view.value
    if (!v?.game) return null
    // The feed's balls are newer than the session's answer when it is the same game.
    const balls = s && s.gameId === v.game.gameId ? s.balls : v.game.balls
    const status = s && s.gameId === v.game.gameId ? s.status : v.game.status
    const lineClosed = s && s.gameId === v.game.gameId ? s.lineClosed : v.game.lineClosed
    return { ...v.game, balls, status, lineClosed, lastBall: balls.at(-1) ?? null }
  })
  const mode = computed(() =>
    view.value?.terms && 'terms' in view.value.terms ? view.value.terms.terms!.markingMode : 'automatic',
  )
  const marks = computed<ReadonlySet<number>>(() => {
    const g = game.value
    if (!g) return new Set()
    if (mode.value === 'automatic') return new Set(g.balls)
    const m = marked.value
    if (m.gameId !== g.gameId) return new Set()
    const called = new Set(g.balls)
    return new Set([...m.numbers].filter((n) => called.has(n)))
  })
  /**
   * The seat's hall by name: the session's, else the hall this screen watches (in an interconnected game, BNG-100,
   * the game's hall is the central's, not the seat's).
   */
  const hallName = computed(() => {
    const session = view.value?.session
    if (session?.hallName) return session.hallName
    const s = feed.state.value
    return s?.halls?.find((h) => h.hallId === hallId)?.hallName ?? s?.hallName ?? ''
  })
  /** Best card first, with what it still needs, by the marks on screen. */
  const ranked = computed(() => {
    const g = game.value
    if (!g) return []
    return rankCards(g.cards, marks.value, g.lineClosed).map((r) => ({
      ...r.card,
      target: r.target,
      missing: r.missing,
    }))
  })

  /** `said`: the screen's own words for a refusal code, where the server's would mislead the player. */
  async function call<T>(fn: () => Promise<T>, said: Record<string, string> = {}): Promise<T | null> {
    busy.value = true
    message.value = null
    try {
      return await fn()
    } catch (err) {
      const text = err instanceof ApiError ? (said[err.code] ?? err.message) : String(err)
      message.value = { kind: 'error', text }
      return null
    } finally {
      busy.value = false
    }
  }
  const refresh = async () => {
    try {
      view.value = await request<TerminalView>('GET', '/api/terminal/state')
    } catch (err) {
      message.value = { kind: 'error', text: err instanceof ApiError ? err.message : String(err) }
    }
  }

  // A change of the hall's game, its status or its winners brings the session again (cards, credited prizes); a ball
  // alone does not: the feed carries it.
  let key = ''
  effect(() => {
    const s = feed.state.value
    const next = s ? `${s.gameId}:${s.status}:${s.winners.length}:${s.cardsSold > 0}` : 'none'
    if (next === key) return
    key = next
    // "Verified: credited at the end of the game" is stale once the game has ended: the balance says it now.
    if (s?.status === 'finished' && message.value?.kind === 'ok') message.value = null
    void refresh()
  })

  return {
    view,
    ended,
    busy,
    message,
    lang: langSig,
    feed,
    game,
    mode,
    marks,
    ranked,
    hallName,
    refresh,
    /**
     * `refused`: the voucher's refusals in the player's words. The server's are the cashier's (a mistyped code is
     * "the card or ticket does not exist in this game"); a player at the seat needs what to check or where to go.
     */
    async start(voucherCode: string, ageConfirmed: boolean, refused: Record<string, string> = {}) {
      const v = await call(
        () => request<TerminalView>('POST', '/api/terminal/session', { voucherCode: voucherCode.trim(), ageConfirmed }),
        refused,
      )
      if (v) {
        ended.value = null
        view.value = v
      }
    },
    /** Cards for `gameId` (the player's choice among the hall's games on sale), or the game shown. */
    async buy(count: number, gameId?: string) {
      const v = await call(() =>
        request<TerminalView>('POST', '/api/terminal/cards', gameId ? { count, gameId } : { count }),
      )
      if (v) view.value = v
    },
    async claim(
      cardId: string,
      kind: 'line' | 'bingo',
      okText: string,
      rejectedText: string,
      reasons: Record<string, string> = {},
    ) {
      const r = await call(() =>
        request<{ ok: boolean; reason: string | null; session: TerminalView }>('POST', '/api/terminal/claims', {
          cardId,
          kind,
        }),
      )
      if (!r) return
      view.value = r.session
      message.value = r.ok
        ? { kind: 'ok', text: okText }
        : // The server's reason is a code: the player reads it in words, never the code itself.
          {
            kind: 'error',
            text: r.reason && reasons[r.reason] ? `${rejectedText}: ${reasons[r.reason]}.` : `${rejectedText}.`,
          }
    },
    async end() {
      const r = await call(() => request<Ended>('POST', '/api/terminal/session/end'))
      if (r) {
        ended.value = r
        await refresh()
        // The seat is left for the next player: the end screen goes back to the start after a while.
        setTimeout(() => {
          if (ended.value === r) ended.value = null
        }, 30_000)
      }
    },
    mark(n: number) {
      const g = game.value
      if (!g || !g.balls.includes(n)) return
      const cur = marked.value.gameId === g.gameId ? marked.value.numbers : new Set<number>()
      marked.value = { gameId: g.gameId, numbers: new Set([...cur, n]) }
    },
    catchUp() {
      const g = game.value
      if (g) marked.value = { gameId: g.gameId, numbers: new Set(g.balls) }
    },
  }
}

export type TerminalStore = ReturnType<typeof createTerminalStore>
