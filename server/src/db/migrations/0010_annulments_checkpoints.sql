-- Issue 15 point 4: a game annulled by staff names who asked, who confirmed and why (two people, BNG-97).
CREATE TABLE game_annulments (
  game_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  requested_by_id TEXT NOT NULL,
  requested_by_name TEXT NOT NULL,
  confirmed_by_id TEXT NOT NULL,
  confirmed_by_name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Issue 15 point 5, DESIGN.md "Journal": signed checkpoints of the journal head (seq, hash), one per head.
CREATE TABLE journal_checkpoints (
  seq BIGINT PRIMARY KEY,
  hash TEXT NOT NULL,
  at TEXT NOT NULL,
  key_id TEXT NOT NULL,
  signature TEXT NOT NULL,
  reason TEXT NOT NULL
);

CREATE INDEX journal_checkpoints_at ON journal_checkpoints (at);
