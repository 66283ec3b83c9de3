// Issue 24 point 6 (GEN-16, GEN-17, GEN-27): one person, one key, whatever the spelling of the document.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { assertAcceptedDocument, documentKindOf, identityKey, type IdentityCountry } from './identity.ts'
import { BOLIVIA_2013, BOLIVIA_2025, CANTABRIA_2010 } from './profile.ts'
import { sameDocument } from '../lotto/payouts.ts'

const COUNTRIES: Array<IdentityCountry | null> = [null, 'BO', 'ES', 'CL']
const DEPARTMENTS = [
  'LP',
  'CB',
  'SC',
  'OR',
  'PT',
  'CH',
  'TJ',
  'BE',
  'PD',
  'La Paz',
  'Cochabamba',
  'Santa Cruz',
  'Oruro',
  'Potosí',
  'Chuquisaca',
  'Tarija',
  'Beni',
  'Pando',
]

/** A spelling of the same document: letters in either case, separators (spaces, dots, dashes) anywhere. */
const spell = (canonical: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: canonical.length, maxLength: canonical.length }),
      fc.array(fc.constantFrom('', '', '', ' ', '-', '.', '/', '  '), {
        minLength: canonical.length + 1,
        maxLength: canonical.length + 1,
      }),
    )
    .map(
      ([lower, seps]) =>
        seps[0] + [...canonical].map((ch, i) => (lower[i] ? ch.toLowerCase() : ch) + seps[i + 1]).join(''),
    )

const ciNumber = fc.integer({ min: 1000, max: 99_999_999 }).map(String)
const complement = fc.option(
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(...'ABCDEFGHJK')).map(([d, l]) => `${d}${l}`),
  { nil: '' },
)
const dni = fc
  .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(...'TRWAGMYFPDXBNJZSQVHLCKE'))
  .map(([n, l]) => `${String(n).padStart(8, '0')}${l}`)
const nie = fc
  .tuple(
    fc.constantFrom('X', 'Y', 'Z'),
    fc.integer({ min: 0, max: 9_999_999 }),
    fc.constantFrom(...'TRWAGMYFPDXBNJZSQVHLCKE'),
  )
  .map(([p, n, l]) => `${p}${String(n).padStart(7, '0')}${l}`)
const rut = fc
  .tuple(fc.integer({ min: 1_000_000, max: 99_999_999 }), fc.constantFrom(...'0123456789K'))
  .map(([n, d]) => `${n}${d}`)
const anyDocument = fc.oneof(ciNumber, dni, nie, rut, fc.string({ maxLength: 30 }))

