-- Issue 24 point 1 (GEN-13: a voucher's value leaves the house once): the journal record that seals a voucher's row
-- as spent names that voucher, so the spend, the kiosk purchase, the terminal's load and the cash-out find the
-- journal's latest record of the voucher in one index probe (no scan of a hall's records) and refuse a row put back
-- from an older copy of the file (ROW_TAMPERED). The column is outside the hashed content (DESIGN.md "Journal": the
-- chain and old journals verify as before); verify-journal checks that it names a voucher the record's hashed
-- payload seals. Records written before this migration name none (the journal is append-only).
ALTER TABLE journal ADD COLUMN voucher_id TEXT;
CREATE INDEX journal_voucher ON journal (voucher_id, seq) WHERE voucher_id IS NOT NULL;
