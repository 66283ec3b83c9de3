/**
 * State of the lotto touch screen, on @preact/signals: the draw on sale, the boards of the slip, the board being
 * filled on the grid, the draws, the player data and the last receipt.
 */
import { computed, signal } from '@preact/signals'
import { ApiError, type DrawInfo, type LottoApi, type LottoReceipt } from './api.ts'
import { canAddBoard, missing, slipRequest, slipTotalCents, toggleNumber, type Board } from './slip.ts'

export function createLottoStore(api: LottoApi, options: { drawId: string | null; kioskId: string; lang: 'es' | 'en' }) {
  const lang = signal(options.lang)
  const draw = signal<DrawInfo | null>(null)
  const boards = signal<Board[]>([])
  const pending = signal<number[]>([])
  const draws = signal(1)
  const player = signal({ name: '', document: '' })
  const receipt = signal<LottoReceipt | null>(null)
  const error = signal<ApiError | null>(null)
  const busy = signal(false)
  const loaded = signal(false)

  const rules = computed(() => {
    const p = draw.value?.plan
    return p ? { range: p.range, picks: p.picks, priceCents: p.priceCents, maxBoardsPerSlip: p.maxBoardsPerSlip, maxDrawsPerSlip: p.maxDrawsPerSlip } : null
  })
  const total = computed(() => (rules.value ? slipTotalCents(boards.value, draws.value, rules.value) : 0))
  const blocker = computed(() => missing(boards.value, pending.value, player.value))

  async function load() {
    try {
      if (options.drawId) draw.value = await api.draw(options.drawId)
      else {
        const now = Date.now()
        draw.value = (await api.draws()).draws.find((d) => d.status === 'open' && Date.parse(d.plan.salesStartAt) <= now && now < Date.parse(d.plan.salesCloseAt)) ?? null
      }
    } catch (err) {
      error.value = err instanceof ApiError ? err : new ApiError('ERROR', String(err), 0)
    } finally {
      loaded.value = true
    }
  }

  function toggle(n: number) {
    if (!rules.value) return
    pending.value = toggleNumber(pending.value, n, rules.value)
    // A board is added as soon as it is complete.
    if (pending.value.length === rules.value.picks && canAddBoard(boards.value, rules.value)) {
      boards.value = [...boards.value, { kind: 'chosen', numbers: pending.value }]
      pending.value = []
    }
  }
  function quick() {
    if (rules.value && canAddBoard(boards.value, rules.value)) boards.value = [...boards.value, { kind: 'quick' }]
  }
  function removeBoard(i: number) { boards.value = boards.value.filter((_, j) => j !== i) }
  function clear() { pending.value = [] }
  function setDraws(n: number) { if (rules.value && n >= 1 && n <= rules.value.maxDrawsPerSlip) draws.value = n }

  async function buy() {
    const d = draw.value
    if (!d || blocker.value || busy.value) return
    busy.value = true
    error.value = null
    try {
      receipt.value = await api.buy(d.drawId, slipRequest(boards.value, draws.value, player.value, `kiosk:${options.kioskId}`))
      boards.value = []
      pending.value = []
    } catch (err) {
      error.value = err instanceof ApiError ? err : new ApiError('ERROR', String(err), 0)
    } finally {
      busy.value = false
    }
  }
  function again() { receipt.value = null; player.value = { name: '', document: '' }; draws.value = 1 }

  return { lang, draw, boards, pending, draws, player, receipt, error, busy, loaded, rules, total, blocker, load, toggle, quick, removeBoard, clear, setDraws, buy, again }
}
export type LottoStore = ReturnType<typeof createLottoStore>
