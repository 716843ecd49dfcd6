"""The slash commands, generated from the games registry: `/<game> ...`, `/games`, `/kamen`.

Each command reads its options and hands them, as they came, to
`bot.actions`, which checks every value (`bot.options`): a crafted request
may send any type for any option. Its docstring (with the game's title
filled in) is its description in Discord.
A game's variant options become options of `challenge`, one per key, with
the rule book's values as choices: adding a game to the registry adds its
commands, with no code here. Every name, description and choice is worded in
`words` (`command.*`, `bot.choice.*`) and carries how to say it in any
language, for the translator that gives Discord the Czech commands
(`bot/translator.py`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

import words
from bot.actions import Actions, Features
from bot.options import CHALLENGE_TIMES, FIRSTS, MAX_RECORD_OPTION, TIMES
from games import registry
from games.ai.levels import level_rating
from games.base import GameSpec, VariantOption
from matches import LEVELS
from words.catalogue import DEFAULT_LOCALE
from words.games import option_help, side_names, title, value_help

_Choice = app_commands.Choice
NAME = 32  # Discord's longest name of a command, an option or a group


def _t(code: str, *, game: str | None = None, **params: Any) -> app_commands.locale_str:
    """The words of `code` as Discord gets them: English, and how to say them in a language.
    With a `game`, `{title}` and `{side}` (the side that moves first) are its, in the language."""

    def say(locale: str) -> str:
        named = {"title": title(game, locale), "side": side_names(game, locale)[0]} if game else {}
        return _short(words.say(code, locale, **named, **params))

    return _said(say)


def _name(code: str) -> app_commands.locale_str:
    """A name (of a command, a group, an option) in every language: lower case, short."""

    def say(locale: str) -> str:
        return words.say(code, locale).lower()[:NAME]

    return _said(say)


def _said(say: Callable[[str], str]) -> app_commands.locale_str:
    return app_commands.locale_str(say(DEFAULT_LOCALE), say=say)


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

    def choice(value: str) -> _Choice[str]:
        def say(locale: str) -> str:
            name = value
            text = value_help(spec.name, option.key, value, locale)
            if text is not None:
                name = words.say("bot.choice.variant", locale, value=value, text=text)
            if value == option.default:
                name = words.say("bot.choice.default", locale, name=name)
            return _short(name)

        return _Choice(name=_said(say), value=value)

    return [choice(value) for value in option.values]


def _variant_description(spec: GameSpec, option: VariantOption) -> app_commands.locale_str:
    """The option's help, or, when each choice explains itself, what the option is about."""
    if all(value_help(spec.name, option.key, value) for value in option.values):
        return _t("command.about.variant", key=option.key, default=option.default)

    def say(locale: str) -> str:
        text = option_help(spec.name, option.key, option.values, locale)
        return _short(words.say("command.about.variant-help", locale, help=text))

    return _said(say)


def _first_choices(spec: GameSpec) -> list[_Choice[str]]:
    return [
        _Choice(name=_t(f"bot.choice.first.{value}", game=spec.name), value=value)
        for value in FIRSTS
    ]


def _time_choices(times: tuple[str, ...] = TIMES) -> list[_Choice[str]]:
    """Each time control, labelled `bot.choice.time.<value>` (`3+2` as `3-plus-2`)."""
    return [
        _Choice(name=_t(f"bot.choice.time.{value.replace('+', '-plus-')}"), value=value)
        for value in times
    ]


def _level_choices(game: str) -> list[_Choice[str]]:
    """Kamen's levels, each with its measured rating in `game` ("easy ≈ 900")."""

    def named(level: str) -> app_commands.locale_str:
        rating = level_rating(game, level)

        def say(locale: str) -> str:
            name = words.say(f"command.level.{level}", locale)
            return _short(words.say("command.level.rated", locale, level=name, rating=rating))

        return _said(say)

    return [_Choice(name=named(level), value=level) for level in LEVELS]


