/**
 * Issue 26: the registry of certified software components (RNG-3, RNG-24/25, RNG-29, RNG-32 points 4 and 5).
 *
 * Three components decide outcomes or money by program: the draw engine (the balls of a game drawn by software), the
 * pot award software (which pot pays whom, RNG-3) and the derived bingo system (RNG-29). Each has a build hash: the
 * SHA-256 of its own source modules, computed once when the server starts from the code it ships, so any change to
 * how a component decides gives another hash. The operator records the certificate (Certificado de Cumplimiento in
 * Bolivia, the Consejería's type approval in Cantabria) of a build for a jurisdiction (the profile id of the halls
 * it serves); where the hall's profile lists the component (`certifiedSoftware`), a game that needs it is announced
 * only under an active record of the running build's hash, else SOFTWARE_NOT_CERTIFIED. Every game records the
 * software it was announced with (game_software), shown in its state, and every ball's journal record names the
 * draw engine's version and build hash (bingo/draw.ts), as does the record of every lotto, lottery or raffle draw
 * made by software (draws/lifecycle.ts).
 */
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Database, Sql } from '../db/database.ts'
import type { BingoHooks } from '../bingo/types.ts'
import type { Clock } from '../shared/clock.ts'
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import { getProfile, type Profile, type SoftwareComponent } from '../shared/profile.ts'
import {
  activeCertificatesFor,
  certifiedSoftwareById,
  hallHasActivePot,
  insertCertifiedSoftware,
  insertGameSoftware,
  isDerivedGame,
  listCertifiedSoftware,
  softwareOfGame,
  withdrawCertifiedSoftware,
  type CertifiedSoftwareRow,
} from './store.ts'

export const SOFTWARE_COMPONENTS: readonly SoftwareComponent[] = ['draw-engine', 'pot-award', 'derived-bingo']

/** The modules (under server/src) whose code decides each component's results, in a fixed order. */
export const COMPONENT_MODULES: Record<SoftwareComponent, readonly string[]> = {
  'draw-engine': [
    'bingo/draw.ts',
    'bingo/draw-beacon.ts',
    'bingo/detector.ts',
    'shared/draw-proof.ts',
    'shared/draw-proof-v2.ts',
    'shared/beacon.ts',
    'shared/lottery-draw-v2.ts',
  ],
  'pot-award': ['bingo/pots.ts', 'bingo/pots-service.ts'],
  'derived-bingo': ['bingo/modalities.ts', 'bingo/store/derived.ts'],
}

export interface SoftwareBuild {
  component: SoftwareComponent
  /** The release version (package.json) the build belongs to. */
  version: string
  buildSha256: string
  modules: readonly string[]
}

const SRC = new URL('../', import.meta.url)
let version: string | null = null
const builds = new Map<SoftwareComponent, SoftwareBuild>()

function releaseVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version
  return version
}

/** The running build of a component: SHA-256 over "path\n" and the source of each of its modules. Computed once. */
export function softwareBuild(component: SoftwareComponent): SoftwareBuild {
  const known = builds.get(component)
  if (known) return known
  const hash = createHash('sha256')
  for (const path of COMPONENT_MODULES[component]) {
    hash.update(`${path}\n`)
    hash.update(readFileSync(new URL(path, SRC)))
  }
  const b = Object.freeze({
    component,
    version: releaseVersion(),
    buildSha256: hash.digest('hex'),
    modules: COMPONENT_MODULES[component],
  })
  builds.set(component, b)
  return b
}

export interface CertifiedSoftware {
  id: string
  component: SoftwareComponent
  /** The profile id whose regulator issued the certificate (BO-2025, ES-CB-2010...). */
  jurisdiction: string
  version: string
  buildSha256: string
  certificateRef: string
  laboratory: string
  /** The demo's own record: no certificate, only so that the demo plays. */
  demo: boolean
  status: 'active' | 'withdrawn'
  recordedBy: string
  recordedAt: string
  withdrawnAt: string | null
  withdrawnReason: string | null
}

function toCertified(r: CertifiedSoftwareRow): CertifiedSoftware {
  return {
    id: r.id,
    component: r.component as SoftwareComponent,
    jurisdiction: r.jurisdiction,
    version: r.version,
    buildSha256: r.build_sha256,
    certificateRef: r.certificate_ref,
    laboratory: r.laboratory,
    demo: Number(r.demo) === 1,
    status: r.status,
    recordedBy: r.recorded_by,
    recordedAt: r.recorded_at,
    withdrawnAt: r.withdrawn_at,
    withdrawnReason: r.withdrawn_reason,
  }
}

export interface RecordSoftwareInput {
  component: SoftwareComponent
  jurisdiction: string
  version: string
  buildSha256: string
  certificateRef: string
  laboratory: string
  demo?: boolean
}

