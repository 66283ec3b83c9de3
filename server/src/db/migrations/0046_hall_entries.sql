-- Issue 18, BNG-93 / BNG-19: the players let into (and out of) the hall during a session. The players present
-- never exceed the hall's seated playing positions (no standing play), and no one is let in while entry is
-- closed for a game (Cantabria).
CREATE TABLE hall_entries (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  session_id TEXT NOT NULL REFERENCES sessions(id),
  direction TEXT NOT NULL,
  people INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL
);
CREATE INDEX hall_entries_session ON hall_entries (session_id);
