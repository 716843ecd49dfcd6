"""The table: where the boards are. Posting, updating and announcing games in channels.

`Table` holds what every interaction needs (the client, the service, the
picture pool) and knows the game messages: it sends a board as a reply or
edits it in place, strips the components off a board that a newer one
replaces, lets the bot move when it is its turn, and announces results. The
features (`bot.tournaments`, `bot.playing`, …) are each handed it (`bot.actions`).

Latency: the reply that answers an interaction is sent first; bookkeeping
(the board's message id, the old board's components, the bot's move) comes
after, off the player's critical path.

Discord's global limit (50 requests a second for the whole bot, bot/rest.py) counts
every channel message sent, edited or deleted, but not an interaction's response nor
what its token does for 15 minutes: followups in its channel, their edits and deletes,
and edits of the message it answered with (or was clicked on). So the table keeps, in
memory, each game's latest such token (`Reach`) and which messages each token made:
a move's board is its response, the turn's ping a followup, the previous ping deleted
and an old board's menu taken off through the token that made them, and Kamen's move
edits the board and pings through the player's last one. Only what no live token
reaches (a message older than ~14 minutes, or from before a restart, or a game no one
has touched since) goes through the channel, on the global limit, counted in `/metrics`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import inspect
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from datetime import UTC, datetime, timedelta
from typing import Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar, cast

import discord

import words
from bot import components, images, replies, rest
from bot.answers import Answer
from bot.languages import Languages
from games.base import GameSpec, MoveInfo
from games.record import move_number
from matches import (
    BadInput,
    ChallengeRepeated,
    GameView,
    MatchError,
    MatchService,
    MoveResult,
    NoGameHere,
    StaleAction,
    Status,
)
from matches.events import Event, GameFinished
from matches.ratings import RatingChange
from runtime.metrics import Metrics
from runtime.opponent import Opponent, thinking_for
from runtime.settings import Settings
from words.service import headline as move_headline
from words.service import said_parts

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T", bound="Feature")
NAMES_KEPT = 10_000
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a slow game's thread stays in the channel list
STARTER_SLACK = 60.0  # seconds between a game's creation and the message its thread starts on
POSTING = timedelta(minutes=1)  # how long a claim on posting a message once holds
RECENT = 100  # the channel's messages read, since an attempt, for one posted before a kill
# A token is used until a minute before its 15 are up: a slow request must not outlive it.
TOKEN_SPARE = timedelta(minutes=1)
# discord.py puts a webhook message's id in the request's path, where Discord also takes
# `@original`: the message an interaction answered with, or was clicked on.
ORIGINAL = cast(int, "@original")
INTERACTION_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}


def nonce_of(key: str) -> str:
    """The nonce of the message named `key`: sent again, Discord returns the one created."""
    return hashlib.sha256(key.encode()).hexdigest()[:25]  # Discord's longest nonce


@dataclasses.dataclass(frozen=True, slots=True)
class Reach:
    """What one interaction's token reaches off Discord's global limit until `until`:
    followups in its channel, and edits and deletes of them and of its `original` message
    (the one it answered with, or was clicked on)."""

    webhook: discord.Webhook
    channel_id: int | None
    original: int | None
    until: datetime

    def target(self, message_id: int) -> int:
        """How the token names `message_id` in a request."""
        return ORIGINAL if message_id == self.original else message_id


def token_refused(error: discord.HTTPException) -> bool:
    """Whether Discord refused an interaction's token itself (expired, unknown), not the
    message it was asked about: the channel's own route is then the way."""
    return error.status == 401 or error.code in (10015, 50027)


class Feature(Protocol):
    """A feature of the bot (its commands' and components' handlers): an object handed
    the table it works at (`Tournaments(table)`)."""

    @property
    def table(self) -> Table: ...


