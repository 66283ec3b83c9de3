/**
 * Issue 28 point 4: the regulator's independent checker of an exported control feed (server/src/regulator/SCHEMA.md).
 *
 * It shares no code with the server's use cases or with the feed that wrote the batches: it reads the files, and
 * recomputes on its own every hash, the chain of batches, the signatures, every bingo game's pools, prize splits and
 * winners (from the balls and the numbers of every card sold), the sales digest, every lotto category and every
 * daily total. The only server code it uses is a published contract: the draw-proof verifier (DESIGN.md
 * "bolillo-draw-v2"), which anyone may run on its own. eslint.config.js keeps it that way.
 *
 * Every difference is reported, naming the batch or record it is in; nothing stops at the first.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { verifyProof } from '../shared/draw-proof-v2.ts'
import { canonical } from './canonical.ts'
import { checkAgainstCloseOfSales, readCloseOfSales } from './close-of-sales.ts'
import { checkInstantGame, checkLotteryDraw } from './products.ts'

export { canonical } from './canonical.ts'

export interface CheckReport {
  ok: boolean
  /** Each difference, Spanish first and English after " / ". */
  differences: string[]
  notices: string[]
  chains: string[]
  batches: number
  records: number
  games: number
  draws: number
  /** Numbered lottery and raffle draws recomputed. */
  lotteries: number
  /** Instant games checked against their prize structure. */
  instants: number
  totals: number
}

interface Header {
  schema: string
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
  recordHashes: string[]
  prevHash: string
  keyId: string
}
interface Envelope {
  schema: string
  operator: string
  hall: string | null
  batch: string
  record: string
  part: number
  parts: number
  at: string
  zone: string
  type: string
  replaces: string | null
  data: any
}
interface Batch {
  file: string
  header: Header
  hash: string
  signature: string
  lines: string[]
}

const GENESIS = '0'.repeat(64)
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

