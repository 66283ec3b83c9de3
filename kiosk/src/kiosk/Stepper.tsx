/** Big − and + buttons around a count (touch targets of at least 4.5rem). */
export function Stepper(props: {
  value: number
  min?: number
  max: number
  onChange: (n: number) => void
  testId: string
}) {
  const { value, max, onChange, testId } = props
  const min = props.min ?? 0
  return (
    <div class="k-stepper">
      <button
        type="button"
        class="k-stepper__btn"
        data-testid={`${testId}-minus`}
        aria-label="−"
        disabled={value <= min}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <output class="k-stepper__value" data-testid={`${testId}-value`}>
        {value}
      </output>
      <button
        type="button"
        class="k-stepper__btn"
        data-testid={`${testId}-plus`}
        aria-label="+"
        disabled={value >= max}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  )
}
