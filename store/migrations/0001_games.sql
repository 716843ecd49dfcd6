-- engine: sqlite
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

-- engine: postgresql
-- PostgreSQL came to Kamen with the schema that migrations 0001 to 0014 had made on
-- SQLite by then, all of it here at once (0002 to 0014 are SQLite's alone): the same
-- tables and columns, so that `python -m store copy` moves every row as it is and both
-- engines give the same values. Discord ids and every other integer are BIGINT; times
-- are seconds since the epoch (UTC) in DOUBLE PRECISION, as SQLite's REAL; flags are
-- 0 or 1, as on SQLite. What each column means is said in the SQLite statements.
CREATE TABLE games (
    id                BIGINT           PRIMARY KEY,
    guild_id          BIGINT           NOT NULL,
    channel_id        BIGINT           NOT NULL,
    message_id        BIGINT,
    game              TEXT             NOT NULL,
    variant           TEXT             NOT NULL DEFAULT '',
    status            TEXT             NOT NULL
        CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'expired', 'cancelled')),
    challenger_id     BIGINT           NOT NULL,
    opponent_id       BIGINT,
    first_choice      TEXT             NOT NULL DEFAULT 'random'
        CHECK (first_choice IN ('challenger', 'opponent', 'random')),
    first_id          BIGINT,
    second_id         BIGINT,
    ai_level          TEXT,
    moves             TEXT             NOT NULL DEFAULT '',
    result            TEXT             CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason            TEXT,
    draw_offer_by     BIGINT,
    created_at        DOUBLE PRECISION NOT NULL,
    updated_at        DOUBLE PRECISION NOT NULL,
    version           BIGINT           NOT NULL DEFAULT 0,
    move_seconds      BIGINT           CHECK (move_seconds > 0),
    deadline          DOUBLE PRECISION,
    remind_at         DOUBLE PRECISION,
    ply               BIGINT           NOT NULL DEFAULT 0,
    board_ply         BIGINT,
    board_status      TEXT
        CHECK (board_status IN ('challenge', 'active', 'finished', 'declined', 'expired',
                                'cancelled')),
    ping_message_id   BIGINT,
    rated             INTEGER          NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
    base_seconds      BIGINT
        CHECK (base_seconds IS NULL OR (base_seconds > 0 AND move_seconds IS NULL)),
    increment_seconds BIGINT
        CHECK (increment_seconds IS NULL OR (increment_seconds >= 0 AND base_seconds IS NOT NULL)),
    first_left_ms     BIGINT
        CHECK (first_left_ms IS NULL OR (first_left_ms >= 0 AND base_seconds IS NOT NULL)),
    second_left_ms    BIGINT
        CHECK (second_left_ms IS NULL OR (second_left_ms >= 0 AND base_seconds IS NOT NULL)),
    takeback_by       BIGINT
);

-- One ongoing game per channel or thread, enforced by the database itself.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX games_lagging ON games (status, updated_at)
    WHERE message_id IS NULL OR board_ply IS DISTINCT FROM ply
        OR board_status IS DISTINCT FROM status;
CREATE INDEX games_open_by_channel ON games (channel_id) WHERE status IN ('challenge', 'active');
CREATE INDEX games_finished_by_first ON games (guild_id, game, first_id, updated_at)
    WHERE status = 'finished';
CREATE INDEX games_finished_by_second ON games (guild_id, game, second_id, updated_at)
    WHERE status = 'finished';
CREATE INDEX games_by_challenger ON games (challenger_id, created_at);
CREATE INDEX games_by_opponent ON games (opponent_id, created_at) WHERE opponent_id IS NOT NULL;
CREATE INDEX games_finished_by_channel ON games (channel_id, updated_at)
    WHERE status = 'finished';

-- What a server's admins chose; a server without a row has the defaults.
CREATE TABLE guild_settings (
    guild_id          BIGINT           PRIMARY KEY,
    threads           INTEGER          NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),
    updated_at        DOUBLE PRECISION NOT NULL,
    language          TEXT,
    champion_role_id  BIGINT,
    organiser_role_id BIGINT
);

-- That Kamen was alive at `at` (ISO 8601 text, UTC, as in SQLite).
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT    NOT NULL
);

-- What a player chose; a player without a row has the defaults.
CREATE TABLE user_settings (
    user_id    BIGINT  PRIMARY KEY,
    pings      INTEGER NOT NULL DEFAULT 1 CHECK (pings IN (0, 1)),
    updated_at TEXT,
    language   TEXT
);

