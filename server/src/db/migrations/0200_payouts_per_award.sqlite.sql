-- Issue 27: a virtual card's prize is credited to its terminal session when it is awarded, so a card that wins the
-- line and later the bingo of the same game is paid twice, by two payouts (one per award). The database's own
-- guard becomes one payout per card and set of prizes; each prize is still paid once (prizes.status moves from
-- awarded to paid by a conditional update in the payout's transaction). SQLite drops a table constraint by rebuilding.
CREATE TABLE payouts_new (
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
  payment_method TEXT,
  cheque_number TEXT,
  UNIQUE (card_id, prize_ids)
);
INSERT INTO payouts_new (id, card_id, game_id, hall_id, amount_cents, currency, prize_ids, station_id, cashier_id,
  payee_name, payee_document, paid_at, payment_method, cheque_number)
  SELECT id, card_id, game_id, hall_id, amount_cents, currency, prize_ids, station_id, cashier_id, payee_name,
    payee_document, paid_at, payment_method, cheque_number FROM payouts;
DROP TABLE payouts;
ALTER TABLE payouts_new RENAME TO payouts;
CREATE INDEX payouts_hall_day ON payouts (hall_id, paid_at);
CREATE INDEX payouts_card ON payouts (card_id, paid_at);
