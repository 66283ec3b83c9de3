-- bolillo-draw-v2 and sealed secrets for lotto, numbered lotteries and raffles (DESIGN.md "Draw proof
-- bolillo-draw-v2", "Sealed secrets"). A new draw's seed is kept only sealed (seed_sealed) until the draw has
-- ended; seed_hex then holds the revealed seed (it is '' before). Draws planned before this migration keep their
-- clear seed_hex and their v1 external entropy.
ALTER TABLE lottery_draws ADD COLUMN seed_sealed TEXT;
-- RNG-32: the source that produced the seed.
ALTER TABLE lottery_draws ADD COLUMN entropy_source TEXT;
-- R = roundAt(close of sales) + 2, fixed and journaled at the close.
ALTER TABLE lottery_draws ADD COLUMN beacon_round BIGINT;
-- The verified beacon round (JSON: round, signature, randomness, scheme, chainHash, publicKey, source).
ALTER TABLE lottery_draws ADD COLUMN beacon TEXT;
-- A range taken out of play after the close of sales is blocked from payment but leaves the draw's list (and D) alone.
ALTER TABLE lottery_ranges ADD COLUMN after_close INTEGER NOT NULL DEFAULT 0;
