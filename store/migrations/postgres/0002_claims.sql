-- SQLite's migration 0015: work one process does alone, claimed by name until a time
-- (seconds since the epoch). Taken under FOR UPDATE SKIP LOCKED (store/postgres.py).
CREATE TABLE claims (
    key    TEXT             PRIMARY KEY,
    holder TEXT             NOT NULL,
    until  DOUBLE PRECISION NOT NULL
);
