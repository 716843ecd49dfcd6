"""The shipped puzzles: each is a legal position with a legal solution, the
solution is the only move of its result (re-checked by the Oska table for
every Oska puzzle here, by the verifier in test_verify_puzzles.py), and
`check` and `pick` treat a player's answer and choice as they should."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import puzzles
from games.ai import choose_move, make_puzzles
from games.ai.oska_game import masks, rules_of
from games.ai.oska_solver import step_back, value
from games.base import GameState
from games.oska import OskaState
from games.puzzles import Puzzle, check, load, pick, position, puzzle_id
from games.record import record_of
from games.registry import GAMES, get

GAME_NAMES = tuple(GAMES)


def sign(number: int) -> int:
    return (number > 0) - (number < 0)


# Only proven puzzles ship (test_verify_puzzles.py): Oska's table proves hundreds,
# Oware's tables and the 20-ply search dozens, Lasca's 16-ply search a few dozen.
AT_LEAST = {"oska": 200, "oware": 50, "lasca": 15}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_ships_puzzles(game: str) -> None:
    found = load(game)
    assert len(found) >= AT_LEAST[game]
    assert {p.game for p in found} == {game}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_puzzle_replays_legally_and_its_solution_is_one_of_several_legal_moves(
    game: str,
) -> None:
    texts = set()
    for puzzle in load(game):
        state = GAMES[game].replay(puzzle.variant, puzzle.moves)
        legal = state.legal_moves()
        assert puzzle.solution in legal, puzzle.id
        assert len(legal) >= 2, puzzle.id  # a forced move is no puzzle
        texts.add(state.to_text())
    assert len(texts) == len(load(game))  # no position twice


@pytest.mark.parametrize("game", ["oska", "lasca"])
def test_no_puzzle_is_a_choice_among_compulsory_captures_of_one_length(game: str) -> None:
    for puzzle in load(game):
        legal = position(puzzle).legal_moves()
        if all("x" in move for move in legal):
            assert len({move.count("x") for move in legal}) > 1, puzzle.id


@pytest.mark.parametrize("game", GAME_NAMES)
def test_ids_are_unique_and_made_of_the_position_s_moves(game: str) -> None:
    found = load(game)
    assert len({p.id for p in found}) == len(found)
    for puzzle in found:
        assert puzzle.id == puzzle_id(game, puzzle.variant, puzzle.moves)
    assert puzzle_id("oska", "", ("c1-d2",)) == puzzle_id("oska", "", ("c1-d2",))
    assert puzzle_id("oska", "", ("c1-d2",)) != puzzle_id("oska", "", ("c1-b2",))


def test_every_oska_solution_is_the_only_move_of_its_result_by_the_solved_table() -> None:
    wins = saves = 0
    for puzzle in load("oska"):
        state = position(puzzle)
        assert isinstance(state, OskaState)
        rules = rules_of(state.variant)
        results = {}
        for move in state.legal_moves():
            after = state.play(move)
            assert isinstance(after, OskaState)
            results[move] = sign(step_back(value(*masks(after), *rules)))
        best = results.pop(puzzle.solution)
        assert all(other < best for other in results.values()), puzzle.id
        assert best == (1 if puzzle.goal == "win" else 0), puzzle.id
        wins += puzzle.goal == "win"
        saves += puzzle.goal == "save"
    assert wins and saves


def sample(game: str) -> list[Puzzle]:
    found = load(game)
    return [found[0], found[len(found) // 2], found[-1]]


def wrong_move(state: GameState, solution: str) -> str:
    return next(move for move in state.legal_moves() if move != solution)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_check_accepts_the_solution_and_refuses_other_moves(game: str) -> None:
    for puzzle in sample(game):
        state = position(puzzle)
        assert check(puzzle, puzzle.solution)
        assert check(puzzle, f"  {puzzle.solution} ")
        assert not check(puzzle, wrong_move(state, puzzle.solution))
        assert not check(puzzle, "z9")
        assert not check(puzzle, "")


@pytest.mark.parametrize("game", ["oska", "lasca"])
def test_check_reads_the_solution_in_capitals_as_the_engine_does(game: str) -> None:
    puzzle = load(game)[0]
    assert check(puzzle, puzzle.solution.upper())


def test_check_keeps_oware_s_case_sensitive_pits_apart() -> None:
    puzzle = load("oware")[0]
    assert not check(puzzle, puzzle.solution.swapcase())


def test_pick_by_index_id_or_seed_is_repeatable() -> None:
    found = load("oska")
    assert pick("oska", 3) == found[3]
    assert pick("OSKA", len(found) + 3) == found[3]
    assert pick("oska", found[5].id) == found[5]
    assert pick("oska", "server 42") == pick("oska", "server 42")
    assert len({pick("oska", f"seed {n}").id for n in range(20)}) > 1


def test_a_puzzle_survives_the_trip_through_its_line_of_the_file() -> None:
    for game in GAME_NAMES:
        puzzle = load(game)[0]
        assert Puzzle.from_json(game, puzzle.as_json()) == puzzle
    assert puzzles.dumps(load("oska")).count("\n") == len(load("oska")) + 2


def test_puzzles_are_found_in_finished_games_from_their_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A played game that passes through a shipped puzzle's position, as an export file
    # holds it (a header line before each record), beside a game of another kind.
    shipped = pick("oska", 0)
    state = position(shipped).play(shipped.solution)
    while state.outcome() is None:
        state = state.play(choose_move(state, "max", seed=1))
    spec = get("oska")
    oska_text = record_of(spec, state, first="Ann", second="Bob").to_text()
    lasca = get("lasca").new()
    lasca_text = record_of(get("lasca"), lasca.play(lasca.legal_moves()[0])).to_text()
    export = tmp_path / "export.txt"
    export.write_text(f"=== 1/2: Lasca #1 ===\n{lasca_text}\n=== 2/2: Oska #2 ===\n{oska_text}")
    monkeypatch.setattr(make_puzzles, "path_of", lambda game: tmp_path / f"{game}.json")

    found = make_puzzles.build("oska", 10_000, seed=1, minutes=5, append=False,
                               records=[export.read_text()], log=lambda line: None)  # fmt: skip
    assert shipped.id in {p.id for p in found}
    [again] = [p for p in found if p.id == shipped.id]
    assert again.solution == shipped.solution and again.verified_by == "table"
    # Every puzzle found is a position of that game, with its one solution.
    for puzzle in found:
        assert state.moves[: len(puzzle.moves)] == puzzle.moves
        assert check(puzzle, puzzle.solution)
    assert (tmp_path / "oska.json").exists()
