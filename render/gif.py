"""Replay GIFs: the start of a game, then one frame per move, each naming its move.

The frames share the palette of their board (one per size and perspective),
so the GIF needs no quantizing and Pillow writes only the rectangle that
changed from one frame to the next: a 60-move game is a few hundred kilobytes,
built in a fraction of a second.
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
    frames: list[Image.Image] = []
    last: MoveInfo | None = None
    for index, state in enumerate(states):
        if index and infos[index - 1] is not None:
            last = infos[index - 1]
        if last_real_ply(state.moves) < 0:
            last = None
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
    durations = [frame_ms] * len(frames)
    durations[0] = max(frame_ms, FIRST_MS)
    durations[-1] = max(frame_ms, LAST_MS)
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
