import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Services } from './services.ts'
import { registerDemoRng, seedDemoEquipment } from './equipment/service.ts'
import { latestGameOfHall, oldestHall, openSessionOfHall } from './shared/store.ts'
import { getProfile, type Profile } from './shared/profile.ts'
import { DEMO_BETTING_PLAN, DEMO_LICENCE } from './bingo/betting-plan.ts'
import { DEMO_SALE_RULES } from './bingo/sale-rules.ts'
import { isoInZone } from './shared/time-zone.ts'
import type { InstantDesign } from './instant/design.ts'
import { recordDemoScopes } from './shared/demo-scope.ts'
import { demoSeededPayloads } from './shared/store.ts'
import type { BeaconScope } from './shared/beacon-source.ts'

/** The demo's licence as its profile takes it: the system's claims (CFG-21) only where the profile allows any. */
function demoLicence(profile: Profile): typeof DEMO_LICENCE {
  return { ...DEMO_LICENCE, autoClaims: DEMO_LICENCE.autoClaims === true && profile.autoClaimAllowed }
}

/** Issue 24 point 4: journals `scopes` as the demo's own, the only draws its labelled demo beacon may sign. */
export async function markDemo(services: Services, scopes: BeaconScope[], devices: string[] = []): Promise<void> {
  await services.db.transaction((tx) => recordDemoScopes(tx, services.clock.now().toISOString(), scopes, devices))
}

/** Demo staff accounts (one per role) and enrolled demo devices; written to DATA_DIR/demo-credentials.json. */
export const DEMO_PASSWORD = 'bolillo-demo'
async function seedDemoCredentials(services: Services, hallId: string) {
  const users = [
    { username: 'director', displayName: 'Directora de Bingo', role: 'director' },
    { username: 'jefe', displayName: 'Jefe de Mesa', role: 'floor_manager' },
    { username: 'locutor', displayName: 'Locutor', role: 'caller' },
    { username: 'cajero', displayName: 'Cajera', role: 'cashier' },
    { username: 'auditor', displayName: 'Auditor', role: 'auditor' },
    // Issue 29: the lottery operator (lotto, numbered lotteries, raffles), the compliance officer (GEN-9, AML) and the
    // regulator's inspector, each with the back office or inspection screen of the role.
    { username: 'loterias', displayName: 'Operadora de Loterías', role: 'lottery_operator' },
    { username: 'cumplimiento', displayName: 'Oficial de Cumplimiento', role: 'aml_officer' },
    { username: 'inspector', displayName: 'Inspectora (AJ, demostración)', role: 'inspector' },
    // Issue 28: the regulator's account of the demo hall: reads the signed control feed (GET /api/regulator/batches).
    { username: 'regulador', displayName: 'Regulador (AJ, demostración)', role: 'regulator' },
  ] as const
  // Marked as demo accounts: outside the demo their published password must be changed first (issue 14 point 5).
  for (const u of users)
    await services.auth.createUser({
      ...u,
      password: DEMO_PASSWORD,
      demo: true,
      halls: u.role === 'director' ? '*' : [hallId],
    })
  const devices = []
  for (const d of [
    { kind: 'kiosk', name: 'Kiosco 1' },
    { kind: 'cashier_station', name: 'Caja 1' },
    { kind: 'display', name: 'Pantalla sala' },
    // Issue 27: two electronic bingo terminals at seats of the hall.
    { kind: 'terminal', name: 'Terminal 1' },
    { kind: 'terminal', name: 'Terminal 2' },
  ] as const) {
    // Issue 26 (GEN-7, GEN-4): each demo device carries a seal code and a type approval, labelled as the demo's.
    const n = devices.length + 1
    const e = await services.auth.enrolDevice({
      ...d,
      hallId,
      sealCode: `DEMO-PRECINTO-${n}`,
      typeApprovalNo: `DEMO-HOM-EQUIPO-${n}`,
    })
    devices.push({ ...d, credential: e.credential })
  }
  // Issue 24 point 4: journaled as the demo's, so that a server without the demo revokes them.
  await markDemo(
    services,
    [],
    devices.map((d) => d.credential.split('.')[0]),
  )
  const file = join(services.config.dataDir, 'demo-credentials.json')
  writeFileSync(
    file,
    JSON.stringify({ password: DEMO_PASSWORD, users: users.map((u) => u.username), devices }, null, 2),
    { mode: 0o600 },
  )
  services.log.info(
    `demo staff: ${users.map((u) => u.username).join(', ')} (password "${DEMO_PASSWORD}"); device credentials in ${file}`,
  )
  return devices
}