def _game_options(spec: GameSpec) -> dict[str, app_commands.locale_str]:
    return {
        "time": _t("command.about.time"),
        "first": _t("command.about.first", game=spec.name),
        "level": _t("command.about.level"),
    }


def _named(*options: str) -> dict[str, app_commands.locale_str]:
    """The options' names, in every language."""
    return {option: _name(f"command.option.{option}") for option in options}


def _command(
    name: str, callback: Any, spec: GameSpec | None = None
) -> app_commands.Command[Any, ..., None]:
    """A command named `command.name.<name>`, described by `command.<name>`."""
    return app_commands.Command(
        name=_name(f"command.name.{name}"),
        description=_t(f"command.{name}", game=spec.name if spec is not None else None),
        callback=callback,
    )


def game_group(spec: GameSpec, actions: Actions, features: Features) -> app_commands.Group:
    """`/<game>` with its sub-commands."""
    group = app_commands.Group(
        name=_name(f"command.name.{spec.name}"),
        description=_t("command.game", game=spec.name),
        guild_only=True,
    )
    for build in (
        _challenge,
        _move,
        _board,
        _resign,
        _draw,
        _takeback,
        lambda spec, actions: _history(spec, actions, features),
        _replay,
        _review,
        _rules,
        _import,
    ):
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
    descriptions = {"opponent": _t("command.about.opponent")}
    renames = _named("opponent", "time", "first", "level")
    choices: dict[str, list[_Choice[str]]] = {}
    for option in spec.options:
        name = _param(option.key)
        params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
        descriptions[name] = _variant_description(spec, option)
        choices[name] = _variant_choices(spec, option)
        renames[name] = _name(f"command.option.{spec.name}.{option.key}")
    for name in ("time", "first", "level"):
        params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
    params.append(inspect.Parameter("rated", keyword, annotation=bool | None, default=None))
    descriptions.update(_game_options(spec))
    descriptions["rated"] = _t("command.about.rated")
    renames.update(_named("rated"))
    choices["time"] = _time_choices(CHALLENGE_TIMES)
    choices["first"] = _first_choices(spec)
    choices["level"] = _level_choices(spec.name)
    challenge.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    app_commands.describe(**descriptions)(challenge)
    app_commands.choices(**choices)(challenge)
    app_commands.rename(**renames)(challenge)
    return _command("challenge", challenge, spec)


# ---------------------------------------------------------------- /<game> move, board, ...


