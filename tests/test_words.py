"""The words layer: every code the engines can raise or return has a sentence, once.

The catalogue parts do not overlap; each game's texts sit in its own part; every
outcome a game can reach reads as a sentence; every refusal found by playing
random games and typing random texts at them can be said; and the small
grammar of the templates (joined lists, a wrapped error, an outcome named
inside a refusal) does what the catalogue relies on.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import words
from games.base import (
    GameError,
    IllegalMove,
    MoveError,
    Outcome,
    RecordError,
    Side,
    Termination,
    VariantError,
)
from games.record import load
from games.registry import GAMES
from words import games as words_games
from words.catalogue import forms_of
from words.english import PARTS, TEXTS
from words.games import outcome_code

ROOT = Path(__file__).resolve().parent.parent

# What each game's rules can end in, and whether such an ending has a winner
# ("win"), never has one ("draw") or either; the service adds SERVICE to every game.
WIN, DRAW, EITHER = "win", "draw", "either"
RULE_ENDINGS: dict[str, dict[Termination, str]] = {
    "oska": {Termination.GOAL: EITHER, Termination.GOAL_STONELESS: WIN,
             Termination.ELIMINATION: EITHER, Termination.BLOCKED: DRAW},
    "lasca": {Termination.NO_MOVES: WIN, Termination.ELIMINATION: WIN, Termination.REPETITION: DRAW,
              Termination.MOVE_LIMIT: DRAW},
    "oware": {Termination.TWENTY_FIVE: WIN, Termination.REPETITION: EITHER,
              Termination.NO_SEEDS: EITHER, Termination.CANNOT_FEED: EITHER},
}  # fmt: skip
SERVICE: dict[Termination, str] = {
    Termination.RESIGNATION: WIN,
    Termination.TIME: WIN,
    Termination.AGREEMENT: DRAW,
    Termination.ABANDONED: DRAW,
}

CODE = re.compile(r"(move|variant|position|record|game|cli|oska|lasca|oware)(\.[a-z0-9-]+)+")


# ------------------------------------------------------------- the catalogue


def test_no_code_is_in_two_parts_of_the_catalogue() -> None:
    seen: dict[str, str] = {}
    twice = []
    for part, texts in PARTS.items():
        for code in texts:
            if code in seen:
                twice.append(f"{code}: {seen[code]} and {part}")
            seen[code] = part
    assert twice == []
    assert len(TEXTS) == sum(len(texts) for texts in PARTS.values())


@pytest.mark.parametrize("game", list(GAMES))
def test_a_games_codes_live_in_its_own_part_only(game: str) -> None:
    assert game in PARTS, f"add words/english/{game}.py to PARTS in words/english/__init__.py"
    mine = (f"{game}.", f"outcome.{game}.")
    strays = [f"{part}: {code}" for part, texts in PARTS.items() if part != game
              for code in texts if code.startswith(mine)]  # fmt: skip
    assert strays == []
    foreign = [code for code in PARTS[game] if not code.startswith(mine)]
    assert foreign == [], f"words/english/{game}.py holds only {game}.* and outcome.{game}.*"


def test_every_template_reads_as_a_format_string() -> None:
    for code, template in TEXTS.items():
        for form in forms_of(template):
            fields = [name for _, name, _, _ in string.Formatter().parse(form)]
            assert all(name is None or name.isidentifier() for name in fields), code


# --------------------------------------------------------------- outcomes


def sample_outcomes(game: str) -> Iterator[Outcome]:
    """One outcome of each kind the game can end in, every parameter set."""
    for reason, kind in sorted({**RULE_ENDINGS[game], **SERVICE}.items()):
        kinds: dict[str, list[Side | None]] = {WIN: [Side.FIRST, Side.SECOND], DRAW: [None],
                                               EITHER: [Side.FIRST, Side.SECOND, None]}  # fmt: skip
        winners = kinds[kind]
        for winner in winners:
            both = winner is None and reason in {Termination.GOAL, Termination.ELIMINATION}
            side = None if both else Side.FIRST
            yield Outcome(winner, reason, side, score=(24, 24), count=25)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_ending_of_every_game_has_a_sentence(game: str) -> None:
    missing = []
    for outcome in sample_outcomes(game):
        code = outcome_code(game, outcome.code, outcome.winner is None)
        if not words.has_text(code):
            missing.append(f"{outcome.code} ({outcome.label}): add outcome.{game}.{outcome.code}")
            continue
        assert words.outcome_text(outcome, game)
    assert missing == []


@pytest.mark.parametrize("game", list(GAMES))
def test_the_endings_table_matches_what_random_games_reach(game: str) -> None:
    spec = GAMES[game]
    reached = set()
    for variant in spec.all_variants():
        for seed in range(30):
            rng = random.Random(f"words/{game}/{variant}/{seed}")
            state = spec.start(variant)
            while legal := state.legal_moves():
                state = state.play(rng.choice(legal))
            outcome = state.outcome()
            assert outcome is not None
            reached.add(outcome.reason)
            assert words.outcome_text(outcome, game)
    assert reached <= set(RULE_ENDINGS[game])


def test_outcome_text_prefers_the_games_draw_then_the_game_then_the_generic() -> None:
    home = Outcome(Side.SECOND, Termination.GOAL, Side.SECOND)
    assert words.outcome_text(home, "oska") == "Red has every stone home"
    both = Outcome(None, Termination.GOAL)
    assert words.outcome_text(both, "oska") == "both players have every stone home"
    resigned = Outcome(Side.SECOND, Termination.RESIGNATION, Side.FIRST)
    assert words.outcome_text(resigned, "oska") == "Blue resigned"
    timed = Outcome(Side.FIRST, Termination.TIME, Side.SECOND)
    assert words.outcome_text(timed, "lasca") == "Black ran out of time"
    agreed = Outcome(None, Termination.AGREEMENT)
    assert words.outcome_text(agreed, "oware") == "drawn by agreement"


# ---------------------------------------------------------------- refusals


def codes_in_source(path: Path) -> set[str]:
    """Every string constant of a module that is written like a code."""
    tree = ast.parse(path.read_text())
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and CODE.fullmatch(node.value)
    }  # fmt: skip


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.py")), ids=lambda p: p.name)
def test_every_code_written_in_the_engines_has_a_text(path: Path) -> None:
    missing = sorted(code for code in codes_in_source(path) if not words.has_text(code))
    assert missing == [], f"add these to words/english/ (games.py or the game's file): {missing}"


NEAR = "abcdefgABCDEFG1234567890x-/ "


def random_texts(rng: random.Random, legal: tuple[str, ...]) -> Iterator[str]:
    yield ""
    yield "pass"
    for _ in range(6):
        yield "".join(rng.choice(NEAR) for _ in range(rng.randint(1, 9)))
    for move in legal[:3]:
        yield move[::-1]
        yield move + "/a1"
        yield move.replace("-", "x")
        yield move[:2] + "-" + move[-2:]


def errors_in_play(name: str) -> list[GameError]:
    """Refusals met by typing random texts at random positions of every variant of a game,
    finished games included, and by reading broken position texts."""
    spec = GAMES[name]
    errors: list[GameError] = []
    for variant in spec.all_variants():
        for seed in range(8):
            rng = random.Random(f"words-errors/{name}/{variant}/{seed}")
            state = spec.start(variant)
            while True:
                legal = state.legal_moves()
                if rng.random() < 0.3 or not legal:
                    for text in random_texts(rng, legal):
                        try:
                            state.parse_move(text)
                        except GameError as error:
                            errors.append(error)
                if not legal:
                    break
                state = state.play(rng.choice(legal))
        board = state.to_text()
        broken = ("", "x", board[:-5], board.replace(".", "?", 1), board + "\nextra",
                  "\n".join(board.split("\n")[1:]))  # fmt: skip
        for text in broken:
            try:
                spec.from_text(text, spec.variant())
            except GameError as error:
                errors.append(error)
    return errors


def errors_of_variants_and_records() -> list[GameError]:
    errors: list[GameError] = []
    for spec in GAMES.values():
        for variant_text in ("nonsense=1", "x", f"{spec.options[0].key}=maybe"):
            try:
                spec.variant(variant_text)
            except VariantError as error:
                errors.append(error)
    records = (
        '[Game "Chess"]',
        "1. a1-b2",
        '[Game "Oska"]\n\n1. z9',
        '[Game "Oska"]\n\n2. c1-d2',
        '[Game "Oska"]\n\n1. a1-b2 1-0 *',
        '[Game "Oska"]\n[Result "1-0"]\n\n1. a1-b2 *',
        "[Game]",
        '[Game "Oska"]\n\n1. pass',
    )
    for record in records:
        try:
            load(record)
        except GameError as error:
            errors.append(error)
    return errors


def unsaid(errors: list[GameError]) -> dict[str, str]:
    """The codes of the errors `words.explain` cannot say, with why."""
    failures: dict[str, str] = {}
    for error in errors:
        try:
            text = words.explain(error)
        except (KeyError, IndexError, ValueError) as failure:
            failures.setdefault(error.code, repr(failure))
        else:
            assert text, error
        if isinstance(error, MoveError):
            assert error.params["legal"] == error.legal
    return failures


@pytest.mark.parametrize("name", list(GAMES))
def test_every_refusal_met_in_play_can_be_said(name: str) -> None:
    errors = errors_in_play(name)
    assert len({error.code for error in errors}) >= 5
    assert unsaid(errors) == {}


def test_the_oska_refusals_met_in_play_are_the_expected_ones() -> None:
    codes = {error.code for error in errors_in_play("oska")}
    expected = {"move.not-a-square", "move.game-over", "oska.empty", "oska.not-a-move",
                "oska.position.lines", "oska.position.cell"}  # fmt: skip
    assert expected <= codes


def test_every_variant_and_record_refusal_can_be_said() -> None:
    errors = errors_of_variants_and_records()
    codes = {error.code for error in errors}
    assert {"variant.unknown-option", "variant.bad-value", "game.unknown", "record.bad-move",
            "record.move-number", "record.result-not-last", "record.no-game",
            "record.result-tag"} <= codes  # fmt: skip
    assert unsaid(errors) == {}


# ------------------------------------------------------------------ grammar


def test_lists_are_joined_as_the_template_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TEXTS, "test.joiners", "{a}|{a:or}|{a:and}|{a:spaces}|{a:lines}|{b:or}")
    said = words.say("test.joiners", a=("x", "y", "z"), b=("one",))
    assert said == "x, y, z|x, y or z|x, y and z|x y z|x\ny\nz|one"
    monkeypatch.setitem(TEXTS, "test.number", "{n:>3}")
    assert words.say("test.number", n=7) == "  7"


def test_a_code_without_text_is_our_fault_and_says_so() -> None:
    with pytest.raises(words.MissingText):
        words.say("no.such-code")


def test_a_move_error_lists_the_legal_moves_or_says_the_game_is_over() -> None:
    legal = IllegalMove("c1-d2", "move.capture-compulsory", ("a1xc3", "g1xe3"))
    assert words.explain(legal) == "`c1-d2`: a capture is compulsory. Legal moves: a1xc3, g1xe3"
    none = IllegalMove("c1-d2", "move.not-legal", ())
    assert words.explain(none) == "`c1-d2` is not a legal move here. The game is over."
    over = IllegalMove("c1-d2", "move.game-over", (), game="oska", side_names=("Blue", "Red"),
                       reason="blocked", winner=None)  # fmt: skip
    assert words.explain(over) == "`c1-d2`: the game is over (neither player can move)"


def test_an_error_that_wraps_another_says_the_other_inside() -> None:
    inner = IllegalMove("d2-c3", "move.capture-compulsory", ("d2xf4",), ply=7)
    wrapped = RecordError("record.bad-move", **inner.params, cause=inner.code, mover="Blue",
                          turn=4)  # fmt: skip
    assert words.explain(wrapped) == (
        "Blue's move 4: `d2-c3`: a capture is compulsory. Legal moves: d2xf4"
    )


def test_an_outcome_inside_a_refusal_is_named_from_its_parameters() -> None:
    outcome = Outcome(Side.SECOND, Termination.ELIMINATION, Side.FIRST)
    params = outcome.as_params("oska")
    assert params == {"game": "oska", "reason": "elimination",
                      "winner": 1, "side": 0}  # fmt: skip
    error = IllegalMove("pass", "move.game-over", (), **params)
    assert words.explain(error) == "`pass`: the game is over (Blue has lost every stone)"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_says_what_it_is_and_what_each_variant_does(game: str) -> None:
    spec = GAMES[game]
    assert len(words_games.summary(game).splitlines()) == 2
    for option in spec.options:
        helps = [words_games.value_help(game, option.key, value) for value in option.values]
        text = words_games.option_help(game, option.key, option.values)
        if all(helps):
            for value, help_text in zip(option.values, helps, strict=True):
                assert f"{value}: {help_text}" in text
        else:
            assert words.has_text(f"{game}.variant.{option.key}"), option.key


def test_a_refusal_names_the_sides_in_the_readers_language() -> None:
    """Engines pass a side as its number: a Czech player reads Červený, never Red."""
    with pytest.raises(IllegalMove) as jump:
        GAMES["oska"].new().play("a1xc3")
    assert words.explain(jump.value, "en").startswith("`a1xc3`: there is no Red stone on b2")
    czech = words.explain(jump.value, "cs")
    assert "(Červený)" in czech and "Red" not in czech
    with pytest.raises(IllegalMove) as pit:
        GAMES["oware"].new().play("c")
    assert "Sever" in words.explain(pit.value, "cs")
    with pytest.raises(RecordError) as record:
        load('[Game "Oska"]\n\n1. a1-b2 zz *\n')
    czech = words.explain(record.value, "cs")
    assert "(Červený)" in czech and "Red" not in czech
