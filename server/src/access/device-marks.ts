/**
 * Issue 26 (GEN-7, GEN-4, BNG-31): the check an enrolled device passes where it sells or pays. Devices enrolled before
 * seal codes were recorded (migration 0190) keep their credential, their drawer and their history, and may still log
 * in, show screens and be listed; what they may not do is take or pay money while their hall's profile requires a
 * mark they lack. Refusing at the point of use rather than revoking them at start-up keeps the hall able to record the
 * seal (POST /api/auth/devices/:deviceId/marks) without re-enrolling every screen, while no sale or payout happens on
 * an unsealed kiosk or station (GEN-7: a device without its seal is withdrawn until regularised).
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { getProfile, missingDeviceMarks, missingPrinterMarks } from '../shared/profile.ts'
import { assertReadRowsSealed } from '../shared/row-seals.ts'
import { deviceMarksById, type DeviceMarksRow } from './store.ts'

/**
 * Issue 24 point 4: whether the server runs without the demo (config.production), where a DEMO seal, type-approval
 * or issuing reference (a database that once ran the demo, or one typed in) counts as none. From the server's
 * configuration, never from the request; required so that no caller forgets to say.
 */
export interface MarksPolicy {
  demoReferencesRefused: boolean
}

/** The policy of a server from its configuration (a Config literal without `production`: not production). */
export function marksPolicy(config: { production?: boolean }): MarksPolicy {
  return { demoReferencesRefused: config.production ?? false }
}

/**
 * Refuses with DEVICE_MARKS_MISSING when the enrolled device `deviceId` lacks a mark its hall's profile requires.
 * An id that is no enrolled device (authentication off, where a station is only a name) or a device of no hall passes.
 */
export async function assertDeviceMarked(
  sql: Sql,
  deviceId: string | null | undefined,
  policy: MarksPolicy,
): Promise<void> {
  if (!deviceId) return
  assertMarksOf(sql, await deviceMarksById(sql, deviceId), policy)
}

/**
 * The same check on the device's row already read in the caller's transaction (`deviceMarksById`), for a sale that
 * reads its kiosk once for its hall, its marks and its name (issue 23 point 5). undefined: no enrolled device.
 */
export function assertMarksOf(tx: Sql, d: DeviceMarksRow | undefined, policy: MarksPolicy): void {
  const profile = d?.hall_profile_id ? getProfile(d.hall_profile_id) : undefined
  if (!d || !profile) return
  // Issue 24 point 1: the printer's row as read, against its seal, before its marks are believed (a seal code, an
  // authorisation or the device it serves edited behind the journal: ROW_TAMPERED, journaled by the transaction).
  if (PRINTING_KINDS.includes(d.kind)) assertReadRowsSealed(tx, 'devices', printerRowOf(d))
  // A demo reference is read as no reference at all; the ones so dropped are named in the refusal.
  const demo: string[] = []
  const real = (mark: string, ref: string | null | undefined): string | null => {
    if (!policy.demoReferencesRefused || !isDemoReference(ref)) return ref ?? null
    demo.push(mark)
    return null
  }
  const missing = missingDeviceMarks(profile, d.kind, {
    sealCode: real('seal-code', d.seal_code),
    typeApprovalNo: real('type-approval', d.type_approval_no),
  })
  if (missing.length)
    throw new DomainError(
      'DEVICE_MARKS_MISSING',
      `device ${d.name} (${d.id}) may not sell or pay: it has no ${missing.join(', ')}${demoNote(missing, demo)} (GEN-7, GEN-4)`,
      {
        deviceId: d.id,
        deviceName: d.name,
        missing,
        at: 'use',
        ...(demoIn(missing, demo) ? { demo: demoIn(missing, demo) } : {}),
        rule: missing.includes('seal-code') ? 'GEN-7' : 'GEN-4',
      },
    )
  // Issue 26 (GEN-4, GEN-7, BNG-9): the printer a kiosk, station or terminal issues its tickets, cards and vouchers on
  // is part of the device that sells or pays: one whose printer the registry does not show with what the profile
  // requires (printerMarks) takes and pays no money either. A display prints nothing.
  if (!PRINTING_KINDS.includes(d.kind)) return
  demo.length = 0
  const printerMissing = printerMissingOf(d, profile, policy, demo)
  if (printerMissing.length)
    throw new DomainError(
      'PRINTER_MARKS_MISSING',
      `device ${d.name} (${d.id}) may not sell or pay: its printer ${d.printer_id ?? '(none registered)'} lacks ${printerMissing.join(', ')}${demoNote(printerMissing, demo)} (GEN-4, GEN-7, BNG-9)`,
      {
        deviceId: d.id,
        deviceName: d.name,
        printerId: d.printer_id,
        missing: printerMissing,
        ...(demoIn(printerMissing, demo) ? { demo: demoIn(printerMissing, demo) } : {}),
        rule: printerMissing.includes('issuing-authorisation')
          ? 'BNG-9'
          : printerMissing.includes('seal-code')
            ? 'GEN-7'
            : 'GEN-4',
      },
    )
}

