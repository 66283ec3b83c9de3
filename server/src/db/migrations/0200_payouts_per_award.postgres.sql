-- Issue 27: a virtual card's prize is credited to its terminal session when it is awarded, so a card that wins the
-- line and later the bingo of the same game is paid twice, by two payouts (one per award). The database's own
-- guard becomes one payout per card and set of prizes; each prize is still paid once (prizes.status moves from
-- awarded to paid by a conditional update in the payout's transaction).
ALTER TABLE payouts DROP CONSTRAINT payouts_card_id_key;
CREATE UNIQUE INDEX payouts_card_prizes ON payouts (card_id, prize_ids);
CREATE INDEX payouts_card ON payouts (card_id, paid_at);
