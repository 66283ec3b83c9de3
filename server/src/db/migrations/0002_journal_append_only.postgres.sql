-- The journal is append-only: no row may be changed or removed (DESIGN.md "Journal", BNG-79).
CREATE FUNCTION bolillo_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END; $$;
CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
CREATE TRIGGER balls_no_delete BEFORE DELETE ON balls FOR EACH ROW EXECUTE FUNCTION bolillo_append_only();
