-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- The language a server's public messages and a player's private answers are in, when
-- chosen (`cs`, `en`); NULL: not chosen, so Discord's locale decides (DESIGN.md, Localisation).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
ALTER TABLE user_settings ADD COLUMN language TEXT;
