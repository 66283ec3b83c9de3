-- Issue #3: credit vouchers sold for cash at the cashier and spent at kiosks, kiosk purchases, cash movements of
-- each station, prize payouts at the cashier (prize register, §7.13), AML records (GEN-17) and blocked tickets (§8).
-- Standard SQL only (TEXT, INTEGER, BIGINT) so that the PostgreSQL engine runs the same file.

-- GEN-13: credit is bought with cash at a cashier station only; a kiosk redeems it. A voucher is spent once: what
-- is left goes onto a new voucher whose parent_id names the one it came from.
CREATE TABLE vouchers (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  currency TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  status TEXT NOT NULL,
  origin TEXT NOT NULL,
  parent_id TEXT REFERENCES vouchers(id),
  station_id TEXT NOT NULL,
  issued_by TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  small_cents BIGINT NOT NULL,
  other_cents BIGINT NOT NULL,
  buyer_document TEXT,
  spent_at TEXT,
  spent_station TEXT,
  spent_for TEXT,
  spent_ref TEXT,
  CHECK (amount_cents > 0),
  CHECK (status IN ('active', 'spent')),
  CHECK (origin IN ('cashier', 'change'))
);
CREATE INDEX vouchers_hall_day ON vouchers (hall_id, issued_at);
CREATE INDEX vouchers_buyer ON vouchers (buyer_document, issued_at);

-- One kiosk purchase per voucher (the UNIQUE is the database's own guard that a voucher pays once).
CREATE TABLE kiosk_purchases (
  id TEXT PRIMARY KEY,
  kiosk_id TEXT NOT NULL,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  game_id TEXT NOT NULL REFERENCES games(id),
  voucher_id TEXT NOT NULL REFERENCES vouchers(id),
  change_voucher_id TEXT REFERENCES vouchers(id),
  card_count INTEGER NOT NULL,
  amount_cents BIGINT NOT NULL,
  card_ids TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (voucher_id)
);

-- Cash in (positive) and out (negative) of each cashier station: voucher sales, prize payouts, voucher cash-outs.
CREATE TABLE cash_movements (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX cash_movements_station ON cash_movements (station_id, at);

-- Prizes paid at the cashier: one row per card (all its prizes at once), read by the prize register (§7.13).
-- The UNIQUE on card_id is the database's own guard that a card is paid at the cashier once.
CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  card_id TEXT NOT NULL REFERENCES cards(id),
  game_id TEXT NOT NULL REFERENCES games(id),
  hall_id TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  prize_ids TEXT NOT NULL,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  payee_name TEXT,
  payee_document TEXT,
  paid_at TEXT NOT NULL,
  UNIQUE (card_id)
);
CREATE INDEX payouts_hall_day ON payouts (hall_id, paid_at);

-- GEN-17: purchases paid with too much small-denomination cash, for the responsible officer (FR) to file a ROS or
-- to document why not.
CREATE TABLE aml_reports (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  voucher_id TEXT NOT NULL,
  buyer_document TEXT,
  amount_cents BIGINT NOT NULL,
  small_cents BIGINT NOT NULL,
  window_small_cents BIGINT NOT NULL,
  limit_cents BIGINT NOT NULL,
  threshold_cents BIGINT NOT NULL,
  share_bp INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  reviewed_at TEXT,
  reviewed_by TEXT,
  review_note TEXT
);
CREATE INDEX aml_reports_status ON aml_reports (status, created_at);

-- §8 REPORTED LOST/STOLEN (LST-4, LST-5): tickets that are neither paid, refunded nor exchanged.
CREATE TABLE blocked_tickets (
  kind TEXT NOT NULL,
  ticket_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT NOT NULL,
  reported_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (kind, ticket_id)
);
