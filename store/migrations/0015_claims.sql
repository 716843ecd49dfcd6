-- Work one process does alone, when several share the database: a named claim held by one
-- process (`holder`, its own random name) until a time (`until`, seconds since the epoch).
-- A holder that dies stops renewing its claim, which lapses and is taken by another
-- process; a claim on work that is done for good is held until a time that never comes.
CREATE TABLE claims (
    key    TEXT             PRIMARY KEY,
    holder TEXT             NOT NULL,
    until  DOUBLE PRECISION NOT NULL
);
