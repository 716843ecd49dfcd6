-- A season's leader in a game is its champion only after this many rated games of
-- it in the season (a server's setting, `/kamen settings champion-games:`).
ALTER TABLE guild_settings ADD COLUMN champion_games INTEGER NOT NULL DEFAULT 5;
