"""The catalogue and the code agree: every English code is used, and no sentence hides in the code.

Read with `ast` (tests/catalogue_support): a code is used when the code base
names it as a string literal or an f-string pattern covers it
(`f"outcome.{game}.{reason}"`); a player-facing sentence is a string literal
that reads as prose in bot/, render/, matches/, games/ or runtime/ outside the
contexts that are not a player's (docstrings, logs, developers' exceptions,
argparse, regexes, position notation: `EXEMPT_CONTEXTS`). What is set aside by
name is below, each with its reason; each check is also shown failing on a
snippet.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from games.registry import GAMES
from tests.catalogue_support import (
    CATALOGUE_SOURCE,
    CODE_PACKAGES,
    EXEMPT_CONTEXTS,
    SPEAKING_PACKAGES,
    Allowed,
    Audience,
    Finding,
    Rules,
    code_pattern,
    patterns_in_use,
    prose,
    reads_as_prose,
    sources,
    unused,
    used_codes,
)
from words.english import TEXTS as ENGLISH

# ------------------------------------------------------------------ what is set aside by name

# Modules whose every reader is a self-hoster or a developer, never a player.
AUDIENCES = (
    Audience(
        "runtime/settings.py",
        "the self-hoster's configuration (DISCORD_TOKEN's how-to, SettingsError): read on "
        "stderr before any player's language is known (the locale is itself a setting), and "
        "documented in the English README beside the variables it names",
    ),
    Audience(
        "runtime/health.py",
        "/healthz answers and the Docker HEALTHCHECK probe (`python -m runtime.health`): read "
        "by the operator and the orchestrator, never shown in Discord",
    ),
    Audience(
        "runtime/metrics.py",
        "Prometheus' `# HELP` lines of /metrics: read by the monitoring, never shown in Discord",
    ),
    Audience(
        "bot/__main__.py",
        "`python -m bot` start-up: a refused token or an unwritable database is one line on the "
        "self-hoster's stderr, before Discord (and any player) is reached",
    ),
    Audience(
        "matches/runner.py",
        "the background work's log lines and the reasons `/healthz` gives when it is stalled"
        " (`Runner.troubles`): read by the operator, never shown in Discord",
    ),
    Audience(
        "matches/leases.py",
        "a process's shard leases: its log lines, and the one line on the self-hoster's stderr"
        " when it is refused (another SHARD_COUNT) or replaced; never shown in Discord",
    ),
    Audience(
        "matches/recompute.py",
        "the differences `python -m store recompute` prints for the self-hoster who checks "
        "or rebuilds the ratings; never shown in Discord",
    ),
    Audience(
        "render/demo.py",
        "`python -m render demo`: what each demo image shows, for the developers' gallery",
    ),
    Audience(
        "games/ai/check_oware_tables.py",
        "the Oware tables' check (`python -m games.ai.check_oware_tables`) for the developer who "
        "rebuilds or checks the endgame tables",
    ),
    Audience(
        "games/ai/oska_solver.py",
        "the Oska solver's report (`python -m games.ai.oska_solver`) for the developer who "
        "rebuilds or checks the table",
    ),
    Audience(
        "games/ai/fit_review.py",
        "the review curve's fit (`python -m games.ai.fit_review`) for the developer who fits "
        "the expected score's constant again",
    ),
    Audience(
        "games/ai/verify_puzzles.py",
        "the puzzle verifier's report (`python -m games.ai.verify_puzzles`): the puzzles kept "
        "and refused, for the developer who checks or prunes the shipped puzzles",
    ),
)

_SPECIMEN = (
    "the palette's specimen caption, drawn once and never shown (render's own comment: new "
    "text would shift every image's palette); a player's captions come from words"
)
# Single literals that read as prose but no player reads.
ALLOWED = (
    Allowed("render/oska.py", "Blue to move: Ann", _SPECIMEN),
    Allowed("render/oska.py", "Move 12: Red played a5xc3, taking b4", _SPECIMEN),
    Allowed("render/lasca.py", "White to move: Ann", _SPECIMEN),
    Allowed("render/lasca.py", "Move 12: Black played c5xe3, taking d4", _SPECIMEN),
    Allowed("render/oware.py", "South to move: Ann", _SPECIMEN),
    Allowed("render/oware.py", "Move 12: North played e, capturing B and C", _SPECIMEN),
    Allowed(
        "games/oware.py",
        "must play a pit with more than 11 seeds",
        "a line of the Oware position notation (`South must play a pit ...`), written by "
        "to_text and read back by from_text: notation, like `South to move`",
    ),
    Allowed(
        "bot/table.py",
        "no answer in time",
        "the status of a lost answer, put only into the log line (log.warning) beside the error",
    ),
)

# Findings in bot/ and render/ that their owners are moving into the catalogue; each
# entry names the file, the literal and why it waits. Empty: none was found.
PENDING: tuple[Allowed, ...] = ()

RULES = Rules(audiences=AUDIENCES, allowed=ALLOWED + PENDING)
NOTHING_SET_ASIDE = Rules()


def code_base() -> dict[str, str]:
    """The project's Python that may name a code (the catalogue's own modules define them)."""
    found = sources(CODE_PACKAGES)
    return {path: text for path, text in found.items() if not path.startswith(CATALOGUE_SOURCE)}


def snippet(text: str) -> str:
    return textwrap.dedent(text).lstrip()


# ------------------------------------------------------------------ every code is used


def test_every_english_code_is_used_by_the_code() -> None:
    usage = used_codes(code_base(), GAMES)
    dead = unused(ENGLISH, usage)
    assert dead == [], "codes no code says (remove them, or say them): " + ", ".join(dead)


def test_the_dynamic_codes_are_read_from_the_code_f_strings() -> None:
    covered = patterns_in_use(ENGLISH, used_codes(code_base(), GAMES))
    expected = {
        "outcome.{}.{}": "outcome.oska.goal",
        "outcome.{}.{}.draw": "outcome.oska.goal.draw",
        "outcome.{}": "outcome.resignation",
        "{}.summary": "oware.summary",
        "{}.variant.{}.{}": "oska.variant.capture.huff",
        "join.{}": "join.or",
        "lasca.game-over.{}": "lasca.game-over.repetition",
        "match.input.too-long.{}": "match.input.too-long.move",
    }
    for pattern, code in expected.items():
        assert code in covered.get(pattern, []), pattern
    # A pattern opening with a value names a game: `{}.title` is no use of `cli.title`.
    assert covered.get("{}.title") == sorted(f"{game}.title" for game in GAMES)


def test_a_code_the_code_does_not_name_is_reported() -> None:
    code = {
        "bot/speak.py": snippet(
            '''
            """Mentions bot.docstring-only, which is no use."""
            words.say("bot.said")
            words.say(f"outcome.{game}.{reason}")
            words.say(f"{game}.summary")
            '''
        )
    }
    catalogue = [
        "bot.said",
        "bot.extra",
        "bot.docstring-only",
        "outcome.oska.goal",
        "outcome.oska.goal.draw",
        "oska.summary",
        "bot.summary",
    ]
    usage = used_codes(code, ["oska"])
    assert unused(catalogue, usage) == [
        "bot.docstring-only",
        "bot.extra",
        "bot.summary",
        "outcome.oska.goal.draw",
    ]


@pytest.mark.parametrize(
    ("source", "pattern"),
    [
        ('f"outcome.{game}.{reason}"', "outcome.{}.{}"),
        ('f"{game}.variant.{key}.{value}"', "{}.variant.{}.{}"),
        ('f"bot.time.{unit}"', "bot.time.{}"),
        ('f"{a}.{b}"', None),  # no segment written out
        ('f"{stem}-{n}.txt"', None),  # a value inside a segment
        ('f"bot.{kind}-x"', None),
        ('f"Move {n}: {side} played"', None),  # not code-shaped
        ('f"{game}"', None),
        ('f"bot.time.day"', None),  # no value at all: a literal
    ],
)
def test_only_code_shaped_f_strings_are_patterns(source: str, pattern: str | None) -> None:
    node = ast.parse(source, mode="eval").body
    found = code_pattern(node) if isinstance(node, ast.JoinedStr) else None
    assert found == pattern


# ------------------------------------------------------------------ no sentence in the code


def test_no_player_facing_sentence_is_written_outside_the_catalogue() -> None:
    findings = prose(sources(SPEAKING_PACKAGES), RULES)
    assert findings == [], "say these through words/ (a code in words/english):\n" + "\n".join(
        str(finding) for finding in findings
    )


def test_every_exemption_by_name_is_still_needed() -> None:
    """An audience or an allowed literal that no longer hides a finding is dropped from the list."""
    bare = prose(sources(SPEAKING_PACKAGES), NOTHING_SET_ASIDE)
    by_path = {finding.path for finding in bare}
    assert [audience.path for audience in AUDIENCES if audience.path not in by_path] == []
    found = {(finding.path, finding.text) for finding in bare}
    assert [entry for entry in ALLOWED + PENDING if (entry.path, entry.text) not in found] == []
    assert all(audience.reason for audience in AUDIENCES)
    assert all(entry.reason for entry in ALLOWED + PENDING)


def test_the_exempt_contexts_each_say_why() -> None:
    assert all(len(reason) > 20 for reason in EXEMPT_CONTEXTS.values())


def findings_in(path: str, text: str, rules: Rules = NOTHING_SET_ASIDE) -> list[str]:
    return [str(finding) for finding in prose({path: snippet(text)}, rules)]


def test_a_sentence_for_a_player_is_reported_with_its_file_and_line() -> None:
    found = findings_in(
        "bot/replies.py",
        '''
        """Replies."""
        def reply(player: str) -> str:
            if player:
                return f"{player} wins the game"
            return "Nobody is here"
        ''',
    )
    assert found == [
        "bot/replies.py:4: '{} wins the game'",
        "bot/replies.py:5: 'Nobody is here'",
    ]


@pytest.mark.parametrize(
    ("text", "prose_like"),
    [
        ("Draw.", True),
        ("to move", True),
        ("Hráč na tahu", True),
        ("{} {}", False),
        ("bot.time.day", False),
        ("kamen:move:12", False),
        ("https://discord.com/channels/{}/{}/{}", False),
        ("dict[str, Any]", False),
        ("SELECT id FROM games WHERE channel_id = ?", False),
        ("%d", False),
    ],
)
def test_what_reads_as_prose(text: str, prose_like: bool) -> None:
    assert reads_as_prose(text) is prose_like


def test_a_discord_label_is_a_players_even_as_one_word() -> None:
    code = """
        button = ui.Button(label="Accept", custom_id="kamen:accept:1")
        said = ui.Button(label=words.say("bot.button.accept"))
        """
    assert findings_in("bot/components.py", code) == ["bot/components.py:1: 'Accept'"]
    assert findings_in("games/oska.py", code) == []  # title=, label= mean Discord only in bot/


def test_what_is_not_a_players_is_not_reported() -> None:
    code = '''
        """A module's docstring for readers of the code, in two sentences."""
        import argparse
        import logging
        import re

        log = logging.getLogger(__name__)
        crash = logging.getLogger("kamen.crash")
        LIMIT = 3
        """An attribute's docstring, read by nobody at run time."""


        class Broken(Exception):
            """A developer's error."""


        def broken(name: str) -> Broken:
            return Broken(f"the game {name} has no painter at all")


        def check(size: int) -> None:
            assert size > 0, "size must be more than zero"
            if size > LIMIT:
                raise ValueError(f"size must be at most {LIMIT} pixels")
            log.info("checking the size %s of the board", size)
            crash.critical("uncaught exception in the check")
            re.fullmatch(r"(blue|red) removes one of:(.*)", "")
            run("SELECT id FROM games WHERE status = 'active'")


        def spawn(work: object, what: str) -> None:
            log.warning("background work failed: %s", what)


        def later() -> None:
            spawn(None, "the old ping in the channel")


        def command(name: str, help: str) -> argparse.ArgumentParser:
            return argparse.ArgumentParser(prog=name, description=help)


        def main() -> None:
            parser = argparse.ArgumentParser(description="two people play in the terminal")
            parser.add_argument("--lang", help="the language to speak, by default from LANG")
            command("play", "two people play in the terminal")
            parser.error("unrecognized arguments: none at all")
        '''
    assert findings_in("bot/table.py", code) == []


def test_each_exempt_context_is_narrow() -> None:
    code = """
        import logging

        log = logging.getLogger(__name__)


        class BadInput(MatchError):
            code = "match.bad-input"


        def spawn(work: object, what: str) -> str:
            log.warning("background work failed: %s", what)
            return what


        def refuse() -> None:
            raise BadInput("That input is not valid")


        def later() -> None:
            spawn(None, "shown to the player too")
            printer.error("Something went wrong")
        """
    assert findings_in("matches/service.py", code) == [
        "matches/service.py:16: 'That input is not valid'",
        "matches/service.py:20: 'shown to the player too'",
        "matches/service.py:21: 'Something went wrong'",
    ]


def test_position_notation_is_set_aside_only_in_the_engines_text_form() -> None:
    code = """
        def to_text(side: str) -> str:
            return f"{side} to move"


        def describe(side: str) -> str:
            return f"{side} to move"
        """
    assert findings_in("games/oska.py", code) == ["games/oska.py:6: '{} to move'"]
    assert findings_in("render/scene.py", code) == [
        "render/scene.py:2: '{} to move'",
        "render/scene.py:6: '{} to move'",
    ]


def test_modules_and_literals_set_aside_by_name_hide_only_themselves() -> None:
    code = """
        a = "Something went wrong here"
        b = "Something else went wrong"
        """
    rules = Rules(
        audiences=(Audience("runtime/health.py", "operators"),),
        allowed=(Allowed("bot/x.py", "Something went wrong here", "a reason"),),
    )
    assert findings_in("runtime/health.py", code, rules) == []
    assert findings_in("bot/x.py", code, rules) == ["bot/x.py:2: 'Something else went wrong'"]
    assert findings_in("words/x.py", code, rules) == []  # words/ is the catalogue's own layer
    assert str(Finding("bot/x.py", 2, "a b")) == "bot/x.py:2: 'a b'"


def test_a_code_added_and_never_said_is_found_among_the_real_code() -> None:
    usage = used_codes(code_base(), GAMES)
    extra = ["bot.never-said", "bot.rules.unsaid", "cli.summary"]  # `{}.rules.{}` is a game's
    assert unused([*ENGLISH, *extra], usage) == sorted(extra)


def test_a_sentence_added_to_the_real_code_is_found() -> None:
    code = {**sources(SPEAKING_PACKAGES), "matches/extra.py": 'LOST = "You lost the game."\n'}
    assert [str(finding) for finding in prose(code, RULES)] == [
        "matches/extra.py:1: 'You lost the game.'"
    ]
