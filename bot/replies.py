"""What players read: the service's results worded as Discord messages.

Boards, challenges, results, records and refusals are built here, and
nowhere else; `refuse` is the one place where a `MatchError` becomes an
ephemeral reply. Nothing here calls the service: it words what it is given.
The sentences themselves are in `words/english/bot.py` (`bot.*` codes); this
module chooses which, fills in the mentions and lays out the embeds.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

import words
from games.base import GameSpec, Side
from games.record import move_number
from matches import FirstChoice, GameView, MatchError, Status
from matches.glicko2 import PROVISIONAL_RD
from matches.inputs import time_control
from matches.live_clocks import LiveClock, clock_text
from matches.ratings import RatingChange
from matches.records import GamesPage, GameSummary
from words.catalogue import DEFAULT_LOCALE, source_text
from words.games import option_help, outcome_text, rules_card, side_names, summary
from words.games import title as title_of

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0x3B7DD8)
FINISHED_COLOUR = discord.Colour(0x7A8793)
BOARD_FILE = "board.png"
MAX_CONTENT = 2000
# Only users are ever pinged, never roles or @everyone, whatever a name contains.
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_MENTIONS = discord.AllowedMentions.none()


def mention(user_id: int | None, locale: str = DEFAULT_LOCALE) -> str:
    if user_id is None:
        return words.say("bot.nobody", locale)
    if user_id < 0:  # anonymised by `/kamen me forget`
        return words.say("bot.forgotten", locale)
    return f"<@{user_id}>"


def mentions_of(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that notify these users and nobody else."""
    users = [discord.Object(user) for user in user_ids if user is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


def time_text(seconds: int | None, locale: str) -> str:
    """`5 minutes a move`, `no time limit`..."""
    if seconds is None:
        return words.say("bot.time.none", locale)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return words.say(f"bot.time.{unit}", locale, count=count)
    return words.say("bot.time.seconds", locale, count=seconds)


def control_text(view: GameView, locale: str) -> str:
    """A game's time control: `5+3 live clock`, or the per-move limit."""
    control = view.live_control
    if control is not None:
        return words.say("bot.time.live", locale, control=str(control))
    return time_text(view.move_seconds, locale)


def option_time_text(time: str, locale: str) -> str:
    """A time control as the `time:` option writes it (`3d`, `5+3`), in words."""
    control = time_control(time)
    if control.live is not None:
        return words.say("bot.time.live", locale, control=str(control.live))
    return time_text(control.move_seconds, locale)


def clocks_line(view: GameView, clock: LiveClock, locale: str) -> str:
    """`⏱ Blue 4:32 · Red 2:10`, the running one in bold."""
    shown = []
    for each in (Side.FIRST, Side.SECOND):
        left = clock_text(clock[each])
        shown.append(f"**{left}**" if clock.running is each else left)
    return words.say(
        "bot.board.clocks", locale, first=side(view, Side.FIRST, locale), first_left=shown[0],
        second=side(view, Side.SECOND, locale), second_left=shown[1],
    )  # fmt: skip


def variant_text(view: GameView, locale: str) -> str:
    return str(view.state.variant) or words.say("bot.variant.standard", locale)


def title(view: GameView | GameSpec, locale: str) -> str:
    """The game's name in the language (`Laska`)."""
    return title_of(view.game if isinstance(view, GameView) else view.name, locale)


def side(view: GameView, which: Side, locale: str) -> str:
    """A side's name in the language (`Modrý`)."""
    return side_names(view.game, locale)[which]


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A backtick in a player's text would close the code span it is echoed in, and what
# follows would be read as markdown (or a mention): it is shown as this look-alike.
BACKTICK_LOOKALIKE = "\u02cb"
ECHO_LIMIT = 60


def code_safe(text: str, limit: int = ECHO_LIMIT) -> str:
    """A player's text, on one line and short, with no backtick to end a code span."""
    return clip(" ".join(text.split()).replace("`", BACKTICK_LOOKALIKE), limit)


def code_span(text: str, limit: int = ECHO_LIMIT) -> str:
    """A player's text in a code span it cannot break out of."""
    return f"`{code_safe(text, limit) or ' '}`"


def points_text(points: float) -> str:
    """Points as players write them: `3½`, `½`, `2` (the same in every table Kamen shows)."""
    whole = int(points)
    if points - whole >= 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)


