-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Live clocks: a base time and an increment chosen by the challenge (`5+3`: 5 minutes,
-- 3 seconds added after each of a player's moves), and each side's time left, in
-- milliseconds so that it adds up exactly. The side to move's time left is what it had
-- when its turn began; it runs out at `deadline`, so the sweeper ends the game on time
-- and the downtime credit gives the time back exactly as for per-move limits. A game
-- has one time control at most: a per-move limit or a live clock, never both.
ALTER TABLE games ADD COLUMN base_seconds INTEGER
    CHECK (base_seconds IS NULL OR (base_seconds > 0 AND move_seconds IS NULL));
ALTER TABLE games ADD COLUMN increment_seconds INTEGER
    CHECK (increment_seconds IS NULL OR (increment_seconds >= 0 AND base_seconds IS NOT NULL));
ALTER TABLE games ADD COLUMN first_left_ms INTEGER
    CHECK (first_left_ms IS NULL OR (first_left_ms >= 0 AND base_seconds IS NOT NULL));
ALTER TABLE games ADD COLUMN second_left_ms INTEGER
    CHECK (second_left_ms IS NULL OR (second_left_ms >= 0 AND base_seconds IS NOT NULL));
