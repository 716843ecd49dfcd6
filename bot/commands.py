"""The slash commands, generated from the games registry: `/<game> ...`, `/games`, `/kamen`.

Each command reads its options and hands them, as they came, to
`bot.actions`, which checks every value (`bot.options`): a crafted request
may send any type for any option. Its docstring (with the game's title
filled in) is its description in Discord.
A game's variant options become options of `challenge`, one per key, with
the rule book's values as choices: adding a game to the registry adds its
commands, with no code here. The choices' labels are worded in `words`
(`bot.choice.*`); the command names and descriptions are still here.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import discord
from discord import app_commands

import words
from bot.actions import Actions
from bot.options import FIRSTS, MAX_RECORD_OPTION, TIMES
from games import registry
from games.base import GameSpec, VariantOption
from matches import LEVELS
from words.games import option_help, value_help

_Choice = app_commands.Choice


def _describe(func: Any, spec: GameSpec | None = None) -> str:
    """The first paragraph of a handler's docstring, with the game's title: its description."""
    text = inspect.cleandoc(func.__doc__ or "").split("\n\n")[0].replace("\n", " ")
    return text.format(title=spec.title if spec else "", game=spec.name if spec else "")[:100]


def _short(text: str, limit: int = 100) -> str:
    """A description cut at a word to Discord's limit."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _param(key: str) -> str:
    """A Python name for a variant key (`must-play-12` → `must_play_12`)."""
    return re.sub(r"\W", "_", key)


def _variant_choices(spec: GameSpec, option: VariantOption) -> list[_Choice[str]]:
    """A choice per value, named with what it does when the catalogue says it value by value."""
    choices = []
    for value in option.values:
        name = value
        text = value_help(spec.name, option.key, value)
        if text is not None:
            name = words.say("bot.choice.variant", value=value, text=text)
        if value == option.default:
            name = words.say("bot.choice.default", name=name)
        choices.append(_Choice(name=_short(name), value=value))
    return choices


def _variant_description(spec: GameSpec, option: VariantOption) -> str:
    """The option's help, or, when each choice explains itself, what the option is about."""
    if all(value_help(spec.name, option.key, value) for value in option.values):
        return (
            f"Rule variant {option.key} (default {option.default}): each choice says what it does."
        )
    return _short(f"Rule variant: {option_help(spec.name, option.key, option.values)}")


def _first_choices(spec: GameSpec) -> list[_Choice[str]]:
    first = spec.side_names[0]
    return [
        _Choice(name=words.say(f"bot.choice.first.{value}", side=first), value=value)
        for value in FIRSTS
    ]


def _time_choices() -> list[_Choice[str]]:
    return [_Choice(name=words.say(f"bot.choice.time.{value}"), value=value) for value in TIMES]


def _game_options(spec: GameSpec) -> dict[str, str]:
    first = spec.side_names[0]
    return {
        "time": "How long each move may take; the player who runs out loses (default: none).",
        "first": f"Who plays {first}, the side that moves first (default: chance decides).",
        "level": "How strongly Kamen plays, when you play against it (default: medium).",
    }


def game_group(spec: GameSpec, actions: Actions) -> app_commands.Group:
    """`/<game>` with its sub-commands."""
    group = app_commands.Group(
        name=spec.name,
        description=f"Play {spec.title}: challenge someone, move, resign, look back.",
        guild_only=True,
    )
    for build in (_challenge, _move, _board, _resign, _draw, _history, _replay, _rules, _import):
        group.add_command(build(spec, actions))
    return group


# ---------------------------------------------------------------- /<game> challenge


def _challenge(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    names = {option.key: _param(option.key) for option in spec.options}

    async def challenge(interaction: discord.Interaction, **options: Any) -> None:
        """Challenge someone (or nobody: anyone may accept; or Kamen itself) to {title}."""
        await actions.challenge(interaction, spec, options, names)

    keyword = inspect.Parameter.KEYWORD_ONLY
    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("opponent", keyword, annotation=discord.User | None, default=None),
    ]
    descriptions = {
        "opponent": "Whom to challenge; leave it empty for an open challenge, or pick Kamen "
        "to play the bot.",
    }
    renames: dict[str, str] = {}
    choices: dict[str, list[_Choice[str]]] = {}
    for option in spec.options:
        name = _param(option.key)
        params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
        descriptions[name] = _variant_description(spec, option)
        choices[name] = _variant_choices(spec, option)
        if name != option.key:
            renames[name] = option.key
    for name in ("time", "first", "level"):
        params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
    descriptions.update(_game_options(spec))
    choices["time"] = _time_choices()
    choices["first"] = _first_choices(spec)
    choices["level"] = [_Choice(name=level, value=level) for level in LEVELS]
    challenge.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    app_commands.describe(**descriptions)(challenge)
    app_commands.choices(**choices)(challenge)
    if renames:
        app_commands.rename(**renames)(challenge)
    return app_commands.Command(
        name="challenge", description=_describe(challenge, spec), callback=challenge
    )


# ---------------------------------------------------------------- /<game> move, board, ...


