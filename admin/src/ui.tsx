/**
 * Small building blocks of the back office: panels, fields, tables, an action button that shows the server's
 * message (in the screen's language, never its code) and a loader hook.
 */
import type { ComponentChildren, JSX } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { money as formatMoney } from '../../web/format.ts'
import { localeOf } from '../../web/i18n.ts'
import { ApiError } from '../../web/http.ts'
import { formatInZone, isoInZone, zoneLabel, zoneOffsetMinutes } from '../../server/src/shared/time-zone.ts'
import { dayText, hallWallValue, readDayMonthYear, splitWallValue } from '../../web/hall-date.ts'
import { lang, me } from './session.ts'
import { t, type AdminTextKey } from './texts.ts'

export const tx = (key: AdminTextKey, vars?: Record<string, string | number>) => t(lang.value, key, vars)

export function money(cents: number | null | undefined, currency = 'BOB'): string {
  return cents === null || cents === undefined ? '—' : formatMoney(Number(cents), currency, lang.value)
}
export function percent(bp: number | null | undefined): string {
  return bp === null || bp === undefined
    ? '—'
    : `${(bp / 100).toLocaleString(localeOf(lang.value), { maximumFractionDigits: 2 })} %`
}
/** The clock the back office reads times in (issue 29): the hall's zone from /api/me, never the browser's. */
export function hallZone(): string {
  return me.value?.timeZone || 'UTC'
}
/**
 * A time as the hall's wall clock with its zone named, "03/11/2026 15:00 (La Paz, UTC-04:00)": `zone` is the one
 * the answer names (a draw's plan), else the hall's.
 */
export function when(iso: string | null | undefined, zone?: string | null): string {
  if (!iso || !Number.isFinite(Date.parse(iso))) return '—'
  return formatInZone(iso, zone || hallZone(), 'date-time', true)
}
/** "La Paz, UTC-04:00": the clock a date field is typed in, shown beside it. */
export function hallZoneLabel(): string {
  return zoneLabel(Date.now(), hallZone())
}
/** Instant `t` (ms) as the hall's wall clock, "2026-11-03T15:00", the value a datetime-local field shows. */
export function hallInput(t: number, zone: string = hallZone()): string {
  return isoInZone(t, zone).slice(0, 16)
}
/**
 * The instant a datetime-local value ("2026-11-03T15:00") means on the hall's clock, as ISO 8601 UTC: the browser's
 * own zone never moves a planned draw. Text that is not such a value goes as typed, for the server to refuse.
 */
export function hallInstant(local: string, zone: string = hallZone()): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim())
  if (!m) return local
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0))
  // The offset at the guess, then at the result: right across a daylight-saving change as well.
  let t = wall - zoneOffsetMinutes(wall, zone) * 60_000
  t = wall - zoneOffsetMinutes(t, zone) * 60_000
  return new Date(t).toISOString()
}
/** A calendar day ("2026-11-03", sent as its noon UTC): read in UTC so no browser zone can move it a day. */
export function day(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleDateString(localeOf(lang.value), { dateStyle: 'medium', timeZone: 'UTC' })
}
export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : Number(n).toLocaleString(localeOf(lang.value))
}

/** What a person reads when a call fails: the server's localized message, never its code. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message
  return lang.value === 'en' ? 'Something went wrong.' : 'Algo salió mal.'
}

export function Panel(props: {
  title: string
  children: ComponentChildren
  actions?: ComponentChildren
  testId?: string
  wide?: boolean
}) {
  return (
    <section class={`panel${props.wide ? ' wide' : ''}`} data-testid={props.testId}>
      <header>
        <h2>{props.title}</h2>
        {props.actions && <div class="actions">{props.actions}</div>}
      </header>
      <div class="panel-body">{props.children}</div>
    </section>
  )
}

export function Field(props: { label: string; children: ComponentChildren; wide?: boolean }) {
  return (
    <label class={`field${props.wide ? ' wide' : ''}`}>
      <span>{props.label}</span>
      {props.children}
    </label>
  )
}

/**
 * Issue 29 point 4: a date and time on the hall's clock as two typed fields, day first (dd/mm/aaaa) and 24 h, with
 * the zone named, instead of the browser's date picker (drawn in the browser's locale: mm/dd/yyyy and AM/PM in
 * en-US). `value` and `onValue` carry "YYYY-MM-DDTHH:MM" (hallInstant reads it on the hall's clock); a pair that is
 * not a real day and time gives '' (the form asks for the field again) and says what to type.
 */
