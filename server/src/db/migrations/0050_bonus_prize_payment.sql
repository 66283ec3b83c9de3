-- Issue 18, BNG-69/70: how a prima, interconnected, progressive or lucky-ball prize was paid: in cash (out of the
-- drawer of the station that paid it, under its shift) or by a cheque drawn on the company's current account, at the
-- player's request or with their consent (its number recorded; no cash moves).
ALTER TABLE bonus_prizes ADD COLUMN payment_method TEXT;
ALTER TABLE bonus_prizes ADD COLUMN cheque_number TEXT;
ALTER TABLE bonus_prizes ADD COLUMN station_id TEXT;
