-- Issue 23: every prize a card can win (line, bingo, prima, pots, lucky ball) is paid by one payout at the cash desk,
-- against the card's code. BNG-70: that payout is in cash (out of the payer's open shift) or, where the hall's profile
-- allows it, by a cheque on the company's current account: the method and the cheque's number are kept with it.
ALTER TABLE payouts ADD COLUMN payment_method TEXT;
ALTER TABLE payouts ADD COLUMN cheque_number TEXT;
