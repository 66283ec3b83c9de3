-- Issue 15: the instant prize file is never stored in clear (DESIGN.md "Sealed secrets"). A batch keeps its seed
-- (32 bytes from the entropy source), its keys (prize tags, symbols) and its pack prize counts sealed under the
-- sealing key, which is not in the database; a ticket keeps a 48-bit prize tag instead of its tier (instant/codes.ts).
-- Tickets stored with clear tiers cannot be converted here (the keys of their tags never existed): this migration
-- stops on them, through the guard table's CHECK, rather than leave a prize file in clear.
CREATE TEMP TABLE migration_0011_guard (instant_tickets_with_clear_tiers INTEGER CHECK (instant_tickets_with_clear_tiers = 0));
INSERT INTO migration_0011_guard (instant_tickets_with_clear_tiers) SELECT COUNT(*) FROM instant_tickets;
DROP TABLE migration_0011_guard;

ALTER TABLE instant_tickets DROP COLUMN tier;
ALTER TABLE instant_tickets ADD COLUMN prize_tag BIGINT NOT NULL DEFAULT 0;
ALTER TABLE instant_packs DROP COLUMN prize_counts;
ALTER TABLE instant_batches DROP COLUMN symbols_key;
-- bolillo-sealed-v1 texts (shared/sealing.ts); NULL only while a batch row is first written.
ALTER TABLE instant_batches ADD COLUMN seed_sealed TEXT;
ALTER TABLE instant_batches ADD COLUMN keys_sealed TEXT;
ALTER TABLE instant_batches ADD COLUMN pack_prizes_sealed TEXT;