/** The demo's labelled sale rules; with the demo series' face value where the profile's authority sets them (BNG-10). */
function demoSaleRules(profileId: string) {
  return getProfile(profileId)?.faceValuesAuthority
    ? {
        ...DEMO_SALE_RULES,
        authorisationRef: 'DEMO — valores faciales sin resolución de la Consejería',
        faceValuesCents: [DEMO_FACE_VALUE_CENTS],
      }
    : DEMO_SALE_RULES
}
const DEMO_FACE_VALUE_CENTS = 500

/**
 * Seeds a demo hall so that `npm start` shows a working system: a hall under the configured profile,
 * a master set with two series, an open session and a game on sale with some cards sold.
 */
export async function seedDemoHall(
  services: Services,
  options: { cards?: number } = {},
): Promise<{ hallId: string; sessionId: string; gameId: string }> {
  const existing = await oldestHall(services.db)
  if (existing) {
    // A demo data directory from before issue 24 names no scope of its own: its demo hall is the demo's.
    if (existing.id === 'demo' && (await demoSeededPayloads(services.db)).length === 0)
      await markDemo(services, [{ hallId: existing.id }])
    // GEN-18 / BNG-40: a demo hall seeded before its limits needed a reference gets the demo's labelled limits.
    const rules = existing.id === 'demo' ? await services.bingo.hallRules(existing.id) : null
    // BNG-10: where the authority sets the face values, the demo's list (its two series' value) carries the demo label.
    const profile = rules ? getProfile(rules.profileId) : undefined
    if (
      rules &&
      ((profile?.betLimitsAuthority && rules.bets.authorisationRef === null) ||
        (profile?.faceValuesAuthority && rules.bets.faceValuesCents === null))
    )
      await services.bingo.setSaleRules({
        hallId: existing.id,
        rules: demoSaleRules(rules.profileId),
        by: { kind: 'system', id: 'server', name: 'servidor', role: 'system' },
      })
    // GEN-1: a demo hall seeded before a sale needed the operating licence gets the demo's labelled licence; CFG-21:
    // one whose demo licence predates the licence's say on automatic claims gets it again, so that it plays on as before.
    const demoProfile = rules ? getProfile(rules.profileId) : undefined
    if (
      rules &&
      demoProfile?.operatingLicenceAuthority &&
      (!rules.licence ||
        (rules.licence.authorisationRef === DEMO_LICENCE.authorisationRef && rules.licence.autoClaims === undefined))
    )
      await services.bingo.setLicenceTerms({
        hallId: existing.id,
        terms: { ...demoLicence(demoProfile), playingPositions: rules.playingPositions },
        by: { kind: 'system', id: 'server', name: 'servidor', role: 'system' },
      })
    // Issue 26 (GEN-6): a demo data directory from before RNG devices were registered gets the demo's RNG.
    await registerDemoRng(services)
    // Issue 26 (GEN-7, GEN-4): its devices, enrolled before seals were recorded, get the demo's labelled marks, so
    // that an older demo keeps selling; a real hall's devices wait for their director.
    if (existing.id === 'demo') {
      const unmarked = (await services.auth.listDevices([existing.id])).filter(
        (d) => !d.revokedAt && d.missingMarks.length > 0,
      )
      for (const [i, d] of unmarked.entries())
        await services.auth.setMarks(d.id, {
          sealCode: d.sealCode ?? `DEMO-PRECINTO-A${i + 1}`,
          typeApprovalNo: d.typeApprovalNo ?? `DEMO-HOM-EQUIPO-A${i + 1}`,
        })
    }
    const session = await openSessionOfHall(services.db, existing.id)
    const game = await latestGameOfHall(services.db, existing.id)
    return { hallId: existing.id, sessionId: session?.id ?? '', gameId: game?.id ?? '' }
  }
  const { bingo, config } = services
  // BNG-52: a Bolivian hall plays only with its AJ-approved Plan de Apuestas; the demo's is labelled as a demo.
  const hall = await bingo.createHall({
    id: 'demo',
    name: config.hallName,
    profileId: config.profileId,
    playingPositions: config.playingPositions,
    bettingPlan: getProfile(config.profileId)?.shares ? undefined : DEMO_BETTING_PLAN,
    // GEN-18 / BNG-40: where the profile binds limits only with the AJ's reference, the demo's carry a demo label.
    // BNG-10: where the authority sets the face values (Cantabria), the demo's list is labelled alike.
    saleRules:
      getProfile(config.profileId)?.betLimitsAuthority || getProfile(config.profileId)?.faceValuesAuthority
        ? demoSaleRules(config.profileId)
        : undefined,
    // GEN-1: where a hall sells only under its operating licence, the demo's is labelled as a demo.
    licence: getProfile(config.profileId)?.operatingLicenceAuthority
      ? demoLicence(getProfile(config.profileId)!)
      : undefined,
  })
  await markDemo(services, [{ hallId: hall.id }])
  const set = await bingo.createMasterSet({ count: 6000, seed: 'bolillo-demo-master-set-1' })
  const a = await bingo.createSeries({
    hallId: hall.id,
    code: 'A',
    masterSetId: set.id,
    faceValueCents: DEMO_FACE_VALUE_CENTS,
  })
  await bingo.createSeries({ hallId: hall.id, code: 'B', masterSetId: set.id, faceValueCents: DEMO_FACE_VALUE_CENTS })
  const blower = await seedDemoEquipment(services, hall.id)
  const session = await bingo.openSession({
    hallId: hall.id,
    recount: { ballsCounted: 90, confirmedBy: 'Jefe de Mesa (demo)' },
    checklist: { extractor: true, cctv: true, displays: true, sound: true },
  })
  const drawSource = config.ballSource === 'manual' ? 'manual' : 'rng'
  const game = await bingo.announceGame({
    sessionId: session.id,
    seriesIds: [a.id],
    ...('drawSource' in blower
      ? blower
      : { drawSource: drawSource === 'rng' && config.profileId === 'ES-CB-2010' ? ('manual' as const) : drawSource }),
  })
  await bingo.openSales(game.gameId)
  const count = options.cards ?? 40
  if (count > 0) await bingo.sell({ gameId: game.gameId, count, channel: 'demo' })
  const devices = await seedDemoCredentials(services, hall.id)
  await seedDemoTerminals(services, hall.id, game.gameId, devices)
  await seedDemoLotteries(services, hall.id, devices)
  return { hallId: hall.id, sessionId: session.id, gameId: game.gameId }
}

