-- LNS-9: the operator's lotto ball sets (a hall-less registry beside the bingo ball_sets): each set of consecutive
-- numbers 1..ball_count with its reference and seal/certificate, one of each range marked as the reserve set.
-- LNS-16: a manual lotto draw records the set it was drawn with and the reserve set on hand.
CREATE TABLE lotto_ball_sets (
  id TEXT PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  ball_count INTEGER NOT NULL,
  seal_ref TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'main',
  registered_at TEXT NOT NULL,
  registered_by TEXT,
  reserve_at TEXT
);
CREATE INDEX lotto_ball_sets_count ON lotto_ball_sets (ball_count, role);
ALTER TABLE lottery_draws ADD COLUMN ball_set_id TEXT;
ALTER TABLE lottery_draws ADD COLUMN reserve_set_id TEXT;
