-- Issue 18, RNG-20 / RNG-21 (002 §2.5.5.1, §2.5.6.3): a pot or lucky-ball prize runs under the AJ's prior
-- authorisation (its reference), and the operator's commission, a percentage of what the sales put in that the AJ
-- approved in the Plan de Apuestas, is taken before the remainder increments the pot.
ALTER TABLE pots ADD COLUMN authorisation_ref TEXT;
ALTER TABLE pots ADD COLUMN commission_bp INTEGER NOT NULL DEFAULT 0;
