"""Buttons and menus whose `custom_id` carries the game id and the move number.

Every item here is a `DynamicItem`: discord.py finds it again from the
`custom_id` alone, so the components of a board posted before a restart
still work. The move number (`ply`) is the position the board showed; the
service refuses a click on an older board as stale.

discord.py drops a click whose `custom_id` is no longer on the message
(a client that had not yet shown an edit). `route_orphan` answers those:
it parses the `custom_id` with the same templates and runs the same
callback, so the player hears that the board is out of date instead of
seeing "This interaction failed".

A click acts only on the game of the message it was made on (`checked`):
a modified client can send any custom_id on any message, and game B's menu
clicked on game A's board must neither move B nor replace A's board.

Views are sent "stopped": discord.py then keeps no view per message (memory
stays flat with thousands of boards), and the dynamic items registered at
start-up do all the dispatching.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, cast

import discord
from discord import ui

import words
from games.base import GameState
from matches import GameView, Status, ordered_moves, origin

PREFIX = "kamen:"
MAX_OPTIONS = 25

_ID = r"(?P<game>[0-9]{1,20})"
_PLY = r"(?P<ply>[0-9]{1,6})"
_MOVE = r"(?P<move>[A-Za-z0-9x:\-]{1,60})"  # a move's text, as the engines write it


class TableHandlers(Protocol):
    async def on_its_message(self, interaction: discord.Interaction, game_id: int) -> bool: ...

    async def unknown_component(self, interaction: discord.Interaction) -> None: ...


class ChallengeHandlers(Protocol):
    async def answer_challenge(
        self, interaction: discord.Interaction, what: str, game_id: int
    ) -> None: ...

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class PlayingHandlers(Protocol):
    async def move_by_menu(
        self,
        interaction: discord.Interaction,
        game_id: int,
        ply: int,
        move: str,
        *,
        second_step: bool = False,
    ) -> None: ...

    async def pick_piece(
        self, interaction: discord.Interaction, game_id: int, ply: int, square: str
    ) -> None: ...

    async def ask_resign(
        self, interaction: discord.Interaction, game_id: int | None = None
    ) -> None: ...

    async def resign(self, interaction: discord.Interaction, *, game_id: int) -> None: ...

    async def draw(
        self, interaction: discord.Interaction, *, game_id: int | None = None
    ) -> None: ...

    async def decline_draw(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def claim(self, interaction: discord.Interaction, *, game_id: int) -> None: ...

    async def answer_takeback(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None: ...


class ReviewHandlers(Protocol):
    async def replay_from_board(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def record_from_board(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def review_from_board(self, interaction: discord.Interaction, game_id: int) -> None: ...


class Handlers(Protocol):
    """The features the components reach (`bot.actions.Features` is it), each by what it
    handles: named here, so that the components need not import the features that build
    them."""

    @property
    def table(self) -> TableHandlers: ...

    @property
    def challenges(self) -> ChallengeHandlers: ...

    @property
    def playing(self) -> PlayingHandlers: ...

    @property
    def reviews(self) -> ReviewHandlers: ...


def features_of(interaction: discord.Interaction) -> Handlers:
    """The bot's features, which the client carries (resources are passed in, not global)."""
    return cast("Handlers", interaction.client.features)  # type: ignore[attr-defined]


async def checked(interaction: discord.Interaction, game_id: int) -> Handlers | None:
    """The features, if the game the custom_id names is the one of the clicked message
    (a modified client can send any custom_id from any message); else None, refused."""
    handlers = features_of(interaction)
    return handlers if await handlers.table.on_its_message(interaction, game_id) else None


def _values(interaction: discord.Interaction) -> list[str]:
    data = cast("dict[str, Any]", interaction.data or {})
    return [str(value) for value in data.get("values", [])]


def stopped(view: ui.View) -> ui.View:
    """`view`, marked finished so discord.py does not store it (see the module docstring)."""
    view.stop()
    return view


# ---------------------------------------------------------------- challenges