/**
 * Issue 26 (GEN-4, GEN-7, BNG-9): what the printer a selling device prints on lacks under `profile`, read as the sale
 * reads it (a demo reference is none where `policy` says so; those are pushed to `demo`). The back office's device
 * list shows the same words, so the screen and the refusal never disagree.
 */
export function printerMissingOf(
  d: DeviceMarksRow,
  profile: Parameters<typeof missingPrinterMarks>[0],
  policy: MarksPolicy,
  demo: string[] = [],
): ReturnType<typeof missingPrinterMarks> {
  const real = (mark: string, ref: string | null | undefined): string | null => {
    if (!policy.demoReferencesRefused || !isDemoReference(ref)) return ref ?? null
    demo.push(mark)
    return null
  }
  return missingPrinterMarks(
    profile,
    d.printer_id
      ? {
          sealCode: real('seal-code', d.printer_seal_code),
          typeApprovalNo: real('type-approval', d.printer_type_approval_no),
          issuingAuthorisation: real('issuing-authorisation', d.printer_issuing_authorisation),
          status: d.printer_status ?? '',
        }
      : undefined,
  )
}

/** The printer's sealed row as {@link deviceMarksById} read it with its seal (none when no printer was found). */
function printerRowOf(d: DeviceMarksRow): Array<Record<string, unknown>> {
  if (!d.printer_id) return []
  return [
    {
      id: d.printer_id,
      hall_id: d.printer_hall_id,
      kind: d.printer_kind,
      name: d.printer_name,
      manufacturer: d.printer_manufacturer,
      model: d.printer_model,
      serial_no: d.printer_serial_no,
      seal_code: d.printer_seal_code,
      certificate_id: d.printer_certificate_id,
      certificate_expires_at: d.printer_certificate_expires_at,
      type_approval_no: d.printer_type_approval_no,
      parent_id: d.printer_parent_id,
      serves_device_id: d.printer_serves_device_id,
      issuing_authorisation: d.printer_issuing_authorisation,
      status: d.printer_status,
      created_at: d.printer_created_at,
      seal_seq: d.printer_seal_seq,
      seal_mac: d.printer_seal_mac,
    },
  ]
}

/** Whether a device of `kind` prints (and so is held to its printer's marks). */
export function printsTickets(kind: string): boolean {
  return PRINTING_KINDS.includes(kind)
}

/** The missing marks that are missing because their reference was the demo's; undefined when none. */
function demoIn(missing: readonly string[], demo: readonly string[]): string[] | undefined {
  const both = missing.filter((m) => demo.includes(m))
  return both.length ? both : undefined
}

function demoNote(missing: readonly string[], demo: readonly string[]): string {
  const d = demoIn(missing, demo)
  return d ? ` (its ${d.join(', ')} reference is a demo one, which a server without the demo takes as none)` : ''
}

const PRINTING_KINDS: readonly string[] = ['kiosk', 'cashier_station', 'terminal']

/** GEN-7 / REGULATIONS.md §8: the seal code of the enrolled device that validates or pays, for its journal record. */
export async function sealCodeOfDevice(sql: Sql, deviceId: string | null | undefined): Promise<string | null> {
  if (!deviceId) return null
  return (await deviceMarksById(sql, deviceId))?.seal_code ?? null
}
