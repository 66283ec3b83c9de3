/**
 * Device registry: every gaming device (GEN-6) with the regulator's security seal code (GEN-7) and its compliance
 * certificate or type approval (BNG-30, BNG-31, RNG-24). A device that is not sealed, not certified (or whose
 * certificate has expired) or not active cannot be brought online nor take part in a game: DEVICE_NOT_CERTIFIED.
 * Every change is journaled.
 */
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import type { Database, Sql } from '../db/database.ts'
import type { BingoHooks } from '../bingo/service.ts'
import type { Clock } from '../shared/clock.ts'
import { appendJournal } from '../shared/journal.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import {
  activeExtractorsOfHall,
  activePartsOf,
  blowerOfGame,
  DEVICE_PATCH_FIELDS,
  deviceById,
  deviceBySealCode,
  deviceOfGame,
  enrolledDeviceHall,
  insertDevice,
  insertGameDevice,
  isDeviceRegistered,
  isHallRegistered,
  isSealCodeTaken,
  listDevices,
  markDeviceSeen,
  rngDevicesFor,
  setDeviceField,
  setDeviceStatus,
  touchDevice,
  type DeviceRow,
} from './store.ts'

export { DeviceKind, DeviceStatus } from './kinds.ts'
import { DeviceKind, DeviceStatus } from './kinds.ts'
import type { DevicePatch, RegisterDeviceInput } from './kinds.ts'
export type { DevicePatch, RegisterDeviceInput } from './kinds.ts'

export interface Device {
  id: string
  hallId: string | null
  kind: DeviceKind
  name: string
  manufacturer: string | null
  model: string | null
  serialNo: string | null
  /** GEN-7: the regulator's security seal identification code. */
  sealCode: string | null
  /** BNG-30 / RNG-24: compliance certificate (Bolivia) or type-approval resolution (Cantabria). */
  certificateId: string | null
  certificateExpiresAt: string | null
  /** CFG-8 / BNG-31: homologation (type-approval) number; required of draw devices where the profile says so. */
  typeApprovalNo: string | null
  /** A ball reader built into a blower names the blower here. */
  parentId: string | null
  /** Issue 26 (GEN-4, BNG-9): a printer's enrolled device (kiosk, station, terminal); null: its hall's shared one. */
  servesDeviceId: string | null
  /** BNG-9: the Consejería's prior authorisation of the in-hall issuing system (printers). */
  issuingAuthorisation: string | null
  status: DeviceStatus
  firmware: string | null
  lastSeenAt: string | null
  createdAt: string
  updatedAt: string
}