describe('identityKey', () => {
  it('the three spellings of issue 24 point 6 are one person', () => {
    const keys = [
      '4567890 LP',
      '4567890-lp',
      ' 4567890lp',
      '4567890 La Paz',
      '4567890 exp. LP',
      '4.567.890',
      'CI 4567890 LP',
      'C.I. 4567890-LP',
    ].map((d) => identityKey(d, 'BO'))
    expect(new Set(keys)).toEqual(new Set(['4567890']))
    expect(identityKey('4567890-1A LP', 'BO')).toBe('45678901A')
    expect(identityKey('4567890-1A', null)).not.toBe(identityKey('4567890', null))
    expect(identityKey('1234567z', 'ES')).toBe('01234567Z')
    expect(identityKey('x-1234567-l', 'ES')).toBe('X1234567L')
    expect(identityKey('12.345.678-k', 'CL')).toBe('12345678K')
    expect(identityKey('DNI 12345678-z', 'ES')).toBe('12345678Z')
    expect(identityKey('CICI4567890', null)).toBe(identityKey(identityKey('CICI4567890', null), null))
  })

  it('is idempotent in every jurisdiction', () => {
    fc.assert(
      fc.property(anyDocument, fc.constantFrom(...COUNTRIES), (d, country) => {
        const k = identityKey(d, country)
        expect(identityKey(k, country)).toBe(k)
      }),
      { numRuns: 500 },
    )
  })

  it('a Bolivian CI is one key whatever its case, spacing, punctuation and issuing department (BO and generic)', () => {
    const spelled = fc
      .tuple(ciNumber, complement)
      .chain(([n, c]) =>
        fc.tuple(
          fc.constant(`${n}${c}`),
          spell(`${n}${c}`),
          fc.constantFrom('', ...DEPARTMENTS),
          fc.constantFrom(' ', '-', ' exp. ', ' expedido en ', ''),
        ),
      )
    fc.assert(
      fc.property(spelled, fc.constantFrom<'BO' | null>('BO', null), ([canonical, s, dep, sep], country) => {
        expect(identityKey(dep ? `${s}${sep}${dep}` : s, country)).toBe(identityKey(canonical, country))
        expect(identityKey(canonical, country)).toBe(canonical)
      }),
      { numRuns: 1000 },
    )
  })

  it('a Spanish DNI/NIE and a Chilean RUT are one key whatever their case, spacing and punctuation', () => {
    fc.assert(
      fc.property(
        fc.oneof(dni, nie).chain((d) => fc.tuple(fc.constant(d), spell(d))),
        ([d, s]) => {
          expect(identityKey(s, 'ES')).toBe(identityKey(d, 'ES'))
        },
      ),
      { numRuns: 1000 },
    )
    fc.assert(
      fc.property(
        rut.chain((r) => fc.tuple(fc.constant(r), spell(r))),
        ([r, s]) => {
          expect(identityKey(s, 'CL')).toBe(identityKey(r, 'CL'))
          expect(identityKey(s, null)).toBe(identityKey(r, null))
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('distinct documents stay distinct', () => {
    // Two CIs with different numbers or complements; two DNIs/NIEs; two RUTs (the check digit counts).
    fc.assert(
      fc.property(
        fc.tuple(ciNumber, complement),
        fc.tuple(ciNumber, complement),
        fc.constantFrom<'BO' | null>('BO', null),
        ([n1, c1], [n2, c2], country) => {
          fc.pre(`${n1}${c1}` !== `${n2}${c2}`)
          expect(identityKey(`${n1}-${c1} LP`, country)).not.toBe(identityKey(`${n2}-${c2} LP`, country))
        },
      ),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(fc.oneof(dni, nie), fc.oneof(dni, nie), (a, b) => {
        fc.pre(a !== b)
        expect(identityKey(a, 'ES')).not.toBe(identityKey(b, 'ES'))
        expect(identityKey(a, null)).not.toBe(identityKey(b, null))
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(rut, rut, fc.constantFrom<'CL' | null>('CL', null), (a, b, country) => {
        fc.pre(a !== b)
        expect(identityKey(a, country)).not.toBe(identityKey(b, country))
      }),
      { numRuns: 500 },
    )
  })
})

describe('payee is buyer (GEN-16, GEN-26) by the key', () => {
  it('a named lotto receipt is paid to its buyer under any spelling of the CI, not to another CI or complement', () => {
    expect(sameDocument('4567890 LP', 'CI 4567890-lp')).toBe(true)
    expect(sameDocument('4567890', '4.567.890 Santa Cruz')).toBe(true)
    expect(sameDocument('4567890-1A', '4567890')).toBe(false)
    expect(sameDocument('4567890 LP', '4567891 LP')).toBe(false)
  })
})

describe('the kind of an identity document (CFG-5)', () => {
  it('reads a passport by its word, a CI, DNI, NIE or RUT by its label or its shape in the country, and no other', () => {
    const cases: Array<[string, 'BO' | 'ES' | 'CL', string | null]> = [
      ['4455667 LP', 'BO', 'ci'],
      ['CI 7.654.321-1A Exp. La Paz', 'BO', 'ci'],
      ['Pasaporte A1234567', 'BO', 'passport'],
      ['PAS 123456', 'ES', 'passport'],
      ['Licencia de conducir 4455667', 'BO', null],
      ['NIT 1020304050', 'BO', null],
      ['ABCDEF', 'BO', null],
      ['12345678Z', 'ES', 'dni'],
      ['X1234567L', 'ES', 'nie'],
      ['DNI 1234567-L', 'ES', 'dni'],
      ['4455667 LP', 'ES', null],
      ['12.345.678-K', 'CL', 'rut'],
      ['A1234567', 'BO', null],
    ]
    for (const [doc, country, kind] of cases) expect(documentKindOf(doc, country), `${doc} in ${country}`).toBe(kind)
  })

  it('refuses a kind the profile does not take, naming the field; an empty document is not judged here', () => {
    expect(() => assertAcceptedDocument(BOLIVIA_2025, 'Licencia 445566', 'payeeDocument')).toThrow(
      expect.objectContaining({
        code: 'IDENTITY_DOCUMENT_NOT_ACCEPTED',
        details: expect.objectContaining({ field: 'payeeDocument', rule: 'CFG-5' }),
      }),
    )
    expect(() => assertAcceptedDocument(CANTABRIA_2010, 'CI 4455667 LP', 'buyerDocument')).toThrow(/CFG-5/)
    expect(() => assertAcceptedDocument(CANTABRIA_2010, 'X1234567L', 'buyerDocument')).not.toThrow()
    expect(() => assertAcceptedDocument(BOLIVIA_2013, 'Pasaporte A1234567', 'buyerDocument')).not.toThrow()
    expect(() => assertAcceptedDocument(BOLIVIA_2025, '  ', 'buyerDocument')).not.toThrow()
  })
})
