import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { CardGrid } from '../../../web/CardGrid.tsx'
import { claimReason, markedCount, prizeKindWord } from '../../../web/format.ts'
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
  // Issue 29: only a new L / B press moves the focus into the field. The panel mounts again with every game's first
  // ball: an old press must not take the field then, or Space would type spaces instead of drawing.
  const seen = useRef(focus)
  const [typing, setTyping] = useState(false)
  // Layout effect: the field has focus before the next key arrives (L then the serial, typed at speed).
  useLayoutEffect(() => {
    if (focus === seen.current) return
    seen.current = focus
    input.current?.focus()
    input.current?.select()
  }, [focus])
  const choices = store.claimChoices.value
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
        <button
          type="button"
          class="cc-btn cc-btn--big cc-claim__stop"
          data-testid="claim-stop"
          disabled={Boolean(store.busy.value)}
          onClick={() => void store.stopForClaim()}
        >
          {t(lang, 'stopForClaim')}
        </button>
      )}
      {game.status === 'checking' && (
        <button
          type="button"
          class="cc-btn cc-btn--big cc-claim__resume"
          data-testid="claim-resume"
          disabled={Boolean(store.busy.value)}
          onClick={() => void store.resumePlay()}
        >
          {t(lang, 'resumePlay')}
        </button>
      )}
      <form class="cc-row" onSubmit={submit}>
        <div class="cc-seg" role="radiogroup">
          <button
            type="button"
            class={kind === 'line' ? 'cc-seg__btn cc-seg__btn--on' : 'cc-seg__btn'}
            data-testid="claim-kind-line"
            aria-pressed={kind === 'line'}
            onClick={() => {
              store.claimKind.value = 'line'
            }}
          >
            {t(lang, 'claimLine')} <kbd>L</kbd>
          </button>
          <button
            type="button"
            class={kind === 'bingo' ? 'cc-seg__btn cc-seg__btn--on' : 'cc-seg__btn'}
            data-testid="claim-kind-bingo"
            aria-pressed={kind === 'bingo'}
            onClick={() => {
              store.claimKind.value = 'bingo'
            }}
          >
            {t(lang, 'claimBingo')} <kbd>B</kbd>
          </button>
          {/* CFG-13: the figures this game plays, each claimed and checked like the line and the bingo. */}
          {(game.figures ?? [])
            .filter((f) => !f.awarded)
            .map((f) => (
              <button
                key={f.kind}
                type="button"
                class={kind === f.kind ? 'cc-seg__btn cc-seg__btn--on' : 'cc-seg__btn'}
                data-testid="claim-kind-figure"
                data-kind={f.kind}
                aria-pressed={kind === f.kind}
                onClick={() => {
                  store.claimKind.value = f.kind
                }}
              >
                {f.name[lang]}
              </button>
            ))}
        </div>
        <input
          ref={input}
          class="cc-serial"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder={t(lang, 'serialPlaceholder')}
          aria-label={t(lang, 'serial')}
          value={store.claimSerial.value}
          data-testid="claim-serial"
          // A click (or tap) into the field is deliberate: there every key types, Space included (see App.tsx).
          onPointerDown={(e) => {
            ;(e.currentTarget as HTMLInputElement).dataset.deliberate = 'true'
          }}
          onFocus={() => setTyping(true)}
          onBlur={(e) => {
            delete (e.currentTarget as HTMLInputElement).dataset.deliberate
            setTyping(false)
          }}
          onInput={(e) => {
            store.claimSerial.value = (e.target as HTMLInputElement).value.toUpperCase()
            store.claimChoices.value = null
          }}
        />
        <button
          type="submit"
          class="cc-btn cc-btn--primary cc-btn--big"
          data-testid="claim-submit"
          disabled={Boolean(store.busy.value)}
        >
          {t(lang, 'check')} <kbd>⏎</kbd>
        </button>
      </form>
      <p class="cc-muted cc-claim__hint" data-testid="claim-hint">
        {t(lang, typing ? 'claimHintTyping' : 'claimHintKeys')}
      </p>
      {choices && choices.length > 0 && (
        <div class="cc-claim__choices" data-testid="claim-choices">
          <span>{t(lang, 'claimWhichSeries')}</span>
          {choices.map((serial) => (
            <button
              key={serial}
              type="button"
              class="cc-btn cc-btn--big"
              data-testid="claim-choice"
              disabled={Boolean(store.busy.value)}
              onClick={() => {
                void store.claim(serial).then(() => input.current?.blur())
              }}
            >
              {serial}
            </button>
          ))}
        </div>
      )}
      {result && (
        <div
          class={result.ok ? 'cc-verdict cc-verdict--ok' : 'cc-verdict cc-verdict--no'}
          data-testid="claim-result"
          data-ok={result.ok ? 'true' : 'false'}
        >
          <div class="cc-verdict__head">
            <span class="cc-verdict__word" data-testid="claim-verdict">
              {result.ok ? t(lang, 'verified') : t(lang, 'rejected')}
            </span>
            <span class="cc-verdict__what">
              {result.kind === 'line'
                ? t(lang, 'claimLine')
                : result.kind === 'bingo'
                  ? t(lang, 'claimBingo')
                  : prizeKindWord(result.kind, lang)}{' '}
              · <strong data-testid="claim-result-serial">{result.serial}</strong>
            </span>
            {!result.ok && result.reason && (
              <span class="cc-verdict__reason" data-testid="claim-reason">
                {claimReason(result.reason, lang)}
              </span>
            )}
          </div>
          {result.card && (
            <div class="cc-verdict__card">
              <CardGrid rows={result.card.rows} ballCount={game.ballCount} called={called} testId="claim-card" />
              <div class="cc-muted">
                {markedCount(result.card.rows, called)} / {result.card.rows.flat().length} {t(lang, 'calledOf')} ·{' '}
                {text(lang, 'extractions')}: {result.called.length}
              </div>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
