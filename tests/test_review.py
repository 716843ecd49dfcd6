"""The post-game review (games/ai/review.py): a known Oska blunder is marked with a winning
better move; every move of a finished game of each game gets its entry, and the curve
ends on the game's result; inside Oware's endgame tables the values are exact; Oware and
Lasca moves are marked by the expected score they lost, and the deep review searches
deeper than the quick one."""

from __future__ import annotations

import math
import pickle
import random
import textwrap

import pytest

from games import oska, oware
from games.ai import oware_tables
from games.ai import review as review_module
from games.ai.oska_player import move_values
from games.ai.review import DROPS, MARKS, Depths, expected, judge, mark_of, review_game, score_moves
from games.base import GameError, GameState, Side
from games.registry import GAMES, get

SHORT_LOSS = 5  # plies: the blunder's loss is short enough to check by brute force


def wins_within(state: GameState, side: Side, plies: int) -> bool:
    """Whether `side` wins by force within `plies` plies, by the engine's own rules alone."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome.winner == side
    if plies == 0:
        return False
    results = (wins_within(state.play(move), side, plies - 1) for move in state.legal_moves())
    return any(results) if state.to_move == side else all(results)


def oska_blunder(seed: int) -> tuple[list[str], str] | None:
    """A random Oska game up to a position where the mover has a win and one move
    loses within SHORT_LOSS plies: the moves so far and that losing move."""
    rng = random.Random(seed)
    state: oska.OskaState = oska.start(oska.SPEC.variant(""))
    moves: list[str] = []
    while state.outcome() is None:
        values = move_values(state)
        losing = sorted(m for m, v in values.items() if v <= -(100 - SHORT_LOSS))
        if max(values.values()) > 0 and losing:
            return moves, losing[0]
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return None


def test_a_move_that_throws_a_won_oska_game_away_is_a_blunder_with_a_winning_better_move() -> None:
    found = next(b for b in map(oska_blunder, range(50)) if b is not None)
    before, losing = found
    state = oska.SPEC.replay("", before)
    assert isinstance(state, oska.OskaState)
    mover = state.to_move
    # Checked without the table: after the move the opponent wins by force, soon.
    assert wins_within(state.play(losing), mover.other, SHORT_LOSS)

    review = review_game("oska", "", [*before, losing])
    entry = review.plies[-1]
    assert (entry.ply, entry.mover, entry.played) == (len(before), mover, losing)
    assert entry.mark == "blunder"
    assert entry.source == "table"
    assert entry.before.result == 1 and entry.after.result == -1
    assert entry.best != losing
    # The better move keeps the win: played out perfectly by both, the engine says so.
    line = state.play(entry.best)
    while line.outcome() is None:
        values = move_values(line)
        line = line.play(max(values, key=values.__getitem__))
    outcome = line.outcome()
    assert outcome is not None and outcome.winner == mover
    # The curve drops from the mover's win to its loss at that move.
    sign = 1 if mover == Side.FIRST else -1
    assert (review.curve[-2], review.curve[-1]) == (sign, -sign)


def test_perfect_oska_moves_are_never_marked() -> None:
    state = oska.start(oska.SPEC.variant("capture=optional"))
    moves: list[str] = []
    while state.outcome() is None and len(moves) < 12:
        values = move_values(state)
        move = max(values, key=values.__getitem__)
        moves.append(move)
        state = state.play(move)
    review = review_game("oska", "capture=optional", moves)
    assert [entry.mark for entry in review.plies] == [None] * len(moves)
    assert all(entry.loss == 0 and entry.best == entry.played for entry in review.plies)


def random_game(game: str, seed: int, limit: int = 400) -> list[str]:
    rng = random.Random(seed)
    state = get(game).new("")
    moves: list[str] = []
    while state.outcome() is None and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return moves


def finished(game: str, seed: int) -> bool:
    moves = random_game(game, seed)
    return get(game).replay("", moves).outcome() is not None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_of_a_finished_game_has_its_review_and_the_curve_ends_on_the_result(
    game: str,
) -> None:
    # The shortest finished random game among a few: the search has a small budget a move.
    seeds = [seed for seed in range(12) if finished(game, seed)]
    moves = min((random_game(game, seed) for seed in seeds), key=len)
    review = review_game(game, "", moves, budget=0.05)

    assert [entry.played for entry in review.plies] == moves
    assert [entry.ply for entry in review.plies] == list(range(len(moves)))
    state = get(game).new("")
    for entry, move in zip(review.plies, moves, strict=True):
        assert entry.mover == state.to_move
        assert entry.best in state.legal_moves()
        assert entry.loss >= 0 and entry.loss == entry.before.points - entry.after.points
        assert entry.mark in (None, *MARKS)
        state = state.play(move)
    assert len(review.curve) == len(moves) + 1
    assert all(-1 <= value <= 1 for value in review.curve)
    outcome = state.outcome()
    assert outcome is not None
    expected = 0 if outcome.winner is None else 1 if outcome.winner == Side.FIRST else -1
    assert review.curve[-1] == expected
    # Plain values all through: a worker process can send it back.
    assert pickle.loads(pickle.dumps(review)) == review


def test_a_review_is_the_same_every_time() -> None:
    moves = random_game("lasca", 4, limit=8)
    first = review_game("lasca", "", moves, budget=5.0)
    assert review_game("lasca", "", moves, budget=5.0) == first
    assert first.depths() == (review_module.QUICK["lasca"].first,) * 2
    assert not first.deep


def test_the_deep_review_searches_deeper_and_says_so() -> None:
    moves = random_game("oware", 2, limit=12)
    quick = review_game("oware", "", moves, depths=Depths(2, 2))
    deep = review_game("oware", "", moves, deep=True, depths=Depths(4, 6, budget=60.0))
    assert quick.depths() == (2, 2) and not quick.deep
    assert deep.depths() == (6, 6) and deep.deep
    assert review_module.from_json(review_module.to_json(deep)) == deep


def drop_mark(drop: float) -> str | None:
    """The mark of a move that lost `drop` of expected score, read from the thresholds."""
    limits = (DROPS.blunder, DROPS.mistake, DROPS.inaccuracy)
    for mark, limit in zip(reversed(MARKS), limits, strict=True):
        if drop >= limit:
            return mark
    return None


def test_a_search_mark_follows_the_expected_score_it_lost() -> None:
    Score = review_module.Score
    scale = review_module.CURVE["oware"]
    # Even, then x points behind: the expected score lost is 1/2 - 1/(1 + e^(x/K)).
    for wanted in (DROPS.inaccuracy, DROPS.mistake, DROPS.blunder):
        behind = math.ceil(scale * math.log((0.5 + wanted) / (0.5 - wanted)))
        assert expected("oware", Score(0)) - expected("oware", Score(-behind)) >= wanted
        assert mark_of("oware", Score(0), Score(-behind), behind) == drop_mark(wanted)
        below = behind - 10
        assert mark_of("oware", Score(0), Score(-below), below) == drop_mark(wanted - 0.01)
    # The same seeds cost less where the game is decided already: K of them from even is
    # a blunder, from 4K ahead to 3K ahead nothing.
    k = round(scale)
    assert mark_of("oware", Score(0), Score(-k), k) == "blunder"
    assert mark_of("oware", Score(4 * k), Score(3 * k), k) is None
    # A forced win the search saw, let go while still far ahead: the game stays won.
    win = Score(review_module.PROVEN, 1)
    assert mark_of("oware", win, Score(2500), win.points - 2500) is None
    # ... and let go for an even game: half a game thrown away.
    assert mark_of("oware", win, Score(0), win.points) == "blunder"


WON_ENDGAME = """
    North  f  e  d  c  b  a     store 20
           2  0  0  0  0  0
           1  1  0  0  1  0
    South  A  B  C  D  E  F     store 23
    South to move
