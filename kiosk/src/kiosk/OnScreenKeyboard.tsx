import { useEffect, useState } from 'preact/hooks'

/**
 * Issue 29 point 9: a touch kiosk has no keyboard. Any input marked `data-osk="code"` (a voucher's short code:
 * digits, letters, dash) or `data-osk="text"` (a player's name or document: also accents, space, dot) opens this
 * keyboard when touched: large keys, Spanish layout (with Ñ), Borrar and Aceptar. A key types into the field as a
 * keystroke would (an `input` event, so the screen's own handler sees it); Aceptar submits the field's form when it
 * has one (the voucher is read) or closes the keyboard.
 */
export type KeyboardMode = 'code' | 'text'

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']
const LETTERS = [
  ['Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P'],
  ['A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'Ñ'],
  ['Z', 'X', 'C', 'V', 'B', 'N', 'M', '-'],
]
const ACCENTS = ['Á', 'É', 'Í', 'Ó', 'Ú', 'Ü', '.', ',']

/** Types `text` at the caret (or deletes the character before it when `text` is null), as a keystroke would. */
function typeInto(input: HTMLInputElement, text: string | null) {
  const value = input.value
  const start = input.selectionStart ?? value.length
  const end = input.selectionEnd ?? value.length
  let next: string
  let caret: number
  if (text === null) {
    if (start === end && start === 0) return
    const from = start === end ? start - 1 : start
    next = value.slice(0, from) + value.slice(end)
    caret = from
  } else {
    next = value.slice(0, start) + text + value.slice(end)
    if (input.maxLength > 0 && next.length > input.maxLength) return
    caret = start + text.length
  }
  // The native setter, so that the framework's controlled value and the input event agree.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, next)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  try {
    input.setSelectionRange(caret, caret)
  } catch {
    /* inputs without a caret */
  }
}

export function OnScreenKeyboard(props: { labels: { delete: string; ok: string; space: string; keyboard: string } }) {
  const [target, setTarget] = useState<HTMLInputElement | null>(null)
  const [lower, setLower] = useState(false)
  useEffect(() => {
    const open = (e: FocusEvent) => {
      const el = e.target
      if (el instanceof HTMLInputElement && el.dataset.osk) {
        setTarget(el)
        setLower(false)
        // Above the keyboard, not under it.
        requestAnimationFrame(() => el.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior }))
      } else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)
        setTarget(null)
    }
    // Closed after a tap elsewhere has done its work: closing on the way down would move the screen under the
    // finger, and the tap ("LEER VALE") would land on whatever slid beneath it. Where the tap began decides (opening
    // the keyboard moves the screen too, so the click of a tap on a field may end on something else).
    let tapOutside = false
    const tapStarts = (e: PointerEvent) => {
      const el = e.target
      tapOutside = !(
        el instanceof Element &&
        (el.closest('.osk') || (el instanceof HTMLInputElement && Boolean(el.dataset.osk)))
      )
    }
    const closeAfterTap = () => {
      if (tapOutside) setTimeout(() => setTarget(null), 0)
      tapOutside = false
    }
    document.addEventListener('focusin', open)
    document.addEventListener('pointerdown', tapStarts, true)
    document.addEventListener('click', closeAfterTap)
    return () => {
      document.removeEventListener('focusin', open)
      document.removeEventListener('pointerdown', tapStarts, true)
      document.removeEventListener('click', closeAfterTap)
    }
  }, [])
  const shown = target !== null && target.isConnected
  useEffect(() => {
    document.body.classList.toggle('osk-open', shown)
    return () => document.body.classList.remove('osk-open')
  }, [shown])
  if (!shown) return null
  const mode = (target.dataset.osk as KeyboardMode) ?? 'code'
  const text = mode === 'text'
  // A key press must not take the focus from the field (the caret stays where it was).
  const keep = (e: Event) => e.preventDefault()
  const key = (label: string, value = label) => (
    <button
      type="button"
      key={label}
      class="osk__key"
      data-testid={`osk-key-${label}`}
      onPointerDown={keep}
      onMouseDown={keep}
      onClick={() => typeInto(target, text && lower ? value.toLowerCase() : value)}
    >
      {text && lower ? label.toLowerCase() : label}
    </button>
  )
  const ok = () => {
    const form = target.form
    if (form && mode === 'code') form.requestSubmit()
    target.blur()
    setTarget(null)
  }
  return (
    <div class={`osk osk--${mode}`} role="group" aria-label={props.labels.keyboard} data-testid="osk">
      <div class="osk__row">{DIGITS.map((d) => key(d))}</div>
      {LETTERS.map((row, i) => (
        <div class="osk__row" key={i}>
          {row.filter((k) => text || k !== 'Ñ').map((k) => key(k))}
          {i === 2 && (
            <button
              type="button"
              class="osk__key osk__key--wide osk__key--delete"
              data-testid="osk-delete"
              onPointerDown={keep}
              onMouseDown={keep}
              onClick={() => typeInto(target, null)}
            >
              {'\u2190'} {props.labels.delete}
            </button>
          )}
        </div>
      ))}
      {text && <div class="osk__row">{ACCENTS.map((k) => key(k))}</div>}
      <div class="osk__row">
        {text && (
          <button
            type="button"
            class={lower ? 'osk__key osk__key--wide osk__key--on' : 'osk__key osk__key--wide'}
            data-testid="osk-case"
            aria-pressed={lower}
            onPointerDown={keep}
            onMouseDown={keep}
            onClick={() => setLower(!lower)}
          >
            {lower ? 'ABC' : 'abc'}
          </button>
        )}
        {text && (
          <button
            type="button"
            class="osk__key osk__key--space"
            data-testid="osk-space"
            onPointerDown={keep}
            onMouseDown={keep}
            onClick={() => typeInto(target, ' ')}
          >
            {props.labels.space}
          </button>
        )}
        <button
          type="button"
          class="osk__key osk__key--wide osk__key--ok"
          data-testid="osk-ok"
          onPointerDown={keep}
          onMouseDown={keep}
          onClick={ok}
        >
          {props.labels.ok}
        </button>
      </div>
    </div>
  )
}