def when(moment: datetime, style: str = "f") -> str:
    """A moment as Discord shows it, in each reader's own time zone and language (`f`: the
    date and the time; `D`: the date)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def markdown_safe(text: str, limit: int = ECHO_LIMIT) -> str:
    """A player's text to show outside a code span: no markdown, no mention."""
    flat = " ".join(text.split())
    return clip(discord.utils.escape_mentions(discord.utils.escape_markdown(flat)), limit)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message ready to send or edit: text, an embed, an optional image and components."""

    content: str
    embed: discord.Embed | None = None
    image: bytes | None = None
    image_name: str = BOARD_FILE
    components: discord.ui.View | None = None
    mentions: discord.AllowedMentions = MENTION_USERS  # a look at a board pings nobody
    alt: str | None = None  # the image's description (alt text), for screen readers
    # More images, each with its file name and the embed that shows it (a review's board).
    more: tuple[tuple[bytes, str, discord.Embed], ...] = ()

    def file(self) -> discord.File | None:
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), self.image_name, description=self.alt)

    def files(self) -> list[discord.File]:
        first = self.file()
        more = [discord.File(io.BytesIO(image), name) for image, name, _ in self.more]
        return ([first] if first is not None else []) + more

    def embeds(self) -> list[discord.Embed]:
        return ([self.embed] if self.embed is not None else []) + [e for _, _, e in self.more]

    def send_kwargs(self) -> dict[str, Any]:
        """For `send_message`, `followup.send` and `channel.send`."""
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": self.mentions}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        if self.components is not None:
            kwargs["view"] = self.components
        if self.more:
            kwargs.pop("embed", None)
            kwargs.pop("file", None)
            kwargs["embeds"], kwargs["files"] = self.embeds(), self.files()
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For `edit_message` and `Message.edit`: replaces everything, image included."""
        kwargs: dict[str, Any] = {
            "content": self.content,
            "embed": self.embed,
            "attachments": self.files(),
            "view": self.components,
            "allowed_mentions": self.mentions,
        }
        if self.more:
            del kwargs["embed"]
            kwargs["embeds"] = self.embeds()
        return kwargs


# ---------------------------------------------------------------- boards
#
# Every function below words its message in `locale`: a public message (a board, a
# challenge, a result) in the server's language, a private one in the reader's
# (bot/languages.py says which is which).


def players_line(view: GameView, locale: str) -> str:
    if view.players is None:
        return ""
    first, second = view.players
    if first == second:
        return words.say("bot.players.study", locale, player=mention(first, locale))
    names = side_names(view.game, locale)
    return words.say(
        "bot.players",
        locale,
        first_side=names[0],
        first=mention(first, locale),
        second_side=names[1],
        second=mention(second, locale),
    )


def reason_text(view: GameView, locale: str) -> str:
    """Why the game ended, as one sentence (without its full stop), or ''."""
    outcome = view.outcome
    if outcome is None:
        return ""
    return outcome_text(outcome, view.game, locale).rstrip(".")


def result_line(view: GameView, locale: str) -> str:
    """`@ann wins (Blue): all of Blue's stones are home.` or `Drawn: ...`."""
    if view.result is None:  # abandoned: no result at all
        return words.say("bot.result.abandoned", locale)
    reason = reason_text(view, locale)
    if view.winner is None:
        line = words.say("bot.result.draw", locale, result=view.result, reason=reason)
    else:
        line = words.say(
            "bot.result.win",
            locale,
            winner=mention(view.winner_id, locale),
            side=side(view, view.winner, locale),
            result=view.result,
            reason=reason,
        )
    if view.row.voided is None:
        return line
    why = markdown_safe(view.row.voided)
    return f"{line} {words.say('managers.view.voided', locale, reason=why)}"


def _stamp(moment: datetime) -> int:
    """A time as Discord's `<t:...:R>` wants it (each reader sees it in their own zone)."""
    return int(moment.timestamp())


