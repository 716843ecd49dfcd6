"""The bot's sentences are all in words/english/bot.py, and every one there is used."""

from __future__ import annotations

import re
from pathlib import Path

import words
from words.english.bot import TEXTS

ROOT = Path(__file__).resolve().parent.parent
# Codes the bot builds from a value (`bot.time.{unit}.{one|many}`, `bot.button.{answer}`, ...).
BUILT = re.compile(r'f"(bot\.[a-z0-9.-]*)\{')


def sources() -> str:
    return "\n".join(path.read_text() for path in sorted((ROOT / "bot").glob("*.py")))


def test_every_code_the_bot_names_has_its_english() -> None:
    named = set(re.findall(r'"(bot\.[a-z0-9.-]+)"', sources()))
    assert named, "the bot names its codes as string literals"
    assert sorted(code for code in named if not words.has_text(code)) == []


def test_every_english_sentence_of_the_bot_is_used() -> None:
    text = sources()
    named = set(re.findall(r'"(bot\.[a-z0-9.-]+)"', text))
    families = tuple(BUILT.findall(text))
    unused = sorted(code for code in TEXTS if code not in named and not code.startswith(families))
    assert unused == []


def test_the_bot_catalogue_holds_only_bot_codes() -> None:
    assert all(code.startswith("bot.") for code in TEXTS)
