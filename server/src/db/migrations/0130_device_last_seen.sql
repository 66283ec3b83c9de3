-- Issue 29 point 7: when an enrolled device last presented its credential, for the director's device list.
ALTER TABLE device_credentials ADD COLUMN last_seen_at TEXT;