def turn_line(view: GameView, locale: str) -> str:
    to_move = view.to_move
    if to_move is None:
        return result_line(view, locale)
    name, player = side(view, to_move, locale), mention(view.player(to_move), locale)
    if view.deadline is not None:
        deadline = _stamp(view.deadline)
        return words.say("bot.turn.deadline", locale, side=name, player=player, deadline=deadline)
    return words.say("bot.turn", locale, side=name, player=player)


def record_example(spec: GameSpec, plies: int = 4) -> str:
    """A record of `spec` in two lines, its first legal moves: what an import looks like."""
    state, moves = spec.new(), []
    for _ in range(plies):
        move = state.legal_moves()[0]
        moves.append(move)
        state = state.play(move)
    turns = [f"{move_number(n)[0]}. {' '.join(moves[n : n + 2])}" for n in range(0, len(moves), 2)]
    return f'[Game "{spec.title}"]\n{" ".join(turns)} *'


def time_option(view: GameView) -> str | None:
    """The game's time control as the `time:` option writes it (a rematch keeps it)."""
    if view.live_control is not None:
        return str(view.live_control)
    if view.move_seconds is not None:
        return f"{view.move_seconds}s"
    # Untimed: so again, unless it was rated (before rated games needed a time): then the
    # server's default (None: not named).
    return None if view.row.rated else "none"


def shown_number(view: GameView) -> int:
    """The record's number of the move a board is about: the one to play while the game
    goes on, the last one played once it is over (`games.record.move_number`)."""
    if view.status is Status.ACTIVE or view.ply == 0:
        return move_number(view.ply)[0]
    return move_number(view.ply - 1)[0]


def ping_line(view: GameView, locale: str) -> str:
    """The message text: the one line that pings whoever must act now (or tells the result)."""
    if view.status is Status.FINISHED:
        return game_over(view, locale)
    to_move = view.to_move
    if to_move is None:
        return ""
    if view.bot_to_move:
        return words.say("bot.thinking", locale, bot=mention(view.bot_id, locale))
    player = mention(view.player(to_move), locale)
    return words.say("bot.your-move", locale, player=player, side=side(view, to_move, locale))


def game_over(view: GameView, locale: str) -> str:
    """`**Game over.**` and the result: the public line once a game has ended."""
    return words.say("bot.game-over", locale, result=result_line(view, locale))


