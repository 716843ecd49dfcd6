"""How long each move took: when each position of a game was reached, kept with the game.

`StoredGame.reached_ms` holds, for the position after ply i (0: the position the
game began at), the time it was reached in milliseconds since the epoch, None
when unknown (the moves of an imported record, a game begun before Kamen kept
times). The ledger stamps every write that begins a game or changes its moves
(`stamped`); a move's time is then the time from the position before it to its
own (`move_times`). Moves taken back (only in unrated games) take their times with
them; the next move is timed from when its position was first reached.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from matches.records import StoredGame


def _ms(at: datetime) -> int:
    return round(at.timestamp() * 1000)


def stamped(before: StoredGame | None, after: StoredGame, now: datetime) -> StoredGame:
    """`after` (the row about to be written over `before`, None for a new one) with the
    times its positions were reached: those it kept from `before`, `now` for the new ones."""
    if after.players is None:  # a challenge: no position is being played yet
        return after
    count = len(after.moves)
    if before is None or before.players is None:  # the game begins now, where it stands
        return replace(after, reached_ms=(None,) * count + (_ms(now),))
    if after.moves == before.moves:
        return replace(after, reached_ms=before.reached_ms)
    kept = 0
    while kept < min(count, len(before.moves)) and after.moves[kept] == before.moves[kept]:
        kept += 1
    times = list(before.reached_ms[: kept + 1])
    times += [None] * (kept + 1 - len(times))
    times += [_ms(now)] * (count - kept)  # none when moves were taken back
    return replace(after, reached_ms=tuple(times))


def move_times(row: StoredGame) -> tuple[int | None, ...]:
    """Each move's time in milliseconds, ply 1 first; None where it was not recorded."""
    times = row.reached_ms
    found: list[int | None] = []
    for ply in range(1, len(row.moves) + 1):
        start = times[ply - 1] if ply - 1 < len(times) else None
        end = times[ply] if ply < len(times) else None
        found.append(end - start if start is not None and end is not None else None)
    return tuple(found)
