-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- The thread a pairing's game is played in, recorded before its game is opened: a game
-- opened again after a crash goes to that thread rather than to a second one.
ALTER TABLE tournament_pairings ADD COLUMN channel_id INTEGER;
-- Results in the order they ended, read since the last one a process counted.
CREATE INDEX tournament_pairings_by_end ON tournament_pairings (tournament_id, ended_at)
    WHERE score IS NOT NULL;
-- The pairings still to be played, read by every upkeep pass.
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id)
    WHERE score IS NULL;
