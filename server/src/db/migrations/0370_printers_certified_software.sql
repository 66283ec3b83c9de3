-- Issue 26 (GEN-4, GEN-7, BNG-9): a ticket printer is registered equipment like a blower. `serves_device_id` names
-- the enrolled kiosk, cashier station or terminal it prints for (NULL: the printer shared by every device of its hall,
-- or of the operator when it has no hall, that has none of its own); `issuing_authorisation` is the Consejería's
-- prior authorisation of the in-hall card issuing system it belongs to (BNG-9, 004 Bingo II.1.a).
ALTER TABLE devices ADD COLUMN serves_device_id TEXT;
ALTER TABLE devices ADD COLUMN issuing_authorisation TEXT;
CREATE INDEX devices_serves ON devices (serves_device_id);

-- Issue 26 (RNG-3, RNG-24, RNG-25, RNG-29, RNG-32 point 5): the certified software components, each with the
-- certificate or type-approval reference, the laboratory, the version and the build hash it certifies, for the
-- jurisdiction (profile id) whose regulator issued it. `demo` marks the demo's own records (not a certificate).
CREATE TABLE certified_software (
  id TEXT PRIMARY KEY,
  component TEXT NOT NULL,
  jurisdiction TEXT NOT NULL,
  version TEXT NOT NULL,
  build_sha256 TEXT NOT NULL,
  certificate_ref TEXT NOT NULL,
  laboratory TEXT NOT NULL,
  demo INTEGER NOT NULL,
  status TEXT NOT NULL,
  recorded_by TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  withdrawn_at TEXT,
  withdrawn_reason TEXT,
  CHECK (component IN ('draw-engine', 'pot-award', 'derived-bingo')),
  CHECK (status IN ('active', 'withdrawn'))
);
CREATE INDEX certified_software_lookup ON certified_software (component, jurisdiction, build_sha256);

-- The software each game was announced with (RNG-32 point 4): the component, its version and build hash, and the
-- certificate it ran under (NULL where the hall's profile asks none).
CREATE TABLE game_software (
  game_id TEXT NOT NULL REFERENCES games(id),
  component TEXT NOT NULL,
  version TEXT NOT NULL,
  build_sha256 TEXT NOT NULL,
  certified_software_id TEXT REFERENCES certified_software(id),
  certificate_ref TEXT,
  assigned_at TEXT NOT NULL,
  PRIMARY KEY (game_id, component)
);
