-- Issue 18, INS-3 (002 §7.4.3.1): the instant ticket generator that produced each batch: its certification reference,
-- the build it certifies and the build that ran (SHA-256 of the generator's modules), as JSON
-- {certificationRef, certifiedSha256, buildSha256, algorithm}. Null for batches generated before this record existed.
ALTER TABLE instant_batches ADD COLUMN generator TEXT;