def board(
    view: GameView,
    png: bytes,
    locale: str,
    *,
    headline: str | None = None,
    components: discord.ui.View | None = None,
    clock: LiveClock | None = None,
) -> Outgoing:
    """The message that shows a game: who plays, what just happened, whose turn, the board.

    `headline` is the service's line about the move just played (it names the
    side to move, or the result); without one, the turn is spelled out. `clock`
    is a live clock's two times, as they are when the message is drawn.
    """
    lines = [players_line(view, locale)]
    if headline:
        lines.append(headline)
    if view.status is Status.ACTIVE:
        if not headline:
            lines.append(turn_line(view, locale))
        elif view.deadline is not None:
            deadline = _stamp(view.deadline)
            lines.append(words.say("bot.board.move-by", locale, deadline=deadline))
        if view.draw_offer_by is not None:
            offered_by = mention(view.draw_offer_by, locale)
            lines.append(words.say("bot.board.draw-offered", locale, player=offered_by))
        if view.ply == 0 and not view.bot_to_move:
            lines.append(words.say("bot.board.how", locale, game=command_name(view, locale)))
    elif not headline:
        lines.append(result_line(view, locale))
    if clock is not None:
        lines.append(clocks_line(view, clock, locale))
    embed = discord.Embed(
        title=words.say("bot.board.title", locale, title=title(view, locale), id=view.id),
        description="\n".join(line for line in lines if line),
        colour=COLOUR if view.status is Status.ACTIVE else FINISHED_COLOUR,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(
        text=words.say(
            "bot.board.footer",
            locale,
            number=shown_number(view),
            variant=variant_text(view, locale),
            time=control_text(view, locale),
        )
    )
    # A live board names the player to move without notifying them: the turn's ping is
    # a message of its own (Table.ping_turn), which a player may turn off. A result
    # notifies both players.
    mentions = NO_MENTIONS if view.status is Status.ACTIVE else MENTION_USERS
    return Outgoing(ping_line(view, locale), embed, png, BOARD_FILE, components, mentions)


def command_name(view: GameView, locale: str) -> str:
    """The game's command as a client in that language shows it (`laska`)."""
    return words.say(f"command.name.{view.game}", locale).lower()


# ---------------------------------------------------------------- challenges


def first_text(view: GameView, choice: FirstChoice | None, locale: str) -> str:
    first_side = side(view, Side.FIRST, locale)
    if choice is FirstChoice.CHALLENGER:
        player = mention(view.challenger_id, locale)
        return words.say("bot.first.player", locale, player=player, side=first_side)
    if choice is FirstChoice.OPPONENT:
        who = (
            mention(view.opponent_id, locale)
            if view.opponent_id
            else words.say("bot.first.the-opponent", locale)
        )
        return words.say("bot.first.player", locale, player=who, side=first_side)
    return words.say("bot.first.random", locale, side=first_side)


def challenge(
    view: GameView, choice: FirstChoice | None, components: discord.ui.View | None, locale: str
) -> Outgoing:
    """The public challenge, pinging the challenged user, with Accept / Decline / Cancel."""
    name = title(view, locale)
    challenger = mention(view.challenger_id, locale)
    if view.opponent_id is None:
        content = words.say("bot.challenge.open", locale, challenger=challenger, title=name)
        how = words.say("bot.challenge.open.how", locale)
    else:
        opponent = mention(view.opponent_id, locale)
        content = words.say(
            "bot.challenge.direct", locale, opponent=opponent, challenger=challenger, title=name
        )
        how = words.say("bot.challenge.direct.how", locale, opponent=opponent)
    if view.deadline is not None:
        description = words.say(
            "bot.challenge.description.expires",
            locale,
            how=how,
            challenger=challenger,
            deadline=_stamp(view.deadline),
        )
    else:
        description = words.say("bot.challenge.description", locale, how=how, challenger=challenger)
    embed = discord.Embed(
        title=words.say("bot.challenge.title", locale, title=name, id=view.id),
        description=description,
        colour=COLOUR,
    )
    embed.add_field(
        name=words.say("bot.challenge.field.rules", locale), value=variant_text(view, locale)
    )
    embed.add_field(
        name=words.say("bot.challenge.field.time", locale),
        value=control_text(view, locale),
    )
    embed.add_field(
        name=words.say("bot.challenge.field.first", locale),
        value=first_text(view, choice, locale),
        inline=False,
    )
    return Outgoing(content, embed, None, BOARD_FILE, components)


def closed_challenge(view: GameView, locale: str) -> Outgoing:
    """A challenge that ended without a game, as its message now reads."""
    code = _CLOSED.get(view.status, "bot.challenge.closed")
    return Outgoing(
        words.say(
            code,
            locale,
            title=title(view, locale),
            challenger=mention(view.challenger_id, locale),
            opponent=mention(view.opponent_id, locale),
        )
    )


_CLOSED = {
    Status.DECLINED: "bot.challenge.declined",
    Status.CANCELLED: "bot.challenge.cancelled",
    Status.EXPIRED: "bot.challenge.expired",
}


def moved_to_thread(view: GameView, thread_id: int, locale: str) -> Outgoing:
    """What a challenge message says once its game is being played in a thread."""
    first, second = view.players or (view.challenger_id, view.opponent_id or 0)
    names = side_names(view.game, locale)
    text = words.say(
        "bot.moved-to-thread",
        locale,
        title=title(view, locale),
        id=view.id,
        first=mention(first, locale),
        first_side=names[0],
        second=mention(second, locale),
        second_side=names[1],
        thread=thread_id,
    )
    return Outgoing(text)


def names_game(message: discord.Message, view: GameView) -> bool:
    """Whether a message is the one that opened `view`'s thread (see `moved_to_thread`):
    every wording of `bot.moved-to-thread`, in every language, names the game as `#12:`."""
    return f"#{view.id}:" in message.content


def headed_for(message: discord.Message | None, game_id: int, bot_id: int | None) -> bool:
    """Whether `message` is one of ours headed with the game's number: a board or a
    challenge (`… · game #12` as its embed's title, in any language), or a challenge that
    became a thread (`game #12:`). Known from the message alone, without asking the
    service."""
    if message is None or message.flags.ephemeral or bot_id is None:
        return False
    if message.author.id != bot_id:
        return False
    titles = (embed.title or "" for embed in message.embeds)
    return any(title.endswith(f"#{game_id}") for title in titles) or (
        f"#{game_id}:" in message.content
    )


def shows_game(message: discord.Message | None, view: GameView, bot_id: int | None) -> bool:
    """Whether a component on `message` may act on `view`'s game: the message is headed
    with the game's number (see `headed_for`; an older board too: the service refuses
    what is stale), it is the game's board or challenge whatever it now says (a declined
    challenge), or it is an ephemeral reply in the game's own channel."""
    if message is None:
        return False
    if message.flags.ephemeral:
        return message.channel.id == view.channel_id
    if headed_for(message, view.id, bot_id):
        return True
    return bot_id is not None and message.author.id == bot_id and message.id == view.message_id


def thread_result(view: GameView, locale: str) -> Outgoing:
    """The thread's starter message once the game is over."""
    first, second = view.players or (view.challenger_id, view.opponent_id or 0)
    return Outgoing(
        words.say(
            "bot.thread-result",
            locale,
            title=title(view, locale),
            id=view.id,
            first=mention(first, locale),
            second=mention(second, locale),
            channel=view.channel_id,
            result=result_line(view, locale),
        )
    )


def thread_name(spec: GameSpec, first: str, second: str, locale: str) -> str:
    name = title(spec, locale)
    return clip(words.say("bot.thread-name", locale, title=name, first=first, second=second), 100)


# ---------------------------------------------------------------- other replies


def history(view: GameView, locale: str) -> str:
    """The moves so far, numbered by full turns, for the ephemeral /history reply."""
    moves = view.moves
    turns = [f"{move_number(n)[0]}. {' '.join(moves[n : n + 2])}" for n in range(0, len(moves), 2)]
    body = " ".join(turns) or words.say("bot.history.empty", locale)
    state = turn_line(view, locale) if view.status is Status.ACTIVE else result_line(view, locale)
    if view.status not in (Status.ACTIVE, Status.FINISHED):
        state = words.say(f"bot.history.{view.status.value}", locale)
    head = words.say(
        "bot.history.head",
        locale,
        title=title(view, locale),
        id=view.id,
        variant=variant_text(view, locale),
        state=state,
    )
    return clip(head + f"```\n{body}\n```", MAX_CONTENT)


def rules(spec: GameSpec, locale: str) -> discord.Embed:
    """A rules summary with the variants and the notation, for the ephemeral /rules."""
    name = title(spec, locale)
    embed = discord.Embed(title=words.say("bot.rules.title", locale, title=name), colour=COLOUR)
    embed.description = summary(spec.name, locale)
    for heading, text in rules_card(spec.name, locale):
        embed.add_field(name=heading, value=clip(text, 1024), inline=False)
    first, second = side_names(spec.name, locale)
    embed.add_field(
        name=words.say("bot.rules.sides.name", locale),
        value=words.say("bot.rules.sides", locale, first=first, second=second),
        inline=False,
    )
    for option in spec.options:
        values = [
            words.say("bot.rules.value.default" if value == option.default else "bot.rules.value",
                      locale, value=value)
            for value in option.values
        ]  # fmt: skip
        embed.add_field(
            name=words.say("bot.rules.variant.name", locale, key=option.key),
            value=clip(
                words.say(
                    "bot.rules.variant",
                    locale,
                    values=values,
                    help=option_help(spec.name, option.key, option.values, locale),
                ),
                1024,
            ),
            inline=False,
        )
    start = spec.new()
    sample = [words.say("bot.rules.value", locale, value=move) for move in start.legal_moves()[:4]]
    embed.add_field(
        name=words.say("bot.rules.moves.name", locale),
        value=words.say("bot.rules.moves", locale, sample=sample),
        inline=False,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def your_games(views: list[GameView], guild_id: int, locale: str) -> str:
    """A player's games on a server, each with a link to its board (at most ten)."""
    lines = [words.say("bot.your-games.head", locale, count=len(views))]
    for view in views[:10]:
        lines.append(
            words.say(
                "bot.your-games.line", locale, title=title(view, locale), id=view.id,
                where=board_link(view, guild_id),
            )
        )  # fmt: skip
    return "\n".join(lines)


def board_link(view: GameView | GameSummary, guild_id: int) -> str:
    """A link to a game's board, else a mention of its channel."""
    if view.message_id:
        return f"https://discord.com/channels/{guild_id}/{view.channel_id}/{view.message_id}"
    return f"<#{view.channel_id}>"


# `/games` lists this many games; past them it says how many more there are.
GAMES_LISTED = 40


def games_list(page: GamesPage, guild_id: int, locale: str) -> str:
    """`/games`: the server's ongoing games, one a line, with a link to each board (the
    first page of them, `GAMES_LISTED`, and how many more)."""
    if not page.total:
        return words.say("bot.games.none", locale)
    lines = [words.say("bot.games.head", locale, count=page.total)]
    for game in page.games:
        first, second = game.players or (0, 0)
        turn = words.say(
            "bot.games.to-move", locale, side=side_names(game.game, locale)[game.to_move]
        )
        lines.append(
            words.say(
                "bot.games.line",
                locale,
                title=title_of(game.game, locale),
                id=game.id,
                first=mention(first, locale),
                second=mention(second, locale),
                number=move_number(game.ply)[0],
                turn=turn,
                where=board_link(game, guild_id),
            )
        )
    if page.after:
        lines.append(words.say("bot.games.more", locale, count=page.after))
    return clip("\n".join(lines))


def stale_text(error: MatchError, view: GameView | None, locale: str = DEFAULT_LOCALE) -> str:
    text = explain(error, locale)
    if view is None:
        return text
    if view.message_id is not None and view.guild_id:
        link = f"https://discord.com/channels/{view.guild_id}/{view.channel_id}/{view.message_id}"
        return words.say("bot.stale.link", locale, text=text, link=link)
    return words.say("bot.stale", locale, text=text)


# ---------------------------------------------------------------- refusals


@dataclass(frozen=True, slots=True)
class _Echoed:
    """A refusal's code with its parameters made safe to show (see `explain`)."""

    code: str
    params: dict[str, Any]


def explain(error: MatchError, locale: str = DEFAULT_LOCALE) -> str:
    """What a refusal says, with the player's own text in it made harmless.

    A text parameter the sentence quotes in a code span (`` `{move}` ``) keeps its
    characters but cannot close the span; one it shows as it is is escaped for
    markdown. Our own values (moves, names, codes) hold nothing either changes.
    """
    codes = [error.code, error.params.get("cause")]
    templates = " ".join(source_text(code) for code in codes if isinstance(code, str))
    params = {key: _echo(value, key, templates) for key, value in error.params.items()}
    return words.explain(_Echoed(error.code, params), locale)


def _echo(value: Any, key: str, templates: str) -> Any:
    """A parameter as the sentence shows it; one it does not show (a code, the game's
    name, the legal moves said by another sentence) is left as it is."""
    if key == "cause" or f"{{{key}" not in templates:
        return value
    quoted = f"`{{{key}" in templates
    if isinstance(value, str):
        return code_safe(value, MAX_CONTENT) if quoted else markdown_safe(value, MAX_CONTENT)
    if isinstance(value, tuple | list):
        return type(value)(_echo(item, key, templates) for item in value)
    return value


# ---------------------------------------------------------------- ratings


def rating_text(rating: float, rd: float) -> str:
    """`1662` or, when provisional, `1662?`."""
    return f"{round(rating)}{'?' if rd > PROVISIONAL_RD else ''}"


def signed(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else f"\u2212{-delta}"


def rating_lines(changes: Sequence[RatingChange], locale: str) -> str:
    """`@alice 1500 → 1662 (+162)`, one line per player: what a rated game did."""
    return "\n".join(
        words.say(
            "community.rating-change",
            locale,
            player=mention(change.user_id, locale),
            before=rating_text(change.before.rating, change.before.rd),
            after=rating_text(change.after.rating, change.after.rd),
            delta=signed(change.delta),
        )
        for change in changes
    )
