-- Issue #6: lotto (numbers chosen by the player, LNS-), numbered-ticket lotteries (LOT-) and raffles, tombolas and
-- promotional draws (PRM-): draw plans, lotto slips, raffle ticket sales, lost/stolen and returned ranges (LST-),
-- winners, payouts with the prize register (INS-5, LNS-25) and unclaimed-prize disposal (LOT-24).
-- Standard SQL only (TEXT, INTEGER, BIGINT) so that the PostgreSQL engine runs the same file.

-- One row per draw, whatever the product. `plan` is the validated Plan de Sorteo (LOT-4, LOT-5, CFG-39..44) as JSON;
-- the columns repeat what queries and the sale path need. A draw's seed is secret until the draw; its commitment is
-- public from creation (bolillo-draw-v1).
CREATE TABLE lottery_draws (
  id TEXT PRIMARY KEY,
  product TEXT NOT NULL,
  game_code TEXT NOT NULL,
  draw_no INTEGER NOT NULL,
  plan TEXT NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  price_cents BIGINT NOT NULL,
  sales_start_at TEXT NOT NULL,
  sales_close_at TEXT NOT NULL,
  draw_at TEXT NOT NULL,
  claim_deadline TEXT NOT NULL,
  draw_method TEXT NOT NULL,
  commitment TEXT NOT NULL,
  seed_hex TEXT NOT NULL,
  sales_digest TEXT,
  external_entropy TEXT,
  participation_sha256 TEXT,
  participation_file TEXT,
  entries_count INTEGER,
  plays_count INTEGER,
  sales_cents BIGINT,
  balls TEXT,
  result TEXT,
  disposal TEXT,
  created_at TEXT NOT NULL,
  closed_at TEXT,
  drawn_at TEXT,
  settled_at TEXT,
  UNIQUE (product, game_code, draw_no),
  CHECK (product IN ('lotto', 'lottery', 'raffle')),
  CHECK (status IN ('open', 'closed', 'drawn', 'settled', 'cancelled')),
  CHECK (price_cents >= 0)
);

-- Receipt numbers of lotto slips and raffle tickets are handed out from a counter per game, inside the sale's
-- transaction.
CREATE TABLE lottery_counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);

-- LNS-6: a lotto slip (comprobante) with one or more boards, valid for `draw_count` consecutive draws of the game
-- from `first_draw_no`. `boards` is "n-n-n-n-n-n n-n-..." (each board's numbers ascending, boards in slip order);
-- `quick_picks` marks the boards the system chose ("0110..."). The id is the receipt number printed and signed.
CREATE TABLE lotto_slips (
  id TEXT PRIMARY KEY,
  game_code TEXT NOT NULL,
  first_draw_no INTEGER NOT NULL,
  draw_count INTEGER NOT NULL,
  boards TEXT NOT NULL,
  board_count INTEGER NOT NULL,
  quick_picks TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  player_name TEXT NOT NULL,
  player_document TEXT NOT NULL,
  channel TEXT NOT NULL,
  status TEXT NOT NULL,
  status_reason TEXT,
  status_at TEXT,
  sold_at TEXT NOT NULL,
  CHECK (status IN ('active', 'annulled', 'excluded')),
  CHECK (board_count >= 1 AND draw_count >= 1)
);
CREATE INDEX lotto_slips_game ON lotto_slips (game_code, first_draw_no);

-- Winning plays of a settled lotto draw (LNS-16 step 4): one row per winning board. `paid_at` is set once, by the
-- conditional update of the payout.
CREATE TABLE lotto_wins (
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  receipt TEXT NOT NULL REFERENCES lotto_slips(id),
  board INTEGER NOT NULL,
  category TEXT NOT NULL,
  matches INTEGER NOT NULL,
  amount_cents BIGINT NOT NULL,
  goods TEXT,
  paid_at TEXT,
  PRIMARY KEY (draw_id, receipt, board)
);
CREATE INDEX lotto_wins_receipt ON lotto_wins (receipt);

-- Raffle and tombola tickets sold (PRM-1, PRM-2): the draw is among these serials.
CREATE TABLE lottery_sales (
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  serial TEXT NOT NULL,
  number INTEGER NOT NULL,
  channel TEXT NOT NULL,
  buyer_name TEXT,
  sold_at TEXT NOT NULL,
  PRIMARY KEY (draw_id, serial)
);

-- Ranges of numbered tickets taken out of play: unsold tickets returned before the draw, and tickets reported lost
-- or stolen (LST-1 to LST-7, §7.14). Lost and stolen ranges are never paid, refunded or exchanged, and are listed
-- publicly (LST-3).
CREATE TABLE lottery_ranges (
  id TEXT PRIMARY KEY,
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  kind TEXT NOT NULL,
  from_number INTEGER NOT NULL,
  to_number INTEGER NOT NULL,
  series_from INTEGER NOT NULL,
  series_to INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  details TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK (kind IN ('returned', 'lost', 'stolen')),
  CHECK (from_number <= to_number AND series_from <= series_to)
);
CREATE INDEX lottery_ranges_draw ON lottery_ranges (draw_id, kind);

-- Prizes paid at the cashier, one row per ticket (lotto receipt, lottery fraction, raffle ticket) and draw, with
-- the prize-register fields (§7.13). The UNIQUE is the database's own guard that a ticket is paid once per draw.
CREATE TABLE lottery_payouts (
  id TEXT PRIMARY KEY,
  draw_id TEXT NOT NULL REFERENCES lottery_draws(id),
  product TEXT NOT NULL,
  ticket_id TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  goods TEXT,
  prizes TEXT NOT NULL,
  currency TEXT NOT NULL,
  station_id TEXT NOT NULL,
  cashier_id TEXT NOT NULL,
  payee_name TEXT NOT NULL,
  payee_document TEXT NOT NULL,
  signature_ref TEXT NOT NULL,
  paid_at TEXT NOT NULL,
  UNIQUE (draw_id, ticket_id)
);
CREATE INDEX lottery_payouts_paid ON lottery_payouts (paid_at);
