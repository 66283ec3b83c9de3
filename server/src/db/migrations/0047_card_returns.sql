-- Issue 18, BNG-15 / BNG-88 (Bolivia): the cards of a game handed back to the hall's staff, scanned by their signed
-- code. A player whose cards of the previous game are not all here buys no cards for the next.
CREATE TABLE card_returns (
  card_id TEXT PRIMARY KEY REFERENCES cards(id),
  game_id TEXT NOT NULL REFERENCES games(id),
  returned_at TEXT NOT NULL,
  returned_by TEXT NOT NULL,
  station_id TEXT
);
