"""Every registered game has everything a game needs, or this test names what is missing.

A game is one module in games/ and one line in games/registry.py; the rest of
Kamen finds it by name. A game that lacks a part must fail here, before a player
meets it as a crash or a random move. README.md ("Adding a game") lists the
same steps.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import words
from games.base import Termination
from games.registry import GAMES
from tests.test_words import RULE_ENDINGS, SERVICE, sample_outcomes

ROOT = Path(__file__).resolve().parent.parent


def table(module: str, name: str) -> dict[str, object] | None:
    """A registry table of another layer, or None when it is not there at all."""
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return dict(found)


def missing_parts(name: str) -> list[str]:
    """What the game `name` lacks, each with where to add it."""
    missing: list[str] = []
    spec = GAMES[name]

    painters = table("render.painters", "PAINTERS")
    if painters is None:
        missing.append("a painter: render/painters.py has no PAINTERS table (game name to painter)")
    elif name not in painters:
        missing.append(
            f"a painter: add render/{name}.py and its entry in render/painters.py PAINTERS"
        )

    adapters = table("games.ai.adapters", "ADAPTERS")
    if adapters is None:
        missing.append(
            "an AI adapter: games/ai/adapters.py has no ADAPTERS table (name to adapter)"
        )
    elif name not in adapters:
        missing.append(f"an AI adapter: add {name!r} to ADAPTERS in games/ai/adapters.py")

    reference = ROOT / "tests" / "reference" / f"{name}_ref.py"
    if not reference.exists():
        missing.append(
            f"a reference engine: add {reference.relative_to(ROOT)} (a class Game and a "
            "function perft, written from games/RULES.md alone)"
        )
    else:
        module = importlib.import_module(f"tests.reference.{name}_ref")
        for part in ("Game", "perft"):
            if not hasattr(module, part):
                missing.append(f"{reference.relative_to(ROOT)} lacks `{part}`")

    from tests.test_perft import TABLES

    for variant in spec.all_variants():
        if (name, str(variant)) not in TABLES:
            missing.append(
                f"a perft table: add ({name!r}, {str(variant)!r}) to TABLES in tests/test_perft.py"
            )

    from tests.test_all_games import INVARIANTS

    if name not in INVARIANTS:
        missing.append(
            f"its invariant: add {name!r} to INVARIANTS in tests/test_all_games.py "
            "(what every move of a random game keeps)"
        )

    if not (ROOT / "tests" / f"test_{name}.py").exists():
        missing.append(
            f"rules tests: add tests/test_{name}.py (one test per rule of games/RULES.md)"
        )

    if name not in RULE_ENDINGS:
        missing.append(
            f"its endings: add {name!r} to RULE_ENDINGS in tests/test_words.py "
            "(every Termination its rules can end in)"
        )
    for outcome in sample_outcomes(name) if name in RULE_ENDINGS else ():
        try:
            words.outcome_text(outcome, name)
        except KeyError:
            draw = ".draw" if outcome.winner is None else ""
            missing.append(
                f"an outcome text: add outcome.{name}.{outcome.code}{draw} (or outcome."
                f"{outcome.code}) to words/english/{name}.py"
            )

    from words.english import PARTS

    if name not in PARTS:
        missing.append(
            f"its words: add words/english/{name}.py and register it in PARTS in "
            "words/english/__init__.py"
        )
    if getattr(spec.start(spec.variant()), "spec", None) is not spec:
        missing.append(f"`spec`: the states of games/{name}.py return the module's SPEC")
    return list(dict.fromkeys(missing))


@pytest.mark.parametrize("name", list(GAMES))
def test_every_registered_game_is_complete(name: str) -> None:
    missing = missing_parts(name)
    assert not missing, f"the game {name!r} is missing:\n- " + "\n- ".join(missing)


def test_every_termination_is_said_by_some_game_or_generically() -> None:
    reached = set().union(*RULE_ENDINGS.values()) | set(SERVICE)
    assert reached == set(Termination), f"no game ends in {set(Termination) - reached}"
