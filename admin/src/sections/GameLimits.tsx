/**
 * CFG-7 (002 §1.2.1.1, "respecto de cada juego"): a game's own minimum and maximum bets, within the hall's, and per
 * sale channel where the Plan de Apuestas sets them, recorded on the hall's page for each game of its open session
 * that is announced or on sale (PUT /api/games/:gameId/sale-limits, the director only). The page says what is on
 * record in words, checks what the server would refuse only as "invalid data" (a limit outside the hall's, a channel
 * wider than the game) and says it in words first, and asks before recording with what follows.
 */
import { useState } from 'preact/hooks'
import { PROFILES } from '../../../server/src/shared/profile.ts'
import { ApiError } from '../../../web/http.ts'
import { api, can } from '../session.ts'
import { ConfirmDialog, Field, Input, Loading, Notice, Select, num, useAction, useLoad } from '../ui.tsx'
import { ex, type EquipmentTextKey } from './equipment-texts.ts'

const CHANNELS = ['counter', 'table', 'kiosk', 'terminal'] as const
type Channel = (typeof CHANNELS)[number]
interface Limits {
  minCardsPerPurchase: number
  maxCardsPerPurchase: number
  maxCardsPerPlayer: number
}
interface GameLimits extends Limits {
  authorisationRef: string | null
  channels: Partial<Record<Channel, Limits>>
}
interface GameView {
  gameId: string
  orderNo: number
  status: string
  bets: Limits & { authorisationRef: string | null }
  gameBets: GameLimits | null
}
interface Typed {
  min: string
  max: string
  player: string
}
interface Form {
  ref: string
  game: Typed
  channels: Record<Channel, Typed>
}

const channelName = (c: Channel) => ex(`gl_channel_${c}` as EquipmentTextKey)
const OPEN = ['announced', 'on_sale']
const typedOf = (l: Limits | undefined): Typed =>
  l
    ? { min: String(l.minCardsPerPurchase), max: String(l.maxCardsPerPurchase), player: String(l.maxCardsPerPlayer) }
    : { min: '', max: '', player: '' }
const formOf = (g: GameView): Form => ({
  ref: g.gameBets?.authorisationRef ?? '',
  game: typedOf(g.gameBets ?? g.bets),
  channels: Object.fromEntries(CHANNELS.map((c) => [c, typedOf(g.gameBets?.channels[c])])) as Record<Channel, Typed>,
})
const limitsText = (l: Limits) => ({
  min: num(l.minCardsPerPurchase),
  max: num(l.maxCardsPerPurchase),
  player: num(l.maxCardsPerPlayer),
})

/** What the form would send, or the first problem in words (what the server refuses only as invalid data). */
function readForm(f: Form, hall: Limits, refRequired: boolean): { limits: GameLimits } | { problem: string } {
  const whole = (v: string) => (/^\d+$/.test(v.trim()) && Number(v.trim()) >= 1 ? Number(v.trim()) : NaN)
  const read = (t: Typed): Limits | null | 'partial' | 'bad' => {
    const filled = [t.min, t.max, t.player].filter((v) => v.trim()).length
    if (filled === 0) return null
    if (filled < 3) return 'partial'
    const [a, b, c] = [t.min, t.max, t.player].map(whole) as [number, number, number]
    if ([a, b, c].some(Number.isNaN)) return 'bad'
    return { minCardsPerPurchase: a, maxCardsPerPurchase: b, maxCardsPerPlayer: c }
  }
  const within = (what: string, l: Limits, outer: Limits, of: 'Hall' | 'Game'): string | null =>
    l.minCardsPerPurchase > l.maxCardsPerPurchase
      ? ex('gl_minAboveMax', { what })
      : l.maxCardsPerPurchase > l.maxCardsPerPlayer
        ? ex('gl_maxAbovePlayer', { what })
        : l.minCardsPerPurchase < outer.minCardsPerPurchase
          ? ex(`gl_below${of}`, { what, n: num(outer.minCardsPerPurchase) })
          : l.maxCardsPerPurchase > outer.maxCardsPerPurchase
            ? ex(`gl_above${of}`, { what, n: num(outer.maxCardsPerPurchase) })
            : l.maxCardsPerPlayer > outer.maxCardsPerPlayer
              ? ex(`gl_above${of}Player`, { what, n: num(outer.maxCardsPerPlayer) })
              : null
  const ref = f.ref.trim()
  if ((refRequired || ref) && (ref.length < 3 || ref.length > 120)) return { problem: ex('gl_refNeeded') }
  const game = read(f.game)
  if (game === null || game === 'partial' || game === 'bad') return { problem: ex('gl_whole') }
  const gameProblem = within(ex('gl_theGame'), game, hall, 'Hall')
  if (gameProblem) return { problem: gameProblem }
  const channels: Partial<Record<Channel, Limits>> = {}
  for (const c of CHANNELS) {
    const l = read(f.channels[c])
    if (l === null) continue
    if (l === 'partial') return { problem: ex('gl_partial', { channel: channelName(c) }) }
    if (l === 'bad') return { problem: ex('gl_whole') }
    const p = within(channelName(c), l, game, 'Game')
    if (p) return { problem: p }
    channels[c] = l
  }
  return { limits: { authorisationRef: ref || null, ...game, channels } }
}

