-- Issue 23 point 5, BNG-93: how many identified players hold cards of a game in a hall, kept as the cards are
-- recorded (bingo/store.ts insertPlayerCards), so that the seat check of a new player's purchase reads one row
-- instead of counting the distinct players among every card sold so far (a cost that grew with each sale).
-- player_cards stays the record; this is its count, filled here from it for the games already sold.
CREATE TABLE game_hall_players (
  game_id TEXT NOT NULL REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  players INTEGER NOT NULL,
  PRIMARY KEY (game_id, hall_id)
);
INSERT INTO game_hall_players (game_id, hall_id, players)
  SELECT game_id, hall_id, COUNT(DISTINCT player_key) FROM player_cards GROUP BY game_id, hall_id;
