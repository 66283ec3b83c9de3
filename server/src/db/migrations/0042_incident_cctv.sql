-- Issue 18, BNG-34 / GEN-29 / GEN-31: each incident names the CCTV camera whose footage shows it (by default the
-- hall's camera on the ball exit point) and, when staff give one, the reference of the recording to review.
ALTER TABLE incidents ADD COLUMN camera_id TEXT;
ALTER TABLE incidents ADD COLUMN cctv_ref TEXT;
