-- Issue 24 point 6 (GEN-16, GEN-17, GEN-23, GEN-27): one person, one key. The document is kept as typed for
-- display; the key (shared/identity.ts: case, spaces, punctuation and the Bolivian issuing department dropped) is
-- what every match of a person reads. SQL cannot drop a department suffix, so the keys of rows written before
-- this migration are filled in at startup (access/players.ts backfillIdentityKeys) where they are still null.
ALTER TABLE player_exclusions ADD COLUMN document_key TEXT;
CREATE INDEX player_exclusions_document_key ON player_exclusions (document_key);
ALTER TABLE aml_reports ADD COLUMN buyer_key TEXT;
-- The cash intake a record was opened on (a voucher sale or a counter sale); voucher_id is '' for a counter sale.
ALTER TABLE aml_reports ADD COLUMN intake_id TEXT;

-- GEN-17: every cash intake at a drawer with its denominations (small notes and coins against the rest), and the
-- buyer when recorded: a voucher sold at the till (source 'voucher', ref_id the voucher) or a counter sale of cards,
-- slips, raffle or instant tickets (source 'counter_sale', ref_id the sale). counted = 0: the cashier did not
-- count the notes (only allowed up to the GEN-17 limit), and the whole amount counts as small in the buyer's day.
CREATE TABLE cash_intakes (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  source TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  counted INTEGER NOT NULL,
  small_cents BIGINT,
  other_cents BIGINT,
  buyer_document TEXT,
  buyer_key TEXT,
  at TEXT NOT NULL,
  CHECK (source IN ('voucher', 'counter_sale')),
  CHECK (counted IN (0, 1)),
  CHECK (counted = 0 OR small_cents + other_cents = amount_cents),
  UNIQUE (source, ref_id)
);
CREATE INDEX cash_intakes_buyer ON cash_intakes (buyer_key, hall_id, at);

-- The intakes before this migration: the vouchers sold at the till (counted), the counter sales (not counted).
INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at)
  SELECT 'ci_' || id, hall_id, station_id, issued_by, 'voucher', id, amount_cents, currency, 1, small_cents, other_cents, buyer_document, NULL, issued_at
  FROM vouchers WHERE origin = 'cashier';
INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at)
  SELECT 'ci_' || id, hall_id, station_id, cashier_id, 'counter_sale', ref_id, amount_cents, currency, 0, NULL, NULL, NULL, NULL, at
  FROM cash_movements WHERE kind = 'counter_sale';
