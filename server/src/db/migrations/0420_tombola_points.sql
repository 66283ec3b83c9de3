-- PRM-2 (004 F.I "por suma de puntos hasta alcanzar una cifra determinada"): the tickets of a points tómbola used at
-- a cash desk, each once, with the payout that consumed them; and the objects handed over, each once (its stock).
-- The keys are the database's own guard against a second use of a ticket or a second hand-over of an object.
CREATE TABLE tombola_ticket_uses (
  draw_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  ticket_id TEXT NOT NULL,
  points INTEGER NOT NULL,
  payout_id TEXT NOT NULL REFERENCES lottery_payouts(id),
  used_at TEXT NOT NULL,
  PRIMARY KEY (draw_id, number)
);
CREATE INDEX tombola_ticket_uses_payout ON tombola_ticket_uses (payout_id);

CREATE TABLE tombola_objects_taken (
  draw_id TEXT NOT NULL,
  object_code TEXT NOT NULL,
  payout_id TEXT NOT NULL REFERENCES lottery_payouts(id),
  taken_at TEXT NOT NULL,
  PRIMARY KEY (draw_id, object_code)
);
