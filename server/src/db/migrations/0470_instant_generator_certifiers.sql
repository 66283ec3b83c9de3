-- INS-3 / RNG-27 (002 §7.4.3.1): the AJ-authorised certifiers whose signed certificates the instant ticket generator
-- runs under: name, AJ authorisation reference and Ed25519 public key (raw, 64 hex digits). A certificate counts only
-- when its signature verifies under the key of an active entry (instant/generator-certificate.ts); an entry is
-- withdrawn, never deleted, so batches generated under it still name it.
CREATE TABLE instant_generator_certifiers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  aj_authorisation_ref TEXT NOT NULL,
  public_key TEXT NOT NULL,
  status TEXT NOT NULL,
  recorded_by TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  withdrawn_at TEXT,
  withdrawn_reason TEXT,
  CHECK (status IN ('active', 'withdrawn'))
);
CREATE INDEX instant_generator_certifiers_ref ON instant_generator_certifiers (aj_authorisation_ref);
