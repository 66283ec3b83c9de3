/**
 * BENCH_PAID_PG_TIMING=1: where a PostgreSQL paid sale's time goes. Every query node-postgres sends is timed from
 * its send to its answer (the round trip: network, parse, plan, execute, and for COMMIT the WAL flush), by its text
 * with whitespace folded; `BEGIN; SELECT pg_advisory_xact_lock(…)` includes the wait for the journal's lock. Only
 * for measuring: it patches pg's Client for the whole process.
 */
import pg from 'pg'

interface Line {
  count: number
  ms: number
  max: number
}

export interface PgTiming {
  reset(): void
  /** Lines sorted by total time, with the wall time they cover and the time spent waiting for a connection. */
  report(perSale: number): string[]
}

export function tapPostgres(): PgTiming {
  const lines = new Map<string, Line>()
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0]
    const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '?')
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 140)
    const t0 = performance.now()
    const done = () => {
      const ms = performance.now() - t0
      const l = lines.get(key) ?? { count: 0, ms: 0, max: 0 }
      l.count++
      l.ms += ms
      l.max = Math.max(l.max, ms)
      lines.set(key, l)
    }
    // A query object with its own callback (db/postgres.ts sends a transaction's queries so): timed to its callback.
    const submitted = first as { submit?: unknown; callback?: (...a: unknown[]) => void } | undefined
    if (typeof submitted?.submit === 'function' && typeof submitted.callback === 'function') {
      const callback = submitted.callback
      submitted.callback = (...a: unknown[]) => {
        done()
        callback(...a)
      }
      return original.apply(this, args)
    }
    const result = original.apply(this, args)
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done)
    return result
  }
  return {
    reset: () => lines.clear(),
    report(perSale) {
      const sorted = [...lines.entries()].sort((a, b) => b[1].ms - a[1].ms)
      const total = sorted.reduce((a, [, l]) => a + l.ms, 0)
      const count = sorted.reduce((a, [, l]) => a + l.count, 0)
      const out = [
        `${count} queries, ${(count / perSale).toFixed(1)} per sale; ${total.toFixed(0)} ms of round trips, ${(total / count).toFixed(3)} ms each on average`,
        `  per sale  ms/sale  ms avg  ms max  statement`,
      ]
      for (const [sql, l] of sorted.slice(0, 45))
        out.push(
          `  ${(l.count / perSale).toFixed(2).padStart(8)} ${(l.ms / perSale).toFixed(3).padStart(8)} ${(l.ms / l.count).toFixed(3).padStart(7)} ${l.max.toFixed(1).padStart(7)}  ${sql}`,
        )
      return out
    },
  }
}

/** CPU time (ms) of each PostgreSQL backend serving `db`'s database, by pid (Linux /proc; the server on this machine). */
export async function backendCpuMs(db: {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>
}): Promise<Map<number, number>> {
  const { readFileSync } = await import('node:fs')
  const rows = await db.all<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
  const out = new Map<number, number>()
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10)
    } catch {
      // Another machine's server, or a backend gone meanwhile.
    }
  }
  return out
}

/** CPU (ms) the backends spent between two samples; one that started meanwhile counts whole. */
export function backendCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0)
  return ms
}
