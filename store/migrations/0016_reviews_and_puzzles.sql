-- A finished game's review, made once in the AI workers and kept: the review as JSON
-- (`games.ai.review`'s values), and when it was made.
CREATE TABLE game_reviews (
    game_id BIGINT           PRIMARY KEY,
    made_at DOUBLE PRECISION NOT NULL,
    review  TEXT             NOT NULL
);
-- Each player's answers to puzzles on a server: the first answer to a puzzle counts
-- (`solved` 1 if it was the solution), later ones are only told right or wrong.
CREATE TABLE puzzle_answers (
    guild_id BIGINT           NOT NULL,
    user_id  BIGINT           NOT NULL,
    puzzle   TEXT             NOT NULL,  -- '<game>:<puzzle id>'
    solved   INTEGER          NOT NULL CHECK (solved IN (0, 1)),
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, puzzle)
);
