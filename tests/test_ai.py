"""The computer opponent's entry: legal moves everywhere, the time budget, the
seed, the process pool, and the wins a player must not miss."""

from __future__ import annotations

import math
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from textwrap import dedent

import pytest

from bench.levels import ANCHOR_PLAYER, PairResult, fit
from games import lasca, oware
from games.ai import LEVELS, choose_move, play_move
from games.ai.adapters import ADAPTERS, MissingAdapter, adapter_for, check_games, searchable
from games.ai.levels import ANCHOR_RATING, level_of, level_rating
from games.ai.player import think
from games.ai.reference import baseline_move, greedy_move
from games.ai.search import Searcher
from games.ai.search_player import MAX_DEPTH, compiled, root_moves, with_mistakes
from games.base import GameState, IllegalMove, Variant
from games.registry import GAMES
from matches import LEVELS as OFFERED

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant or 'default'}")
    for name, spec in GAMES.items()
    for variant in spec.all_variants()
]


def random_position(name: str, variant: Variant, rng: random.Random) -> GameState:
    """A position of a random game, with at least two legal moves."""
    while True:
        state = GAMES[name].start(variant)
        for _ in range(rng.randrange(0, 60)):
            legal = state.legal_moves()
            if not legal:
                break
            state = state.play(rng.choice(legal))
        if len(state.legal_moves()) > 1:
            return state


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_every_level_returns_a_legal_move(name: str, variant: Variant) -> None:
    rng = random.Random(f"{name}{variant}")
    for level in LEVELS:
        state = random_position(name, variant, rng)
        move = choose_move(state, level, budget=0.05, seed=1)
        assert move in state.legal_moves()


def test_the_levels_are_named_and_offered_in_the_order_of_their_strength() -> None:
    assert LEVELS == ("1", "2", "3", "4", "5", "6", "7", "8")
    assert OFFERED == LEVELS  # what a challenge accepts is what the AI plays
    with pytest.raises(ValueError, match="not a level"):
        choose_move(GAMES["oware"].new(), "expert")


def test_the_old_level_names_still_name_their_rungs_of_the_ladder() -> None:
    old = {"easy": "1", "medium": "3", "medium-hard": "5", "hard": "7", "max": "8"}
    for name, rung in old.items():
        for game in GAMES:
            assert level_of(name.upper(), game) == level_of(rung, game)
            assert level_rating(game, name) == level_rating(game, rung)


def test_level_6_searches_as_hard_does_but_stops_at_its_depth() -> None:
    state = GAMES["oware"].new()
    for move in ("C", "d", "F", "a"):
        state = state.play(move)
    capped = think(state, "6", budget=5.0, seed=1)
    hard = think(state, "hard", budget=0.5, seed=1)
    assert capped.depth == level_of("6", "oware").cap == 10
    assert hard.depth > capped.depth  # in a tenth of the time


def test_a_game_tunes_its_own_ladder_with_the_same_budgets() -> None:
    # Lasca gains more from each ply than Oware: its middle rungs search less deep.
    lasca_depth, oware_depth = level_of("5", "lasca").depth, level_of("5", "oware").depth
    assert lasca_depth is not None and oware_depth is not None and lasca_depth < oware_depth
    for level in LEVELS:
        budgets = {level_of(level, game).budget for game in GAMES}
        assert budgets == {level_of(level).budget}


def test_a_finished_game_has_no_move() -> None:
    state = GAMES["oska"].new()
    while legal := state.legal_moves():
        state = state.play(legal[0])
    with pytest.raises(ValueError, match="over"):
        choose_move(state, "hard")


class Ticks:
    """A clock that moves a millisecond at each look, however busy the machine: a search
    keeps its budget when it stops at its first look past the deadline."""

    def __init__(self, deadline: float) -> None:
        self.now, self.deadline, self.late = 0.0, deadline, 0

    def __call__(self) -> float:
        self.now += 0.001
        self.late += self.now > self.deadline
        return self.now


@pytest.mark.parametrize("name", ["oware", "lasca"])
@pytest.mark.parametrize("search", ["in C", "search.py"])
def test_the_time_budget_is_kept(name: str, search: str) -> None:
    state = random_position(name, GAMES[name].variant(), random.Random(3))
    game, root = searchable(state)
    moves = root_moves(game, root, random.Random(1))
    ticks = Ticks(deadline=0.2)
    if search == "in C":
        found = compiled(game, root, moves, ticks.deadline, 6, clock=ticks)
        assert found is not None  # the kernels are built here (pip compiles them)
    else:
        found = Searcher(game, deadline=ticks.deadline, quiescence=6, clock=ticks).iterate(
            root, moves, MAX_DEPTH
        )
    assert found.move in state.legal_moves()
    assert found.depth >= 2 and ticks.late <= 2  # it stopped at once, with a move of depth


@pytest.mark.parametrize("name", ["oware", "lasca", "oska"])
def test_a_seed_fixes_the_moves_of_the_fixed_depth_levels(name: str) -> None:
    rng = random.Random(8)
    positions = [random_position(name, GAMES[name].variant(), rng) for _ in range(6)]
    for level in ("easy", "medium"):
        first = [choose_move(s, level, budget=5, seed=7) for s in positions]
        again = [choose_move(s, level, budget=5, seed=7) for s in positions]
        assert first == again
    other = [choose_move(s, "easy", budget=5, seed=s_) for s_, s in enumerate(positions * 3)]
    assert len(set(other)) > 1


