"""What the public boards show and who was pinged: the bot's bookkeeping, kept in the store.

After every commit the bot brings the game's public board to the database's
state; it records here what the board message shows (its move number and
status), so that a board left behind (a failed edit, a kill between the commit
and the reply) is found by `lagging` and repaired. None of this is part of the
game: it never changes the game's version, so it never makes a move stale.
A board shown is not written on its own either: it waits for the game's next
write (the ping's, the next move's) or the runner's write-behind pass
(`matches.marks`), and `lagging` writes what waits before it reads. A ping sent
is written at once: its id is what deletes it when the next one is posted.
Each player's choice of turn notifications is kept here too.
"""

from __future__ import annotations

import dataclasses
import logging

from matches.errors import BadInput
from matches.inputs import snowflake
from matches.ledger import Ledger, Where
from matches.marks import Marks
from matches.positions import ReplayError
from matches.records import Status, UserSettings
from matches.shards import Shards
from matches.views import GameView

log = logging.getLogger(__name__)


class Boards:
    """Boards shown, boards lagging, pings sent, pings wanted, on the ledger it is handed."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def shown(self, where: Where, message_id: int, ply: int, status: Status) -> None:
        game_id = await self._game_id(where)
        snowflake(message_id, "message")
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise ValueError(f"a board shows a move number, not {ply!r}")
        self.ledger.marks.tell(game_id, Marks.board(message_id, ply, Status(status)))

    async def lagging(self, limit: int = 100, *, shards: Shards | None = None) -> list[GameView]:
        await self.ledger.write_behind()  # a board shown and not yet written is not lagging
        views: list[GameView] = []
        for row in await self.ledger.store.lagging_boards(limit, shards=shards):
            try:
                views.append(self.ledger.view_of(row))
            except ReplayError:
                log.exception("game #%s cannot be replayed; its board is left as it is", row.id)
        return views

    async def message(self, where: Where, message_id: int | None) -> None:
        game_id = await self._game_id(where)
        if message_id is not None:
            snowflake(message_id, "message")
        self.ledger.marks.tell(game_id, Marks.message(message_id))

    async def ping_sent(self, where: Where, message_id: int | None) -> None:
        game_id = await self._game_id(where)
        if message_id is not None:
            snowflake(message_id, "message")
        await self.ledger.write_now(game_id, Marks.ping(message_id))

    async def pings_on(self, user_id: int) -> bool:
        return (await self.ledger.store.user_settings(snowflake(user_id, "user"))).pings

    async def set_pings(self, user_id: int, on: bool) -> UserSettings:
        if not isinstance(on, bool):
            raise BadInput("match.input.pings")
        current = await self.ledger.store.user_settings(snowflake(user_id, "user"))
        settings = dataclasses.replace(current, pings=on)
        return await self.ledger.store.save_user_settings(settings, self.ledger.clock())

    async def _game_id(self, where: Where) -> int:
        """The game's id; when a server asks, read first, so another server's is refused."""
        assert where.game_id is not None, "board bookkeeping names a game by its id"
        if where.guild_id is None:
            return snowflake(where.game_id, "game")
        return (await self.ledger.find(where)).id
