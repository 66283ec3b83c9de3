/**
 * Issue 28 point 2: the regulator's control feed. Control records are derived from the journal (derive.ts), stored
 * once each, and closed into batches every 15 minutes or 500 records, whichever comes first (the injected clock
 * decides). Each batch is hash-chained to the one before in its chain (a hall, or "operator") and signed with the
 * operator's Ed25519 key; a closed batch is never rewritten (migration 0079 refuses it). The format is
 * server/src/regulator/SCHEMA.md.
 *
 * Reads the journal and the tables; writes only its own two tables. No device or network I/O.
 */
import { createHash, sign, verify } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database, Sql } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { canonicalJson, GENESIS_HASH, type JournalRecord } from '../shared/journal-chain.ts'
import { toRecord } from '../shared/journal.ts'
import { committedJournalHorizon, journalRowsAfter } from '../shared/store.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import { getProfile } from '../shared/profile.ts'
import { DOCUMENT_TAG_PURPOSE, normaliseDocumentText } from '../shared/journal-privacy.ts'
import type { Sealer } from '../shared/sealing.ts'
import { openDocumentAtRest } from '../shared/document-at-rest.ts'
import { hallZoneOf, isoInZone } from '../shared/time-zone.ts'
import {
  CONTROL_SCHEMA,
  createDeriver,
  dailyTotals,
  dayIn,
  monthlyTotals,
  OPERATOR_CHAIN,
  type DerivedRecord,
  type TaxBasis,
} from './derive.ts'
import * as store from './store.ts'

export const BATCH_SCHEMA = 'bolillo-control-batch-v1'
export const BATCH_MAX_RECORDS = 500
export const BATCH_MAX_AGE_MS = 15 * 60_000
/** Cards per `bingo.cards` part (part n of m). */
export const CARDS_PER_PART = 250

export interface BatchHeader {
  schema: typeof BATCH_SCHEMA
  operator: string
  chain: string
  hall: string | null
  seq: number
  batchId: string
  openedAt: string
  closedAt: string
  records: number
  firstRecord: string
  lastRecord: string
  recordsSha256: string
  /** SHA-256 of each record line, in order: the checker names the very record that was altered. */
  recordHashes: string[]
  prevHash: string
  keyId: string
}

