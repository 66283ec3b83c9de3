-- Issue 18, BNG-65: a hall closed for good. Its prima fund is handed over as the profile says (Cantabria: to the
-- Consejería competente en materia de economía y hacienda, for the Government of Cantabria's general revenue
-- account); from then on no session, game or card sale in the hall. Who closed it, who witnessed it and the amount
-- handed over are kept here and journaled (hall.closed, prima.handed_over).
CREATE TABLE hall_closures (
  hall_id TEXT PRIMARY KEY REFERENCES halls(id),
  closed_at TEXT NOT NULL,
  closed_by TEXT NOT NULL,
  witness TEXT NOT NULL,
  reason TEXT NOT NULL,
  prima_fund_cents BIGINT NOT NULL,
  prima_recipient TEXT,
  handover_ref TEXT
);
