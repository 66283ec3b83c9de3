-- BNG-73 (002 §6.1.5): at the end of each game the Jefe de Mesa signs its closing entry in the minutes.
ALTER TABLE games ADD COLUMN closing_signed_at TEXT;
ALTER TABLE games ADD COLUMN closing_signed_by TEXT;