// ---------------------------------------------------------------- issue 27: electronic bingo terminals

/**
 * Issue 27: the demo hall plays mixed games from the first start: its terminal terms are recorded under a reference
 * that says plainly it is a demonstration, and Terminal 2 has a session (a demo voucher of 20.00) holding three
 * virtual cards of the game on sale beside the paper ones; Terminal 1 waits for a player's voucher.
 */
async function seedDemoTerminals(
  services: Services,
  hallId: string,
  gameId: string,
  devices: Array<{ kind: string; name: string; credential: string }>,
): Promise<void> {
  await services.terminals.setTerms({
    hallId,
    reference: 'DEMO — sin resolución de la autoridad (terminales)',
    terms: {
      markingMode: 'automatic',
      maxCardCents: 600,
      maxGameCents: 5000,
      maxSessionCents: 20_000,
      minGameSeconds: 180,
      prizeReturnBp: { min: 6000, max: 8500 },
      terminalRangePercent: 25,
      onDisconnect: 'play-on-credit',
    },
    by: 'Demostración',
  })
  const cashier = devices.find((d) => d.kind === 'cashier_station')
  const terminal = devices.filter((d) => d.kind === 'terminal')[1]
  if (!cashier || !terminal) return
  const sold = await services.cashdesk.vouchers.sell({
    hallId,
    amountCents: 2000,
    // CFG-2: counted by note and coin, one Bs 20 note (small in Bolivia; the profile splits it).
    cash: { pieces: { '2000': 1 } },
    stationId: cashier.credential.split('.')[0],
    cashierId: 'Demostración',
  })
  const terminalId = terminal.credential.split('.')[0]
  await services.terminals.open({ terminalId, voucherCode: sold.voucher.code, ageConfirmed: true })
  if (gameId) await services.terminals.buy({ terminalId, count: 3 })
}

