"""Replay GIFs: the start of a game, then one frame per move, each naming its move.

The frames share the palette of their board (one per size and perspective),
so the GIF needs no quantizing and Pillow writes only the rectangle that
changed from one frame to the next: a 60-move game is a few hundred kilobytes,
built in a fraction of a second.

A replay lasts at most `LONGEST_MS`, whatever the game's length: a short game
plays at `FRAME_MS` a move; a longer one plays its moves faster, down to
`FASTEST_MS` a move; a longer one still shows only every few moves, spread
evenly. The start, and the last move with the final position, keep their hold.
"""

from __future__ import annotations

import io

from PIL import Image

from games.base import GameError, GameState, MoveInfo, Outcome, Side
from games.record import Record
from render.boards import frame, last_real_ply
from render.theme import THEME, Theme

FRAME_MS = 900
FIRST_MS = 1500
LAST_MS = 4000
LONGEST_MS = 30_000
"""The longest a replay lasts: Oware games of 150 moves and more would run for minutes."""
FASTEST_MS = 100
"""The shortest delay a move gets (unless `frame_ms` asks for less): faster than ten moves
a second a move is a flicker nobody can follow, so past that a replay skips moves rather
than blur them."""
HONOURED_MS = 20
"""The shortest delay viewers honour: browsers, and so Discord's clients, show a delay
under 20 ms (0 or 1 hundredth) as 100 ms. No frame is ever given less."""
TICK_MS = 10
"""A GIF counts delays in hundredths of a second."""


def replay(
    game: GameState | Record,
    *,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    frame_ms: int = FRAME_MS,
    theme: Theme = THEME,
    locale: str | None = None,
) -> bytes:
    """An animated GIF of a whole game: the start, then a frame per move, the last held.

    `game` is a state (its moves are replayed from the start of its game) or a
    record (whose First and Second tags name the players unless `players`
    does). A state set up from text, whose moves do not start from the
    beginning, gives a single frame. `outcome` overrides the engine's on the
    last frame (a resignation, a draw by agreement, a loss on time). Every
    frame is worded in the language of `locale` (English when None).
    """
    states, infos = _history(game)
    if players is None and isinstance(game, Record) and (game.first or game.second):
        players = (game.first or "?", game.second or "?")
    shown, durations = timing(len(states), frame_ms)
    # What each position highlights: the last move before it that moved something.
    lasts: list[MoveInfo | None] = [None]
    for info in infos:
        lasts.append(info if info is not None else lasts[-1])
    frames: list[Image.Image] = []
    for index in shown:
        state = states[index]
        last = lasts[index] if last_real_ply(state.moves) >= 0 else None
        ending = outcome if index == len(states) - 1 else None
        frames.append(
            frame(
                state,
                last_move=last,
                perspective=perspective,
                size=size,
                players=players,
                outcome=ending,
                theme=theme,
                locale=locale,
            )
        )
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
    )
    return out.getvalue()


def timing(count: int, frame_ms: int = FRAME_MS) -> tuple[list[int], list[int]]:
    """Which of `count` positions a replay shows, and how long each stays (ms).

    The first (the start) holds `FIRST_MS` and the last (the last move, the
    final position) `LAST_MS`, or `frame_ms` when longer; the moves between
    share what is left of `LONGEST_MS`, each at most `frame_ms` and at least
    `FASTEST_MS`. When even that is too long, evenly spread moves are shown
    and the rest skipped. Delays are whole hundredths of a second, as a GIF
    stores them.
    """
    frame_ms = max(HONOURED_MS, frame_ms)
    first, last = max(frame_ms, FIRST_MS), max(frame_ms, LAST_MS)
    if count == 1:
        return [0], [last]
    middle = list(range(1, count - 1))
    room = LONGEST_MS - first - last
    fastest = min(frame_ms, FASTEST_MS)
    pace = min(frame_ms, room // max(1, len(middle)))
    if pace < fastest:
        pace = fastest
        keep = max(0, room // pace)
        # Evenly spread: the i-th move kept is the one a fraction i/keep along the game.
        middle = [middle[i * len(middle) // keep] for i in range(keep)]
    pace -= pace % TICK_MS
    return [0, *middle, count - 1], [first, *[pace] * len(middle), last]


def _history(game: GameState | Record) -> tuple[list[GameState], list[MoveInfo | None]]:
    """Every state from the start, and what each move touched (None for a pass).

    Not `spec.replay`: a replay needs every position on the way, not the last.
    """
    final = None if isinstance(game, Record) else game
    states: list[GameState] = [game.spec.start(game.variant)]
    moves = game.moves
    infos: list[MoveInfo | None] = []
    try:
        for move in moves:
            info = states[-1].describe(move)
            infos.append(info if info.path else None)
            states.append(states[-1].play(move))
    except GameError:
        if final is None:
            raise
        return [final], []
    if final is not None and states[-1].to_text() != final.to_text():
        return [final], []
    return states, infos