/** UTF-8 byte order, as the sales digest sorts serials. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

function splitEqually(pool: number, n: number): number[] {
  const base = Math.floor(pool / n)
  return Array.from({ length: n }, (_, i) => base + (i < pool - base * n ? 1 : 0))
}

export function checkExport(dir: string, options: { publicKeyPem?: string } = {}): CheckReport {
  const differences: string[] = []
  const notices: string[] = []
  const diff = (es: string, en: string) => differences.push(`${es} / ${en}`)

  // ---- the key: the one the regulator holds (--key), else the one in the export (noticed)
  let key: KeyObject | null = null
  let keyId = ''
  try {
    let pem = options.publicKeyPem
    if (!pem) {
      const info = JSON.parse(readFileSync(join(dir, 'operator-key.json'), 'utf8')) as { publicKeyPem: string }
      pem = info.publicKeyPem
      notices.push(
        "clave pública tomada de la exportación; fije la del operador con --key / public key taken from the export; pin the operator's with --key",
      )
    }
    key = createPublicKey(pem)
    keyId = (key.export({ format: 'jwk' }) as { x: string }).x.slice(0, 8)
  } catch (e) {
    diff(`no hay clave pública del operador legible (${(e as Error).message})`, 'no readable operator public key')
  }

  // ---- the batch files
  const batches: Batch[] = []
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const sub = join(dir, name)
    if (!statSync(sub).isDirectory()) continue
    for (const file of readdirSync(sub)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()) {
      const text = readFileSync(join(sub, file), 'utf8')
      const [first, ...lines] = text.replace(/\n$/, '').split('\n')
      try {
        const head = JSON.parse(first) as { header: Header; hash: string; signature: string }
        if (!head.header || typeof head.hash !== 'string') throw new Error('no header')
        batches.push({ file: `${name}/${file}`, ...head, lines })
      } catch (e) {
        diff(
          `fichero ${name}/${file}: cabecera de lote ilegible (${(e as Error).message})`,
          `file ${name}/${file}: unreadable batch header`,
        )
      }
    }
  }
  if (batches.length === 0) diff('la exportación no contiene ningún lote', 'the export holds no batch')

  // ---- the signed manifest of chain heads: a batch cut off the end shows here
  type Manifest = { operator: string; chains: Record<string, { lastSeq: number; lastHash: string }> }
  let manifest = null as Manifest | null
  try {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> & {
      signature: string
    }
    const { signature, ...body } = m
    if (key && !verify(null, Buffer.from(canonical(body), 'utf8'), key, Buffer.from(signature, 'base64')))
      diff('manifiesto: firma no válida', 'manifest: signature does not verify')
    manifest = body as unknown as Manifest
  } catch (e) {
    diff(`manifiesto ausente o ilegible (${(e as Error).message})`, 'manifest missing or unreadable')
  }

  // ---- each chain: order, links, hashes, signatures, record ids
  const byChain = new Map<string, Batch[]>()
  for (const b of batches) byChain.set(b.header.chain, [...(byChain.get(b.header.chain) ?? []), b])
  for (const name of Object.keys(manifest?.chains ?? {}))
    if (!byChain.has(name))
      diff(
        `cadena ${name}: el manifiesto la nombra y no hay ningún lote suyo`,
        `chain ${name}: named by the manifest, no batch of it present`,
      )
  const records: Envelope[] = []
  for (const [chain, list] of byChain) {
    list.sort((a, b) => a.header.seq - b.header.seq)
    let prevHash = GENESIS
    let expectSeq = 1
    let expectRecord = 1
    for (const b of list) {
      const h = b.header
      const id = h.batchId
      while (expectSeq < h.seq) {
        diff(
          `falta el lote ${chain}-b${expectSeq} (cadena ${chain}: el siguiente presente es ${id})`,
          `batch ${chain}-b${expectSeq} is missing`,
        )
        expectSeq++
        prevHash = '(desconocido)'
      }
      expectSeq = h.seq + 1
      if (h.schema !== 'bolillo-control-batch-v1')
        diff(`lote ${id}: esquema ${h.schema} desconocido`, `batch ${id}: unknown schema`)
      if (h.batchId !== `${chain}-b${h.seq}`)
        diff(
          `lote ${id}: su identificador no corresponde a la cadena ${chain} y al número ${h.seq}`,
          `batch ${id}: id does not match its chain and number`,
        )
      if (prevHash !== '(desconocido)' && h.prevHash !== prevHash)
        diff(
          `lote ${id}: no enlaza con el lote anterior (prevHash ${h.prevHash.slice(0, 12)}…, se esperaba ${prevHash.slice(0, 12)}…)`,
          `batch ${id}: prevHash does not link to the previous batch`,
        )
      const hash = sha256(canonical(h))
      if (hash !== b.hash)
        diff(
          `lote ${id}: el hash no corresponde a su cabecera (alterada)`,
          `batch ${id}: hash does not match its header`,
        )
      if (key) {
        let good = false
        try {
          good = verify(null, Buffer.from(b.hash, 'hex'), key, Buffer.from(b.signature, 'base64'))
        } catch {
          good = false
        }
        if (!good)
          diff(
            `lote ${id}: la firma no es del operador (clave ${h.keyId}; la del operador es ${keyId})`,
            `batch ${id}: signature is not the operator's`,
          )
        else if (h.keyId !== keyId)
          diff(`lote ${id}: nombra la clave ${h.keyId}, no la del operador ${keyId}`, `batch ${id}: names another key`)
      }
      if (sha256(b.lines.join('\n')) !== h.recordsSha256)
        diff(
          `lote ${id}: sus registros no corresponden a la cabecera (alterados, añadidos o quitados)`,
          `batch ${id}: records do not match the header's digest`,
        )
      if (b.lines.length !== h.records)
        diff(
          `lote ${id}: ${b.lines.length} registros, la cabecera dice ${h.records}`,
          `batch ${id}: record count differs`,
        )
      prevHash = b.hash
      b.lines.forEach((line, i) => {
        let r: Envelope
        if (Array.isArray(h.recordHashes) && h.recordHashes[i] !== sha256(line)) {
          const named = /"record":"([^"]+)"/.exec(line)?.[1] ?? `línea ${i + 2}`
          diff(
            `registro ${named} (lote ${id}): alterado, no es el que el lote firmó`,
            `record ${named} (batch ${id}): altered, not the one the batch signed`,
          )
        }
        try {
          r = JSON.parse(line) as Envelope
        } catch {
          diff(`lote ${id}, línea ${i + 2}: registro ilegible`, `batch ${id}, line ${i + 2}: unreadable record`)
          return
        }
        const n = Number(/-r(\d+)$/.exec(r.record)?.[1] ?? NaN)
        while (Number.isFinite(n) && expectRecord < n) {
          diff(
            `falta el registro ${chain}-r${expectRecord} (antes de ${r.record}, lote ${id})`,
            `record ${chain}-r${expectRecord} is missing`,
          )
          expectRecord++
        }
        if (Number.isFinite(n)) expectRecord = Math.max(expectRecord, n + 1)
        if (r.batch !== id)
          diff(
            `registro ${r.record}: dice estar en el lote ${r.batch}, está en ${id}`,
            `record ${r.record}: names another batch`,
          )
        if (r.schema !== 'bolillo-control-v1')
          diff(`registro ${r.record}: esquema ${r.schema} desconocido`, `record ${r.record}: unknown schema`)
        if (r.operator !== h.operator)
          diff(
            `registro ${r.record}: operador ${r.operator}, el lote es de ${h.operator}`,
            `record ${r.record}: another operator`,
          )
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(String(r.at)) || !r.zone)
          diff(`registro ${r.record}: hora sin zona`, `record ${r.record}: time without its zone`)
        ;(r as Envelope & { chain: string }).chain = chain
        records.push(r)
      })
      if (
        b.lines.length &&
        (JSON.parse(b.lines[0]).record !== h.firstRecord ||
          JSON.parse(b.lines[b.lines.length - 1]).record !== h.lastRecord)
      ) {
        diff(
          `lote ${id}: el primer o el último registro no es el que nombra la cabecera`,
          `batch ${id}: first or last record differs from the header`,
        )
      }
    }
    const head = manifest?.chains?.[chain]
    const last = list[list.length - 1]
    if (head && (head.lastSeq !== last.header.seq || head.lastHash !== last.hash)) {
      for (let s = last.header.seq + 1; s <= head.lastSeq; s++)
        diff(
          `falta el lote ${chain}-b${s} (el manifiesto firmado termina la cadena en ${chain}-b${head.lastSeq})`,
          `batch ${chain}-b${s} is missing at the end`,
        )
      if (head.lastSeq === last.header.seq)
        diff(
          `lote ${last.header.batchId}: no es el que firmó el manifiesto como cabeza de la cadena`,
          `batch ${last.header.batchId}: not the head the manifest signed`,
        )
    }
    if (!head && manifest) diff(`cadena ${chain}: no figura en el manifiesto`, `chain ${chain}: not in the manifest`)
  }

  // ---- corrections: a record that replaces another names an earlier one of the same type
  const byId = new Map(records.map((r) => [r.record, r]))
  const replaced = new Set<string>()
  for (const r of records) {
    if (!r.replaces) continue
    const old = byId.get(r.replaces)
    if (!old)
      diff(
        `registro ${r.record}: rectifica ${r.replaces}, que no está en la exportación`,
        `record ${r.record}: replaces a record not in the export`,
      )
    else if (old.type !== r.type)
      diff(
        `registro ${r.record}: rectifica ${r.replaces}, de otro tipo`,
        `record ${r.record}: replaces a record of another type`,
      )
    replaced.add(r.replaces)
  }

  // ---- bingo games
  const cardsOf = new Map<string, Envelope[]>()
  for (const r of records)
    if (r.type === 'bingo.cards') cardsOf.set(String(r.data.gameId), [...(cardsOf.get(String(r.data.gameId)) ?? []), r])
  let games = 0
  for (const r of records.filter((x) => x.type === 'bingo.game' && !replaced.has(x.record))) {
    games++
    checkBingoGame(r, cardsOf.get(String(r.data.gameId)) ?? [], diff, notices)
  }

  // ---- lotto draws, each settled one against its close-of-sales file published before the draw
  const published = readCloseOfSales(dir, key, diff)
  let draws = 0
  for (const r of records.filter((x) => x.type === 'lotto.draw' && !replaced.has(x.record))) {
    draws++
    const plays = records.filter((x) => x.type === 'lotto.plays' && x.data.drawId === r.data.drawId)
    checkLottoDraw(r, plays, diff)
    if (r.data.status === 'settled') checkAgainstCloseOfSales(r, plays, published.get(String(r.data.drawId)), diff)
  }

  // ---- numbered lotteries, raffles and instant games (products.ts)
  let lotteries = 0
  for (const r of records.filter((x) => x.type === 'lottery.draw' && !replaced.has(x.record))) {
    lotteries++
    checkLotteryDraw(r, diff)
  }
  let instants = 0
  for (const r of records.filter((x) => x.type === 'instant.game' && !replaced.has(x.record))) {
    instants++
    checkInstantGame(r, diff)
  }

  // ---- daily totals, recomputed from the game and draw records in force of the same chain and day
  const figures = [
    'events',
    'stakesCents',
    'refundsCents',
    'prizesCents',
    'potIncreasesCents',
    'potDecreasesCents',
  ] as const
  type Figures = Record<(typeof figures)[number], number>
  const computed = new Map<string, Figures>()
  for (const r of records) {
    if (replaced.has(r.record)) continue
    if (r.type === 'instant.game') {
      // An instant game's sales (by hour), payouts (paidAt) and misprint refunds (at), each on its own day.
      const chain = (r as Envelope & { chain: string }).chain
      const touched = new Set<string>()
      const on = (iso: string) => {
        const k = `${chain}|instant|${wallClockDay(iso, r.zone)}`
        const t = computed.get(k) ?? {
          events: 0,
          stakesCents: 0,
          refundsCents: 0,
          prizesCents: 0,
          potIncreasesCents: 0,
          potDecreasesCents: 0,
        }
        if (!touched.has(k)) t.events++
        touched.add(k)
        computed.set(k, t)
        return t
      }
      for (const [hour, h] of Object.entries((r.data.salesByHour ?? {}) as Record<string, any>))
        on(`${hour}:00:00.000Z`).stakesCents += Number(h.salesCents)
      for (const p of r.data.payouts ?? []) on(String(p.paidAt)).prizesCents += Number(p.amountCents)
      for (const x of r.data.refunds ?? []) on(String(x.at)).refundsCents += Number(x.amountCents)
      continue
    }
    const product =
      r.type === 'bingo.game'
        ? 'bingo'
        : r.type === 'lotto.draw'
          ? 'lotto'
          : r.type === 'lottery.draw'
            ? 'lottery'
            : null
    if (!product) continue
    // A lottery draw counts on the day it was settled or cancelled (SCHEMA.md), on the chain's wall clock.
    const lotteryAt = product === 'lottery' ? (r.data.settledAt ?? r.data.cancellation?.at ?? null) : null
    const day = lotteryAt ? wallClockDay(String(lotteryAt), r.zone) : r.at.slice(0, 10)
    const k = `${(r as Envelope & { chain: string }).chain}|${product}|${day}`
    const t = computed.get(k) ?? {
      events: 0,
      stakesCents: 0,
      refundsCents: 0,
      prizesCents: 0,
      potIncreasesCents: 0,
      potDecreasesCents: 0,
    }
    t.events++
    if (r.type === 'bingo.game') {
      t.stakesCents += Number(r.data.collectedCents)
      t.refundsCents += Number(r.data.refundCents ?? 0)
      for (const p of r.data.prizes ?? []) for (const w of p.winners ?? []) t.prizesCents += Number(w.amountCents)
      for (const j of r.data.jackpots ?? []) t.prizesCents += Number(j.amountCents)
      for (const m of r.data.potMovements ?? [])
        if (m.direction === 'increase') t.potIncreasesCents += Number(m.amountCents)
        else t.potDecreasesCents += Number(m.amountCents)
    } else if (r.type === 'lotto.draw') {
      t.stakesCents += Number(r.data.closeOfSales?.salesCents ?? 0)
      t.refundsCents += Number(r.data.refundCents ?? 0)
      for (const c of r.data.categories ?? []) t.prizesCents += Number(c.totalCents)
    } else {
      t.stakesCents += Number(r.data.closeOfSales?.salesCents ?? 0)
      t.refundsCents += Number(r.data.refundCents ?? 0)
      t.prizesCents += Number(r.data.liabilityCents ?? 0)
    }
    computed.set(k, t)
  }
  /** The totals' own figures against the recomputed ones, gross gaming revenue and the tax base by its basis. */
  const compare = (r: Envelope, label: string, c: Figures) => {
    for (const f of figures) {
      if (Number(r.data[f] ?? 0) !== c[f])
        diff(
          `registro ${r.record}: totales ${label} (${r.data.product}) ${f} = ${r.data[f]}, recalculado ${c[f]}`,
          `record ${r.record}: ${label} ${f} differs`,
        )
    }
    const ggr = c.stakesCents - c.refundsCents - c.prizesCents
    if (Number(r.data.grossGamingRevenueCents) !== ggr)
      diff(
        `registro ${r.record}: margen bruto ${r.data.grossGamingRevenueCents}, recalculado ${ggr}`,
        `record ${r.record}: gross gaming revenue differs`,
      )
    if (r.data.taxBasis !== undefined) {
      const base =
        r.data.taxBasis === 'stakes'
          ? c.stakesCents - c.refundsCents
          : r.data.taxBasis === 'gross-gaming-revenue'
            ? ggr
            : NaN
      if (Number(r.data.taxBaseCents) !== base)
        diff(
          `registro ${r.record}: base imponible ${r.data.taxBaseCents} (${r.data.taxBasis}), recalculada ${base}`,
          `record ${r.record}: tax base differs`,
        )
    }
  }
  let totals = 0
  const monthly = new Map<string, Figures & { days: number }>()
  for (const r of records.filter((x) => x.type === 'totals.daily' && !replaced.has(x.record))) {
    totals++
    const chain = (r as Envelope & { chain: string }).chain
    const k = `${chain}|${r.data.product}|${r.data.day}`
    const c = computed.get(k)
    // The month is summed from the daily totals as sent: a difference in a day shows once, on that day.
    const mk = `${chain}|${r.data.product}|${String(r.data.day).slice(0, 7)}`
    const m = monthly.get(mk) ?? {
      days: 0,
      events: 0,
      stakesCents: 0,
      refundsCents: 0,
      prizesCents: 0,
      potIncreasesCents: 0,
      potDecreasesCents: 0,
    }
    m.days++
    for (const f of figures) m[f] += Number(r.data[f] ?? 0)
    monthly.set(mk, m)
    if (!c) {
      diff(
        `registro ${r.record}: totales del ${r.data.day} (${r.data.product}) sin ninguna partida o sorteo de ese día`,
        `record ${r.record}: daily totals with no game or draw that day`,
      )
      continue
    }
    compare(r, `del ${r.data.day}`, c)
  }
  for (const r of records.filter((x) => x.type === 'totals.monthly' && !replaced.has(x.record))) {
    totals++
    const m = monthly.get(`${(r as Envelope & { chain: string }).chain}|${r.data.product}|${r.data.month}`)
    if (!m) {
      diff(
        `registro ${r.record}: totales de ${r.data.month} (${r.data.product}) sin ningún total diario de ese mes`,
        `record ${r.record}: monthly totals with no daily totals that month`,
      )
      continue
    }
    if (Number(r.data.days) !== m.days)
      diff(
        `registro ${r.record}: totales de ${r.data.month} (${r.data.product}) suman ${r.data.days} días, hay ${m.days} totales diarios`,
        `record ${r.record}: monthly day count differs`,
      )
    compare(r, `de ${r.data.month}`, m)
  }

  return {
    ok: differences.length === 0,
    differences,
    notices,
    chains: [...byChain.keys()],
    batches: batches.length,
    records: records.length,
    games,
    draws,
    lotteries,
    instants,
    totals,
  }
}