def test_mistakes_come_at_their_rate_and_prefer_the_better_moves() -> None:
    rng = random.Random(1)
    scores = {"best": 500, "close": 450, "poor": 0, "awful": -2000}
    picks = [with_mistakes(scores, rng, 0.3, 200) for _ in range(4000)]
    share = 1 - picks.count("best") / len(picks)
    assert 0.27 < share < 0.33
    assert picks.count("close") > 5 * picks.count("poor") > 0
    assert "awful" not in picks  # more than 4 temperatures below the best
    won = {"win": 999_999, "slower": 999_997, "other": 0}
    assert {with_mistakes(won, rng, 0.9, 200) for _ in range(200)} == {"win"}


def test_play_move_runs_in_a_process_pool() -> None:
    moves = ("c3-d4", "e5xc3")
    call = partial(play_move, "lasca", "promotion=continues", moves, "medium", 0.3, 5)
    pickle.dumps(call)
    with ProcessPoolExecutor(1) as pool:
        move = pool.submit(call).result(timeout=30)
    state = GAMES["lasca"].replay("promotion=continues", moves)
    assert move in state.legal_moves()
    assert move == call()  # a fixed depth and seed: the same move here


def test_play_move_reports_a_bad_move_list_as_the_engine_error() -> None:
    with ProcessPoolExecutor(1) as pool:
        future = pool.submit(play_move, "oska", "", ("a1-b2", "a1-b2"), "easy", 0.1, 1)
        with pytest.raises(IllegalMove) as caught:
            future.result(timeout=30)
    with pytest.raises(IllegalMove) as here:
        GAMES["oska"].replay("", ("a1-b2", "a1-b2"))
    # The code and parameters (the move, its ply) survive the trip back from the worker.
    assert caught.value.params["move"] == "a1-b2"
    assert caught.value.params["ply"] == 2
    assert (caught.value.code, caught.value.params) == (here.value.code, here.value.params)


# South F sows into North's a, which then holds 2: captured, South reaches 25.
OWARE_WINNING_CAPTURE = """
    North  f  e  d  c  b  a     store 15
           0  2  0  4  0  1
           2  0  0  0  0  1
    South  A  B  C  D  E  F     store 23
    South to move
"""

# Black's last soldier g3 can only step to f2: White g1-f2 blocks it (and
# leaves no jump: e1 is still taken). e1-f2 blocks too, but g3xe1 then jumps it.
LASCA_BLOCKADE = """
    .  .  .  .
      .  .  .
    .  .  .  .
      .  .  .
    .  .  .  b
      .  .  .
    .  .  w  w
    White to move
"""


@pytest.mark.parametrize("level", ["medium", "hard", "max"])
def test_oware_takes_the_capture_that_wins_at_once(level: str) -> None:
    state = oware.from_text(dedent(OWARE_WINNING_CAPTURE), oware.SPEC.variant())
    assert state.legal_moves() == ("A", "F")
    for seed in range(3):
        move = choose_move(state, level, budget=0.2, seed=seed)
        assert move == "F"
    after = state.play("F").outcome()
    assert after is not None and after.winner == 0


@pytest.mark.parametrize("level", ["medium", "hard", "max"])
def test_lasca_leaves_the_opponent_without_a_move(level: str) -> None:
    state = lasca.from_text(dedent(LASCA_BLOCKADE), lasca.SPEC.variant())
    assert state.legal_moves() == ("e1-d2", "e1-f2", "g1-f2")
    for seed in range(3):
        assert choose_move(state, level, budget=0.2, seed=seed) == "g1-f2"
    after = state.play("g1-f2").outcome()
    assert after is not None and after.winner == 0


def test_the_reference_players_see_the_win_too() -> None:
    state = oware.from_text(dedent(OWARE_WINNING_CAPTURE), oware.SPEC.variant())
    assert greedy_move(state, seed=1) == "F"
    assert baseline_move(state, seed=1).move == "F"


def test_every_registered_game_has_a_computer_player() -> None:
    check_games(GAMES)  # what the bot's start-up runs
    for name, spec in GAMES.items():
        assert adapter_for(spec) is adapter_for(name) is ADAPTERS[name]


def test_a_game_without_a_computer_player_is_refused_by_name() -> None:
    with pytest.raises(MissingAdapter, match=r"`chess`.*ADAPTERS in games/ai/adapters\.py"):
        adapter_for("chess")
    with pytest.raises(MissingAdapter, match=r"`chess`, `go`"):
        check_games([*GAMES, "go", "chess"])


def test_a_state_of_a_game_without_a_computer_player_gets_no_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Never a random move at play time: the lookup fails before anything is played."""
    monkeypatch.delitem(ADAPTERS, "oware")
    with pytest.raises(MissingAdapter, match="`oware`"):
        choose_move(GAMES["oware"].new(), "easy", budget=0.05, seed=1)


def test_every_level_has_a_measured_rating_in_every_game() -> None:
    for name in GAMES:
        ratings = [level_rating(name, level) for level in LEVELS]
        assert all(rating > 0 for rating in ratings), (name, ratings)
        assert ratings == sorted(ratings) and ratings[0] < ratings[-1], (name, ratings)
    assert level_rating("Oware", "EASY") == level_rating("oware", "easy")
    with pytest.raises(ValueError, match="chess"):
        level_rating("chess", "easy")


def test_the_level_ratings_fit_puts_the_anchor_and_the_gap_where_elo_does() -> None:
    # 4 wins of 4 and the virtual draw: 4.5 points of 5, odds of 9 to 1.
    results = [PairResult(ANCHOR_PLAYER, "easy", losses=4), PairResult("easy", "medium", 1, 2, 1)]
    rated = fit(results)
    assert rated[ANCHOR_PLAYER][0] == pytest.approx(ANCHOR_RATING)
    assert rated["easy"][0] == pytest.approx(ANCHOR_RATING + 400 * math.log10(9), abs=0.5)
    assert rated["medium"][0] == pytest.approx(rated["easy"][0], abs=0.5)  # an even score