class ChallengeAnswer(
    ui.DynamicItem[ui.Button[ui.View]],
    template=PREFIX + r"(?P<answer>accept|decline|cancel):" + _ID,
):
    """Accept, Decline (the challenged user) or Cancel (the challenger) a challenge."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def __init__(self, answer: str, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say(f"bot.button.{answer}", locale),
                style=self.STYLES[answer],
                custom_id=f"{PREFIX}{answer}:{game_id}",
            )
        )
        self.answer = answer
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeAnswer:
        return cls(match["answer"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.challenges.answer_challenge(
                interaction, what=self.answer, game_id=self.game_id
            )


def challenge_view(view: GameView, locale: str) -> ui.View:
    """Accept, Decline and Cancel, in the server's language."""
    items = ui.View(timeout=None)
    items.add_item(ChallengeAnswer("accept", view.id, locale))
    if view.opponent_id is not None:
        items.add_item(ChallengeAnswer("decline", view.id, locale))
    items.add_item(ChallengeAnswer("cancel", view.id, locale))
    return stopped(items)


# ---------------------------------------------------------------- moving


def move_option(state: GameState, move: str, locale: str) -> discord.SelectOption:
    """A move menu's option: the move, and what it takes."""
    info = state.describe(move)
    taken = words.say("bot.option.takes", locale, captured=info.captured) if info.captured else None
    return discord.SelectOption(label=move, value=move, description=taken)


class MoveSelect(ui.DynamicItem[ui.Select[ui.View]], template=PREFIX + r"move:" + _ID + ":" + _PLY):
    """A menu of every legal move, when there are at most 25."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: Sequence[discord.SelectOption] = (),
        locale: str | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"{PREFIX}move:{game_id}:{ply}",
                placeholder=words.say("bot.menu.move", locale),
                options=list(options) or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        [move] = _values(interaction)[:1] or [""]
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.move_by_menu(
                interaction, game_id=self.game_id, ply=self.ply, move=move
            )


class PieceSelect(
    ui.DynamicItem[ui.Select[ui.View]], template=PREFIX + r"piece:" + _ID + ":" + _PLY
):
    """The first step of a two-step pick: which piece (or pit) to move."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: Sequence[discord.SelectOption] = (),
        locale: str | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"{PREFIX}piece:{game_id}:{ply}",
                placeholder=words.say("bot.menu.piece", locale),
                options=list(options) or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PieceSelect:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        [square] = _values(interaction)[:1] or [""]
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.pick_piece(
                interaction, game_id=self.game_id, ply=self.ply, square=square
            )


