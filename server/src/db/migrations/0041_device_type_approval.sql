-- Issue 18, CFG-8 / BNG-31 / GEN-7: the device registry keeps the three references a draw device may need: the
-- regulator's security seal code (seal_code), the Certificado de Cumplimiento (certificate_id) and the
-- homologation or type-approval number (type_approval_no, required for draw devices where the profile asks for it:
-- Cantabria, BNG-31). game_devices keeps the number as it was when the game was announced.
ALTER TABLE devices ADD COLUMN type_approval_no TEXT;
ALTER TABLE game_devices ADD COLUMN type_approval_no TEXT;
