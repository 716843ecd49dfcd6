"""Every shipped puzzle proven: the verifier (games/ai/verify_puzzles.py) refuses a
position where two moves win or where the tables say no single move solves it,
the builder keeps only what the verifier proves, the kernels' proving search
plays by the engines' rules, and the shipped puzzles pass the verifier (every
Oska and Oware endgame puzzle, a seeded sample of the searched ones; all of
them with `python -m games.ai.verify_puzzles`)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.ai import make_puzzles, verify_puzzles
from games.ai.verify_puzzles import SEARCH_WIN, Refused, refusal, search_value, verdict
from games.base import GameState
from games.puzzles import Puzzle, load
from games.registry import get

# lasca-7389025b9b, once shipped as "win e3-d4" (a depth-8 search): every one of
# its 11 legal moves wins by force.
_LASCA_LINE = (
    "e3-f4 g5xe3 f2xd4 e5-f4 g3xe5 d6xf4 e3xg5 e5xg3 e1-f2 c5xe3 d2xf4 g3xe1 c3xe5 f6xd4xf2 "
    "f4xd6 c7xe5 g1xe3 e1xg3 c1-d2 g3xe1xc3 b2xd4xf6 d6xf4xd2 c3-b4 a5xc3 b4-c5 b6xd4 c5-d6 "
    "g7xe5 a3-b4 e7xc5xa3 g5xe7 f6-g5 a1-b2 c3xa1 d6-c7 a3-b2 e7-f6 d2-e1 c7-d6 g5-f4 f6-g5 "
    "a7-b6 d6-c7 b6-a5 c7-d6 e1-f2 g5-f6 d4-c3 f6xd4 f2-g1 d4xf2 g1xe3 d6-c7 c3-d2 c7-b6 "
    "f2-g1 e5-d6 d2-e1 b6-c7 e3-d4 d6-e7 b2-c1 c7-b6 d4-e5 b6-c7 e5-f6 e7xg5xe3 g1-f2 e3xg1 "
    "e1-d2 g1xe3 d2xf4 c7-d6 f4-g5 d6-c5"
)
LASCA_ALL_WIN = tuple(_LASCA_LINE.split())
# oware-64e0cb24d4, once shipped as "win C" (a depth-10 search), 9 seeds on the
# board: by the endgame tables C loses and no move wins.
_OWARE_LINE = (
    "A c A a D a C b B b A c C a B c D b C d D a C c D b A f D c E f B e D f E d A a C e B a "
    "D b E d C c D d F f E d F f A b B c C a D b E e C d D e E c B e F b C a D c E f E e A b "
    "B d"
)
OWARE_NO_SOLUTION = tuple(_OWARE_LINE.split())


def test_a_lasca_position_where_two_moves_win_by_force_is_refused_and_no_longer_ships() -> None:
    state = get("lasca").replay("", LASCA_ALL_WIN)
    assert len(state.legal_moves()) == 11
    puzzle = Puzzle("lasca-7389025b9b", "lasca", "", LASCA_ALL_WIN, "e3-d4", "win",
                    "search", 8, "quiet")  # fmt: skip
    assert refusal(puzzle) == "e3-d4 and a1-b2 both win by force within 16"
    assert puzzle.id not in {p.id for p in load("lasca")}


def test_an_oware_endgame_where_the_tables_name_no_solving_move_is_never_searched_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = get("oware").replay("", OWARE_NO_SOLUTION)
    assert sum(state.pits) == 9  # type: ignore[attr-defined]
    assert verify_puzzles.in_tables(state)

    def no_search(*args: object) -> int:
        raise AssertionError("a position the tables hold was searched")

    monkeypatch.setattr(verify_puzzles, "search_value", no_search)
    assert make_puzzles.verdict(state) is None
    with pytest.raises(Refused, match="no move is sure to draw or win"):
        verdict(state)
    values = verify_puzzles._table_values(state)
    assert values["C"][1] < 24  # C loses by force, whatever came before


# oware-26154c24b4, once shipped as "save D" (a depth-10 search), 15 seeds on the
# board: every move, D too, loses by force within 20 plies.
_OWARE_LOST = (
    "D d C a B a C d D a F a B c B b C c B e D c B d A f C a B b F b C c D a E f D b C a D b "
    "E a F d D a F f E c A d B b C d E c D d E e"
)


def test_a_save_that_loses_in_every_line_is_refused_and_no_longer_ships() -> None:
    state = get("oware").replay("", _OWARE_LOST.split())
    assert sum(state.pits) == 15  # type: ignore[attr-defined]  # above the tables
    assert all(verify_puzzles.loses_by_force(state, move, 20) for move in state.legal_moves())
    assert make_puzzles.verdict(state) is None
    with pytest.raises(Refused, match="every move loses by force within 20"):
        verdict(state)
    shipped = {p.id for p in load("oware")}
    assert "oware-26154c24b4" not in shipped
    assert "oware-64e0cb24d4" not in shipped


# ----------------------------------------------------- the kernels' search


def _brute(state: GameState, depth: int) -> int:
    """The minimax value by the engine itself, with the kernels' scores."""
    outcome = state.outcome()
    me = int(state.to_move)
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return SEARCH_WIN if int(outcome.winner) == me else -SEARCH_WIN
    if depth == 0:
        if state.spec.name == "oware":
            stores = state.stores  # type: ignore[attr-defined]
            return int(stores[me] - stores[1 - me])
        score = 0
        for column in state.board:  # type: ignore[attr-defined]
            if column:
                value = 300 if column[-1] in "WB" else 100
                score += value if (column[-1] in "wW") == (me == 0) else -value
        return score
    return max(-_brute(state.play(move), depth - 1) for move in state.legal_moves())