export function HallDateTime(props: {
  name: string
  label: string
  value: string
  onValue: (v: string) => void
  invalid?: boolean
  /** The zone the field is typed in, when it is another hall's than the back office's own (hallZone). */
  zone?: string
}) {
  const [typed, setTyped] = useState(() => splitWallValue(props.value))
  const wall = hallWallValue(typed.date, typed.time)
  const change = (next: { date: string; time: string }) => {
    setTyped(next)
    props.onValue(hallWallValue(next.date, next.time) ?? '')
  }
  const bad = props.invalid || wall === null
  return (
    <HallDateField
      name={props.name}
      label={props.label}
      zone={props.zone}
      hint={wall === null && (typed.date.trim() || typed.time.trim()) ? tx('dateBad') : null}
    >
      <HallDatePart
        name={`${props.name}-date`}
        label={`${props.label}: ${tx('dateDay')}`}
        placeholder={tx('dateDayPlaceholder')}
        size={10}
        value={typed.date}
        bad={bad}
        onText={(date) => change({ ...typed, date })}
      />
      <HallDatePart
        name={`${props.name}-time`}
        label={`${props.label}: ${tx('dateHour')}`}
        placeholder={tx('dateHourPlaceholder')}
        size={5}
        value={typed.time}
        bad={bad}
        onText={(time) => change({ ...typed, time })}
      />
    </HallDateField>
  )
}

/**
 * Issue 29 point 4: HallDateTime's day-only twin, for a field that is a day of the hall (a last day of sale, a
 * report's period): typed dd/mm/aaaa whatever the browser's locale, the zone named. `value` and `onValue` carry
 * "YYYY-MM-DD"; what is not a real day gives '' and says what to type.
 */
export function HallDay(props: {
  name: string
  label: string
  value: string
  onValue: (v: string) => void
  invalid?: boolean
}) {
  const [typed, setTyped] = useState(() => dayText(props.value))
  const read = typed.trim() ? readDayMonthYear(typed) : ''
  return (
    <HallDateField name={props.name} label={props.label} hint={read === null ? tx('dayBad') : null}>
      <HallDatePart
        name={`${props.name}-date`}
        label={`${props.label}: ${tx('dateDay')}`}
        placeholder={tx('dateDayPlaceholder')}
        size={10}
        value={typed}
        bad={props.invalid || read === null}
        onText={(text) => {
          setTyped(text)
          props.onValue(text.trim() ? (readDayMonthYear(text) ?? '') : '')
        }}
      />
    </HallDateField>
  )
}

/** The frame HallDateTime and HallDay share: the label with the hall's zone, the typed parts, the hint when wrong. */
function HallDateField(props: {
  name: string
  label: string
  hint: string | null
  zone?: string
  children: ComponentChildren
}) {
  return (
    <div class="field" data-testid={`${props.name}-field`}>
      <span>
        {props.label} ({props.zone ? zoneLabel(Date.now(), props.zone) : hallZoneLabel()})
      </span>
      <span class="inline date-pair">{props.children}</span>
      {props.hint && (
        <small class="muted" data-testid={`${props.name}-hint`}>
          {props.hint}
        </small>
      )}
    </div>
  )
}

/** One typed part of a hall date (the day or the hour): digits on a touch keyboard, marked when the whole is wrong. */
function HallDatePart(props: {
  name: string
  label: string
  placeholder: string
  size: number
  value: string
  bad: boolean
  onText: (text: string) => void
}) {
  return (
    <input
      name={props.name}
      aria-label={props.label}
      placeholder={props.placeholder}
      inputMode="numeric"
      autocomplete="off"
      size={props.size}
      value={props.value}
      aria-invalid={props.bad ? 'true' : undefined}
      onInput={(e) => props.onText((e.target as HTMLInputElement).value)}
    />
  )
}

export function Input(
  props: Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'value'> & {
    value: string | number
    onValue: (v: string) => void
  },
) {
  const { onValue, ...rest } = props
  return <input {...rest} value={props.value} onInput={(e) => onValue((e.target as HTMLInputElement).value)} />
}

export function Select(props: {
  value: string
  onValue: (v: string) => void
  options: Array<[string, string]>
  testId?: string
}) {
  return (
    <select
      value={props.value}
      data-testid={props.testId}
      onChange={(e) => props.onValue((e.target as HTMLSelectElement).value)}
    >
      {props.options.map(([v, label]) => (
        <option value={v} key={v}>
          {label}
        </option>
      ))}
    </select>
  )
}

export function Notice(props: { kind: 'ok' | 'error' | 'info'; children: ComponentChildren; testId?: string }) {
  return (
    <p class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'} data-testid={props.testId}>
      {props.children}
    </p>
  )
}

/** What a form's last submit came to: the refusal in words, or what was done. */
export function Feedback(props: { error: string | null; ok: string | null }) {
  return (
    <>
      {props.error && (
        <Notice kind="error" testId="error">
          {props.error}
        </Notice>
      )}
      {props.ok && (
        <Notice kind="ok" testId="ok">
          {props.ok}
        </Notice>
      )}
    </>
  )
}