class DestinationSelect(
    ui.DynamicItem[ui.Select[ui.View]], template=PREFIX + r"to:" + _ID + ":" + _PLY
):
    """The second step of a two-step pick: the moves of the chosen piece (an ephemeral menu)."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: Sequence[discord.SelectOption] = (),
        locale: str | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"{PREFIX}to:{game_id}:{ply}",
                placeholder=words.say("bot.menu.destination", locale),
                options=list(options) or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> DestinationSelect:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        [move] = _values(interaction)[:1] or [""]
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.move_by_menu(
                interaction, game_id=self.game_id, ply=self.ply, move=move, second_step=True
            )


class PlayButton(
    ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"play:" + _ID + ":" + _PLY + ":" + _MOVE
):
    """One tap for a forced move: "Play c5xa3" when it is the only legal move."""

    def __init__(self, game_id: int, ply: int, move: str, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say("bot.button.play", locale, move=move),
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}play:{game_id}:{ply}:{move}",
            )
        )
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        return cls(int(match["game"]), int(match["ply"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.move_by_menu(
                interaction, game_id=self.game_id, ply=self.ply, move=self.move
            )


def destination_view(view: GameView, moves: Sequence[str], locale: str) -> ui.View:
    """The moves of one piece (the service's choices for it), as a private menu in the
    language of the player who picked the piece."""
    items = ui.View(timeout=None)
    options = [move_option(view.state, move, locale) for move in moves[:MAX_OPTIONS]]
    items.add_item(DestinationSelect(view.id, view.ply, options, locale))
    return stopped(items)


# ---------------------------------------------------------------- resigning and draws


class _GameButton(ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"x:" + _ID + ":" + _PLY):
    """A button about one game at one move number; subclasses name their action and the
    code of their label (`label`, or the one given)."""

    action = "x"
    label = ""
    style = discord.ButtonStyle.secondary

    def __init__(
        self, game_id: int, ply: int, label: str | None = None, locale: str | None = None
    ) -> None:
        super().__init__(
            ui.Button(
                label=words.say(label or self.label, locale),
                style=self.style,
                custom_id=f"{PREFIX}{self.action}:{game_id}:{ply}",
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> _GameButton:
        return cls(int(match["game"]), int(match["ply"]))


class ResignButton(_GameButton, template=PREFIX + r"resign:" + _ID + ":" + _PLY):
    """Resign: asks for a confirmation first (an ephemeral button)."""

    action, label, style = "resign", "bot.button.resign", discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.ask_resign(interaction, game_id=self.game_id)


class ResignConfirm(_GameButton, template=PREFIX + r"resign-yes:" + _ID + ":" + _PLY):
    """Yes, resign."""

    action, label, style = "resign-yes", "bot.button.resign-yes", discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.resign(interaction, game_id=self.game_id)


class DrawButton(_GameButton, template=PREFIX + r"draw:" + _ID + ":" + _PLY):
    """Offer a draw, or accept the one the opponent offered."""

    action, label, style = "draw", "bot.button.draw", discord.ButtonStyle.secondary

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.draw(interaction, game_id=self.game_id)


class DrawDecline(_GameButton, template=PREFIX + r"draw-no:" + _ID + ":" + _PLY):
    """Decline the opponent's draw offer."""

    action, label, style = "draw-no", "bot.button.draw-decline", discord.ButtonStyle.secondary

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.decline_draw(interaction, game_id=self.game_id)


class ClaimButton(_GameButton, template=PREFIX + r"claim:" + _ID + ":" + _PLY):
    """Claim an untimed game the opponent abandoned (the service says whether it may be)."""

    action, label, style = "claim", "bot.button.claim", discord.ButtonStyle.secondary

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.claim(interaction, game_id=self.game_id)


class _FinishedButton(ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"over-x:" + _ID):
    """A button of a finished game's board; subclasses name their action and label."""

    action = "over-x"
    label = ""
    style = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say(self.label, locale) if self.label else "·",
                style=self.style,
                custom_id=f"{PREFIX}{self.action}:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> _FinishedButton:
        return cls(int(match["game"]))


class RematchButton(_FinishedButton, template=PREFIX + r"rematch:" + _ID):
    """Rematch: the same game again, the sides swapped, the same rules and time."""

    action, label, style = "rematch", "bot.button.rematch", discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.challenges.rematch(interaction, game_id=self.game_id)


class ReplayButton(_FinishedButton, template=PREFIX + r"replay:" + _ID):
    """Replay: the step-through viewer of the game, privately."""

    action, label = "replay", "bot.button.replay"

    async def callback(self, interaction: discord.Interaction) -> None:
        await features_of(interaction).reviews.replay_from_board(interaction, game_id=self.game_id)


class ReviewButton(_FinishedButton, template=PREFIX + r"review:" + _ID):
    """Review: what each move changed, privately (bot/reviews.py)."""

    action, label = "review", "review.button"

    async def callback(self, interaction: discord.Interaction) -> None:
        await features_of(interaction).reviews.review_from_board(interaction, game_id=self.game_id)


class RecordButton(_FinishedButton, template=PREFIX + r"record:" + _ID):
    """Record: the game's record as a file, privately."""

    action, label = "record", "bot.button.record"

    async def callback(self, interaction: discord.Interaction) -> None:
        await features_of(interaction).reviews.record_from_board(interaction, game_id=self.game_id)


def finished_view(view: GameView, locale: str) -> ui.View:
    """Rematch (for a game two sides played, not a study), Replay, Review and Record."""
    items = ui.View(timeout=None)
    if view.players is not None and len(set(view.players)) == 2:
        items.add_item(RematchButton(view.id, locale))
    items.add_item(ReplayButton(view.id, locale))
    if view.moves:
        items.add_item(ReviewButton(view.id, locale))
    items.add_item(RecordButton(view.id, locale))
    return stopped(items)


def resign_confirm_view(game_id: int, ply: int, locale: str | None = None) -> ui.View:
    """The private confirmation, in the language of the player who asked."""
    items = ui.View(timeout=None)
    items.add_item(ResignConfirm(game_id, ply, locale=locale))
    return stopped(items)


def board_view(view: GameView, menu_max: int, locale: str) -> ui.View | None:
    """The components of a game's board: a move menu (or a two-step pick), Resign and Draw
    (and Claim, in an untimed game between two people).

    The menu lists every legal move when there are at most `menu_max` (Discord
    allows 25 options), else the pieces that can move, then their moves. None
    once the game is over. While the bot thinks, only Resign is offered. Its words are
    in `locale`, the server's language (the board is public). A finished game's board
    offers Rematch, Replay and Record instead.
    """
    if view.status is Status.FINISHED:
        return finished_view(view, locale)
    if view.to_move is None:
        return None
    items = ui.View(timeout=None)
    if not view.bot_to_move:
        moves = list(ordered_moves(view.state))
        if len(moves) == 1:  # forced: one tap, not a menu of one
            items.add_item(PlayButton(view.id, view.ply, moves[0], locale))
        elif len(moves) <= menu_max:
            options = [move_option(view.state, move, locale) for move in moves]
            items.add_item(MoveSelect(view.id, view.ply, options, locale))
        else:
            pieces = _piece_options(view, moves, locale)
            items.add_item(PieceSelect(view.id, view.ply, pieces, locale))
    resign = ResignButton(game_id=view.id, ply=view.ply, locale=locale)
    resign.row = 1
    items.add_item(resign)
    if view.can_offer_draw:
        pending = view.draw_offer_by is not None
        label = "bot.button.draw-accept" if pending else None
        draw = DrawButton(view.id, view.ply, label, locale)
        draw.row = 1
        items.add_item(draw)
        if pending:
            decline = DrawDecline(view.id, view.ply, locale=locale)
            decline.row = 1
            items.add_item(decline)
    if view.can_be_claimed:
        claim = ClaimButton(view.id, view.ply, locale=locale)
        claim.row = 1
        items.add_item(claim)
    return stopped(items)


def _piece_options(view: GameView, moves: list[str], locale: str) -> list[discord.SelectOption]:
    counts: dict[str, int] = {}
    for move in moves:
        square = origin(view.state, move)
        counts[square] = counts.get(square, 0) + 1
    return [
        discord.SelectOption(
            label=square,
            value=square,
            description=words.say("bot.option.moves", locale, count=n),
        )
        for square, n in list(counts.items())[:MAX_OPTIONS]
    ]


# ---------------------------------------------------------------- the clicks discord.py drops


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    ChallengeAnswer,
    MoveSelect,
    PlayButton,
    PieceSelect,
    DestinationSelect,
    ResignButton,
    ResignConfirm,
    DrawButton,
    DrawDecline,
    ClaimButton,
    RematchButton,
    ReplayButton,
    ReviewButton,
    RecordButton,
)


