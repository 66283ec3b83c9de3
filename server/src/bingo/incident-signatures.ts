/**
 * BNG-74 (Bolivia, 002 §6.1.8.1): each incident entry in the minutes is signed by both the Jefe de Mesa and the
 * Director de Bingo. Pure rule: who the two signers of an entry are, or why the pair is refused.
 */
import { DomainError } from '../shared/errors.ts'
import { isAllowed, type Role } from '../access/permissions.ts'
import type { Profile } from '../shared/profile.ts'

/** A person (or the server) as the route proved them; never a name from a request body. */
export interface Signer {
  kind: string
  id: string
  name: string
  role: string
  halls?: '*' | readonly string[]
}
type Named = { id: string; name: string; role: string }
/** The two signatures of an incident entry, as journaled and printed in the minutes. */
export interface IncidentSignatures {
  jefeMesa: Named
  director: Named
}

const named = (s: Signer): Named => ({ id: s.id, name: s.name, role: s.role })
const isDirector = (s: Signer) => isAllowed('incident.cosign', s.role as Role)
/** The jefe's side: a floor staff member who may declare incidents (jefe de mesa, de mesa-cajero or de sala), not a director. */
const isJefe = (s: Signer) => isAllowed('game.incident', s.role as Role) && !isDirector(s)

/**
 * The signers of an incident entry of hall `hallId` under its profile. `declarer` is the jefe who declared it (or who
 * authorised a locutor to, issue 14 point 7); `cosigner` the second person who typed their own credential. One of
 * the two is the Director de Bingo and the other a jefe; the same person never signs twice, and two directors do
 * not make an entry: the Jefe de Mesa's signature would be missing (BNG-74, BNG-94).
 *
 * null when the profile names no co-signer (Cantabria), when the server itself declared the incident (a reader
 * fault: the printed minutes keep both signature lines blank to sign by hand), or when authentication is off
 * (`anonymous`: local experiments and tests that say so).
 */
export function incidentSignatures(
  cosign: Profile['incidentCosign'],
  hallId: string,
  declarer: Signer,
  cosigner: Signer | undefined,
): IncidentSignatures | null {
  if (cosign === 'none' || declarer.kind === 'system' || declarer.kind === 'anonymous') return null
  const refuse = (why: string) => new DomainError('SECOND_PERSON_REQUIRED', why, { rule: 'BNG-74', field: 'confirm' })
  if (!cosigner)
    throw refuse(
      'an incident entry is signed by the jefe de mesa and the director de bingo: the second one confirms with their own credential (BNG-74)',
    )
  if (cosigner.kind !== 'person') throw refuse('the co-signer must be a person with a username and password (BNG-74)')
  if (cosigner.id === declarer.id)
    throw refuse('the co-signer must be someone other than the jefe who declares the incident (BNG-74)')
  // Issue 14 point 1: the director of another hall does not sign this hall's minutes.
  if (cosigner.halls && cosigner.halls !== '*' && !cosigner.halls.includes(hallId))
    throw new DomainError('WRONG_HALL', `the co-signer does not act in hall ${hallId}`, { rule: 'BNG-74', hallId })
  if (isJefe(declarer) && isDirector(cosigner)) return { jefeMesa: named(declarer), director: named(cosigner) }
  if (isDirector(declarer) && isJefe(cosigner)) return { jefeMesa: named(cosigner), director: named(declarer) }
  throw refuse(
    `an incident entry needs one jefe and the director de bingo; ${declarer.role} and ${cosigner.role} cannot sign it together (BNG-74)`,
  )
}
