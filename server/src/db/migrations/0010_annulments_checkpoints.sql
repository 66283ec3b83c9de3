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

-- Issue 15 point 2 (DESIGN.md "Sealed secrets"): a lucky-ball seed is kept sealed (context `lucky-seed|<gameId>`);
-- seed_hex stays only for rows written before (empty for new ones). A v2 draw records the beacon round it used.
ALTER TABLE lucky_draws ADD COLUMN seed_sealed TEXT;
ALTER TABLE lucky_draws ADD COLUMN version TEXT;
ALTER TABLE lucky_draws ADD COLUMN beacon TEXT;
