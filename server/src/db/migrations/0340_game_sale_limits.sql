-- CFG-7 (002 §1.2.1.1 "respecto de cada juego"): a game's own minimum and maximum bets, within its hall's, and per
-- sale channel where the Plan de Apuestas sets them; JSON of bingo/sale-rules.ts GameSaleLimits, newest version.
CREATE TABLE game_sale_limits (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  limits TEXT NOT NULL,
  authorisation_ref TEXT,
  set_at TEXT NOT NULL,
  set_by TEXT NOT NULL
);
