import { rangesInPlay } from '../../../server/src/bingo/announcement.ts'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { beaconInfo, extraPrizes, groupedCommitment, money, shortCommitment } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'

/**
 * What every player must be able to read from the seat (BNG-36, BNG-37, REGULATIONS §7.2): cards sold, card
 * price, the prize amounts in play (prima and jackpots when the state carries them), and the draw commitment.
 */
export function InfoBar({ state, lang }: { state: GameState; lang: Lang }) {
  const { prima, jackpots, luckyNumbers } = extraPrizes(state)
  const amount = (cents: number | null) => (cents === null ? '—' : money(cents, state.currency, lang))
  const beacon = beaconInfo(state, lang)
  const lineWinners = state.lineClosed ? state.winners.filter((w) => w.kind === 'line').map((w) => w.serial) : []
  return (
    <footer class="hd-info">
      {/* BNG-18: the series and card numbers in play, made known to everyone from the close of sales. */}
      <Tile
        label={text(lang, 'cardsSold')}
        value={String(state.cardsSold)}
        testId="cards-sold"
        // Hidden while a claim window shows its winners: the panel needs the height (portrait screens).
        note={state.soldRanges?.length && !state.window ? rangesInPlay(state.soldRanges) : undefined}
        noteTestId="in-play"
      />
      <Tile
        label={text(lang, 'faceValue')}
        value={money(state.faceValueCents, state.currency, lang)}
        testId="face-value"
      />
      {state.bets && !state.window && (
        // BNG-40 / GEN-18: the minimum and maximum bets posted in the hall, with the authority's reference (hidden,
        // like the runs in play, while a claim window shows its winners: the panel needs the height).
        <Tile
          label={text(lang, 'bets')}
          value={`${state.bets.minCardsPerPurchase}–${state.bets.maxCardsPerPurchase}`}
          testId="bets"
          noteTestId="bets-note"
          note={[
            text(lang, 'betsPerPlayer').replace('{n}', String(state.bets.maxCardsPerPlayer)),
            state.bets.authorisationRef
              ? text(lang, 'betsRef').replace('{ref}', state.bets.authorisationRef)
              : text(lang, 'betsNoRef'),
          ].join(' · ')}
        />
      )}
      <Tile
        label={text(lang, 'linePrize')}
        value={amount(state.linePoolCents)}
        testId="line-prize"
        note={
          state.linePoolCents === null
            ? text(lang, 'atClose')
            : lineWinners.length
              ? `✓ ${lineWinners.join(' · ')}`
              : undefined
        }
        done={state.lineClosed}
      />
      <Tile
        label={text(lang, 'bingoPrize')}
        value={amount(state.bingoPoolCents)}
        testId="bingo-prize"
        note={state.bingoPoolCents === null ? text(lang, 'atClose') : undefined}
        highlight
      />
      {prima && (
        <Tile
          label={text(lang, 'prima')}
          value={money(prima.amountCents, state.currency, lang)}
          testId="prima"
          note={
            prima.active
              ? prima.maxBall !== null
                ? `${text(lang, 'primaLimit')} ${prima.maxBall}`
                : undefined
              : text(lang, 'primaInactive')
          }
          muted={!prima.active}
          highlight={prima.active}
        />
      )}
      {jackpots.map((j, i) => (
        <Tile
          key={`jp-${i}`}
          label={j.name || text(lang, 'jackpots')}
          value={money(j.amountCents, state.currency, lang)}
          testId="jackpot"
          noteTestId="jackpot-note"
          // RNG-17: the pot's increment under its updated amount (what the latest game's sales put in), on a line of
          // its own so that the condition's words never push it out of the tile.
          increment={
            j.incrementCents !== null
              ? {
                  text: `+${money(j.incrementCents, state.currency, lang)}`,
                  title: `${text(lang, 'potIncrement')} +${money(j.incrementCents, state.currency, lang)}`,
                }
              : undefined
          }
          note={
            [
              j.condition,
              j.contributionBp !== null
                ? `${(j.contributionBp / 100).toLocaleString(lang)} % ${text(lang, 'ofPrice')}`
                : null,
            ]
              .filter(Boolean)
              .join(' · ') || undefined
          }
        />
      ))}
      {luckyNumbers && <Tile label={text(lang, 'luckyBall')} value={luckyNumbers.join(' · ')} testId="lucky-ball" />}
      <div class="hd-tile hd-tile--commit" title={state.commitment}>
        <span class="hd-tile__label">{text(lang, 'commitment')}</span>
        <strong class="hd-tile__value hd-tile__value--mono" data-testid="commitment" title={state.commitment}>
          {shortCommitment(state.commitment)}
        </strong>
        <span class="hd-tile__full" data-testid="commitment-full">
          {groupedCommitment(state.commitment)}
        </span>
        <span class="hd-tile__note">
          {text(lang, 'draw')}: {text(lang, state.drawSource === 'rng' ? 'drawRng' : 'drawManual')}
        </span>
      </div>
      {beacon && (
        // bolillo-draw-v2: the round fixed by the close, then its randomness; a demo beacon says so plainly (point 9).
        <div
          class={`hd-tile hd-tile--beacon${beacon.demo ? ' hd-tile--demo' : ''}`}
          data-testid="beacon"
          data-status={state.beacon!.status}
          title={state.beacon!.randomness ?? ''}
        >
          <span class="hd-tile__label" data-testid="beacon-label">
            {beacon.label}
          </span>
          <strong class="hd-tile__value hd-tile__value--mono" data-testid="beacon-value">
            {beacon.value}
          </strong>
          <span class="hd-tile__note" data-testid="beacon-note">
            {beacon.note}
          </span>
        </div>
      )}
    </footer>
  )
}

function Tile(props: {
  label: string
  value: string
  testId: string
  note?: string
  highlight?: boolean
  done?: boolean
  muted?: boolean
  noteTestId?: string
  increment?: { text: string; title: string }
}) {
  const cls = [
    'hd-tile',
    props.highlight ? 'hd-tile--highlight' : '',
    props.done ? 'hd-tile--done' : '',
    props.muted ? 'hd-tile--muted' : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <div class={cls}>
      <span class="hd-tile__label">{props.label}</span>
      <strong class="hd-tile__value" data-testid={props.testId}>
        {props.value}
      </strong>
      {props.increment && (
        <span
          class="hd-tile__note hd-tile__note--increment"
          title={props.increment.title}
          aria-label={props.increment.title}
          data-testid={`${props.testId}-increment`}
        >
          {props.increment.text}
        </span>
      )}
      {props.note && (
        <span class="hd-tile__note" title={props.note} data-testid={props.noteTestId}>
          {props.note}
        </span>
      )}
    </div>
  )
}
