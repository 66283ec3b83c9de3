import { cardGrid, completeRows, isNumbersCard } from './format.ts'
import './card-grid.css'

/**
 * A bingo card as its grid (3 x 9 for 90 balls, 5 x 5 for 75) with the called numbers marked and complete rows
 * outlined: the "cartón-matriz" shown to the hall when a claim is checked (BNG-35, BNG-46). Size follows the font
 * size of the parent (cells are in em). `grid`: the card as the server laid it out in its own layout (a sold card,
 * a scanned card), drawn as it is; otherwise the rows are laid out for `ballCount`.
 */
export function CardGrid(
  props: { rows: number[][]; called: ReadonlySet<number>; testId?: string } & (
    { grid: number[][]; ballCount?: undefined } | { ballCount: number; grid?: undefined }
  ),
) {
  const grid = props.grid && !isNumbersCard(props.rows) ? props.grid : cardGrid(props.rows, props.ballCount ?? 90)
  const complete = new Set(completeRows(props.rows, props.called))
  return (
    // BNG-98: a one-row card (the player's chosen numbers) is its numbers, larger: there are only a few of them.
    <table
      class={isNumbersCard(props.rows) ? 'card-grid card-grid--numbers' : 'card-grid'}
      data-testid={props.testId ?? 'card-grid'}
    >
      <tbody>
        {grid.map((row, r) => (
          <tr key={r} class={complete.has(r) ? 'card-grid__row card-grid__row--complete' : 'card-grid__row'}>
            {row.map((n, c) =>
              n === 0 ? (
                <td key={c} class="card-grid__cell card-grid__cell--blank" />
              ) : (
                <td
                  key={c}
                  class={props.called.has(n) ? 'card-grid__cell card-grid__cell--marked' : 'card-grid__cell'}
                  data-marked={props.called.has(n) ? 'true' : 'false'}
                >
                  {n}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
