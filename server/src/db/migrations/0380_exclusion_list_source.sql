-- CFG-4 / GEN-23 (6): a person entered on the exclusion list from an international list (Bolivia 2025: the UIF's)
-- keeps the list and its cut-off named, so the hall can show where the prohibition comes from. Null: entered by
-- the hall (self-exclusion, a prohibition of its own).
ALTER TABLE player_exclusions ADD COLUMN list_source TEXT;
