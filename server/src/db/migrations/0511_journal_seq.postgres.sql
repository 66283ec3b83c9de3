-- Issue 23 point 5: writers of different chains append side by side; the journal's seq comes from a sequence (a
-- rolled-back transaction leaves a gap), starting after the records already there.
CREATE SEQUENCE journal_seq;
SELECT setval('journal_seq', (SELECT COALESCE(MAX(seq), 0) + 1 FROM journal), false);
