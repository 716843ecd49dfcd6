"""The timed search in C (oware_kernel.c and lasca_kernel.c through timed_search.h) is
search.py's: to a fixed depth, without reductions or table, it gives search.py's score on
positions of every variant (repetitions, the 80-ply rule and the Oware endgame tables
included), it never plays an illegal move, and with no time at all it still answers."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games import oware
from games.ai import lasca_kernel, oware_eval, oware_game, oware_kernel, oware_tables
from games.ai.adapters import searchable
from games.ai.player import think
from games.ai.search import Searcher
from games.ai.search_player import compiled, root_moves
from games.base import GameState, Variant
from games.registry import GAMES

pytestmark = pytest.mark.skipif(
    oware_kernel.think is None or lasca_kernel.think is None, reason="kernels not built"
)


def variants(name: str) -> list[object]:  # pytest params
    return [
        pytest.param(name, v, id=f"{name}-{v}" if str(v) else name)
        for v in GAMES[name].all_variants()
    ]


EVERY_VARIANT = variants("oware") + variants("lasca")


class NoTable(dict[int, tuple[int, int, int, object]]):
    """A table that keeps nothing: search.py's search becomes a plain one, exact at its depth."""

    def __setitem__(self, key: int, value: tuple[int, int, int, object]) -> None:
        pass


def positions(name: str, variant: Variant, seed: int, count: int) -> Iterator[GameState]:
    """Positions of random games, the small pits and short moves preferred now and then so that
    positions repeat, down to the Oware endgame tables; each with two legal moves or more."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = GAMES[name].start(variant)
        while state.legal_moves() and found < count:
            legal = state.legal_moves()
            if len(legal) > 1 and rng.random() < 0.15:
                found += 1
                yield state
            state = state.play(rng.choice(legal[:2] if rng.random() < 0.3 else legal))


@pytest.mark.parametrize(("name", "variant"), EVERY_VARIANT)
def test_the_c_search_gives_search_py_s_score_at_every_small_depth(
    name: str, variant: Variant
) -> None:
    compared = 0
    for state in positions(name, variant, seed=31, count=6):
        game, root = searchable(state)
        _, moves = game.expand(root)
        for depth in (1, 2, 3):
            python = Searcher(game, quiescence=3, table=NoTable()).iterate(root, moves, depth)
            c = game.think(  # type: ignore[attr-defined]
                root,
                list(moves),
                max_depth=depth,
                quiescence=3,
                reductions=False,
                table=0,
                deadline=None,
            )
            assert (c[1], c[2]) == (python.score, python.depth), (str(state), depth)
            compared += 1
    assert compared == 18


@pytest.mark.parametrize(("name", "variant"), variants("oware"))
def test_the_oware_endgame_tables_are_leaves_of_the_c_search_as_of_search_py(
    name: str, variant: Variant
) -> None:
    # Late positions of random games: few seeds, the tables' settled positions below the root.
    assert oware_tables.present()
    rng = random.Random(5)
    compared = 0
    while compared < 5:
        state = GAMES["oware"].start(variant)
        while state.legal_moves() and sum(state.pits) > 14:  # type: ignore[attr-defined]
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) < 2:
            continue
        game, root = searchable(state)
        _, moves = game.expand(root)
        python = Searcher(game, quiescence=4, table=NoTable()).iterate(root, moves, 4)
        c = game.think(  # type: ignore[attr-defined]
            root, list(moves), max_depth=4, quiescence=4, reductions=False, table=0, deadline=None
        )
        assert (c[1], c[2]) == (python.score, python.depth), str(state)
        compared += 1


@pytest.mark.parametrize(("name", "variant"), EVERY_VARIANT)
def test_the_c_search_plays_legal_moves_with_its_kept_table_and_no_time_at_all(
    name: str, variant: Variant
) -> None:
    for index, state in enumerate(positions(name, variant, seed=7, count=5)):
        game, root = searchable(state)
        moves = root_moves(game, root, random.Random(index))
        # No time at all: the deadline passed before the search began.
        hurried = compiled(game, root, moves, 0.0, 6)
        assert hurried is not None and hurried.move in state.legal_moves()
        # Some time, the table the last searches left: deeper, and legal too.
        found = compiled(game, root, moves, None, 6, max_depth=5)
        assert found is not None and found.move in state.legal_moves()
        assert found.depth == 5 or abs(found.score) >= 990_000


@pytest.mark.parametrize(("name", "variant"), EVERY_VARIANT)
def test_hard_and_max_search_in_c_in_every_variant(name: str, variant: Variant) -> None:
    state = next(positions(name, variant, seed=3, count=1))
    for level in ("hard", "max"):
        result = think(state, level, budget=0.05, seed=1)
        assert result.move in state.legal_moves()
        assert result.nodes > 0  # searched (the Python search is slower to show a depth here)


def oware_position(pits: list[int], south_store: int, variant: Variant) -> GameState:
    """South to move in `pits` (A..F, a..f), the stores holding the other seeds."""
    north_store = 48 - sum(pits) - south_store
    text = "\n".join(
        [
            f"North  f  e  d  c  b  a     store {north_store}",
            " ".join(str(n) for n in reversed(pits[6:])),
            " ".join(str(n) for n in pits[:6]),
            f"South  A  B  C  D  E  F     store {south_store}",
            "South to move",
        ]
    )
    return oware.from_text(text, variant)


class DefaultTables(oware_game.OwareGame):
    """The rule's game, its endgame leaves valued by the default rule's tables."""

    def expand(self, pos: oware_game.OwarePos) -> tuple[int | None, list[int]]:
        if pos is not self.root:
            score = oware_game.table_score(pos, oware.FORBIDDEN)
            if score is not None:
                return score, []
        self.tables = False
        try:
            terminal, moves = super().expand(pos)
        finally:
            self.tables = True
        return terminal, list(moves)


@pytest.mark.parametrize("rule", ["nocapture", "opponent-takes"])
def test_the_c_search_reads_the_grand_slam_rules_own_endgame_values(rule: str) -> None:
    # Positions whose value two plies deep differs when the endgame tables are read as the
    # default rule's (a grand slam could be played below): the C search gives the rule's.
    variant = oware.SPEC.variant(f"grandslam={rule}")
    rng = random.Random(11)
    compared = 0
    while compared < 3:
        pits = [0] * 12
        for _ in range(rng.randrange(4, 12)):
            pits[rng.randrange(12)] += 1
        state = oware_position(pits, rng.randrange(16, 23), variant)
        if len(state.legal_moves()) < 2:
            continue
        game, root = oware_game.searchable(
            state,  # type: ignore[arg-type]
            oware_eval.evaluate,
            weights=oware_eval.WEIGHTS,
        )
        _, moves = game.expand(root)
        grandslam = game.rules.grandslam
        if all(  # a cheap look first: a move into a position the rules value apart
            oware_game.table_score(child, grandslam)
            == oware_game.table_score(child, oware.FORBIDDEN)
            for child in (game.play(root, move) for move in moves)
        ):
            continue
        python = Searcher(game, quiescence=2, table=NoTable()).iterate(root, moves, 2)
        default = DefaultTables(game.rules, game.evaluate, tables=True, root=root)
        misread = Searcher(default, quiescence=2, table=NoTable()).iterate(root, moves, 2)
        if misread.score == python.score:
            continue
        found = game.think(
            root, list(moves), max_depth=2, quiescence=2, reductions=False, table=0, deadline=None
        )
        assert found is not None
        assert (found[1], found[2]) == (python.score, python.depth), str(state)
        compared += 1
