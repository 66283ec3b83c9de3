/**
 * Receipt numbers and signed codes handed out ahead of the sale (SQLite writer-thread mode). Blocks of numbers are
 * reserved from the game's counter in their own transaction (on the writer thread) and signed on a signer thread
 * while earlier blocks are being used; a sale takes the next number and its ready code without waiting. The
 * signature covers only the receipt number (DESIGN.md "Ticket codes"); a code whose number was never sold
 * validates as VOID, because validation always looks the receipt up in the sales system (LOT-8).
 *
 * Consequence: receipt numbers are unique and increase with the order of reservation, but may have gaps: numbers
 * of slips refused at commit time (sales closed meanwhile) and numbers still unused when the server stops are never
 * sold. The participation file lists the receipts actually sold.
 */
import type { KeyObject } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { receiptNumber } from './rules.ts'

export interface ReceiptPool {
  /** The next receipt number of the game and its signed code. */
  take(gameCode: string): Promise<{ receipt: string; code: string }>
  close(): Promise<void>
}

/**
 * @param reserve takes `count` numbers from the game's counter and returns the first (a committed transaction).
 * @param options.block numbers per reservation once warm (the first reservation of a game is smaller).
 */
export function createReceiptPool(
  reserve: (gameCode: string, count: number) => Promise<number>,
  privateKey: KeyObject,
  options: { block?: number; low?: number } = {},
): ReceiptPool {
  const block = options.block ?? 2048
  const low = options.low ?? block
  let signer: Worker | null = null
  let nextId = 1
  const waiting = new Map<number, (codes: string[]) => void>()
  type Game = {
    ready: Array<{ receipt: string; code: string }>
    head: number
    refill: Promise<void> | null
    size: number
  }
  const games = new Map<string, Game>()

  const sign = (receipts: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      if (!signer) {
        signer = new Worker(new URL('../shared/worker-boot.mjs', import.meta.url), {
          workerData: { entry: new URL('./sign-worker.ts', import.meta.url).href, privateKey },
        })
        signer.on('message', (m: { id: number; codes: string }) => {
          const r = waiting.get(m.id)
          waiting.delete(m.id)
          if (waiting.size === 0) signer?.unref()
          r?.(JSON.parse(m.codes) as string[])
        })
        signer.on('error', (err) => {
          for (const id of waiting.keys()) waiting.delete(id)
          signer = null
          reject(err)
        })
      }
      const id = nextId++
      if (waiting.size === 0) signer.ref()
      waiting.set(id, resolve)
      signer.postMessage({ id, receipts: JSON.stringify(receipts) })
    })

  function refill(gameCode: string, g: Game): Promise<void> {
    g.refill ??= (async () => {
      try {
        // Start small so that the first sale of a game does not wait for a large block to be signed.
        const count = g.size
        g.size = Math.min(block, g.size * 4)
        const first = await reserve(gameCode, count)
        const receipts = Array.from({ length: count }, (_, i) => receiptNumber(gameCode, first + i))
        const codes = await sign(receipts)
        // Drop what was taken before appending (a read index instead of shift(), which copies the array).
        g.ready = g.ready.slice(g.head)
        g.head = 0
        receipts.forEach((receipt, i) => g.ready.push({ receipt, code: codes[i] }))
      } finally {
        g.refill = null
      }
    })()
    return g.refill
  }

  return {
    async take(gameCode) {
      let g = games.get(gameCode)
      if (!g) {
        g = { ready: [], head: 0, refill: null, size: 64 }
        games.set(gameCode, g)
      }
      while (g.ready.length - g.head === 0) await refill(gameCode, g)
      const next = g.ready[g.head++]
      if (g.ready.length - g.head < low && !g.refill) void refill(gameCode, g).catch(() => undefined)
      return next
    },
    async close() {
      for (const g of games.values()) await g.refill?.catch(() => undefined)
      await signer?.terminate()
      signer = null
    },
  }
}
