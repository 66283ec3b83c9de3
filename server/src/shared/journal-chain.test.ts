import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from './errors.ts'
import {
  chainOfScope,
  nextChainRecord,
  GENESIS_HASH,
  canonicalJson,
  createChainVerifier,
  hashRecord,
  nextRecord,
  verifyChain,
  type JournalEntry,
  type JournalRecord,
} from './journal-chain.ts'

const entryArb: fc.Arbitrary<JournalEntry> = fc.record({
  at: fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms).toISOString()),
  type: fc.constantFrom('ticket.sold', 'ticket.voided', 'sales.closed', 'ball.called', 'claim.verified', 'payout.made'),
  scope: fc.constantFrom('', 'hall:1', 'hall:1/session:2', 'hall:1/session:2/game:3'),
  payload: fc.jsonValue(),
})
const chainArb = fc.array(entryArb, { minLength: 1, maxLength: 12 }).map(buildChain)

function buildChain(entries: JournalEntry[]): JournalRecord[] {
  const records: JournalRecord[] = []
  for (const entry of entries) records.push(nextRecord(records.at(-1) ?? null, entry))
  return records
}

const FIELDS = ['seq', 'at', 'type', 'scope', 'payload', 'prevHash', 'hash'] as const

function altered(record: JournalRecord, field: (typeof FIELDS)[number]): JournalRecord {
  const flipHex = (h: string) => (h[0] === 'a' ? 'b' : 'a') + h.slice(1)
  switch (field) {
    case 'seq':
      return { ...record, seq: record.seq + 1000 }
    case 'at':
      return {
        ...record,
        at: record.at === '2099-01-01T00:00:00.000Z' ? '2099-01-02T00:00:00.000Z' : '2099-01-01T00:00:00.000Z',
      }
    case 'type':
      return { ...record, type: `${record.type}x` }
    case 'scope':
      return { ...record, scope: `${record.scope}/x` }
    case 'payload':
      return { ...record, payload: { tampered: record.payload } }
    case 'prevHash':
      return { ...record, prevHash: flipHex(record.prevHash) }
    case 'hash':
      return { ...record, hash: flipHex(record.hash) }
  }
}

/** Rebuilds a JSON value with every object's keys in a random order. */
function shuffleKeys(value: unknown, score: (key: string) => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, score))
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => score(a) - score(b) || (a < b ? 1 : -1))
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, score)]))
  }
  return value
}

describe('canonicalJson', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true, é: -0, A: 1.5e-7 })).toBe(
      '{"A":1.5e-7,"a":true,"b":[1,{"c":"x","d":null}],"é":0}',
    )
  })

  it('does not depend on the order keys were inserted in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.func(fc.integer()), (value, score) => {
        expect(canonicalJson(shuffleKeys(value, score))).toBe(canonicalJson(value))
      }),
    )
  })

  it('survives a JSON round trip (what storage does) unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        expect(canonicalJson(JSON.parse(text))).toBe(text)
      }),
    )
  })

  it.each([
    ['undefined', undefined, /undefined at \$/],
    ['an undefined property', { a: { b: undefined } }, /undefined at \$\.a\.b/],
    ['NaN', [1, NaN], /NaN at \$\[1\]/],
    ['Infinity', { x: Infinity }, /Infinity at \$\.x/],
    ['a function', { f: () => 1 }, /function at \$\.f/],
    ['a bigint', { n: 1n }, /bigint at \$\.n/],
    ['a symbol', Symbol('s'), /symbol at \$/],
    ['a Date', { at: new Date(0) }, /Date object at \$\.at/],
    ['a Map', new Map(), /Map object at \$/],
    ['a sparse array', [1, , 3], /empty array slot at \$\[1\]/], // eslint-disable-line no-sparse-arrays
  ])('rejects %s', (_name, value, message) => {
    expect(() => canonicalJson(value)).toThrow(message)
    expect(() => canonicalJson(value)).toThrow(DomainError)
  })

  it('rejects a cycle but accepts a shared (acyclic) subtree', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(() => canonicalJson(cyclic)).toThrow(/cycle at \$\.self/)
    const shared = { x: 1 }
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}')
  })
})

