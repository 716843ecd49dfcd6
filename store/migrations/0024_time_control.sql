-- A server's default time control (`/kamen settings time:`), as the `time:` option writes
-- it: challenges between people and tournaments that name no time take it; never untimed.
ALTER TABLE guild_settings ADD COLUMN time_control TEXT NOT NULL DEFAULT '3d';