def guarded(
    handler: Callable[Concatenate[T, Answer, P], Awaitable[None]],
) -> Callable[Concatenate[T, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """Run an interaction handler so that every outcome is answered, in time.

    The handler gets the interaction's `Answer`, which defers by itself when the
    work takes long (bot/answers.py). A refusal of the service becomes a private
    reply, a stale click also shows the current board, and a fault of ours is
    logged and apologised for: the player never sees "This interaction failed".
    Its time and its faults go to the metrics, and it is one line of the log at INFO
    (`interaction`: what was asked, the server, the game, the outcome, the time).
    """
    signature = inspect.signature(handler)

    @functools.wraps(handler)
    async def run(
        self: T, interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        table = self.table
        table.remember(interaction.user)
        kind = INTERACTION_KINDS.get(interaction.type, "other")
        answer = table.answer_to(interaction)
        with contextlib.suppress(TypeError):  # a call the handler refuses fails just below
            game_id = signature.bind_partial(self, answer, *args, **kwargs).arguments.get("game_id")
            answer.game_id = game_id if isinstance(game_id, int) else None
        answer.watch()
        began = time.perf_counter()
        outcome = "ok"
        try:
            with rest.work("interaction"):
                await handler(self, answer, *args, **kwargs)
        except StaleAction as error:
            outcome = f"refused:{error.code}"
            await table.refuse_stale(answer, error, answer.game_id)
        except NoGameHere as error:
            outcome = f"refused:{error.code}"
            await table.refuse_elsewhere(answer, error)
        except ChallengeRepeated as error:
            outcome = f"refused:{error.code}"
            await table.refuse_repeated(answer, error)
        except MatchError as error:
            outcome = f"refused:{error.code}"
            await answer.refuse(error)
        except (discord.HTTPException, TimeoutError) as error:
            # Discord refused or lost our answer: what was committed stands, and the
            # board keeper brings the board up to date (bot/boards.py), soon.
            outcome = "error"
            status = getattr(error, "status", "no answer in time")
            log.warning("answering interaction %s failed: %s %s", interaction.id, status, error)
            table.repair_soon()
            await answer.apologise()
        except Exception:
            outcome = "error"
            table.metrics.error(kind)
            log.exception(
                "handling interaction %s (%s) failed",
                interaction.id,
                getattr(interaction.command, "qualified_name", interaction.data),
            )
            await answer.apologise()
        finally:
            answer.stop()
            seconds = time.perf_counter() - began
            table.metrics.interaction(kind, seconds)
            log.info(
                "interaction",
                extra={
                    "kind": kind,
                    "command": asked(interaction, kind),
                    "server": interaction.guild_id,
                    "game": answer.game_id,
                    "outcome": outcome,
                    "ms": round(seconds * 1000),
                },
            )

    return cast(Callable[Concatenate[T, discord.Interaction, P], Coroutine[Any, Any, None]], run)


def asked(interaction: discord.Interaction, kind: str) -> str:
    """What an interaction asked, for the log: the command's name, or the component's
    custom id with its numbers as `#` (`kamen:move:#:#`); never its token."""
    command = getattr(interaction.command, "qualified_name", None)
    if command:
        return str(command)
    custom_id = cast(dict[str, Any], interaction.data or {}).get("custom_id")
    return re.sub(r"[0-9]+", "#", custom_id) if isinstance(custom_id, str) else kind


def manages(interaction: discord.Interaction) -> bool:
    """Whether the member may manage the server: what `/kamen settings`, the seasons and the
    tournaments ask, whatever Discord's command permissions say (a server may open a
    command to everyone)."""
    return interaction.permissions.manage_guild


def require_manager(interaction: discord.Interaction, refusal: str) -> int:
    """The server, if the member may manage it; else refused in the feature's words."""
    guild_id = guild_id_of(interaction)
    if not manages(interaction):
        raise BadInput(refusal)
    return guild_id


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server an interaction comes from; refused in a direct message."""
    if interaction.guild_id is None:
        raise BadInput("bot.refuse.direct-message")
    return interaction.guild_id


def roles_of(interaction: discord.Interaction) -> tuple[int, ...]:
    """The ids of the asker's roles in the server the interaction comes from (@everyone's
    too), as Discord sent them with it; none in a direct message. The service decides what
    they allow (`matches.limits`)."""
    user = interaction.user
    if not isinstance(user, discord.Member):
        return ()
    return tuple(role.id for role in user.roles)


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel an interaction comes from."""
    if interaction.channel_id is None:
        raise BadInput("bot.refuse.no-channel")
    return interaction.channel_id


async def again(work: Callable[[], Awaitable[Any]], waits: tuple[float, ...]) -> None:
    """`work`, tried again after each of `waits` seconds while Discord refuses or fails it
    (a message that is gone is not retried: `discord.NotFound` goes to the caller)."""
    for wait in (*waits, None):
        try:
            await work()
            return
        except discord.NotFound:
            raise
        except discord.HTTPException as error:
            if wait is None:
                raise
            log.info("Discord answered %s; trying again in %s s", error.status, wait)
            await asyncio.sleep(wait)


class Table:
    """The shared machinery of the bot's handlers; one per client."""

    def __init__(
        self,
        client: discord.Client,
        service: MatchService,
        settings: Settings,
        opponent: Opponent,
        *,
        picture_pool: Executor | None = None,
        metrics: Metrics | None = None,
        wake_repairs: Callable[[], None] | None = None,
    ) -> None:
        self.metrics = metrics if metrics is not None else Metrics()
        self.client = client
        self.service = service
        self.settings = settings
        # seconds before the second and the third try of a ping or a strip
        self.retries = (settings.retry_first, 3 * settings.retry_first)
        self.opponent = opponent
        self.picture_pool = picture_pool
        self.names: OrderedDict[int, str] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._thinking: set[int] = set()
        self._again: set[int] = set()  # games asked for Kamen's move while it thought
        self._ping_locks: dict[int, asyncio.Lock] = {}  # by game id: one ping at a time
        self.started = service.clock()  # changes before this were made by a process gone
        # A board may lag: the runner's board repairs come soon (matches.runner).
        self._wake_repairs = wake_repairs or (lambda: None)
        self._board_locks: dict[int, asyncio.Lock] = {}  # by game id: one board edit at a time
        # Live interaction tokens (`Reach`): each game's latest, and the one that made each
        # message still reachable that way; dropped once spent.
        self._reaches: OrderedDict[int, Reach] = OrderedDict()
        self._made: OrderedDict[int, Reach] = OrderedDict()
        self.languages = Languages(client, service, settings.locale)
        # What each rated game that ended lately did to its players' ratings (its result
        # message shows it): told by the game-finished event, read back after a restart.
        self.rated: OrderedDict[int, tuple[RatingChange, ...]] = OrderedDict()
        service.events.subscribe(self._heard)

    async def refuse_repeated(self, answer: Answer, error: ChallengeRepeated) -> None:
        """The same challenge again: refused, with a link to the first."""
        text = replies.explain(error, answer.locale)
        guild_id, params = answer.interaction.guild_id, error.params
        if guild_id is not None and params.get("message_id"):
            link = (f"https://discord.com/channels/{guild_id}/{params['channel_id']}/"
                    f"{params['message_id']}")  # fmt: skip
            text = f"{text}\n{words.say('bot.challenge-repeated.link', answer.locale, link=link)}"
        await answer.refuse(error, replies.Outgoing(replies.clip(text)))

    async def refuse_elsewhere(self, answer: Answer, error: NoGameHere) -> None:
        """No game here: said with the caller's own games on this server and links to
        them (a move typed in the channel while the game is in its thread)."""
        interaction = answer.interaction
        if error.code != "match.no-game-here" or interaction.guild_id is None:
            await answer.refuse(error)
            return
        mine = [
            view
            for view in await self.service.open_games_of(interaction.user.id)
            if view.guild_id == interaction.guild_id and view.status is Status.ACTIVE
        ]
        if not mine:
            await answer.refuse(error)
            return
        text = replies.explain(error, answer.locale)
        listed = replies.your_games(mine, interaction.guild_id, answer.locale)
        await answer.refuse(error, replies.Outgoing(replies.clip(f"{text}\n{listed}")))

    def _heard(self, event: Event) -> None:
        if isinstance(event, GameFinished) and event.ratings:
            self.rated[event.game_id] = event.ratings
            while len(self.rated) > NAMES_KEPT:
                self.rated.popitem(last=False)

    async def ratings_of(self, view: GameView) -> tuple[RatingChange, ...]:
        """What a finished game did to its players' ratings (nothing if it was not rated)."""
        if view.status is not Status.FINISHED:
            return ()
        if view.id not in self.rated:
            self.rated[view.id] = tuple(await self.service.community.changes_of_game(view.id))
        return self.rated[view.id]

    def answer_to(self, interaction: discord.Interaction) -> Answer:
        """The answer to `interaction`, in its player's and its server's languages."""
        languages = self.languages
        return Answer(
            interaction, languages.player(interaction), languages.server(interaction.guild_id)
        )

    def locale_of(self, view: GameView) -> str:
        """The language of a game's public messages: its server's."""
        return self.languages.server(view.guild_id)

    async def game_of(
        self, interaction: discord.Interaction, game_id: int | None, spec: GameSpec | None
    ) -> GameView:
        """The game a command is about: by its id, else the one in this channel."""
        game = spec.name if spec is not None else None
        if game_id is not None:
            return await self.service.view(
                game_id=game_id, game=game, guild_id=interaction.guild_id
            )
        return await self.service.view_here(channel_id=channel_id_of(interaction), game=game)

    async def on_its_message(self, interaction: discord.Interaction, game_id: int) -> bool:
        """Whether a click names the game of the message it was made on; refused if not.

        A modified client can send any custom_id from any message: a menu of game B
        clicked on the board of game A must not move B, nor replace A's board.
        """
        me = self.client.user
        bot_id = me.id if me else None
        if replies.headed_for(interaction.message, game_id, bot_id):
            return True  # the usual click, decided without a read (the handler scopes its own)
        try:
            view = await self.service.view(game_id=game_id, guild_id=interaction.guild_id)
            if replies.shows_game(interaction.message, view, bot_id):
                return True
            raise BadInput("bot.refuse.foreign-component")
        except MatchError as error:
            await self.answer_to(interaction).refuse(error)
        except Exception:
            self.metrics.error("component")
            log.exception("checking the message of component interaction %s", interaction.id)
            await self.answer_to(interaction).apologise()
        return False

    async def unknown_component(self, interaction: discord.Interaction) -> None:
        """A click no component of Kamen's knows (an old button's shape): said privately."""
        answer = self.answer_to(interaction)
        await answer.say(words.say("bot.unknown-button", answer.locale))

    def repair_soon(self) -> None:
        """A board may not show its game: the board keeper repairs it in a moment."""
        self._wake_repairs()

    # ---------------------------------------------------------------- names

    def remember(self, user: discord.abc.User | None) -> None:
        """Keep a user's display name for the captions of board images (no members intent)."""
        if user is None:
            return
        self.names[user.id] = user.display_name
        self.names.move_to_end(user.id)
        while len(self.names) > NAMES_KEPT:
            self.names.popitem(last=False)

    async def display_name(self, user_id: int | None) -> str:
        """A user's display name: remembered, else asked of Discord once (a rare command's cost)."""
        if user_id is None:
            return ""
        if user_id < 0:  # anonymised by `/kamen me forget`: nobody to ask Discord about
            return words.say("bot.forgotten", self.settings.locale)
        name = self.names.get(user_id)
        if name is None:
            try:
                self.remember(await self.client.fetch_user(user_id))
            except discord.HTTPException:
                return str(user_id)
            name = self.names.get(user_id, str(user_id))
        return name

    def players(self, view: GameView) -> tuple[str, str] | None:
        if view.players is None:
            return None
        first, second = (self.names.get(user_id) for user_id in view.players)
        return (first, second) if first and second else None

    # ---------------------------------------------------------------- interaction tokens

    def reached(self, answer: Answer, view: GameView, *made: int | None) -> None:
        """`answer` went out about `view`'s game: for ~14 minutes its interaction's token
        edits or deletes `made` (messages it answered with or posted) and its original
        message, and, if it came from the game's channel, posts there; none of it on
        Discord's global limit."""
        interaction = answer.interaction
        if not answer.done:
            return
        reach = Reach(
            interaction.followup,
            interaction.channel_id,
            answer.original,
            interaction.expires_at - TOKEN_SPARE,
        )
        if interaction.channel_id == view.channel_id:  # its followups go where it came from
            self._keep(self._reaches, view.id, reach)
        for message_id in {answer.original, *made} - {None}:
            assert message_id is not None
            self._keep(self._made, message_id, reach)

    def _keep(self, reaches: OrderedDict[int, Reach], key: int, reach: Reach) -> None:
        reaches[key] = reach
        reaches.move_to_end(key)
        now = self.service.clock()
        while reaches:  # oldest first, about: the spent ones go
            first = next(iter(reaches.values()))
            if first.until > now and len(reaches) <= NAMES_KEPT:
                break
            reaches.popitem(last=False)

    def _reach(self, reaches: OrderedDict[int, Reach], key: int) -> Reach | None:
        reach = reaches.get(key)
        if reach is not None and reach.until <= self.service.clock():
            del reaches[key]
            return None
        return reach

    async def edit_message(self, channel_id: int, message_id: int, **edit: Any) -> None:
        """Edit a message of Kamen's: through the token that made it while it lives, else
        (on the global limit) through the channel. `discord.NotFound`: it is gone."""
        reach = self._reach(self._made, message_id)
        if reach is not None:
            try:
                await reach.webhook.edit_message(reach.target(message_id), **edit)
                return
            except discord.HTTPException as error:
                if not token_refused(error):
                    raise
                self._made.pop(message_id, None)
        channel = self.client.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(**edit)

    async def delete_message(self, channel_id: int, message_id: int) -> None:
        """Delete a message of Kamen's, the same way (one gone already is no error)."""
        reach = self._reach(self._made, message_id)
        if reach is not None:
            try:
                await reach.webhook.delete_message(reach.target(message_id))
            except discord.NotFound as error:
                if not token_refused(error):  # gone already
                    self._made.pop(message_id, None)
                    return
            except discord.HTTPException as error:
                if not token_refused(error):
                    raise  # tried again by the caller, the same way
            else:
                self._made.pop(message_id, None)
                return
            self._made.pop(message_id, None)  # a token Discord takes no more
        channel = self.client.get_partial_messageable(channel_id)
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(message_id).delete()

    async def post(self, view: GameView, content: str, mentions: discord.AllowedMentions) -> int:
        """A new message in the game's channel (it notifies those `mentions` let through): a
        followup of the game's latest interaction while its token lives, else a channel
        message (on the global limit). The new message's id."""
        reach = self._reach(self._reaches, view.id)
        if reach is not None and reach.channel_id == view.channel_id:
            try:
                sent = await reach.webhook.send(content, allowed_mentions=mentions, wait=True)
            except discord.HTTPException as error:
                if not token_refused(error):
                    raise
                self._reaches.pop(view.id, None)
            else:
                self._keep(self._made, sent.id, reach)
                return sent.id
        channel = self.client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        message = await channel.send(content, allowed_mentions=mentions)
        return message.id

    # ---------------------------------------------------------------- boards

    async def board(
        self,
        view: GameView,
        *,
        headline: str | None = None,
        last_move: MoveInfo | None = None,
        locale: str | None = None,
    ) -> replies.Outgoing:
        """The game's board message: the image (drawn off the event loop), text and components, in
        its server's language (or in `locale`, for one player's eyes)."""
        locale = locale or self.locale_of(view)
        clock = view.live_clock(self.service.clock())
        players = self.players(view)
        png = await images.drawn(
            functools.partial(
                images.board_png,
                view.state,
                last_move=last_move,
                players=players,
                outcome=view.outcome,
                locale=locale,
                clock=clock,
                # The player to move sees what can move (Kamen needs no hints).
                hints=view.status is Status.ACTIVE and not view.bot_to_move,
            )
        )
        menu = components.board_view(view, self.settings.move_menu_max, locale)
        out = replies.board(view, png, locale, headline=headline, components=menu, clock=clock)
        alt = images.board_alt(view.state, players=players, outcome=view.outcome, locale=locale)
        out = dataclasses.replace(out, alt=alt)
        changes = self.rated.get(view.id, ()) if view.status is Status.FINISHED else ()
        if changes and out.embed is not None:
            out.embed.description = "\n".join(
                part
                for part in (out.embed.description, replies.rating_lines(changes, locale))
                if part
            )
        return out

    async def board_now(self, view: GameView) -> replies.Outgoing:
        """The board as a repair shows it: with the last move named, when there was one."""
        if view.status is not Status.ACTIVE or view.last_move is None or view.to_move is None:
            return await self.board(view)
        parts = (
            ("headline.played", {"side": view.to_move.other, "move": view.last_move}),
            ("headline.to-move", {"side": view.to_move}),
        )
        return await self.board(view, headline=said_parts(parts, view.game, self.locale_of(view)))

    async def board_after(self, result: MoveResult) -> replies.Outgoing:
        headline = move_headline(result, self.locale_of(result.view))
        return await self.board(result.view, headline=headline, last_move=result.info)

    async def send_board(
        self, view: GameView, out: replies.Outgoing, *, strip_old: bool = True
    ) -> None:
        """Post a board as a new message in the game's channel, and make it the game's board."""
        channel = self.client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        message = await channel.send(**out.send_kwargs())
        await self.adopt_board(view, message.id, strip_old=strip_old)

    async def adopt_board(self, view: GameView, message_id: int, *, strip_old: bool = True) -> None:
        """`message_id` is now the game's board: the old one (in the same channel) loses its
        components. A game that just moved to a thread has its challenge as the old one."""
        old = view.message_id
        await self.shown(view, message_id)
        if old == message_id:
            return
        if old is not None and strip_old:
            self.spawn(self._strip(view.channel_id, old), f"strip the old board of #{view.id}")

    async def shown(self, view: GameView, message_id: int) -> None:
        """Record that `message_id` now shows the game as `view` has it (the reconciler
        repairs a board whose record lags behind the game)."""
        await self.service.board_shown(view.id, message_id, view.ply, view.status)

    async def _strip(self, channel_id: int, message_id: int) -> None:
        with contextlib.suppress(discord.NotFound):
            await again(lambda: self.edit_message(channel_id, message_id, view=None), self.retries)
        self._made.pop(message_id, None)  # not to be edited again

    @contextlib.asynccontextmanager
    async def showing(self, view: GameView) -> AsyncIterator[GameView]:
        """Edit a game's board, one edit at a time, with the game as it is now.

        Two answers racing (a move and a resignation) each edit the board after their
        commit; the later commit's board could land first and be overwritten by the
        earlier one's. Here the edits of one game take turns, and each shows the game as
        the database has it when its turn comes (`view` itself when nothing changed).
        """
        async with self._board_locks.setdefault(view.id, asyncio.Lock()):
            latest = await self.service.view(game_id=view.id)
            yield view if latest.version == view.version else latest

    def is_showing(self, game_id: int) -> bool:
        """Whether the game's board is being edited right now (its answer may be slow)."""
        lock = self._board_locks.get(game_id)
        return lock is not None and lock.locked()

    async def update_board(self, view: GameView, out: replies.Outgoing) -> None:
        """Edit the game's board message in place; post a new one if it is gone."""
        async with self.showing(view) as now:
            if now is not view:  # the game moved on: its board names its last move
                view, out = now, await self.board_now(now)
            if view.message_id is None:
                await self.send_board(view, out)
                return
            try:
                await self.edit_message(view.channel_id, view.message_id, **out.edit_kwargs())
            except discord.NotFound:
                await self.send_board(view, out)
                return
            await self.shown(view, view.message_id)

    async def refuse_stale(self, answer: Answer, error: MatchError, game_id: int | None) -> None:
        """A click on an old board: say so, and show the board as it is now."""
        view: GameView | None = None
        if game_id is not None:
            try:
                view = await self.service.view(
                    game_id=game_id, guild_id=answer.interaction.guild_id
                )
            except MatchError:
                view = None
        if view is None or view.status is not Status.ACTIVE:
            await answer.refuse(error)
            return
        current = await self.board(view, locale=answer.locale)
        out = replies.Outgoing(
            replies.stale_text(error, view, answer.locale),
            current.embed,
            current.image,
            current.image_name,
            current.components,
        )
        await answer.refuse(error, out)

    # ---------------------------------------------------------------- after a move

    async def after_move(
        self, result: MoveResult, *, new_message: bool, pinged: bool = False
    ) -> None:
        """What follows a committed move once its reply is out: results, the bot's turn,
        and the turn's notification (unless the board, a new message, was it: `pinged`)."""
        view = result.view
        for _ in range(1 + len(result.passes)):  # a pass the bot played for a player counts
            self.metrics.move_played(view.game)
        if result.finished:
            await self.announce_end(view, new_message=new_message)
        elif view.bot_to_move:
            self.let_bot_move(view)
        elif pinged:  # the new board notified them: the previous ping goes
            self.spawn(self.forget_ping(view), f"the old ping in #{view.id}")
        else:  # off the handler's time: the answer is out, the ping is one more message
            self.spawn(self.tell_turn(view, result.mover_id), f"the turn's ping in #{view.id}")

    async def notified_by_board(self, result: MoveResult) -> int | None:
        """Who a board posted as a new message after `result` should notify: the person to
        move, unless it is the mover or Kamen, or they turned notifications off."""
        view = result.view
        user = view.to_move_id
        if view.status is not Status.ACTIVE or user is None or user == view.bot_id:
            return None
        if user == result.mover_id or not await self.service.pings_on(user):
            return None
        return user

    async def forget_ping(self, view: GameView) -> None:
        """Delete the game's last turn ping (a newer message has notified the player)."""
        async with self._ping_locks.setdefault(view.id, asyncio.Lock()):
            now = await self.service.view(game_id=view.id)
            if now.ping_message_id is None:
                return
            old = now.ping_message_id
            with contextlib.suppress(discord.HTTPException):
                await again(lambda: self.delete_message(view.channel_id, old), self.retries)
            await self.service.ping_sent(view.id, None)

    async def tell_turn(self, view: GameView, actor_id: int) -> None:
        """Ping the player to move, unless they are the one who just acted."""
        if view.to_move_id == actor_id:
            return
        try:
            await again(lambda: self.ping_turn(view), self.retries)
        except discord.HTTPException as error:  # what was done stands; the board says it too
            log.warning("game #%s: the turn's ping could not be sent: %s", view.id, error)

    async def ping_turn(self, view: GameView) -> None:
        """Tell the player to move that it is their turn, with a new message that notifies
        them alone (an edited board notifies nobody); the previous ping goes."""
        user = view.to_move_id
        if user is None or user == view.bot_id or not await self.service.pings_on(user):
            return
        # One game's pings one at a time, read afresh: quick moves must neither delete a
        # ping twice nor leave one behind.
        async with self._ping_locks.setdefault(view.id, asyncio.Lock()):
            now = await self.service.view(game_id=view.id)
            if now.ply != view.ply or now.to_move_id != user:
                return  # the game moved on meanwhile: that move pings
            locale = self.locale_of(view)
            text = words.say(
                "bot.your-turn",
                locale,
                player=replies.mention(user),
                title=replies.title(view, locale),
                id=view.id,
                number=move_number(view.ply)[0],
            )
            message_id = await self.post(view, text, replies.mentions_of(user))
            await self.service.ping_sent(view.id, message_id)
            if now.ping_message_id is not None:  # no pile of old pings: the last one is enough
                old = now.ping_message_id
                # Tried again on its own: the new ping is out and must not be sent twice.
                with contextlib.suppress(discord.HTTPException):
                    await again(lambda: self.delete_message(view.channel_id, old), self.retries)

    async def announce_end(self, view: GameView, *, new_message: bool) -> None:
        """Say publicly how a game ended (unless the reply already did, as a new message),
        and update the thread's starter message in the parent channel."""
        if not new_message:
            try:
                await self.post(
                    view, replies.game_over(view, self.locale_of(view)), replies.MENTION_USERS
                )
            except discord.Forbidden:  # the board says it anyway
                log.warning("game #%s: may not announce its result in its channel", view.id)
        thread = self.client.get_channel(view.channel_id)
        if not isinstance(thread, discord.Thread) or thread.parent_id is None:
            return
        # A thread opened for this game starts on the message that began it (so it shares
        # that message's id, and its time); a game played in some other thread leaves that
        # thread's first message alone.
        began = discord.utils.snowflake_time(thread.id)
        if abs((began - view.created_at).total_seconds()) > STARTER_SLACK:
            return
        parent = self.client.get_partial_messageable(thread.parent_id, guild_id=view.guild_id)
        result = replies.thread_result(view, self.locale_of(view))
        if self._reach(self._made, thread.id) is not None:  # the game's start made it
            with contextlib.suppress(discord.HTTPException):
                await self.edit_message(thread.parent_id, thread.id, **result.edit_kwargs())
                return
        try:
            starter = await parent.fetch_message(thread.id)
            if starter.author == self.client.user and replies.names_game(starter, view):
                # edited as a partial message: a full one would send its flags back (has-thread)
                await parent.get_partial_message(thread.id).edit(**result.edit_kwargs())
        except discord.HTTPException:
            log.info("game #%s: no starter message to update in the parent channel", view.id)

    # ---------------------------------------------------------------- the bot's turns

    def let_bot_move(self, view: GameView) -> None:
        """Let the bot think about its move in the background (once per game at a time:
        asked again while it thinks, it looks at the game again once that is over)."""
        if view.id in self._thinking:
            self._again.add(view.id)
            return
        self._thinking.add(view.id)
        self.spawn(self._bot_turn(view.id, view.ply), f"the bot's move in game #{view.id}")

    async def _bot_turn(self, game_id: int, ply: int | None) -> None:
        with rest.work("kamen"):
            await self._bot_moves(game_id, ply)

    async def _bot_moves(self, game_id: int, ply: int | None) -> None:
        try:
            with thinking_for(game_id):  # the workers' queue is fair between games
                result = await self.service.play_bot_move(game_id, expected_ply=ply)
        except MatchError as error:
            log.info("game #%s: the bot does not move (%s)", game_id, error)
            return
        finally:
            self._thinking.discard(game_id)
            if game_id in self._again:  # a move came while it thought: its turn, perhaps
                self._again.discard(game_id)
                self._thinking.add(game_id)
                self.spawn(self._bot_turn(game_id, None), f"the bot's move in game #{game_id}")
        if result is None:
            return
        await self.update_board(result.view, await self.board_after(result))
        await self.after_move(result, new_message=False)

    async def resume_bot_turns(self) -> None:
        """After a restart: the bot moves in every game where it is its turn."""
        for view in await self.service.bot_turns():
            self.let_bot_move(view)

    # ---------------------------------------------------------------- background work

    async def send_once(
        self, channel: discord.abc.Messageable, key: str, marker: str, **send: Any
    ) -> discord.Message | None:
        """Post a message that must be posted exactly once (a round's pairings, a season's
        final tables), whatever dies when. `key` names it; `marker` is text it holds.

        The intent is written first, with the moment it was first tried; one process
        posts it (a claim, which lapses if that process dies). If it was tried before
        and never recorded posted (a kill in between), the channel's messages since are
        read for Kamen's one holding `marker`: that one is recorded, nothing is posted
        again. Else it is posted, with a nonce of its own so that Discord does not
        create it twice either. None: posted before, or another process posts it now.
        """
        claims = self.service.claims
        now = discord.utils.time_snowflake(datetime.now(UTC) - POSTING)
        after, posted = await claims.posting(key, now)
        if posted is not None or not await claims.take(f"{key}:posting", POSTING):
            return None
        message = await self._posted_since(channel, after, marker) if after < now else None
        if message is not None:
            log.info("%s: posted before a restart, not again", key)
        else:
            message = await channel.send(nonce=nonce_of(key), **send)
        await claims.posted(key, message.id)
        return message

    async def _posted_since(
        self, channel: discord.abc.Messageable, after: int, marker: str
    ) -> discord.Message | None:
        """Kamen's message holding `marker` in the channel since message `after`, if any."""
        me = self.client.user
        try:
            async for message in channel.history(after=discord.Object(after), limit=RECENT):
                if me is not None and message.author.id == me.id and marker in message.content:
                    return message
        except discord.Forbidden:  # no history to read: the nonce alone keeps it once
            pass
        return None

    def spawn(self, work: Awaitable[Any], what: str) -> None:
        """Run `work` after the reply, keeping a reference, logging its failure."""

        async def run() -> None:
            try:
                await work
            except discord.HTTPException as error:  # a board left behind: repaired soon
                log.warning("background work failed: %s: %s", what, error)
                self.repair_soon()
            except Exception:
                self.metrics.error("background")
                log.exception("background work failed: %s", what)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the background work in flight (used when shutting down)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
