-- Issue 18, BNG-72 (Bolivia, 002 §6.1.4.1: the "Libro de reclamo u observaciones" annexed to the Libro de Actas) and
-- GEN-21 (4): a hall's complaints book. Each complaint is numbered within its hall (UNIQUE), recorded by the
-- logged-in staff member who took it, tied to a session and game when it concerns one, and answered once by the
-- hall's management. The player's name and document are kept here, not in the journal (which cannot forget);
-- the journal records the complaint's number, text, answer and the people who wrote them.
CREATE TABLE complaints (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  number INTEGER NOT NULL,
  session_id TEXT REFERENCES sessions(id),
  game_id TEXT REFERENCES games(id),
  game_no INTEGER,
  player_name TEXT NOT NULL,
  player_document TEXT,
  player_contact TEXT,
  text TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  recorded_by TEXT NOT NULL,
  recorded_by_name TEXT NOT NULL,
  recorded_by_role TEXT NOT NULL,
  answer TEXT,
  answered_at TEXT,
  answered_by TEXT,
  answered_by_name TEXT,
  answered_by_role TEXT,
  UNIQUE (hall_id, number)
);
CREATE INDEX complaints_session ON complaints (session_id);
