-- Issue 27 (BNG-101, BNG-9, CFG-33): electronic bingo on hall terminals.
-- A hall's terms for its terminals, under the reference of the authority that set them (profile.electronicBingo).
CREATE TABLE terminal_terms (
  hall_id TEXT PRIMARY KEY REFERENCES halls(id),
  reference TEXT NOT NULL,
  terms TEXT NOT NULL,
  set_at TEXT NOT NULL,
  set_by TEXT NOT NULL
);
-- A player's session at a terminal: a cash-desk account opened by spending a credit voucher (its balance moves here,
-- never to the device), closed by a change voucher printed at the terminal or, for a lost session, at a cash desk.
CREATE TABLE terminal_sessions (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  terminal_id TEXT NOT NULL,
  voucher_id TEXT NOT NULL UNIQUE,
  currency TEXT NOT NULL,
  balance_cents BIGINT NOT NULL CHECK (balance_cents >= 0),
  spent_cents BIGINT NOT NULL DEFAULT 0,
  won_cents BIGINT NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  closed_by TEXT,
  closed_station TEXT,
  change_voucher_id TEXT
);
-- One open session per terminal at a time.
CREATE UNIQUE INDEX terminal_sessions_open ON terminal_sessions (terminal_id) WHERE status = 'open';
-- Every movement of a session's balance, in order (the journal holds the same, chained).
CREATE TABLE terminal_ledger (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES terminal_sessions(id),
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  balance_cents BIGINT NOT NULL,
  ref_id TEXT NOT NULL,
  game_id TEXT
);
CREATE INDEX terminal_ledger_session ON terminal_ledger (session_id, at);
-- The virtual cards a session holds: the only cards it may claim for, and whose prizes it is credited.
CREATE TABLE terminal_cards (
  card_id TEXT PRIMARY KEY REFERENCES cards(id),
  session_id TEXT NOT NULL REFERENCES terminal_sessions(id),
  game_id TEXT NOT NULL,
  credited_at TEXT
);
CREATE INDEX terminal_cards_session ON terminal_cards (session_id, game_id);
CREATE INDEX terminal_cards_game ON terminal_cards (game_id);
-- BNG-12: the terminals' own correlative cursor in the range of each series reserved for them (BNG-9 design note:
-- each seller may hold its own consecutive block of the series).
CREATE TABLE terminal_series_cursors (
  series_id TEXT PRIMARY KEY,
  next_card_no INTEGER NOT NULL
);
