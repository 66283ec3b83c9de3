import { useState } from 'preact/hooks'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { useLoad } from './load.ts'
import type { InspectorStore } from './store.ts'
import { t } from './texts.ts'

type Kind = 'bingo' | 'lotto' | 'lottery'
interface Row {
  when: string
  /** The zone the answer names (the hall's), if any. */
  zone?: string | null
  what: string
  serial: string
  amountCents: number
  currency: string
  payee: string
}

/** Prize registers of every product (BNG-87, LOT-19): when, which game, which card or ticket, how much, to whom. */
export function RegistersSection({ store, lang }: { store: InspectorStore; lang: Lang }) {
  const kinds: Kind[] = [
    ...(store.can('minutes.read') ? ['bingo' as const] : []),
    ...(store.can('report.read') ? ['lotto' as const, 'lottery' as const] : []),
  ]
  const [which, setWhich] = useState<Kind>(kinds[0] ?? 'bingo')
  const when = store.when
  const rows = useLoad(async (): Promise<Row[]> => {
    if (which === 'bingo') {
      const r = await store.request<{
        rows: Array<{
          paidAt: string
          hallName: string
          gameNo: number
          serial: string
          amountCents: number
          currency: string
          payeeName: string | null
        }>
        timeZone?: string
      }>('GET', '/api/prize-register')
      return r.rows.map((x) => ({
        when: x.paidAt,
        zone: r.timeZone,
        what: `${x.hallName} · ${t(lang, 'gameNo')} ${x.gameNo}`,
        serial: x.serial,
        amountCents: x.amountCents,
        currency: x.currency,
        payee: x.payeeName ?? '—',
      }))
    }
    const r = await store.request<{
      entries: Array<{
        paidAt: string
        gameCode?: string
        drawNumber: number
        ticketNumber: string
        amountCents: number
        currency: string
        payee?: { name: string | null }
      }>
    }>('GET', which === 'lotto' ? '/api/lotto/prize-register' : '/api/lottery/prize-register')
    return r.entries.map((x) => ({
      when: x.paidAt,
      what: `${x.gameCode ? `${x.gameCode} · ` : ''}${t(lang, 'drawNo')} ${x.drawNumber}`,
      serial: x.ticketNumber,
      amountCents: x.amountCents,
      currency: x.currency,
      payee: x.payee?.name ?? '—',
    }))
  }, [which])
  if (kinds.length === 0) return null
  const total = (rows.data ?? []).reduce((s, r) => s + r.amountCents, 0)
  return (
    <section class="in-panel in-panel--wide" data-testid="registers">
      <h2>{t(lang, 'registers')}</h2>
      <div class="in-row">
        {kinds.map((k) => (
          <button
            key={k}
            type="button"
            class={k === which ? 'in-btn in-btn--on' : 'in-btn'}
            data-testid={`register-${k}`}
            aria-pressed={k === which}
            onClick={() => setWhich(k)}
          >
            {t(lang, k)}
          </button>
        ))}
        {which === 'bingo' && (
          <button
            type="button"
            class="in-btn"
            data-testid="register-pdf"
            onClick={() => void store.open(`/api/prize-register.pdf?lang=${lang}`, 'registro-de-premios.pdf')}
          >
            PDF
          </button>
        )}
      </div>
      {rows.error && <p class="in-bad">{rows.error}</p>}
      {!rows.data ? (
        <p class="in-muted">{t(lang, 'loading')}</p>
      ) : rows.data.length === 0 ? (
        <p class="in-muted" data-testid="register-empty">
          {t(lang, 'nothing')}
        </p>
      ) : (
        <table class="in-table" data-testid="register-table">
          <thead>
            <tr>
              <th>{t(lang, 'when')}</th>
              <th>{t(lang, 'gameNo')}</th>
              <th>{t(lang, 'serial')}</th>
              <th>{t(lang, 'amount')}</th>
              <th>{t(lang, 'payee')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.data.map((r, i) => (
              <tr key={i} data-testid="register-row">
                <td>{when(r.when, r.zone)}</td>
                <td>{r.what}</td>
                <td>
                  <strong>{r.serial}</strong>
                </td>
                <td class="in-num">{money(r.amountCents, r.currency, lang)}</td>
                <td>{r.payee}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th colSpan={3}>{t(lang, 'entries', { n: rows.data.length })}</th>
              <th class="in-num">{money(total, rows.data[0]?.currency ?? 'BOB', lang)}</th>
              <th />
            </tr>
          </tfoot>
        </table>
      )}
    </section>
  )
}