/** A form's submit: runs `action`, shows the server's message on failure and `done` on success. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<string | void>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const run = useCallback(
    async (...args: A) => {
      setBusy(true)
      setError(null)
      setOk(null)
      try {
        const said = await action(...args)
        setOk(said ?? tx('done'))
      } catch (err) {
        setError(errorText(err))
      } finally {
        setBusy(false)
      }
    },
    [action],
  )
  const feedback = <Feedback error={error} ok={ok} />
  return { run, busy, error, ok, feedback }
}

/**
 * Loads with `fn` whenever `deps` change; `reload()` loads again and settles once that load has landed, so an
 * action that says "saved" can say it beside the list as it now stands, not the one before.
 */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [n, setN] = useState(0)
  const asked = useRef(0)
  const waiting = useRef<{ load: number; done: () => void }[]>([])
  useEffect(() => {
    let live = true
    setError(null)
    // A load answers the reloads asked up to its own turn; an older load still in flight answers none.
    const settle = () => {
      if (!live) return
      const still = waiting.current.filter((w) => w.load > n)
      for (const w of waiting.current) if (w.load <= n) w.done()
      waiting.current = still
    }
    fn().then(
      (d) => {
        if (live) setData(d)
        settle()
      },
      (err) => {
        if (live) setError(errorText(err))
        settle()
      },
    )
    return () => {
      live = false
    }
  }, [...deps, n, lang.value])
  const reload = useCallback(
    () =>
      new Promise<void>((done) => {
        const load = ++asked.current
        waiting.current.push({ load, done })
        setN(load)
      }),
    [],
  )
  return { data, error, reload }
}

export function Loading(props: { error: string | null }) {
  return props.error ? <Notice kind="error">{props.error}</Notice> : <p class="muted">{tx('loading')}</p>
}

export function Table(props: { head: string[]; rows: ComponentChildren[][]; testId?: string; empty?: string }) {
  if (props.rows.length === 0)
    return (
      <p class="muted" data-testid={props.testId}>
        {props.empty ?? tx('nothing')}
      </p>
    )
  return (
    <table data-testid={props.testId}>
      <thead>
        <tr>
          {props.head.map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Opens a PDF fetched with the Authorization header (a plain link cannot carry it). */
export async function openPdf(
  path: string,
  request: { blob(path: string, body?: unknown): Promise<Blob> },
  body?: unknown,
) {
  const blob = await request.blob(path, body)
  const url = URL.createObjectURL(blob)
  window.open(url, '_blank')
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

export function cents(value: string): number {
  const n = Number(value.replace(',', '.'))
  return Number.isFinite(n) ? Math.round(n * 100) : 0
}

/**
 * An irreversible action asked in the page (issue 29 points 7 and 8), not the browser's confirm(): the question and
 * its consequence in the screen's language, Cancel focused first so Enter alone never commits it; Escape cancels.
 * The one dialog of the back office: the device list renders it directly (with the server's refusal inside), the
 * lottery screens through {@link useConfirm}.
 */
export function ConfirmDialog(props: {
  title: string
  /** One paragraph, or several (the first in bold). */
  consequence: string | string[]
  confirm: string
  /** Red confirm button and border: the action cannot be undone. */
  danger?: boolean
  busy?: boolean
  /** The server's refusal, in words, shown in the dialog. */
  error?: string | null
  onConfirm: () => void
  onCancel: () => void
}) {
  const paragraphs = typeof props.consequence === 'string' ? [props.consequence] : props.consequence
  return (
    <div class="modal" data-testid="confirm-dialog">
      <div
        class={`modal-box${props.danger ? ' danger' : ''}`}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        data-testid="confirm"
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel()
        }}
      >
        <h2 id="confirm-title">{props.title}</h2>
        {paragraphs.map((p, i) => (
          <p key={i} class={i === 0 && paragraphs.length > 1 ? 'lead' : ''} data-testid="confirm-consequence">
            {p}
          </p>
        ))}
        {props.error && (
          <Notice kind="error" testId="error">
            {props.error}
          </Notice>
        )}
        <div class="modal-actions">
          <button type="button" data-testid="confirm-cancel" autoFocus onClick={props.onCancel}>
            {tx('cancel')}
          </button>
          <button
            type="button"
            class={props.danger ? 'danger' : 'primary'}
            data-testid="confirm-ok"
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {props.confirm}
          </button>
        </div>
      </div>
    </div>
  )
}

/** What a confirmation says: the action, its consequence in the person's words, and the button that does it. */
export interface ConfirmAsk {
  title: string
  consequence: string[]
  confirmLabel: string
  danger?: boolean
}

/**
 * Asks before an action that cannot be undone (issue 29 point 8): a dialog that states the consequence, with
 * Cancel focused first so Enter alone never commits it. `ask` resolves true only on the confirm button.
 */
export function useConfirm() {
  const [asking, setAsking] = useState<(ConfirmAsk & { answer: (yes: boolean) => void }) | null>(null)
  const ask = useCallback(
    (what: ConfirmAsk) =>
      new Promise<boolean>((resolve) =>
        setAsking({
          ...what,
          answer: (yes) => {
            setAsking(null)
            resolve(yes)
          },
        }),
      ),
    [],
  )
  const dialog = asking ? (
    <ConfirmDialog
      title={asking.title}
      consequence={asking.consequence}
      confirm={asking.confirmLabel}
      danger={asking.danger}
      onConfirm={() => asking.answer(true)}
      onCancel={() => asking.answer(false)}
    />
  ) : null
  return { ask, dialog }
}
