/**
 * Looks for secrets in clear in every file under a directory (DESIGN.md "Sealed secrets"): given what the secrets
 * are (from the sealed values, opened by the test), it reports every place where one shows, in three ways:
 *
 * - byte needles: a secret's raw bytes, hex (both cases), base64 and base64url, and prize-file texts (a pack's prize
 *   counts or tiers as JSON), anywhere in any file: database, WAL, SHM, prints, backups, logs;
 * - a ticket's tier or prize amount beside its serial in any text: the JSON object or CSV line holding the serial
 *   (`"tier":3`, `"amountCents":5000`, `serial,3,5000`);
 * - in every SQLite file (a copy opened read-only, with its WAL): any column that, keyed by ticket id or serial in
 *   another column of the same table, reproduces the tier or prize amount of the winning tickets.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'

export interface Needle {
  what: string
  bytes: Buffer
  /**
   * Found only as a whole token: not inside a longer run of letters or digits. A bare document number (7 digits)
   * otherwise turns up by chance inside hashes, MACs and timestamps of a large database, about once in some hundred
   * runs; a number stored in clear stands alone (or after the document's letters and a space).
   */
  standalone?: boolean
}

const isWordByte = (b: number | undefined) =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a))

/** Whether `data` holds the needle (as a whole token where it must stand alone). */
function holds(data: Buffer, n: Needle): boolean {
  if (n.bytes.length === 0) return false
  if (!n.standalone) return data.includes(n.bytes)
  for (let at = data.indexOf(n.bytes); at !== -1; at = data.indexOf(n.bytes, at + 1))
    if (!isWordByte(data[at - 1]) && !isWordByte(data[at + n.bytes.length])) return true
  return false
}
export interface KnownTicket {
  id: number
  serial: string
  tier: number
  amountCents: number
}

export function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const st = statSync(path)
    if (st.isDirectory()) out.push(...filesUnder(path))
    else if (st.isFile()) out.push(path)
  }
  return out
}

/** A secret in every spelling it could be stored in. */
export function secretNeedles(what: string, secret: Uint8Array): Needle[] {
  const b = Buffer.from(secret)
  const spellings = [
    b,
    Buffer.from(b.toString('hex')),
    Buffer.from(b.toString('hex').toUpperCase()),
    Buffer.from(b.toString('base64')),
    Buffer.from(b.toString('base64url')),
  ]
  return spellings.map((bytes, i) => ({
    what: `${what} (${['raw bytes', 'hex', 'HEX', 'base64', 'base64url'][i]})`,
    bytes,
  }))
}

export function textNeedle(what: string, text: string, opts: { standalone?: boolean } = {}): Needle {
  return { what, bytes: Buffer.from(text, 'utf8'), ...opts }
}

/** Every needle found in every file: `file: what`. */
export function findNeedles(files: string[], needles: Needle[]): string[] {
  const found: string[] = []
  for (const file of files) {
    const data = readFileSync(file)
    for (const n of needles) if (holds(data, n)) found.push(`${file}: ${n.what}`)
  }
  return found
}

const SERIAL = /\d{4}-\d{6}-\d{3}-\d/g

/** A ticket's tier or amount in the same JSON object or CSV line as its serial, in any file read as text. */
export function findTierBesideSerial(files: string[], tickets: Map<string, KnownTicket>): string[] {
  const found: string[] = []
  for (const file of files) {
    const text = readFileSync(file).toString('latin1')
    for (const m of text.matchAll(SERIAL)) {
      const t = tickets.get(m[0])
      if (!t) continue
      // The enclosing record: back to the last `{` or line start, on to the next `}` or line end.
      const bound = /[{}\n\r\0]/
      let a = m.index!
      while (a > 0 && !bound.test(text[a - 1]) && m.index! - a < 2000) a--
      let z = m.index! + m[0].length
      while (z < text.length && !bound.test(text[z]) && z - m.index! < 2000) z++
      const record = text.slice(a, z)
      const patterns = [
        new RegExp(`"tier"\\s*:\\s*${t.tier}(?!\\d)`),
        new RegExp(`${m[0]},${t.tier},${t.amountCents}(?!\\d)`),
      ]
      if (t.amountCents > 0)
        patterns.push(new RegExp(`"(amountCents|prizeCents|amount_cents)"\\s*:\\s*${t.amountCents}(?!\\d)`))
      if (patterns.some((p) => p.test(record)))
        found.push(`${file}: tier ${t.tier} of ${t.serial} beside its serial: ${JSON.stringify(record.slice(0, 200))}`)
    }
  }
  return found
}

