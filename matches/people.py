"""A person's own data: all their games as one file of records, and forgetting them.

`People.export` writes every game a user plays in or was challenged to, from
every server, oldest first, in the record form of games/RULES.md: a header
line (`=== 3/42: Oska #8123, 2024.05.01, finished ===`), then the record with
tags of its own beside the usual ones (server, channel, game id, the players'
ids, status, why it ended, when it began and ended). `records_in` splits such
a file back into records `games.record.load` reads.

Why every server, when a server's game is never shown in another server's
channel: the export is the person's own data, answered to them alone (a
private, ephemeral reply only they see), and the games are theirs wherever
they played them. Nothing of it is posted where others read.

A file must fit in one Discord attachment: an export larger than
`max_bytes` is cut into parts, each whole games in order, and the caller
asks for one part at a time (`part`, from 1).

`People.forget` replaces the user's id everywhere Kamen stores it by one
fresh random negative number (`Store.forget_user`): their games stay, for
their opponents' records and ratings, but no longer lead to them; negative
ids are never listed on a leaderboard or a season table. It is refused
(`StillPlaying`) while the user has a challenge or a game open: those must
be finished, resigned, cancelled or declined first, so that nobody's game
changes hands while it is played. A tournament's game is the exception: the
user is withdrawn from every tournament first, which resigns it (the round
goes on without them, as after a removal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.base import GameSpec
from games.record import Record
from matches.errors import BadInput, MatchError
from matches.inputs import snowflake
from matches.ledger import Ledger
from matches.records import Status, StoredGame
from matches.tournaments import Tournaments
from matches.views import GameView

# How a game's place is written in its record (`Site`), and a player's name, by id:
# the caller's to say (the service knows no names); empty when unknown.
SiteOf = Callable[[int, int], str]
NameOf = Callable[[int], str]
HEADER_OPEN, HEADER_CLOSE = "=== ", " ==="


class StillPlaying(MatchError):
    """Forgetting refused: the user has challenges or games open (`count` of them)."""

    code = "people.still-playing"


@dataclass(frozen=True, slots=True)
class Export:
    """One part of a user's export: games `first` to `last` (from 1) of `total`, as text."""

    text: str
    part: int
    parts: int
    first: int
    last: int
    total: int


def _no_site(guild_id: int, channel_id: int) -> str:
    return ""


def _no_name(user_id: int) -> str:
    return ""


class People:
    """A user's export and forgetting, on the ledger's store."""

    def __init__(self, ledger: Ledger, tournaments: Tournaments) -> None:
        self.ledger = ledger
        self.tournaments = tournaments

    async def export(
        self,
        user_id: int,
        *,
        max_bytes: int,
        part: int = 1,
        site: SiteOf = _no_site,
        name: NameOf = _no_name,
    ) -> Export | None:
        """Part `part` of the user's games as records, each part at most `max_bytes` in UTF-8.

        None when the user has no game at all. A part asked for that does not exist is refused.
        """
        user = snowflake(user_id, "user")
        if isinstance(part, bool) or not isinstance(part, int) or part < 1:
            raise BadInput("people.export.bad-part", given=repr(part))
        rows = await self.ledger.store.games_of_user(user)
        if not rows:
            return None
        total = len(rows)
        parts: list[list[str]] = [[]]
        starts = [1]
        size = 0
        for number, row in enumerate(rows, start=1):
            spec = self.ledger.positions.spec_of(row)
            block = _block(row, spec, number, total, site, name)
            length = len(block.encode("utf-8"))
            if parts[-1] and size + length > max_bytes:
                parts.append([])
                starts.append(number)
                size = 0
            size += length
            # Only the part asked for is kept; the others are measured, to number the parts.
            parts[-1].append(block if len(parts) == part else "")
        if part > len(parts):
            raise BadInput("people.export.no-part", part=part, parts=len(parts))
        first = starts[part - 1]
        return Export(
            text="\n".join(parts[part - 1]),
            part=part,
            parts=len(parts),
            first=first,
            last=first + len(parts[part - 1]) - 1,
            total=total,
        )

    async def open_games(self, user_id: int) -> list[GameView]:
        """The challenges and games that keep the user from being forgotten, oldest first
        (a tournament's game does not: forgetting resigns it)."""
        return [self.ledger.view_of(row) for row in await self._keeping(user_id)]

    async def tournament_games(self, user_id: int) -> list[GameView]:
        """The tournament games the user is playing, which forgetting them resigns."""
        store = self.ledger.store
        rows = await store.open_games_of(snowflake(user_id, "user"))
        return [
            self.ledger.view_of(row)
            for row in rows
            if await store.pairing_of_game(row.id) is not None
        ]

    async def _keeping(self, user_id: int) -> list[StoredGame]:
        store = self.ledger.store
        rows = await store.open_games_of(snowflake(user_id, "user"))
        return [row for row in rows if await store.pairing_of_game(row.id) is None]

    async def forget(self, user_id: int) -> int:
        """Forget the user everywhere (see the module's docstring); the anonymous id given.

        Raises StillPlaying, and changes nothing, while they have a challenge or a game open
        other than a tournament's. They are first withdrawn from every tournament they are
        in: their tournament game being played is resigned, and its round goes on.
        """
        user = snowflake(user_id, "user")
        keeping = await self._keeping(user)
        if keeping:
            raise StillPlaying(count=len(keeping))
        await self.tournaments.withdraw_everywhere(user)
        anonymous = await self.ledger.store.forget_user(user)
        if anonymous is None:
            raise StillPlaying(count=len(await self.ledger.store.open_games_of(user)))
        return anonymous


def _block(
    row: StoredGame, spec: GameSpec, number: int, total: int, site: SiteOf, name: NameOf
) -> str:
    """A game's header line and its record, with Kamen's own tags after the usual ones."""
    first, second = row.players or (row.challenger_id, row.opponent_id)
    record = Record(
        spec=spec,
        variant=spec.variant(row.variant),
        moves=row.moves,
        result=row.result if row.status is Status.FINISHED and row.result else "*",
        site=site(row.guild_id, row.channel_id),
        date=row.created_at.strftime("%Y.%m.%d"),
        first=name(first) if first is not None else "",
        second=name(second) if second is not None else "",
    )
    tags = {
        "Server": str(row.guild_id),
        "Channel": str(row.channel_id),
        "GameId": str(row.id),
        "FirstId": "" if first is None else str(first),
        "SecondId": "" if second is None else str(second),
        "Status": str(row.status),
        "Reason": "" if row.reason is None else str(row.reason),
        "Created": row.created_at.isoformat(timespec="seconds"),
        "Ended": row.updated_at.isoformat(timespec="seconds") if not row.status.is_open else "",
    }
    usual, moves = record.to_text().split("\n\n", 1)
    ours = "\n".join(f'[{key} "{value}"]' for key, value in tags.items() if value)
    header = f"{HEADER_OPEN}{number}/{total}: {spec.title} #{row.id}, {record.date}, {row.status}"
    return f"{header}{HEADER_CLOSE}\n{usual}\n{ours}\n\n{moves}"


def records_in(text: str) -> list[str]:
    """The records of an export file, in order, without their header lines."""
    records: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith(HEADER_OPEN) and line.endswith(HEADER_CLOSE):
            records.append([])
        elif records:
            records[-1].append(line)
    return ["\n".join(lines).strip() + "\n" for lines in records]
