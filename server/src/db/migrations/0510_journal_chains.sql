-- Issue 23 point 5, DESIGN.md "Journal": one hash chain per scope (hall, operator product). Records written before
-- keep their hash and stay as they are (chain NULL): they are the start of the 'operator' chain, at their seq.
ALTER TABLE journal ADD COLUMN chain TEXT;
ALTER TABLE journal ADD COLUMN chain_seq BIGINT;
CREATE UNIQUE INDEX journal_chain_seq ON journal (chain, chain_seq);
-- A checkpoint signs every chain's head (JSON: [{chain, seq, hash}]); NULL on checkpoints signed before chains.
ALTER TABLE journal_checkpoints ADD COLUMN chains TEXT;
