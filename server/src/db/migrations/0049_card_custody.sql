-- Issue 18, BNG-87/88/89/92: where a sold card is after its game. No row = with the player (sold). The current
-- state is kept here, one row per card; every move is journaled with the person who made it (card.custody), so
-- the history is the journal's.
CREATE TABLE card_custody (
  card_id TEXT PRIMARY KEY REFERENCES cards(id),
  game_id TEXT NOT NULL REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  state TEXT NOT NULL,
  reason TEXT,
  authority_ref TEXT,
  changed_at TEXT NOT NULL,
  changed_by TEXT NOT NULL,
  CHECK (state IN ('returned', 'evidence', 'winner_archive', 'destroyed'))
);
CREATE INDEX card_custody_game ON card_custody (game_id, state);
