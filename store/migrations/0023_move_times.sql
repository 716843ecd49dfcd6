-- When each position of a game was reached (ms since the epoch, space-separated, `-` when
-- unknown), the position after ply i at index i: a move's time is the difference from the
-- one before it (`matches.move_times`). Games played before this keep none.
ALTER TABLE games ADD COLUMN reached_ms TEXT NOT NULL DEFAULT '';