"""


def test_throwing_a_won_oware_endgame_away_is_a_blunder_resting_on_exact_values() -> None:
    state = oware.from_text(textwrap.dedent(WON_ENDGAME).strip(), oware.SPEC.variant(""))
    # The tables: South wins after A (by 2 seeds) and B (by 8), loses after E.
    for move, result in (("A", 1), ("B", 1), ("E", -1)):
        after = state.play(move)
        value = oware_tables.exact(mover_view(after))
        assert value is not None
        north = after.stores[1] + value
        assert (north < 24) - (north > 24) == result, move

    thrown = judge(state, "E")
    assert thrown.mark == "blunder" and thrown.best == "B" and thrown.drop == 1.0
    assert thrown.exact and thrown.source == "tables"
    # A keeps the win with fewer seeds: the expected score is kept, no mark.
    kept = judge(state, "A")
    assert kept.mark is None and kept.drop == 0.0 and kept.loss == 600


def test_only_verdicts_on_table_values_are_exact() -> None:
    sources: set[str] = set()
    for seed in range(60):
        found = table_game(seed)
        if found is None:
            continue
        rng = random.Random(seed)
        state = get("oware").replay("", found)
        moves = list(found)
        while state.outcome() is None:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        start = max(0, len(found) - 6)
        entries = review_module.review_plies(
            "oware", "", moves, start, len(moves), depths=Depths(4, 4)
        )
        for entry in entries:
            sources.add(entry.source)
            assert entry.exact == (entry.source == "tables")
            if not entry.forced:
                assert entry.mark == drop_mark(entry.drop), entry
        if sources == {"search", "tables"}:
            return
    raise AssertionError(f"no game met both the tables and the search: {sources}")


def test_a_move_the_engine_refuses_raises_its_error() -> None:
    with pytest.raises(GameError):
        review_game("oska", "", ["c1-d2", "c1-d2"])


# ------------------------------------------------------------ Oware's tables


def table_game(seed: int) -> list[str] | None:
    """A random Oware game up to where the seeds on the board fit the tables, or None."""
    rng = random.Random(seed)
    state = get("oware").new("")
    moves: list[str] = []
    while state.outcome() is None:
        assert isinstance(state, oware.OwareState)
        if sum(state.pits) <= oware_tables.MAX_SEEDS:
            return moves
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return None


def mover_view(state: oware.OwareState) -> tuple[int, ...]:
    at = 6 * int(state.to_move)
    return state.pits[at:] + state.pits[:at]


def exact_everywhere(state: oware.OwareState) -> bool:
    """Whether the tables know the position's value and every move's exactly, whatever
    the history (a move that ends the game is exact by the rules)."""
    if oware_tables.exact(mover_view(state)) is None:
        return False
    for move in state.legal_moves():
        after = state.play(move)
        if after.outcome() is None and oware_tables.exact(mover_view(after)) is None:
            return False
    return True


def test_inside_the_oware_tables_the_review_is_exact_only_where_the_tables_are() -> None:
    kinds: dict[bool, int] = {True: 0, False: 0}
    rng = random.Random(4)
    for seed in range(40):
        moves = table_game(seed)
        if moves is None:
            continue
        state = get("oware").replay("", moves)
        while state.outcome() is None and min(kinds.values()) < 3:
            assert isinstance(state, oware.OwareState)
            scores, source, _ = score_moves(state, budget=0.05)
            exact = exact_everywhere(state)
            assert (source == "tables") == exact
            assert all(score.exact == exact for score in scores.values())
            if exact:  # a draw, a win or a loss by the seeds the tables give
                value = oware_tables.exact(mover_view(state))
                assert value is not None
                mine = state.stores[state.to_move] + value
                best = max(score.points for score in scores.values())
                assert best == 100 * (mine - (48 - mine))
            kinds[exact] += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert min(kinds.values()) >= 3
