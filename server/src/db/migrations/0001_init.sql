-- Bolillo schema v1: halls, master card sets, series, sessions, games, sold cards, balls, claims, prizes, journal.
-- Standard SQL only (TEXT, INTEGER, BIGINT) so that the PostgreSQL engine can run the same file.

CREATE TABLE halls (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  playing_positions INTEGER NOT NULL,
  settings TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE master_sets (
  id TEXT PRIMARY KEY,
  seed TEXT NOT NULL,
  card_count INTEGER NOT NULL,
  layout TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- BNG-13: card number k has the same numbers in every series printed from a master set; no two equal cards in a set.
CREATE TABLE master_cards (
  set_id TEXT NOT NULL REFERENCES master_sets(id),
  card_no INTEGER NOT NULL,
  numbers TEXT NOT NULL,
  card_key TEXT NOT NULL,
  PRIMARY KEY (set_id, card_no),
  UNIQUE (set_id, card_key)
);

CREATE TABLE series (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  code TEXT NOT NULL,
  master_set_id TEXT NOT NULL REFERENCES master_sets(id),
  card_count INTEGER NOT NULL,
  face_value_cents BIGINT NOT NULL,
  next_card_no INTEGER NOT NULL,
  last_sold_at TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (hall_id, code),
  CHECK (next_card_no >= 1 AND next_card_no <= card_count + 1),
  CHECK (face_value_cents > 0)
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  status TEXT NOT NULL,
  last_game_announced INTEGER NOT NULL DEFAULT 0,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  open_recount TEXT,
  close_recount TEXT
);

CREATE TABLE games (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  order_no INTEGER NOT NULL,
  status TEXT NOT NULL,
  suspended_from TEXT,
  face_value_cents BIGINT NOT NULL,
  ball_count INTEGER NOT NULL,
  layout TEXT NOT NULL,
  line_bp INTEGER NOT NULL,
  bingo_bp INTEGER NOT NULL,
  draw_source TEXT NOT NULL,
  commitment TEXT NOT NULL,
  seed_hex TEXT NOT NULL,
  sales_digest TEXT,
  external_entropy TEXT,
  draw_order TEXT,
  cards_sold INTEGER NOT NULL DEFAULT 0,
  line_pool_cents BIGINT,
  bingo_pool_cents BIGINT,
  line_closed INTEGER NOT NULL DEFAULT 0,
  window_kind TEXT,
  is_last_game INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  sales_opened_at TEXT,
  sales_closed_at TEXT,
  first_ball_at TEXT,
  finished_at TEXT,
  void_reason TEXT,
  UNIQUE (session_id, order_no)
);

-- BNG-13: the series of a game, in order (position 1 = first series), with the range actually sold.
CREATE TABLE game_series (
  game_id TEXT NOT NULL REFERENCES games(id),
  series_id TEXT NOT NULL REFERENCES series(id),
  position INTEGER NOT NULL,
  start_card_no INTEGER NOT NULL,
  end_card_no INTEGER NOT NULL,
  max_card_no INTEGER NOT NULL,
  PRIMARY KEY (game_id, series_id),
  UNIQUE (game_id, position)
);

-- Sold cards. The UNIQUE on (game_id, card_key) is the constraint that no two equal cards are ever sold in one game.
CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL REFERENCES games(id),
  series_id TEXT NOT NULL REFERENCES series(id),
  card_no INTEGER NOT NULL,
  serial TEXT NOT NULL,
  master_set_id TEXT NOT NULL,
  card_key TEXT NOT NULL,
  numbers TEXT NOT NULL,
  status TEXT NOT NULL,
  channel TEXT NOT NULL,
  sold_at TEXT NOT NULL,
  UNIQUE (game_id, serial),
  UNIQUE (game_id, card_key),
  UNIQUE (series_id, card_no)
);

-- BNG-33: the extraction order, immutable; a ball never repeats in a game.
CREATE TABLE balls (
  game_id TEXT NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  ball INTEGER NOT NULL,
  source TEXT NOT NULL,
  device_id TEXT,
  called_at TEXT NOT NULL,
  PRIMARY KEY (game_id, seq),
  UNIQUE (game_id, ball)
);

CREATE TABLE claims (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL REFERENCES games(id),
  card_id TEXT,
  serial TEXT NOT NULL,
  kind TEXT NOT NULL,
  at_ball INTEGER NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  automatic INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

-- A card wins each prize kind at most once per game.
CREATE TABLE prizes (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL REFERENCES games(id),
  card_id TEXT NOT NULL REFERENCES cards(id),
  kind TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  at_ball INTEGER NOT NULL,
  status TEXT NOT NULL,
  awarded_at TEXT NOT NULL,
  paid_at TEXT,
  paid_by TEXT,
  UNIQUE (game_id, card_id, kind)
);

-- BNG-48: where staff may not learn of undeclared winners, the server records silently when a card first won.
CREATE TABLE silent_wins (
  game_id TEXT NOT NULL REFERENCES games(id),
  card_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  at_ball INTEGER NOT NULL,
  PRIMARY KEY (game_id, card_id, kind)
);

CREATE TABLE incidents (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  game_id TEXT,
  kind TEXT NOT NULL,
  outcome TEXT NOT NULL,
  note TEXT NOT NULL,
  rule TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- DESIGN.md "Journal": append-only and hash-chained.
CREATE TABLE journal (
  seq BIGINT PRIMARY KEY,
  at TEXT NOT NULL,
  type TEXT NOT NULL,
  scope TEXT NOT NULL,
  payload TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);

CREATE INDEX journal_scope ON journal (scope);
CREATE INDEX cards_game ON cards (game_id, status);
CREATE INDEX games_session ON games (session_id);
