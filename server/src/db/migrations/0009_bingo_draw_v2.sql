-- bolillo-draw-v2 for bingo games (DESIGN.md "Draw proof bolillo-draw-v2", "Sealed secrets"): the seed and the
-- draw order are kept only sealed (AES-256-GCM under a key that is not in the database); seed_hex and draw_order
-- stay for games announced under v1. The close time in whole Unix seconds fixes the beacon round; the verified
-- round (signature, randomness, scheme, chain, demo key) is stored once, before the first ball.
ALTER TABLE games ADD COLUMN seed_sealed TEXT;
ALTER TABLE games ADD COLUMN draw_order_sealed TEXT;
ALTER TABLE games ADD COLUMN closed_at_unix INTEGER;
ALTER TABLE games ADD COLUMN beacon_round INTEGER;
ALTER TABLE games ADD COLUMN beacon_signature TEXT;
ALTER TABLE games ADD COLUMN beacon_randomness TEXT;
ALTER TABLE games ADD COLUMN beacon_scheme TEXT;
ALTER TABLE games ADD COLUMN beacon_chain_hash TEXT;
ALTER TABLE games ADD COLUMN beacon_public_key TEXT;
ALTER TABLE games ADD COLUMN beacon_source TEXT;
ALTER TABLE games ADD COLUMN beacon_verified_at TEXT;
