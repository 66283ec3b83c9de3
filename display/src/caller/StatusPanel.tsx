import { rangesInPlay, salesAnnouncement } from '../../../server/src/bingo/announcement.ts'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { getProfile } from '../../../server/src/shared/profile.ts'
import { beaconInfo, boardRows, money, shortCommitment } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { ballCall } from '../../../web/number-words.ts'
import { t } from './texts.ts'

/** What the hall sees, in small: current ball, count, sales, prizes, commitment and the board. */
export function StatusPanel({ game, lang }: { game: GameState | null; lang: Lang }) {
  if (!game)
    return (
      <section class="cc-col cc-col--status">
        <div class="cc-panel cc-muted">{t(lang, 'noGame')}</div>
      </section>
    )
  const called = new Set(game.balls)
  const amount = (c: number | null) => (c === null ? '—' : money(c, game.currency, lang))
  const beacon = beaconInfo(game, lang)
  return (
    <section class="cc-col cc-col--status">
      <div class="cc-panel cc-ballbox">
        <div class="cc-ballbox__ball" data-testid="caller-ball" key={game.balls.length}>
          {game.lastBall ?? '–'}
        </div>
        <div class="cc-ballbox__info">
          <div class="cc-ballbox__words">{game.lastBall !== null ? ballCall(game.lastBall, lang) : '\u00a0'}</div>
          <div class="cc-ballbox__count">
            {t(lang, 'extractions')}: <strong data-testid="caller-count">{game.balls.length}</strong> / {game.ballCount}
          </div>
          <div class="cc-ballbox__src">
            {t(lang, 'drawSource')}:{' '}
            <strong data-testid="caller-draw-source">
              {game.drawSource === 'rng' ? t(lang, 'rng') : t(lang, 'manual')}
            </strong>
          </div>
        </div>
      </div>
      <div class="cc-panel cc-facts">
        <div>
          <span>{t(lang, 'cardsSold')}</span>
          <strong data-testid="caller-cards-sold">{game.cardsSold}</strong>
        </div>
        <div>
          <span>{t(lang, 'faceValue')}</span>
          <strong>{money(game.faceValueCents, game.currency, lang)}</strong>
        </div>
        <div>
          <span>{t(lang, 'linePrize')}</span>
          <strong data-testid="caller-line-prize">{amount(game.linePoolCents)}</strong>
        </div>
        <div>
          <span>{t(lang, 'bingoPrize')}</span>
          <strong data-testid="caller-bingo-prize">{amount(game.bingoPoolCents)}</strong>
        </div>
        <div class="cc-facts__wide" title={game.commitment}>
          <span>{t(lang, 'commitment')}</span>
          <code>{shortCommitment(game.commitment)}</code>
        </div>
        {beacon && (
          <div
            class={`cc-facts__wide${beacon.demo ? ' cc-beacon--demo' : ''}`}
            data-testid="caller-beacon"
            data-status={game.beacon!.status}
            title={game.beacon!.randomness ?? ''}
          >
            <span>{beacon.label}</span>
            <code data-testid="caller-beacon-value">{beacon.value}</code>
            <small data-testid="caller-beacon-note">{beacon.note}</small>
          </div>
        )}
        {game.soldRanges && game.soldRanges.length > 0 ? (
          <div class="cc-facts__wide">
            <span>{t(lang, 'inPlay')}</span>
            <strong data-testid="caller-in-play">{rangesInPlay(game.soldRanges)}</strong>
          </div>
        ) : (
          game.series.length > 0 && (
            <div class="cc-facts__wide">
              <span>{t(lang, 'series')}</span>
              <strong>
                {game.series
                  .map((s) => (s.to >= s.from ? `${s.code} ${s.from}–${s.to}` : `${s.code} (${s.from}…)`))
                  .join(' · ')}
              </strong>
            </div>
          )
        )}
      </div>
      <div
        class="cc-panel cc-board"
        data-testid="caller-board"
        data-lit={called.size}
        style={{ '--cols': String(boardRows(game.ballCount)[0]?.length ?? 10) }}
      >
        {boardRows(game.ballCount)
          .flat()
          .map((n) => (
            <span
              key={n}
              class={
                n === game.lastBall
                  ? 'cc-board__cell cc-board__cell--last'
                  : called.has(n)
                    ? 'cc-board__cell cc-board__cell--lit'
                    : 'cc-board__cell'
              }
            >
              {n}
            </span>
          ))}
      </div>
    </section>
  )
}

/** BNG-17 / BNG-18: the words the jefe reads aloud once sales close, before the first ball (beside SACAR BOLA). */
export function SalesAnnouncement({ game, lang }: { game: GameState; lang: Lang }) {
  if (game.status !== 'sales_closed' || !game.soldRanges) return null
  const amount = (c: number | null) => (c === null ? '—' : money(c, game.currency, lang))
  return (
    <div class="cc-panel cc-announce" data-testid="caller-announcement">
      <span>{t(lang, 'announceSales')}</span>
      <p>
        {salesAnnouncement(
          {
            style: getProfile(game.profileId)?.salesAnnouncement ?? 'ranges',
            ranges: game.soldRanges,
            cardsSold: game.cardsSold,
            linePrize: amount(game.linePoolCents),
            bingoPrize: amount(game.bingoPoolCents),
          },
          lang,
        )}
      </p>
    </div>
  )
}
