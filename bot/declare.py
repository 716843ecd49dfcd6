"""How a command is declared to Discord, shared by every feature module.

A feature declares a command beside its handler, once: the handler's own
signature is the declaration. Each option is written
`name: Annotated[object, <what Discord is told>]`: Discord's client offers
the declared type, range and choices, while the handler, typed `object`,
checks what a crafted request may send instead (discord.py passes a
request's values through unchecked; `bot/options.py`), and the service
checks what it owns. Ranges are declared from the constants of the `matches`
part that owns them (`Range[int, 1, MAX_ROUNDS]`).

Every name, description and choice is worded in `words` (`command.*`,
`bot.choice.*`) and carries how to say it in any language, for the
translator that gives Discord the Czech commands (`bot/translator.py`). A
command named `<key>` is called `command.name.<key>` and described by
`command.<key>`; an option is called `command.option.<option>` unless said
otherwise, and each is described.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

import discord
from discord import app_commands

import words
from bot.options import TIMES
from games import registry
from words.catalogue import DEFAULT_LOCALE, LANGUAGES
from words.games import side_names, title

Choice = app_commands.Choice
Command = app_commands.Command[Any, ..., None]
NAME = 32  # Discord's longest name of a command, an option or a group
LANGUAGE_AUTO = "auto"  # the language option's value for "as Discord says"
LANGUAGE_CHOICES = (LANGUAGE_AUTO, *sorted(LANGUAGES))


def t(code: str, *, game: str | None = None, **params: Any) -> app_commands.locale_str:
    """The words of `code` as Discord gets them: English, and how to say them in a language.
    With a `game`, `{title}` and `{side}` (the side that moves first) are its, in the language."""

    def say(locale: str) -> str:
        named = {"title": title(game, locale), "side": side_names(game, locale)[0]} if game else {}
        return short(words.say(code, locale, **named, **params))

    return said(say)


def name(code: str) -> app_commands.locale_str:
    """A name (of a command, a group, an option) in every language: lower case, short."""

    def say(locale: str) -> str:
        return words.say(code, locale).lower()[:NAME]

    return said(say)


def said(say: Callable[[str], str]) -> app_commands.locale_str:
    return app_commands.locale_str(say(DEFAULT_LOCALE), say=say)


def short(text: str, limit: int = 100) -> str:
    """A description cut at a word to Discord's limit."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def group(key: str, described_by: str | None = None, *, guild_only: bool = False) -> (
    app_commands.Group
):  # fmt: skip
    """A group of commands named `command.name.<key>`, described by `command.<key>`
    (or `described_by`)."""
    return app_commands.Group(
        name=name(f"command.name.{key}"),
        description=t(described_by or f"command.{key}"),
        guild_only=guild_only,
    )


def command(
    key: str,
    handler: Callable[..., Awaitable[None]],
    *,
    about: Mapping[str, str | app_commands.locale_str] | None = None,
    names: Mapping[str, str] | None = None,
    choices: Mapping[str, list[Choice[str]]] | None = None,
    bound: Mapping[str, object] | None = None,
    game: str | None = None,
    named_by: str | None = None,
    described_by: str | None = None,
    guild_only: bool = False,
) -> Command:
    """The command `key` whose options are `handler`'s own `Annotated` parameters.

    `about` names the words that describe each option (or gives them), `names` the ones
    that name it when not `command.option.<option>`; `bound` gives the handler's other
    parameters (the game of `/<game> ...`); `game` fills the description's `{title}`.
    `named_by` and `described_by` are the command's words when not the usual ones.
    """
    callback = handing_to(handler, bound or {})
    options = [p for p in inspect.signature(callback).parameters if p != "interaction"]
    about, names = about or {}, names or {}
    if options:
        described = {o: about[o] for o in options}
        app_commands.describe(
            **{o: t(d, game=game) if isinstance(d, str) else d for o, d in described.items()}
        )(callback)
        app_commands.rename(**{o: name(names.get(o, f"command.option.{o}")) for o in options})(
            callback
        )
    offered = {option: listed for option, listed in (choices or {}).items() if option in options}
    if offered:
        app_commands.choices(**offered)(callback)
    if guild_only:
        app_commands.guild_only()(callback)
    return app_commands.Command(
        name=name(named_by or f"command.name.{key}"),
        description=t(described_by or f"command.{key}", game=game),
        callback=callback,
    )


def handing_to(
    handler: Callable[..., Awaitable[None]], bound: Mapping[str, object]
) -> Callable[..., Coroutine[Any, Any, None]]:
    """A command's callback that hands its options to `handler` (a `guarded` method):
    its parameters are the handler's options, annotated as Discord is told them."""
    method = getattr(handler, "__func__", handler)
    func = inspect.unwrap(method)  # the handler as written: (self, answer, *parameters)
    cache: dict[str, Any] = {}
    written = list(inspect.signature(func).parameters.values())[2:]
    missing = set(bound) - {param.name for param in written}
    assert not missing, f"{func.__qualname__} has no parameter {missing}"
    params = [
        param.replace(
            annotation=discord.utils.resolve_annotation(
                param.annotation, func.__globals__, func.__globals__, cache
            )
        )
        for param in written
        if _is_option(param.annotation)
    ]

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        await handler(interaction, **bound, **options)

    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    callback.__signature__ = inspect.Signature([first, *params])  # type: ignore[attr-defined]
    return callback


def _is_option(annotation: object) -> bool:
    """Whether a parameter is an option: `Annotated[object, <what Discord is told>]`."""
    if isinstance(annotation, str):  # as written, under `from __future__ import annotations`
        return annotation.startswith(("Annotated[", "typing.Annotated["))
    return typing.get_origin(annotation) is typing.Annotated


# ---------------------------------------------------------------- shared choices


def game_choices() -> list[Choice[str]]:
    """Each game of the registry, named by its title in every language."""

    def named(game: str) -> app_commands.locale_str:
        return said(lambda locale: title(game, locale))

    return [Choice(name=named(game), value=game) for game in registry.GAMES]


def time_choices(times: tuple[str, ...] = TIMES) -> list[Choice[str]]:
    """Each time control, labelled `bot.choice.time.<value>` (`3+2` as `3-plus-2`)."""
    return [
        Choice(name=t(f"bot.choice.time.{value.replace('+', '-plus-')}"), value=value)
        for value in times
    ]


def language_name(locale: str) -> str:
    """A language's own name for itself (`Čeština`, `English`)."""
    return words.say("command.language.name", locale)


def language_choices() -> list[Choice[str]]:
    """Automatic, then each language Kamen speaks, named in itself (`Čeština`)."""

    def named(code: str) -> app_commands.locale_str:
        spoken = language_name(code)
        return said(lambda locale: spoken[:1].upper() + spoken[1:])

    auto = Choice(name=t("command.language.auto"), value=LANGUAGE_AUTO)
    return [auto, *(Choice(name=named(code), value=code) for code in LANGUAGE_CHOICES[1:])]
