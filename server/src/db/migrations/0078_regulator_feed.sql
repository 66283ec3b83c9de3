-- Issue 28: the regulator's control feed (server/src/regulator/SCHEMA.md). `regulator_records` holds every control
-- record once (source_key: the fact it was derived from, so a second derivation adds nothing), numbered per chain
-- (a hall, or "operator" for the operator's own products); batch_seq is set once, when its batch closes.
-- `regulator_batches` holds each closed batch as delivered: its signed header and its JSON Lines, never rewritten.
CREATE TABLE regulator_records (
  record_id TEXT PRIMARY KEY,
  chain TEXT NOT NULL,
  n INTEGER NOT NULL,
  source_key TEXT NOT NULL UNIQUE,
  hall_id TEXT,
  type TEXT NOT NULL,
  at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL,
  batch_seq INTEGER,
  UNIQUE (chain, n)
);
CREATE INDEX regulator_records_pending ON regulator_records (chain, batch_seq, n);
CREATE TABLE regulator_batches (
  chain TEXT NOT NULL,
  seq INTEGER NOT NULL,
  batch_id TEXT NOT NULL UNIQUE,
  hall_id TEXT,
  opened_at TEXT NOT NULL,
  closed_at TEXT NOT NULL,
  record_count INTEGER NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  key_id TEXT NOT NULL,
  signature TEXT NOT NULL,
  content TEXT NOT NULL,
  PRIMARY KEY (chain, seq)
);
CREATE INDEX regulator_batches_closed ON regulator_batches (closed_at);
