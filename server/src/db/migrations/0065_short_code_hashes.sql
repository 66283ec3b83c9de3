-- Issue 24 point 2 (no bearer secret at rest): a voucher's short code buys at a kiosk, so it is kept only as a keyed
-- hash (HMAC-SHA256 under a subkey of the sealing key, which is not in the database); a kiosk looks the typed code
-- up by its hash. `short_code` stays for the rows written before: the server hashes them at startup (the key is not
-- available here) and empties the column.
ALTER TABLE vouchers ADD COLUMN short_code_hash TEXT;
CREATE UNIQUE INDEX vouchers_short_code_hash ON vouchers (short_code_hash);
