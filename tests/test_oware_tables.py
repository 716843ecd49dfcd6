"""The Oware endgame tables (games/ai/oware_tables.py) against the game itself.

The shipped file was written by the C helper; here a search of the engine's
own game (games/ai/check_oware_tables.py: every line, the positions passed
through, the first repetition ending the game) finds the true value of every
position of 0..3 seeds and of a seeded sample up to 12, and checks that it
lies within the table's bounds (equal where the table says exact). Then the
moves, `max` through `choose_move`, the search's leaves, and the lazy, shared
mapping of the file.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

from games import oware
from games.ai import check_oware_tables, choose_move, oware_eval, oware_game, oware_tables
from games.ai.levels import level_of
from games.ai.oware_game import OwarePos, OwareRules
from games.ai.search import WIN
from games.base import Side

RULES = {
    oware.FORBIDDEN: "",
    oware.NOCAPTURE: "grandslam=nocapture",
    oware.OPPONENT_TAKES: "grandslam=opponent-takes",
}
Pits = tuple[int, ...]


def layer(seeds: int) -> Iterator[Pits]:
    """Every way to put `seeds` seeds in 12 pits."""
    for bars in itertools.combinations(range(seeds + 11), 11):
        edges = (-1, *bars, seeds + 11)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


def random_position(rng: random.Random, seeds: int) -> Pits:
    bars = sorted(rng.sample(range(seeds + 11), 11))
    edges = (-1, *bars, seeds + 11)
    return tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


# Every position of 0..3 seeds: exact entries by layer (forbidden, nocapture, opponent-takes).
EXACT_UP_TO_3 = {oware.FORBIDDEN: 276, oware.NOCAPTURE: 274, oware.OPPONENT_TAKES: 277}


@pytest.mark.parametrize("grandslam", list(RULES), ids=["default", "nocapture", "opponent-takes"])
def test_the_bounds_hold_against_a_search_of_every_small_position(grandslam: int) -> None:
    # The true value at the start of a game (or just after a capture), searched over every
    # line of the engine with the positions passed through (check_oware_tables), lies within
    # the table's bounds, and equals the value where the table says it is exact.
    search = check_oware_tables.Search(grandslam)
    tally = check_oware_tables.Tally()
    for seeds in range(4):
        for pits in layer(seeds):
            check_oware_tables.check(search, pits, 10**6, tally)
    assert tally.wrong == []
    assert tally.checked == tally.decided == oware_tables.BASES[4]
    assert tally.exact == EXACT_UP_TO_3[grandslam]


def test_a_repetition_ends_the_game_as_the_rules_say() -> None:
    # South B1 F1, North empty, South to move: South must feed with F, and North can then
    # end the game by repeating a position while South's row holds one seed: one seed each.
    pits = (0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    assert check_oware_tables.Search(oware.FORBIDDEN).solve(pits, 10**6) == 1
    assert oware_tables.bounds(pits) == (0, 1)  # a longer past could cost South that seed
    assert oware_tables.exact(pits) is None and oware_tables.lookup(pits) is None
    assert oware_tables.best_moves(pits) is None


def test_a_seeded_sample_up_to_12_seeds_holds() -> None:
    tallies = []
    rng = random.Random(7)
    for grandslam in RULES:
        search = check_oware_tables.Search(grandslam)
        tally = check_oware_tables.Tally()
        for _ in range(40):
            pits = random_position(rng, rng.randint(4, oware_tables.MAX_SEEDS))
            check_oware_tables.check(search, pits, 20_000, tally)
        tallies.append(tally)
    assert [tally.wrong for tally in tallies] == [[], [], []]
    assert sum(tally.decided for tally in tallies) >= 15


def test_must_play_12_has_the_same_tables() -> None:
    pits = (0, 3, 0, 1, 0, 2, 1, 0, 0, 2, 1, 2)
    assert oware_tables.covers("must-play-12=on grandslam=nocapture")
    assert oware_tables.lookup(pits, "must-play-12=on") == oware_tables.lookup(pits)
    assert oware_tables.lookup(pits, "must-play-12=on grandslam=nocapture") == (
        oware_tables.lookup(pits, "grandslam=nocapture")
    )


def test_above_the_tables_there_is_no_value() -> None:
    pits = (2, 2, 2, 2, 2, 1, 0, 0, 0, 0, 0, 2)  # 13 seeds
    assert oware_tables.lookup(pits) is None
    assert oware_tables.best_moves(pits) is None


def test_best_moves_are_legal_and_attain_the_exact_value() -> None:
    rng = random.Random(5)
    exact = 0
    for _ in range(300):
        grandslam = rng.choice(list(RULES))
        pits = random_position(rng, rng.randint(1, 6))
        bounds = oware_tables.bounds(pits, RULES[grandslam])
        assert bounds is not None and 0 <= bounds[0] <= bounds[1] <= sum(pits)
        pos = OwarePos(pits, (0, 0), 0, (False, False), (pits,), 0)
        legal = OwareRules(grandslam, False).legal(pos)
        moves = oware_tables.move_bounds(pits, grandslam)
        assert sorted(moves) == sorted(legal)  # the tables' moves are the rules' moves
        value = oware_tables.exact(pits, RULES[grandslam])
        best = oware_tables.best_moves(pits, RULES[grandslam])
        if value is None:
            assert best is None
            continue
        exact += 1
        assert best is not None and set(best) <= set(legal) and bool(best) == bool(legal)
        assert best[:1] == [m for m in [oware_tables.table_move(pits, grandslam)] if m is not None]
        if not best:  # the game is over: the mover takes their row if they have one
            assert value == (sum(pits) if any(pits[:6]) else 0)
    assert exact > 50


def table_state(pits: Pits) -> oware.OwareState:
    """North to move in `pits` (North's view), North's store 24 - seeds, South's 24:
    no move of North's ends the game, so the tables alone decide."""
    seeds = sum(pits)
    south, north = pits[6:], pits[:6]
    text = "\n".join(
        [
            f"North  f  e  d  c  b  a     store {24 - seeds}",
            " ".join(str(n) for n in reversed(north)),
            " ".join(str(n) for n in south),
            "South  A  B  C  D  E  F     store 24",
            "North to move",
        ]
    )
    return oware.from_text(text, oware.SPEC.variant())


@pytest.mark.parametrize("level", ["hard", "max"])
def test_the_perfect_levels_play_a_best_move_of_the_tables(level: str) -> None:
    rng = random.Random(3)
    found = 0
    while found < 6:
        pits = random_position(rng, rng.randint(4, 8))
        best = oware_tables.best_moves(pits)
        state = table_state(pits)
        legal = state.legal_moves()
        if not best or len(best) == len(legal):
            continue  # only positions where some move is worse than the others
        found += 1
        assert state.to_move == Side.SECOND
        move = choose_move(state, level, budget=0.5, seed=found)
        assert move in {oware.PITS[6 + pit] for pit in best}


def test_the_levels_with_mistakes_search_instead() -> None:
    state = table_state((0, 3, 0, 1, 0, 2, 1, 0, 0, 2, 1, 2))
    rng = random.Random(1)
    assert oware_game.solved(state, level_of("max"), rng) is not None
    assert oware_game.solved(state, level_of("medium"), rng) is None
    assert oware_game.solved(state, level_of("easy"), rng) is None


def test_the_search_ends_at_the_tables_where_their_bounds_settle_the_result() -> None:
    pits = (0, 3, 0, 1, 0, 2, 1, 0, 0, 2, 1, 2)
    state = table_state(pits)
    game, root = oware_game.searchable(state, oware_eval.evaluate)
    _, moves = game.expand(root)
    assert moves  # the root itself is searched
    settled = open_ = 0
    won = WIN - oware_game.TABLE_PLIES  # won, at a distance the tables do not tell
    for move in moves:
        child = game.play(root, move)
        score, after = game.expand(child)
        bounds = oware_tables.bounds(oware_game.mover_view(child.pits, child.side))
        assert bounds is not None
        # South (to move after North) ends with these; North's store is 24 - 12.
        results = {(24 + low > 24) - (12 + sum(child.pits) - low > 24) for low in bounds}
        if len(results) == 1:
            settled += 1
            assert after == () and score == won * results.pop()
        else:  # the result rests on the history: the search goes on
            open_ += 1
            assert score is None and after
    assert settled == len(moves) and not open_  # North has lost or drawn whatever it plays
    # South B1 F1, North empty, South to move with 24 - 23: the tables bound South's seeds of
    # the board to 0..1, a draw or a win by the history: the search goes on.
    pits = (0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    pos = oware_game.OwarePos(pits, (23, 23), 0, (False, False), (pits,), 0)
    assert oware_game.table_score(pos, oware.FORBIDDEN) is None
    pos = oware_game.OwarePos(pits, (22, 24), 0, (False, False), (pits,), 0)  # lost either way
    assert oware_game.table_score(pos, oware.FORBIDDEN) == -(WIN - oware_game.TABLE_PLIES)
    plain, root = oware_game.searchable(state, oware_eval.evaluate, tables=False)
    assert plain.expand(plain.play(root, moves[0]))[1]  # without tables the game goes on


LAZY = """
import games.ai, games.ai.player, games.ai.oware_game
from games.ai import oware_tables
def mapped():
    with open("/proc/self/maps") as maps:
        return any(line.rstrip().endswith(oware_tables.TABLE_PATH.name) for line in maps)
print(mapped(), oware_tables.is_loaded())
oware_tables.lookup((1,) * 12)
print(mapped(), oware_tables.is_loaded())
"""


def test_the_file_is_mapped_on_first_use_only() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LAZY], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["False", "False", "True", "True"]
