"""What players read: the service's results worded as Discord messages.

Boards, challenges, results, records and refusals are built here, and
nowhere else; `refuse` is the one place where a `MatchError` becomes an
ephemeral reply. Nothing here calls the service: it words what it is given.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from games.base import GameSpec, Side
from matches import FirstChoice, GameView, MatchError, Status

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0x3B7DD8)
FINISHED_COLOUR = discord.Colour(0x7A8793)
BOARD_FILE = "board.png"
MAX_CONTENT = 2000
# Only users are ever pinged, never roles or @everyone, whatever a name contains.
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else "nobody"


def time_text(seconds: int | None) -> str:
    """`5 minutes a move`, `no time limit`..."""
    if seconds is None:
        return "no time limit"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''} a move"
    return f"{seconds} seconds a move"


def variant_text(view: GameView) -> str:
    return str(view.state.variant) or "standard rules"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message ready to send or edit: text, an embed, an optional image and components."""

    content: str
    embed: discord.Embed | None = None
    image: bytes | None = None
    image_name: str = BOARD_FILE
    components: discord.ui.View | None = None

    def file(self) -> discord.File | None:
        return None if self.image is None else discord.File(io.BytesIO(self.image), self.image_name)

    def send_kwargs(self) -> dict[str, Any]:
        """For `send_message`, `followup.send` and `channel.send`."""
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": MENTION_USERS}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        if self.components is not None:
            kwargs["view"] = self.components
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For `edit_message` and `Message.edit`: replaces everything, image included."""
        file = self.file()
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": [file] if file is not None else [],
            "view": self.components,
            "allowed_mentions": MENTION_USERS,
        }


# ---------------------------------------------------------------- boards


def players_line(view: GameView) -> str:
    if view.players is None:
        return ""
    first, second = view.players
    if first == second:
        return f"{mention(first)} plays both sides (study)"
    names = view.spec.side_names
    return f"**{names[0]}** {mention(first)} · **{names[1]}** {mention(second)}"


def result_line(view: GameView) -> str:
    """`@ann wins (Blue): all of Blue's stones are home.` or `Drawn: ...`."""
    reason = (view.reason or "").rstrip(".")
    if view.winner is None:
        return f"Drawn ({view.result}): {reason}."
    side = view.side_name(view.winner)
    return f"{mention(view.winner_id)} wins as {side} ({view.result}): {reason}."


def turn_line(view: GameView) -> str:
    side = view.to_move
    if side is None:
        return result_line(view)
    line = f"{view.side_name(side)} to move: {mention(view.player(side))}"
    if view.deadline is not None:
        line += f", by <t:{int(view.deadline.timestamp())}:R>"
    return line + "."


def ping_line(view: GameView) -> str:
    """The message text: the one line that pings whoever must act now (or tells the result)."""
    if view.status is Status.FINISHED:
        return f"**Game over.** {result_line(view)}"
    side = view.to_move
    if side is None:
        return ""
    if view.bot_to_move:
        return f"{mention(view.bot_id)} is thinking…"
    return f"{mention(view.player(side))}, your move ({view.side_name(side)})."


def board(
    view: GameView,
    png: bytes,
    *,
    headline: str | None = None,
    components: discord.ui.View | None = None,
) -> Outgoing:
    """The message that shows a game: who plays, what just happened, whose turn, the board.

    `headline` is the service's line about the move just played (it names the
    side to move, or the result); without one, the turn is spelled out.
    """
    lines = [players_line(view)]
    if headline:
        lines.append(headline)
    if view.status is Status.ACTIVE:
        if not headline:
            lines.append(turn_line(view))
        elif view.deadline is not None:
            lines.append(f"Move by <t:{int(view.deadline.timestamp())}:R>.")
        if view.draw_offer_by is not None:
            lines.append(f"{mention(view.draw_offer_by)} offers a draw.")
        if view.ply == 0 and not view.bot_to_move:
            lines.append(
                f"Move with the menu below or `/{view.game} move`; "
                f"`/{view.game} rules` explains the game."
            )
    elif not headline:
        lines.append(result_line(view))
    embed = discord.Embed(
        title=f"{view.spec.title} · game #{view.id}",
        description="\n".join(line for line in lines if line),
        colour=COLOUR if view.status is Status.ACTIVE else FINISHED_COLOUR,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(
        text=f"Move {view.ply} · {variant_text(view)} · {time_text(view.move_seconds)}"
    )
    return Outgoing(ping_line(view), embed, png, BOARD_FILE, components)


# ---------------------------------------------------------------- challenges


def first_text(view: GameView, choice: FirstChoice | None) -> str:
    first_side = view.side_name(Side.FIRST)
    if choice is FirstChoice.CHALLENGER:
        return f"{mention(view.challenger_id)} plays {first_side} and moves first"
    if choice is FirstChoice.OPPONENT:
        who = mention(view.opponent_id) if view.opponent_id else "the opponent"
        return f"{who} plays {first_side} and moves first"
    return f"chance decides who plays {first_side} (who moves first)"


def challenge(
    view: GameView, choice: FirstChoice | None, components: discord.ui.View | None
) -> Outgoing:
    """The public challenge, pinging the challenged user, with Accept / Decline / Cancel."""
    title = view.spec.title
    if view.opponent_id is None:
        content = f"{mention(view.challenger_id)} is looking for an opponent for **{title}**."
        how = "Anyone may press **Accept**."
    else:
        content = (
            f"{mention(view.opponent_id)}, {mention(view.challenger_id)} challenges you"
            f" to a game of **{title}**!"
        )
        how = f"{mention(view.opponent_id)}: **Accept** or **Decline**."
    expires = (
        f" This challenge expires <t:{int(view.deadline.timestamp())}:R>."
        if view.deadline is not None
        else ""
    )
    embed = discord.Embed(
        title=f"{title} challenge · game #{view.id}",
        description=f"{how} {mention(view.challenger_id)} may cancel it.{expires}",
        colour=COLOUR,
    )
    embed.add_field(name="Rules", value=variant_text(view))
    embed.add_field(name="Time", value=time_text(view.move_seconds))
    embed.add_field(name="First move", value=first_text(view, choice), inline=False)
    return Outgoing(content, embed, None, BOARD_FILE, components)


def closed_challenge(view: GameView) -> Outgoing:
    """A challenge that ended without a game, as its message now reads."""
    title = view.spec.title
    who = mention(view.challenger_id)
    text = {
        Status.DECLINED: f"{mention(view.opponent_id)} declined {who}'s challenge to {title}.",
        Status.CANCELLED: f"{who} cancelled their challenge to {title}.",
        Status.EXPIRED: f"{who}'s challenge to {title} expired: nobody accepted it in time.",
    }.get(view.status, f"This challenge to {title} is closed.")
    return Outgoing(text)


def moved_to_thread(view: GameView, thread_id: int) -> Outgoing:
    """What a challenge message says once its game is being played in a thread."""
    first, second = view.players or (view.challenger_id, view.opponent_id or 0)
    names = view.spec.side_names
    text = (
        f"**{view.spec.title}** · game #{view.id}: {mention(first)} ({names[0]}) vs "
        f"{mention(second)} ({names[1]}), being played in <#{thread_id}>."
    )
    return Outgoing(text)


def names_game(message: discord.Message, view: GameView) -> bool:
    """Whether a message is the one that opened `view`'s thread (see `moved_to_thread`)."""
    return f"game #{view.id}:" in message.content


