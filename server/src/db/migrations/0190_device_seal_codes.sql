-- Issue 26 (GEN-7, GEN-4, BNG-31): an enrolled device (kiosk, cashier station, display, terminal) carries the AJ
-- security seal's identification code and the Consejería's type-approval (homologación) number. Devices enrolled
-- before have neither: they are refused where they sell or pay until a director records what their hall's profile
-- requires (POST /api/auth/devices/:deviceId/marks). A seal code names one device only.
ALTER TABLE device_credentials ADD COLUMN seal_code TEXT;
ALTER TABLE device_credentials ADD COLUMN type_approval_no TEXT;
CREATE UNIQUE INDEX device_credentials_seal_code ON device_credentials (seal_code) WHERE seal_code IS NOT NULL;
