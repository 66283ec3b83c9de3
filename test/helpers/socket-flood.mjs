// A socket.io flood from its own process (so the test process measures the server, not the flooder's loop):
//   node test/helpers/socket-flood.mjs <url> <x-forwarded-for> <sockets> <events of the first> <events of each other> <gameId>
// Every socket is anonymous and claims the same client address. Prints one JSON line with what came back.
import { io } from 'socket.io-client'

const [url, address, sockets, firstEvents, otherEvents, gameId] = process.argv.slice(2)
const result = { sent: 0, ok: 0, refused: {}, warned: 0, disconnected: 0, connectErrors: 0 }

function open() {
  return new Promise((resolve) => {
    const s = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { 'x-forwarded-for': address },
    })
    s.once('connect', () => resolve(s))
    s.once('connect_error', () => {
      result.connectErrors++
      resolve(null)
    })
  })
}

const opened = (await Promise.all(Array.from({ length: Number(sockets) }, open))).filter(Boolean)
const t0 = performance.now()
process.stdout.write('START\n')
const gone = opened.map(
  (s) =>
    new Promise((resolve) =>
      s.once('disconnect', () => {
        result.disconnected++
        resolve()
      }),
    ),
)
for (const s of opened) s.on('limit:warning', () => result.warned++)
opened.forEach((s, i) => {
  const n = i === 0 ? Number(firstEvents) : Number(otherEvents)
  for (let k = 0; k < n; k++) {
    result.sent++
    const event = k % 2 === 0 ? 'game:watch' : 'hall:watch'
    s.emit(event, k % 2 === 0 ? { gameId } : { hallId: 'no-such-hall' }, (r) => {
      if (r?.ok) result.ok++
      else if (r?.error?.code) result.refused[r.error.code] = (result.refused[r.error.code] ?? 0) + 1
    })
  }
})
// Until every socket was cut off, or 10 s.
await Promise.race([Promise.all(gone), new Promise((r) => setTimeout(r, 10_000))])
result.floodMs = Math.round(performance.now() - t0)
for (const s of opened) s.close()
process.stdout.write(JSON.stringify(result) + '\n')
process.exit(0)
