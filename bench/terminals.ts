/**
 * Issue 27: hall terminals. How long after the server calls a ball does every terminal's screen state have it, with
 * BENCH_TERMINAL_CLIENTS (default 2,000) terminals connected: real socket.io clients over websockets, each
 * authenticated as an enrolled terminal (`Device <credential>`, authentication on) and watching its hall
 * ('hall:watch', what /terminal/ does), spread over BENCH_TERMINAL_PROCESSES (default 2) child processes, off the
 * server's process; their receipt times and the server's publish times read one monotonic clock (display.ts checks
 * it per process). A terminal's marks and best card are computed on the screen from the balls it receives, so
 * the receipt of 'ball:drawn' is when its state changes.
 *
 * - terminals.ball.p50 / .p99 / .max: ms from the ball's commit (published right after) to receipt, over every
 *   (terminal, ball) pair; goal p99 <= 100 ms. BENCH_TERMINAL_BALLS (default 30) balls after 3 warm-up balls, one
 *   every BENCH_TERMINAL_GAP_MS (default 250 ms). Clients share the machine with the server.
 */
import { fanoutPercentile, measureBallFanout, type BenchResult } from './display.ts'

export async function benchTerminals(emit: (r: BenchResult) => void): Promise<void> {
  const { fanout, clients } = await measureBallFanout({
    label: 'terminals',
    envPrefix: 'BENCH_TERMINAL',
    defaults: { clients: 2000, balls: 30 },
    watch: 'hall',
    device: 'terminal',
    goal: 'goal p99 <= 100 ms',
  })
  const round = (ms: number) => Number(ms.toFixed(3))
  emit({ name: 'terminals.ball.p50', value: round(fanoutPercentile(fanout, 0.5)), unit: 'ms' })
  emit({ name: 'terminals.ball.p99', value: round(fanoutPercentile(fanout, 0.99)), unit: 'ms' })
  emit({ name: 'terminals.ball.max', value: round(fanout[fanout.length - 1]), unit: 'ms' })
  emit({ name: 'terminals.ball.clients', value: clients, unit: 'clients' })
}