/** What a game shows of the software it was announced with (RNG-32 point 4). */
export interface GameSoftwareView {
  component: SoftwareComponent
  version: string
  buildSha256: string
  certificateRef: string | null
}

/**
 * The certificate under which `component` runs in a hall of `profile`: null where the profile asks none; the record
 * of the running build otherwise, or SOFTWARE_NOT_CERTIFIED (the reasons in the details, the hash to certify).
 * Issue 24 point 4: `demoRefused` (the server's config.production, never the request) makes a record of the demo
 * (labelled demo, or a DEMO certificate reference: a database that once ran the demo, or a typed one) count as none.
 */
export async function certificateFor(
  tx: Sql,
  component: SoftwareComponent,
  profile: Pick<Profile, 'id' | 'certifiedSoftware'>,
  demoRefused: boolean,
): Promise<CertifiedSoftware | null> {
  if (!profile.certifiedSoftware.includes(component)) return null
  const build = softwareBuild(component)
  const found = await activeCertificatesFor(tx, component, profile.id, build.buildSha256)
  // Issue 24 point 1: a certificate as the server recorded it (one typed in, or a withdrawn one put back active,
  // behind the journal certifies nothing: ROW_TAMPERED, journaled).
  await assertRowsSealed(
    tx,
    'certified_software',
    found.map((r) => r.id),
  )
  const rows = found.map(toCertified)
  const demoOnes = demoRefused ? rows.filter(isDemoCertificate) : []
  const real = rows.find((r) => !demoOnes.includes(r))
  if (real) return real
  const rule = component === 'pot-award' ? 'RNG-3' : component === 'derived-bingo' ? 'RNG-29' : 'RNG-32'
  const why = demoOnes.length
    ? `only a demo record ("${demoOnes[0]!.certificateRef}"), which a server without the demo takes as no certificate`
    : 'no active certificate'
  throw new DomainError(
    'SOFTWARE_NOT_CERTIFIED',
    `${component} build ${build.buildSha256} (version ${build.version}) has ${why} recorded for ${profile.id} (${rule})`,
    {
      component,
      jurisdiction: profile.id,
      version: build.version,
      buildSha256: build.buildSha256,
      rule,
      ...(demoOnes.length ? { demoReference: demoOnes[0]!.certificateRef } : {}),
    },
  )
}

/** The demo's own record, or one whose certificate reference says it is the demo's (issue 24 point 4). */
function isDemoCertificate(c: CertifiedSoftware): boolean {
  return c.demo || isDemoReference(c.certificateRef)
}