def thread_result(view: GameView) -> Outgoing:
    """The thread's starter message once the game is over."""
    first, second = view.players or (view.challenger_id, view.opponent_id or 0)
    return Outgoing(
        f"**{view.spec.title}** · game #{view.id}: {mention(first)} vs {mention(second)},"
        f" in <#{view.channel_id}>. {result_line(view)}"
    )


def thread_name(spec: GameSpec, first: str, second: str) -> str:
    return clip(f"{spec.title}: {first} vs {second}", 100)


# ---------------------------------------------------------------- other replies


def history(view: GameView) -> str:
    """The moves so far, numbered by full turns, for the ephemeral /history reply."""
    moves = view.moves
    turns = [f"{n // 2 + 1}. {' '.join(moves[n : n + 2])}" for n in range(0, len(moves), 2)]
    body = " ".join(turns) or "no moves yet"
    state = turn_line(view) if view.status is Status.ACTIVE else result_line(view)
    if view.status not in (Status.ACTIVE, Status.FINISHED):
        state = f"This challenge was {view.status}."
    head = f"**{view.spec.title} · game #{view.id}** ({variant_text(view)})\n{state}\n"
    return clip(head + f"```\n{body}\n```", MAX_CONTENT)


def rules(spec: GameSpec) -> discord.Embed:
    """A rules summary with the variants and the notation, for the ephemeral /rules."""
    embed = discord.Embed(title=f"{spec.title}: the rules in short", colour=COLOUR)
    embed.description = spec.summary
    first, second = spec.side_names
    embed.add_field(name="Sides", value=f"{first} moves first, then {second}.", inline=False)
    for option in spec.options:
        values = ", ".join(
            f"`{value}`{' (default)' if value == option.default else ''}" for value in option.values
        )
        embed.add_field(
            name=f"Variant {option.key}", value=clip(f"{values}: {option.help}", 1024), inline=False
        )
    start = spec.new()
    sample = ", ".join(f"`{move}`" for move in start.legal_moves()[:4])
    embed.add_field(
        name="Moves", value=f"Write moves as the board names them, e.g. {sample}.", inline=False
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def games_list(views: list[GameView], guild_id: int) -> str:
    """`/games`: the server's ongoing games, one a line, with a link to each board."""
    if not views:
        return "No games are being played on this server. Start one with `/<game> challenge`."
    lines = [f"**Games being played here ({len(views)}):**"]
    for view in views[:40]:
        where = (
            f"https://discord.com/channels/{guild_id}/{view.channel_id}/{view.message_id}"
            if view.message_id
            else f"<#{view.channel_id}>"
        )
        first, second = view.players or (0, 0)
        side = view.to_move
        turn = f"{view.side_name(side)} to move" if side is not None else ""
        lines.append(
            f"• {view.spec.title} #{view.id}: {mention(first)} vs {mention(second)},"
            f" move {view.ply}, {turn} · {where}"
        )
    if len(views) > 40:
        lines.append(f"…and {len(views) - 40} more.")
    return clip("\n".join(lines))


def stale_text(error: MatchError, view: GameView | None) -> str:
    text = error.message
    if view is None:
        return text
    if view.message_id is not None and view.guild_id:
        link = f"https://discord.com/channels/{view.guild_id}/{view.channel_id}/{view.message_id}"
        return f"{text} Here is the board as it is now (the live one: {link})."
    return f"{text} Here is the board as it is now."


# ---------------------------------------------------------------- refusals


async def say(
    interaction: discord.Interaction, message: Outgoing | str, *, ephemeral: bool = True
) -> None:
    """Reply, or follow up if the interaction was already answered (deferred)."""
    out = Outgoing(clip(message)) if isinstance(message, str) else message
    kwargs = out.send_kwargs()
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def refuse(
    interaction: discord.Interaction, error: MatchError, extra: Outgoing | None = None
) -> None:
    """The one place a refusal reaches a player: an ephemeral reply saying what would be right."""
    log.debug("refused %s: %s", interaction.id, error.message)
    if extra is not None:
        await say(interaction, extra)
    else:
        await say(interaction, clip(error.message))


async def apologise(interaction: discord.Interaction) -> None:
    """A fault of ours (logged by the caller): tell the player, never leave them hanging."""
    text = "Something went wrong on Kamen's side; it has been logged. Please try again."
    try:
        await say(interaction, text)
    except discord.HTTPException:
        log.warning("could not even apologise for interaction %s", interaction.id)
