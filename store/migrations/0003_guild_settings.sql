-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- What a server's admins chose; a server without a row has the defaults.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    threads    INTEGER NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),
    updated_at REAL    NOT NULL
);
