/**
 * One person, one key (issue 24 point 6; GEN-16, GEN-17, GEN-23, GEN-25, GEN-27): the identity document a cashier
 * types is kept as typed for display, and every match of a person (AML totals, the exclusion list, payee-is-buyer,
 * the per-player card limits) is made on the key this pure function derives from it.
 *
 * Bolivia (CI, cédula de identidad). The key drops the issuing department ("LP", "CB", "SC", "OR", "PT", "CH", "TJ",
 * "BE", "PD", or spelled out, "La Paz", "Santa Cruz", optionally after "Exp."/"expedido en"): SEGIP issues CI numbers
 * that are unique nationwide, and the department only says where the card was issued, so "4567890 LP" and
 * "4567890 CB" are the same person re-issued elsewhere, not two people. Older duplicated numbers were told apart by
 * SEGIP with a complement ("4567890-1A"), which stays in the key: it is part of the number, not of the place.
 *
 * Spain (DNI, NIE): eight digits and a control letter, or X/Y/Z, seven digits and a letter; letters in upper case,
 * dashes and spaces dropped, and a DNI typed without its leading zero padded back to eight digits.
 *
 * Chile (RUT): dots and dash dropped, check digit K in upper case, leading zeros dropped.
 *
 * In every country a label typed before the number ("CI", "C.I.", "DNI", "NIE", "RUT") is dropped.
 *
 * Without a country (or another one), the generic key: accents, case, spaces and punctuation dropped, and a
 * Bolivian department suffix dropped only after a number shaped like a CI (digits, optional complement): the
 * department codes are two letters or more, so no DNI letter or RUT check digit is ever taken for one.
 */

import { DomainError } from './errors.ts'

export type IdentityCountry = 'BO' | 'ES' | 'CL'

const DEPARTMENTS = [
  'LAPAZ',
  'COCHABAMBA',
  'SANTACRUZ',
  'ORURO',
  'POTOSI',
  'CHUQUISACA',
  'TARIJA',
  'BENI',
  'PANDO',
  'LP',
  'CB',
  'SC',
  'OR',
  'PT',
  'CH',
  'TJ',
  'BE',
  'PD',
]
// The number (digits, then an optional complement such as "1A"), then "EXP"/"EXPEDIDOEN" and the department.
const BOLIVIAN_CI = new RegExp(
  `^(\\d{4,}(?:\\d?[A-Z])?)(?:EXPEDIDOEN|EXPEDIDO|EXPEN|EXP)?(?:${DEPARTMENTS.join('|')})$`,
)

// A label typed before the number ("CI 4567890 LP", "C.I.", "DNI", "RUT"): the kind of document, not the person.
const LABEL = /^(?:CEDULADEIDENTIDAD|CEDULA|CI|DNI|NIE|NIF|RUT|RUN)+(?=\d|[XYZ]\d)/

/** Upper case letters and digits only: accents, spaces, dots, dashes, slashes and the rest dropped; no label. */
function alphanumeric(document: string): string {
  return document
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(LABEL, '')
}

/**
 * The matching key of an identity document: equal for every spelling of one document, different for different
 * documents; idempotent (a key is its own key), so a key may be passed again where a document is expected.
 */
export function identityKey(document: string, country: IdentityCountry | null = null): string {
  const s = alphanumeric(document)
  if (country === 'ES') {
    const dni = /^(\d{1,8})([A-Z])$/.exec(s)
    return dni ? dni[1].padStart(8, '0') + dni[2] : s
  }
  if (country === 'CL') {
    const rut = /^0*(\d{1,9}[0-9K])$/.exec(s)
    return rut ? rut[1] : s
  }
  const ci = BOLIVIAN_CI.exec(s)
  return ci ? ci[1] : s
}

/**
 * CFG-5: the kinds of identity document a hall may take (profile `identityDocuments`). A cédula de identidad
 * (Bolivia), a DNI or NIE (Spain), a RUT (Chile), a passport anywhere.
 */
