-- Issue 18 (BNG-52, CFG-17, CFG-24/25, CFG-34): the documents a hall plays under, each version kept. `kind`:
-- 'betting-plan' (Plan de Apuestas: prize shares, pots, hall commission, with the authority's reference),
-- 'licence' (the licence's options: minimum participation by cards or by positions), 'derived' (a derived
-- bingo version, BNG-102). The newest version of a kind is in force; the hall's settings carry a copy of it.
CREATE TABLE hall_plans (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  kind TEXT NOT NULL,
  version INTEGER NOT NULL,
  authorisation_ref TEXT,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  UNIQUE (hall_id, kind, version)
);
