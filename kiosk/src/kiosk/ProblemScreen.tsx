import type { KioskStore, Screen } from './store.ts'
import { TEXTS } from './texts.ts'

function PrinterIcon() {
  return (
    <svg
      viewBox="0 0 48 48"
      width="60%"
      height="60%"
      fill="none"
      stroke="currentColor"
      stroke-width="3.5"
      stroke-linejoin="round"
    >
      <path d="M14 18V6h20v12" />
      <rect x="6" y="18" width="36" height="16" rx="3" />
      <path d="M14 28h20v14H14z" fill="currentColor" fill-opacity="0.15" />
      <path d="M19 34h10M19 38h6" />
    </svg>
  )
}

/** One big, clear refusal with the way back to the basket: voucher, printer, sales or connection problems. */
export function ProblemScreen(props: { store: KioskStore; screen: Extract<Screen, { name: 'problem' }> }) {
  const { store, screen } = props
  const T = TEXTS[store.lang.value]
  const [title, body] = T.problems[screen.problem]
  // Spanish first and large; the other language under it, so a visitor reads the refusal without the switch.
  const other = store.lang.value === 'es' ? 'en' : 'es'
  const [otherTitle, otherBody] = TEXTS[other].problems[screen.problem]
  const printer = screen.problem.startsWith('printer')
  return (
    <section
      class={printer ? 'k-state k-state--stop k-state--device' : 'k-state k-state--stop'}
      data-testid="kiosk-problem"
      data-problem={screen.problem}
    >
      <div class="k-state__icon" aria-hidden="true">
        {printer ? <PrinterIcon /> : '!'}
      </div>
      <h1 class="k-state__title" data-testid="kiosk-problem-title">
        {title}
      </h1>
      <p class="k-state__hint" data-testid="kiosk-problem-body">
        {body}
      </p>
      <p class="k-state__second" lang={other} data-testid="kiosk-problem-second">
        <strong>{otherTitle}.</strong> {otherBody}
      </p>
      {screen.keepsCredit && (
        <p class="k-state__credit" data-testid="kiosk-credit-kept">
          {T.keepCredit}
        </p>
      )}
      <div class="k-row k-state__btns">
        {screen.retry && (
          <button type="button" class="btn btn--primary" data-testid="kiosk-retry" onClick={() => void store.retry()}>
            {T.tryAgain}
          </button>
        )}
        <button type="button" class="btn btn--secondary" data-testid="kiosk-back" onClick={() => store.back()}>
          {T.back}
        </button>
      </div>
    </section>
  )
}
