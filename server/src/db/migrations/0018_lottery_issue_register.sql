-- Issue 13 point 3: the issue register of a numbered lottery (LOT-12, LOT-26, LST-1). Signed fraction codes leave
-- the server only in a print run; each code carries a tag keyed by a per-issue secret (kept sealed, DESIGN.md
-- "Sealed secrets"), so it cannot be recomputed from the ticket number; the register says which print run's code
-- of a fraction is current (a reprint voids the earlier one) and whether it was distributed to a seller and not
-- returned, the only state in which it is payable.
ALTER TABLE lottery_draws ADD COLUMN issue_secret_sealed TEXT;

CREATE TABLE lottery_print_runs (
  id TEXT PRIMARY KEY,
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  run_no INTEGER NOT NULL,
  from_number INTEGER NOT NULL,
  to_number INTEGER NOT NULL,
  series_from INTEGER NOT NULL,
  series_to INTEGER NOT NULL,
  fractions_count INTEGER NOT NULL,
  reprinted_count INTEGER NOT NULL,
  reason TEXT,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (draw_id, run_no)
);

-- One row per printed fraction: the print run whose code is current, and where the paper is.
CREATE TABLE lottery_fractions (
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  number INTEGER NOT NULL,
  series INTEGER NOT NULL,
  fraction INTEGER NOT NULL,
  run_no INTEGER NOT NULL,
  status TEXT NOT NULL,
  seller_id TEXT,
  seller_name TEXT,
  distributed_at TEXT,
  returned_at TEXT,
  PRIMARY KEY (draw_id, number, series, fraction),
  CHECK (status IN ('printed', 'distributed', 'returned'))
);
CREATE INDEX lottery_fractions_seller ON lottery_fractions (draw_id, seller_id);
