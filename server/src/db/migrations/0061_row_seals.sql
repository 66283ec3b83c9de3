-- Issue 24 point 1: the seal of every row that carries value (shared/row-seals.ts). `mac` is HMAC-SHA256, under a
-- key derived from the sealing key (not in the database), of the row's value columns and of `journal_seq`, the
-- journal record whose payload carries the same MAC (`rowSeals`). A row changed outside the server no longer
-- matches its MAC; a row and seal put back from an older copy no longer match the journal's latest seal of it.
CREATE TABLE row_seals (
  tbl TEXT NOT NULL,
  row_id TEXT NOT NULL,
  journal_seq BIGINT NOT NULL,
  mac TEXT NOT NULL,
  PRIMARY KEY (tbl, row_id)
);
