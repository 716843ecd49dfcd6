-- SQLite's migration 0016: reviews kept per game, and each player's answers to puzzles.
CREATE TABLE game_reviews (
    game_id BIGINT           PRIMARY KEY,
    made_at DOUBLE PRECISION NOT NULL,
    review  TEXT             NOT NULL
);
CREATE TABLE puzzle_answers (
    guild_id BIGINT           NOT NULL,
    user_id  BIGINT           NOT NULL,
    puzzle   TEXT             NOT NULL,
    solved   INTEGER          NOT NULL CHECK (solved IN (0, 1)),
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, puzzle)
);
