import { useState } from 'preact/hooks'
import type { ChainVerification } from '../../../server/src/shared/journal-chain.ts'
import type { Lang } from '../../../web/i18n.ts'
import { useLoad } from './load.ts'
import type { InspectorStore } from './store.ts'
import { t, type InspectorKey } from './texts.ts'

/** The journal's hash chain checked end to end, and the signed checkpoints a regulator keeps (DESIGN.md "Journal"). */
export function JournalSection({ store, lang }: { store: InspectorStore; lang: Lang }) {
  const [result, setResult] = useState<ChainVerification | null>(null)
  const [busy, setBusy] = useState(false)
  const checkpoints = useLoad(() => store.checkpoints(), [])
  const when = store.when
  const verify = async () => {
    setBusy(true)
    try {
      setResult(await store.request<ChainVerification>('GET', '/api/journal/verify'))
    } catch (err) {
      store.show(err)
    } finally {
      setBusy(false)
    }
  }
  const reason = (r?: string) =>
    r && (['game-ended', 'sales-closed', 'timer', 'session-closed'] as const).includes(r as never)
      ? t(lang, `r_${r.replace('-', '_')}` as InspectorKey)
      : '—'
  return (
    <section class="in-panel" data-testid="journal">
      <h2>{t(lang, 'journal')}</h2>
      <button
        type="button"
        class="in-btn in-btn--primary"
        data-testid="verify-journal"
        disabled={busy}
        onClick={() => void verify()}
      >
        {t(lang, 'verify')}
      </button>
      {result && (
        <p class={result.ok ? 'in-ok' : 'in-bad'} data-testid="journal-result" data-ok={String(result.ok)}>
          {result.ok ? t(lang, 'chainOk', { n: result.count }) : t(lang, 'chainBad', { seq: result.badSeq })}
        </p>
      )}
      <h3>{t(lang, 'checkpoints')}</h3>
      <p class="in-muted">{t(lang, 'checkpointsHelp')}</p>
      {checkpoints.error && <p class="in-bad">{checkpoints.error}</p>}
      {!checkpoints.data ? (
        <p class="in-muted">{t(lang, 'loading')}</p>
      ) : checkpoints.data.list.length === 0 ? (
        <p class="in-muted">{t(lang, 'noCheckpoints')}</p>
      ) : (
        <>
          <button
            type="button"
            class="in-btn"
            data-testid="download-checkpoints"
            onClick={() => {
              const a = document.createElement('a')
              a.href = URL.createObjectURL(checkpoints.data!.blob)
              a.download = 'checkpoints.jsonl'
              a.click()
            }}
          >
            {t(lang, 'download')}
          </button>
          <table class="in-table" data-testid="checkpoints">
            <thead>
              <tr>
                <th>{t(lang, 'record')}</th>
                <th>{t(lang, 'when')}</th>
                <th>{t(lang, 'why')}</th>
                <th>{t(lang, 'key')}</th>
              </tr>
            </thead>
            <tbody>
              {checkpoints.data.list
                .slice(-20)
                .reverse()
                .map((cp) => (
                  <tr key={cp.seq} data-testid="checkpoint">
                    <td class="in-num">{cp.seq}</td>
                    <td>{when(cp.at)}</td>
                    <td>{reason(cp.reason)}</td>
                    <td>
                      <code>{cp.keyId.slice(0, 16)}</code>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}