def _move(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    sample = spec.new().legal_moves()[0]

    async def move(interaction: discord.Interaction, move: str) -> None:
        """Play your move in this channel's game of {title} (type: the legal moves appear)."""
        await actions.move_by_command(interaction, spec, move)

    app_commands.describe(move=_t("command.about.move", sample=sample))(move)
    app_commands.rename(**_named("move"))(move)
    command = _command("move", move, spec)

    async def legal(interaction: discord.Interaction, current: str) -> list[_Choice[str]]:
        with actions.metrics.timing("autocomplete"):
            return await actions.autocomplete(interaction, spec, current)

    command.autocomplete("move")(legal)
    return command


def _board(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def board(interaction: discord.Interaction) -> None:
        """Show this channel's game of {title} again, with the move menu, for everyone."""
        await actions.show_board(interaction, spec)

    return _command("board", board, spec)


def _resign(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def resign(interaction: discord.Interaction) -> None:
        """Give up this channel's game of {title} (you will be asked to confirm)."""
        await actions.ask_resign(interaction, spec=spec)

    return _command("resign", resign, spec)


def _draw(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def draw(interaction: discord.Interaction) -> None:
        """Offer a draw in this channel's game of {title}, or accept the one you were offered."""
        await actions.draw(interaction, spec=spec)

    return _command("draw", draw, spec)


def _takeback(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def takeback(interaction: discord.Interaction) -> None:
        """Ask to take back your last move in this channel's game of {title} (unrated games)."""
        await actions.ask_takeback(interaction, spec)

    return _command("takeback", takeback, spec)


def _game_id_option(func: Any) -> None:
    app_commands.describe(game=_t("command.about.game"))(func)
    app_commands.rename(**_named("game"))(func)


def _history(
    spec: GameSpec, actions: Actions, features: Features
) -> app_commands.Command[Any, ..., None]:
    async def history(
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1] | None = None,
        user: discord.User | None = None,
    ) -> None:
        """The moves of a game of {title} so far, and its record as a text file (only for you)."""
        if user is not None and game is None:
            await features.community.games_of(interaction, spec, user)
        else:
            await actions.history(interaction, spec, game)

    _game_id_option(history)
    app_commands.describe(user=_t("command.about.history-user"))(history)
    app_commands.rename(**_named("user"))(history)
    return _command("history", history, spec)


def _replay(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def replay(
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1] | None = None,
        gif: bool | None = None,
    ) -> None:
        """Step through a game of {title} move by move (only for you), or post it as a GIF."""
        await actions.replay(interaction, spec, game, gif)

    _game_id_option(replay)
    app_commands.describe(gif=_t("command.about.gif"))(replay)
    app_commands.rename(**_named("gif"))(replay)
    return _command("replay", replay, spec)


def _review(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def review(
        interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """What each move of a finished game of {title} changed: mistakes, better moves."""
        await actions.review(interaction, spec, game)

    _game_id_option(review)
    return _command("review", review, spec)


def _rules(spec: GameSpec, actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def rules(interaction: discord.Interaction) -> None:
        """How {title} is played, its variants and how moves are written (only for you)."""
        await actions.rules(interaction, spec)

    return _command("rules", rules, spec)


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
        record=_t("command.about.record"),
        file=_t("command.about.file"),
        opponent=_t("command.about.import-opponent"),
        **_game_options(spec),
    )(import_)
    app_commands.choices(
        time=_time_choices(CHALLENGE_TIMES),
        first=_first_choices(spec),
        level=_level_choices(spec.name),
    )(import_)
    app_commands.rename(**_named("record", "file", "opponent", "time", "first", "level"))(import_)
    return _command("import", import_, spec)


# ---------------------------------------------------------------- /games, /kamen


def games_command(actions: Actions) -> app_commands.Command[Any, ..., None]:
    async def games(interaction: discord.Interaction) -> None:
        """The games being played on this server, with a link to each board."""
        await actions.list_games(interaction)

    app_commands.guild_only()(games)
    return _command("games", games)


def kamen_group(actions: Actions, features: Features) -> app_commands.Group:
    # Visible to every member, for `/kamen me ...`: `/kamen settings` checks Manage Server itself
    # (Discord's command permissions are per command, and a server may override them anyway).
    group = app_commands.Group(
        name=_name("command.name.kamen"), description=_t("command.kamen"), guild_only=True
    )
    group.add_command(features.settings.command())

    async def help(interaction: discord.Interaction, game: str | None = None) -> None:
        """How to play here: the games, starting one, moving, and what else there is."""
        await actions.help(interaction, game)

    app_commands.describe(game=_t("command.about.help-game"))(help)
    app_commands.choices(game=_game_choices())(help)
    app_commands.rename(**_named("game"))(help)
    group.add_command(_command("help", help))
    group.add_command(features.people.commands())
    group.add_command(features.seasons.commands())
    return group


def _game_choices() -> list[_Choice[str]]:
    def named(game: str) -> app_commands.locale_str:
        return _said(lambda locale: title(game, locale))

    return [_Choice(name=named(name), value=name) for name in registry.GAMES]


def install(tree: app_commands.CommandTree[Any], actions: Actions, features: Features) -> None:
    """Every command, into `tree`."""
    for spec in registry.GAMES.values():
        tree.add_command(game_group(spec, actions, features))
    tree.add_command(games_command(actions))
    leaderboard, profile = features.community.commands()
    tree.add_command(leaderboard)
    tree.add_command(features.puzzles.command())
    tree.add_command(profile)
    tree.add_command(kamen_group(actions, features))
    tree.add_command(features.tournaments.commands())
