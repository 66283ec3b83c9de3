-- Issue 23 point 5: a sale commits first and its tickets are printed after the commit, outside any lock. Each sale
-- that prints (a kiosk purchase, a counter sale of cards or e-instant tickets) writes here, in its own transaction,
-- the paper it owes: `docs_sealed` is the print job sealed under the sealing key (the signed codes and an e-instant
-- face are bearer values: a copy of the database alone must not reveal them), dropped once the paper is out.
-- status: printing (committed, first print under way), printed, pending (the print failed: the ticket stays sold
-- and waits for a reprint at the kiosk or the cash desk), reprinting, reprinted. `reprints` counts every reprint
-- attempt; each carries its number on paper ("REIMPRESIÓN n") and in the journal. `voucher_id`: the voucher that
-- paid a kiosk purchase, which the player still holds and shows to have it reprinted at a kiosk.
CREATE TABLE ticket_prints (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL,
  station_id TEXT NOT NULL,
  voucher_id TEXT,
  status TEXT NOT NULL,
  reprints INTEGER NOT NULL DEFAULT 0,
  items TEXT NOT NULL,
  docs_sealed TEXT,
  failure TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX ticket_prints_hall_status ON ticket_prints (hall_id, status);
CREATE INDEX ticket_prints_voucher ON ticket_prints (voucher_id);
