-- LNS-9 / LOT-18: the operator's ball-set registry serves numbered lotteries too. A lotto set ('range') holds the balls
-- 1..ball_count; a lottery set ('digits') holds the digit balls 0-9 of each of its `drums` drums, one drum per digit
-- of the ticket number. A set is retired (worn, damaged) with who, when and why, and no new draw takes it.
ALTER TABLE lotto_ball_sets ADD COLUMN kind TEXT NOT NULL DEFAULT 'range';
ALTER TABLE lotto_ball_sets ADD COLUMN drums INTEGER;
ALTER TABLE lotto_ball_sets ADD COLUMN retired_at TEXT;
ALTER TABLE lotto_ball_sets ADD COLUMN retired_by TEXT;
ALTER TABLE lotto_ball_sets ADD COLUMN retire_reason TEXT;
