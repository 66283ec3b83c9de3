-- Certified devices (GEN-6, GEN-7, BNG-30, BNG-31, RNG-24), ball sets (BNG-23 to BNG-27) and the entropy source
-- of each game's seed (RNG-32). Standard SQL only.

-- Every gaming device with the regulator's seal code (GEN-7) and its certificate or type approval (BNG-30/31).
-- A device without both, or not active, cannot be brought online nor take part in a game.
CREATE TABLE devices (
  id TEXT PRIMARY KEY,
  hall_id TEXT REFERENCES halls(id),
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  manufacturer TEXT,
  model TEXT,
  serial_no TEXT,
  seal_code TEXT,
  certificate_id TEXT,
  certificate_expires_at TEXT,
  parent_id TEXT REFERENCES devices(id),
  status TEXT NOT NULL,
  firmware TEXT,
  last_seen_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (kind IN ('blower', 'ball_reader', 'rng', 'printer', 'kiosk', 'display')),
  CHECK (status IN ('active', 'suspended', 'retired'))
);
CREATE UNIQUE INDEX devices_seal_code ON devices (seal_code);
CREATE INDEX devices_hall ON devices (hall_id, kind);

-- The devices a game was announced with (the blower that draws it).
CREATE TABLE game_devices (
  game_id TEXT NOT NULL REFERENCES games(id),
  device_id TEXT NOT NULL REFERENCES devices(id),
  role TEXT NOT NULL,
  seal_code TEXT NOT NULL,
  certificate_id TEXT NOT NULL,
  assigned_at TEXT NOT NULL,
  PRIMARY KEY (game_id, role)
);

-- Ball sets of a hall: one active, the others in reserve (BNG-25) or retired. `game_limit` never exceeds the
-- profile's limit (BNG-24) nor the manufacturer's guaranteed number of games (BNG-26).
CREATE TABLE ball_sets (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  label TEXT NOT NULL,
  approval_no TEXT,
  ball_count INTEGER NOT NULL,
  guaranteed_games INTEGER,
  game_limit INTEGER NOT NULL,
  warn_percent INTEGER NOT NULL,
  games_played INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  activated_at TEXT,
  retired_at TEXT,
  retired_reason TEXT,
  UNIQUE (hall_id, label),
  CHECK (status IN ('active', 'reserve', 'retired')),
  CHECK (games_played >= 0 AND games_played <= game_limit),
  CHECK (game_limit >= 1)
);
CREATE UNIQUE INDEX ball_sets_one_active ON ball_sets (hall_id) WHERE status = 'active';

-- Which game was counted against which set (once per game, at its first ball drawn from the set).
CREATE TABLE ball_set_games (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  ball_set_id TEXT NOT NULL REFERENCES ball_sets(id),
  game_no INTEGER NOT NULL,
  counted_at TEXT NOT NULL
);

-- RNG-32: the source that produced each game's seed S, stated in its draw proof.
ALTER TABLE games ADD COLUMN entropy_source TEXT;
