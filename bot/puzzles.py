"""`/puzzle game:`: a position where one move wins or saves the game, for one player.

The puzzle comes privately: the board (the pieces that can move marked, as in
a game), what to find, and the usual move menu. Picking a move answers at
once, in the same message: right or wrong, the solution on the board, and a
**Next puzzle** button. The menu's and the button's `custom_id` carry the
puzzle's id (or the game), so they work after a restart. A player's first
answer to a puzzle on a server counts (`matches.puzzles`): their score is on
`/profile`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import discord
from discord import ui

import words
from bot import declare, images, options, replies
from bot.answers import Answer
from bot.components import PREFIX, move_option
from bot.replies import NO_MENTIONS, Outgoing
from bot.table import Table, guarded, guild_id_of
from games import puzzles
from games.base import GameState
from games.puzzles import Puzzle
from matches import ordered_moves
from matches.puzzles import Verdict
from words.games import side_names, title

PUZZLE_FILE = "puzzle.png"
_PUZZLE_ID = r"(?P<puzzle>[a-z]{4,5}-[0-9a-f]{10})"


class Puzzles:
    """`/puzzle`, its move menu and its Next button, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    def command(self) -> declare.Command:
        return declare.command(
            "puzzle", self.puzzle, about={"game": "command.about.puzzle-game"},
            choices={"game": declare.game_choices()}, guild_only=True,
        )  # fmt: skip

    @guarded
    async def puzzle(self, answer: Answer, game: Annotated[object, str]) -> None:
        """A position where one move wins or saves the game: find it (only for you)."""
        spec = options.game_name("game", game)
        guild_id, user_id = guild_id_of(answer.interaction), answer.interaction.user.id
        chosen = await self.service.puzzles.next_for(guild_id, user_id, spec.name)
        await answer.say(puzzle_message(chosen, answer.locale))

    @guarded
    async def puzzle_next(self, answer: Answer, game: str) -> None:
        """Next puzzle: the message shows a new one in place of the one answered."""
        guild_id, user_id = guild_id_of(answer.interaction), answer.interaction.user.id
        chosen = await self.service.puzzles.next_for(guild_id, user_id, game)
        await answer.update(puzzle_message(chosen, answer.locale))

    @guarded
    async def puzzle_answer(self, answer: Answer, puzzle_id: str, move: str) -> None:
        guild_id, user_id = guild_id_of(answer.interaction), answer.interaction.user.id
        verdict = await self.service.puzzles.answer(guild_id, user_id, puzzle_id, move)
        await answer.update(verdict_message(verdict, answer.locale))


def _task(puzzle: Puzzle, state: GameState, locale: str) -> str:
    side = side_names(puzzle.game, locale)[state.to_move]
    if puzzle.goal == "save":
        return words.say("puzzle.task.save", locale, side=side)
    if puzzle.verified_by == "search":
        return words.say("puzzle.task.win-material", locale, side=side)
    return words.say("puzzle.task.win", locale, side=side)


def _footer(puzzle: Puzzle, locale: str) -> str:
    proof = words.say(f"puzzle.proof.{puzzle.verified_by}", locale, depth=puzzle.depth)
    return words.say("puzzle.footer", locale, id=puzzle.id, proof=proof)


def puzzle_message(puzzle: Puzzle, locale: str) -> Outgoing:
    """The puzzle: what to find, the board with the movable pieces marked, the moves."""
    state = puzzles.position(puzzle)
    last = None
    if puzzle.moves:
        before = state.spec.replay(puzzle.variant, puzzle.moves[:-1])
        last = before.describe(puzzle.moves[-1])
    # Drawn from the solver's side, as a player sees the board they play.
    png = images.board_png(
        state, last_move=last, hints=True, locale=locale, perspective=state.to_move
    )
    embed = discord.Embed(
        title=words.say("puzzle.title", locale, title=title(puzzle.game, locale)),
        description=_task(puzzle, state, locale),
        colour=replies.COLOUR,
    )
    embed.set_image(url=f"attachment://{PUZZLE_FILE}")
    embed.set_footer(text=_footer(puzzle, locale))
    items = ui.View(timeout=None)
    menu = [move_option(state, move, locale) for move in ordered_moves(state)]
    items.add_item(PuzzleMove(puzzle.id, menu, locale))
    items.stop()
    alt = images.board_alt(state, locale=locale)
    return Outgoing("", embed, png, PUZZLE_FILE, items, NO_MENTIONS, alt)


def verdict_message(verdict: Verdict, locale: str) -> Outgoing:
    """Right or wrong, and the board after the solution with a Next puzzle button."""
    puzzle = verdict.puzzle
    state = puzzles.position(puzzle)
    solution = state.parse_move(puzzle.solution)
    played = state.parse_move(verdict.move) if verdict.move in state.legal_moves() else verdict.move
    after = state.play(solution)
    png = images.board_png(
        after, last_move=state.describe(solution), locale=locale, perspective=state.to_move
    )
    code = "puzzle.right" if verdict.right else "puzzle.wrong"
    lines = [words.say(code, locale, move=played, solution=solution)]
    if not verdict.counted:
        lines.append(words.say("puzzle.not-counted", locale))
    embed = discord.Embed(
        title=words.say("puzzle.title", locale, title=title(puzzle.game, locale)),
        description="\n".join(lines),
        colour=replies.COLOUR,
    )
    embed.set_image(url=f"attachment://{PUZZLE_FILE}")
    embed.set_footer(text=_footer(puzzle, locale))
    items = ui.View(timeout=None)
    items.add_item(PuzzleNext(puzzle.game, locale))
    items.stop()
    alt = images.board_alt(after, locale=locale)
    return Outgoing("", embed, png, PUZZLE_FILE, items, NO_MENTIONS, alt)


class PuzzleMove(ui.DynamicItem[ui.Select[ui.View]], template=PREFIX + r"pz:" + _PUZZLE_ID):
    """The puzzle's move menu: every legal move of its position."""

    def __init__(
        self,
        puzzle_id: str,
        choices: list[discord.SelectOption] | None = None,
        locale: str | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"{PREFIX}pz:{puzzle_id}",
                placeholder=words.say("puzzle.menu", locale) if locale else None,
                options=choices or [discord.SelectOption(label="-")],
            )
        )
        self.puzzle_id = puzzle_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleMove:
        return cls(match["puzzle"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(value) for value in data.get("values", [])]
        puzzles: Puzzles = interaction.client.features.puzzles  # type: ignore[attr-defined]
        await puzzles.puzzle_answer(
            interaction, puzzle_id=self.puzzle_id, move=values[0] if values else ""
        )


class PuzzleNext(
    ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"pzn:(?P<name>oska|lasca|oware)"
):
    """Next puzzle (of the same game)."""

    def __init__(self, game: str, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say("puzzle.next", locale) if locale else "->",
                emoji="🧩",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}pzn:{game}",
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleNext:
        return cls(match["name"])

    async def callback(self, interaction: discord.Interaction) -> None:
        puzzles: Puzzles = interaction.client.features.puzzles  # type: ignore[attr-defined]
        await puzzles.puzzle_next(interaction, game=self.game)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (PuzzleMove, PuzzleNext)
