-- Issue 28: a closed batch is never rewritten, and a record once in a batch never changes or goes.
CREATE TRIGGER regulator_batches_no_update BEFORE UPDATE ON regulator_batches BEGIN SELECT RAISE(ABORT, 'regulator batches are append-only'); END;
CREATE TRIGGER regulator_batches_no_delete BEFORE DELETE ON regulator_batches BEGIN SELECT RAISE(ABORT, 'regulator batches are append-only'); END;
CREATE TRIGGER regulator_records_no_update BEFORE UPDATE ON regulator_records WHEN OLD.batch_seq IS NOT NULL BEGIN SELECT RAISE(ABORT, 'regulator records in a batch are append-only'); END;
CREATE TRIGGER regulator_records_no_delete BEFORE DELETE ON regulator_records BEGIN SELECT RAISE(ABORT, 'regulator records are append-only'); END;
