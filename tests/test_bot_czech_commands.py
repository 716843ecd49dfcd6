"""The slash commands in Czech: every name, description and choice, within Discord's rules.

The bot syncs its commands with Czech localisations (discord.py's translator
over the Czech catalogue): a Czech player types `/oska výzva` and reads
Czech descriptions and choices; everyone else sees the English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.ai.levels import LEVELS, level_rating
from tests.bot_support import process_table

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule; \w takes letters with diacritics


def nodes(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, sub-command and option, with where it is."""
    for item in items:
        where = f"{path} {item['name']}".strip()
        yield where, item
        yield from nodes(item.get("options") or [], where)


@pytest.mark.asyncio
async def test_every_command_option_and_choice_has_a_czech_name_and_description(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        synced = table.fake.commands()
    assert synced
    czech_paths: dict[str, str] = {}
    for where, node in nodes(synced):
        name = (node.get("name_localizations") or {}).get("cs")
        about = (node.get("description_localizations") or {}).get("cs")
        assert name and NAME.match(name) and name == name.lower(), (where, name)
        assert about and len(about) <= 100 and about != node["description"], (where, about)
        parent = where.rpartition(" ")[0]
        czech_paths[where] = f"{czech_paths.get(parent, '')} {name}".strip()
        for choice in node.get("choices") or []:
            said = (choice.get("name_localizations") or {}).get("cs")
            assert said and len(said) <= 100, (where, choice)
    # Names stay unique where Discord wants them unique (among siblings).
    siblings: dict[str, set[str]] = {}
    for czech in czech_paths.values():
        parent, _, name = czech.rpartition(" ")
        assert name not in siblings.setdefault(parent, set()), czech
        siblings[parent].add(name)
    every = set(czech_paths.values())
    for command in ("oska výzva", "oska tah", "oska deska", "oska vzdát", "oska remíza"):
        assert command in every, command
    assert "laska pravidla" in every and "hry" in every and "kamen já nastavení upozornění" in every
    assert "oska výzva soupeř" in every and "oware výzva nad-11-semen" in every
    # Each level with its measured strength in the game and the scale it is on,
    # in Czech and in English, in every game.
    names = ["1 · lehká", "2", "3 · střední", "4", "5 · středně těžká", "6", "7 · těžká",
             "8 · nejtěžší"]  # fmt: skip
    english = ["1 · easy", "2", "3 · medium", "4", "5 · medium-hard", "6", "7 · hard", "8 · max"]
    for game in ("oska", "lasca", "oware"):
        level = next(node for where, node in nodes(synced) if where == f"{game} challenge level")
        ratings = [level_rating(game, level) for level in LEVELS]
        assert [c["value"] for c in level["choices"]] == list(LEVELS)
        assert "Kamen's engine scale" in level["description"]
        assert "Kamenově stupnici programů" in level["description_localizations"]["cs"]
        assert [c["name_localizations"]["cs"] for c in level["choices"]] == [
            f"{name} ≈ {rating}" for name, rating in zip(names, ratings, strict=True)
        ]
        assert [c["name"] for c in level["choices"]] == [
            f"{name} ≈ {rating}" for name, rating in zip(english, ratings, strict=True)
        ]