function checkBingoGame(
  r: Envelope,
  cardRecords: Envelope[],
  diff: (es: string, en: string) => void,
  notices: string[],
): void {
  const d = r.data
  const id = `registro ${r.record} (partida ${d.gameNo}, ${d.gameId})`
  const idEn = `record ${r.record}`
  const face = Number(d.faceValueCents)
  if (d.status === 'void') {
    if (Number(d.refundCents) !== Number(d.refundedCards) * face)
      diff(
        `${id}: devolución ${d.refundCents}, recalculada ${Number(d.refundedCards) * face} (${d.refundedCards} cartones x ${face})`,
        `${idEn}: refund differs`,
      )
    return
  }
  const collected = Number(d.cardsSold) * face
  if (Number(d.collectedCents) !== collected)
    diff(
      `${id}: recaudación ${d.collectedCents}, recalculada ${collected} (${d.cardsSold} cartones x ${face})`,
      `${idEn}: amount collected differs`,
    )
  const ranges = (d.series ?? []).reduce((s: number, x: { from: number; to: number }) => s + (x.to - x.from + 1), 0)
  if (ranges !== Number(d.cardsSold))
    diff(
      `${id}: los rangos de serie suman ${ranges} cartones, vendidos ${d.cardsSold}`,
      `${idEn}: series ranges differ from cards sold`,
    )
  const pools: Record<string, number> = {
    line: Math.floor((Number(d.collectedCents) * Number(d.shares?.lineBp)) / 10_000),
    bingo: Math.floor((Number(d.collectedCents) * Number(d.shares?.bingoBp)) / 10_000),
  }
  for (const kind of ['line', 'bingo'])
    if (Number(d.poolsCents?.[kind]) !== pools[kind])
      diff(
        `${id}: premio de ${kind} ${d.poolsCents?.[kind]}, recalculado ${pools[kind]}`,
        `${idEn}: ${kind} pool differs`,
      )
  const balls = (d.balls ?? []).map(Number) as number[]
  if (
    new Set(balls).size !== balls.length ||
    balls.some((b) => !Number.isInteger(b) || b < 1 || b > Number(d.ballCount))
  )
    diff(`${id}: bolas repetidas o fuera de 1..${d.ballCount}`, `${idEn}: repeated or out-of-range balls`)

  // The cards sold, from the close-of-sales parts: count, digest D, and every card's numbers.
  const parts = cardRecords.filter((c) => c.data.gameId === d.gameId)
  const cards = new Map<string, number[][]>()
  const seenParts = new Set<number>()
  for (const p of parts) {
    seenParts.add(p.part)
    if (p.parts !== d.cardParts)
      diff(
        `registro ${p.record}: parte ${p.part} de ${p.parts}, la partida dice ${d.cardParts}`,
        `record ${p.record}: part count differs`,
      )
    for (const c of p.data.cards ?? []) cards.set(String(c.serial), c.rows)
  }
  for (let i = 1; i <= Number(d.cardParts ?? 0); i++)
    if (!seenParts.has(i))
      diff(`${id}: falta la parte ${i} de ${d.cardParts} de sus cartones`, `${idEn}: card part ${i} missing`)
  if (cards.size > 0 || Number(d.cardParts ?? 0) > 0) {
    if (cards.size !== Number(d.cardsSold))
      diff(
        `${id}: ${cards.size} cartones en el fichero de cierre, vendidos ${d.cardsSold}`,
        `${idEn}: cards in the close-of-sales parts differ from cards sold`,
      )
    const digest = sha256([...cards.keys()].sort(byteOrder).join('\n'))
    if (d.salesDigest && digest !== d.salesDigest)
      diff(
        `${id}: el resumen de ventas D no corresponde a los cartones (recalculado ${digest.slice(0, 12)}…)`,
        `${idEn}: sales digest differs from the cards`,
      )
  }

  // Prize splits (equal parts; leftover centavos one each to the lowest serials by byte order) and the winners.
  const drawnAt = (k: number) => new Set(balls.slice(0, k))
  // BNG-98 / CFG-32: a fast bingo whose licence sets it is won with `timesRequired` of the card's numbers drawn.
  const timesRequired = Number.isInteger(d.timesRequired) ? Number(d.timesRequired) : null
  const complete = (rows: number[][], k: number, kind: string) => {
    const called = drawnAt(k)
    const full = rows.map((row) => row.every((n) => called.has(n)))
    if (kind !== 'line' && timesRequired !== null) {
      const numbers = rows.flat()
      return (
        numbers.length > 0 && numbers.filter((n) => called.has(n)).length >= Math.min(numbers.length, timesRequired)
      )
    }
    return kind === 'line' ? full.some(Boolean) : full.every(Boolean)
  }
  for (const p of d.prizes ?? []) {
    const winners = (p.winners ?? []) as Array<{ serial: string; atBall: number; amountCents: number }>
    const sum = winners.reduce((s, w) => s + Number(w.amountCents), 0)
    if (sum !== Number(p.poolCents))
      diff(
        `${id}: premios de ${p.kind} suman ${sum}, el premio es ${p.poolCents}`,
        `${idEn}: ${p.kind} winners' amounts do not add up to the prize`,
      )
    if (pools[p.kind] !== undefined && Number(p.poolCents) !== pools[p.kind])
      diff(
        `${id}: premio de ${p.kind} repartido ${p.poolCents}, recalculado ${pools[p.kind]}`,
        `${idEn}: ${p.kind} prize paid out differs`,
      )
    if (winners.length) {
      const sorted = [...winners].sort((a, b) => byteOrder(a.serial, b.serial))
      const split = splitEqually(pools[p.kind] ?? Number(p.poolCents), sorted.length)
      sorted.forEach((w, i) => {
        if (Number(w.amountCents) !== split[i])
          diff(
            `${id}: cartón ${w.serial} (${p.kind}) cobra ${w.amountCents}, el reparto da ${split[i]}`,
            `${idEn}: card ${w.serial} ${p.kind} amount differs`,
          )
      })
    }
    for (const w of winners) {
      if (!(w.atBall >= 1 && w.atBall <= balls.length))
        diff(
          `${id}: cartón ${w.serial} gana en la extracción ${w.atBall}, fuera de las ${balls.length} bolas`,
          `${idEn}: winner at an extraction not drawn`,
        )
      const rows = cards.get(w.serial)
      if (cards.size && !rows)
        diff(`${id}: el ganador ${w.serial} no es un cartón vendido`, `${idEn}: winner ${w.serial} was not sold`)
      else if (rows && !complete(rows, w.atBall, p.lineAtBingo ? 'bingo' : p.kind))
        diff(
          `${id}: el cartón ${w.serial} no tiene ${p.kind === 'line' ? 'línea' : 'bingo'} con las primeras ${w.atBall} bolas`,
          `${idEn}: card ${w.serial} has no ${p.kind} within ${w.atBall} balls`,
        )
    }
  }
  // Recomputed winners: the first extraction at which a sold card completed the bingo, and every card complete then.
  if (cards.size && d.status === 'finished') {
    let first = 0
    for (let k = 1; k <= balls.length && !first; k++)
      for (const rows of cards.values())
        if (complete(rows, k, 'bingo')) {
          first = k
          break
        }
    const expected = first
      ? [...cards]
          .filter(([, rows]) => complete(rows, first, 'bingo'))
          .map(([s]) => s)
          .sort(byteOrder)
      : []
    const recorded = (d.prizes ?? [])
      .filter((p: any) => p.kind === 'bingo')
      .flatMap((p: any) => p.winners.map((w: any) => String(w.serial)))
      .sort(byteOrder)
    if (canonical(expected) !== canonical(recorded))
      diff(
        `${id}: ganadores de bingo ${recorded.join(', ') || '(ninguno)'}; recalculados con las bolas: ${expected.join(', ') || '(ninguno)'} en la extracción ${first}`,
        `${idEn}: bingo winners differ from the recomputation`,
      )
  }

  // The draw proof (published contract bolillo-draw-v2): it verifies, and its balls, D and round are the record's.
  if (d.proof) {
    const v = verifyProof(d.proof)
    if (!v.ok)
      diff(
        `${id}: la prueba del sorteo no verifica: ${v.errors.map((e) => e.es).join('; ')}`,
        `${idEn}: draw proof does not verify`,
      )
    if (v.demoBeacon)
      notices.push(`${id}: sorteo con baliza de demostración, no pública / demo beacon, not a public one`)
    const pb = (d.proof.balls ?? []) as number[]
    // A game drawn by hand (BNG-24: the hall's blower) has no ball in its proof: the proof's seed and D still verify,
    // the balls are the blower's, witnessed by the camera and the minutes, not derived from the seed.
    const byHand = d.drawSource === 'manual' && pb.length === 0
    if (byHand)
      notices.push(`${id}: extraída a mano, las bolas son las del bombo / drawn by hand, the balls are the blower's`)
    else if (canonical(pb.slice(0, balls.length)) !== canonical(balls))
      diff(`${id}: las bolas no son las de la prueba del sorteo`, `${idEn}: balls differ from the draw proof`)
    if (d.proof.salesDigest !== d.salesDigest)
      diff(`${id}: D de la prueba distinto del registro`, `${idEn}: proof's sales digest differs`)
    if (d.beacon && d.proof.beacon && Number(d.proof.beacon.round) !== Number(d.beacon.round))
      diff(`${id}: ronda de baliza distinta de la prueba`, `${idEn}: beacon round differs from the proof`)
  } else if (d.drawSource === 'rng') {
    notices.push(`${id}: sin prueba de sorteo en el registro / no draw proof in the record`)
  }
}

