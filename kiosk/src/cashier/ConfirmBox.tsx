import { useEffect, useRef } from 'preact/hooks'

/**
 * An irreversible step said with its consequence before it is taken (issue 29): the yes button takes the focus, so
 * Enter confirms and Escape (or the cancel button) goes back.
 */
export function ConfirmBox(props: {
  title: string
  text: string
  yes: string
  no: string
  busy: boolean
  yesType?: 'button' | 'submit'
  onYes?: () => void
  onNo: () => void
  testId: string
}) {
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    yes.current?.focus()
  }, [])
  return (
    <div
      class="c-confirm"
      role="alertdialog"
      aria-label={props.title}
      data-testid={props.testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onNo()
      }}
    >
      <strong class="c-confirm__title">{props.title}</strong>
      <p class="c-confirm__text" data-testid={`${props.testId}-text`}>
        {props.text}
      </p>
      <div class="c-confirm__actions">
        <button
          ref={yes}
          type={props.yesType ?? 'button'}
          class="c-btn c-btn--pay c-btn--refund"
          data-testid={`${props.testId}-yes`}
          disabled={props.busy}
          onClick={props.yesType === 'submit' ? undefined : props.onYes}
        >
          {props.yes}
        </button>
        <button type="button" class="c-btn c-btn--ghost" data-testid={`${props.testId}-no`} onClick={props.onNo}>
          {props.no}
        </button>
      </div>
    </div>
  )
}
