-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- A pending request to take a move back: who asked (cleared by any move or answer).
ALTER TABLE games ADD COLUMN takeback_by INTEGER;
-- A channel's or thread's latest finished game: what /history, /replay and /board mean
-- there once the game is over.
CREATE INDEX games_finished_by_channel ON games (channel_id, updated_at)
    WHERE status = 'finished';