// ---------------------------------------------------------------- issue 17: every product line in the demo

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/**
 * Issue 17: the demo sells every product line from the first start: a lotto draw on sale now, a numbered lottery
 * issue printed and distributed to the demo kiosk and cashier, and two instant games: a pre-printed one whose first packs are shipped to the demo kiosk and
 * cashier and activated there, and an on-screen one for the instant kiosk. Times are written in the hall's zone;
 * the hall's on-screen instant sales are switched on with a reference that says plainly it is a demonstration.
 */
async function seedDemoLotteries(
  services: Services,
  hallId: string,
  devices: Array<{ kind: string; name: string; credential: string }>,
): Promise<void> {
  const { config } = services
  const profile = getProfile(config.profileId)!
  const tz = profile.timeZone
  const now = services.clock.now().getTime()
  const at = (ms: number) => isoInZone(Math.floor(ms / HOUR_MS) * HOUR_MS, tz)
  const operator =
    config.profileId === 'ES-CB-2010' ? 'Loterías de Demostración de Cantabria' : 'Lotería de Demostración de Bolivia'
  const place = config.profileId === 'ES-CB-2010' ? 'Santander' : 'La Paz'
  const staff = {
    authority: 'Gerencia (demostración)',
    director: 'Directora del sorteo (demostración)',
    moderator: 'Moderador (demostración)',
    notary: 'Notaría de demostración',
  }
  const common = {
    salesStartAt: at(now - HOUR_MS),
    salesCloseAt: at(now + 3 * DAY_MS),
    drawAt: at(now + 3 * DAY_MS + HOUR_MS),
    claimDeadline: at(now + 93 * DAY_MS),
    drawPlace: `Salón de sorteos, ${place}`,
    paymentPlace: `Cajas de ${config.hallName}`,
    regulationUrl: 'https://bolillo.example/demo/reglamento',
    authorisationRef: 'DEMO (sin autorización real)',
    drawMethod: 'rng' as const,
    staff,
    timeZone: tz,
  }
  const lottoDraw = await services.lotto.createDraw({
    ...common,
    operator,
    gameCode: 'LOTODEMO',
    name: 'Loto 6/49 de demostración',
    drawNumber: 1,
    issue: 'DEMO-1',
    range: 49,
    picks: 6,
    priceCents: 500,
    currency: profile.currency,
    prizePoolBp: 5000,
    budgetCents: 5_000_000,
    categories: [
      { code: 'C6', name: 'Premio Mayor', matches: 6, prize: { type: 'share', bp: 6000 } },
      { code: 'C5', name: 'Cinco aciertos', matches: 5, prize: { type: 'share', bp: 2500 } },
      { code: 'C4', name: 'Cuatro aciertos', matches: 4, prize: { type: 'share', bp: 1500 } },
      { code: 'C3', name: 'Reintegro', matches: 3, prize: { type: 'fixed', amountCents: 1000 } },
    ],
  })
  const issue = await services.lottery.createLottery({
    ...common,
    kind: 'traditional',
    // LOT-1: the demo lottery is planned in the name of the entity the licence record names, where it names one.
    institution: config.lotteryLicence?.holder ?? operator,
    name: 'Sorteo de demostración',
    gameCode: 'LOTDEMO',
    drawNumber: 1,
    issue: 'Emisión DEMO-1',
    numbering: { from: 0, to: 9_999, digits: 4 },
    series: 1,
    fractions: 10,
    ticketPriceCents: 2_000,
    currency: profile.currency,
    licensedMaxTickets: 10_000,
    prizes: [
      { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 5_000_000 },
      {
        code: 'A1',
        name: 'Aproximación al Primer Premio',
        rule: { type: 'approximation', of: 'P1', distance: 1 },
        amountCents: 200_000,
      },
      {
        code: 'T1',
        name: 'Reintegro (última cifra)',
        rule: { type: 'ending', of: 'P1', digits: 1 },
        amountCents: 2_000,
      },
    ],
    budgetCents: 10_000_000,
    securityMarks: 'Impresión de demostración: sin marcas de seguridad',
  })
  await markDemo(services, [{ drawId: lottoDraw.drawId }, { drawId: issue.drawId }])
  // The issue register: numbers 0000-0009 printed, the first half distributed to the demo kiosk, the rest to the
  // demo cashier (each station sells only what it was given).
  const system = { kind: 'system', id: 'demo', role: 'system', name: 'Demostración' }
  await services.lottery.printRun(issue.drawId, { from: 0, to: 9, seriesFrom: 1, seriesTo: 1 }, system)
  const idOf = (kind: string) => devices.find((d) => d.kind === kind)?.credential.split('.')[0]
  for (const [kind, from, to] of [
    ['kiosk', 0, 4],
    ['cashier_station', 5, 9],
  ] as const) {
    const sellerId = idOf(kind)
    if (sellerId)
      await services.lottery.distribute(issue.drawId, { from, to, seriesFrom: 1, seriesTo: 1, sellerId }, system)
  }
  const back = { issuer: operator, paymentPlace: `Cajas de ${config.hallName}` }
  const printed: InstantDesign = {
    gameNo: 101,
    name: 'Raspa y Gana (demostración)',
    currency: profile.currency,
    priceCents: 1000,
    ticketCount: 500,
    packSize: 50,
    playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
    tiers: [
      { amountCents: 50_000, count: 1 },
      { amountCents: 5000, count: 10 },
      { amountCents: 2000, count: 50 },
      { amountCents: 1000, count: 80 },
    ],
    payoutShareBp: { min: 5000, max: 8000 },
    packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
    claimDays: 60,
    // INS-10: the demo's game sells for a year from the seeding.
    salesEndAt: new Date(services.clock.now().getTime() + 365 * 86_400_000).toISOString(),
    back,
    authorisationRef: 'DEMO (sin autorización real)',
  }
  const by = { kind: 'system', id: 'demo' }
  await services.instant.generateBatch({ design: printed, by })
  // The first packs go to the demo kiosk and the demo cashier, and are activated on arrival there.
  const stations = devices.filter((d) => d.kind === 'kiosk' || d.kind === 'cashier_station')
  for (const [i, d] of stations.entries()) {
    await services.instant.shipPacks({
      gameNo: printed.gameNo,
      fromPack: i + 1,
      toPack: i + 1,
      destination: d.name,
      by: 'Almacén (demostración)',
    })
    await services.instant.activatePack({ gameNo: printed.gameNo, packNo: i + 1, location: d.name, by: d.name })
  }
  await services.instant.generateBatch({
    design: {
      ...printed,
      gameNo: 102,
      name: 'Raspa en pantalla (demostración)',
      channel: 'electronic',
      ticketCount: 200,
      packSize: 50,
      tiers: [
        { amountCents: 5000, count: 4 },
        { amountCents: 2000, count: 20 },
        { amountCents: 1000, count: 40 },
      ],
      packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 5 } },
      payoutShareBp: { min: 0, max: 10_000 },
    },
    by,
  })
  await services.instant.configureHall({
    hallId,
    electronicInstantAllowed: true,
    authorisationRef: 'DEMO (sin autorización real)',
    by: 'demo',
  })
}
