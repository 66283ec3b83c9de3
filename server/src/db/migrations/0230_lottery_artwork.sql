-- CFG-39 / LOT-15 (9), (11): the AJ logo and the Máxima Autoridad Ejecutiva's signature drawn on the lottery ticket
-- sheet, uploaded by the lottery administration as PNG (base64 text so that both engines store it alike).
CREATE TABLE lottery_artwork (
  kind TEXT PRIMARY KEY,
  png_base64 TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  uploaded_by TEXT,
  uploaded_at TEXT NOT NULL
);