def _move(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    sample = spec.new().legal_moves()[0]

    async def move(interaction: discord.Interaction, move: str) -> None:
        """Play your move in this channel's game of {title} (type: the legal moves appear)."""
        await actions.move_by_command(interaction, spec, move)

    app_commands.describe(
        move=f"Your move as the board names it, e.g. {sample}; pick one from "
        "the list of legal moves."
    )(move)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="move", description=_describe(move, spec), callback=move
    )

    async def legal(interaction: discord.Interaction, current: str) -> list[_Choice[str]]:
        with actions.metrics.timing("autocomplete"):
            return await actions.autocomplete(interaction, spec, current)

    command.autocomplete("move")(legal)
    return command


def _board(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def board(interaction: discord.Interaction) -> None:
        """Show this channel's game of {title} again, with the move menu, for everyone."""
        await actions.show_board(interaction, spec)

    return app_commands.Command(name="board", description=_describe(board, spec), callback=board)


def _resign(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def resign(interaction: discord.Interaction) -> None:
        """Give up this channel's game of {title} (you will be asked to confirm)."""
        await actions.ask_resign(interaction, spec=spec)

    return app_commands.Command(name="resign", description=_describe(resign, spec), callback=resign)


def _draw(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def draw(interaction: discord.Interaction) -> None:
        """Offer a draw in this channel's game of {title}, or accept the one you were offered."""
        await actions.draw(interaction, spec=spec)

    return app_commands.Command(name="draw", description=_describe(draw, spec), callback=draw)


def _game_id_option(func: Any) -> None:
    app_commands.describe(
        game="The game's number (#12 on its board); leave it empty for this channel's game."
    )(func)


def _history(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def history(
        interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """The moves of a game of {title} so far, and its record as a text file (only for you)."""
        await actions.history(interaction, spec, game)

    _game_id_option(history)
    return app_commands.Command(
        name="history", description=_describe(history, spec), callback=history
    )


def _replay(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def replay(
        interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """An animated replay of a game of {title}, ongoing or finished, move by move."""
        await actions.replay(interaction, spec, game)

    _game_id_option(replay)
    return app_commands.Command(name="replay", description=_describe(replay, spec), callback=replay)


def _rules(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def rules(interaction: discord.Interaction) -> None:
        """How {title} is played, its variants and how moves are written (only for you)."""
        await actions.rules(interaction, spec)

    return app_commands.Command(name="rules", description=_describe(rules, spec), callback=rules)


def _import(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def import_(
        interaction: discord.Interaction,
        record: app_commands.Range[str, 1, MAX_RECORD_OPTION] | None = None,
        file: discord.Attachment | None = None,
        opponent: discord.User | None = None,
        time: str | None = None,
        first: str | None = None,
        level: str | None = None,
    ) -> None:
        """Go on from a record of {title}: alone to study it, or against someone or Kamen."""
        await actions.import_game(
            interaction,
            spec,
            {"record": record, "file": file, "opponent": opponent, "time": time,
             "first": first, "level": level},
        )  # fmt: skip

    app_commands.describe(
        record="The record's text (tags and moves, as /history gives it).",
        file="Or the record as a .txt file.",
        opponent="Who plays on with you; leave it empty to play both sides yourself.",
        **_game_options(spec),
    )(import_)
    app_commands.choices(
        time=_time_choices(),
        first=_first_choices(spec),
        level=[_Choice(name=level, value=level) for level in LEVELS],
    )(import_)
    return app_commands.Command(
        name="import", description=_describe(import_, spec), callback=import_
    )


# ---------------------------------------------------------------- /games, /kamen


def games_command(actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def games(interaction: discord.Interaction) -> None:
        """The games being played on this server, with a link to each board."""
        await actions.list_games(interaction)

    app_commands.guild_only()(games)
    return app_commands.Command(name="games", description=_describe(games), callback=games)


def kamen_group(actions: Actions) -> app_commands.Group:
    # Visible to every member, for `/kamen me`: `/kamen settings` checks Manage Server itself
    # (Discord's command permissions are per command, and a server may override them anyway).
    group = app_commands.Group(
        name="kamen",
        description="Kamen's settings: yours, and this server's (for its managers).",
        guild_only=True,
    )

    async def settings(interaction: discord.Interaction, threads: bool | None = None) -> None:
        """See or change how Kamen plays here: whether each game gets its own thread."""
        await actions.server_settings(interaction, threads)

    app_commands.describe(
        threads="On: each accepted game opens a thread (default). Off: games stay in the channel."
    )(settings)

    async def me(interaction: discord.Interaction, pings: bool | None = None) -> None:
        """Your own settings: whether Kamen pings you when it is your move (only for you)."""
        await actions.my_settings(interaction, pings)

    app_commands.describe(
        pings="On: Kamen pings you when it is your move (default). Off: it does not."
    )(me)
    for command in (settings, me):
        group.add_command(
            app_commands.Command(
                name=command.__name__, description=_describe(command), callback=command
            )
        )
    return group


def install(tree: app_commands.CommandTree[Any], actions: Actions) -> None:
    """Every command, into `tree`."""
    for spec in registry.GAMES.values():
        tree.add_command(game_group(spec, actions))
    tree.add_command(games_command(actions))
    tree.add_command(kamen_group(actions))
