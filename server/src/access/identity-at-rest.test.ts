// Issue 24 points 2 and 6: rows written by an older version (exclusions keyed by the old spelling rule or not keyed,
// cash intakes copied from the vouchers with a key in clear or none, complaints and payees in clear, cards whose
// player is the document's key) are sealed and keyed once at startup: the documents no longer readable in the
// database, and the people they name matched at once by every spelling.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { createPlayerAdmission } from './players.ts'
import { sealIdentitiesAtRest } from './identity-at-rest.ts'
import { createSealer, sealingKeyFromBytes } from '../shared/sealing.ts'
import { DOCUMENT_AT_REST_PREFIX, identityKeyAtRest } from '../shared/document-at-rest.ts'

describe('identity documents and keys from before they were sealed', () => {
  it('are sealed and keyed at startup, once, and the old rows then match every spelling', async () => {
    const db = await openTestDatabase()
    const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
    try {
      const at = '2030-03-12T15:00:00.000Z'
      // An exclusion as the old code wrote it: the document already squeezed ("CI4567890LP"), no key.
      await db.run(
        "INSERT INTO player_exclusions (id, document, name, kind, reason, created_by, created_at) VALUES ('px_old', 'CI4567890LP', 'Juan Pérez', 'self_excluded', 'autoexclusión', 'oficial', ?)",
        [at],
      )
      // Cash intakes: a buyer as typed with no key, one keyed in clear (the normalised number), one without a buyer.
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_a', 'h', 's', 'c', 'voucher', 'v_a', 100, 'BOB', 1, 100, 0, '4567890 lp', NULL, ?)",
        [at],
      )
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_b', 'h', 's', 'c', 'voucher', 'v_b', 100, 'BOB', 1, 100, 0, '4567890-CB', '4567890', ?)",
        [at],
      )
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_c', 'h', 's', 'c', 'counter_sale', 'cs_c', 100, 'BOB', 0, NULL, NULL, NULL, NULL, ?)",
        [at],
      )
      const first = await sealIdentitiesAtRest(db, sealer, 'BO', () => at)
      expect(first.converted).toMatchObject({ player_exclusions: 1, cash_intakes: 2 })
      expect(first.tampered).toEqual([])
      // Idempotent: nothing is left to convert.
      expect((await sealIdentitiesAtRest(db, sealer, 'BO', () => at)).converted).toEqual({})

      const person = identityKeyAtRest(sealer, '4567890')
      const intakes = await db.all<{ id: string; buyer_document: string | null; buyer_key: string | null }>(
        'SELECT id, buyer_document, buyer_key FROM cash_intakes ORDER BY id',
      )
      expect(intakes.map((k) => [k.id, k.buyer_key])).toEqual([
        ['ci_a', person],
        ['ci_b', person],
        ['ci_c', null],
      ])
      for (const k of intakes.slice(0, 2)) expect(k.buyer_document!.startsWith(DOCUMENT_AT_REST_PREFIX)).toBe(true)
      const ex = await db.get<{ document: string; name: string; document_key: string }>(
        "SELECT document, name, document_key FROM player_exclusions WHERE id = 'px_old'",
      )
      expect(ex!.document_key).toBe(person)
      expect(ex!.document).not.toContain('4567890')
      expect(ex!.name).not.toContain('Pérez')

      const players = createPlayerAdmission({ db, clock: { now: () => new Date(at) }, country: 'BO', sealer })
      await expect(players.assertAdmitted(['4567890-La Paz'], null)).rejects.toMatchObject({ code: 'PLAYER_EXCLUDED' })
      await expect(players.assertAdmitted(['4567891 LP'], null)).resolves.toBeUndefined()
      // The officer's list shows the person as recorded, opened.
      expect((await players.list())[0]).toMatchObject({
        document: 'CI4567890LP',
        name: 'Juan Pérez',
        documentKey: '4567890',
      })
    } finally {
      await db.close()
    }
  })
})