/** Columns of any table in a SQLite file that reproduce the winning tickets' tiers or amounts. */
export async function findTierColumns(file: string, tickets: KnownTicket[]): Promise<string[]> {
  const header = readFileSync(file).subarray(0, 16).toString('latin1')
  if (header !== 'SQLite format 3\0') return []
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-scan-'))
  try {
    // A copy with its WAL, so that what the WAL holds is read too, without touching the original.
    const copy = join(dir, 'copy.sqlite')
    copyFileSync(file, copy)
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`)
    // This runtime's driver (better-sqlite3 on Node, bun:sqlite on Bun).
    const db = await openSqliteConnection(copy)
    try {
      const byId = new Map(tickets.map((t) => [t.id, t]))
      const bySerial = new Map(tickets.map((t) => [t.serial, t]))
      const found: string[] = []
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
      for (const { name } of tables) {
        if (name === 'sqlite_sequence') continue
        // The rowid counts as a key column too (INTEGER PRIMARY KEY aliases it).
        const objects = db.prepare(`SELECT rowid AS "__scan_rowid", * FROM "${name}"`).all() as Array<
          Record<string, unknown>
        >
        if (objects.length === 0) continue
        const columns = Object.keys(objects[0]).filter((c) => c !== '__scan_rowid')
        const rows = objects.map((o) => columns.map((c) => o[c]))
        const keyed = objects.map((o) => [o.__scan_rowid])
        const keys = [
          ...columns.map((c, i) => ({ label: c, at: (r: unknown[], _k: number) => r[i] })),
          { label: 'rowid', at: (_r: unknown[], k: number) => keyed[k]?.[0] },
        ]
        for (const key of keys) {
          for (let v = 0; v < columns.length; v++) {
            if (columns[v] === key.label) continue
            let winners = 0
            let agree = 0
            const tiers = new Set<number>()
            rows.forEach((r, k) => {
              const kv = key.at(r, k)
              const t =
                typeof kv === 'number' || typeof kv === 'bigint'
                  ? byId.get(Number(kv))
                  : typeof kv === 'string'
                    ? bySerial.get(kv)
                    : undefined
              if (!t || t.tier === 0) return
              winners++
              const value = r[v]
              if (typeof value === 'number' || typeof value === 'bigint') {
                if (Number(value) === t.tier || Number(value) === t.amountCents) {
                  agree++
                  tiers.add(t.tier)
                }
              }
            })
            if (winners >= 10 && agree >= 0.95 * winners && tiers.size >= 2)
              found.push(
                `${file}: ${name}.${columns[v]} keyed by ${key.label} gives the prize of ${agree} of ${winners} winning tickets`,
              )
          }
        }
      }
      return found
    } finally {
      db.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------- bearer codes (issue 24)

const SIGNED_CODE = /^BLL1\.[CLTIV]\.[A-Za-z0-9_-]{1,64}\.([A-Za-z0-9_-]{86})$/
const SHORT_CODE = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/

/**
 * Every bearer code in an API answer: signed codes (`BLL1.…`, anywhere) and voucher short codes (`shortCode`),
 * each with what it belongs to. An instant ticket's validation code is collected under a key ending in `Code`.
 */
export function bearerCodesIn(value: unknown, where = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value === 'string') {
    if (SIGNED_CODE.test(value) || SHORT_CODE.test(value)) out.set(value, where)
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => bearerCodesIn(v, `${where}[${i}]`, out))
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /validationCode$/i.test(k) && v.length >= 12) {
        out.set(v, `${where}.${k}`)
        out.set(v.replace(/(.{4})(?=.)/g, '$1-'), `${where}.${k} (as printed)`)
      }
      bearerCodesIn(v, where ? `${where}.${k}` : k, out)
    }
  }
  return out
}

/**
 * A bearer code in every spelling it could be kept in: as given, a short code without dashes, and a signed code's
 * signature alone (the part that makes it a bearer value; `BLL1.<kind>.<id>` alone names the ticket and may stay).
 */
export function bearerNeedles(codes: Map<string, string>): Needle[] {
  const needles: Needle[] = []
  for (const [code, what] of codes) {
    needles.push(textNeedle(`bearer code of ${what}`, code))
    const signed = SIGNED_CODE.exec(code)
    if (signed) needles.push(textNeedle(`signature of the code of ${what}`, signed[1]))
    if (SHORT_CODE.test(code))
      needles.push(textNeedle(`short code of ${what} (without dashes)`, code.replace(/-/g, '')))
  }
  return needles
}

/** Every row of every table of a live database (SQLite or PostgreSQL), as `table: JSON` lines, for text needles. */
export async function databaseRowsText(
  db: { engine: 'sqlite' | 'postgres'; all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> },
  tables?: readonly string[],
): Promise<string> {
  const names =
    tables ??
    (db.engine === 'sqlite'
      ? (await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name)
      : (
          await db.all<{ name: string }>(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
          )
        ).map((r) => r.name))
  const lines: string[] = []
  for (const name of names) {
    for (const row of await db.all<Record<string, unknown>>(`SELECT * FROM "${name}"`))
      lines.push(`${name}: ${JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`)
  }
  return lines.join('\n')
}

/** Every needle found in a text: `label: what`. */
export function findNeedlesInText(label: string, text: string, needles: Needle[]): string[] {
  return needles.filter((n) => holds(Buffer.from(text, 'utf8'), n)).map((n) => `${label}: ${n.what}`)
}
