// Issue 24 point 6: rows written before migration 0070 (exclusions keyed by the old spelling rule, cash intakes
// copied from the vouchers with no key) are keyed at startup, so that the people they name are matched at once.
import { describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { backfillIdentityKeys, createPlayerAdmission } from './players.ts'

describe('identity keys of rows from before migration 0070', () => {
  it('are filled at startup, only where null, and the old rows then match every spelling', async () => {
    const db = await openTestDatabase()
    try {
      const at = '2030-03-12T15:00:00.000Z'
      // An exclusion as the old code wrote it: the document already squeezed ("CI4567890LP"), no key.
      await db.run(
        "INSERT INTO player_exclusions (id, document, name, kind, reason, created_by, created_at) VALUES ('px_old', 'CI4567890LP', 'Juan Pérez', 'self_excluded', 'autoexclusión', 'oficial', ?)",
        [at],
      )
      // Cash intakes as the migration copied them: a buyer as typed, no key; one already keyed stays as it is.
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_a', 'h', 's', 'c', 'voucher', 'v_a', 100, 'BOB', 1, 100, 0, '4567890 lp', NULL, ?)",
        [at],
      )
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_b', 'h', 's', 'c', 'voucher', 'v_b', 100, 'BOB', 1, 100, 0, '999 LP', 'kept', ?)",
        [at],
      )
      await db.run(
        "INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES ('ci_c', 'h', 's', 'c', 'counter_sale', 'cs_c', 100, 'BOB', 0, NULL, NULL, NULL, NULL, ?)",
        [at],
      )
      expect(await backfillIdentityKeys(db, 'BO')).toBe(2)
      expect(await backfillIdentityKeys(db, 'BO')).toBe(0)
      const keys = await db.all<{ id: string; buyer_key: string | null }>(
        'SELECT id, buyer_key FROM cash_intakes ORDER BY id',
      )
      expect(keys.map((k) => [k.id, k.buyer_key])).toEqual([
        ['ci_a', '4567890'],
        ['ci_b', 'kept'],
        ['ci_c', null],
      ])
      expect(
        (await db.get<{ k: string }>("SELECT document_key AS k FROM player_exclusions WHERE id = 'px_old'"))?.k,
      ).toBe('4567890')
      const players = createPlayerAdmission({ db, clock: { now: () => new Date(at) }, country: 'BO' })
      await expect(players.assertAdmitted(['4567890-La Paz'], null)).rejects.toMatchObject({ code: 'PLAYER_EXCLUDED' })
      await expect(players.assertAdmitted(['4567891 LP'], null)).resolves.toBeUndefined()
    } finally {
      await db.close()
    }
  })
})
