import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, winningCodes, type HallSetup } from '../helpers/cashdesk.ts'
import { lotteryPlan, plan649, rafflePlan } from '../helpers/lottery-plans.ts'
import { printedFractions, type PrintedFraction } from '../helpers/lottery-print.ts'
import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { electronicDesign, printedDesign, printedInstant } from '../helpers/cashier.ts'
import { TERMINAL_TERMS } from '../helpers/terminals.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'
import { testPostgresUrl } from '../helpers/database.ts'
import { appendJournal, readJournal } from '../../server/src/shared/journal.ts'
import { committedJournalHorizon } from '../../server/src/shared/store.ts'
import { verifyCheckpoints } from '../../server/src/shared/checkpoints.ts'
import type { JournalRecord } from '../../server/src/shared/journal-chain.ts'
import type { Database } from '../../server/src/db/database.ts'
import { GLOBAL_LOCK, PRODUCT_LOCK_CLASS, SCOPE_LOCK_CLASS, scopeLockKey } from '../../server/src/db/scopes.ts'
import { gameScope } from '../../server/src/bingo/context.ts'
import { gameById } from '../../server/src/bingo/store/games.ts'
import { formatSerial } from '../../server/src/instant/codes.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'
import { DomainError } from '../../server/src/shared/errors.ts'

/**
 * Issue 23 point 5, DESIGN.md "Journal": on PostgreSQL the journal is one chain per scope (hall, operator product),
 * so writers of different halls never wait on one lock; signed checkpoints join the chains and `verify-journal`
 * checks every chain. Over real HTTP with authentication on: counter card sales of two halls.
 */
const PASSWORD = 'correct horse battery'
/** A self-excluded player's document (GEN-23, GEN-27). */
const EXCLUDED = 'CI 7654321 LP'

/** `scope`'s lock held on `db` by a transaction that writes nothing, until `release` is called. */
async function holdScopeOf(db: Database, scope: string) {
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let entered!: () => void
  const inside = new Promise<void>((r) => (entered = r))
  const held = db.transaction(
    async (tx) => {
      await tx.get('SELECT 1 AS one')
      entered()
      await gate
    },
    { scopes: [scope] },
  )
  await inside
  return { release, held }
}

