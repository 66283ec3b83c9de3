-- LST-1 (a), LST-2 (a), LST-4, LST-7 (002 §7.5.1): a reprint authorised by the AJ after a loss or theft, either a new
-- numbering for the lost quantity (original format) or a new design under the authorised numbering (the whole
-- issue reprinted); and the exchange of sold tickets for the reprinted ones on mere presentation.
--
-- A fraction already distributed keeps its sold paper valid when it is reprinted: the new run waits in
-- exchange_run_no and becomes the current one only when the holder of the old paper exchanges it.
ALTER TABLE lottery_fractions ADD COLUMN exchange_run_no INTEGER;
-- The design a print run was printed under (1 = the authorised design, 2.. = each full reprint with a new design):
-- a range lost under design n blocks only the papers of design n or earlier (LST-7).
ALTER TABLE lottery_print_runs ADD COLUMN design_version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE lottery_reissues (
  id TEXT PRIMARY KEY,
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  mode TEXT NOT NULL,
  lost_range_id TEXT NOT NULL REFERENCES lottery_ranges(id),
  design_version INTEGER NOT NULL,
  design_note TEXT,
  replacement_from INTEGER,
  replacement_to INTEGER,
  replacement_series_from INTEGER,
  replacement_series_to INTEGER,
  authorisation_ref TEXT NOT NULL,
  schedule TEXT NOT NULL,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK (mode IN ('new-numbering', 'full-reprint'))
);
CREATE INDEX lottery_reissues_draw ON lottery_reissues (draw_id);

CREATE TABLE lottery_exchanges (
  id TEXT PRIMARY KEY,
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  number INTEGER NOT NULL,
  series INTEGER NOT NULL,
  fraction INTEGER NOT NULL,
  old_run_no INTEGER NOT NULL,
  new_run_no INTEGER NOT NULL,
  kind TEXT NOT NULL,
  evaluation TEXT,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (draw_id, number, series, fraction, old_run_no),
  CHECK (kind IN ('presented', 'damaged'))
);