function toDevice(r: DeviceRow): Device {
  return {
    id: r.id,
    hallId: r.hall_id,
    kind: r.kind,
    name: r.name,
    manufacturer: r.manufacturer,
    model: r.model,
    serialNo: r.serial_no,
    sealCode: r.seal_code,
    certificateId: r.certificate_id,
    certificateExpiresAt: r.certificate_expires_at,
    typeApprovalNo: r.type_approval_no ?? null,
    parentId: r.parent_id,
    servesDeviceId: r.serves_device_id ?? null,
    issuingAuthorisation: r.issuing_authorisation ?? null,
    status: r.status,
    firmware: r.firmware,
    lastSeenAt: r.last_seen_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

/**
 * Why a device may not take part in play at `now` (empty when it may). Pure: the reasons are stable words that
 * the refusal carries in its details.
 */
export function deviceProblems(
  d: Pick<Device, 'sealCode' | 'certificateId' | 'certificateExpiresAt' | 'status'> & {
    typeApprovalNo?: string | null
  },
  now: Date,
  opts: { typeApproval?: boolean; demoRefused?: boolean } = {},
): string[] {
  const problems: string[] = []
  // Issue 24 point 4: on a server without the demo (opts.demoRefused, from config.production) a DEMO reference is none.
  const real = (ref: string | null | undefined) => (opts.demoRefused && isDemoReference(ref) ? null : ref)
  if (!real(d.sealCode)?.trim()) problems.push('no-seal-code')
  if (!real(d.certificateId)?.trim()) problems.push('no-certificate')
  else if (d.certificateExpiresAt && Date.parse(d.certificateExpiresAt) <= now.getTime())
    problems.push('certificate-expired')
  // BNG-31 / CFG-8: where the profile asks for it, a draw device is type-approved.
  if (opts.typeApproval && !real(d.typeApprovalNo)?.trim()) problems.push('no-type-approval')
  if (d.status !== DeviceStatus.Active) problems.push(`status-${d.status}`)
  return problems
}

/**
 * Issue 24 point 4: the problems of `deviceProblems` that are there only because the reference is a demo one (for
 * the refusal's message and details); empty when the server takes demo references (the demo) or none is at fault.
 */
export function demoProblems(
  d: Pick<Device, 'sealCode' | 'certificateId'> & { typeApprovalNo?: string | null },
  problems: readonly string[],
  demoRefused: boolean,
): string[] {
  if (!demoRefused) return []
  const refs: Record<string, string | null | undefined> = {
    'no-seal-code': d.sealCode,
    'no-certificate': d.certificateId,
    'no-type-approval': d.typeApprovalNo,
  }
  return problems.filter((p) => isDemoReference(refs[p]))
}

/** The refusal's words on the demo references dropped (empty when none), and its details. */
function demoNote(demo: readonly string[]): { text: string; details: Record<string, unknown> } {
  if (!demo.length) return { text: '', details: {} }
  return {
    text: ` (its ${demo.map((p) => p.replace(/^no-/, '')).join(', ')} reference is a demo one, which a server without the demo takes as none)`,
    details: { demo },
  }
}

/** A registered extraction device as a lotto or lottery draw records it (LOT-18, LNS-8). */
export interface ExtractionDevice {
  id: string
  name: string
  sealCode: string
  certificateId: string
  hallId: string | null
}

/**
 * LOT-18 / LNS-8 (002 §7.1.2.1, §7.3.3.1: "tómbolas, balotas o baloterías, recipientes (peceras) u otro similar ...
 * autorizados por la AJ"): the device a manual lotto or lottery draw names, by its registry id or its seal code, must
 * be a registered blower (the registry's kind for tómbolas and ball machines), sealed, certified and unexpired, active,
 * and of the draw's hall: a device registered to a hall serves only draws held in that hall (`hallId`); an
 * operator-level device (no hall) serves any. DEVICE_NOT_CERTIFIED otherwise, with the reasons.
 */
export async function extractionDevice(
  tx: Sql,
  ref: string | null | undefined,
  hallId: string | null | undefined,
  now: Date,
  /** Issue 24 point 4: the server's config.production (a DEMO seal or certificate counts as none). */
  demoRefused: boolean,
): Promise<ExtractionDevice> {
  const key = ref?.trim() ?? ''
  const row = key ? ((await deviceById(tx, key)) ?? (await deviceBySealCode(tx, key))) : undefined
  if (!row)
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      `the extraction device "${key}" is not in the device registry: register the AJ-authorised tómbola or ball machine first (LOT-18, LNS-8)`,
      { rule: 'LNS-8', device: key, problems: ['not-registered'] },
    )
  const device = toDevice(row)
  const problems = deviceProblems(device, now, { demoRefused })
  if (row.kind !== DeviceKind.Blower) problems.push(`kind-${row.kind}`)
  if (row.hall_id && row.hall_id !== (hallId ?? null)) problems.push('other-hall')
  if (problems.length > 0) {
    const demo = demoNote(demoProblems(device, problems, demoRefused))
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      `device ${row.id} may not draw this lottery: ${problems.join(', ')}${demo.text} (LOT-18, LNS-8)`,
      { rule: 'LNS-8', deviceId: row.id, problems, ...demo.details },
    )
  }
  return {
    id: row.id,
    name: row.name,
    sealCode: row.seal_code!,
    certificateId: row.certificate_id!,
    hallId: row.hall_id,
  }
}

