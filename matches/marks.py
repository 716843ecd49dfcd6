"""What a game's messages show, written behind: with the game's next write, or in one go.

After every move the bot tells the service which message shows the game's
board, at which move number and status. Written on its own, that is one more
commit a move; here it waits instead, in this process, and goes to the database
with the next write of its game (the turn ping's, written at once, or the next
move's own `UPDATE`, `Ledger.change_once`) or, for a game that has none soon,
in one transaction for all of them (`Behind.write`: the runner's write-behind
pass each second, its repair pass and its stop). Every read of the game through
the ledger sees it meanwhile, and for a while after it is written, since a read
that began before that write landed returns the row without it (`Behind.on`).
This process is the only writer of its games' messages (a server's games are its
shard's), and it writes them only through here.

A board shown and lost that way (the process killed first) is safe to lose: it
still reads as lagging (`board_ply` behind the game), so the board keeper edits
it once more, to the same board. A ping's id is not: it is what deletes that
ping when the next is posted, and a ping is never sent twice, so it is written
at once (`Ledger.write_now`), with the board's marks waiting.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace

from matches.records import Status, StoredGame

Told = int | Status | None
# A read that began before a write of marks landed may return the row without them:
# marks written are laid over the rows read for this long after (no read takes longer).
LANDED_FOR = 10.0
_LANDED_KEPT = 256  # past this many games' marks written, those older than that go
# The columns of a game that describe its messages (never its version).
MARKED = ("message_id", "board_ply", "board_status", "ping_message_id")


@dataclass(frozen=True, slots=True)
class Marks:
    """Some of a game's `MARKED` fields, as the bot last told them, by name."""

    told: tuple[tuple[str, Told], ...] = ()

    @staticmethod
    def board(message_id: int, ply: int, status: Status) -> Marks:
        """Message `message_id` shows the game at move `ply` and `status`."""
        return Marks((("message_id", message_id), ("board_ply", ply), ("board_status", status)))

    @staticmethod
    def message(message_id: int | None) -> Marks:
        """The board's message is `message_id`, showing nothing known yet."""
        return Marks((("message_id", message_id),))

    @staticmethod
    def ping(message_id: int | None) -> Marks:
        """The game's last turn ping is `message_id` (None: none to delete)."""
        return Marks((("ping_message_id", message_id),))

    def then(self, later: Marks) -> Marks:
        """These marks with `later`'s told over them."""
        return Marks(tuple({**dict(self.told), **dict(later.told)}.items()))

    def on(self, row: StoredGame) -> StoredGame:
        """`row` as these marks say its messages are."""
        return replace(row, **dict(self.told)) if self.told else row  # type: ignore[arg-type]

    @property
    def columns(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.told)


class Behind:
    """The marks told and not yet written, by game; each game's written by one write at a
    time (a write under way for a game keeps the others from taking its newer marks, so
    an older value never lands over a newer one)."""

    def __init__(self) -> None:
        self._told: dict[int, Marks] = {}
        self._writing: dict[int, Marks] = {}  # by game: the marks a write is carrying
        self._landed: dict[int, tuple[float, Marks]] = {}  # by game: when, and what

    def __len__(self) -> int:
        return len(self._told)

    def tell(self, game_id: int, marks: Marks) -> None:
        self._told[game_id] = self._told.get(game_id, Marks()).then(marks)

    def on(self, row: StoredGame) -> StoredGame:
        """`row` as read, with the marks of its game not yet written over it: those being
        written and those just written too (the read may have begun before them)."""
        landed = self._landed.get(row.id)
        if landed is not None and time.monotonic() - landed[0] < LANDED_FOR:
            row = landed[1].on(row)
        for marks in (self._writing.get(row.id), self._told.get(row.id)):
            if marks is not None:
                row = marks.on(row)
        return row

    def message_of(self, game_id: int, read: int | None) -> int | None:
        """The game's board message as `on` would lay it over a row that read `read`: for a
        listing that reads no whole row (`matches.records.GameSummary`)."""
        landed = self._landed.get(game_id)
        layers = [self._writing.get(game_id), self._told.get(game_id)]
        if landed is not None and time.monotonic() - landed[0] < LANDED_FOR:
            layers.insert(0, landed[1])
        message = read
        for marks in layers:
            if marks is not None:
                message = dict(marks.told).get("message_id", message)  # type: ignore[assignment]
        return message

    @contextmanager
    def taken(self, game_id: int) -> Iterator[Marks | None]:
        """The game's marks to write with its next write (None: none, or another write is
        carrying them now); given back if the write raises or does not land (`landed`)."""
        if game_id in self._writing or game_id not in self._told:
            yield None
            return
        marks = self._told.pop(game_id)
        self._writing[game_id] = marks
        try:
            yield marks
        except BaseException:
            self._give_back({game_id: marks})
            raise
        finally:
            del self._writing[game_id]

    def landed(self, game_id: int, marks: Marks | None, written: bool) -> None:
        """After `taken`: a write that did not land gives its marks back."""
        if marks is None:
            return
        if written:
            self._land({game_id: marks})
        else:
            self._give_back({game_id: marks})

    async def write(self, writer: Callable[[Mapping[int, Marks]], Awaitable[None]]) -> int:
        """Write every game's marks not being written now in one go: how many games."""
        taken = {
            game_id: marks for game_id, marks in self._told.items() if game_id not in self._writing
        }
        if not taken:
            return 0
        for game_id in taken:
            del self._told[game_id]
        self._writing.update(taken)
        try:
            await writer(taken)
        except BaseException:
            self._give_back(taken)
            raise
        finally:
            for game_id in taken:
                del self._writing[game_id]
        self._land(taken)
        return len(taken)

    def _land(self, written: Mapping[int, Marks]) -> None:
        """Marks written: still laid over what is read for `LANDED_FOR` seconds."""
        now = time.monotonic()
        if len(self._landed) > _LANDED_KEPT:
            self._landed = {
                game_id: landed
                for game_id, landed in self._landed.items()
                if now - landed[0] < LANDED_FOR
            }
        for game_id, marks in written.items():
            landed = self._landed.get(game_id)
            before = landed[1] if landed is not None and now - landed[0] < LANDED_FOR else Marks()
            self._landed[game_id] = (now, before.then(marks))

    def _give_back(self, taken: Mapping[int, Marks]) -> None:
        """Marks that did not make it, under whatever was told since."""
        for game_id, marks in taken.items():
            self._told[game_id] = marks.then(self._told.get(game_id, Marks()))
