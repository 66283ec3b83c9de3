import { signal } from '@preact/signals'
import { ApiError, type InstantApi, type InstantGameInfo, type InstantSale } from './api.ts'

export type Screen = 'home' | 'scratch' | 'problem'

/** State of the on-screen instant kiosk: the game on offer, the ticket being scratched, the last problem. */
export function createInstantStore(api: InstantApi, opts: { hallId: string; kioskId: string; gameNo: number | null; lang: 'es' | 'en' }) {
  const lang = signal(opts.lang)
  const screen = signal<Screen>('home')
  const game = signal<InstantGameInfo | null>(null)
  const sale = signal<InstantSale | null>(null)
  const revealed = signal(false)
  const busy = signal(false)
  const problem = signal<{ code: string; message: string; detail: string | null } | null>(null)

  async function load() {
    try {
      const { games } = await api.games()
      const electronic = games.filter((g) => g.channel === 'electronic' && g.status === 'ready')
      game.value = electronic.find((g) => g.gameNo === opts.gameNo) ?? electronic[0] ?? null
    } catch (err) {
      fail(err)
    }
  }

  function fail(err: unknown) {
    problem.value = err instanceof ApiError ? { code: err.code, message: err.message, detail: err.detail ?? null } : { code: 'ERROR', message: String(err), detail: null }
    screen.value = 'problem'
  }

  async function buy() {
    if (!game.value || busy.value) return
    busy.value = true
    try {
      sale.value = await api.buy(opts.hallId, game.value.gameNo, opts.kioskId)
      revealed.value = false
      screen.value = 'scratch'
    } catch (err) {
      fail(err)
    } finally {
      busy.value = false
    }
  }

  function reveal() { revealed.value = true }
  function home() {
    screen.value = 'home'
    sale.value = null
    problem.value = null
    void load()
  }
  return { lang, screen, game, sale, revealed, busy, problem, load, buy, reveal, home }
}
export type InstantStore = ReturnType<typeof createInstantStore>
