"""The alpha-beta search itself: exact on small games, reproducible at a fixed depth."""

from __future__ import annotations

import random

import pytest

from games import oska, oware
from games.ai import lasca_game, oska_game, oska_solver, search_player
from games.ai.adapters import searchable
from games.ai.search import SETTLED_SHARE, WIN, Searcher, Table, another_iteration
from games.ai.search_player import deepen, kept_table
from games.base import GameState, Side
from games.registry import GAMES


def late_oska_positions(variant: str, count: int, stones: int) -> list[oska.OskaState]:
    rng = random.Random(variant)
    found: list[oska.OskaState] = []
    while len(found) < count:
        state = oska.start(oska.SPEC.variant(variant))
        while state.legal_moves() and sum(len(state.stones(s)) for s in Side) > stones:
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("variant", ["", "capture=huff win=elimination"])
def test_a_deep_search_finds_the_solved_value(variant: str) -> None:
    """Searched to the end, alpha-beta with its table and move ordering gives
    every small Oska position the solver's value, distance included."""
    for state in late_oska_positions(variant, 12, stones=5):
        mode, elimination = oska_game.rules_of(state.variant)
        solved = oska_solver.value(*oska_game.masks(state), mode, elimination)
        game = oska_game.OskaGame(mode, elimination, oska_game.material)
        root = oska_game.from_state(state)
        _, moves = game.expand(root)
        result = Searcher(game).iterate(root, moves, 40)
        if solved == 0:
            assert result.score == 0, state.to_text()
        else:
            plies = oska_solver.WIN - abs(solved)
            assert result.score == (WIN - plies if solved > 0 else -WIN + plies), state.to_text()


@pytest.mark.parametrize("name", ["oware", "lasca"])
def test_a_fixed_depth_and_seed_give_the_same_move(name: str) -> None:
    rng = random.Random(4)
    state = GAMES[name].new()
    for _ in range(10):
        state = state.play(rng.choice(state.legal_moves()))
    game, root = searchable(state)
    first = deepen(game, root, None, random.Random(1), quiescence=4, max_depth=4)
    game, root = searchable(state)
    again = deepen(game, root, None, random.Random(1), quiescence=4, max_depth=4)
    assert (first.move, first.score, first.nodes) == (again.move, again.score, again.nodes)
    assert first.depth == 4
    assert first.move in state.legal_moves()


