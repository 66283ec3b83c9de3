import { useLayoutEffect, useRef } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { CardGrid } from '../../../web/CardGrid.tsx'
import { claimReason, markedCount } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * Claim check by card serial (BNG-46, BNG-47): the card is shown against the balls called, and the verdict with
 * its reason. A verified claim opens the "any more?" window for the hall (BNG-50).
 */
export function ClaimPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const input = useRef<HTMLInputElement>(null)
  const focus = store.claimFocus.value
  // Layout effect: the field has focus before the next key arrives (L then the serial, typed at speed).
  useLayoutEffect(() => { if (focus > 0) { input.current?.focus(); input.current?.select() } }, [focus])
  const kind = store.claimKind.value
  const result = store.claimResult.value
  const submit = async (e: Event) => {
    e.preventDefault()
    await store.claim()
    // Back to the game: Space draws again without an Esc first (BNG-49: a rejected claim resumes play).
    input.current?.blur()
  }
  const called = new Set(result?.called ?? [])
  return (
    <div class="cc-panel cc-claim">
      <h2>{t(lang, 'claims')}</h2>
      {/* BNG-46: play stops while a called card is checked; BNG-49: it resumes when the claim fails. */}
      {game.status === 'drawing' && (
        <button type="button" class="cc-btn cc-btn--big cc-claim__stop" data-testid="claim-stop" disabled={Boolean(store.busy.value)} onClick={() => void store.stopForClaim()}>
          {t(lang, 'stopForClaim')}
        </button>
      )}
      {game.status === 'checking' && (
        <button type="button" class="cc-btn cc-btn--big cc-claim__resume" data-testid="claim-resume" disabled={Boolean(store.busy.value)} onClick={() => void store.resumePlay()}>
          {t(lang, 'resumePlay')}
        </button>
      )}
      <form class="cc-row" onSubmit={submit}>
        <div class="cc-seg" role="radiogroup">
          <button type="button" class={kind === 'line' ? 'cc-seg__btn cc-seg__btn--on' : 'cc-seg__btn'} data-testid="claim-kind-line" aria-pressed={kind === 'line'} onClick={() => { store.claimKind.value = 'line' }}>
            {t(lang, 'claimLine')} <kbd>L</kbd>
          </button>
          <button type="button" class={kind === 'bingo' ? 'cc-seg__btn cc-seg__btn--on' : 'cc-seg__btn'} data-testid="claim-kind-bingo" aria-pressed={kind === 'bingo'} onClick={() => { store.claimKind.value = 'bingo' }}>
            {t(lang, 'claimBingo')} <kbd>B</kbd>
          </button>
        </div>
        <input
          ref={input}
          class="cc-serial"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="A-00001"
          aria-label={t(lang, 'serial')}
          value={store.claimSerial.value}
          data-testid="claim-serial"
          onInput={(e) => { store.claimSerial.value = (e.target as HTMLInputElement).value.toUpperCase() }}
        />
        <button type="submit" class="cc-btn cc-btn--primary cc-btn--big" data-testid="claim-submit" disabled={Boolean(store.busy.value)}>
          {t(lang, 'check')} <kbd>⏎</kbd>
        </button>
      </form>
      {result && (
        <div class={result.ok ? 'cc-verdict cc-verdict--ok' : 'cc-verdict cc-verdict--no'} data-testid="claim-result" data-ok={result.ok ? 'true' : 'false'}>
          <div class="cc-verdict__head">
            <span class="cc-verdict__word" data-testid="claim-verdict">{result.ok ? t(lang, 'verified') : t(lang, 'rejected')}</span>
            <span class="cc-verdict__what">{result.kind === 'line' ? t(lang, 'claimLine') : t(lang, 'claimBingo')} · <strong data-testid="claim-result-serial">{result.serial}</strong></span>
            {!result.ok && result.reason && <span class="cc-verdict__reason" data-testid="claim-reason">{claimReason(result.reason, lang)}</span>}
          </div>
          {result.card && (
            <div class="cc-verdict__card">
              <CardGrid rows={result.card.rows} ballCount={game.ballCount} called={called} testId="claim-card" />
              <div class="cc-muted">{markedCount(result.card.rows, called)} / {result.card.rows.flat().length} {t(lang, 'calledOf')} · {text(lang, 'extractions')}: {result.called.length}</div>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