describe('hashRecord and nextRecord', () => {
  it('matches recorded hashes (guards the journal format against drift)', () => {
    // Computed once and checked with Python's json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False).
    const r1 = nextRecord(null, {
      at: '2025-03-01T20:00:00.000Z',
      type: 'session.opened',
      scope: 'hall:1/session:2',
      payload: { caller: 'Ana', prices: [500, 1000] },
    })
    const r2 = nextRecord(r1, {
      at: '2025-03-01T20:05:00.000-04:00',
      type: 'ball.called',
      scope: 'hall:1/session:2/game:3',
      payload: { ball: 42, ñ: 'é' },
    })
    expect(r1).toMatchObject({
      seq: 1,
      prevHash: GENESIS_HASH,
      hash: '4221bed5e755be476f715989120ea5ae8699442bffd86fd527c79fd5a1ece18a',
    })
    expect(r2).toMatchObject({
      seq: 2,
      prevHash: r1.hash,
      hash: '6be58ae6f2d354099960b896c9daf0c403e5b7290b99138030594dc289eca4bd',
    })
    expect(hashRecord(r2)).toBe(r2.hash)
    expect(GENESIS_HASH).toBe('0'.repeat(64))
  })

  it('rejects a bad time, type, scope or payload', () => {
    const ok = { at: '2025-03-01T20:00:00Z', type: 'x', scope: '', payload: null }
    expect(nextRecord(null, ok).seq).toBe(1)
    for (const bad of [
      { ...ok, at: '2025-03-01 20:00:00' },
      { ...ok, at: 'yesterday' },
      { ...ok, type: '' },
      { ...ok, scope: undefined as unknown as string },
      { ...ok, payload: { n: NaN } },
    ]) {
      expect(() => nextRecord(null, bad)).toThrow(DomainError)
    }
  })
})

describe('verifyChain', () => {
  it('accepts an intact chain, also after a JSON round trip', () => {
    fc.assert(
      fc.property(chainArb, (records) => {
        expect(verifyChain(records)).toEqual({
          ok: true,
          count: records.length,
          lastSeq: records.length,
          lastHash: records.at(-1)!.hash,
          chains: [{ chain: 'operator', seq: records.length, hash: records.at(-1)!.hash }],
        })
        expect(verifyChain(JSON.parse(JSON.stringify(records)) as JournalRecord[]).ok).toBe(true)
      }),
    )
    expect(verifyChain([])).toEqual({ ok: true, count: 0, lastSeq: 0, lastHash: GENESIS_HASH, chains: [] })
  })

  it('detects a change to any field of any record and names that record', () => {
    fc.assert(
      fc.property(chainArb, fc.nat(), fc.constantFrom(...FIELDS), (records, pos, field) => {
        const i = pos % records.length
        const tampered = records.map((r, k) => (k === i ? altered(r, field) : r))
        const result = verifyChain(tampered)
        expect(result).toMatchObject({ ok: false, count: i, badSeq: i + 1 })
        if (!result.ok) expect(result.reason).toMatch(new RegExp(`^record ${i + 1}: `))
      }),
      { numRuns: 300 },
    )
  })

  it('detects a deleted record and names the first seq that is missing', () => {
    fc.assert(
      fc.property(
        chainArb.filter((r) => r.length >= 2),
        fc.nat(),
        (records, pos) => {
          const i = pos % (records.length - 1) // not the last one: see the head test below
          const result = verifyChain(records.filter((_, k) => k !== i))
          expect(result).toMatchObject({ ok: false, badSeq: i + 1 })
          if (!result.ok) expect(result.reason).toContain('missing')
        },
      ),
    )
  })

  it('detects records cut off at the end only against an anchored head', () => {
    const records = buildChain(fc.sample(entryArb, 5))
    const head = { seq: 5, hash: records[4].hash }
    expect(verifyChain(records.slice(0, 4)).ok).toBe(true)
    expect(verifyChain(records.slice(0, 4), { head })).toMatchObject({
      ok: false,
      badSeq: 5,
      reason: expect.stringContaining('records 5..5 are missing'),
    })
    expect(verifyChain(records, { head }).ok).toBe(true)
    expect(verifyChain(records, { head: { seq: 5, hash: records[3].hash } })).toMatchObject({ ok: false, badSeq: 5 })
  })

  it('detects two records swapped and names the first position', () => {
    fc.assert(
      fc.property(
        chainArb.filter((r) => r.length >= 2),
        fc.nat(),
        fc.nat(),
        (records, a, b) => {
          const i = a % records.length
          const j = b % records.length
          fc.pre(i !== j)
          const swapped = [...records]
          ;[swapped[i], swapped[j]] = [swapped[j], swapped[i]]
          expect(verifyChain(swapped)).toMatchObject({ ok: false, badSeq: Math.min(i, j) + 1 })
        },
      ),
    )
  })

  it('detects a repeated record', () => {
    const records = buildChain(fc.sample(entryArb, 4))
    const result = verifyChain([records[0], records[1], records[1], records[2], records[3]])
    expect(result).toMatchObject({ ok: false, count: 2, badSeq: 3, reason: expect.stringContaining('repeated') })
  })

  it('detects a record rewritten with a fresh valid hash at the next record', () => {
    const records = buildChain(fc.sample(entryArb, 5))
    const forged = nextRecord(records[1], {
      at: records[2].at,
      type: 'payout.made',
      scope: records[2].scope,
      payload: { amountCents: 999_999 },
    })
    const result = verifyChain([records[0], records[1], forged, records[3], records[4]])
    expect(result).toMatchObject({ ok: false, badSeq: 4, reason: expect.stringContaining('prevHash') })
  })

  it('reports a malformed record instead of throwing', () => {
    const records = buildChain(fc.sample(entryArb, 3))
    expect(verifyChain([records[0], { ...records[1], hash: 'nope' }])).toMatchObject({
      ok: false,
      badSeq: 2,
      reason: expect.stringContaining('hash must be'),
    })
    expect(verifyChain([records[0], null as unknown as JournalRecord])).toMatchObject({ ok: false, badSeq: 2 })
    expect(verifyChain([{ ...records[0], payload: { x: undefined } }])).toMatchObject({
      ok: false,
      badSeq: 1,
      reason: expect.stringContaining('undefined'),
    })
  })

  it('reads a one-shot stream once and stops at the first failure', () => {
    const records = buildChain(fc.sample(entryArb, 6))
    let pulled = 0
    function* cursor() {
      for (const r of records) {
        pulled++
        yield r.seq === 3 ? { ...r, type: 'forged' } : r
      }
    }
    expect(verifyChain(cursor())).toMatchObject({ ok: false, count: 2, badSeq: 3 })
    expect(pulled).toBe(3)
  })

  it('verifies a segment after a trusted checkpoint, and incrementally', () => {
    const records = buildChain(fc.sample(entryArb, 6))
    expect(verifyChain(records.slice(3), { after: { seq: 3, hash: records[2].hash } })).toMatchObject({
      ok: true,
      count: 3,
      lastSeq: 6,
    })
    expect(verifyChain(records.slice(3), { after: { seq: 3, hash: records[1].hash } })).toMatchObject({
      ok: false,
      badSeq: 4,
    })
    expect(verifyChain(records.slice(3))).toMatchObject({ ok: false, badSeq: 1 })

    const verifier = createChainVerifier()
    for (const r of records) expect(verifier.push(r)).toBeNull()
    expect(verifier.result()).toMatchObject({ ok: true, count: 6 })
  })
})

