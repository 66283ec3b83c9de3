/**
 * A prize in goods as the plan forms ask for it (LOT-22, LNS-23, PRM-11): what the good is, its class (movable,
 * registrable, real estate: the server refuses real estate), the documents that back it, and who provides it (the
 * operator or a sponsor). One set of fields for the lotto, lottery and raffle forms, so that the three ask the same.
 */
import { Field, Input, Select } from '../ui.tsx'
import { lx } from './lottery-texts.ts'

export interface GoodsValue {
  description: string
  class: '' | 'movable' | 'registrable' | 'real-estate'
  invoiceRef: string
  commitmentRef: string
  supplierCertificateRef: string
  source: '' | 'operator' | 'sponsor'
}

export const emptyGoods = (): GoodsValue => ({
  description: '',
  class: '',
  invoiceRef: '',
  commitmentRef: '',
  supplierCertificateRef: '',
  source: '',
})

/** The labels of the fields a goods prize still lacks before it is sent (the backing is the server's to judge). */
export function goodsMissing(g: GoodsValue, withDescription = true): string[] {
  return [
    ...(withDescription && !g.description.trim() ? [lx('gp_description')] : []),
    ...(g.class ? [] : [lx('gp_class')]),
    ...(g.source ? [] : [lx('gp_source')]),
  ]
}

/** The good as POST /api/lottery/draws and /api/lotto/draws take it; a blank document is not sent. */
export function goodsBody(g: GoodsValue) {
  const ref = (v: string) => (v.trim() ? v.trim() : null)
  return {
    description: g.description.trim(),
    class: g.class as Exclude<GoodsValue['class'], ''>,
    invoiceRef: ref(g.invoiceRef),
    commitmentRef: ref(g.commitmentRef),
    supplierCertificateRef: ref(g.supplierCertificateRef),
  }
}

export function SourceSelect(props: { testId: string; value: string; onValue: (v: GoodsValue['source']) => void }) {
  return (
    <Field label={lx('gp_source')}>
      <Select
        testId={props.testId}
        value={props.value}
        onValue={(v) => props.onValue(v as GoodsValue['source'])}
        options={[
          ['', lx('choose')],
          ['operator', lx('gp_operator')],
          ['sponsor', lx('gp_sponsor')],
        ]}
      />
    </Field>
  )
}

export function GoodsPrizeFields(props: {
  prefix: string
  value: GoodsValue
  onValue: (g: GoodsValue) => void
  withDescription?: boolean
}) {
  const { prefix, value: g } = props
  const set = (k: keyof GoodsValue) => (v: string) => props.onValue({ ...g, [k]: v })
  const text = (k: 'description' | 'invoiceRef' | 'commitmentRef' | 'supplierCertificateRef') => (
    <Field label={lx(`gp_${k}`)}>
      <Input name={`${prefix}-${k}`} value={g[k]} onValue={set(k)} />
    </Field>
  )
  return (
    <div class="form-grid" data-testid={`${prefix}-goods`}>
      {props.withDescription !== false && text('description')}
      <Field label={lx('gp_class')}>
        <Select
          testId={`${prefix}-class`}
          value={g.class}
          onValue={set('class')}
          options={[
            ['', lx('choose')],
            ['movable', lx('gp_movable')],
            ['registrable', lx('gp_registrable')],
            ['real-estate', lx('gp_realEstate')],
          ]}
        />
      </Field>
      {text('invoiceRef')}
      {g.class === 'registrable' && text('commitmentRef')}
      {g.class === 'registrable' && text('supplierCertificateRef')}
      <SourceSelect testId={`${prefix}-source`} value={g.source} onValue={(v) => props.onValue({ ...g, source: v })} />
    </div>
  )
}