VARIANTS = {
    "oware": ("", "grandslam=nocapture", "grandslam=opponent-takes", "must-play-12=on"),
    "lasca": ("", "promotion=continues"),
}


@pytest.mark.parametrize("game", ["oware", "lasca"])
def test_the_kernels_search_gives_the_engines_own_minimax_values(game: str) -> None:
    # Long random games, so that late positions with repetitions and game ends come in.
    rng = random.Random(7)
    checked = 0
    for variant in VARIANTS[game]:
        for _ in range(3):
            state = get(game).new(variant.split())
            while state.outcome() is None and len(state.moves) < 300:
                if rng.random() < 0.08:
                    depth = rng.randint(1, 4 if game == "oware" else 3)
                    expected = _brute(state, depth)
                    window = 4 * SEARCH_WIN
                    assert search_value(state, depth, -window, window) == expected, state.moves
                    checked += 1
                state = state.play(rng.choice(state.legal_moves()))
    assert checked > 30


# --------------------------------------------------------- the shipped ones

SAMPLE = 2  # searched puzzles a game, seed 1; `python -m games.ai.verify_puzzles` checks all


def _searched_sample(game: str) -> list[Puzzle]:
    searched = [p for p in load(game) if p.verified_by == "search"]
    return random.Random(f"{game} 1").sample(searched, min(SAMPLE, len(searched)))


def test_every_shipped_oska_and_oware_endgame_puzzle_is_proven() -> None:
    tables = list(load("oska")) + [p for p in load("oware") if p.verified_by == "endgame-table"]
    kept, refused = verify_puzzles.check(tables, log=lambda line: None)
    assert refused == {}
    assert {p.verified_by for p in kept} == {"table", "endgame-table"}


# One test a searched puzzle (each takes seconds), so the test workers share them out.
@pytest.mark.parametrize(
    ("game", "index"), [(game, index) for game in ("oware", "lasca") for index in range(SAMPLE)]
)
def test_a_seeded_sample_of_the_searched_puzzles_is_proven(game: str, index: int) -> None:
    sample = _searched_sample(game)
    assert len(sample) == SAMPLE
    kept, refused = verify_puzzles.check([sample[index]], log=lambda line: None)
    assert refused == {} and [p.verified_by for p in kept] == ["search"]


def test_a_puzzle_that_claims_another_depth_or_proof_than_its_own_is_refused() -> None:
    oska = next(p for p in load("oska") if p.goal == "win")
    assert refusal(oska) is None
    longer = dataclasses.replace(oska, depth=oska.depth + 2)
    assert refusal(longer) == f"proven {oska.depth} plies deep, written as {oska.depth + 2}"
    endgame = next(p for p in load("oware") if p.verified_by == "endgame-table")
    searched = dataclasses.replace(endgame, verified_by="search", depth=20)
    assert refusal(searched) == "proven by endgame-table, written as search"