-- One line per player per game per server: the Glicko-2 rating and the record.
CREATE TABLE ratings (
    guild_id      BIGINT           NOT NULL,
    game          TEXT             NOT NULL,
    user_id       BIGINT           NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    rd            DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT           NOT NULL,
    wins          BIGINT           NOT NULL,
    draws         BIGINT           NOT NULL,
    losses        BIGINT           NOT NULL,
    streak        BIGINT           NOT NULL,
    best_streak   BIGINT           NOT NULL,
    best_win      DOUBLE PRECISION,
    best_win_game BIGINT,
    last_at       DOUBLE PRECISION,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_ranked ON ratings (guild_id, game, rating DESC, user_id, rd);
CREATE INDEX ratings_by_rd ON ratings (guild_id, game, rd, user_id);

-- Each player's side of each rated game, in the order games ended (`seq`).
-- (game_id, user_id) is unique: a game is rated once, whatever retries or races.
CREATE TABLE rating_changes (
    seq             BIGINT           GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game_id         BIGINT           NOT NULL REFERENCES games (id),
    guild_id        BIGINT           NOT NULL,
    game            TEXT             NOT NULL,
    user_id         BIGINT           NOT NULL,
    opponent_id     BIGINT           NOT NULL,
    score           DOUBLE PRECISION NOT NULL CHECK (score IN (0, 0.5, 1)),
    at              DOUBLE PRECISION NOT NULL,
    rating_before   DOUBLE PRECISION NOT NULL,
    rd_before       DOUBLE PRECISION NOT NULL,
    vol_before      DOUBLE PRECISION NOT NULL,
    rating_after    DOUBLE PRECISION NOT NULL,
    rd_after        DOUBLE PRECISION NOT NULL,
    vol_after       DOUBLE PRECISION NOT NULL,
    opponent_rating DOUBLE PRECISION NOT NULL,
    opponent_rd     DOUBLE PRECISION NOT NULL,
    opponent_vol    DOUBLE PRECISION NOT NULL,
    season_id       BIGINT,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, seq);
CREATE INDEX rating_changes_by_season ON rating_changes (season_id, game, user_id)
    WHERE season_id IS NOT NULL;

-- A server's seasons; at most one running at a time.
CREATE TABLE seasons (
    id               BIGINT           GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id         BIGINT           NOT NULL,
    name             TEXT             NOT NULL,
    started_at       DOUBLE PRECISION NOT NULL,
    ends_at          DOUBLE PRECISION,
    ended_at         DOUBLE PRECISION,
    channel_id       BIGINT,
    announced        INTEGER          NOT NULL DEFAULT 0,
    announcing_until DOUBLE PRECISION
);
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_by_guild ON seasons (guild_id, started_at);
CREATE INDEX seasons_ending ON seasons (ends_at) WHERE ended_at IS NULL;

-- Each player's line in a season's table, per game.
CREATE TABLE season_scores (
    season_id   BIGINT           NOT NULL REFERENCES seasons (id),
    game        TEXT             NOT NULL,
    user_id     BIGINT           NOT NULL,
    points      DOUBLE PRECISION NOT NULL,
    games       BIGINT           NOT NULL,
    wins        BIGINT           NOT NULL,
    draws       BIGINT           NOT NULL,
    losses      BIGINT           NOT NULL,
    performance DOUBLE PRECISION,
    PRIMARY KEY (season_id, game, user_id)
);
CREATE INDEX season_scores_by_points ON season_scores (season_id, game, points, performance);

-- Tournaments: signup -> running -> finished, or cancelled (with `reason`).
CREATE TABLE tournaments (
    id              BIGINT           GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id        BIGINT           NOT NULL,
    channel_id      BIGINT           NOT NULL,
    message_id      BIGINT,
    standings_id    BIGINT,
    name            TEXT             NOT NULL,
    game            TEXT             NOT NULL,
    variant         TEXT             NOT NULL DEFAULT '',
    format          TEXT             NOT NULL CHECK (format IN ('round-robin', 'double-round-robin',
                                                                'swiss', 'arena')),
    rounds          BIGINT,
    move_seconds    BIGINT,
    minutes         BIGINT,
    status          TEXT             NOT NULL DEFAULT 'signup'
        CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round           BIGINT           NOT NULL DEFAULT 0,
    created_by      BIGINT           NOT NULL,
    created_at      DOUBLE PRECISION NOT NULL,
    starts_at       DOUBLE PRECISION,
    started_at      DOUBLE PRECISION,
    ends_at         DOUBLE PRECISION,
    finished_at     DOUBLE PRECISION,
    reason          TEXT,
    version         BIGINT           NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, created_at);
CREATE INDEX tournaments_starting ON tournaments (starts_at) WHERE status = 'signup';
CREATE INDEX tournaments_ending ON tournaments (ends_at) WHERE status = 'running';

-- Who plays: joined, and perhaps withdrawn or removed (with why).
CREATE TABLE tournament_players (
    tournament_id   BIGINT           NOT NULL REFERENCES tournaments (id),
    user_id         BIGINT           NOT NULL,
    joined_at       DOUBLE PRECISION NOT NULL,
    left_at         DOUBLE PRECISION,
    reason          TEXT,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

-- Each pairing: its round, its players, its game once started, its result.
CREATE TABLE tournament_pairings (
    id              BIGINT           GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    tournament_id   BIGINT           NOT NULL REFERENCES tournaments (id),
    round           BIGINT           NOT NULL,
    first_id        BIGINT           NOT NULL,
    second_id       BIGINT,
    game_id         BIGINT           UNIQUE REFERENCES games (id),
    score           DOUBLE PRECISION CHECK (score IN (0, 0.5, 1)),
    forfeit         INTEGER          NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    ended_at        DOUBLE PRECISION,
    channel_id      BIGINT
);
CREATE INDEX tournament_pairings_by_round ON tournament_pairings (tournament_id, round);
CREATE INDEX tournament_pairings_by_player ON tournament_pairings (first_id);
CREATE INDEX tournament_pairings_by_second ON tournament_pairings (second_id)
    WHERE second_id IS NOT NULL;
CREATE INDEX tournament_pairings_by_end ON tournament_pairings (tournament_id, ended_at)
    WHERE score IS NOT NULL;
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id)
    WHERE score IS NULL;
