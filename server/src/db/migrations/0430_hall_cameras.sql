-- Issue 26, RNG-30 (004 Bingo VI.1): the central's ball-exit camera whose video image the halls of a simultaneous
-- game receive. Registered equipment like the devices (GEN-7: the regulator's seal code), with the address of its
-- stream (an MJPEG HTTP source) that the server relays to the halls' displays; displays never reach it directly.
CREATE TABLE hall_cameras (
  id TEXT PRIMARY KEY,
  hall_id TEXT NOT NULL REFERENCES halls(id),
  name TEXT NOT NULL,
  stream_url TEXT NOT NULL,
  seal_code TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (status IN ('active', 'suspended', 'retired'))
);
CREATE INDEX hall_cameras_hall ON hall_cameras (hall_id, status);