# Dynamic items of other modules (the community's page buttons...), registered by the client.
_REGISTERED: list[type[ui.DynamicItem[Any]]] = []


def register(*items: type[ui.DynamicItem[Any]]) -> None:
    """Add dynamic items made elsewhere, so that their orphaned clicks are answered too."""
    _REGISTERED.extend(item for item in items if item not in _REGISTERED)


def every_item() -> tuple[type[ui.DynamicItem[Any]], ...]:
    """Every dynamic item the client registers: these, and the ones registered from elsewhere."""
    return (*DYNAMIC_ITEMS, *_REGISTERED)


def dispatched_by_library(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether discord.py will hand this click to a dynamic item: the component must be on
    the message the interaction came from (its own test, repeated here)."""
    message = interaction.message
    if message is None:
        return False
    data = cast("dict[str, Any]", interaction.data or {})
    kind = data.get("component_type")
    view = ui.View.from_message(message, timeout=None)
    view.stop()
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


async def route_orphan(interaction: discord.Interaction) -> bool:
    """Answer a component click discord.py would drop; True if this one was ours to answer."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data = cast("dict[str, Any]", interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    for factory in every_item():
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            continue
        if dispatched_by_library(interaction, custom_id):
            return False
        item = await factory.from_custom_id(interaction, cast("ui.Item[Any]", None), match)
        await item.callback(interaction)
        return True
    await features_of(interaction).table.unknown_component(interaction)
    return True