describe('one chain per scope (issue 23 point 5)', () => {
  const at = '2025-03-01T20:00:00.000Z'
  /** Records of two halls and the operator, interleaved, each chained in its own chain. */
  function journal(): JournalRecord[] {
    const heads = new Map<string, { chainSeq: number; hash: string }>()
    return ['hall:a/game:1', 'hall:b/game:2', 'hall:a/game:1', '', 'lotto:L6/sales', 'hall:b', 'hall:a'].map(
      (scope, i) => {
        const chain = chainOfScope(scope)
        const r = nextChainRecord(i + 1, heads.get(chain) ?? null, { at, type: 't', scope, payload: { i } })
        heads.set(chain, { chainSeq: r.chainSeq!, hash: r.hash })
        return r
      },
    )
  }

  it('maps scopes to chains: a hall, an operator product, else the operator', () => {
    expect(
      [
        'hall:h_1/session:2/game:3',
        'hall:h_1',
        'lotto:L6/sales',
        'instant:880',
        'lottery:artwork',
        'pot:1',
        '',
        'software:x',
      ].map(chainOfScope),
    ).toEqual(['hall:h_1', 'hall:h_1', 'lotto', 'instant', 'lottery', 'operator', 'operator', 'operator'])
  })

  it('verifies interleaved chains and reports every head', () => {
    const records = journal()
    const result = verifyChain(records)
    expect(result).toMatchObject({ ok: true, count: 7, lastSeq: 7 })
    if (result.ok)
      expect(result.chains.map((c) => [c.chain, c.seq])).toEqual([
        ['hall:a', 3],
        ['hall:b', 2],
        ['lotto', 1],
        ['operator', 1],
      ])
  })

  it('names a record edited, removed or moved between chains, with its chain', () => {
    const records = journal()
    const edited = records.map((r, i) => (i === 5 ? { ...r, payload: { i: 99 } } : r))
    expect(verifyChain(edited)).toMatchObject({ ok: false, badSeq: 6 })
    expect((verifyChain(edited) as { reason: string }).reason).toMatch(/^record 6 \(chain hall:b #2\): stored hash/)
    const removed = records.filter((_, i) => i !== 2)
    expect((verifyChain(removed) as { reason: string }).reason).toMatch(
      /chain hall:a #3\): found chain hall:a #3 where #2/,
    )
    // Moved: hall b's record relabelled as hall a's (hash recomputed), or its chain column changed alone.
    const relabelled = records.map((r, i) => (i === 5 ? { ...r, chain: 'hall:a' } : r))
    expect((verifyChain(relabelled) as { reason: string }).reason).toContain('moved between chains')
  })
})
