-- Issue #8: prima de bingo (BNG-57..64), progressive / interconnected / lucky-ball pots (BNG-55, BNG-66, BNG-67,
-- RNG-15..22, RNG-28), their ledgers and prizes, and simultaneous games played by several halls (BNG-100).
-- Standard SQL only (TEXT, INTEGER, BIGINT) so that SQLite and PostgreSQL run the same file.

-- The prima of a hall (CFG-29): its amounts, the amount in force, the rules, and where the cycle stands.
-- fund_cents is the balance of prima_ledger (kept here so a game reads it in one row; the tests check both agree).
CREATE TABLE prima_halls (
  hall_id TEXT PRIMARY KEY REFERENCES halls(id),
  amounts TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  deduction_bp INTEGER NOT NULL,
  min_amount_cents BIGINT NOT NULL,
  max_amount_cents BIGINT NOT NULL,
  step_cents BIGINT NOT NULL,
  base_ball_limit INTEGER NOT NULL,
  increment_per_game INTEGER NOT NULL,
  reset_policy TEXT NOT NULL,
  fund_cents BIGINT NOT NULL,
  ball_limit INTEGER NOT NULL,
  cycle_games INTEGER NOT NULL,
  unwon_games INTEGER NOT NULL,
  amount_changeable INTEGER NOT NULL,
  entries INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (amount_cents >= min_amount_cents AND amount_cents <= max_amount_cents),
  CHECK (deduction_bp >= 0 AND deduction_bp <= 10000),
  CHECK (reset_policy IN ('base', 'keep')),
  CHECK (fund_cents >= 0)
);

-- What each game of a hall announced about the prima (BNG-62, BNG-63) and how it ended.
CREATE TABLE prima_games (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  active INTEGER NOT NULL,
  amount_cents BIGINT NOT NULL,
  ball_limit INTEGER NOT NULL,
  fund_at_start_cents BIGINT NOT NULL,
  deduction_cents BIGINT,
  outcome TEXT,
  CHECK (outcome IS NULL OR outcome IN ('won', 'not_won', 'void', 'not_offered'))
);

-- Every movement of a hall's prima fund (BNG-64): deduction per game, award, reversal of a void game's deduction.
CREATE TABLE prima_ledger (
  hall_id TEXT NOT NULL REFERENCES halls(id),
  entry_no INTEGER NOT NULL,
  kind TEXT NOT NULL,
  game_id TEXT,
  amount_cents BIGINT NOT NULL,
  fund_after_cents BIGINT NOT NULL,
  detail TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (hall_id, entry_no),
  CHECK (kind IN ('deduction', 'award', 'reversal', 'payment')),
  CHECK (fund_after_cents >= 0)
);
CREATE INDEX prima_ledger_game ON prima_ledger (game_id);

-- Progressive jackpots, interconnected bonuses and lucky-ball prizes (CFG-28, CFG-30, CFG-31), with their public
-- conditions and the share of the card price that funds them.
CREATE TABLE pots (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  currency TEXT NOT NULL,
  contribution_bp INTEGER NOT NULL,
  reserve_bp INTEGER NOT NULL,
  seed_cents BIGINT NOT NULL,
  max_cents BIGINT,
  conditions TEXT NOT NULL,
  public_text TEXT NOT NULL,
  status TEXT NOT NULL,
  entries INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  CHECK (kind IN ('progressive', 'interconnected', 'lucky')),
  CHECK (contribution_bp > 0 AND contribution_bp <= 10000),
  CHECK (reserve_bp >= 0 AND reserve_bp <= 10000),
  CHECK (status IN ('active', 'closed'))
);

-- The halls whose sales fund a pot and whose winners may take it (RNG-16: the configuration of each pot).
CREATE TABLE pot_halls (
  pot_id TEXT NOT NULL REFERENCES pots(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  joined_at TEXT NOT NULL,
  PRIMARY KEY (pot_id, hall_id)
);

-- RNG-18: every movement of a pot: seed, contribution per game and hall, award, reserve transfer, payment, reversal.
-- main_cents and reserve_cents are signed movements; the displayed amount is SUM(main_cents).
-- The UNIQUE makes a game contribute (or be reversed) once per pot and hall; '' stands for "not applicable".
CREATE TABLE pot_ledger (
  pot_id TEXT NOT NULL REFERENCES pots(id),
  entry_no INTEGER NOT NULL,
  kind TEXT NOT NULL,
  game_id TEXT NOT NULL,
  hall_id TEXT NOT NULL,
  prize_id TEXT NOT NULL,
  main_cents BIGINT NOT NULL,
  reserve_cents BIGINT NOT NULL,
  detail TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (pot_id, entry_no),
  UNIQUE (pot_id, kind, game_id, hall_id, prize_id),
  CHECK (kind IN ('seed', 'contribution', 'award', 'reserve_transfer', 'payment', 'reversal', 'award_reversal'))
);
CREATE INDEX pot_ledger_game ON pot_ledger (game_id);

-- Prima, pot and lucky-ball prizes of a winning card, paid on their own (BNG-69: separate tray and receipt) with
-- the payee's name and document recorded (BNG-55, RNG-18). One per card, game and source.
CREATE TABLE bonus_prizes (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL REFERENCES games(id),
  card_id TEXT NOT NULL REFERENCES cards(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  source TEXT NOT NULL,
  pot_id TEXT NOT NULL,
  name TEXT NOT NULL,
  prize_kind TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  at_ball INTEGER NOT NULL,
  completed_at_ball INTEGER,
  accumulated_games INTEGER,
  status TEXT NOT NULL,
  awarded_at TEXT NOT NULL,
  paid_at TEXT,
  paid_by TEXT,
  payee_name TEXT,
  payee_document TEXT,
  UNIQUE (game_id, card_id, source, pot_id, prize_kind),
  CHECK (source IN ('prima', 'progressive', 'interconnected', 'lucky')),
  CHECK (status IN ('awarded', 'paid', 'void')),
  CHECK (amount_cents >= 0)
);
CREATE INDEX bonus_prizes_game ON bonus_prizes (game_id);

-- RNG-28: the lucky-ball draw of a game, from a seed of its own (committed at announcement, revealed at the end).
CREATE TABLE lucky_draws (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  commitment TEXT NOT NULL,
  seed_hex TEXT NOT NULL,
  number_count INTEGER NOT NULL,
  numbers TEXT,
  created_at TEXT NOT NULL,
  drawn_at TEXT
);

-- BNG-100: the halls that play a simultaneous game, each selling its own range of cards of the game's master set.
-- Cards stay unique across all of them: each card is a row of `cards` for the one game, whose UNIQUE (game_id,
-- card_key) refuses a second copy of any card, whichever hall sells it.
CREATE TABLE game_halls (
  game_id TEXT NOT NULL REFERENCES games(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  series_id TEXT NOT NULL REFERENCES series(id),
  master_set_id TEXT NOT NULL REFERENCES master_sets(id),
  from_card_no INTEGER NOT NULL,
  to_card_no INTEGER NOT NULL,
  next_card_no INTEGER NOT NULL,
  cards_sold INTEGER NOT NULL,
  joined_at TEXT NOT NULL,
  PRIMARY KEY (game_id, hall_id),
  UNIQUE (game_id, series_id),
  UNIQUE (game_id, master_set_id, from_card_no),
  CHECK (from_card_no >= 1 AND from_card_no <= to_card_no),
  CHECK (next_card_no >= from_card_no AND next_card_no <= to_card_no + 1),
  CHECK (cards_sold = next_card_no - from_card_no)
);
CREATE INDEX game_halls_hall ON game_halls (hall_id);