/** The games of the hall's open session whose sale has not ended, each with its own limits and its form. */
export function GameLimitsPanel(props: { hallId: string; profileId: string; openSessionId: string | null }) {
  const games = useLoad(async () => {
    if (!props.openSessionId) return [] as GameView[]
    const session = await api<{ games: Array<{ gameId: string }> }>(
      'GET',
      `/api/sessions/${encodeURIComponent(props.openSessionId)}`,
    )
    const views = await Promise.all(
      session.games.map((g) => api<GameView>('GET', `/api/games/${encodeURIComponent(g.gameId)}`)),
    )
    return views.filter((g) => OPEN.includes(g.status)).sort((a, b) => a.orderNo - b.orderNo)
  }, [props.hallId, props.openSessionId])
  const [chosen, setChosen] = useState('')
  if (!games.data) return <Loading error={games.error} />
  const list = games.data
  const game = list.find((g) => g.gameId === chosen) ?? list[0]
  return (
    <div data-testid="game-limits">
      <h3>{ex('gl_title')}</h3>
      <p class="muted">{ex('gl_help')}</p>
      {!props.openSessionId ? (
        <p data-testid="game-limits-state">{ex('gl_noSession')}</p>
      ) : !game ? (
        <p data-testid="game-limits-state">{ex('gl_noGames')}</p>
      ) : (
        <>
          {list.length > 1 && (
            <Field label={ex('gl_game')}>
              <Select
                testId="game-limits-game"
                value={game.gameId}
                onValue={setChosen}
                options={list.map((g): [string, string] => [
                  g.gameId,
                  `${ex('gl_gameNo', { n: g.orderNo })} · ${ex(`gl_status_${g.status}` as EquipmentTextKey)}`,
                ])}
              />
            </Field>
          )}
          <OneGame
            key={game.gameId}
            game={game}
            refRequired={!!PROFILES[props.profileId]?.betLimitsAuthority}
            onSaved={games.reload}
          />
        </>
      )}
    </div>
  )
}

