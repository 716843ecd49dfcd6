-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- A season's end is announced by one process: it claims the announcement for a while
-- (`announcing_until`); if it dies before `announced` is set, another claims it after.
ALTER TABLE seasons ADD COLUMN announcing_until REAL;
