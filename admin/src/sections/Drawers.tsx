/**
 * Drawer balances by cash-desk shift (issue 17 point 2): drawn once the shift API of the cash desk is there.
 */
import { Panel, tx } from '../ui.tsx'

export function DrawerBalances() {
  return (
    <Panel title={tx('drawers')} testId="report-drawers" wide>
      <p class="muted">{tx('noShifts')}</p>
    </Panel>
  )
}