function checkLottoDraw(r: Envelope, playRecords: Envelope[], diff: (es: string, en: string) => void): void {
  const d = r.data
  const id = `registro ${r.record} (sorteo ${d.drawId})`
  if (d.status !== 'settled') return
  // The settlement again, from the close-of-sales file (every play) and the winning numbers.
  if (d.plan && Number(d.playParts ?? 0) > 0) {
    const seen = new Set(playRecords.map((p) => p.part))
    for (let i = 1; i <= Number(d.playParts); i++)
      if (!seen.has(i))
        diff(
          `${id}: falta la parte ${i} de ${d.playParts} de sus jugadas`,
          `record ${r.record}: plays part ${i} missing`,
        )
    const winning = new Set((d.winningNumbers ?? []).map(Number))
    const boards: number[][] = playRecords.flatMap((p) =>
      (p.data.plays ?? []).flatMap((x: any) => x.boards as number[][]),
    )
    const sales = boards.length * Number(d.plan.priceCents)
    if (sales !== Number(d.closeOfSales?.salesCents))
      diff(
        `${id}: ventas ${d.closeOfSales?.salesCents}, recalculadas ${sales} (${boards.length} jugadas x ${d.plan.priceCents})`,
        `record ${r.record}: sales differ from the plays`,
      )
    const pool = Math.floor((Number(d.closeOfSales?.salesCents) * Number(d.plan.prizePoolBp)) / 10_000)
    if (pool !== Number(d.poolCents))
      diff(`${id}: fondo de premios ${d.poolCents}, recalculado ${pool}`, `record ${r.record}: prize pool differs`)
    const cats = d.plan.categories as Array<{
      code: string
      matches: number
      prize: { type: string; bp?: number; amountCents?: number }
    }>
    const shares = cats.filter((c) => c.prize?.type === 'share')
    const base = (c: { prize: { bp?: number } }) => Math.floor((pool * Number(c.prize.bp)) / 10_000)
    const leftover = pool - shares.reduce((s, c) => s + base(c), 0)
    const residue = shares.length > 0 && shares.reduce((s, c) => s + Number(c.prize.bp), 0) === 10_000 ? leftover : 0
    for (const c of cats) {
      const winners = boards.filter((b) => b.filter((n: number) => winning.has(n)).length === c.matches).length
      const rec = (d.categories ?? []).find((x: any) => x.code === c.code)
      if (!rec) {
        diff(`${id}: falta la categoría ${c.code}`, `record ${r.record}: category ${c.code} missing`)
        continue
      }
      if (Number(rec.winners) !== winners)
        diff(
          `${id}: categoría ${c.code}: ${rec.winners} ganadores, recalculados ${winners} con las jugadas`,
          `record ${r.record}: category ${c.code} winners differ`,
        )
      let total = 0
      if (c.prize?.type === 'share')
        total = winners ? base(c) + Number(d.carryInCents?.[c.code] ?? 0) + (c === shares[0] ? residue : 0) : 0
      else if (c.prize?.type === 'fixed') total = Number(c.prize.amountCents) * winners
      else continue
      if (Number(rec.totalCents) !== total)
        diff(
          `${id}: categoría ${c.code}: reparte ${rec.totalCents}, recalculado ${total}`,
          `record ${r.record}: category ${c.code} total differs`,
        )
    }
  }
  const sortedBalls = [...(d.balls ?? [])].map(Number).sort((a, b) => a - b)
  if (canonical(sortedBalls) !== canonical((d.winningNumbers ?? []).map(Number)))
    diff(
      `${id}: números ganadores ${d.winningNumbers?.join('-')} no son las bolas extraídas ${sortedBalls.join('-')}`,
      `record ${r.record}: winning numbers differ from the balls`,
    )
  let paid = 0
  for (const c of d.categories ?? []) {
    const expected = Number(c.winners) * Number(c.amountEachCents) + Number(c.extraCentWinners)
    if (Number(c.winners) > 0 && Number(c.totalCents) !== expected)
      diff(
        `${id}: categoría ${c.code}: total ${c.totalCents}, recalculado ${expected} (${c.winners} x ${c.amountEachCents} + ${c.extraCentWinners})`,
        `record ${r.record}: category ${c.code} total differs`,
      )
    if (Number(c.winners) === 0 && Number(c.totalCents) !== 0)
      diff(
        `${id}: categoría ${c.code} sin ganadores reparte ${c.totalCents}`,
        `record ${r.record}: category ${c.code} pays with no winner`,
      )
    // Only pari-mutuel categories share the pool; a fixed prize is paid from the draw's budget.
    if (c.prize === 'share') paid += Number(c.totalCents) + Number(c.carryOutCents ?? 0) + Number(c.retainedCents ?? 0)
  }
  const carry = Object.values(d.carryInCents ?? {}).reduce((s: number, v) => s + Number(v), 0)
  if (paid > Number(d.poolCents) + carry)
    diff(
      `${id}: las categorías de reparto (${paid}) superan el fondo (${d.poolCents} + ${carry})`,
      `record ${r.record}: categories exceed the pool`,
    )
}

/** The calendar day (YYYY-MM-DD) of an instant on a zone's wall clock. */
function wallClockDay(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso))
  const get = (t: string) => parts.find((x) => x.type === t)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')}`
}

/** Text for the command line. */
export function formatReport(r: CheckReport): string {
  const lines = [
    `Lotes / batches: ${r.batches} · registros / records: ${r.records} · partidas / games: ${r.games} · sorteos / draws: ${r.draws} · loterías y rifas / lotteries and raffles: ${r.lotteries} · juegos instantáneos / instant games: ${r.instants} · totales diarios y mensuales / daily and monthly totals: ${r.totals} · cadenas / chains: ${r.chains.join(', ')}`,
  ]
  for (const n of r.notices) lines.push(`AVISO / NOTICE: ${n}`)
  for (const d of r.differences) lines.push(`DIFERENCIA / DIFFERENCE: ${d}`)
  lines.push(
    r.ok
      ? 'OK: la exportación verifica / the export verifies'
      : `FALLO / FAILED: ${r.differences.length} diferencias / differences`,
  )
  return lines.join('\n') + '\n'
}
