-- Issue 18, BNG-40 / GEN-18 / CFG-16: the cards sold to an identified player (a kiosk voucher's chain, or the
-- identity document shown at a counter or table sale), one row per card, so that a player's cards in a game are
-- counted against the hall's maximum per player, the players of a game against its seats (BNG-93), and the
-- previous game's cards a player must hand back before buying again are known (BNG-15).
CREATE TABLE player_cards (
  card_id TEXT PRIMARY KEY REFERENCES cards(id),
  game_id TEXT NOT NULL REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  player_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX player_cards_game_player ON player_cards (game_id, player_key);

-- BNG-19 (Cantabria): when the reading of the game's data began; from then no one enters the hall until the game
-- ends, and no card is sold for it.
ALTER TABLE games ADD COLUMN entry_closed_at TEXT;
