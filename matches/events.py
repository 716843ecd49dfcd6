"""Domain events: a game started, a move was played, a game finished, a manager acted.

The ledger produces them at the one place each happens (the commit of that
change) and hands them to `Events.publish` only after the write has
committed, so a subscriber that reads the store sees the change. The parts
of the service react to them without touching the play code (the
tournaments hear each game's end: `matches.tournaments`), and so do the
adapters (`service.events.subscribe(callback)`). A rated game's ratings and
season tables are not a reaction: they are written in the very transaction
that ends the game (`Store.finish_rated`), and its `GameFinished` carries
what they did. A subscriber may be a plain function or a coroutine function;
one that raises is logged and the others still run: the move has been made,
and nothing a subscriber does can undo it.

A subscriber whose work must not hold up the player who made the change (a
tournament moving on after one of its games ended) leaves it to `later`: it
runs in a task of its own, and `settled` waits until every such task is done
(a test, or a process closing its store, waits on it).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.base import Side, Termination
from matches.ratings import RatingChange
from matches.records import AuditEntry

if TYPE_CHECKING:
    from matches.views import GameView

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game began: a challenge was accepted, or a game against Kamen or a study started."""

    game_id: int
    guild_id: int
    channel_id: int
    game: str
    players: tuple[int, int]
    ai_level: str | None


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """One move was played (`pass` too, by the player whose only move it was)."""

    game_id: int
    guild_id: int
    game: str
    ply: int  # 1-based: the move's number in the game's move list
    move: str
    side: Side
    mover_id: int


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game ended, by the rules, resignation, agreement or time.

    `rated`: the game counted for ratings (`matches.ratings.counts`); it was
    rated in the transaction that ended it, and `ratings` holds what it did
    to each player's rating, first player first.
    """

    game_id: int
    guild_id: int
    game: str
    players: tuple[int, int]
    result: str
    reason: Termination
    rated: bool
    ratings: tuple[RatingChange, ...] = ()


@dataclass(frozen=True, slots=True)
class Audited:
    """A manager acted, and it is in the server's audit log (`matches.managers`).

    `log_channel_id` is the server's log channel then (None: none); `game` the game
    a void annulled, whose players are told.
    """

    entry: AuditEntry
    log_channel_id: int | None
    game: GameView | None = None


Event = GameStarted | MovePlayed | GameFinished | Audited
Subscriber = Callable[[Event], Awaitable[None] | None]


class Events:
    """The subscribers, told of each event in the order they subscribed, and the work they
    left running in the background."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._background: set[asyncio.Task[None]] = set()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call `callback(event)` after every committed event; returns a function to unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    async def publish(self, events: list[Event]) -> None:
        for event in events:
            for callback in list(self._subscribers):
                try:
                    done = callback(event)
                    if inspect.isawaitable(done):
                        await done
                except Exception:
                    log.exception("a subscriber failed on %r; the game goes on", event)

    def later(self, work: Coroutine[Any, Any, object], what: str) -> None:
        """Run a subscriber's `work` in a task of its own, so the change's caller does not
        wait for it; a failure is logged as `what` failing."""
        task = asyncio.get_running_loop().create_task(_logged(work, what))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settled(self) -> None:
        """Wait until the work left in the background is done (and the work it left)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)


async def _logged(work: Coroutine[Any, Any, object], what: str) -> None:
    try:
        await work
    except Exception:
        log.exception("%s failed", what)
