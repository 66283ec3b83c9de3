-- Issue #7: instant lottery (raspadita). Batches generated from a recorded seed, packs (books) moving from the
-- warehouse to retailers and kiosks, lost/stolen ranges (LST-), sales, payouts and refunds (prize register, INS-5).
-- Standard SQL only (TEXT, INTEGER, BIGINT) so that the PostgreSQL engine runs the same file.

-- One batch per game (issue) number. The seed is never stored: only its commitment. symbols_key derives what a
-- ticket shows (kiosk reveal, misprint check); pepper_id names the key that tags validation codes.
CREATE TABLE instant_batches (
  id TEXT PRIMARY KEY,
  game_no INTEGER NOT NULL,
  name TEXT NOT NULL,
  channel TEXT NOT NULL,
  currency TEXT NOT NULL,
  price_cents BIGINT NOT NULL,
  ticket_count INTEGER NOT NULL,
  pack_size INTEGER NOT NULL,
  pack_count INTEGER NOT NULL,
  first_id INTEGER NOT NULL,
  design TEXT NOT NULL,
  design_sha256 TEXT NOT NULL,
  seed_commitment TEXT NOT NULL,
  symbols_key TEXT NOT NULL,
  pepper_id TEXT NOT NULL,
  status TEXT NOT NULL,
  next_sale_index INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  generated_at TEXT,
  closed_at TEXT,
  UNIQUE (game_no),
  CHECK (channel IN ('printed', 'electronic')),
  CHECK (status IN ('generating', 'ready', 'closed'))
);

-- One lean row per ticket: id = batch first_id + ticket index (pack and position follow from the pack size), the
-- prize tier (0 = none), the 52-bit keyed tag of its validation code, and its state:
-- 0 in stock, 1 sold, 2 prize paid, 3 refunded (misprint, INS-9). The serial and the symbols are derived.
CREATE TABLE instant_tickets (
  id INTEGER PRIMARY KEY,
  tier INTEGER NOT NULL,
  code_tag BIGINT NOT NULL,
  status INTEGER NOT NULL DEFAULT 0
);

-- Packs: warehouse -> shipped (to a retailer or kiosk) -> activated on arrival; lost or stolen by report.
-- prize_counts is the JSON array of the pack's prize count per tier (tier 1 first), for reconciliation and audit.
CREATE TABLE instant_packs (
  batch_id TEXT NOT NULL REFERENCES instant_batches(id),
  pack_no INTEGER NOT NULL,
  status TEXT NOT NULL,
  location TEXT,
  prize_counts TEXT NOT NULL,
  shipped_at TEXT,
  activated_at TEXT,
  activated_by TEXT,
  PRIMARY KEY (batch_id, pack_no),
  CHECK (status IN ('warehouse', 'shipped', 'activated', 'returned', 'lost', 'stolen'))
);

-- LST-1 to LST-7: ranges reported lost or stolen; no ticket in them is sold, paid, refunded or exchanged.
CREATE TABLE instant_reports (
  id TEXT PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES instant_batches(id),
  kind TEXT NOT NULL,
  first_index INTEGER NOT NULL,
  last_index INTEGER NOT NULL,
  ticket_count INTEGER NOT NULL,
  stage TEXT NOT NULL,
  discovered_at TEXT NOT NULL,
  regulator_reported_at TEXT,
  police_report_ref TEXT,
  remedy TEXT,
  note TEXT NOT NULL,
  reported_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK (kind IN ('lost', 'stolen')),
  CHECK (first_index <= last_index)
);
CREATE INDEX instant_reports_batch ON instant_reports (batch_id, first_index);

-- Sales: a pre-printed ticket scanned at a kiosk or cashier, or the next ticket of an electronic pool.
CREATE TABLE instant_sales (
  ticket_id INTEGER PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES instant_batches(id),
  channel TEXT NOT NULL,
  hall_id TEXT,
  station_id TEXT NOT NULL,
  price_cents BIGINT NOT NULL,
  sold_at TEXT NOT NULL
);
CREATE INDEX instant_sales_batch ON instant_sales (batch_id);

-- Prize register (INS-5, INS-11, section 7.13) and misprint refunds (INS-9). UNIQUE (ticket_id): a ticket is paid
-- or refunded once, whatever races the conditional update on instant_tickets.status.
CREATE TABLE instant_payouts (
  id TEXT PRIMARY KEY,
  ticket_id INTEGER NOT NULL,
  batch_id TEXT NOT NULL REFERENCES instant_batches(id),
  game_no INTEGER NOT NULL,
  serial TEXT NOT NULL,
  kind TEXT NOT NULL,
  tier INTEGER NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  reason TEXT,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  payee_name TEXT,
  payee_document TEXT,
  signature_ref TEXT,
  paid_at TEXT NOT NULL,
  UNIQUE (ticket_id),
  CHECK (kind IN ('prize', 'refund'))
);
CREATE INDEX instant_payouts_batch ON instant_payouts (batch_id, tier);
