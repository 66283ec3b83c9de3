-- Issue 14: people belong to halls (a director may hold several, or all: all_halls), lockouts grow with each
-- lock (lock_count) and a director can lift them, demo accounts are marked (demo) and a password may have to be
-- changed before anything else (must_change_password).

CREATE TABLE user_halls (
  user_id TEXT NOT NULL REFERENCES users(id),
  hall_id TEXT NOT NULL REFERENCES halls(id),
  PRIMARY KEY (user_id, hall_id)
);
CREATE INDEX user_halls_hall ON user_halls (hall_id);

ALTER TABLE users ADD COLUMN all_halls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN lock_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;

-- People created before halls were tracked kept every hall they could reach; directors keep all halls, everyone
-- else is bound to the halls that exist now (a director narrows them from there).
UPDATE users SET all_halls = 1 WHERE role = 'director';
INSERT INTO user_halls (user_id, hall_id) SELECT u.id, h.id FROM users u CROSS JOIN halls h WHERE u.role <> 'director';
-- The demo's seeded accounts (one shared, published password).
UPDATE users SET demo = 1 WHERE username IN ('director', 'jefe', 'locutor', 'cajero', 'auditor');
-- Devices enrolled without a hall belong to the first hall (a single-hall install had no other).
UPDATE device_credentials SET hall_id = (SELECT id FROM halls ORDER BY created_at, id LIMIT 1) WHERE hall_id IS NULL;
