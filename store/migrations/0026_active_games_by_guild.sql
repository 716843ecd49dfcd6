-- `/games` reads a page of a server's games being played, oldest first, and counts them
-- (`store.games.GameTables.active_page`): both from this index alone, not the server's
-- every game by status and then a sort.
CREATE INDEX games_active_by_guild ON games (guild_id, created_at, id) WHERE status = 'active';
