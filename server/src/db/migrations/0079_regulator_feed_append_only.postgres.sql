-- Issue 28: a closed batch is never rewritten, and a record once in a batch never changes or goes.
CREATE TRIGGER regulator_batches_no_update BEFORE UPDATE ON regulator_batches FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
CREATE TRIGGER regulator_batches_no_delete BEFORE DELETE ON regulator_batches FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
CREATE TRIGGER regulator_records_no_update BEFORE UPDATE ON regulator_records FOR EACH ROW WHEN (OLD.batch_seq IS NOT NULL) EXECUTE FUNCTION bolillo_append_only();
CREATE TRIGGER regulator_records_no_delete BEFORE DELETE ON regulator_records FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
