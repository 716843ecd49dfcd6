"""The shipped puzzles: each is a legal position with a legal solution, the
solution is the only move of its result (re-checked by the Oska table for
every Oska puzzle, by a fresh search for a sample of the others), and
`check` and `pick` treat a player's answer and choice as they should."""

from __future__ import annotations

import pytest

from games import puzzles
from games.ai.make_puzzles import _oware_tables, oware_table_verdict, search_verdict
from games.ai.oska_game import masks, rules_of
from games.ai.oska_solver import step_back, value
from games.base import GameState
from games.oska import OskaState
from games.puzzles import Puzzle, check, load, pick, position, puzzle_id
from games.registry import GAMES

GAME_NAMES = tuple(GAMES)


def sign(number: int) -> int:
    return (number > 0) - (number < 0)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_at_least_200_puzzles_ship_for_every_game(game: str) -> None:
    found = load(game)
    assert len(found) >= 200
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


def sample(game: str, verified_by: str | None = None) -> list[Puzzle]:
    found = [p for p in load(game) if verified_by in (None, p.verified_by)]
    return [found[0], found[len(found) // 2], found[-1]]


@pytest.mark.parametrize("game", ["oware", "lasca"])
def test_a_fresh_search_at_the_recorded_depth_finds_the_same_single_solution(game: str) -> None:
    for puzzle in sample(game, "search"):
        found = search_verdict(position(puzzle), puzzle.depth, confirm=False)
        assert found is not None, puzzle.id
        assert (found.solution, found.goal) == (puzzle.solution, puzzle.goal), puzzle.id


def test_oware_endgame_puzzles_are_the_tables_own_verdict() -> None:
    tables = _oware_tables()
    assert tables is not None  # the package ships them
    checked = [p for p in load("oware") if p.verified_by == "endgame-table"][:5]
    for puzzle in checked:
        found = oware_table_verdict(position(puzzle), tables)
        assert found is not None, puzzle.id
        assert (found.solution, found.goal) == (puzzle.solution, puzzle.goal), puzzle.id


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
