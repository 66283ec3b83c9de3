-- CFG-13 / BNG-103 / CFG-35: the prize figures a game plays beyond line and bingo, chosen when it is announced from
-- the hall's approved figure plan (hall_plans kind 'figures', with the regulator's reference). The pool is fixed at
-- the close of sales out of the bingo's share; awarded_at marks the figure's prize as given (no more claims of it).
CREATE TABLE game_figures (
  game_id TEXT NOT NULL REFERENCES games(id),
  figure TEXT NOT NULL,
  position INTEGER NOT NULL,
  share_bp INTEGER NOT NULL,
  plan_version INTEGER NOT NULL,
  authorisation_ref TEXT NOT NULL,
  pool_cents BIGINT,
  awarded_at TEXT,
  PRIMARY KEY (game_id, figure)
);
