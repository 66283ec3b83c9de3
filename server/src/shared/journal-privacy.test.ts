import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generateKeyPairSync } from 'node:crypto'
import {
  MASKED_DOCUMENT,
  protectDocument,
  revealDocuments,
  scrubJournalPayload,
  withoutBearerCodes,
} from './journal-privacy.ts'
import { createSealer, sealingKeyFromBytes } from './sealing.ts'
import { encodeTicketCode, TicketKind } from './ticket-code.ts'

/** Issue 24 point 2: what the journal keeps of bearer codes and identity documents. */
describe('journal privacy', () => {
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  const other = createSealer(sealingKeyFromBytes(randomBytes(32)))
  const { privateKey } = generateKeyPairSync('ed25519')
  const card = encodeTicketCode({ kind: TicketKind.card, id: 'c_abc123' }, privateKey)
  const instant = encodeTicketCode({ kind: TicketKind.instant, id: '0880000001ABCDEFGHJKLMN2' }, privateKey)

  it('cuts a signed code to its kind and id, and an instant code (whose id is its validation code) to its kind', () => {
    expect(withoutBearerCodes(`code ${card} belongs to hall h_2`)).toBe('code BLL1.C.c_abc123 belongs to hall h_2')
    expect(withoutBearerCodes(`[${instant}]`)).toBe('[BLL1.I]')
    expect(withoutBearerCodes('BLL1.C.c_abc123')).toBe('BLL1.C.c_abc123')
  })

  it('scrubs codes at any depth and masks a document given in clear, leaving other fields and protected documents alone', () => {
    const doc = protectDocument(sealer, '4455667 LP')!
    const payload = {
      reason: `voucherCode ${card} of hall h_1`,
      nested: [{ path: card }],
      payeeDocument: '998877 CB',
      buyer: { document: doc },
      amountCents: 500,
      documents: ['plan-v2'],
    }
    const out = scrubJournalPayload(payload)
    expect(out).toEqual({
      reason: 'voucherCode BLL1.C.c_abc123 of hall h_1',
      nested: [{ path: 'BLL1.C.c_abc123' }],
      payeeDocument: MASKED_DOCUMENT,
      buyer: { document: doc },
      amountCents: 500,
      documents: ['plan-v2'],
    })
    expect(JSON.stringify(out)).not.toMatch(/998877|4455667/)
    const clean = { a: 1, b: ['x'] }
    expect(scrubJournalPayload(clean)).toBe(clean)
  })

  it('seals a document with a keyed tag that matches the same document however typed, and opens it only for a reader with the key', () => {
    const a = protectDocument(sealer, '4455667 LP')!
    const b = protectDocument(sealer, '4455667-lp')!
    expect(a.tag).toBe(b.tag)
    expect(a.sealed).not.toBe(b.sealed)
    expect(protectDocument(other, '4455667 LP')!.tag).not.toBe(a.tag)
    expect(protectDocument(sealer, null)).toBeNull()
    expect(JSON.stringify(a)).not.toContain('4455667')
    expect(revealDocuments({ payee: a }, sealer)).toEqual({
      payee: { protected: 'identity-document', tag: a.tag, value: '4455667 LP' },
    })
    expect(revealDocuments({ payee: a }, null)).toEqual({
      payee: { protected: 'identity-document', tag: a.tag, value: MASKED_DOCUMENT },
    })
    // Sealed under another key (a restored copy, a forged value): masked, never an error for the reader.
    expect(revealDocuments({ payee: a }, other)).toEqual({
      payee: { protected: 'identity-document', tag: a.tag, value: MASKED_DOCUMENT },
    })
  })
})