describe('one journal chain per hall (issue 23 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let north: HallSetup
  let south: HallSetup
  let tillNorth: Till
  let tillSouth: Till

  /** One card at the hall's counter (Bs 5), paid in cash into the till's drawer. */
  const sell = (till: Till, hall: HallSetup) =>
    api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { count: 1, cash: countOf(500), ageConfirmed: true },
      till.headers,
    )
  const records = async () => {
    const out: JournalRecord[] = []
    for await (const r of readJournal(server.services.db)) out.push(r)
    return out
  }
  /** The hall's game on sale; one an earlier test left closed or drawing ends first (a hall plays one at a time). */
  const openGameIn = async (hall: HallSetup) => {
    const open = await server.services.db.all<{ id: string; status: string }>(
      "SELECT id, status FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')",
      [hall.hallId],
    )
    for (const g of open) if (g.status !== 'on_sale') await playToTheEnd(server.services, g.id)
    return open.find((g) => g.status === 'on_sale')?.id ?? (await nextGameOnSale(server.services, hall))
  }
  // One batch of pre-printed instant tickets (an instant game's number is the operator's, once), made when first asked.
  let instantStock: Awaited<ReturnType<typeof printedInstant>> | undefined
  const instantTickets = async () => (instantStock ??= await printedInstant(server.services, south.hallId))
  // The on-screen instant game (INS-15), generated when first asked.
  let electronicStock: Promise<unknown> | undefined
  const electronicGame = () => (electronicStock ??= server.services.instant.generateBatch({ design: electronicDesign }))
  /** Requests waiting (not granted) on a scope's advisory lock (pg_locks): a hall's, or a product's. */
  const lockWaiters = async (scope: string) =>
    Number(
      (
        await server.services.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2",
          [scope.startsWith('hall:') ? SCOPE_LOCK_CLASS : PRODUCT_LOCK_CLASS, scopeLockKey(scope) >>> 0],
        )
      )?.n ?? 0,
    )
  const hallLockWaiters = (hallId: string) => lockWaiters(`hall:${hallId}`)
  /** Hall A's lock held by a transaction that writes nothing, until `release` is called. */
  const holdHall = (hallId: string) => holdScope(`hall:${hallId}`)
  /** A scope's lock (a hall's, a product's) held by a transaction that writes nothing, until `release` is called. */
  const holdScope = (scope: string) => holdScopeOf(server.services.db, scope)
  /** Settles within `ms`, or 'pending'. */
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))])

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 })
    const { auth } = server.services
    north = await hallWithGameOnSale(server.services, { name: 'Sala Norte', cards: 300 })
    south = await hallWithGameOnSale(server.services, { name: 'Sala Sur', cards: 300 })
    await auth.createUser({
      username: 'cajera-norte',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [north.hallId],
    })
    await auth.createUser({
      username: 'cajera-sur',
      displayName: 'Ana Choque',
      role: 'cashier',
      password: PASSWORD,
      halls: [south.hallId],
    })
    const till = (hallId: string, username: string, stationName: string) =>
      openTill(server.url, server.services, { hallId, username, password: PASSWORD, stationName, floatCents: 100_000 })
    tillNorth = await till(north.hallId, 'cajera-norte', 'Caja Norte')
    tillSouth = await till(south.hallId, 'cajera-sur', 'Caja Sur')
    // A first sale in each hall, so that no test measures a first sale's warm-up.
    for (const [t, h] of [
      [tillNorth, north],
      [tillSouth, south],
    ] as const)
      expect((await sell(t, h)).status).toBe(201)
  }, 120_000)
  afterAll(async () => {
    await server?.cleanup()
  })

  it('a transaction scoped to one hall may append only to that hall chain (a programming error otherwise)', async () => {
    const { db } = server.services
    const at = new Date().toISOString()
    await expect(
      db.transaction(
        (tx) => appendJournal(tx, { at, type: 'test.wrong', scope: `hall:${south.hallId}`, payload: {} }),
        {
          scopes: [`hall:${north.hallId}`],
        },
      ),
    ).rejects.toThrow(`journal chain hall:${south.hallId} is not locked`)
    await expect(
      db.transaction((tx) => appendJournal(tx, { at, type: 'test.wrong', scope: '', payload: {} }), {
        scopes: [`hall:${north.hallId}`],
      }),
    ).rejects.toThrow('journal chain operator is not locked')
    expect((await records()).some((r) => r.type === 'test.wrong')).toBe(false)
  })

  it.skipIf(!testPostgresUrl)(
    'PostgreSQL: a transaction of hall A held open lets a sale of hall B commit, and holds a sale of hall A and a global writer',
    async () => {
      const { db } = server.services
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      // Holds hall A's lock and writes nothing: what waits behind it waits for the lock, not for a row.
      const held = db.transaction(
        async (tx) => {
          await tx.get('SELECT 1 AS one')
          entered()
          await gate
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await inside
      try {
        // Hall B: its own lock and the global one shared; it commits while A's transaction is open.
        const southSale = await within(sell(tillSouth, south), 10_000)
        expect(southSale === 'pending' ? 'pending' : southSale.status).toBe(201)
        // A second writer of hall A waits on its hall's advisory lock (pg_locks); an unscoped (global) writer waits on
        // the global lock, which hall A's transaction holds shared.
        // Requests waiting (not granted) on hall A's lock, or on the global lock exclusively.
        const waiting = async (lock: 'hall' | 'global') =>
          Number(
            (
              await db.get<{ n: number }>(
                lock === 'hall'
                  ? "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2"
                  : "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = ? AND objsubid = 1 AND mode = 'ExclusiveLock'",
                lock === 'hall' ? [SCOPE_LOCK_CLASS, scopeLockKey(`hall:${north.hallId}`) >>> 0] : [GLOBAL_LOCK],
              )
            )?.n ?? 0,
          )
        const waitFor = async (lock: 'hall' | 'global') => {
          const until = Date.now() + 15_000
          while ((await waiting(lock)) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
          return waiting(lock)
        }
        const northSale = sell(tillNorth, north)
        expect(await waitFor('hall')).toBe(1)
        const global = db.transaction((tx) =>
          appendJournal(tx, { at: new Date().toISOString(), type: 'test.global', scope: '', payload: {} }),
        )
        expect(await waitFor('global')).toBeGreaterThanOrEqual(1)
        expect(await within(northSale, 10)).toBe('pending')
        expect(await within(global, 10)).toBe('pending')
        release()
        await held
        expect((await northSale).status).toBe(201)
        await global
      } finally {
        release()
        await held.catch(() => undefined)
      }
    },
    60_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: a follower of the journal (the regulator's feed) reads no further than every record has committed, so a lower seq committing late is not passed over",
    async () => {
      const { db } = server.services
      // The operator's auditor reads the journal (journal.read); a cashier does not.
      await server.services.auth.createUser({
        username: 'auditora',
        displayName: 'Elena Quispe',
        role: 'auditor',
        password: PASSWORD,
        halls: [north.hallId, south.hallId],
      })
      const token = (await api(server.url, 'POST', '/api/auth/login', { username: 'auditora', password: PASSWORD }))
        .body.token
      const auditor = { authorization: `Bearer ${token}` }
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      let late = 0
      // Hall A draws its seq first and commits last.
      const held = db.transaction(
        async (tx) => {
          const at = new Date().toISOString()
          late = (await appendJournal(tx, { at, type: 'test.late', scope: `hall:${north.hallId}`, payload: {} })).seq
          entered()
          await gate
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await inside
      try {
        expect((await sell(tillSouth, south)).status).toBe(201)
        const newest = Math.max(...(await records()).map((r) => r.seq))
        expect(newest).toBeGreaterThan(late)
        expect((await records()).some((r) => r.seq === late)).toBe(false)
        // Neither the horizon nor the feed's round answers while a seq below the newest may still commit.
        const horizon = committedJournalHorizon(db)
        const tick = server.services.regulator.tick()
        // A reader of GET /api/journal paging by `from` waits too, then reads the late record with the rest.
        const page = api(server.url, 'GET', `/api/journal?from=${late - 1}&limit=1000`, undefined, auditor)
        expect(await within(horizon, 300)).toBe('pending')
        expect(await within(tick, 10)).toBe('pending')
        expect(await within(page, 10)).toBe('pending')
        release()
        await held
        expect(await horizon).toBeGreaterThanOrEqual(newest)
        await tick
        const read = await page
        expect(read.status).toBe(200)
        expect(read.body.records.map((r: { seq: number }) => Number(r.seq))).toContain(late)
        expect((await records()).some((r) => r.seq === late)).toBe(true)
      } finally {
        release()
        await held.catch(() => undefined)
      }
    },
    60_000,
  )

  it('two halls selling at once leave two valid chains joined by a checkpoint; an edited record is named in its chain', async () => {
    const { db, checkpoints } = server.services
    const sales = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? sell(tillSouth, south) : sell(tillNorth, north))),
    )
    expect(sales.map((s) => s.status)).toEqual([201, 201, 201, 201, 201, 201])
    const cp = await checkpoints.checkpoint('timer')
    expect(cp).not.toBeNull()
    const chainsSigned = cp!.chains!.map((c) => c.chain)
    expect(chainsSigned).toEqual(expect.arrayContaining([`hall:${north.hallId}`, `hall:${south.hallId}`, 'operator']))

    const verified = await server.services.verifyJournal()
    expect(verified.ok, JSON.stringify(verified)).toBe(true)
    const all = await records()
    const sold = (hallId: string) => all.filter((r) => r.type === 'cards.sold' && r.chain === `hall:${hallId}`)
    expect(sold(north.hallId).length).toBeGreaterThanOrEqual(3)
    expect(sold(south.hallId).length).toBeGreaterThanOrEqual(3)
    const report = verifyCheckpoints(all, await checkpoints.list(), server.services.keys.publicKey)
    expect(report.ok, JSON.stringify(report.problems)).toBe(true)

    // Someone with database access edits one sale's record in each chain in turn (append-only trigger dropped).
    await db.run(
      testPostgresUrl ? 'ALTER TABLE journal DISABLE TRIGGER journal_no_update' : 'DROP TRIGGER journal_no_update',
    )
    for (const hallId of [north.hallId, south.hallId]) {
      const target = sold(hallId)[1]
      const original = JSON.stringify(target.payload)
      await db.run('UPDATE journal SET payload = ? WHERE seq = ?', [
        JSON.stringify({ ...(target.payload as object), edited: true }),
        target.seq,
      ])
      const broken = await server.services.verifyJournal()
      expect(broken.ok).toBe(false)
      if (!broken.ok) {
        expect(broken.badSeq).toBe(target.seq)
        expect(broken.reason).toContain(`record ${target.seq} (chain hall:${hallId} #${target.chainSeq})`)
      }
      await db.run('UPDATE journal SET payload = ? WHERE seq = ?', [original, target.seq])
      expect((await server.services.verifyJournal()).ok).toBe(true)
    }
  }, 120_000)

  it("issue 23 point 3: an excluded player's refusal at the permission gate is decided and recorded in the hall the request touches, never in a hall its body names (GEN-23, GEN-27)", async () => {
    const { auth, players } = server.services
    // A director of both halls, logged in at no enrolled device: the hall guard lets her name either hall.
    await auth.createUser({
      username: 'directora',
      displayName: 'Lucía Mamani',
      role: 'director',
      password: PASSWORD,
      halls: [north.hallId, south.hallId],
    })
    const token = (await api(server.url, 'POST', '/api/auth/login', { username: 'directora', password: PASSWORD })).body
      .token
    const director = { authorization: `Bearer ${token}` }
    // Hall A's (north's) game on sale: what the sale touches.
    expect((await sell(tillNorth, north)).status).toBe(201)
    const excluded = async (document: string, hallId: string | null) =>
      (
        await players.exclude(
          { document, name: 'Juan Pérez', kind: 'self_excluded', reason: 'autoexclusión firmada', hallId },
          'test',
        )
      ).id
    /** A card of hall A's game sold to `document`, the body naming hall B. */
    const payToB = (document: string) =>
      api(
        server.url,
        'POST',
        `/api/games/${north.gameId}/sales`,
        { count: 1, ageConfirmed: true, hallId: south.hallId, playerDocument: document },
        director,
      ).then((r) => [r.status, r.body.error?.code])
    const refusalChains = async (exclusionId: string) => {
      const all = await records()
      const refused = all.filter(
        (r) => r.type === 'player.refused' && (r.payload as { exclusionId?: string }).exclusionId === exclusionId,
      )
      const audit = all.filter(
        (r) =>
          r.type === 'access.refused' &&
          r.seq > refused[0]?.seq &&
          (r.payload as { principal?: { name?: string } }).principal?.name === 'Lucía Mamani',
      )
      return { refused: refused.map((r) => r.chain), audit: audit.map((r) => r.chain) }
    }

    // Excluded in hall A only: the body's hall B does not let the sale past the gate.
    const inA = await excluded('CI 3216549 LP', north.hallId)
    expect(await payToB('3216549')).toEqual([403, 'PLAYER_EXCLUDED'])
    expect(await refusalChains(inA)).toEqual({ refused: [`hall:${north.hallId}`], audit: [`hall:${north.hallId}`] })

    // Excluded everywhere: the refusal goes to hall A's chain, never hall B's; on PostgreSQL it locks hall A alone, so
    // with hall B's lock held it commits and nothing waits on hall B.
    const everywhere = await excluded('CI 1112223 LP', null)
    const hold = testPostgresUrl ? await holdHall(south.hallId) : null
    try {
      expect(await within(payToB('1112223'), 10_000)).toEqual([403, 'PLAYER_EXCLUDED'])
      if (hold) expect(await hallLockWaiters(south.hallId)).toBe(0)
    } finally {
      hold?.release()
      await hold?.held
    }
    expect(await refusalChains(everywhere)).toEqual({
      refused: [`hall:${north.hallId}`],
      audit: [`hall:${north.hallId}`],
    })
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: with hall A's transaction open, hall B's ball, claim and its judgement, prize payout, lotto counter sale and voucher sale commit; the same five in hall A wait on its lock and commit after",
    async () => {
      const { db, bingo, lotto } = server.services
      const tenCards = (till: Till, gameId: string) =>
        api(
          server.url,
          'POST',
          `/api/games/${gameId}/sales`,
          { count: 10, cash: countOf(5000), ageConfirmed: true },
          till.headers,
        )
      // In each hall: a game played to its end (a winning card to pay) and the next one drawing, a card of it to claim.
      const prepare = async (till: Till, hall: HallSetup) => {
        expect((await tenCards(till, hall.gameId)).status).toBe(201)
        await playToTheEnd(server.services, hall.gameId)
        const [winner] = await winningCodes(server.services, hall.gameId)
        const gameId = await nextGameOnSale(server.services, hall)
        const sold = await tenCards(till, gameId)
        expect(sold.status).toBe(201)
        await bingo.closeSales({ gameId })
        // A first ball, so that a claim is heard whichever of the two commits first.
        await bingo.drawNext(gameId)
        return { winner, playedGameId: hall.gameId, gameId, serial: sold.body.cards[0].serial as string }
      }
      const inSouth = await prepare(tillSouth, south)
      const inNorth = await prepare(tillNorth, north)
      // A lotto draw on sale (an operator product: its slips lock `lotto` and the selling desk's hall).
      const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000
      const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
      const draw = await lotto.createDraw(
        plan649({
          gameCode: 'LOTOSCOPE',
          salesStartAt: laPaz(day - 86_400_000),
          salesCloseAt: laPaz(day + 5 * 86_400_000),
          drawAt: laPaz(day + 5 * 86_400_000 + 3600_000),
          claimDeadline: laPaz(day + 70 * 86_400_000),
        }),
      )
      /** The five writers of a hall's day: a ball, a claim judged, a prize paid, a lotto slip and a voucher sold. */
      const five = (till: Till, hall: HallSetup, p: typeof inSouth) => ({
        ball: bingo.drawNext(p.gameId).then((r) => typeof r.ball),
        claim: bingo.claim({ gameId: p.gameId, serial: p.serial, kind: 'line' }).then((r) => typeof r.ok),
        payout: api(server.url, 'POST', '/api/tickets/pay', { code: p.winner.code }, till.headers).then((r) => [
          r.status,
          r.body.error,
        ]),
        slip: api(
          server.url,
          'POST',
          `/api/lotto/draws/${draw.drawId}/slips`,
          {
            boards: [[3, 9, 17, 25, 33, 41]],
            player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' },
            ageConfirmed: true,
          },
          till.headers,
        ).then((r) => [r.status, r.body.error]),
        voucher: api(
          server.url,
          'POST',
          '/api/vouchers',
          { hallId: hall.hallId, amountCents: 2000, cash: countOf(2000) },
          till.headers,
        ).then((r) => [r.status, r.body.error]),
      })
      const expected = {
        ball: 'number',
        claim: 'boolean',
        payout: [200, undefined],
        slip: [201, undefined],
        voucher: [201, undefined],
      }
      const settled = async (ops: Record<string, Promise<unknown>>, ms: number) =>
        Object.fromEntries(
          await Promise.all(Object.entries(ops).map(async ([k, p]) => [k, await within(p, ms)] as const)),
        )
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const held = db.transaction(
        async (tx) => {
          await tx.get('SELECT 1 AS one')
          entered()
          await gate
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await inside
      try {
        // Hall B, one after the other, each under its own hall's lock (and lotto's): none waits for hall A.
        const southOps = five(tillSouth, south, inSouth)
        expect(await settled(southOps, 10_000)).toEqual(expected)
        // Hall A: the same five wait on hall A's advisory lock (pg_locks), then commit once it is released.
        const northOps = five(tillNorth, north, inNorth)
        const waiters = async () =>
          Number(
            (
              await db.get<{ n: number }>(
                "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2",
                [SCOPE_LOCK_CLASS, scopeLockKey(`hall:${north.hallId}`) >>> 0],
              )
            )?.n ?? 0,
          )
        // At least four on the lock: a sale of the group commit may instead wait in its lane for hall A's ball, which
        // goes first (a draw's priority, db/priority.ts) and is itself one of the waiters; all five stay pending.
        const until = Date.now() + 15_000
        while ((await waiters()) < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(
          await waiters(),
          JSON.stringify([
            await settled(northOps, 10),
            await db.all(
              "SELECT classid, objid, objsubid, mode, granted FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
            ),
          ]),
        ).toBeGreaterThanOrEqual(4)
        expect(Object.values(await settled(northOps, 10))).toEqual([
          'pending',
          'pending',
          'pending',
          'pending',
          'pending',
        ])
        // Hall B's game is drawn to its end: each "any more?" window closes and its prizes are awarded (BNG-50,
        // BNG-53) under hall B's lock too (after hall A's writers queued: the end of a game signs a checkpoint, which
        // takes the global lock exclusively and so waits for hall A's transaction, and every writer after it).
        expect(await within(playToTheEnd(server.services, inSouth.gameId), 30_000)).toBeUndefined()
        release()
        await held
        expect(await settled(northOps, 30_000)).toEqual(expected)
      } finally {
        release()
        await held.catch(() => undefined)
      }
      // Every chain verifies, a checkpoint joins them, and each record went to its own hall's chain (or lotto's).
      expect((await server.services.verifyJournal()).ok).toBe(true)
      // Signs the head unless the end of hall B's game already did (then nothing is new to sign).
      await server.services.checkpoints.checkpoint('timer')
      const all = await records()
      const report = verifyCheckpoints(all, await server.services.checkpoints.list(), server.services.keys.publicKey)
      expect(report.ok, JSON.stringify(report.problems)).toBe(true)
      const chains = (type: string, pred: (p: Record<string, unknown>) => boolean = () => true) => [
        ...new Set(
          all.filter((r) => r.type === type && pred(r.payload as Record<string, unknown>)).map((r) => r.chain),
        ),
      ]
      for (const [hall, p] of [
        [south, inSouth],
        [north, inNorth],
      ] as const) {
        const own = [`hall:${hall.hallId}`]
        expect(chains('ball.called', (x) => x.gameId === p.gameId)).toEqual(own)
        expect(chains('prize.awarded', (x) => x.gameId === p.gameId)).toEqual(p === inSouth ? own : [])
        expect([
          ...new Set([
            ...chains('claim.verified', (x) => x.gameId === p.gameId),
            ...chains('claim.rejected', (x) => x.gameId === p.gameId),
          ]),
        ]).toEqual(own)
        // A serial is unique within its game only: two halls' winners may share one.
        expect(chains('prize.paid', (x) => x.serial === p.winner.serial && x.gameId === p.playedGameId)).toEqual(own)
        expect(chains('voucher.sold', (x) => x.amountCents === 2000)).toContain(own[0])
      }
      expect(chains('lotto.slip_sold')).toEqual(['lotto'])
    },
    180_000,
  )
  it.skipIf(!testPostgresUrl)(
    'PostgreSQL: scope locks are taken halls first, in one order: a transaction waiting for hall A holds no product lock, and two transactions naming overlapping scopes in opposite order do not deadlock',
    async () => {
      const { db } = server.services
      const at = () => new Date().toISOString()
      // Transactions of hall B naming `lotto`, `instant` and hall B in opposite orders, pausing between their locks
      // and their commit, many times over: no deadlock (PostgreSQL would abort one of them).
      const pausing = (scopes: string[]) =>
        db.transaction(
          async (tx) => {
            await tx.get('SELECT pg_sleep(0.02)')
            await appendJournal(tx, { at: at(), type: 'test.order', scope: 'lotto:L6/order', payload: {} })
          },
          { scopes },
        )
      for (let i = 0; i < 40; i++)
        await Promise.all(
          Array.from({ length: 6 }, (_, k) =>
            pausing(
              k % 2 ? ['lotto', `hall:${south.hallId}`, 'instant'] : ['instant', `hall:${south.hallId}`, 'lotto'],
            ),
          ),
        )
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const held = db.transaction(
        async (tx) => {
          await tx.get('SELECT 1 AS one')
          entered()
          await gate
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await inside
      try {
        // A lotto writer of hall A (named product first) waits for hall A without holding `lotto`...
        const northLotto = db.transaction(
          (tx) => appendJournal(tx, { at: at(), type: 'test.order', scope: 'lotto:L6/order', payload: {} }),
          { scopes: ['lotto', `hall:${north.hallId}`] },
        )
        const until = Date.now() + 15_000
        const waiting = async () =>
          Number(
            (
              await db.get<{ n: number }>(
                "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2",
                [SCOPE_LOCK_CLASS, scopeLockKey(`hall:${north.hallId}`) >>> 0],
              )
            )?.n ?? 0,
          )
        while ((await waiting()) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await waiting()).toBe(1)
        // ...so hall B's lotto writer commits meanwhile.
        const southLotto = db.transaction(
          (tx) => appendJournal(tx, { at: at(), type: 'test.order', scope: 'lotto:L6/order', payload: {} }),
          { scopes: [`hall:${south.hallId}`, 'lotto'] },
        )
        expect(await within(southLotto, 10_000)).not.toBe('pending')
        expect(await within(northLotto, 10)).toBe('pending')
        release()
        await held
        await northLotto
      } finally {
        release()
        await held.catch(() => undefined)
      }
      expect((await server.services.verifyJournal()).ok).toBe(true)
    },
    60_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: with hall A's transaction open, hall B's instant payout, card refund, terminal credit, end-of-game checkpoint and excluded player's refusal commit; hall A's wait on its lock and commit after; every chain and checkpoint verifies",
    async () => {
      const { db, bingo } = server.services
      const payee = { payeeName: 'Ana Quispe Mamani', payeeDocument: '4455667 LP' }
      // Instant tickets (the operator's: paid at any of its cash desks, INS-11), sold in hall B.
      const tickets = await instantTickets()
      const winners = tickets.filter((t) => t.tier > 0).slice(0, 2)
      for (const w of winners)
        expect(
          (
            await api(
              server.url,
              'POST',
              '/api/instant/sales',
              { ageConfirmed: true, code: w.serial, hallId: south.hallId },
              tillSouth.headers,
            )
          ).status,
        ).toBe(201)
      // In each hall, a game whose cards were sold at the counter, then voided after its first ball (BNG-86: refunded).
      const voided = async (till: Till, hall: HallSetup) => {
        // A game an earlier test left drawing ends first; one left on sale is the one voided.
        const open = await db.all<{ id: string; status: string }>(
          "SELECT id, status FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')",
          [hall.hallId],
        )
        for (const g of open) if (g.status !== 'on_sale') await playToTheEnd(server.services, g.id)
        const gameId = open.find((g) => g.status === 'on_sale')?.id ?? (await nextGameOnSale(server.services, hall))
        const sold = await api(
          server.url,
          'POST',
          `/api/games/${gameId}/sales`,
          { count: 10, cash: countOf(5000), ageConfirmed: true },
          till.headers,
        )
        expect(sold.status).toBe(201)
        await bingo.closeSales({ gameId })
        await bingo.drawNext(gameId)
        await bingo.declareIncident({ gameId, kind: 'ball-irregularity', note: 'bola defectuosa' })
        await server.services.checkpoints.settled()
        const game = await gameById(db, gameId)
        return { code: sold.body.cards[0].code as string, scope: gameScope(game!) }
      }
      // A bingo terminal in each hall under the authority's terms, credited at the hall's cash desk (BNG-101).
      const terminal = async (hall: HallSetup) => {
        await server.services.terminals.setTerms({ hallId: hall.hallId, ...TERMINAL_TERMS, by: 'test' })
        return (
          await server.services.auth.enrolDevice({
            ...sealed(),
            kind: 'terminal',
            name: 'Terminal 1',
            hallId: hall.hallId,
          })
        ).id
      }
      const inSouth = { ...(await voided(tillSouth, south)), terminalId: await terminal(south), hallId: south.hallId }
      const inNorth = { ...(await voided(tillNorth, north)), terminalId: await terminal(north), hallId: north.hallId }
      await server.services.players.exclude(
        { document: EXCLUDED, name: 'Juan Pérez', kind: 'self_excluded', reason: 'autoexclusión firmada' },
        'test',
      )
      const three = (till: Till, w: (typeof winners)[number], v: typeof inSouth) => ({
        instant: api(
          server.url,
          'POST',
          '/api/tickets/pay',
          { code: w.code, inventoryCode: w.serial, ...payee },
          till.headers,
        ).then((r) => [r.status, r.body.error]),
        refund: api(server.url, 'POST', '/api/refunds/cards', { code: v.code }, till.headers).then((r) => [
          r.status,
          r.body.error,
        ]),
        credit: api(
          server.url,
          'POST',
          '/api/terminal-sessions/load',
          { terminalId: v.terminalId, amountCents: 1000, cash: countOf(1000), ageConfirmed: true },
          till.headers,
        ).then((r) => [r.status, r.body.error]),
        // What the end of the voided game asks for (services.ts), under that game's scope.
        checkpoint: server.services.checkpoints.checkpoint('game-ended', v.scope).then(() => 'signed'),
        // GEN-23 / GEN-27: a voucher for an excluded player, refused at the permission gate; the refusal is journaled
        // (player.refused, access.refused) in the station's hall only.
        refusal: api(
          server.url,
          'POST',
          '/api/vouchers',
          { hallId: v.hallId, amountCents: 1000, cash: countOf(1000), buyerDocument: EXCLUDED },
          till.headers,
        ).then((r) => [r.status, r.body.error?.code]),
      })
      const expected = {
        instant: [200, undefined],
        refund: [201, undefined],
        credit: [201, undefined],
        checkpoint: 'signed',
        refusal: [403, 'PLAYER_EXCLUDED'],
      }
      const settled = async (ops: Record<string, Promise<unknown>>, ms: number) =>
        Object.fromEntries(
          await Promise.all(Object.entries(ops).map(async ([k, p]) => [k, await within(p, ms)] as const)),
        )
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const held = db.transaction(
        async (tx) => {
          await tx.get('SELECT 1 AS one')
          entered()
          await gate
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await inside
      let northOps: ReturnType<typeof three> | undefined
      try {
        // Hall A first: its payout, refund, credit, checkpoint and refusal wait on hall A's advisory lock (pg_locks)...
        northOps = three(tillNorth, winners[1], inNorth)
        const waiters = async () =>
          Number(
            (
              await db.get<{ n: number }>(
                "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2",
                [SCOPE_LOCK_CLASS, scopeLockKey(`hall:${north.hallId}`) >>> 0],
              )
            )?.n ?? 0,
          )
        const until = Date.now() + 15_000
        while ((await waiters()) < 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await waiters()).toBe(5)
        // ...and no writer waits for the global lock, nor for another's `instant` lock.
        expect(
          await db.all(
            "SELECT classid, objid, objsubid, mode FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND NOT (classid = ? AND objid = ? AND objsubid = 2)",
            [SCOPE_LOCK_CLASS, scopeLockKey(`hall:${north.hallId}`) >>> 0],
          ),
        ).toEqual([])
        // Hall B's commit meanwhile, its checkpoint too (queued behind none of hall A's).
        const southOps = three(tillSouth, winners[0], inSouth)
        expect(await settled(southOps, 10_000)).toEqual(expected)
        expect(await within(northOps.instant, 10)).toBe('pending')
        expect(await within(northOps.refund, 10)).toBe('pending')
        expect(await within(northOps.credit, 10)).toBe('pending')
        expect(await within(northOps.refusal, 10)).toBe('pending')
        release()
        await held
        expect(await settled(northOps, 30_000)).toEqual(expected)
      } finally {
        release()
        await held.catch(() => undefined)
      }
      // Hall B's checkpoint alone, while hall A's transaction is open again: it commits.
      const again = db.transaction(
        async (tx) => {
          await tx.get('SELECT 1 AS one')
          await new Promise((r) => setTimeout(r, 3_000))
        },
        { scopes: [`hall:${north.hallId}`] },
      )
      await new Promise((r) => setTimeout(r, 100))
      // Something new in hall B's chain to sign.
      await db.transaction(
        (tx) =>
          appendJournal(tx, { at: new Date().toISOString(), type: 'test.new', scope: inSouth.scope, payload: {} }),
        { scopes: [`hall:${south.hallId}`] },
      )
      const cp = await within(server.services.checkpoints.checkpoint('game-ended', inSouth.scope), 2_000)
      expect(cp).not.toBe('pending')
      expect(cp).not.toBeNull()
      await again
      expect((await server.services.verifyJournal()).ok).toBe(true)
      const all = await records()
      const report = verifyCheckpoints(all, await server.services.checkpoints.list(), server.services.keys.publicKey)
      expect(report.ok, JSON.stringify(report.problems)).toBe(true)
      const chains = (type: string) => [...new Set(all.filter((r) => r.type === type).map((r) => r.chain))].sort()
      expect(chains('instant.prize_paid')).toEqual(['instant'])
      expect(chains('refund.paid')).toEqual([`hall:${north.hallId}`, `hall:${south.hallId}`].sort())
      // Each hall's refusal (its own record and the audit record naming who tried) in that hall's chain alone.
      expect(chains('player.refused')).toEqual([`hall:${north.hallId}`, `hall:${south.hallId}`].sort())
      expect(chains('access.refused')).toEqual([`hall:${north.hallId}`, `hall:${south.hallId}`].sort())
    },
    180_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: with hall A's transaction open, fixing the beacon of hall B's bolillo-draw-v2 game (its draw order, RNG-32) commits; hall A's waits on its lock, the only waiter, and commits after",
    async () => {
      const { db, bingo, beacon } = server.services
      // A game an earlier test left open in either hall ends first (a hall plays one game at a time).
      const tenCards = (till: Till, gameId: string) =>
        api(
          server.url,
          'POST',
          `/api/games/${gameId}/sales`,
          { count: 10, cash: countOf(5000), ageConfirmed: true },
          till.headers,
        )
      for (const [till, hall] of [
        [tillSouth, south],
        [tillNorth, north],
      ] as const) {
        const open = await db.all<{ id: string; status: string }>(
          "SELECT id, status FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')",
          [hall.hallId],
        )
        for (const g of open) {
          if (g.status === 'on_sale') expect((await tenCards(till, g.id)).status).toBe(201)
          await playToTheEnd(server.services, g.id)
        }
      }
      // The round is fetched after each close of sales (scheduleBeacon); held back here until hall A's lock is held.
      let publish!: () => void
      const published = new Promise<void>((r) => (publish = r))
      const obtain = beacon.obtain
      beacon.obtain = async (...args) => {
        await published
        return obtain.apply(beacon, args)
      }
      const beaconOf = async (gameId: string) => (await gameById(db, gameId))?.beaconRandomness ?? null
      const stored = async (gameId: string, ms: number) => {
        const until = Date.now() + ms
        while (!(await beaconOf(gameId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        return (await beaconOf(gameId)) !== null
      }
      let hold: Awaited<ReturnType<typeof holdHall>> | null = null
      try {
        // In each hall a game with cards sold, its sales closed: the beacon round is fixed, its value not yet stored.
        const closed = async (till: Till, hall: HallSetup) => {
          const gameId = await nextGameOnSale(server.services, hall)
          expect((await tenCards(till, gameId)).status).toBe(201)
          await bingo.closeSales({ gameId })
          return gameId
        }
        const inSouth = await closed(tillSouth, south)
        const inNorth = await closed(tillNorth, north)
        // The close's checkpoints are signed and the cards' printed marks written before hall A is held: what waits
        // below is the beacon alone.
        await server.services.checkpoints.settled()
        await server.services.cashdesk.prints.flushPrinted()
        expect([await beaconOf(inSouth), await beaconOf(inNorth)]).toEqual([null, null])
        hold = await holdHall(north.hallId)
        publish()
        // Hall B's beacon is stored under hall B's lock; hall A's waits on hall A's, the one waiter there.
        expect(await stored(inSouth, 10_000)).toBe(true)
        const until = Date.now() + 15_000
        while ((await hallLockWaiters(north.hallId)) < 1 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 50))
        expect(await hallLockWaiters(north.hallId)).toBe(1)
        expect(await beaconOf(inNorth)).toBeNull()
        hold.release()
        await hold.held
        expect(await stored(inNorth, 15_000)).toBe(true)
        const all = await records()
        for (const [hall, gameId] of [
          [south, inSouth],
          [north, inNorth],
        ] as const)
          expect(
            all
              .filter((r) => r.type === 'game.beacon' && (r.payload as { gameId?: string }).gameId === gameId)
              .map((r) => r.chain),
          ).toEqual([`hall:${hall.hallId}`])
      } finally {
        beacon.obtain = obtain
        publish()
        hold?.release()
        await hold?.held
      }
      expect((await server.services.verifyJournal()).ok).toBe(true)
    },
    120_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: an instant ticket's scan at the cash desk (§8, INS-11) locks the `instant` product alone: with hall A's transaction open, scans at both halls' desks commit; with `instant` held, a scan is its one waiter and commits after",
    async () => {
      // Tickets no other test sells or pays.
      const tickets = (await instantTickets()).filter((t) => t.tier === 0)
      const scan = (till: Till, code: string) =>
        api(server.url, 'POST', '/api/tickets/validate', { code }, till.headers).then((r) => [
          r.status,
          r.body.error?.code,
        ])
      const scanned = async () =>
        (await records()).filter((r) => r.type === 'instant.ticket_validated').map((r) => r.chain)
      const before = (await scanned()).length
      const hall = await holdHall(north.hallId)
      try {
        // Neither scan writes a row of hall A: both commit while hall A's transaction is open.
        expect(await within(scan(tillSouth, tickets[0].code), 10_000)).toEqual([200, undefined])
        expect(await within(scan(tillNorth, tickets[1].code), 10_000)).toEqual([200, undefined])
      } finally {
        hall.release()
        await hall.held
      }
      const product = await holdScope('instant')
      let waiting: Promise<unknown> | undefined
      try {
        waiting = scan(tillSouth, tickets[2].code)
        const until = Date.now() + 15_000
        while ((await lockWaiters('instant')) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await lockWaiters('instant')).toBe(1)
        expect(await within(waiting, 10)).toBe('pending')
      } finally {
        product.release()
        await product.held
      }
      expect(await waiting).toEqual([200, undefined])
      const after = await scanned()
      expect(after.length).toBe(before + 3)
      expect([...new Set(after)]).toEqual(['instant'])
    },
    60_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: the timer's checkpoint locks the operator chain alone: with hall A's transaction open it is signed; with the operator chain's lock held it is that lock's one waiter, hall B's sale commits meanwhile, and it is signed after",
    async () => {
      const { checkpoints } = server.services
      // Something new to sign: a card of hall B's game on sale.
      const fresh = async () => {
        const sale = await within(sell(tillSouth, { ...south, gameId: await openGameIn(south) }), 10_000)
        expect(sale === 'pending' ? sale : sale.status).toBe(201)
      }
      await fresh()
      await checkpoints.settled()
      const hall = await holdHall(north.hallId)
      try {
        const cp = await within(checkpoints.checkpoint('timer'), 10_000)
        expect(cp).not.toBe('pending')
        expect(cp).not.toBeNull()
      } finally {
        hall.release()
        await hall.held
      }
      await fresh()
      const operator = await holdScope('operator')
      let timer: ReturnType<typeof checkpoints.checkpoint> | undefined
      try {
        timer = checkpoints.checkpoint('timer')
        const until = Date.now() + 15_000
        while ((await lockWaiters('operator')) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await lockWaiters('operator')).toBe(1)
        // A hall's writer takes no operator lock: it commits while the timer waits.
        await fresh()
        expect(await within(timer, 10)).toBe('pending')
      } finally {
        operator.release()
        await operator.held
      }
      expect(await timer).not.toBeNull()
      const all = await records()
      const timers = all.filter(
        (r) => r.type === 'journal.checkpoint' && (r.payload as { reason?: string }).reason === 'timer',
      )
      expect([...new Set(timers.map((r) => r.chain))]).toEqual(['operator'])
      expect((await server.services.verifyJournal()).ok).toBe(true)
      const report = verifyCheckpoints(all, await checkpoints.list(), server.services.keys.publicKey)
      expect(report.ok, JSON.stringify(report.problems)).toBe(true)
    },
    60_000,
  )

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: a refusal's audit record (issue 9) and the anonymous refusals' summary (issue 14 point 4) lock the operator chain alone: with hall A's transaction open, hall B's refused payout answers and the summary is written; with the operator chain's lock held, each is its one waiter",
    async () => {
      const { refusals } = server.services
      // A card of hall A's game, presented at hall B's desk: WRONG_HALL, journaled as access.refused.
      const card = await sell(tillNorth, { ...north, gameId: await openGameIn(north) })
      expect(card.status).toBe(201)
      const refused = () =>
        api(
          server.url,
          'POST',
          '/api/tickets/pay',
          { code: card.body.cards[0].code, payeeName: 'Juan Pérez', payeeDocument: '4455668 LP' },
          tillSouth.headers,
        ).then((r) => [r.status, r.body.error?.code])
      const count = () =>
        refusals.count({ code: 'UNAUTHORIZED', method: 'GET', route: '/api/journal', address: '203.0.113.9' })
      const hall = await holdHall(north.hallId)
      try {
        expect(await within(refused(), 10_000)).toEqual([403, 'WRONG_HALL'])
        count()
        expect(await within(refusals.flush(), 10_000)).toBeUndefined()
      } finally {
        hall.release()
        await hall.held
      }
      for (const op of [refused, () => (count(), refusals.flush())]) {
        const operator = await holdScope('operator')
        let waiting: Promise<unknown> | undefined
        try {
          waiting = op()
          const until = Date.now() + 15_000
          while ((await lockWaiters('operator')) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
          expect(await lockWaiters('operator')).toBe(1)
          expect(await within(waiting, 10)).toBe('pending')
        } finally {
          operator.release()
          await operator.held
        }
        await waiting
      }
      const all = await records()
      const chains = (type: string) => [...new Set(all.filter((r) => r.type === type).map((r) => r.chain))]
      expect(chains('access.refused.summary')).toEqual(['operator'])
      expect([
        ...new Set(
          all
            .filter((r) => r.type === 'access.refused' && (r.payload as { code?: string }).code === 'WRONG_HALL')
            .map((r) => r.chain),
        ),
      ]).toEqual(['operator'])
      expect((await server.services.verifyJournal()).ok).toBe(true)
    },
    60_000,
  )

  it("§8: a bingo card's scan at the cash desk locks its hall alone: with hall A's transaction open a scan at hall B's desk answers; with hall B's held it is that lock's one waiter; its record is in hall B's chain", async () => {
    const card = await sell(tillSouth, { ...south, gameId: await openGameIn(south) })
    expect(card.status).toBe(201)
    // The sale's printed mark is written (under hall B's lock) before hall B is held: what waits below is the scan.
    await server.services.cashdesk.prints.flushPrinted()
    await server.services.checkpoints.settled()
    const scan = () =>
      api(server.url, 'POST', '/api/tickets/validate', { code: card.body.cards[0].code }, tillSouth.headers).then(
        (r) => [r.status, r.body.error?.code],
      )
    const ofCard = (r: JournalRecord) =>
      r.type === 'ticket.validated' && (r.payload as { ticketId?: string }).ticketId === card.body.cards[0].id
    if (testPostgresUrl) {
      const hall = await holdHall(north.hallId)
      try {
        expect(await within(scan(), 10_000)).toEqual([200, undefined])
      } finally {
        hall.release()
        await hall.held
      }
      const own = await holdHall(south.hallId)
      let waiting: ReturnType<typeof scan> | undefined
      try {
        waiting = scan()
        const until = Date.now() + 15_000
        while ((await hallLockWaiters(south.hallId)) < 1 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 50))
        expect(await hallLockWaiters(south.hallId)).toBe(1)
        expect(await within(waiting, 10)).toBe('pending')
      } finally {
        own.release()
        await own.held
      }
      expect(await waiting).toEqual([200, undefined])
    } else {
      expect(await scan()).toEqual([200, undefined])
      expect(await scan()).toEqual([200, undefined])
    }
    const scanned = (await records()).filter(ofCard)
    expect(scanned.length).toBe(2)
    expect([...new Set(scanned.map((r) => r.chain))]).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it.skipIf(!testPostgresUrl)(
    "PostgreSQL: a pre-printed instant ticket sold at hall B's counter (INS-10) locks hall B and `instant` alone: with hall A's transaction open it is sold; with `instant` held it is that lock's one waiter; the sale's record is in `instant`, the cash in hall B's chain",
    async () => {
      const tickets = (await instantTickets()).filter((t) => t.tier === 0).slice(-2)
      const sellInstant = (serial: string) =>
        api(
          server.url,
          'POST',
          '/api/instant/sales',
          { ageConfirmed: true, code: serial, hallId: south.hallId },
          tillSouth.headers,
        ).then((r) => [r.status, r.body.error?.code])
      const hall = await holdHall(north.hallId)
      try {
        expect(await within(sellInstant(tickets[0].serial), 10_000)).toEqual([201, undefined])
      } finally {
        hall.release()
        await hall.held
      }
      const product = await holdScope('instant')
      let waiting: ReturnType<typeof sellInstant> | undefined
      try {
        waiting = sellInstant(tickets[1].serial)
        const until = Date.now() + 15_000
        while ((await lockWaiters('instant')) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await lockWaiters('instant')).toBe(1)
        expect(await within(waiting, 10)).toBe('pending')
      } finally {
        product.release()
        await product.held
      }
      expect(await waiting).toEqual([201, undefined])
      const all = await records()
      const serials = new Set(tickets.map((t) => t.serial))
      const sold = all.filter(
        (r) => r.type === 'instant.ticket_sold' && serials.has((r.payload as { serial?: string }).serial ?? ''),
      )
      expect(sold.map((r) => r.chain)).toEqual(['instant', 'instant'])
      const cash = all.filter(
        (r) => r.type === 'sale.cash_taken' && JSON.stringify(r.payload).includes(tickets[0].serial) === true,
      )
      expect([...new Set(cash.map((r) => r.chain))]).toEqual([`hall:${south.hallId}`])
      expect((await server.services.verifyJournal()).ok).toBe(true)
    },
    60_000,
  )

  it("§8: a lotto slip's scan at the cash desk locks `lotto` alone: with hall A's transaction open a scan at hall A's desk answers; with `lotto` held it is that lock's one waiter; its record is in the `lotto` chain", async () => {
    const { lotto } = server.services
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000
    const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
    const draw = await lotto.createDraw(
      plan649({
        gameCode: 'LOTOSCAN',
        salesStartAt: laPaz(day - 86_400_000),
        salesCloseAt: laPaz(day + 5 * 86_400_000),
        drawAt: laPaz(day + 5 * 86_400_000 + 3600_000),
        claimDeadline: laPaz(day + 70 * 86_400_000),
      }),
    )
    const slip = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${draw.drawId}/slips`,
      {
        boards: [[2, 8, 16, 24, 32, 40]],
        player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' },
        ageConfirmed: true,
      },
      tillNorth.headers,
    )
    expect(slip.status, JSON.stringify(slip.body)).toBe(201)
    const scan = () =>
      api(server.url, 'POST', '/api/tickets/validate', { code: slip.body.code }, tillNorth.headers).then((r) => [
        r.status,
        r.body.error?.code,
        r.body.outcome,
      ])
    const before = (await records()).filter((r) => r.type === 'lotto.ticket_validated').length
    if (testPostgresUrl) {
      const hall = await holdHall(north.hallId)
      try {
        expect(await within(scan(), 10_000)).toEqual([200, undefined, 'PENDING'])
      } finally {
        hall.release()
        await hall.held
      }
      const product = await holdScope('lotto')
      let waiting: ReturnType<typeof scan> | undefined
      try {
        waiting = scan()
        const until = Date.now() + 15_000
        while ((await lockWaiters('lotto')) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await lockWaiters('lotto')).toBe(1)
        expect(await within(waiting, 10)).toBe('pending')
      } finally {
        product.release()
        await product.held
      }
      expect(await waiting).toEqual([200, undefined, 'PENDING'])
    } else {
      expect(await scan()).toEqual([200, undefined, 'PENDING'])
      expect(await scan()).toEqual([200, undefined, 'PENDING'])
    }
    const scanned = (await records()).filter((r) => r.type === 'lotto.ticket_validated')
    expect(scanned.length).toBe(before + 2)
    expect([...new Set(scanned.map((r) => r.chain))]).toEqual(['lotto'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  /**
   * Issue 23 point 5: `beside` runs with `other`'s lock held (hall A's unless said) and answers; `behind` runs with
   * `own`'s held and is that lock's one waiter until it is released (pg_locks), then answers. On SQLite (one writer
   * at a time) both run in turn: each record is still refused unless its transaction locked its chain
   * (assertChainHeld).
   */
  const besideThenBehind = async <A, B>(
    own: string,
    beside: () => Promise<A>,
    behind: () => Promise<B>,
    other = `hall:${north.hallId}`,
  ): Promise<[A | 'pending', B]> => {
    if (!testPostgresUrl) return [await beside(), await behind()]
    const hold = await holdScope(other)
    let first: A | 'pending'
    try {
      first = await within(beside(), 10_000)
    } finally {
      hold.release()
      await hold.held
    }
    // The printed marks and checkpoints that `beside` (or what came before) left queued are written first: what
    // waits below is `behind` alone.
    await server.services.cashdesk.prints.flushPrinted()
    await server.services.checkpoints.settled()
    const mine = await holdScope(own)
    let waiting: Promise<B> | undefined
    try {
      waiting = behind()
      const until = Date.now() + 15_000
      while ((await lockWaiters(own)) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
      expect(await lockWaiters(own)).toBe(1)
      expect(await within(waiting, 10)).toBe('pending')
    } finally {
      mine.release()
      await mine.held
    }
    return [first, await waiting]
  }
  /** The chains the records of `type` (those `pred` keeps) are in. */
  const chainsOf = async (type: string, pred: (p: Record<string, unknown>) => boolean = () => true) => [
    ...new Set(
      (await records())
        .filter((r) => r.type === type && pred(r.payload as Record<string, unknown>))
        .map((r) => r.chain),
    ),
  ]
  /** A person of hall B (south) logged in at no enrolled device: the bearer headers. */
  const personOfSouth = async (username: string, role: 'director' | 'hall_manager') => {
    await server.services.auth.createUser({
      username,
      displayName: role === 'director' ? 'Marta Quispe' : 'Luis Mamani',
      role,
      password: PASSWORD,
      halls: [south.hallId],
    })
    const token = (await api(server.url, 'POST', '/api/auth/login', { username, password: PASSWORD })).body.token
    return { authorization: `Bearer ${token}`, 'accept-language': 'es' }
  }
  /** A card of hall B's (south's) game on sale, sold at its counter, its printed mark written. */
  const southCard = async () => {
    const sold = await sell(tillSouth, { ...south, gameId: await openGameIn(south) })
    expect(sold.status).toBe(201)
    await server.services.cashdesk.prints.flushPrinted()
    await server.services.checkpoints.settled()
    return sold.body.cards[0] as { id: string; code: string; serial: string; gameId?: string }
  }

  it("BNG-71 (issue 29): a card looked up by its serial at hall B's desk locks hall B alone: with hall A's transaction open it answers; with hall B's held it is that lock's one waiter; its record is in hall B's chain", async () => {
    const card = await southCard()
    const gameId = await openGameIn(south)
    const look = () =>
      api(server.url, 'POST', '/api/tickets/lookup', { gameId, serial: card.serial }, tillSouth.headers).then((r) => [
        r.status,
        r.body.error?.code,
        r.body.view?.payable,
      ])
    expect(await besideThenBehind(`hall:${south.hallId}`, look, look)).toEqual([
      [200, undefined, false],
      [200, undefined, false],
    ])
    // The games to choose from (a read): with hall A's transaction open, listed at once.
    const games = await besideThenBehind(
      `hall:${south.hallId}`,
      () => api(server.url, 'GET', '/api/tickets/lookup/games', undefined, tillSouth.headers).then((r) => r.status),
      () => api(server.url, 'GET', '/api/tickets/lookup/games', undefined, tillSouth.headers).then((r) => r.status),
    )
    expect(games).toEqual([200, 200])
    expect(await chainsOf('ticket.looked_up', (p) => p.ticketId === card.id)).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("LST-4 / issue 14 point 6: blocking a lost card of hall B and lifting the block lock hall B alone: with hall A's transaction open the block is recorded; with hall B's held the unblock is that lock's one waiter; both records are in hall B's chain", async () => {
    const card = await southCard()
    const director = await personOfSouth('directora-sur', 'director')
    await personOfSouth('encargado-sur', 'hall_manager')
    const witness = { 'x-bolillo-second-person': Buffer.from(`encargado-sur:${PASSWORD}`).toString('base64') }
    const [blocked, unblocked] = await besideThenBehind(
      `hall:${south.hallId}`,
      () =>
        api(server.url, 'POST', '/api/tickets/block', { code: card.code, reason: 'lost' }, director).then((r) => [
          r.status,
          r.body.error?.code,
        ]),
      () =>
        api(
          server.url,
          'POST',
          '/api/tickets/unblock',
          { code: card.code, reason: 'el jugador encontró el cartón' },
          { ...director, ...witness },
        ).then((r) => [r.status, r.body.error?.code]),
    )
    expect([blocked, unblocked]).toEqual([
      [201, undefined],
      [200, undefined],
    ])
    for (const type of ['ticket.blocked', 'ticket.unblocked'])
      expect(await chainsOf(type, (p) => p.ticketId === card.id)).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("BNG-87: cards of hall B held as evidence lock hall B alone: with hall A's transaction open one is held; with hall B's held the second is that lock's one waiter; the records are in hall B's chain", async () => {
    const first = await southCard()
    const second = await southCard()
    const director = await personOfSouth('jefa-custodia', 'director')
    const hold = (code: string) =>
      api(server.url, 'POST', '/api/cards/hold', { code, reason: 'reclamación de la mesa 4' }, director).then((r) => [
        r.status,
        r.body.error?.code,
        r.body.state,
      ])
    expect(
      await besideThenBehind(
        `hall:${south.hallId}`,
        () => hold(first.code),
        () => hold(second.code),
      ),
    ).toEqual([
      [200, undefined, 'evidence'],
      [200, undefined, 'evidence'],
    ])
    expect(await chainsOf('card.custody', (p) => p.cardId === first.id || p.cardId === second.id)).toEqual([
      `hall:${south.hallId}`,
    ])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("BNG-72: hall B's complaints book is written under hall B's lock alone: with hall A's transaction open a complaint is recorded; with hall B's held the answer is that lock's one waiter; both records are in hall B's chain", async () => {
    const manager = await personOfSouth('gerente-libro', 'hall_manager')
    const complaint = await within(
      api(
        server.url,
        'POST',
        `/api/halls/${south.hallId}/complaints`,
        { playerName: 'Juan Pérez', text: 'El cartón 41 no se cantó a tiempo' },
        tillSouth.headers,
      ),
      10_000,
    )
    const [recorded, answered] = await besideThenBehind(
      `hall:${south.hallId}`,
      () =>
        api(
          server.url,
          'POST',
          `/api/halls/${south.hallId}/complaints`,
          { playerName: 'Ana Choque', text: 'La bola 17 no se mostró en pantalla' },
          tillSouth.headers,
        ).then((r) => [r.status, r.body.error?.code]),
      () =>
        api(
          server.url,
          'POST',
          `/api/halls/${south.hallId}/complaints/${complaint === 'pending' ? 0 : complaint.body.number}/answer`,
          { answer: 'Revisado con la grabación: se cantó a tiempo.' },
          manager,
        ).then((r) => [r.status, r.body.error?.code]),
    )
    expect([recorded, answered]).toEqual([
      [201, undefined],
      [200, undefined],
    ])
    expect(await chainsOf('complaint.recorded', (p) => p.hallId === south.hallId)).toEqual([`hall:${south.hallId}`])
    expect(await chainsOf('complaint.answered', (p) => p.hallId === south.hallId)).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("issue 14 point 4: a login, a refused password and a login at an enrolled station lock the operator chain alone: with hall B's transaction open they answer; with the operator chain's held each is that lock's one waiter; their records are in the operator chain", async () => {
    await server.services.auth.createUser({
      username: 'cajera-turno',
      displayName: 'Nilda Flores',
      role: 'cashier',
      password: PASSWORD,
      halls: [south.hallId],
    })
    const login = (password: string) =>
      api(server.url, 'POST', '/api/auth/login', { username: 'cajera-turno', password }).then((r) => [
        r.status,
        r.body.error?.code,
      ])
    expect(
      await besideThenBehind(
        'operator',
        () => login(PASSWORD),
        () => login('wrong password'),
        `hall:${south.hallId}`,
      ),
    ).toEqual([
      [200, undefined],
      [401, 'UNAUTHORIZED'],
    ])
    // At hall B's enrolled cash desk: the login's record (user.login) too.
    const atDesk = () =>
      api(
        server.url,
        'POST',
        '/api/auth/login',
        { username: 'cajera-turno', password: PASSWORD },
        { authorization: `Device ${tillSouth.station.credential}` },
      ).then((r) => [r.status, r.body.error?.code])
    expect(await besideThenBehind('operator', atDesk, atDesk, `hall:${south.hallId}`)).toEqual([
      [200, undefined],
      [200, undefined],
    ])
    expect(await chainsOf('user.login', (p) => p.username === 'cajera-turno')).toEqual(['operator'])
    // Issue 14 point 5: she changes her own password, and hall B's director resets it: a person's row, sessions and
    // records are no hall's, so both lock the operator chain alone, as a login.
    const { id: cashierId } = (await server.services.auth.people()).find((u) => u.username === 'cajera-turno')!
    await server.services.auth.createUser({
      username: 'jefa-turno',
      displayName: 'Ana Mamani',
      role: 'director',
      password: PASSWORD,
      halls: [south.hallId],
    })
    const director = `Bearer ${(await server.services.auth.login('jefa-turno', PASSWORD)).token}`
    const own = `Bearer ${(await server.services.auth.login('cajera-turno', PASSWORD)).token}`
    const change = () =>
      api(
        server.url,
        'POST',
        '/api/auth/password',
        { current: PASSWORD, password: 'otra clave segura' },
        { authorization: own },
      ).then((r) => [r.status, r.body.error?.code])
    const reset = () =>
      api(
        server.url,
        'POST',
        `/api/auth/users/${cashierId}/password`,
        { password: 'clave de reinicio' },
        { authorization: director },
      ).then((r) => [r.status, r.body.error?.code])
    expect(await besideThenBehind('operator', change, reset, `hall:${south.hallId}`)).toEqual([
      [200, undefined],
      [200, undefined],
    ])
    expect(await chainsOf('user.password-changed', (p) => p.userId === cashierId)).toEqual(['operator'])
    expect(await chainsOf('user.password-reset', (p) => p.userId === cashierId)).toEqual(['operator'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("BNG-101: a terminal session of hall B, opened with a voucher and ended at the terminal, locks hall B alone: with hall A's transaction open it opens; with hall B's held its end is that lock's one waiter; both records are in hall B's chain", async () => {
    const { auth, terminals } = server.services
    await terminals.setTerms({ hallId: south.hallId, ...TERMINAL_TERMS, by: 'test' })
    const terminal = await auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 7', hallId: south.hallId })
    const voucher = await api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: south.hallId, amountCents: 2000, cash: countOf(2000) },
      tillSouth.headers,
    )
    expect(voucher.status, JSON.stringify(voucher.body)).toBe(201)
    await server.services.cashdesk.prints.flushPrinted()
    const atTerminal = { 'accept-language': 'es', authorization: `Device ${terminal.credential}` }
    const [opened, ended] = await besideThenBehind(
      `hall:${south.hallId}`,
      () =>
        api(
          server.url,
          'POST',
          '/api/terminal/session',
          { ageConfirmed: true, voucherCode: voucher.body.voucher.code },
          atTerminal,
        ).then((r) => [r.status, r.body.error?.code]),
      () =>
        api(server.url, 'POST', '/api/terminal/session/end', {}, atTerminal).then((r) => [
          r.status,
          r.body.error?.code,
        ]),
    )
    expect([opened, ended]).toEqual([
      [201, undefined],
      [200, undefined],
    ])
    for (const type of ['terminal.session_opened', 'terminal.session_closed'])
      expect(await chainsOf(type, (p) => p.terminalId === terminal.id)).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("LNS-21 / LNS-20: a lotto slip annulled and another's player amended lock `lotto` alone: with hall A's transaction open the annulment is recorded; with `lotto` held the amendment is that lock's one waiter; both records are in the `lotto` chain", async () => {
    const { lotto, auth } = server.services
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000
    const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
    const draw = await lotto.createDraw(
      plan649({
        gameCode: 'LOTOANUL',
        salesStartAt: laPaz(day - 86_400_000),
        salesCloseAt: laPaz(day + 5 * 86_400_000),
        drawAt: laPaz(day + 5 * 86_400_000 + 3600_000),
        claimDeadline: laPaz(day + 70 * 86_400_000),
      }),
    )
    const slip = async (boards: number[]) => {
      const r = await api(
        server.url,
        'POST',
        `/api/lotto/draws/${draw.drawId}/slips`,
        { boards: [boards], player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }, ageConfirmed: true },
        tillNorth.headers,
      )
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body.receiptNumber as string
    }
    const annulled = await slip([1, 7, 13, 19, 25, 31])
    const amended = await slip([2, 8, 14, 20, 26, 32])
    await auth.createUser({ username: 'jefa-loto', displayName: 'Elena Ruiz', role: 'director', password: PASSWORD })
    const jefa = {
      authorization: `Bearer ${(await api(server.url, 'POST', '/api/auth/login', { username: 'jefa-loto', password: PASSWORD })).body.token}`,
    }
    const [annul, amend] = await besideThenBehind(
      'lotto',
      () =>
        api(server.url, 'POST', `/api/lotto/slips/${annulled}/annul`, { reason: 'Pedido del jugador' }, jefa).then(
          (r) => [r.status, r.body.error?.code],
        ),
      () =>
        api(
          server.url,
          'POST',
          `/api/lotto/slips/${amended}/player`,
          {
            name: 'Rosa Condori Mamani de Quispe',
            document: 'CI 4812377 LP',
            evidenceRef: 'Certificado de matrimonio 2025-118',
            reason: 'apellido de casada',
          },
          jefa,
        ).then((r) => [r.status, r.body.error?.code]),
    )
    expect([annul, amend]).toEqual([
      [200, undefined],
      [200, undefined],
    ])
    expect(await chainsOf('lotto.slip_annulled', (p) => p.receipt === annulled)).toEqual(['lotto'])
    expect(await chainsOf('lotto.player_amended', (p) => p.receipt === amended)).toEqual(['lotto'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("GEN-7: hall B's blower suspended and brought back locks hall B alone: with hall A's transaction open it is suspended; with hall B's held bringing it back is that lock's one waiter; both records are in hall B's chain", async () => {
    const director = await personOfSouth('jefa-equipos', 'director')
    const registered = await api(
      server.url,
      'POST',
      '/api/devices',
      { id: 'BOMBO-SUR', kind: 'blower', name: 'Bombo Sur', hallId: south.hallId, sealCode: 'PRE-SUR-1' },
      director,
    )
    expect(registered.status, JSON.stringify(registered.body)).toBe(201)
    const status = (to: 'active' | 'suspended') =>
      api(
        server.url,
        'POST',
        '/api/devices/BOMBO-SUR/status',
        { status: to, reason: to === 'suspended' ? 'precinto roto' : 'precinto repuesto' },
        director,
      ).then((r) => [r.status, r.body.error?.code, r.body.status])
    expect(
      await besideThenBehind(
        `hall:${south.hallId}`,
        () => status('suspended'),
        () => status('active'),
      ),
    ).toEqual([
      [200, undefined, 'suspended'],
      [200, undefined, 'active'],
    ])
    expect(await chainsOf('device.status_changed', (p) => p.deviceId === 'BOMBO-SUR')).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("issue 23 point 5: a ticket of hall B whose paper jammed is reprinted at hall B's desk under hall B's lock alone: with hall A's transaction open one is reprinted; with hall B's held the second is that lock's one waiter; both records are in hall B's chain", async () => {
    // Hall B's desk printer jams (its paper, not the sale: the sales stand, each ticket waits for its reprint).
    const pool = server.services.cashdesk.printers
    const forStation = pool.forStation
    let jammed = true
    pool.forStation = (stationId: string) => {
      const printer = forStation.call(pool, stationId)
      if (!jammed || stationId !== tillSouth.station.id) return printer
      return Object.assign(Object.create(printer) as typeof printer, {
        print: async () => {
          throw new DomainError('DEVICE_UNAVAILABLE', 'atasco de papel', { reason: 'paper_jam' })
        },
      })
    }
    let refs: string[] = []
    try {
      const gameId = await openGameIn(south)
      for (let i = 0; i < 2; i++) {
        const sold = await sell(tillSouth, { ...south, gameId })
        expect(sold.status, JSON.stringify(sold.body)).toBe(201)
        expect(sold.body.print?.code, JSON.stringify(sold.body.print)).toBe('PRINT_PENDING')
        refs = [...refs, sold.body.print.ref as string]
      }
    } finally {
      jammed = false
      pool.forStation = forStation
    }
    await server.services.checkpoints.settled()
    const reprint = (ref: string) =>
      api(server.url, 'POST', '/api/tickets/reprint', { ref }, tillSouth.headers).then((r) => [
        r.status,
        r.body.error?.code,
        r.body.reprint,
      ])
    expect(
      await besideThenBehind(
        `hall:${south.hallId}`,
        () => reprint(refs[0]),
        () => reprint(refs[1]),
      ),
    ).toEqual([
      [200, undefined, 1],
      [200, undefined, 1],
    ])
    expect(await chainsOf('ticket.reprinted', (p) => refs.includes(p.ref as string))).toEqual([`hall:${south.hallId}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("bolillo-draw-v2 point 3: a typed beacon signature refused for hall B's game is journaled under hall B's lock alone: with hall A's transaction open the refusal answers; with hall B's held the second is that lock's one waiter; both records are in hall B's chain", async () => {
    const { bingo, beacon } = server.services
    // The round's value is held back, so that the game waits for one typed by staff.
    let publish!: () => void
    const published = new Promise<void>((r) => (publish = r))
    const obtain = beacon.obtain
    beacon.obtain = async (...args) => {
      await published
      return obtain.apply(beacon, args)
    }
    const director = await personOfSouth('jefa-sorteo', 'director')
    let gameId = ''
    try {
      gameId = await openGameIn(south)
      // A game closes with at least ten cards sold (BNG-21).
      const sold = await api(
        server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { count: 10, cash: countOf(5000), ageConfirmed: true },
        tillSouth.headers,
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      await server.services.cashdesk.prints.flushPrinted()
      await bingo.closeSales({ gameId })
      await server.services.checkpoints.settled()
      const typed = () =>
        api(server.url, 'POST', `/api/games/${gameId}/beacon`, { signature: 'ab'.repeat(48) }, director).then((r) => [
          r.status >= 400,
          r.body.error?.code,
        ])
      expect(await besideThenBehind(`hall:${south.hallId}`, typed, typed)).toEqual([
        [true, 'INVALID_SIGNATURE'],
        [true, 'INVALID_SIGNATURE'],
      ])
    } finally {
      beacon.obtain = obtain
      publish()
    }
    // The value fetched at last is stored: the game goes on as any other.
    const until = Date.now() + 15_000
    while (!(await gameById(server.services.db, gameId))?.beaconRandomness && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50))
    const refused = await chainsOf('beacon.refused', (p) => p.gameId === gameId)
    expect(refused).toEqual([`hall:${south.hallId}`])
    expect(
      (await records()).filter(
        (r) => r.type === 'beacon.refused' && (r.payload as { gameId?: string }).gameId === gameId,
      ),
    ).toHaveLength(2)
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("the regulator feed's tick and the self-verification lock the operator chain alone: while the feed waits for that lock a hall's sale commits; with hall A's transaction open the self-verification writes, with the operator chain's held it is that lock's one waiter", async () => {
    const { regulator, selfVerification } = server.services
    await southCard()
    // The feed writes its own tables under the operator chain's lock. Its first transaction starts only once hall A's
    // is open (the feed reads up to the last committed record first, and so waits for every open transaction): an
    // unscoped one would then wait for the global lock exclusively, and every hall's writer behind it (PostgreSQL
    // queues a shared request behind an exclusive one); the scoped one writes beside hall A's.
    const db = server.services.db
    const transaction = db.transaction
    const scopes: Array<readonly string[] | null> = []
    const hold: { on: Awaited<ReturnType<typeof holdScopeOf>> | null } = { on: null }
    db.transaction = (async (fn, options) => {
      scopes.push(options?.scopes ?? null)
      if (testPostgresUrl && !hold.on)
        hold.on = await holdScopeOf(
          Object.assign(Object.create(db), { transaction: transaction.bind(db) }),
          `hall:${north.hallId}`,
        )
      return transaction.call(db, fn, options)
    }) as typeof transaction
    let ticked: { derived: number; closed: number } | 'pending'
    try {
      ticked = await within(regulator.tick({ force: true }), 10_000)
    } finally {
      db.transaction = transaction
      hold.on?.release()
      await hold.on?.held
    }
    expect(ticked).not.toBe('pending')
    expect((ticked as { derived: number }).derived).toBeGreaterThan(0)
    expect(scopes.length).toBeGreaterThan(0)
    expect(
      scopes.every((x) => JSON.stringify(x) === '["operator"]'),
      JSON.stringify(scopes),
    ).toBe(true)
    const [checked, again] = await besideThenBehind(
      'operator',
      () => selfVerification.verifyNow('timer'),
      () => selfVerification.verifyNow('timer'),
    )
    expect(checked).not.toBe('pending')
    expect(again).toBeTruthy()
    expect(await chainsOf('system.self_verified')).toEqual(['operator'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("INS-15: hall B's on-screen instant switch, set by its director, locks hall B alone: with hall A's transaction open it is switched off; with hall B's held switching it on is that lock's one waiter; both records are in hall B's chain", async () => {
    await electronicGame()
    const director = await personOfSouth('jefa-instantanea', 'director')
    const configure = (electronicInstantAllowed: boolean) =>
      api(
        server.url,
        'POST',
        `/api/instant/halls/${south.hallId}/settings`,
        { electronicInstantAllowed, authorisationRef: 'AJ-RA-2025-0042' },
        director,
      ).then((r) => [r.status, r.body.error?.code, r.body.electronicInstantAllowed])
    expect(
      await besideThenBehind(
        `hall:${south.hallId}`,
        () => configure(false),
        () => configure(true),
      ),
    ).toEqual([
      [200, undefined, false],
      [200, undefined, true],
    ])
    expect(await chainsOf('instant.hall_configured', (p) => p.hallId === south.hallId)).toEqual([
      `hall:${south.hallId}`,
    ])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("INS-15, INS-12: an on-screen and a pre-printed instant sale recorded in hall B lock hall B and `instant` alone: with hall A's transaction open each is sold; with `instant`'s held, then hall B's, each is that lock's one waiter; the sales' records are in the `instant` chain", async () => {
    const { instant } = server.services
    await electronicGame()
    // The switch of the test before (INS-15), set here too so that this test runs alone.
    await instant.configureHall({
      hallId: south.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'jefa',
    })
    const stationId = tillSouth.station.id
    const electronic = () =>
      instant.sellElectronic({ hallId: south.hallId, gameNo: electronicDesign.gameNo, stationId }).then((s) => s.serial)
    const losers = (await instantTickets()).filter((t) => t.tier === 0).slice(40, 44)
    const printed = (i: number) => () =>
      instant.sellPrinted({ code: losers[i].serial, stationId, hallId: south.hallId }).then((s) => s.serial)
    const sold = [
      ...(await besideThenBehind('instant', electronic, electronic)),
      ...(await besideThenBehind(`hall:${south.hallId}`, electronic, electronic)),
      ...(await besideThenBehind('instant', printed(0), printed(1))),
      ...(await besideThenBehind(`hall:${south.hallId}`, printed(2), printed(3))),
    ]
    expect(sold.filter((s) => typeof s !== 'string' || s === 'pending')).toEqual([])
    expect(sold.slice(4)).toEqual(losers.map((t) => t.serial))
    expect(await chainsOf('instant.ticket_sold', (p) => sold.includes(p.serial as string))).toEqual(['instant'])
    const rows = await server.services.db.all<{ hall_id: string }>(
      `SELECT hall_id FROM instant_sales WHERE station_id = ?`,
      [stationId],
    )
    expect(rows.filter((r) => r.hall_id === south.hallId).length).toBeGreaterThanOrEqual(8)
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("INS-8: pre-printed tickets voided for the player's damage by hall B's director lock `instant` alone: with hall A's transaction open one is voided; with `instant` held the second is that lock's one waiter; both records are in the `instant` chain", async () => {
    const { instant } = server.services
    const director = await personOfSouth('jefa-anulaciones', 'director')
    const tickets = (await instantTickets()).filter((t) => t.tier === 0).slice(50, 52)
    for (const t of tickets)
      await instant.sellPrinted({ code: t.serial, stationId: tillSouth.station.id, hallId: south.hallId })
    const voidIt = (i: number) => () =>
      api(
        server.url,
        'POST',
        '/api/instant/void-damage',
        {
          code: tickets[i].code,
          inventoryCode: tickets[i].serial,
          damage: 'números tachados con bolígrafo',
          keptAs: 'sobre 7, caja fuerte',
        },
        director,
      ).then((r) => [r.status, r.body.error?.code, r.body.outcome])
    expect(await besideThenBehind('instant', voidIt(0), voidIt(1))).toEqual([
      [200, undefined, 'VOID'],
      [200, undefined, 'VOID'],
    ])
    const serials = tickets.map((t) => t.serial)
    expect(await chainsOf('instant.ticket_voided', (p) => serials.includes(p.serial as string))).toEqual(['instant'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("INS-12, LST-1, LST-5: an instant game's packs shipped, activated on arrival and reported lost or stolen lock `instant` alone: with hall A's transaction open each answers; with `instant` held each is that lock's one waiter; their records are in the `instant` chain", async () => {
    const { instant } = server.services
    const gameNo = 5503
    await instant.generateBatch({ design: { ...printedDesign, gameNo, name: 'Raspa Caja de reparto' } })
    const ship = (fromPack: number, toPack: number) => () =>
      instant.shipPacks({ gameNo, fromPack, toPack, destination: south.hallId, by: 'almacen' }).then((r) => r.packs)
    const activate = (packNo: number) => () =>
      api(
        server.url,
        'POST',
        '/api/instant/packs/activate',
        { gameNo, packNo, location: south.hallId },
        tillSouth.headers,
      ).then((r) => [r.status, r.body.error?.code, r.body.packNo])
    expect(await besideThenBehind('instant', ship(1, 2), activate(1))).toEqual([2, [200, undefined, 1]])
    expect(await besideThenBehind('instant', activate(2), ship(3, 3))).toEqual([[200, undefined, 2], 1])
    const ofGame = (p: Record<string, unknown>) => p.gameNo === gameNo
    expect(await chainsOf('instant.packs_shipped', ofGame)).toEqual(['instant'])
    expect(await chainsOf('instant.pack_activated', ofGame)).toEqual(['instant'])
    // LST-1, LST-5: a range of pack 4 (never shipped) reported lost, then a ticket of it stolen.
    const serial = (position: number) => formatSerial({ gameNo, packNo: 4, position })
    const report = (kind: 'lost' | 'stolen', fromSerial: string, toSerial: string) => () =>
      instant
        .reportLostOrStolen({
          gameNo,
          kind,
          fromSerial,
          toSerial,
          discoveredAt: '2025-06-02T10:00:00-04:00',
          regulatorReportedAt: '2025-06-02T15:00:00-04:00',
          policeReportRef: kind === 'stolen' ? 'FELCC-LP-2025-0187' : undefined,
          by: 'almacen',
        })
        .then((r) => r.tickets)
    expect(
      await besideThenBehind('instant', report('lost', serial(0), serial(9)), report('stolen', serial(10), serial(10))),
    ).toEqual([10, 1])
    expect(await chainsOf('instant.range_reported', ofGame)).toEqual(['instant'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("GEN-17: the compliance officer's review of hall B's AML records locks hall B alone: with hall A's transaction open one is dismissed; with hall B's held the second is that lock's one waiter; both records are in hall B's chain", async () => {
    await server.services.auth.createUser({
      username: 'oficial-cumplimiento',
      displayName: 'Elena Ríos',
      role: 'aml_officer',
      password: PASSWORD,
      halls: [north.hallId, south.hallId],
    })
    const officer = {
      authorization: `Bearer ${(await api(server.url, 'POST', '/api/auth/login', { username: 'oficial-cumplimiento', password: PASSWORD })).body.token}`,
      'accept-language': 'es',
    }
    // Bs 3.000,10 all in small notes: over the GEN-17 share, each voucher sold at hall B's desk opens a record.
    const reports: string[] = []
    for (const buyerDocument of ['CI 7788990 LP', 'CI 7788991 LP']) {
      const sold = await api(
        server.url,
        'POST',
        '/api/vouchers',
        {
          hallId: south.hallId,
          amountCents: 300_010,
          cash: countOf(300_010, { smallCents: 300_010 }),
          buyerDocument,
        },
        tillSouth.headers,
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      expect(sold.body.aml.flagged).toBe(true)
      reports.push(sold.body.aml.reportId)
    }
    await server.services.cashdesk.prints.flushPrinted()
    const review = (id: string) => () =>
      api(
        server.url,
        'POST',
        `/api/aml/reports/${id}/review`,
        { status: 'dismissed', note: 'Cliente habitual, billetes de su comercio; perfil revisado' },
        officer,
      ).then((r) => [r.status, r.body.error?.code, r.body.status])
    expect(await besideThenBehind(`hall:${south.hallId}`, review(reports[0]), review(reports[1]))).toEqual([
      [200, undefined, 'dismissed'],
      [200, undefined, 'dismissed'],
    ])
    expect(await chainsOf('aml.reviewed', (p) => reports.includes(p.reportId as string))).toEqual([
      `hall:${south.hallId}`,
    ])
    // A record that does not exist is refused before any lock is taken.
    const missing = await api(
      server.url,
      'POST',
      '/api/aml/reports/aml_none/review',
      { status: 'filed', note: 'ROS presentado a la UIF' },
      officer,
    )
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'NOT_FOUND'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("LNS-13: lotto slips sold online through the group-commit writer lock `lotto` alone: with hall A's transaction open one is sold; with `lotto` held the second is that lock's one waiter; both records are in the `lotto` chain", async () => {
    const { lotto } = server.services
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000
    const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
    const draw = await lotto.createDraw(
      plan649({
        gameCode: 'LOTOLINEA',
        salesStartAt: laPaz(day - 86_400_000),
        salesCloseAt: laPaz(day + 5 * 86_400_000),
        drawAt: laPaz(day + 5 * 86_400_000 + 3600_000),
        claimDeadline: laPaz(day + 70 * 86_400_000),
      }),
    )
    const sell = (boards: number[]) => () =>
      lotto
        .sellSlip({
          drawId: draw.drawId,
          boards: [boards],
          player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' },
          channel: 'online',
        })
        .then((r) => r.receiptNumber)
    const receipts = await besideThenBehind('lotto', sell([3, 9, 15, 21, 27, 33]), sell([4, 10, 16, 22, 28, 34]))
    expect(receipts.every((r) => typeof r === 'string' && r !== 'pending')).toBe(true)
    expect(await chainsOf('lotto.slip_sold', (p) => receipts.includes(p.receipt as string))).toEqual(['lotto'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)
})

/**
 * Issue 23 point 5, the raffle's cash desk (PRM-2, LOT-25, LOT-26, §8) and a refusal for a tampered row (issue 24
 * point 1): a raffle's ticket is the operator's, its records in the operator chain. Its scan locks that chain alone;
 * its payout locks that chain and the paying station's hall (the drawer); the `row.tampered` record of a refused
 * payout locks the refused transaction's first chain (the paying hall), never every chain. Over real HTTP with
 * authentication on, enrolled stations and real credentials; the locks are watched on PostgreSQL (pg_locks), the
 * chains on both engines (a scoped transaction may append only to the chains it locked).
 */
describe('a raffle paid and scanned at the cash desk, and a tampered row refused, lock their own chains (issue 23 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  let jefa = ''
  let tillA: Till
  let hallA = ''
  let hallB = ''
  let drawId = ''
  const codes = new Map<number, string>()
  let winning: Record<string, number> = {}
  const fractions: string[] = []
  /** The printed lottery issue: its id and its first run's papers. */
  let lotteryId = ''
  let firstRun: PrintedFraction[] = []
  let onSaleId = ''
  const boss = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: jefa, 'accept-language': 'es' })
  const pay = (n: number) =>
    api(
      server.url,
      'POST',
      '/api/tickets/pay',
      { code: codes.get(n), payeeName: 'Pilar Sainz Ortiz', payeeDocument: '72000111X' },
      tillA.headers,
    ).then((r) => [r.status, r.body.error?.code])
  const scan = (n: number) =>
    api(server.url, 'POST', '/api/tickets/validate', { code: codes.get(n) }, tillA.headers).then((r) => [
      r.status,
      r.body.error?.code,
    ])
  const records = async () => {
    const out: JournalRecord[] = []
    for await (const r of readJournal(server.services.db)) out.push(r)
    return out
  }
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))])
  const lockWaiters = async (scope: string) =>
    Number(
      (
        await server.services.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ? AND objid = ? AND objsubid = 2",
          [scope.startsWith('hall:') ? SCOPE_LOCK_CLASS : PRODUCT_LOCK_CLASS, scopeLockKey(scope) >>> 0],
        )
      )?.n ?? 0,
    )
  /** A scope's lock held by a transaction that writes nothing (on SQLite: none held), until `release` is called. */
  const holdScope = async (scope: string) =>
    testPostgresUrl ? holdScopeOf(server.services.db, scope) : { release: () => undefined, held: Promise.resolve() }
  /** Runs `op` with `scope` held: on PostgreSQL `op` is that lock's one waiter until it is released. */
  const waitsOn = async <T>(scope: string, op: () => Promise<T>): Promise<T> => {
    const hold = await holdScope(scope)
    let waiting: Promise<T> | undefined
    try {
      waiting = op()
      if (testPostgresUrl) {
        const until = Date.now() + 15_000
        while ((await lockWaiters(scope)) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
        expect(await lockWaiters(scope)).toBe(1)
        expect(await within(waiting, 10)).toBe('pending')
      }
    } finally {
      hold.release()
      await hold.held
    }
    return waiting
  }
  /** Runs `op` with `hallId`'s lock held (on SQLite: none held): it answers without waiting ('pending' after 10 s). */
  const besideHall = async <T>(hallId: string, op: () => Promise<T>) => {
    const hold = await holdScope(`hall:${hallId}`)
    try {
      return await within(op(), 10_000)
    } finally {
      hold.release()
      await hold.held
    }
  }
  const tamper = (sql: string, params: unknown[]) => tamperWith(server, sql, params)
  const chainsOf = async (type: string, pred: (p: Record<string, unknown>) => boolean = () => true) => [
    ...new Set(
      (await records())
        .filter((r) => r.type === type && pred(r.payload as Record<string, unknown>))
        .map((r) => r.chain),
    ),
  ]

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 }, { clock })
    for (const [username, displayName, role] of [
      ['jefa', 'Elena Ruiz', 'director'],
      ['cajera', 'Rosa Gómez', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const hall = (name: string) =>
      boss('POST', '/api/halls', {
        name,
        profileId: 'ES-CB-2010',
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3
        saleRules: TEST_ES_SALE_RULES, // BNG-10
        playingPositions: 100,
      }).then((r) => {
        expect(r.status).toBe(201)
        return r.body.id as string
      })
    hallA = await hall('Sala Pereda')
    hallB = await hall('Sala Liébana')
    const prizes = rafflePlan().prizes
    const raffle = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        gameCode: 'RIFACADENA',
        numbering: { from: 1, to: 40, digits: 2 },
        ticketPriceCents: 3_000,
        prizes: [...prizes, { ...prizes[1], code: 'R3', name: 'Tercer premio', invoiceRef: 'FAC-2025-120' }],
      }),
    )
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    drawId = raffle.body.drawId
    tillA = await openTill(server.url, server.services, {
      hallId: hallA,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caseta 1',
      floatCents: 10_000,
    })
    const sold = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${drawId}/tickets`,
      { ageConfirmed: true, numbers: Array.from({ length: 40 }, (_, i) => i + 1) },
      tillA.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const x of sold.body.tickets) codes.set(Number(x.number), x.code)
    // A second raffle, still on sale once the first is drawn: sold at the counter below.
    const onSale = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        gameCode: 'RIFAVENTA',
        numbering: { from: 1, to: 40, digits: 2 },
        ticketPriceCents: 3_000,
        salesCloseAt: '2025-07-20T20:00:00+02:00',
        drawAt: '2025-07-20T22:00:00+02:00',
        claimDeadline: '2025-09-18T23:59:59+02:00',
      }),
    )
    expect(onSale.status, JSON.stringify(onSale.body)).toBe(201)
    onSaleId = onSale.body.drawId
    // A lottery issue of 20 numbers, printed (LOT-26): its fractions' codes, as the secure printer's file lists them.
    const lottery = await boss(
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        gameCode: 'LNBCADENA',
        numbering: { from: 0, to: 19, digits: 2 },
        series: 1,
        fractions: 2,
        ticketPriceCents: 2_000,
        licensedMaxTickets: 1000,
        budgetCents: 100_000,
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 10_000 }],
        salesStartAt: '2025-06-01T08:00:00-04:00',
        salesCloseAt: '2025-07-01T12:00:00-04:00',
        drawAt: '2025-07-01T18:00:00-04:00',
        claimDeadline: '2025-08-30T23:59:59-04:00',
      }),
    )
    expect(lottery.status, JSON.stringify(lottery.body)).toBe(201)
    const run = await boss('POST', `/api/lottery/draws/${lottery.body.drawId}/print-runs`, { from: 0, to: 19 })
    expect(run.status, JSON.stringify(run.body)).toBe(201)
    lotteryId = lottery.body.drawId
    firstRun = printedFractions(server, run.body)
    fractions.push(...firstRun.map((x) => x.code))
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await tillA.relogin()
    expect((await boss('POST', `/api/lottery/draws/${drawId}/close`, {})).status).toBe(200)
    expect((await boss('POST', `/api/lottery/draws/${drawId}/draw`)).status).toBe(200)
    expect((await boss('POST', `/api/lottery/draws/${drawId}/settle`)).status).toBe(200)
    winning = ((await boss('GET', `/api/lottery/draws/${drawId}`)).body.result ?? {}).winning
    expect(Object.keys(winning).sort()).toEqual(['R1', 'R2', 'R3'])
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it("§8: a raffle ticket's scan locks the operator chain alone: with either hall's transaction open it answers; with the operator chain held it is that lock's one waiter; its record is in the operator chain", async () => {
    const losing = [...codes.keys()].filter((n) => !Object.values(winning).includes(n))
    expect(await besideHall(hallB, () => scan(losing[0]))).toEqual([200, undefined])
    // The paying hall's own lock does not hold a scan up either: a scan moves no cash.
    expect(await besideHall(hallA, () => scan(losing[1]))).toEqual([200, undefined])
    expect(await waitsOn('operator', () => scan(losing[2]))).toEqual([200, undefined])
    expect(await chainsOf('raffle.ticket_validated')).toEqual(['operator'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("§8: a lottery fraction's scan locks `lottery` alone: with either hall's transaction open it answers; with `lottery` held it is that lock's one waiter; its record is in the `lottery` chain", async () => {
    const scanFraction = (code: string) =>
      api(server.url, 'POST', '/api/tickets/validate', { code }, tillA.headers).then((r) => [
        r.status,
        r.body.error?.code,
      ])
    expect(await besideHall(hallB, () => scanFraction(fractions[0]))).toEqual([200, undefined])
    expect(await besideHall(hallA, () => scanFraction(fractions[1]))).toEqual([200, undefined])
    expect(await waitsOn('lottery', () => scanFraction(fractions[2]))).toEqual([200, undefined])
    const scanned = (await records()).filter((r) => r.type === 'lottery.ticket_validated')
    expect(scanned.length).toBe(3)
    expect([...new Set(scanned.map((r) => r.chain))]).toEqual(['lottery'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("LST-1, LST-4: a lottery reprint's record and a sold fraction's exchange at the cash desk lock `lottery` alone: with hall B's transaction open each answers; with `lottery` held each is that lock's one waiter; their records are in the `lottery` chain", async () => {
    // Numbers 0 to 4 handed to hall A's desk for sale; 10 and 11 lost at the printer before distribution.
    const handed = await boss('POST', `/api/lottery/draws/${lotteryId}/distributions`, {
      from: 0,
      to: 4,
      sellerId: tillA.station.id,
    })
    expect(handed.status, JSON.stringify(handed.body)).toBe(201)
    const lost = async (n: number) => {
      const r = await boss('POST', `/api/lottery/draws/${lotteryId}/lost-stolen`, {
        kind: 'lost',
        from: n,
        to: n,
        discoveredAt: '2025-06-20T10:00:00-04:00',
        reportedToAjAt: '2025-06-21T10:00:00-04:00',
        distributed: false,
        remedy: 'full-reprint',
        notice: `Billete ${n} extraviado en imprenta`,
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body.id as string
    }
    const [lostA, lostB] = [await lost(10), await lost(11)]
    const reissue = (lostRangeId: string, authorisationRef: string) =>
      boss('POST', `/api/lottery/draws/${lotteryId}/reissues`, {
        mode: 'full-reprint',
        lostRangeId,
        authorisationRef,
        schedule: [{ act: 'entrega de materiales', at: '2025-06-25T09:00:00-04:00' }],
        designNote: 'fondo verde',
      }).then((r) => [r.status, r.body.error?.code])
    expect(await besideHall(hallB, () => reissue(lostA, 'AJ-RA-2025-0901'))).toEqual([201, undefined])
    expect(await waitsOn('lottery', () => reissue(lostB, 'AJ-RA-2025-0902'))).toEqual([201, undefined])
    const reprint = await boss('POST', `/api/lottery/draws/${lotteryId}/print-runs`, {
      from: 0,
      to: 19,
      reason: 'reimpresión total con nuevo diseño (AJ-RA-2025-0902)',
    })
    expect(reprint.status, JSON.stringify(reprint.body)).toBe(201)
    // The holders of three sold papers of the first run exchange them at hall A's desk.
    const sold = firstRun.filter((x) => Number(x.number) <= 4)
    const exchange = (code: string) =>
      api(server.url, 'POST', '/api/lottery/tickets/exchange', { code }, tillA.headers).then((r) => [
        r.status,
        r.body.error?.code,
      ])
    expect(await besideHall(hallB, () => exchange(sold[0].code))).toEqual([200, undefined])
    // The desk's own hall's lock does not hold an exchange up either: no money moves.
    expect(await besideHall(hallA, () => exchange(sold[1].code))).toEqual([200, undefined])
    expect(await waitsOn('lottery', () => exchange(sold[2].code))).toEqual([200, undefined])
    // Exchanged once: the old paper is void now.
    expect(await exchange(sold[0].code)).toEqual([409, 'TICKET_VOID'])
    expect(await chainsOf('lottery.reissue_recorded')).toEqual(['lottery'])
    expect((await records()).filter((r) => r.type === 'lottery.ticket_exchanged').length).toBe(3)
    expect(await chainsOf('lottery.ticket_exchanged')).toEqual(['lottery'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("PRM-1: raffle tickets sold at hall A's counter lock hall A and the operator chain alone: with hall B's transaction open they are sold; with hall A's or the operator chain's held the sale is that lock's one waiter; the tickets' record is in the operator chain, the cash in hall A's", async () => {
    const sellRaffle = (n: number) =>
      api(
        server.url,
        'POST',
        `/api/lottery/draws/${onSaleId}/tickets`,
        { ageConfirmed: true, numbers: [n] },
        tillA.headers,
      ).then((r) => [r.status, r.body.error?.code])
    expect(await besideHall(hallB, () => sellRaffle(1))).toEqual([201, undefined])
    expect(await waitsOn(`hall:${hallA}`, () => sellRaffle(2))).toEqual([201, undefined])
    expect(await waitsOn('operator', () => sellRaffle(3))).toEqual([201, undefined])
    const all = await records()
    const sold = all.filter((r) => r.type === 'raffle.tickets_sold' && JSON.stringify(r.payload).includes(onSaleId))
    expect(sold.map((r) => r.chain)).toEqual(['operator', 'operator', 'operator'])
    const cash = all.filter((r) => r.type === 'sale.cash_taken' && r.seq > sold[0].seq - 5)
    expect([...new Set(cash.map((r) => r.chain))]).toEqual([`hall:${hallA}`])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("issue 24 point 1: a raffle payout refused for a sale changed in the database is recorded (`row.tampered`) in the refused payout's first chain, the paying hall's: with hall B's transaction open the refusal answers; put back, the same ticket is paid", async () => {
    const { db } = server.services
    const sale = (await db.get<{ serial: string; buyer_name: string | null }>(
      'SELECT serial, buyer_name FROM lottery_sales WHERE draw_id = ? AND number = ?',
      [drawId, winning.R1],
    ))!
    await tamper("UPDATE lottery_sales SET buyer_name = 'Otro Comprador' WHERE draw_id = ? AND serial = ?", [
      drawId,
      sale.serial,
    ])
    expect(await besideHall(hallB, () => pay(winning.R1))).toEqual([409, 'ROW_TAMPERED'])
    const refused = (p: Record<string, unknown>) =>
      (p.rows as Array<{ table: string; id: string }>).some(
        (x) => x.table === 'lottery_sales' && x.id === `${drawId}|${sale.serial}`,
      )
    expect(await chainsOf('row.tampered', refused)).toEqual([`hall:${hallA}`])
    await tamper('UPDATE lottery_sales SET buyer_name = ? WHERE draw_id = ? AND serial = ?', [
      sale.buyer_name,
      drawId,
      sale.serial,
    ])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)

  it("LOT-25, PRM-2: a raffle prize paid at hall A's desk locks hall A and the operator chain alone: with hall B's transaction open it is paid; with hall A's or the operator chain's held it is that lock's one waiter; its records are in the operator chain", async () => {
    expect(await besideHall(hallB, () => pay(winning.R1))).toEqual([200, undefined])
    expect(await waitsOn(`hall:${hallA}`, () => pay(winning.R2))).toEqual([200, undefined])
    expect(await waitsOn('operator', () => pay(winning.R3))).toEqual([200, undefined])
    expect(await chainsOf('raffle.prize_paid')).toEqual(['operator'])
    expect((await server.services.verifyJournal()).ok).toBe(true)
  }, 60_000)
})
