/**
 * Design and generation of instant games: generate a batch into storage (streamed, batched inserts), list and
 * read games, close a game's sales, and the derived print data of one ticket.
 */
import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { DomainError } from '../shared/errors.ts'
import { assertCatalogueGameAuthorised } from '../shared/lottery-common.ts'
import { checkDesign, type InstantDesign } from './design.ts'
import {
  createCodeBatch,
  deriveKey,
  formatSerial,
  INSTANT_STREAM_VERSION,
  packSerials,
  prizeTags,
  SEED_BYTES,
  seedCommitment,
} from './codes.ts'
import { generatePacks, type GeneratedPack } from './generate.ts'
import { encodedFaces, ticketFace } from './play.ts'
import { appendJournal } from '../shared/journal.ts'
import { sealContext, type InstantContext } from './context.ts'
import { generatorProblems, generatorRecord, instantGeneratorBuild, type GeneratorRecord } from './generator-build.ts'
import { certifiersNamedBy } from './certifiers.ts'
import {
  batchById,
  batchGeneratedPayload,
  batchOfGame,
  deleteBatch,
  insertBatch,
  listedBatches,
  markBatchClosed,
  markBatchReady,
  packWriter,
  ticketIdsEnd,
  ticketWriter,
  type Batch,
} from './store.ts'

/** What the print files need of each pack (computed only when asked for). */
export interface PackPrintData {
  packNo: number
  firstIndex: number
  serials: string[]
  codes: string[]
  /** encodeFace() of each ticket. */
  faces: string[]
  tiers: Uint8Array
}

export interface GenerateOptions {
  design: InstantDesign
  /**
   * Called once with the batch's seed, after it is sealed and before the tickets stream, for the print run (the
   * CLI's print files derive codes and faces from it, in memory). The seed itself comes from the entropy source:
   * there is no option to give one (DESIGN.md "Sealed secrets").
   */
  onSeed?: (seed: Uint8Array, commitment: string) => void | Promise<void>
  /** Who asked for the batch (route principal), for the journal. */
  by?: { kind: string; id: string; deviceId?: string | null }
  /** Receives each pack's print data, in order; awaited (back-pressure). */
  onPack?: (pack: PackPrintData) => void | Promise<void>
  /** Called every few packs with tickets done so far; awaited, so a caller may let other requests in meanwhile. */
  onProgress?: (done: number, total: number) => void | Promise<void>
  /** Tickets between two onProgress calls (50,000 unless set): the back office's live bar asks for finer steps. */
  progressEvery?: number
}

export interface BatchSummary {
  batchId: string
  gameNo: number
  channel: 'printed' | 'electronic'
  ticketCount: number
  packCount: number
  packSize: number
  tierCounts: number[]
  prizeFundCents: number
  salesCents: number
  payoutShareBp: number
  designSha256: string
  seedCommitment: string
  /** SHA-256 of every ticket's tier byte in ticket order: the placement, for checking print files against storage. */
  placementSha256: string
  journalSeq: number
  /** INS-3: the generator's certification reference and build hash. */
  generator: GeneratorRecord
}

/** Tickets per transaction: large on SQLite (one writer, fewer commits), moderate on PostgreSQL. */
const TX_TICKETS = { sqlite: 1_000_000, postgres: 100_000 } as const
const MAX_TICKET_ID = 2_147_483_647

