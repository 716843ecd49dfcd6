-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Leaderboards read a page deep in a server of thousands of players, and count its
-- established and provisional players, from the index alone (no row is read but the
-- page's): ranked by rating, and by deviation.
DROP INDEX ratings_by_rating;
CREATE INDEX ratings_ranked ON ratings (guild_id, game, rating DESC, user_id, rd);
CREATE INDEX ratings_by_rd ON ratings (guild_id, game, rd, user_id);
