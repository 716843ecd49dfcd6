"""The record format the README documents is the one Kamen reads: its examples load."""

from __future__ import annotations

import re
from pathlib import Path

from games.record import load

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readmes_record_examples_load_as_the_games_they_show() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Records", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```\n(.*?)```", section, flags=re.S)
    record, state = load(block)
    assert record.spec.name == "oska" and record.first == "ann" and len(state.moves) == 8
    shortest = re.search(r"two lines: `(.+?)` then\s+`(.+?)`", section)
    assert shortest is not None
    record, state = load(f"{shortest[1]}\n{shortest[2]}\n")
    assert state.moves == ("a1-b2", "a5-b4") and record.result == "*"
