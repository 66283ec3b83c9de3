-- Issue 13 points 5, 7, 8: cashier shifts (a person's drawer at one enrolled station, opened with a counted float
-- and closed with a counted drawer), refunds paid once per ticket, and the AML hold on cashing out a voucher.

-- One open shift per station at a time (the partial UNIQUE is the database's own guard); the person is the one
-- logged in at the station, never a name typed on the screen.
CREATE TABLE cashier_shifts (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  station_name TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  cashier_name TEXT NOT NULL,
  currency TEXT NOT NULL,
  float_cents BIGINT NOT NULL,
  status TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  expected_cents BIGINT,
  counted_cents BIGINT,
  difference_cents BIGINT,
  close_note TEXT,
  CHECK (status IN ('open', 'closed')),
  CHECK (float_cents >= 0)
);
CREATE UNIQUE INDEX cashier_shifts_open_station ON cashier_shifts (station_id) WHERE status = 'open';
CREATE INDEX cashier_shifts_station ON cashier_shifts (station_id, opened_at);

-- Every movement names its shift (null only for movements filed before shifts, or with authentication off) and
-- the product it concerns (card, lotto, lottery, instant, voucher), for the shift report by product.
ALTER TABLE cash_movements ADD COLUMN shift_id TEXT;
ALTER TABLE cash_movements ADD COLUMN product TEXT;
CREATE INDEX cash_movements_shift ON cash_movements (shift_id, at);

-- BNG-86, INS-9: a ticket's price refunded once (the UNIQUE is the database's guard), in cash out of a drawer or
-- onto a new credit voucher, with the second person who approved it where the rule asks for one.
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  product TEXT NOT NULL,
  ticket_id TEXT NOT NULL,
  hall_id TEXT,
  game_ref TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  method TEXT NOT NULL,
  voucher_id TEXT,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  shift_id TEXT,
  approved_by TEXT,
  approved_by_name TEXT,
  reason TEXT NOT NULL,
  refunded_at TEXT NOT NULL,
  CHECK (method IN ('cash', 'voucher')),
  CHECK (amount_cents > 0),
  UNIQUE (product, ticket_id)
);
CREATE INDEX refunds_game ON refunds (product, game_ref);
