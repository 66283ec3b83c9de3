-- Issue 18, LNS-21 (002 §7.3.7.1): "El operador emitirá un listado de jugadas excluidas o anuladas ... en un acta
-- notarial previo al sorteo". The notary's act that lists a lotto draw's excluded and annulled plays, recorded after the
-- close of sales and before the draw: JSON {notary, actNumber, actDate, excludedSha256, recordedAt, recordedBy}.
ALTER TABLE lottery_draws ADD COLUMN notarial_act TEXT;
