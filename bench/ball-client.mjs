// The caller of draw.ball.stalled_printer.p99 (bench/sales-paid.ts), run as a child process like the sales' load
// generator: a caller's console is another machine, so the time a ball takes is the server's, not the time a client
// sharing the server's event loop waits to read its answer. Draws a ball every `intervalMs` over HTTP with the floor
// manager's token for `durationMs`, and prints one JSON line: { times: [ms of each ball answered 200], statuses }.
// Windows between balls are closed by the parent (untimed); a draw refused meanwhile is counted in statuses only.
const [, , url, gameId, authorization, intervalText, durationText] = process.argv
const until = performance.now() + Number(durationText)
const times = []
const statuses = {}
while (performance.now() < until) {
  const t0 = performance.now()
  const r = await fetch(`${url}/api/games/${gameId}/draw`, { method: 'POST', headers: { authorization } })
  await r.text()
  statuses[r.status] = (statuses[r.status] ?? 0) + 1
  if (r.status === 200) times.push(performance.now() - t0)
  await new Promise((resolve) => setTimeout(resolve, Number(intervalText)))
}
process.stdout.write(JSON.stringify({ times, statuses }) + '\n')