export function createSoftwareRegistry(deps: {
  db: Database
  clock: Clock
  /** Issue 24 point 4: a server without the demo (config.production) takes no demo record as a certificate. */
  demoReferencesRefused: boolean
}) {
  const { db, clock, demoReferencesRefused } = deps

  async function record(input: RecordSoftwareInput, by: string): Promise<CertifiedSoftware> {
    // Issue 23 point 3: a certified build counts in every hall's draws, so it is the operator's record (no hall).
    assertHoldsHall(null, 'software')
    if (!SOFTWARE_COMPONENTS.includes(input.component))
      throw new DomainError('VALIDATION_FAILED', `unknown software component ${input.component}`, {
        field: 'component',
      })
    if (!getProfile(input.jurisdiction))
      throw new DomainError('VALIDATION_FAILED', `unknown jurisdiction ${input.jurisdiction}`, {
        field: 'jurisdiction',
      })
    if (!/^[0-9a-f]{64}$/.test(input.buildSha256))
      throw new DomainError('VALIDATION_FAILED', 'buildSha256 is 64 lowercase hex digits', { field: 'buildSha256' })
    for (const field of ['version', 'certificateRef', 'laboratory'] as const)
      if (!input[field]?.trim()) throw new DomainError('VALIDATION_FAILED', `${field} is required`, { field })
    // Issue 24 point 4: a server without the demo records no demo certificate, labelled or typed.
    if (demoReferencesRefused && (input.demo || isDemoReference(input.certificateRef)))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `certificate reference "${input.certificateRef.trim()}" is a demo one: a server without the demo records only real certificates (RNG-32)`,
        { field: 'certificateRef', rule: 'RNG-32' },
      )
    const at = clock.now().toISOString()
    const id = `sw_${randomBytes(8).toString('hex')}`
    return db.transaction(async (tx) => {
      await insertCertifiedSoftware(tx, {
        id,
        component: input.component,
        jurisdiction: input.jurisdiction,
        version: input.version.trim(),
        build_sha256: input.buildSha256,
        certificate_ref: input.certificateRef.trim(),
        laboratory: input.laboratory.trim(),
        demo: input.demo ? 1 : 0,
        recorded_by: by,
        recorded_at: at,
      })
      const s = toCertified((await certifiedSoftwareById(tx, id))!)
      await appendJournal(tx, {
        at,
        type: 'software.certified',
        scope: `software:${input.component}`,
        payload: { software: s, by, rule: input.component === 'pot-award' ? 'RNG-3' : 'RNG-32' },
      })
      return s
    })
  }

  async function withdraw(id: string, reason: string, by: string): Promise<CertifiedSoftware> {
    assertHoldsHall(null, 'software')
    return db.transaction(async (tx) => {
      const row = await certifiedSoftwareById(tx, id)
      if (!row) throw new DomainError('NOT_FOUND', `no certified software record ${id}`)
      if (row.status === 'withdrawn') return toCertified(row)
      const at = clock.now().toISOString()
      await withdrawCertifiedSoftware(tx, id, at, reason.slice(0, 500))
      await appendJournal(tx, {
        at,
        type: 'software.withdrawn',
        scope: `software:${row.component}`,
        payload: { softwareId: id, component: row.component, jurisdiction: row.jurisdiction, reason, by },
      })
      return toCertified((await certifiedSoftwareById(tx, id))!)
    })
  }

  const bingoHooks: BingoHooks = {
    /**
     * The one door of a game's software: a game drawn by software needs the draw engine's certificate, a game in a
     * hall with a pot in play the pot award software's (RNG-3: the pot pays within this game), a derived game the
     * derived bingo system's (RNG-29), each where the hall's profile lists it. The draw engine is recorded for every
     * game (it logs every ball), with its certificate where one applies.
     */
    async gameAnnounced(tx, e) {
      const needed: SoftwareComponent[] = ['draw-engine']
      if (await hallHasActivePot(tx, e.hallId)) needed.push('pot-award')
      if (await isDerivedGame(tx, e.gameId)) needed.push('derived-bingo')
      const assigned: GameSoftwareView[] = []
      for (const component of needed) {
        // The draw engine is certified for the games it draws; a game drawn from a blower or by hand only logs.
        const cert =
          component === 'draw-engine' && e.drawSource !== 'rng'
            ? null
            : await certificateFor(tx, component, e.profile, demoReferencesRefused)
        const build = softwareBuild(component)
        await insertGameSoftware(tx, {
          game_id: e.gameId,
          component,
          version: build.version,
          build_sha256: build.buildSha256,
          certified_software_id: cert?.id ?? null,
          certificate_ref: cert?.certificateRef ?? null,
          assigned_at: e.at,
        })
        assigned.push({
          component,
          version: build.version,
          buildSha256: build.buildSha256,
          certificateRef: cert?.certificateRef ?? null,
        })
      }
      await appendJournal(tx, {
        at: e.at,
        type: 'game.software_assigned',
        scope: e.scope,
        payload: { gameId: e.gameId, software: assigned, rule: 'RNG-32' },
      })
    },
    async gameState(db, game) {
      const rows = await softwareOfGame(db, game.id)
      return {
        software: rows.map((r) => ({
          component: r.component as SoftwareComponent,
          version: r.version,
          buildSha256: r.build_sha256,
          certificateRef: r.certificate_ref,
        })),
      }
    },
  }

  return {
    record,
    withdraw,
    bingoHooks,
    async list(): Promise<{ records: CertifiedSoftware[]; running: SoftwareBuild[] }> {
      return {
        records: (await listCertifiedSoftware(db)).map(toCertified),
        running: SOFTWARE_COMPONENTS.map(softwareBuild),
      }
    },
  }
}

export type SoftwareRegistry = ReturnType<typeof createSoftwareRegistry>

/**
 * The demo's records (labelled demo, no certificate behind them) of the running builds for every shipped
 * jurisdiction, so that `npm start` plays RNG, pot and derived games. Recorded once per build.
 */
export async function recordDemoSoftware(registry: SoftwareRegistry, jurisdictions: readonly string[]): Promise<void> {
  const { records } = await registry.list()
  for (const jurisdiction of jurisdictions)
    for (const component of SOFTWARE_COMPONENTS) {
      const build = softwareBuild(component)
      if (
        records.some(
          (r) =>
            r.jurisdiction === jurisdiction &&
            r.component === component &&
            r.buildSha256 === build.buildSha256 &&
            r.status === 'active',
        )
      )
        continue
      await registry.record(
        {
          component,
          jurisdiction,
          version: build.version,
          buildSha256: build.buildSha256,
          certificateRef: `DEMO-SIN-CERTIFICAR-${component}`,
          laboratory: 'Demostración (sin laboratorio)',
          demo: true,
        },
        'demo',
      )
    }
}
