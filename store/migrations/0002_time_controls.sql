-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Time controls and deadlines. `deadline` is when a challenge expires or when
-- the player to move loses on time; `remind_at` is when that player is
-- reminded, set back to NULL once the reminder has been sent.
ALTER TABLE games ADD COLUMN move_seconds INTEGER CHECK (move_seconds > 0);
ALTER TABLE games ADD COLUMN deadline REAL;
ALTER TABLE games ADD COLUMN remind_at REAL;

-- Challenges made before this migration never expired: give them the default 24 hours.
UPDATE games SET deadline = created_at + 86400 WHERE status = 'challenge';

CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;
