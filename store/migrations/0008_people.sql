-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- A person's games without a scan, for `/kamen me export` and `/kamen me forget`.
-- Every player of a game is its challenger or its opponent (accepting a challenge
-- records who accepted; a record studied alone has its challenger as opponent too),
-- so these two indexes find every game a user is in, oldest first.
CREATE INDEX games_by_challenger ON games (challenger_id, created_at);
CREATE INDEX games_by_opponent ON games (opponent_id, created_at) WHERE opponent_id IS NOT NULL;