/**
 * Issue 26 (GEN-6, BNG-30, RNG-25; RNG-33/34): the RNG that draws a game or lottery under a profile that requires one
 * (`rngDeviceRequired`) is a registered device of kind rng, sealed, certified, unexpired and active (type-approved
 * where `typeApproval`), of the draw's hall or of the operator (no hall). The first fit one serves; none:
 * DEVICE_NOT_CERTIFIED with the reasons of each candidate, so that no draw is made by unregistered software.
 */
export async function registeredRng(
  tx: Sql,
  hallId: string | null,
  now: Date,
  /** typeApproval: the profile's; demoRefused: the server's config.production (issue 24 point 4), never the request. */
  opts: { typeApproval?: boolean; demoRefused: boolean },
): Promise<ExtractionDevice & { typeApprovalNo: string | null }> {
  const candidates = (await rngDevicesFor(tx, hallId)).map(toDevice)
  const refused: Array<{ deviceId: string; problems: string[]; demo?: string[] }> = []
  for (const d of candidates) {
    const problems = deviceProblems(d, now, opts)
    if (problems.length === 0)
      return {
        id: d.id,
        name: d.name,
        sealCode: d.sealCode!,
        certificateId: d.certificateId!,
        hallId: d.hallId,
        typeApprovalNo: d.typeApprovalNo,
      }
    const demo = demoProblems(d, problems, opts.demoRefused)
    refused.push({ deviceId: d.id, problems, ...(demo.length ? { demo } : {}) })
  }
  throw new DomainError(
    'DEVICE_NOT_CERTIFIED',
    candidates.length === 0
      ? `no RNG device is registered for ${hallId ? `hall ${hallId}` : 'the operator'}: a draw by software needs a registered, sealed and certified RNG (GEN-6, BNG-30)`
      : `no registered RNG may draw now: ${refused.map((r) => `${r.deviceId} (${r.problems.join(', ')}${demoNote(r.demo ?? []).text})`).join('; ')} (GEN-6, BNG-30)`,
    { rule: 'GEN-6', problems: candidates.length === 0 ? ['no-rng-device'] : ['rng-not-usable'], refused },
  )
}

const ID_RE = /^[A-Za-z0-9._:-]{1,40}$/
const checkDate = (v: string | null | undefined) => {
  if (v && Number.isNaN(Date.parse(v)))
    throw new DomainError('VALIDATION_FAILED', `certificateExpiresAt must be an ISO date, got ${JSON.stringify(v)}`, {
      field: 'certificateExpiresAt',
    })
}
const text = (v: string | null | undefined, max = 120) => {
  if (v === undefined || v === null) return null
  const t = v.trim()
  if (t.length > max) throw new DomainError('VALIDATION_FAILED', `text longer than ${max} characters`)
  return t === '' ? null : t
}

/**
 * Issue 26 (GEN-4, BNG-9): only a printer serves a device, and that device is an enrolled kiosk, cashier station or
 * terminal of the printer's own hall (a printer of no hall serves any).
 */
async function checkServes(tx: Sql, kind: string, hallId: string | null, servesDeviceId: string | null): Promise<void> {
  if (!servesDeviceId) return
  if (kind !== DeviceKind.Printer)
    throw new DomainError('VALIDATION_FAILED', 'only a printer serves an enrolled device', { field: 'servesDeviceId' })
  const served = await enrolledDeviceHall(tx, servesDeviceId)
  if (!served || !['kiosk', 'cashier_station', 'terminal'].includes(served.kind))
    throw new DomainError('NOT_FOUND', `no enrolled kiosk, station or terminal ${servesDeviceId}`, {
      field: 'servesDeviceId',
    })
  // Issue 23 point 3: the served device's hall, as stored, is one the acting person holds (a printer of no hall
  // would otherwise reach another hall's kiosk).
  assertHoldsHall(served.hall_id, 'device')
  if (hallId && served.hall_id !== hallId)
    throw new DomainError('WRONG_HALL', `device ${servesDeviceId} is not of hall ${hallId}`, {
      field: 'servesDeviceId',
      resource: 'device',
    })
}

