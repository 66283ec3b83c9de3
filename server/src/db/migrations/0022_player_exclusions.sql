-- Issue 14 point 8 (GEN-23, GEN-25, GEN-27): players excluded from play, found by their identity document at
-- voucher sales above the ID threshold, named lotto slip sales and every payout that asks for an ID. `document`
-- is normalised (upper case, no spaces, dots or dashes). A null hall_id excludes from every hall.
CREATE TABLE player_exclusions (
  id TEXT PRIMARY KEY,
  document TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  hall_id TEXT,
  until_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  lifted_at TEXT,
  lifted_by TEXT,
  CHECK (kind IN ('self_excluded', 'prohibited'))
);
CREATE INDEX player_exclusions_document ON player_exclusions (document);
