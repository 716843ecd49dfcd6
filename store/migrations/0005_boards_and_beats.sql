-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- What the public board of each game shows, so that a board left behind (a
-- reply that failed, a bot killed after the commit) is found and brought up
-- to date. `ply` is the number of moves, kept by the store with `moves`, so
-- that the comparison is one between columns. NULL board columns: nothing is
-- known to be shown, which is also true of every game before this migration.
ALTER TABLE games ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN board_ply INTEGER;
ALTER TABLE games ADD COLUMN board_status TEXT
    CHECK (board_status IN ('challenge', 'active', 'finished', 'declined', 'expired', 'cancelled'));
-- The last turn notification, deleted when the next one is sent.
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;

-- Moves are separated by single spaces, so their number is one more than the spaces'.
UPDATE games SET ply = length(moves) - length(replace(moves, ' ', '')) + 1 WHERE moves <> '';

-- The games whose board lags behind, few at any time: the reconciler reads them alone.
CREATE INDEX games_lagging ON games (status, updated_at)
    WHERE message_id IS NULL OR board_ply IS NOT ply OR board_status IS NOT status;

-- The open games of a channel or thread: found when it is deleted.
CREATE INDEX games_open_by_channel ON games (channel_id) WHERE status IN ('challenge', 'active');

-- That Kamen was alive at `at`: written every few seconds, one row. After a
-- restart the time since is given back to the running clocks. Text in ISO
-- 8601 (UTC), so that whoever opens the file can read when Kamen last lived.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT    NOT NULL
);

-- What a player chose; a player without a row has the defaults.
CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    pings      INTEGER NOT NULL DEFAULT 1 CHECK (pings IN (0, 1)),
    updated_at TEXT
);
