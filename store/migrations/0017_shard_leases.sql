-- Each shard is served by one process at a time, which leases it: `holder` (the
-- process's own random name) until `until` (seconds since the epoch), renewed at
-- each heartbeat, when `beat` is written too. A process that dies stops renewing:
-- the lease lapses and the next process to serve the shard takes it, and gives the
-- shard's running clocks the time since `beat` back. `shard_count` is the number of
-- shards the holder serves a part of: every running process must have the same.
-- (The one-row `heartbeat` of before is read once, by the first start after this.)
CREATE TABLE shard_leases (
    shard       INTEGER          PRIMARY KEY,
    shard_count INTEGER          NOT NULL,
    holder      TEXT             NOT NULL,
    until       DOUBLE PRECISION NOT NULL,
    beat        DOUBLE PRECISION
);
