-- CFG-22 (002 §6.1, 000 §6.1): a progressive-pot prize is paid against the winner's name, identity document and
-- contact telephone, kept (sealed, like the document) with the prize.
ALTER TABLE bonus_prizes ADD COLUMN payee_phone TEXT;
