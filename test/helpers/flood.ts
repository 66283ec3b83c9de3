import { spawn } from 'node:child_process'
import { join } from 'node:path'

/** What the flooding process saw come back (test/helpers/socket-flood.mjs). */
export interface FloodResult {
  sent: number
  ok: number
  refused: Record<string, number>
  warned: number
  disconnected: number
  connectErrors: number
  floodMs: number
}

/**
 * A socket.io flood from its own process: `sockets` anonymous sockets claiming `address` (through the trusted proxy),
 * the first sending `first` events, each other `others`. At the lowest CPU priority: a real flooder spends its own
 * machine's CPU, not the server's (this host has two cores for both), so what is measured is the server's work for
 * the flood. `started` resolves when its sockets are connected and sending, `done` with what came back.
 */
export function startFlood(
  url: string,
  address: string,
  gameId: string,
  sockets: number,
  first: number,
  others: number,
): { started: Promise<void>; done: Promise<FloodResult> } {
  let onStart: () => void = () => {}
  const started = new Promise<void>((r) => (onStart = r))
  const done = new Promise<FloodResult>((resolve, reject) => {
    const p = spawn(
      'nice',
      [
        '-n',
        '19',
        process.execPath,
        join('test', 'helpers', 'socket-flood.mjs'),
        url,
        address,
        String(sockets),
        String(first),
        String(others),
        gameId,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    p.stdout.on('data', (d) => {
      out += d
      if (out.includes('START')) onStart()
    })
    p.stderr.on('data', (d) => (err += d))
    p.on('close', (code) => {
      onStart()
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!))
      else reject(new Error(`flood exited ${code}: ${err}`))
    })
  })
  return { started, done }
}