class FakeClock:
    """A clock that moves a millisecond each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads / 1000


def test_the_deadline_stops_the_search() -> None:
    state = GAMES["lasca"].new()
    game, root = searchable(state)
    _, moves = game.expand(root)
    clock = FakeClock()
    result = Searcher(game, deadline=0.05, clock=clock).iterate(root, moves, 64)
    assert result.move in state.legal_moves()
    assert 0 < result.depth < 64
    assert clock.reads <= 55  # never much past the deadline (50 looks)


class StepClock:
    """A clock that moves `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("name", ["oware", "lasca"])
def test_a_timed_search_uses_most_of_its_time_and_ends_near_the_deadline(name: str) -> None:
    """Counted on a fake clock: the search runs past the share of its time from
    which a settled position may stop, and stops within a look at the clock of
    the deadline."""
    state = GAMES[name].new()
    game, root = searchable(state)
    _, moves = game.expand(root)
    clock = StepClock(0.001)
    deadline = 0.15
    searcher = Searcher(game, deadline=deadline, clock=clock, quiescence=6, reductions=True)
    result = searcher.iterate(root, moves, 64)
    assert result.move in state.legal_moves()
    assert deadline * SETTLED_SHARE <= clock.now <= deadline + 0.003
    assert result.depth >= 3


def test_the_next_iteration_starts_when_it_fits_or_the_position_is_unsettled() -> None:
    # The last iteration took 0.1 s, four times the one before: the next should take 0.4 s.
    times = [0.025, 0.1]
    assert another_iteration(times, spent=0.2, left=0.5, settled=True)
    # It does not fit: a settled position stops once a quarter of its time is spent ...
    assert not another_iteration(times, spent=0.45, left=0.05, settled=True)
    assert not another_iteration(times, spent=0.15, left=0.3, settled=True)
    # ... but not before, and an unsettled one goes on to the deadline.
    assert another_iteration(times, spent=0.05, left=0.3, settled=True)
    assert another_iteration(times, spent=0.45, left=0.05, settled=False)
    assert not another_iteration(times, spent=0.4, left=0.0, settled=False)


def test_a_forced_move_is_answered_without_search() -> None:
    state = oware.from_text(
        """
        North  f  e  d  c  b  a     store 20
               0  0  0  0  0  0
               0  0  0  0  0  9
        South  A  B  C  D  E  F     store 19
        South to move
        """,
        oware.SPEC.variant(),
    )
    assert state.legal_moves() == ("F",)
    game, root = searchable(state)
    _, moves = game.expand(root)
    clock = StepClock(0.001)
    result = Searcher(game, deadline=1.0, clock=clock, reductions=True).iterate(root, moves, 64)
    assert (result.move, result.nodes, result.depth) == ("F", 0, 0)
    assert clock.now < 0.01


def tactical_positions(name: str, count: int) -> list[tuple[GameState, str]]:
    """Positions of seeded random games with at least 3 moves where a capture
    gains at least a seed or a soldier at depth 5 (plain alpha-beta), with
    that capture."""
    rng = random.Random(f"tactics {name}")
    found: list[tuple[GameState, str]] = []
    while len(found) < count:
        state = GAMES[name].new()
        for _ in range(rng.randrange(4, 40)):
            if not state.legal_moves():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) < 3:
            continue
        game, root = searchable(state)
        _, moves = game.expand(root)
        _, loud = game.tactics(root, moves)  # Lasca: captures are forced, all or none
        if not loud:
            continue
        result = Searcher(game, quiescence=4).iterate(root, moves, 5)
        gain = result.score - game.evaluate(root)
        if result.move in {game.text(root, m) for m in loud} and gain >= 100:
            found.append((state, result.move))
    return found


@pytest.mark.parametrize("name", ["oware", "lasca"])
def test_windows_and_reductions_find_the_winning_capture_too(name: str) -> None:
    for state, _ in tactical_positions(name, 4):
        game, root = searchable(state)
        _, moves = game.expand(root)
        # Deep enough that the root is searched with a window and the tree reduced;
        # the capture is the one a plain search of that depth plays (a ply more than
        # found it may prefer another capture).
        plain = Searcher(game, quiescence=4).iterate(root, moves, 6)
        _, loud = game.tactics(root, moves)
        assert plain.move in {game.text(root, m) for m in loud}, state.to_text()
        searcher = Searcher(game, quiescence=4, reductions=True)
        result = searcher.iterate(root, moves, 6)
        assert result.move == plain.move, state.to_text()


def test_the_kept_table_belongs_to_one_game_evaluation_and_quiescence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = GAMES["oware"].new()
    game, _ = searchable(start)
    later, _ = searchable(start.play("A"))
    material, _ = searchable(start, baseline=True)
    table = kept_table(game, 6)
    table[1] = (1, 0, 0, None)
    assert kept_table(later, 6) is table  # the same rules and evaluation
    assert kept_table(later, 10) is not table
    assert kept_table(material, 6) is not table
    # Only the two most recent are kept.
    assert 1 not in kept_table(game, 6)
    monkeypatch.setattr(search_player, "TABLE_LIMIT", 1)
    full = kept_table(game, 6)
    full.update({1: (1, 0, 0, None), 2: (1, 0, 0, None)})
    assert kept_table(game, 6) == {}  # past the limit: emptied


def test_the_kept_tables_stay_within_one_limit_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker playing Oware and Lasca keeps both tables only while they fit
    in TABLE_LIMIT entries together: past it the older one goes, the newer stays."""
    monkeypatch.setattr(search_player, "_tables", {})
    monkeypatch.setattr(search_player, "TABLE_LIMIT", 10)
    oware, _ = searchable(GAMES["oware"].new())
    lasca, _ = searchable(GAMES["lasca"].new())
    older = kept_table(oware, 6)
    older.update({n: (1, 0, 0, None) for n in range(6)})
    newer = kept_table(lasca, 6)
    assert kept_table(oware, 6) is older  # 6 entries: both fit
    newer.update({n: (1, 0, 0, None) for n in range(5)})
    assert kept_table(lasca, 6) is newer  # 11 together: the older (Oware) goes
    assert kept_table(oware, 6) == {}
    assert kept_table(lasca, 6) is newer


def test_a_timed_move_reuses_the_table_of_the_last_one() -> None:
    """The second search of a position starts from the first one's table: it
    gets as deep with fewer nodes."""
    state = GAMES["lasca"].new()
    game, root = searchable(state)
    _, moves = game.expand(root)
    table: Table = {}
    first = Searcher(game, quiescence=6, table=table, reductions=True).iterate(root, moves, 6)
    again = Searcher(game, quiescence=6, table=table, reductions=True).iterate(root, moves, 6)
    assert again.move == first.move
    assert again.nodes * 4 < first.nodes


def test_a_board_drawn_by_repetition_has_its_own_table_key() -> None:
    """The table is probed before the rules: a board drawn by repetition (its
    third time with the same side to move) must not find the undrawn one's entry."""
    game, root = searchable(GAMES["lasca"].new())
    board, other = root.board, game.play(root, "c3-d4").board
    twice = lasca_game.LascaPos(board, 0, 3, (other, board, other))
    thrice = lasca_game.LascaPos(board, 0, 4, (board, other, board, other))
    assert lasca_game.finished(thrice, lasca_game.moves_of(thrice, False)) == 0
    assert lasca_game.finished(twice, lasca_game.moves_of(twice, False)) is None
    assert game.key(twice) == game.key(root) != game.key(thrice)
