-- The games: one row per challenge, whatever became of it.
-- `moves` is the truth of a game: its canonical moves, separated by single
-- spaces (no move text contains whitespace); positions are rebuilt by replaying it.
-- Times are seconds since the epoch (UTC). `version` grows by one at every
-- change, and every change checks the version it read.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,
    game          TEXT    NOT NULL,
    variant       TEXT    NOT NULL DEFAULT '',
    status        TEXT    NOT NULL
        CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'expired', 'cancelled')),
    challenger_id INTEGER NOT NULL,
    opponent_id   INTEGER,
    first_choice  TEXT    NOT NULL DEFAULT 'random'
        CHECK (first_choice IN ('challenger', 'opponent', 'random')),
    first_id      INTEGER,
    second_id     INTEGER,
    ai_level      TEXT,
    moves         TEXT    NOT NULL DEFAULT '',
    result        TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    ending        TEXT,
    reason        TEXT,
    draw_offer_by INTEGER,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0
);

-- One ongoing game per channel or thread, enforced by the database itself.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_status ON games (status);
