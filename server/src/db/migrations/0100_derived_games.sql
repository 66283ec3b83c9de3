-- Issue 26, BNG-102 / CFG-34: the derived bingo version a game is played under, fixed when the game is announced
-- (its predetermined prizes and amounts), so that the close of sales pays that plan and not the ordinary shares.
CREATE TABLE derived_games (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  plan_version INTEGER NOT NULL,
  authorisation_ref TEXT NOT NULL,
  plan TEXT NOT NULL,
  created_at TEXT NOT NULL
);