function OneGame(props: { game: GameView; refRequired: boolean; onSaved: () => void }) {
  const g = props.game
  const [form, setForm] = useState<Form>(() => formOf(g))
  const [problem, setProblem] = useState<string | null>(null)
  const [asking, setAsking] = useState<{ limits: GameLimits | null } | null>(null)
  const save = useAction(async () => {
    if (!asking) return
    try {
      await api('PUT', `/api/games/${encodeURIComponent(g.gameId)}/sale-limits`, { limits: asking.limits })
    } catch (err) {
      // The sale ended while the page was open: said for this form, not as the generic state refusal.
      if (err instanceof ApiError && err.code === 'ILLEGAL_TRANSITION')
        throw new ApiError(err.code, ex('gl_saleOver', { n: g.orderNo }), err.status)
      throw err
    }
    const removed = asking.limits === null
    setAsking(null)
    props.onSaved()
    return ex(removed ? 'gl_removed' : 'gl_saved')
  })
  const own = g.gameBets
  const setGame = (k: keyof Typed) => (v: string) => setForm({ ...form, game: { ...form.game, [k]: v } })
  const setChannel = (c: Channel, k: keyof Typed) => (v: string) =>
    setForm({ ...form, channels: { ...form.channels, [c]: { ...form.channels[c], [k]: v } } })
  const confirmText = (l: GameLimits): string[] => {
    const chans = CHANNELS.filter((c) => l.channels[c]).map((c) =>
      ex('gl_channelOnRecord', { channel: channelName(c), ...limitsText(l.channels[c]!) }),
    )
    return [
      ex('gl_confirmLead', limitsText(l)),
      ...(chans.length ? [ex('gl_confirmChannels', { list: chans.join(' ') })] : []),
      ex('gl_confirmRef', { reference: l.authorisationRef ?? '—' }),
    ]
  }
  return (
    <div data-testid="game-limits-game-panel">
      <p data-testid="game-limits-state">
        <strong>{ex('gl_gameNo', { n: g.orderNo })}</strong> ({ex(`gl_status_${g.status}` as EquipmentTextKey)}).{' '}
        <span class={`tag ${own ? 'good' : 'info'}`}>{ex(own ? 'gl_tagOwn' : 'gl_tagHall')}</span>{' '}
        {own
          ? own.authorisationRef
            ? ex('gl_onRecord', { reference: own.authorisationRef, ...limitsText(own) })
            : ex('gl_onRecordNoRef', limitsText(own))
          : ex('gl_none')}
      </p>
      {own &&
        CHANNELS.filter((c) => own.channels[c]).map((c) => (
          <p key={c} data-testid={`game-limits-channel-${c}`}>
            {ex('gl_channelOnRecord', { channel: channelName(c), ...limitsText(own.channels[c]!) })}
          </p>
        ))}
      <p class="muted" data-testid="game-limits-hall">
        {ex('gl_hallLimits', limitsText(g.bets))}
      </p>
      {can('hall.rules') && (
        <form
          class="inline"
          data-testid="game-limits-form"
          onSubmit={(e) => {
            e.preventDefault()
            const read = readForm(form, g.bets, props.refRequired)
            if ('problem' in read) return setProblem(read.problem)
            setProblem(null)
            setAsking({ limits: read.limits })
          }}
        >
          <Field label={ex('gl_ref')} wide>
            <Input
              name="gameLimitsRef"
              value={form.ref}
              maxLength={120}
              onValue={(v) => setForm({ ...form, ref: v })}
            />
          </Field>
          <Field label={ex('gl_min')}>
            <Input name="gameMin" inputMode="numeric" value={form.game.min} onValue={setGame('min')} />
          </Field>
          <Field label={ex('gl_max')}>
            <Input name="gameMax" inputMode="numeric" value={form.game.max} onValue={setGame('max')} />
          </Field>
          <Field label={ex('gl_player')}>
            <Input name="gamePlayer" inputMode="numeric" value={form.game.player} onValue={setGame('player')} />
          </Field>
          <div class="wide">
            <strong>{ex('gl_channels')}</strong>
            <table class="channel-limits" data-testid="game-limits-channels">
              <thead>
                <tr>
                  <th />
                  <th>{ex('gl_min')}</th>
                  <th>{ex('gl_max')}</th>
                  <th>{ex('gl_player')}</th>
                </tr>
              </thead>
              <tbody>
                {CHANNELS.map((c) => (
                  <tr key={c}>
                    <th>{channelName(c)}</th>
                    {(['min', 'max', 'player'] as const).map((k) => (
                      <td key={k}>
                        <input
                          name={`${c}-${k}`}
                          inputMode="numeric"
                          size={5}
                          aria-label={`${channelName(c)}: ${ex(k === 'min' ? 'gl_min' : k === 'max' ? 'gl_max' : 'gl_player')}`}
                          value={form.channels[c][k]}
                          onInput={(e) => setChannel(c, k)((e.target as HTMLInputElement).value)}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button type="submit" class="primary" disabled={save.busy}>
            {ex('gl_save')}
          </button>
          {own && (
            <button type="button" data-testid="game-limits-remove" onClick={() => setAsking({ limits: null })}>
              {ex('gl_remove')}
            </button>
          )}
        </form>
      )}
      {problem && (
        <Notice kind="error" testId="game-limits-problem">
          {problem}
        </Notice>
      )}
      {!asking && save.feedback}
      {asking && (
        <ConfirmDialog
          title={ex(asking.limits ? 'gl_confirmTitle' : 'gl_removeTitle', { n: g.orderNo })}
          consequence={
            asking.limits ? confirmText(asking.limits) : [ex('gl_removeLead'), ex('gl_hallLimits', limitsText(g.bets))]
          }
          confirm={ex(asking.limits ? 'gl_save' : 'gl_remove')}
          busy={save.busy}
          error={save.error}
          onConfirm={() => void save.run()}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  )
}
