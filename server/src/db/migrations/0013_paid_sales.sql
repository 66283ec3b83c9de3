-- Issue 13: nothing of value without a recorded payment. Every card, lotto slip and instant ticket sold names the
-- payment it was sold against, written in the same transaction as the sale: a credit voucher redeemed at a kiosk
-- (paid_by = 'voucher', payment_ref = the voucher id) or cash taken into a station's drawer (paid_by = 'cash',
-- payment_ref = the cash_movements id). UNIQUE (product, ref_id): one payment per item.
CREATE TABLE sale_payments (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  sold_by TEXT NOT NULL,
  product TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL,
  paid_by TEXT NOT NULL,
  payment_ref TEXT NOT NULL,
  at TEXT NOT NULL,
  UNIQUE (product, ref_id)
);
CREATE INDEX sale_payments_payment ON sale_payments (payment_ref);

-- A voucher can be typed at a kiosk by its short code (12 characters of an alphabet without look-alikes, 60 random
-- bits), printed on the voucher under its QR.
ALTER TABLE vouchers ADD COLUMN short_code TEXT;
CREATE UNIQUE INDEX vouchers_short_code ON vouchers (short_code);
