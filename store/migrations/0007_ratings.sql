-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Ratings, seasons and the indexes behind profiles (DESIGN.md §4, Community).
-- A game may be rated (`rated`): the challenger did not say rated:False and it
-- was not imported. Games played before ratings existed are not rated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
UPDATE games SET rated = 0;

-- A player's finished games, newest first, without a scan: one index per seat.
CREATE INDEX games_finished_by_first ON games (guild_id, game, first_id, updated_at)
    WHERE status = 'finished';
CREATE INDEX games_finished_by_second ON games (guild_id, game, second_id, updated_at)
    WHERE status = 'finished';

-- One line per player per game per server: the Glicko-2 rating and the record.
CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    rating        REAL    NOT NULL,
    rd            REAL    NOT NULL,
    volatility    REAL    NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    streak        INTEGER NOT NULL,
    best_streak   INTEGER NOT NULL,
    best_win      REAL,
    best_win_game INTEGER,
    last_at       REAL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_rating ON ratings (guild_id, game, rating);

-- Each player's side of each rated game, in the order games ended (`seq`).
-- (game_id, user_id) is unique: a game is rated once, whatever retries or races.
CREATE TABLE rating_changes (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    guild_id        INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    user_id         INTEGER NOT NULL,
    opponent_id     INTEGER NOT NULL,
    score           REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),
    at              REAL    NOT NULL,
    rating_before   REAL    NOT NULL,
    rd_before       REAL    NOT NULL,
    vol_before      REAL    NOT NULL,
    rating_after    REAL    NOT NULL,
    rd_after        REAL    NOT NULL,
    vol_after       REAL    NOT NULL,
    opponent_rating REAL    NOT NULL,
    opponent_rd     REAL    NOT NULL,
    opponent_vol    REAL    NOT NULL,
    season_id       INTEGER,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, seq);
CREATE INDEX rating_changes_by_season ON rating_changes (season_id, game, user_id)
    WHERE season_id IS NOT NULL;

-- A server's seasons; at most one running at a time.
CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    ends_at     REAL,
    ended_at    REAL,
    channel_id  INTEGER,
    announced   INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_by_guild ON seasons (guild_id, started_at);
CREATE INDEX seasons_ending ON seasons (ends_at) WHERE ended_at IS NULL;

-- Each player's line in a season's table, per game.
CREATE TABLE season_scores (
    season_id   INTEGER NOT NULL REFERENCES seasons (id),
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    points      REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    performance REAL,
    PRIMARY KEY (season_id, game, user_id)
);
CREATE INDEX season_scores_by_points ON season_scores (season_id, game, points, performance);

-- The role a server gives its season champions, if it set one.
ALTER TABLE guild_settings ADD COLUMN champion_role_id INTEGER;
