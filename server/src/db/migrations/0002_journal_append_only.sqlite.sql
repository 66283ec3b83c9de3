-- The journal is append-only: no row may be changed or removed (DESIGN.md "Journal", BNG-79).
CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER balls_no_delete BEFORE DELETE ON balls BEGIN SELECT RAISE(ABORT, 'balls are append-only'); END;
