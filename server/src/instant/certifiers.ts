/**
 * INS-3 / RNG-27 (002 §7.4.3.1): the operator's registry of the AJ-authorised certifiers of the instant ticket
 * generator, with the Ed25519 key each signs its certificates with (generator-certificate.ts). An entry is recorded
 * and withdrawn by the operator (no hall: a certificate counts for every batch), each change journaled and the row
 * sealed, so a key swapped or a withdrawn certifier put back behind the journal is refused where the gate reads it.
 */
import type { Sql } from '../db/database.ts'
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import type { InstantContext } from './context.ts'
import { generatorRecord, instantGeneratorBuild } from './generator-build.ts'
import { isPublicKey, type GeneratorCertifier } from './generator-certificate.ts'
import {
  generatorCertifierById,
  generatorCertifiersByRef,
  insertGeneratorCertifier,
  listGeneratorCertifiers,
  withdrawGeneratorCertifier,
  type GeneratorCertifierRow,
} from './store.ts'

const SCOPE = 'instant:generator'

export interface GeneratorCertifierView extends GeneratorCertifier {
  recordedBy: string
  recordedAt: string
  withdrawnAt: string | null
  withdrawnReason: string | null
}

function toCertifier(r: GeneratorCertifierRow): GeneratorCertifierView {
  return {
    id: r.id,
    name: r.name,
    ajAuthorisationRef: r.aj_authorisation_ref,
    publicKey: r.public_key,
    status: r.status,
    recordedBy: r.recorded_by,
    recordedAt: r.recorded_at,
    withdrawnAt: r.withdrawn_at,
    withdrawnReason: r.withdrawn_reason,
  }
}

/** The registry's entries under a certifier reference, each checked against its seal (ROW_TAMPERED otherwise). */
export async function certifiersNamedBy(
  tx: Sql,
  ajAuthorisationRef: string | undefined,
): Promise<GeneratorCertifier[]> {
  if (!ajAuthorisationRef) return []
  const rows = await generatorCertifiersByRef(tx, ajAuthorisationRef)
  await assertRowsSealed(
    tx,
    'instant_generator_certifiers',
    rows.map((r) => r.id),
  )
  return rows.map(toCertifier)
}

export interface RecordCertifierInput {
  name: string
  ajAuthorisationRef: string
  /** Raw Ed25519 public key, 64 hex digits (`npx bolillo instant certifier-key --key <pem>` prints it). */
  publicKey: string
}

export function createCertifierUseCases(ctx: InstantContext) {
  const { db, deps, now } = ctx

  async function recordCertifier(input: RecordCertifierInput, by: string): Promise<GeneratorCertifierView> {
    assertHoldsHall(null, 'generator certifiers')
    const name = String(input.name ?? '').trim()
    const ref = String(input.ajAuthorisationRef ?? '').trim()
    const publicKey = String(input.publicKey ?? '')
      .trim()
      .toLowerCase()
    for (const [field, v] of [
      ['name', name],
      ['ajAuthorisationRef', ref],
    ] as const)
      if (!v || v.length > 120)
        throw new DomainError('VALIDATION_FAILED', `${field} is required (at most 120 characters)`, {
          field,
          rule: 'INS-3',
        })
    if (!isPublicKey(publicKey))
      throw new DomainError('VALIDATION_FAILED', 'publicKey is a raw Ed25519 public key: 64 hex digits', {
        field: 'publicKey',
        rule: 'INS-3',
      })
    // Issue 24 point 4: a server without the demo records no demo authorisation.
    if (deps.demoReferencesRefused && isDemoReference(ref))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `AJ authorisation "${ref}" is a demo one: a server without the demo records only real certifiers (INS-3)`,
        { field: 'ajAuthorisationRef', rule: 'INS-3' },
      )
    const at = now()
    const id = ctx.newId('igc')
    return db.transaction(async (tx) => {
      if ((await listGeneratorCertifiers(tx)).some((c) => c.status === 'active' && c.public_key === publicKey))
        throw new DomainError('CONFLICT', 'this public key is already recorded for an active certifier', {
          field: 'publicKey',
          rule: 'INS-3',
        })
      await insertGeneratorCertifier(tx, {
        id,
        name,
        aj_authorisation_ref: ref,
        public_key: publicKey,
        recorded_by: by,
        recorded_at: at,
      })
      const c = toCertifier((await generatorCertifierById(tx, id))!)
      await appendJournal(tx, {
        at,
        type: 'instant.generator_certifier_recorded',
        scope: SCOPE,
        payload: { certifier: c, by, rule: 'INS-3' },
      })
      return c
    })
  }

  /** Withdraws a certifier (its AJ authorisation lapsed or its key is no longer trusted): its certificates count no more. */
  async function withdrawCertifier(id: string, reason: string, by: string): Promise<GeneratorCertifierView> {
    assertHoldsHall(null, 'generator certifiers')
    return db.transaction(async (tx) => {
      const row = await generatorCertifierById(tx, id)
      if (!row) throw new DomainError('NOT_FOUND', `no generator certifier ${id}`)
      if (row.status === 'withdrawn') return toCertifier(row)
      const at = now()
      await withdrawGeneratorCertifier(tx, id, at, reason.slice(0, 500))
      await appendJournal(tx, {
        at,
        type: 'instant.generator_certifier_withdrawn',
        scope: SCOPE,
        payload: { certifierId: id, ajAuthorisationRef: row.aj_authorisation_ref, reason, by, rule: 'INS-3' },
      })
      return toCertifier((await generatorCertifierById(tx, id))!)
    })
  }

  /**
   * The registry, the running build (the hash a certificate must name) and what the gate would say today of the
   * configured certificate (`problems` empty: a batch may be generated under it).
   */
  async function listCertifiers() {
    const certifiers = (await listGeneratorCertifiers(db)).map(toCertifier)
    const running = instantGeneratorBuild()
    const certification = deps.generator?.certification ?? null
    let problems: string[] = []
    try {
      generatorRecord({ required: true, certification, demoAccepted: deps.generator?.demoAccepted }, running, {
        certifiers,
        today: now().slice(0, 10),
      })
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      problems = (err.details as { problems?: string[] }).problems ?? []
    }
    return {
      certifiers,
      running: { sha256: running.sha256, algorithm: running.algorithm, modules: running.modules },
      certificate: certification
        ? { ref: certification.ref, sha256: certification.sha256, statement: certification.signed?.statement ?? null }
        : null,
      problems,
      rule: 'INS-3',
    }
  }

  return { recordCertifier, withdrawCertifier, listCertifiers }
}