/** The recorded references of a device that a regulator or laboratory issues (issue 24 point 4: never DEMO ones). */
const REFERENCE_FIELDS = ['sealCode', 'certificateId', 'typeApprovalNo', 'issuingAuthorisation'] as const

export function createDeviceRegistry(deps: {
  db: Database
  clock: Clock
  /** Issue 24 point 4: a server without the demo (config.production) records no DEMO seal, certificate or approval. */
  demoReferencesRefused: boolean
}) {
  const { db, clock } = deps

  function refuseDemoReferences(given: Partial<Record<(typeof REFERENCE_FIELDS)[number], string | null>>): void {
    if (!deps.demoReferencesRefused) return
    for (const field of REFERENCE_FIELDS)
      if (isDemoReference(given[field]))
        throw new DomainError(
          'DEMO_REFERENCE_REFUSED',
          `${field} "${given[field]!.trim()}" is a demo reference: a server without the demo records only real ones (GEN-7, GEN-4)`,
          { field, rule: field === 'sealCode' ? 'GEN-7' : 'GEN-4' },
        )
  }
  const now = () => clock.now().toISOString()
  const scopeOf = (d: { hallId: string | null; id: string }) =>
    d.hallId ? `hall:${d.hallId}/device:${d.id}` : `device:${d.id}`

  /**
   * Issue 23 point 5: a hall's device's status, last sight and records are that hall's (its games read them under
   * its lock): a change locks that hall alone, read from the registry before the transaction, never from the
   * request. A device of no hall (an operator's RNG, which every hall's games read) or unknown changes under every
   * chain, as before; a device moved to another hall since (under the exclusive lock) runs again with every chain.
   */
  async function inDeviceHall<T>(id: string, fn: (tx: Sql) => Promise<T>): Promise<T> {
    const hallId = (await deviceById(db, id))?.hall_id
    return narrowOrAll(hallId ? [`hall:${hallId}`] : undefined, (scopes) =>
      db.transaction(
        async (tx) => {
          if (scopes) requireChain(`hall:${(await deviceById(tx, id))?.hall_id ?? ''}`)
          return fn(tx)
        },
        scopes ? { scopes } : undefined,
      ),
    )
  }

  async function load(tx: Sql, id: string): Promise<Device> {
    const row = await deviceById(tx, id)
    if (!row) throw new DomainError('NOT_FOUND', `device ${id} is not registered`, { deviceId: id })
    return toDevice(row)
  }

  /** Throws DEVICE_NOT_CERTIFIED unless the device (and any reader built into it) may take part in play now. */
  async function assertUsable(
    tx: Sql,
    id: string,
    expect: { kinds?: readonly DeviceKind[]; hallId?: string; typeApproval?: boolean } = {},
  ): Promise<Device> {
    const row = await deviceById(tx, id)
    if (!row)
      throw new DomainError('DEVICE_NOT_CERTIFIED', `device ${id} is not in the device registry (GEN-7)`, {
        deviceId: id,
        problems: ['not-registered'],
        rule: 'GEN-7',
      })
    const d = toDevice(row)
    if (expect.kinds && !expect.kinds.includes(d.kind))
      throw new DomainError('VALIDATION_FAILED', `device ${id} is a ${d.kind}, not a ${expect.kinds.join(' or ')}`, {
        deviceId: id,
      })
    if (expect.hallId && d.hallId && d.hallId !== expect.hallId)
      throw new DomainError('VALIDATION_FAILED', `device ${id} belongs to hall ${d.hallId}`, { deviceId: id })
    const at = clock.now()
    const demoRefused = deps.demoReferencesRefused
    const problems = deviceProblems(d, at, { typeApproval: expect.typeApproval, demoRefused })
    if (problems.length) {
      const demo = demoNote(demoProblems(d, problems, demoRefused))
      throw new DomainError(
        'DEVICE_NOT_CERTIFIED',
        `device ${id} may not take part in play: ${problems.join(', ')}${demo.text} (GEN-7, BNG-30)`,
        { deviceId: id, problems, rule: 'GEN-7', ...demo.details },
      )
    }
    const parts = (await activePartsOf(tx, id)).map(toDevice)
    for (const p of parts) {
      const pp = deviceProblems(p, at, { typeApproval: expect.typeApproval, demoRefused })
      if (pp.length) {
        const demo = demoNote(demoProblems(p, pp, demoRefused))
        throw new DomainError(
          'DEVICE_NOT_CERTIFIED',
          `${p.kind} ${p.id} of device ${id} may not take part in play: ${pp.join(', ')}${demo.text} (BNG-31)`,
          { deviceId: p.id, parentId: id, problems: pp, rule: 'BNG-31', ...demo.details },
        )
      }
    }
    return d
  }

  async function register(input: RegisterDeviceInput): Promise<Device> {
    if (!ID_RE.test(input.id))
      throw new DomainError('VALIDATION_FAILED', 'device id must be 1-40 letters, digits or . _ : -', { field: 'id' })
    if (!(Object.values(DeviceKind) as string[]).includes(input.kind))
      throw new DomainError('VALIDATION_FAILED', `unknown device kind ${input.kind}`, { field: 'kind' })
    checkDate(input.certificateExpiresAt)
    refuseDemoReferences(input)
    // Issue 23 point 3: a device is recorded in a hall by a person of that hall; one of no hall is the operator's.
    assertHoldsHall(input.hallId ?? null, 'device')
    return db.transaction(async (tx) => {
      if (await isDeviceRegistered(tx, input.id))
        throw new DomainError('CONFLICT', `device ${input.id} is already registered`)
      if (input.hallId && !(await isHallRegistered(tx, input.hallId)))
        throw new DomainError('NOT_FOUND', `hall ${input.hallId} not found`)
      if (input.parentId) await load(tx, input.parentId)
      await checkServes(tx, input.kind, input.hallId ?? null, input.servesDeviceId ?? null)
      const sealCode = text(input.sealCode, 40)
      if (sealCode && (await isSealCodeTaken(tx, sealCode)))
        throw new DomainError('CONFLICT', `seal code ${sealCode} is already on another device (GEN-7)`)
      const at = now()
      await insertDevice(tx, {
        id: input.id,
        hall_id: input.hallId ?? null,
        kind: input.kind,
        name: text(input.name) ?? input.id,
        manufacturer: text(input.manufacturer),
        model: text(input.model),
        serial_no: text(input.serialNo),
        seal_code: sealCode,
        certificate_id: text(input.certificateId),
        certificate_expires_at: text(input.certificateExpiresAt, 40),
        type_approval_no: text(input.typeApprovalNo, 60),
        parent_id: input.parentId ?? null,
        serves_device_id: input.servesDeviceId ?? null,
        issuing_authorisation: text(input.issuingAuthorisation, 120),
        firmware: text(input.firmware, 40),
        created_at: at,
        updated_at: at,
      })
      const d = await load(tx, input.id)
      await appendJournal(tx, {
        at,
        type: 'device.registered',
        scope: scopeOf(d),
        payload: {
          device: d,
          problems: deviceProblems(d, clock.now(), { demoRefused: deps.demoReferencesRefused }),
          rule: 'GEN-7',
        },
      })
      return d
    })
  }

  /** Changes the recorded data of a device (a new seal after an inspection, a renewed certificate...). */
  async function update(id: string, patch: DevicePatch, by: string): Promise<Device> {
    checkDate(patch.certificateExpiresAt)
    refuseDemoReferences(patch)
    return db.transaction(async (tx) => {
      const before = await load(tx, id)
      // Issue 23 point 3: the device's hall as stored, and the hall it is moved to, are both the person's.
      assertHoldsHall(before.hallId, 'device')
      if ('hallId' in patch) assertHoldsHall(patch.hallId ?? null, 'device')
      if (before.status === DeviceStatus.Retired) throw new DomainError('ILLEGAL_TRANSITION', `device ${id} is retired`)
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      for (const key of DEVICE_PATCH_FIELDS) {
        if (!(key in patch)) continue
        const value =
          key === 'hallId' || key === 'parentId' || key === 'servesDeviceId'
            ? (patch[key] ?? null)
            : text(
                patch[key] as string | null,
                key === 'name' || key === 'issuingAuthorisation' ? 120 : key === 'typeApprovalNo' ? 60 : 40,
              )
        if (value === before[key]) continue
        if (key === 'sealCode' && value && (await isSealCodeTaken(tx, String(value), id)))
          throw new DomainError('CONFLICT', `seal code ${String(value)} is already on another device (GEN-7)`)
        if (key === 'parentId' && value) await load(tx, String(value))
        if (key === 'servesDeviceId' || key === 'hallId')
          await checkServes(
            tx,
            before.kind,
            key === 'hallId' ? ((value as string | null) ?? null) : before.hallId,
            key === 'servesDeviceId' ? ((value as string | null) ?? null) : before.servesDeviceId,
          )
        await setDeviceField(tx, id, key, value)
        changes[key] = { from: before[key], to: value }
      }
      if (Object.keys(changes).length === 0) return before
      const at = now()
      await touchDevice(tx, id, at)
      const after = await load(tx, id)
      await appendJournal(tx, {
        at,
        type: 'device.updated',
        scope: scopeOf(after),
        payload: {
          deviceId: id,
          by,
          changes,
          problems: deviceProblems(after, clock.now(), { demoRefused: deps.demoReferencesRefused }),
          rule: 'GEN-7',
        },
      })
      return after
    })
  }

  /** Active <-> suspended; retired is final (GEN-7: a device found without a seal is removed until regularised). */
  async function setStatus(id: string, status: DeviceStatus, reason: string, by: string): Promise<Device> {
    if (!(Object.values(DeviceStatus) as string[]).includes(status))
      throw new DomainError('VALIDATION_FAILED', `unknown status ${status}`, { field: 'status' })
    return inDeviceHall(id, async (tx) => {
      const before = await load(tx, id)
      // Issue 23 point 3: suspending or bringing back a device is for someone who holds the device's own hall (an
      // operator-wide device: someone of every hall), whatever hall the request names.
      assertHoldsHall(before.hallId, 'device')
      if (before.status === status) return before
      if (before.status === DeviceStatus.Retired) throw new DomainError('ILLEGAL_TRANSITION', `device ${id} is retired`)
      const at = now()
      await setDeviceStatus(tx, id, status, at)
      const after = await load(tx, id)
      await appendJournal(tx, {
        at,
        type: 'device.status_changed',
        scope: scopeOf(after),
        payload: { deviceId: id, from: before.status, to: status, reason: reason.slice(0, 500), by },
      })
      return after
    })
  }

  /**
   * A device says who it is (HELLO): it comes online only if it is registered, usable, and shows the seal code on
   * record (GEN-7: "refuse to bring online a device that has no recorded seal code"). Journaled either way.
   */
  async function bringOnline(hello: {
    deviceId: string
    sealCode: string
    firmware: string
    port: string
  }): Promise<{ ok: true; device: Device } | { ok: false; error: DomainError }> {
    return inDeviceHall(hello.deviceId, async (tx) => {
      const at = now()
      try {
        const d = await assertUsable(tx, hello.deviceId, { kinds: [DeviceKind.Blower, DeviceKind.BallReader] })
        if (d.sealCode !== hello.sealCode)
          throw new DomainError(
            'DEVICE_NOT_CERTIFIED',
            `device ${d.id} reports seal ${hello.sealCode || '(none)'}, the registry has ${d.sealCode} (GEN-7)`,
            { deviceId: d.id, problems: ['seal-mismatch'], rule: 'GEN-7' },
          )
        await markDeviceSeen(tx, d.id, at, hello.firmware)
        if (d.firmware !== hello.firmware) {
          await appendJournal(tx, {
            at,
            type: 'device.updated',
            scope: scopeOf(d),
            payload: { deviceId: d.id, by: 'device', changes: { firmware: { from: d.firmware, to: hello.firmware } } },
          })
        }
        await appendJournal(tx, {
          at,
          type: 'device.online',
          scope: scopeOf(d),
          payload: { deviceId: d.id, sealCode: hello.sealCode, firmware: hello.firmware, port: hello.port },
        })
        return { ok: true as const, device: { ...d, firmware: hello.firmware, lastSeenAt: at } }
      } catch (err) {
        if (!(err instanceof DomainError)) throw err
        const known = await deviceById(tx, hello.deviceId)
        await appendJournal(tx, {
          at,
          type: 'device.refused',
          scope: known ? scopeOf(toDevice(known)) : `device:${hello.deviceId}`,
          payload: {
            deviceId: hello.deviceId,
            sealCode: hello.sealCode,
            firmware: hello.firmware,
            port: hello.port,
            code: err.code,
            reason: err.message,
            details: err.details,
          },
        })
        return { ok: false as const, error: err }
      }
    })
  }

  async function recordOffline(deviceId: string, reason: string): Promise<void> {
    await inDeviceHall(deviceId, async (tx) => {
      const d = await deviceById(tx, deviceId)
      await appendJournal(tx, {
        at: now(),
        type: 'device.offline',
        scope: d ? scopeOf(toDevice(d)) : `device:${deviceId}`,
        payload: { deviceId, reason },
      })
    })
  }

  /** The blower a game was announced with, if any. */
  const gameBlower = blowerOfGame

  /**
   * BNG-30 / BNG-31: the extractor of a manual game: the one named, or else the hall's only active extractor
   * (drum or pneumatic, registered as kind blower). None, or several and none named: refused.
   */
  async function extractorOf(tx: Sql, hallId: string, named: string | null): Promise<string> {
    if (named) return named
    const found = await activeExtractorsOfHall(tx, hallId)
    if (found.length === 1) return found[0].id
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      found.length === 0
        ? `hall ${hallId} has no registered ball extractor: a manual game is drawn from a certified drum (BNG-30)`
        : `hall ${hallId} has ${found.length} extractors: name the one this game is drawn from (deviceId)`,
      { problems: [found.length === 0 ? 'no-extractor' : 'extractor-not-named'], rule: 'BNG-30' },
    )
  }

  const bingoHooks: BingoHooks = {
    async gameAnnounced(tx, e) {
      if (e.drawSource === 'blower' && !e.deviceId)
        throw new DomainError('VALIDATION_FAILED', 'a blower game names its blower (deviceId)', { field: 'deviceId' })
      // BNG-30/31: a manual game is drawn from a registered, sealed and certified extractor (type-approved where the
      // profile asks for it). An RNG game names its RNG device when the hall registers one; the server's own entropy
      // source is stated in every proof (RNG-32).
      // Issue 26 (GEN-6, RNG-25): where the profile requires it, an RNG game is drawn by a registered RNG device,
      // recorded on the game like a blower; a hall with none announces no RNG game.
      const deviceId =
        e.drawSource === 'manual'
          ? await extractorOf(tx, e.hallId, e.deviceId)
          : e.drawSource === 'rng' && !e.deviceId && e.profile.rngDeviceRequired
            ? (
                await registeredRng(tx, e.hallId, clock.now(), {
                  typeApproval: e.profile.drawDeviceTypeApproval,
                  demoRefused: deps.demoReferencesRefused,
                })
              ).id
            : e.deviceId
      if (!deviceId) return
      const kinds = e.drawSource === 'rng' ? [DeviceKind.Rng] : [DeviceKind.Blower]
      const d = await assertUsable(tx, deviceId, {
        kinds,
        hallId: e.hallId,
        typeApproval: e.profile.drawDeviceTypeApproval,
      })
      const role = e.drawSource === 'rng' ? 'rng' : e.drawSource === 'manual' ? 'extractor' : 'blower'
      await insertGameDevice(tx, {
        gameId: e.gameId,
        deviceId: d.id,
        role,
        sealCode: d.sealCode,
        certificateId: d.certificateId,
        typeApprovalNo: d.typeApprovalNo,
        assignedAt: e.at,
      })
      await appendJournal(tx, {
        at: e.at,
        type: 'game.device_assigned',
        scope: e.scope,
        payload: {
          gameId: e.gameId,
          deviceId: d.id,
          role,
          kind: d.kind,
          sealCode: d.sealCode,
          certificateId: d.certificateId,
          typeApprovalNo: d.typeApprovalNo,
          rule: e.drawSource === 'rng' ? 'GEN-7' : 'BNG-30',
        },
      })
    },
    async ballRecording(tx, e) {
      if (e.source === 'blower') {
        const assigned = await gameBlower(tx, e.gameId)
        if (!assigned || e.deviceId !== assigned.device_id) {
          throw new DomainError(
            'ILLEGAL_TRANSITION',
            `the balls of game ${e.gameId} come from blower ${assigned?.device_id ?? '(none)'}; after a device failure continue by hand (BNG-81)`,
            { rule: 'BNG-81', deviceId: e.deviceId },
          )
        }
        await assertUsable(tx, assigned.device_id, { typeApproval: e.profile.drawDeviceTypeApproval })
      } else if (e.deviceId) {
        await assertUsable(tx, e.deviceId)
      } else if (e.source === 'rng') {
        // Issue 26 (GEN-6): the RNG the game was announced with must still be fit (suspended, expired: no more balls).
        const rng = await deviceOfGame(tx, e.gameId, 'rng')
        if (rng) await assertUsable(tx, rng.device_id, { typeApproval: e.profile.drawDeviceTypeApproval })
      } else if (e.source === 'manual') {
        // The extractor the game was announced with must still be fit (a suspended drum stops the game). A game
        // switched to manual after a failure (BNG-81) has none assigned and goes on by hand.
        const extractor = await deviceOfGame(tx, e.gameId, 'extractor')
        if (extractor) await assertUsable(tx, extractor.device_id, { typeApproval: e.profile.drawDeviceTypeApproval })
      }
    },
  }

  return {
    register,
    update,
    setStatus,
    bringOnline,
    recordOffline,
    assertUsable,
    gameBlower,
    bingoHooks,
    async get(id: string): Promise<Device & { problems: string[] }> {
      const d = await load(db, id)
      return { ...d, problems: deviceProblems(d, clock.now(), { demoRefused: deps.demoReferencesRefused }) }
    },
    async list(filter: { hallId?: string; kind?: DeviceKind } = {}): Promise<Array<Device & { problems: string[] }>> {
      const rows = await listDevices(db, filter)
      // What the server itself would refuse: on production a DEMO reference shows as missing (issue 24 point 4).
      return rows
        .map(toDevice)
        .map((d) => ({ ...d, problems: deviceProblems(d, clock.now(), { demoRefused: deps.demoReferencesRefused }) }))
    },
  }
}

export type DeviceRegistry = ReturnType<typeof createDeviceRegistry>