/** What GET /api/regulator/batches serves and regulator-export writes: the header line and the record lines. */
export interface DeliveredBatch {
  header: BatchHeader
  hash: string
  signature: string
  lines: string[]
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The batch hash: SHA-256 of the canonical JSON of its header (SCHEMA.md "Batches"). */
/**
 * Issue 23 point 5: the feed writes its own tables (records, batches), never the journal; its transactions lock the
 * operator chain alone, so that the minute's tick neither waits for every hall's open transaction nor stops every hall's
 * sales while it writes (an unscoped transaction holds the global lock exclusively). Feeds of two nodes still take
 * turns on that one lock, so each chain's record numbers stay whole.
 */
const FEED_LOCK = { scopes: [OPERATOR_CHAIN] }

export function batchHash(header: BatchHeader): string {
  return sha256(canonicalJson(header))
}

export function createRegulatorFeed(deps: {
  db: Database
  keys: OperatorKeys
  clock: { now(): Date }
  log?: Logger
  defaultZone: string
  operator?: string
  intervalMs?: number
  /** The draw proof of a finished bingo game (published after its end), put into the game's record. */
  proofOf?: (gameId: string) => Promise<unknown>
  /**
   * The operator's keyed tag (HMAC under the sealing key, shared/sealing.ts): an instant winner's identity document
   * travels as this reference, never in clear. The operator shows the document behind a reference when asked.
   */
  sealer?: Pick<Sealer, 'tag' | 'open'>
  /** The server's profile: its `taxBase` for the operator's chain (lotto, lotteries). */
  profileId?: string
  /** The signed close-of-sales documents of the lotto draws (close-of-sales.ts), written beside the batches. */
  closeOfSales?: { all(): Promise<Array<{ body: { drawId: string } }>> }
}) {
  const { db, keys } = deps
  const operator = deps.operator ?? `op-${keys.publicInfo().keyId}`
  const deriver = createDeriver()
  const zones = new Map<string, string>()
  let queue: Promise<unknown> = Promise.resolve()
  let timer: ReturnType<typeof setInterval> | null = null
  let lastTick: { at: string; derived: number; closed: number } | null = null

  async function zoneOf(chain: string): Promise<string> {
    const known = zones.get(chain)
    if (known) return known
    let zone = deps.defaultZone
    if (chain !== OPERATOR_CHAIN) {
      const hall = await store.hallZoneRow(db, chain)
      zone = hallZoneOf(hall?.settings, getProfile(hall?.profile_id ?? '')?.timeZone ?? deps.defaultZone)
    }
    zones.set(chain, zone)
    return zone
  }

  /** The close-of-sales part of a bingo game: every card of the game with its numbers, in parts. */
  async function enrich(r: DerivedRecord): Promise<DerivedRecord[]> {
    if (r.type === 'lotto.draw') return enrichLotto(r)
    if (r.type === 'lottery.draw') return [await enrichLottery(r)]
    if (r.type === 'instant.game') return [await enrichInstant(r)]
    if (r.type !== 'bingo.game') return [r]
    const gameId = String(r.data.gameId)
    const cards = (await store.cardsOfGame(db, gameId)).map((c) => ({
      serial: c.serial,
      rows: JSON.parse(c.numbers) as number[][],
      status: c.status,
      channel: c.channel,
    }))
    if (r.data.status === 'finished' && deps.proofOf) {
      try {
        r.data.proof = await deps.proofOf(gameId)
      } catch {
        r.data.proof = null
      }
    }
    const parts = Math.max(1, Math.ceil(cards.length / CARDS_PER_PART))
    r.data.cardParts = cards.length ? parts : 0
    const out: DerivedRecord[] = [r]
    for (let i = 0; i < cards.length; i += CARDS_PER_PART) {
      const part = i / CARDS_PER_PART + 1
      out.push({
        sourceKey: `bingo.cards:${gameId}:${part}`,
        chain: r.chain,
        hall: r.hall,
        type: 'bingo.cards',
        at: r.at,
        part,
        parts,
        data: { gameId, cards: cards.slice(i, i + CARDS_PER_PART) },
      })
    }
    return out
  }

  /**
   * A lottery or raffle draw: the ranges taken out of play (what the checker needs to count the winning tickets in
   * play), the design the papers are printed under, and for a raffle the sold tickets (its close-of-sales list).
   */
  async function enrichLottery(r: DerivedRecord): Promise<DerivedRecord> {
    const drawId = String(r.data.drawId)
    r.data.ranges = await store.lotteryRanges(db, drawId)
    if (r.data.product === 'raffle') {
      r.data.designVersion = 1
      r.data.soldSerials = await store.raffleSoldSerials(db, drawId)
    } else {
      r.data.designVersion = await store.lotteryDesignVersion(db, drawId)
    }
    return r
  }

  /**
   * An instant game: its prize structure (each tier's amount and count), its packs by state, and each payee as a
   * keyed reference (INS-5 identifies every winner paid, so the threshold is 0: every payout carries one).
   */
  async function enrichInstant(r: DerivedRecord): Promise<DerivedRecord> {
    const b = await store.instantBatchOfGame(db, Number(r.data.gameNo))
    if (!b) return r
    const design = JSON.parse(b.design) as { tiers?: Array<{ amountCents: number; count: number }> }
    r.data.priceCents = Number(b.price_cents)
    r.data.currency = b.currency
    r.data.tiers = (design.tiers ?? []).map((t, i) => ({ tier: i + 1, amountCents: t.amountCents, count: t.count }))
    r.data.packs = await store.instantPackStates(db, b.id)
    r.data.identityThresholdCents = 0
    const documents = await store.instantPayeeDocuments(db, b.id)
    r.data.payouts = (r.data.payouts as Array<Record<string, unknown>>).map((p) => {
      // Stored sealed (issue 24 point 2): opened here only to derive the payee's keyed reference.
      const stored = documents.get(String(p.payoutId))
      const doc = deps.sealer ? openDocumentAtRest(deps.sealer, stored) : null
      return {
        ...p,
        payee: doc && deps.sealer ? deps.sealer.tag(normaliseDocumentText(doc), DOCUMENT_TAG_PURPOSE) : null,
      }
    })
    return r
  }

  /** The close-of-sales file of a settled lotto draw: every participating play with its receipt, in parts. */
  async function enrichLotto(r: DerivedRecord): Promise<DerivedRecord[]> {
    const { drawId, gameCode, drawNo, status } = r.data as {
      drawId: string
      gameCode: string | null
      drawNo: number | null
      status: string
    }
    if (status !== 'settled' || !gameCode || drawNo === null) return [r]
    const plays = (await store.playsOfLottoDraw(db, gameCode, drawNo)).map((s) => ({
      receipt: s.id,
      boards: s.boards.split(' ').map((b) => b.split('-').map(Number)),
    }))
    const parts = Math.max(1, Math.ceil(plays.length / CARDS_PER_PART))
    r.data.playParts = plays.length ? parts : 0
    const out: DerivedRecord[] = [r]
    for (let i = 0; i < plays.length; i += CARDS_PER_PART) {
      const part = i / CARDS_PER_PART + 1
      out.push({
        sourceKey: `lotto.plays:${drawId}:${part}`,
        chain: r.chain,
        hall: r.hall,
        type: 'lotto.plays',
        at: r.at,
        part,
        parts,
        data: { drawId, plays: plays.slice(i, i + CARDS_PER_PART) },
      })
    }
    return out
  }

  async function insert(tx: Sql, r: DerivedRecord, now: string, replaces: string | null = null): Promise<boolean> {
    if (await store.hasSourceKey(tx, r.sourceKey)) return false
    if (!replaces && r.replacesKey) replaces = await store.recordIdOfSourceKey(tx, r.replacesKey)
    const n = (await store.lastRecordNo(tx, r.chain)) + 1
    const recordId = `${r.chain}-r${n}`
    const body = { type: r.type, at: r.at, part: r.part ?? 1, parts: r.parts ?? 1, replaces, data: r.data }
    await store.insertRecord(tx, {
      record_id: recordId,
      chain: r.chain,
      n,
      source_key: r.sourceKey,
      hall_id: r.hall,
      type: r.type,
      at: r.at,
      created_at: now,
      body: JSON.stringify(body),
    })
    return true
  }

  /** Reads the journal past the deriver's cursor and stores the control records it completes. */
  async function derive(now: string): Promise<number> {
    let added = 0
    // Issue 23 point 5: on PostgreSQL the halls' chains commit side by side; the feed reads no further than the seq
    // below which every record has committed, so it never passes over one that commits late.
    const horizon = await committedJournalHorizon(db)
    for (;;) {
      const rows = (await journalRowsAfter(db, deriver.lastSeq(), 1000)).filter((r) => Number(r.seq) <= horizon)
      if (rows.length === 0) break
      const derived: DerivedRecord[] = []
      for (const row of rows) derived.push(...deriver.feed(toRecord(row) as JournalRecord))
      const enriched: DerivedRecord[] = []
      // After a restart the journal is derived again from its start: what is stored already is not looked up twice.
      for (const r of derived) if (!(await store.hasSourceKey(db, r.sourceKey))) enriched.push(...(await enrich(r)))
      if (enriched.length) {
        added += await db.transaction(async (tx) => {
          let n = 0
          for (const r of enriched) if (await insert(tx, r, now)) n++
          return n
        }, FEED_LOCK)
      }
    }
    // The daily totals are looked at again when something new arrived, and once an hour (a hall's day may end on
    // any hour of UTC): not every minute.
    const hour = now.slice(0, 13)
    if (added === 0 && hour === totalsCheckedFor) return 0
    totalsCheckedFor = hour
    return added + (await closeDays(now))
  }
  let totalsCheckedFor = ''

  /** The tax basis of a chain: its hall's profile `taxBase`, the server's profile for the operator's chain. */
  async function basisOf(chain: string): Promise<TaxBasis> {
    const profileId =
      chain === OPERATOR_CHAIN ? (deps.profileId ?? '') : ((await store.hallZoneRow(db, chain))?.profile_id ?? '')
    return getProfile(profileId)?.taxBase ?? 'gross-gaming-revenue'
  }

  /** The records of a type in force in a chain: those no later record replaces, as (chain, hall, type, at, data). */
  async function inForce(chain: string, types: readonly string[]) {
    const rows = (await Promise.all(types.map((t) => store.recordsOfType(db, chain, t)))).flat()
    const bodies = rows.map((row) => ({ row, body: JSON.parse(row.body) as { replaces: string | null; data: any } }))
    const replaced = new Set(bodies.map((b) => b.body.replaces).filter(Boolean))
    return bodies
      .filter((b) => !replaced.has(b.row.record_id))
      .map((b) => ({ chain, hall: b.row.hall_id, type: b.row.type, at: b.row.at, data: b.body.data }))
  }

  /**
   * Sends the totals not yet sent; totals that changed after they were sent (a late record) get a correction
   * record naming the one it replaces; the original stays.
   */
  async function sendTotals(chain: string, type: string, totals: DerivedRecord[], now: string): Promise<number> {
    if (totals.length === 0) return 0
    const sent = await store.recordsOfType(db, chain, type)
    return db.transaction(async (tx) => {
      let n = 0
      for (const t of totals) {
        const previous = sent
          .filter((s) => s.source_key === t.sourceKey || s.source_key.startsWith(`${t.sourceKey}#`))
          .at(-1)
        if (!previous) {
          if (await insert(tx, t, now)) n++
          continue
        }
        if (canonicalJson(JSON.parse(previous.body).data) === canonicalJson(t.data)) continue
        const version = sent.filter((s) => s.source_key.startsWith(`${t.sourceKey}#`)).length + 2
        if (await insert(tx, { ...t, sourceKey: `${t.sourceKey}#${version}` }, now, previous.record_id)) n++
      }
      return n
    }, FEED_LOCK)
  }

  /**
   * Daily totals of every day that has ended on the chain's wall clock, then monthly totals of every month that has
   * ended, summed from the daily totals in force.
   */
  async function closeDays(now: string): Promise<number> {
    let added = 0
    for (const { chain } of await store.allChains(db)) {
      const zone = await zoneOf(chain)
      const today = dayIn(now, zone)
      const basis = await basisOf(chain)
      const facts = await inForce(chain, ['bingo.game', 'lotto.draw', 'lottery.draw', 'instant.game'])
      const daily = [
        ...dailyTotals(
          facts,
          () => zone,
          () => basis,
        ).values(),
      ].filter((t) => String(t.data.day) < today)
      added += await sendTotals(chain, 'totals.daily', daily, now)
      const days = await inForce(chain, ['totals.daily'])
      const monthly = [...monthlyTotals(days).values()].filter((t) => String(t.data.month) < today.slice(0, 7))
      added += await sendTotals(chain, 'totals.monthly', monthly, now)
    }
    return added
  }

  /** Closes the batches that are due: 500 records waiting, or the oldest waiting 15 minutes (or all, on `force`). */
  async function closeDue(nowMs: number, force: boolean): Promise<number> {
    let closed = 0
    for (const c of await store.chainsWithPending(db)) {
      let count = c.count
      let oldest = Date.parse(c.oldest)
      while (count >= BATCH_MAX_RECORDS || (count > 0 && (force || nowMs - oldest >= BATCH_MAX_AGE_MS))) {
        const n = await closeOne(c.chain, new Date(nowMs).toISOString())
        if (n === 0) break
        closed++
        count -= n
        oldest = nowMs
      }
    }
    return closed
  }

  async function closeOne(chain: string, closedAt: string): Promise<number> {
    const zone = await zoneOf(chain)
    return db.transaction(async (tx) => {
      const rows = await store.pendingRecords(tx, chain, BATCH_MAX_RECORDS)
      if (rows.length === 0) return 0
      const prev = await store.lastBatch(tx, chain)
      const seq = prev ? Number(prev.seq) + 1 : 1
      const batchId = `${chain}-b${seq}`
      const hall = chain === OPERATOR_CHAIN ? null : chain
      const lines = rows.map((row) => {
        const b = JSON.parse(row.body) as {
          type: string
          at: string
          part: number
          parts: number
          replaces: string | null
          data: unknown
        }
        // The envelope (SCHEMA.md): operator, hall, batch, record, part n of m, time with its zone, what it replaces.
        return JSON.stringify({
          schema: CONTROL_SCHEMA,
          operator,
          hall: row.hall_id,
          batch: batchId,
          record: row.record_id,
          part: b.part,
          parts: b.parts,
          at: isoInZone(Date.parse(b.at), zone),
          zone,
          type: b.type,
          replaces: b.replaces,
          data: b.data,
        })
      })
      const header: BatchHeader = {
        schema: BATCH_SCHEMA,
        operator,
        chain,
        hall,
        seq,
        batchId,
        openedAt: rows[0].created_at,
        closedAt,
        records: rows.length,
        firstRecord: rows[0].record_id,
        lastRecord: rows[rows.length - 1].record_id,
        recordsSha256: sha256(lines.join('\n')),
        recordHashes: lines.map(sha256),
        prevHash: prev?.hash ?? GENESIS_HASH,
        keyId: keys.publicInfo().keyId,
      }
      const hash = batchHash(header)
      const signature = sign(null, Buffer.from(hash, 'hex'), keys.privateKey).toString('base64')
      const content = [JSON.stringify({ header, hash, signature }), ...lines].join('\n') + '\n'
      await store.insertBatch(tx, {
        chain,
        seq,
        batch_id: batchId,
        hall_id: hall,
        opened_at: rows[0].created_at,
        closed_at: closedAt,
        record_count: rows.length,
        prev_hash: header.prevHash,
        hash,
        key_id: header.keyId,
        signature,
        content,
      })
      await store.markBatched(tx, chain, Number(rows[0].n), Number(rows[rows.length - 1].n), seq)
      return rows.length
    }, FEED_LOCK)
  }

  /** One pass (serialised): derive what the journal completed, then close the batches that are due. */
  function tick(options: { force?: boolean } = {}): Promise<{ derived: number; closed: number }> {
    const run = queue.then(async () => {
      const now = deps.clock.now()
      const derived = await derive(now.toISOString())
      const closed = await closeDue(now.getTime(), options.force ?? false)
      lastTick = { at: now.toISOString(), derived, closed }
      return { derived, closed }
    })
    queue = run.catch((e) => deps.log?.warn('regulator feed: could not derive or close a batch', e))
    return run
  }

  function parse(row: store.BatchRow): DeliveredBatch {
    const [first, ...lines] = row.content.replace(/\n$/, '').split('\n')
    const head = JSON.parse(first) as { header: BatchHeader; hash: string; signature: string }
    return { ...head, lines }
  }

  return {
    operator,
    tick,
    start() {
      if (timer || (deps.intervalMs ?? 60_000) <= 0) return
      timer = setInterval(() => {
        void tick()
      }, deps.intervalMs ?? 60_000)
      timer.unref?.()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await queue.catch(() => undefined)
    },
    /** The chains that have a closed batch. */
    async chains(): Promise<string[]> {
      return (await store.chainHeads(db)).map((h) => h.chain)
    },
    /** Closed batches of the given chains closed after `since`, as delivered. */
    async batchesSince(chains: readonly string[], since: string, limit = 100): Promise<DeliveredBatch[]> {
      return (await store.batchesSince(db, chains, since, limit)).map(parse)
    },
    /**
     * Every chain's head and whether the stored chain still verifies (links, header hashes, signatures): what the
     * back office's inspection section shows. The regulator's own check is regulator-check, which trusts none of this.
     */
    async state() {
      const heads = await store.chainHeads(db)
      const pending = await store.chainsWithPending(db)
      const broken: string[] = []
      const prev = new Map<string, string>()
      for (const row of await store.allBatches(db)) {
        const b = parse(row)
        const good =
          b.header.prevHash === (prev.get(row.chain) ?? GENESIS_HASH) &&
          batchHash(b.header) === b.hash &&
          verify(null, Buffer.from(b.hash, 'hex'), keys.publicKey, Buffer.from(b.signature, 'base64'))
        if (!good) broken.push(row.batch_id)
        prev.set(row.chain, b.hash)
      }
      return {
        operator,
        keyId: keys.publicInfo().keyId,
        lastTick,
        verified: broken.length === 0,
        broken,
        chains: heads.map((h) => ({ chain: h.chain, lastSeq: Number(h.seq), lastHash: h.hash, closedAt: h.closed_at })),
        pending,
      }
    },
    /**
     * Writes every closed batch as `DIR/<chain>/<seq>.jsonl`, the operator's public key and a signed manifest of
     * every chain's head (so that a batch cut off the end shows too). Closes the open batches first.
     */
    async exportTo(dir: string): Promise<{ files: number; chains: number }> {
      await tick({ force: true })
      const rows = await store.allBatches(db)
      mkdirSync(dir, { recursive: true })
      const heads: Record<string, { lastSeq: number; lastHash: string }> = {}
      for (const row of rows) {
        const sub = join(dir, safeName(row.chain))
        mkdirSync(sub, { recursive: true })
        writeFileSync(join(sub, `${String(row.seq).padStart(6, '0')}.jsonl`), row.content)
        heads[row.chain] = { lastSeq: Number(row.seq), lastHash: row.hash }
      }
      // Issue 28 point 3: each lotto draw's close-of-sales file as published before its draw.
      for (const doc of (await deps.closeOfSales?.all()) ?? [])
        writeFileSync(
          join(dir, `close-of-sales-${safeName(doc.body.drawId)}.json`),
          JSON.stringify(doc, null, 2) + '\n',
        )
      const info = keys.publicInfo()
      writeFileSync(join(dir, 'operator-key.json'), JSON.stringify(info, null, 2) + '\n')
      const manifest = {
        schema: 'bolillo-control-manifest-v1',
        operator,
        exportedAt: deps.clock.now().toISOString(),
        chains: heads,
        keyId: info.keyId,
      }
      const signature = sign(null, Buffer.from(canonicalJson(manifest), 'utf8'), keys.privateKey).toString('base64')
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, signature }, null, 2) + '\n')
      return { files: rows.length, chains: Object.keys(heads).length }
    },
  }
}

/** A chain's folder name: hall ids are the operator's, so anything but letters, digits, - and _ is escaped. */
export function safeName(chain: string): string {
  return chain.replace(/[^A-Za-z0-9_-]/g, (c) => `~${c.charCodeAt(0).toString(16)}`)
}

export type RegulatorFeed = ReturnType<typeof createRegulatorFeed>