export function createGameUseCases(ctx: InstantContext) {
  const { db, deps, now, pepperId, checkedOf, batchByGame, scopeOf } = ctx

  /**
   * Generates a batch into storage, streaming: packs are placed, coded and inserted in large transactions and
   * never all held. The seed is 32 bytes from the entropy source, sealed at once with the keys derived from it
   * (RNG-27, DESIGN.md "Sealed secrets"); tickets hold prize tags, never tiers. The batch row is `generating` until
   * the last ticket is in, then `ready` with the sealed pack prize counts and one journal record. A game number left
   * `generating` (a crash) is generated again from scratch with the seed it was given, so a crash cannot re-roll
   * the placement (and print files already written stay right).
   */
  async function generateBatch(opts: GenerateOptions): Promise<BatchSummary> {
    if ((opts as { seed?: unknown }).seed !== undefined) throw typedSeedRefused()
    const checked = checkDesign(opts.design)
    const d = checked.design
    // GEN-3: where the profile names the authority of every catalogue game (Cantabria), its own refusal.
    assertCatalogueGameAuthorised(deps.gameAuthority, d.authorisationRef, 'instant')
    // LOT-3 / GEN-5 (GEN-3): a game is generated only under the regulator's authorisation, where the profile asks for it.
    if (deps.designAuthorisationRequired && !d.authorisationRef?.trim()) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `instant game ${d.gameNo} needs the reference of the regulator's authorisation of the game (LOT-3, GEN-5)`,
        {
          field: 'authorisationRef',
          rule: 'LOT-3',
          problems: [{ field: 'authorisationRef', rule: 'LOT-3', message: 'required' }],
        },
      )
    }
    const designJson = JSON.stringify(d)
    const designSha256 = createHash('sha256').update(designJson).digest('hex')
    const channel = d.channel ?? 'printed'
    const at = now()

    const { batch, seed, generator } = await db.transaction(async (tx) => {
      // INS-3 / RNG-27: the generator's build and its certificate go with the batch; where the profile requires it, a
      // build without a certificate signed by a registered, active certifier generates nothing. Checked in the
      // transaction that writes the batch, so a certifier withdrawn meanwhile is seen.
      const generator = generatorRecord(deps.generator, instantGeneratorBuild(), {
        certifiers: await certifiersNamedBy(tx, deps.generator?.certification?.signed?.statement.certifier),
        today: at.slice(0, 10),
      })
      const existing = await batchOfGame(tx, d.gameNo)
      if (existing && existing.status !== 'generating')
        throw new DomainError('CONFLICT', `instant game ${d.gameNo} already exists`, { gameNo: d.gameNo })
      const seed = existing?.seedSealed ? ctx.openSealed(existing, 'seed', existing.seedSealed) : freshSeed()
      if (existing) await deleteBatch(tx, existing)
      const firstId = Math.max(1, Number((await ticketIdsEnd(tx)) ?? 1))
      if (firstId + d.ticketCount - 1 > MAX_TICKET_ID)
        throw new DomainError(
          'VALIDATION_FAILED',
          `the ticket table is full: ${d.ticketCount} more tickets would pass id ${MAX_TICKET_ID}`,
        )
      const id = ctx.newId('inb')
      const commitment = seedCommitment(seed)
      const keys = Buffer.concat([deriveKey(seed, d.gameNo, 'prize'), deriveKey(seed, d.gameNo, 'symbols')])
      await insertBatch(tx, {
        id,
        gameNo: d.gameNo,
        name: d.name,
        channel,
        currency: d.currency,
        priceCents: d.priceCents,
        ticketCount: d.ticketCount,
        packSize: d.packSize,
        packCount: checked.packCount,
        firstId,
        design: designJson,
        designSha256,
        seedCommitment: commitment,
        pepperId,
        createdAt: at,
        generator: JSON.stringify(generator),
        seedSealed: deps.sealer.seal(seed, sealContext('seed', d.gameNo, commitment)),
        keysSealed: deps.sealer.seal(keys, sealContext('keys', d.gameNo, commitment)),
      })
      return { batch: (await batchById(tx, id))!, seed, generator }
    })
    const commitment = batch.seedCommitment
    await opts.onSeed?.(seed, commitment)
    const { prizeKey, symbolsKey } = ctx.keysOf(batch)

    const codes = createCodeBatch(deriveKey(seed, d.gameNo, 'code'), d.gameNo)
    const T = d.tiers.length
    // Prize counts of each pack, uint16 big-endian by pack then tier: sealed whole once the batch is complete.
    const packPrizes = Buffer.alloc(checked.packCount * T * 2)
    const tierCounts = new Array<number>(T + 1).fill(0)
    const txTickets = TX_TICKETS[db.engine]
    const S = d.packSize
    const packStatus = channel === 'electronic' ? 'activated' : 'warehouse'
    const packLocation = channel === 'electronic' ? 'e-instant' : 'warehouse'
    const tickets = ticketWriter(db.engine)
    const packs = packWriter(db.engine)
    const packIterator = generatePacks(checked, seed)
    const placement = createHash('sha256')
    let done = 0
    let lastProgress = 0
    let finished = false
    // Packs stream through transactions of about txTickets tickets; rows go out one multi-row INSERT at a time,
    // so nothing but the current statement's parameters is held.
    while (!finished) {
      await db.transaction(async (tx) => {
        let inTx = 0
        while (inTx < txTickets) {
          const next = packIterator.next()
          if (next.done) {
            finished = true
            break
          }
          const pack: GeneratedPack = next.value
          placement.update(pack.tiers)
          const { codes: packCodes, tags } = codes.codesAndTags(pack.firstIndex, S, deps.pepper)
          const prizes = prizeTags(prizeKey, d.gameNo, pack.firstIndex, pack.tiers)
          const base = batch.firstId + pack.firstIndex
          const countsAt = (pack.packNo - 1) * T * 2 - 2
          for (let i = 0; i < S; i++) {
            const t = pack.tiers[i]
            tierCounts[t]++
            if (t > 0) packPrizes.writeUInt16BE(packPrizes.readUInt16BE(countsAt + t * 2) + 1, countsAt + t * 2)
            if (tickets.push3(base + i, prizes[i], tags[i])) await tickets.send(tx)
          }
          if (packs.push4(batch.id, pack.packNo, packStatus, packLocation)) await packs.send(tx)
          if (opts.onPack) {
            await opts.onPack({
              packNo: pack.packNo,
              firstIndex: pack.firstIndex,
              tiers: pack.tiers,
              codes: packCodes,
              serials: packSerials(d.gameNo, pack.packNo, S),
              faces: encodedFaces(checked, symbolsKey, pack.firstIndex, pack.tiers),
            })
          }
          done += S
          inTx += S
          if (opts.onProgress && done - lastProgress >= (opts.progressEvery ?? 50_000)) {
            lastProgress = done
            await opts.onProgress(done, d.ticketCount)
          }
        }
        await tickets.flush(tx)
        await packs.flush(tx)
      })
    }
    await opts.onProgress?.(done, d.ticketCount)

    // The counts come from the tickets written; a mismatch would be a generator bug, never shipped.
    for (let k = 1; k <= d.tiers.length; k++) {
      if (tierCounts[k] !== d.tiers[k - 1].count)
        throw new Error(`generator produced ${tierCounts[k]} prizes of tier ${k}, design says ${d.tiers[k - 1].count}`)
    }
    const placementSha256 = placement.digest('hex')
    const packPrizesSealed = deps.sealer.seal(deflateSync(packPrizes), sealContext('pack-prizes', d.gameNo, commitment))
    const record = await db.transaction(async (tx) => {
      const at2 = now()
      await markBatchReady(tx, batch.id, packPrizesSealed, at2)
      return appendJournal(tx, {
        at: at2,
        type: 'instant.batch_generated',
        scope: scopeOf(batch),
        payload: {
          batchId: batch.id,
          gameNo: d.gameNo,
          name: d.name,
          channel,
          ticketCount: d.ticketCount,
          packCount: checked.packCount,
          packSize: S,
          tierCounts: tierCounts.slice(1),
          prizeFundCents: checked.prizeFundCents,
          payoutShareBp: checked.payoutShareBp,
          designSha256,
          seedCommitment: commitment,
          placementSha256,
          algorithm: INSTANT_STREAM_VERSION,
          pepperId,
          seedSource: deps.entropy.name,
          sealingKeyId: deps.sealer.keyId,
          generator,
          by: opts.by ?? null,
          rule: 'RNG-27',
        },
      })
    })
    return {
      batchId: batch.id,
      gameNo: d.gameNo,
      channel,
      ticketCount: d.ticketCount,
      packCount: checked.packCount,
      packSize: S,
      tierCounts: tierCounts.slice(1),
      prizeFundCents: checked.prizeFundCents,
      salesCents: checked.salesCents,
      payoutShareBp: checked.payoutShareBp,
      designSha256,
      seedCommitment: commitment,
      placementSha256,
      journalSeq: record.seq,
      generator,
    }
  }

  /**
   * INS-3: checks the generator a batch recorded against the running build, the operator's current certificate and
   * the journal record written when it was generated. `ok` only when every one agrees; `problems` names each mismatch.
   */
  async function verifyGenerator(gameNo: number) {
    const batch = await batchByGame(db, gameNo)
    const recorded = batch.generator ? (JSON.parse(batch.generator) as GeneratorRecord) : null
    const payload = await batchGeneratedPayload(db, scopeOf(batch), batch.id)
    const journaled = payload ? ((JSON.parse(payload) as { generator?: GeneratorRecord }).generator ?? null) : null
    const running = instantGeneratorBuild()
    const certification = deps.generator?.certification ?? null
    const problems = generatorProblems(recorded, journaled, running, certification)
    return {
      gameNo,
      ok: problems.length === 0,
      problems,
      recorded,
      journaled,
      running: { sha256: running.sha256, algorithm: running.algorithm, modules: running.modules },
      certification,
      rule: 'INS-3',
    }
  }

  async function listGames() {
    return (await listedBatches(db)).map(gameInfo)
  }

  function gameInfo(b: Batch) {
    const c = checkedOf(b)
    return {
      gameNo: b.gameNo,
      name: b.name,
      channel: b.channel,
      status: b.status,
      currency: b.currency,
      priceCents: b.priceCents,
      ticketCount: b.ticketCount,
      packSize: b.packSize,
      packCount: b.packCount,
      playStyle: c.design.playStyle.type,
      symbolAmountsCents: c.symbolAmountsCents,
      tiers: c.design.tiers.map((t, i) => ({ tier: i + 1, amountCents: t.amountCents, count: t.count })),
      payoutShareBp: c.payoutShareBp,
      claimDays: c.design.claimDays,
      seedCommitment: b.seedCommitment,
      designSha256: b.designSha256,
      generatedAt: b.generatedAt,
      closedAt: b.closedAt,
      soldElectronic: b.channel === 'electronic' ? b.nextSaleIndex : undefined,
    }
  }

  async function getGame(gameNo: number) {
    return gameInfo(await batchByGame(db, gameNo))
  }

  /** Stops sales; the claim period (design claimDays) runs from now (INS-10). */
  async function closeGame(input: { gameNo: number; by: string }) {
    return db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      if (b.status === 'closed')
        throw new DomainError('ILLEGAL_TRANSITION', `instant game ${b.gameNo} is already closed`)
      const at = now()
      await markBatchClosed(tx, b.id, at)
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.game_closed',
        scope: scopeOf(b),
        payload: { gameNo: b.gameNo, by: input.by, claimDays: checkedOf(b).design.claimDays },
      })
      return { gameNo: b.gameNo, closedAt: at, journalSeq: rec.seq }
    })
  }

  /** A fresh 32-byte seed from the entropy source (RNG-27); refused if the source hands back anything else. */
  function freshSeed(): Buffer {
    const seed = Buffer.from(deps.entropy.randomBytes(SEED_BYTES))
    if (seed.length !== SEED_BYTES)
      throw new DomainError(
        'ENTROPY_HEALTH_FAILED',
        `the entropy source ${deps.entropy.name} gave ${seed.length} bytes, not ${SEED_BYTES}`,
      )
    return seed
  }

  /**
   * Authorised audit (INS-3: reproducible generation under audit, restricted access to the prize file): opens the
   * sealed seed so that an auditor can regenerate the batch bit for bit and check the commitment. Journaled with
   * the person and device, and the reason. Only the route's auditor permission reaches it.
   *
   * Issue 24 point 3: the seed gives every ticket's hidden validation code and prize, so while a ticket can still
   * be paid it would pay a prize with no ticket in hand (INS-10). It opens only once the game is closed and its
   * claim period has ended, by this server's clock; before that the request is refused and the refusal journaled
   * (who, why, when it opens) in its own transaction, so that the refusal is kept although the request fails.
   */
  async function exportSeed(input: {
    gameNo: number
    reason: string
    by: { kind: string; id: string; deviceId?: string | null }
  }) {
    if (!input.reason?.trim())
      throw new DomainError('VALIDATION_FAILED', 'opening a batch seed needs the reason of the audit', {
        field: 'reason',
      })
    const reason = input.reason.trim()
    const outcome = await db.transaction(async (tx) => {
      const b = await batchByGame(tx, input.gameNo)
      const at = now()
      // The seed opens only after a formal close (not merely the design's end of sales) and its claim period.
      const opensAt = b.status === 'closed' ? ctx.claimExpiresAt(b) : null
      if (b.status !== 'closed' || opensAt === null || at <= opensAt) {
        const why = b.status !== 'closed' ? 'on-sale' : 'claim-period'
        await appendJournal(tx, {
          at,
          type: 'instant.seed_export_refused',
          scope: scopeOf(b),
          payload: { gameNo: b.gameNo, status: b.status, why, opensAt, reason, by: input.by, rule: 'INS-10' },
        })
        return { ok: false as const, refused: { gameNo: b.gameNo, why, opensAt } }
      }
      const seed = ctx.openSealed(b, 'seed', b.seedSealed)
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.seed_exported',
        scope: scopeOf(b),
        payload: { gameNo: b.gameNo, seedCommitment: b.seedCommitment, reason, by: input.by, rule: 'INS-3' },
      })
      return {
        ok: true as const,
        opened: {
          gameNo: b.gameNo,
          algorithm: INSTANT_STREAM_VERSION,
          seedCommitment: b.seedCommitment,
          seedHex: seed.toString('hex'),
          exportedAt: at,
          journalSeq: rec.seq,
        },
      }
    })
    if (!outcome.ok) {
      const r = outcome.refused
      throw new DomainError(
        'ILLEGAL_TRANSITION',
        r.why === 'on-sale'
          ? `instant game ${r.gameNo} is on sale: its seed opens only after the game is closed and its claim period has ended (INS-3, INS-10)`
          : `instant game ${r.gameNo} is in its claim period: its seed opens after ${r.opensAt} (INS-3, INS-10)`,
        { gameNo: r.gameNo, opensAt: r.opensAt, rule: 'INS-10' },
      )
    }
    return outcome.opened
  }

  /** The derived data of one ticket for the print sheet or an audit: serial, code, face (needs the seed). */
  function ticketPrintData(design: InstantDesign, seed: Uint8Array, index: number, tier: number) {
    const c = checkDesign(design)
    const packNo = Math.floor(index / design.packSize) + 1
    return {
      serial: formatSerial({ gameNo: design.gameNo, packNo, position: index % design.packSize }),
      code: createCodeBatch(deriveKey(seed, design.gameNo, 'code'), design.gameNo).codes(index, 1)[0],
      face: ticketFace(c, deriveKey(seed, design.gameNo, 'symbols'), index, tier),
    }
  }

  return { generateBatch, listGames, getGame, closeGame, ticketPrintData, exportSeed, verifyGenerator }
}

/** A seed given by a person is refused: it comes from the entropy source (DESIGN.md "Sealed secrets"). */
export function typedSeedRefused(): DomainError {
  return new DomainError(
    'TYPED_SEED_REFUSED',
    "an instant batch's seed is taken from the server's entropy source; nobody types it: remove the seed",
    { field: 'seed' },
  )
}
