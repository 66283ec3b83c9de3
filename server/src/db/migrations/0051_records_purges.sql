-- Issue 18, BNG-77 / CFG-37: a closed session's records purged once their retention period has passed (the
-- non-winning cards' rows; winners, prizes, payouts, the journal and the minutes derived from it stay). One row per
-- session purged, with who did it and who witnessed it; the journal records the same (records.purged).
CREATE TABLE records_purges (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  purged_at TEXT NOT NULL,
  purged_by TEXT NOT NULL,
  witness TEXT NOT NULL,
  cards_purged INTEGER NOT NULL,
  retention_days INTEGER NOT NULL
);
