-- A rematch is a challenge (or, against Kamen, a game) that names the game it is a
-- rematch of. A game has one live rematch at a time, kept by the database itself:
-- Rematch pressed twice at once (or by both players) makes one, and the second press
-- is told where it is. Once that one is over (played, declined, expired), another may
-- be asked for.
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of)
    WHERE rematch_of IS NOT NULL AND status IN ('challenge', 'active');
