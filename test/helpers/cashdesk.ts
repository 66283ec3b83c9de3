/**
 * Set-up shared by the voucher, kiosk and payout suites: a hall with a game on sale, a voucher sold at the
 * cashier, and a game played to its end with the RNG (the BO-2025 profile claims winning cards automatically).
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net'
import type { Services } from '../../server/src/services.ts'
import { api } from './server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from './sale-rules.ts'
import { countOf } from './cash.ts'

export interface HallSetup {
  hallId: string
  sessionId: string
  gameId: string
  seriesId: string
}

/** A hall (BO-2025), a master set, series A at `faceValueCents`, an open session and a game with sales open. */
export async function hallWithGameOnSale(
  services: Services,
  options: {
    faceValueCents?: number
    cards?: number
    name?: string
    playingPositions?: number
    /** GEN-1 / GEN-5: the reference of the hall's operating licence (TEST_LICENCE's when absent). */
    licenceRef?: string
  } = {},
): Promise<HallSetup> {
  const { bingo } = services
  const hall = await bingo.createHall({
    name: options.name ?? 'Sala Illimani',
    profileId: 'BO-2025',
    playingPositions: options.playingPositions ?? 100,
    // BNG-52: pots only within the Plan de Apuestas' approved share.
    bettingPlan: {
      authorisationRef: 'AJ-RA-PRUEBA-1',
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      potsBp: 1000,
      commissionBp: 0,
    },
    // GEN-18 / BNG-40: the hall's bet limits with the AJ's reference (no card is sold without them).
    saleRules: TEST_SALE_RULES,
    licence: options.licenceRef ? { ...TEST_LICENCE, authorisationRef: options.licenceRef } : TEST_LICENCE,
  })
  const set = await bingo.createMasterSet({ count: options.cards ?? 400, seed: `cashdesk-${hall.id}` })
  const series = await bingo.createSeries({
    hallId: hall.id,
    code: 'A',
    masterSetId: set.id,
    faceValueCents: options.faceValueCents ?? 500,
  })
  const session = await bingo.openSession({
    hallId: hall.id,
    recount: { ballsCounted: 90, confirmedBy: 'Jefe de Mesa' },
  })
  const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
  await bingo.openSales(game.gameId)
  return { hallId: hall.id, sessionId: session.id, gameId: game.gameId, seriesId: series.id }
}

/** The next game of the same session, on sale (the previous one must have ended). */
export async function nextGameOnSale(services: Services, setup: HallSetup): Promise<string> {
  const game = await services.bingo.announceGame({ sessionId: setup.sessionId, seriesIds: [setup.seriesId] })
  await services.bingo.openSales(game.gameId)
  return game.gameId
}

/** Closes sales (unless closed already) and draws until the bingo is awarded, closing each "any more?" window (BNG-50). */
export async function playToTheEnd(services: Services, gameId: string): Promise<void> {
  const { bingo } = services
  let state = await bingo.getGameState(gameId)
  if (state.status === 'on_sale') state = await bingo.closeSales({ gameId })
  for (let i = 0; i < 200 && state.status !== 'finished'; i++) {
    state =
      state.status === 'line_window' || state.status === 'bingo_window'
        ? await bingo.closeWindow(gameId)
        : (await bingo.drawNext(gameId)).state
  }
  if (state.status !== 'finished') throw new Error(`game ${gameId} did not finish: ${state.status}`)
}

