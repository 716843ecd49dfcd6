-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Tournaments (DESIGN.md §4, Community): played, paired and scored by Kamen itself.
-- `status`: signup → running → finished, or cancelled (with `reason`). `round` is the
-- round being played (Swiss, round robin; arena: 0); moving it on is a write that
-- checks the round it read, so two results at once start exactly one next round.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    standings_id    INTEGER,
    name            TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    variant         TEXT    NOT NULL DEFAULT '',
    format          TEXT    NOT NULL CHECK (format IN ('round-robin', 'double-round-robin',
                                                       'swiss', 'arena')),
    rounds          INTEGER,
    move_seconds    INTEGER,
    minutes         INTEGER,
    status          TEXT    NOT NULL DEFAULT 'signup'
        CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0,
    created_by      INTEGER NOT NULL,
    created_at      REAL    NOT NULL,
    starts_at       REAL,
    started_at      REAL,
    ends_at         REAL,
    finished_at     REAL,
    reason          TEXT,
    version         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, created_at);
CREATE INDEX tournaments_starting ON tournaments (starts_at) WHERE status = 'signup';
CREATE INDEX tournaments_ending ON tournaments (ends_at) WHERE status = 'running';

-- Who plays: joined, and perhaps withdrawn or removed (with why).
CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    user_id         INTEGER NOT NULL,
    joined_at       REAL    NOT NULL,
    left_at         REAL,
    reason          TEXT,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

-- Each pairing: its round (arena: 0, in order of `id`), its players, its game once
-- started (none for a bye), and its result as the first player's score once known.
CREATE TABLE tournament_pairings (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    first_id        INTEGER NOT NULL,
    second_id       INTEGER,
    game_id         INTEGER UNIQUE REFERENCES games (id),
    score           REAL CHECK (score IN (0, 0.5, 1)),
    forfeit         INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    ended_at        REAL
);
CREATE INDEX tournament_pairings_by_round ON tournament_pairings (tournament_id, round);
CREATE INDEX tournament_pairings_by_player ON tournament_pairings (first_id);
CREATE INDEX tournament_pairings_by_second ON tournament_pairings (second_id)
    WHERE second_id IS NOT NULL;

-- Who may organise tournaments in a server besides its managers.
ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
