-- BNG-71 (004 Bingo V.3): a prize whose winning card was not presented before the next game is recorded as such by
-- the jefe de mesa; it stays payable against the card within the claim period, and no longer halts the hall.
ALTER TABLE prizes ADD COLUMN not_presented_at TEXT;
ALTER TABLE bonus_prizes ADD COLUMN not_presented_at TEXT;