/** Sells a voucher at the cashier over HTTP, paid in large notes. */
export async function sellVoucher(
  url: string,
  hallId: string,
  amountCents: number,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ id: string; code: string; shortCode: string; amountCents: number }> {
  const r = await api(
    url,
    'POST',
    '/api/vouchers',
    {
      hallId,
      amountCents,
      cash: countOf(amountCents),
      stationId: 'caja-1',
      cashierId: 'Ana Quispe',
      ...extra,
    },
    headers,
  )
  if (r.status !== 201) throw new Error(`voucher sale failed: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.voucher
}

/** The winning cards of a finished game with their signed codes. */
export async function winningCodes(
  services: Services,
  gameId: string,
): Promise<Array<{ cardId: string; serial: string; amountCents: number; code: string }>> {
  const prizes = await services.bingo.listPrizes(gameId)
  const byCard = new Map<string, { cardId: string; serial: string; amountCents: number; code: string }>()
  for (const p of prizes) {
    const e = byCard.get(p.cardId) ?? {
      cardId: p.cardId,
      serial: p.serial,
      amountCents: 0,
      code: services.cashdesk.payouts.cardCode(p.cardId),
    }
    e.amountCents += p.amountCents
    byCard.set(p.cardId, e)
  }
  return [...byCard.values()]
}

/**
 * A network ESC/POS printer on 127.0.0.1 for tests. It answers DLE EOT 1/2/4 with the status bytes given (paper
 * present, online by default) and GS r 1 with the paper sensor, and records every byte it receives.
 * `mode`: 'ok'; 'paper_out' (DLE EOT 4 reports the roll end); 'hang_up' (closes the connection once the job
 * starts arriving, before acknowledging it); 'stall' (accepts the connection and never reads from it: no status
 * answer, no acknowledgement, as a jammed printer whose buffer is full); 'refuse' (answers the status queries as
 * ready, then resets the connection as soon as a job's first byte arrives: the job is refused).
 * `connected(n)` resolves once `n` connections have been accepted since start (or the last clear()); `onJob`, when
 * set, is called as the first byte of a job (not a status query) arrives on a connection.
 */
export type FakePrinterMode = 'ok' | 'paper_out' | 'hang_up' | 'stall' | 'refuse'
export async function startFakePrinter(mode: FakePrinterMode = 'ok'): Promise<{
  url: string
  port: number
  connections: Array<{ data: Buffer }>
  received(): Buffer
  clear(): void
  setMode(m: FakePrinterMode): void
  connected(n?: number): Promise<void>
  onJob?: () => void
  close(): Promise<void>
}> {
  // One entry per connection, filled as bytes arrive; clear() forgets earlier connections even if they are still closing.
  let connections: Array<{ data: Buffer }> = []
  let current = mode
  const sockets = new Set<Socket>()
  let waiters: Array<{ n: number; resolve: () => void }> = []
  const server: Server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    const entry = { data: Buffer.alloc(0) }
    connections.push(entry)
    waiters = waiters.filter((w) => (connections.length >= w.n ? (w.resolve(), false) : true))
    if (current === 'stall') {
      socket.pause()
      return
    }
    let data = Buffer.alloc(0)
    let scanned = 0
    let jobBytes = 0
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk])
      entry.data = data
      // Answer status queries in the order they arrive, like a printer's real-time command processor.
      for (; scanned < data.length; scanned++) {
        const b = data[scanned]
        if (b === 0x10 && data[scanned + 1] === 0x04 && data[scanned + 2] !== undefined) {
          const n = data[scanned + 2]
          const paperOut = current === 'paper_out'
          socket.write(
            Buffer.from([
              n === 4 ? (paperOut ? 0x72 : 0x12) : n === 2 ? (paperOut ? 0x32 : 0x12) : paperOut ? 0x1a : 0x12,
            ]),
          )
          scanned += 2
        } else if (b === 0x1d && data[scanned + 1] === 0x72 && data[scanned + 2] === 0x01) {
          socket.write(Buffer.from([0x00]))
          scanned += 2
        } else {
          jobBytes++
          if (jobBytes === 1) self.onJob?.()
          if (current === 'refuse') {
            socket.resetAndDestroy()
            return
          }
          if (current === 'hang_up' && jobBytes > 8) {
            socket.destroy()
            return
          }
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const self: { onJob?: () => void } & Record<string, unknown> = {
    url: `tcp://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections
    },
    received: () => Buffer.concat(connections.map((c) => c.data)),
    clear: () => {
      connections = []
    },
    setMode: (m: FakePrinterMode) => {
      current = m
    },
    connected: (n = 1) =>
      new Promise<void>((resolve) => {
        if (connections.length >= n) resolve()
        else waiters.push({ n, resolve })
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  return self as unknown as Awaited<ReturnType<typeof startFakePrinter>>
}