export type IdentityDocumentKind = 'ci' | 'passport' | 'dni' | 'nie' | 'rut'

// A passport is typed with its word before its number ("Pasaporte A1234567", "PAS 123456", "Passport X123"): its
// number alone has no shape that tells it from another document.
const PASSPORT = /^(?:PASAPORTE|PASSPORT|PAS)(?=[A-Z0-9])([A-Z0-9]{5,15})$/
// A CI's shape: its number, an optional complement, an optional department it was issued in.
const CI_SHAPE = new RegExp(`^\\d+(?:\\d?[A-Z])?(?:EXPEDIDOEN|EXPEDIDO|EXPEN|EXP)?(?:${DEPARTMENTS.join('|')})?$`)
// A label typed before a number that names a document no profile takes for an identity: a driving licence, a
// student or military card, a tax number.
const OTHER_DOCUMENT = /^(?:LICENCIA|LICENCIADECONDUCIR|BREVET|CARNET|CARNE|LIBRETA|NIT|RUC|CUIT|SEGURO)/

/**
 * CFG-5: the kind of identity document a typed document is, read from its label (a passport always names itself) or,
 * without one, from its shape in the hall's country: digits with an optional complement and department is a
 * Bolivian CI; eight digits and a letter a DNI, X/Y/Z, seven digits and a letter a NIE; digits and a check digit a
 * RUT. null: a document of no kind known here (a driving licence, a tax number, letters with no number).
 */
export function documentKindOf(document: string, country: IdentityCountry | null): IdentityDocumentKind | null {
  const raw = document
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
  if (PASSPORT.test(raw)) return 'passport'
  if (OTHER_DOCUMENT.test(raw)) return null
  const labelled = /^(CEDULADEIDENTIDAD|CEDULA|CI|DNI|NIE|NIF|RUT|RUN)(?=\d|[XYZ]\d)/.exec(raw)?.[1] ?? null
  const s = alphanumeric(document)
  if (!/\d/.test(s)) return null
  const isCi = CI_SHAPE.test(s)
  const isNie = /^[XYZ]\d{7}[A-Z]$/.test(s)
  const isDni = /^\d{1,8}[A-Z]$/.test(s)
  const isRut = /^\d{1,9}[0-9K]$/.test(s)
  if (labelled === 'NIE') return isNie ? 'nie' : null
  if (labelled === 'DNI' || labelled === 'NIF') return isDni ? 'dni' : isNie ? 'nie' : null
  if (labelled === 'RUT' || labelled === 'RUN') return isRut ? 'rut' : null
  if (labelled) return isCi ? 'ci' : null
  if (country === 'ES') return isNie ? 'nie' : isDni ? 'dni' : null
  if (country === 'CL') return isRut ? 'rut' : null
  return isCi ? 'ci' : null
}

/**
 * CFG-5: refuses a typed identity document that is none of the kinds the hall's profile accepts, naming the field
 * it came in (buyerDocument, payeeDocument). An empty document is not judged here: whether one is required is each
 * rule's own question (GEN-17, GEN-25, BNG-55).
 */
export function assertAcceptedDocument(
  profile: {
    identityCountry: IdentityCountry
    identityDocuments: { kinds: readonly IdentityDocumentKind[]; rule: string }
  },
  document: string | null | undefined,
  field: string,
): void {
  const typed = document?.trim()
  if (!typed) return
  const kind = documentKindOf(typed, profile.identityCountry)
  if (kind && profile.identityDocuments.kinds.includes(kind)) return
  throw new DomainError(
    'IDENTITY_DOCUMENT_NOT_ACCEPTED',
    `this hall takes a player's identity from ${profile.identityDocuments.kinds.join(', ')} only (CFG-5: ${profile.identityDocuments.rule}); the document typed is ${kind ?? 'none of them'}`,
    { field, kind, accepted: profile.identityDocuments.kinds, rule: 'CFG-5' },
  )
}
