"""Boards are drawn off the event loop: while one is drawn, the bot goes on answering."""

from __future__ import annotations

import asyncio
import functools
import io

from PIL import Image

from bot import images
from games.registry import GAMES


async def test_the_event_loop_goes_on_while_boards_are_drawn() -> None:
    state = GAMES["lasca"].new().play("a3-b4")
    ticks = 0
    drawing = True

    async def other_servers() -> None:  # what the loop does for everyone else meanwhile
        nonlocal ticks
        while drawing:
            ticks += 1
            await asyncio.sleep(0)

    beside = asyncio.create_task(other_servers())
    await asyncio.sleep(0)
    before = ticks
    pngs = [
        await images.drawn(functools.partial(images.board_png, state, hints=True))
        for _ in range(5)
    ]
    drawing = False
    await beside
    # Drawn on the loop, the five boards would have let no other task run between them.
    assert ticks - before >= 5
    board = Image.open(io.BytesIO(pngs[0]))
    assert board.format == "PNG" and images.BOARD_SIZE in board.size
    assert len(set(pngs)) == 1  # the same board every time, whichever thread drew it
