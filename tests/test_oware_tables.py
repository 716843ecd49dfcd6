"""The Oware endgame tables (games/ai/oware_tables.py) against an independent solve.

The shipped file was written by the C helper; here a plain solve in Python,
through the rules' mirror (OwareRules, itself tested against the engine),
recomputes every position with few seeds under the same definition (the
forced bounds by iteration to the fixpoint, the own row within them) and
compares. Then the moves, `max` through `choose_move`, the search's leaves,
and the lazy, shared mapping of the file.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

from games import oware
from games.ai import choose_move, oware_eval, oware_game, oware_tables
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


def solve(top: int, grandslam: int) -> dict[Pits, int]:
    """Every position with at most `top` seeds: the seeds the mover takes.

    Layer by layer: a capture or an end is settled by the smaller layers; the
    no-capture moves are iterated from (0, all) to the fixpoint of the mover's
    forced lower bound and the opponent's forced upper bound; where they
    differ, the mover's row within them.
    """
    rules = OwareRules(grandslam, False)
    values: dict[Pits, int] = {}
    for seeds in range(top + 1):
        exits: dict[Pits, list[int]] = {}
        inside: dict[Pits, list[Pits]] = {}
        for pits in layer(seeds):
            pos = OwarePos(pits, (0, 0), 0, (False, False), (pits,), 0)
            moves = rules.legal(pos)
            if not moves:  # no seeds: nothing; cannot feed: the own row
                values[pits] = seeds if any(pits[:6]) else 0
                continue
            exits[pits], inside[pits] = [], []
            for move in moves:
                after = rules.play(pos, move)
                if after.ending:
                    exits[pits].append(after.stores[0])
                    continue
                child = after.pits[6:] + after.pits[:6]
                if sum(child) < seeds:
                    exits[pits].append(after.stores[0] + sum(child) - values[child])
                else:
                    inside[pits].append(child)
        low = dict.fromkeys(exits, 0)
        high = dict.fromkeys(exits, seeds)
        while True:

            def bound(bounds: dict[Pits, int], child: Pits) -> int:
                return values[child] if child in values else bounds[child]

            new_low = {p: max(exits[p] + [seeds - bound(high, q) for q in inside[p]]) for p in low}
            new_high = {p: max(exits[p] + [seeds - bound(low, q) for q in inside[p]]) for p in low}
            if new_low == low and new_high == high:
                break
            low, high = new_low, new_high
        for pits in low:
            values[pits] = min(max(sum(pits[:6]), low[pits]), high[pits])
    return values


@pytest.mark.parametrize(
    ("grandslam", "top"),
    [(oware.FORBIDDEN, 5), (oware.NOCAPTURE, 4), (oware.OPPONENT_TAKES, 4)],
    ids=["default", "nocapture", "opponent-takes"],
)
def test_the_tables_agree_with_a_plain_solve(grandslam: int, top: int) -> None:
    solved = solve(top, grandslam)
    variant = RULES[grandslam]
    assert len(solved) == oware_tables.BASES[top + 1]
    wrong = {pits: (value, oware_tables.lookup(pits, variant)) for pits, value in solved.items()}
    wrong = {pits: pair for pits, pair in wrong.items() if pair[0] != pair[1]}
    assert not wrong, list(wrong.items())[:5]


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


def test_best_moves_are_legal_and_keep_the_value() -> None:
    rng = random.Random(5)
    for _ in range(300):
        grandslam = rng.choice(list(RULES))
        pits = random_position(rng, rng.randint(1, oware_tables.MAX_SEEDS))
        value = oware_tables.lookup(pits, RULES[grandslam])
        best = oware_tables.best_moves(pits, RULES[grandslam])
        assert value is not None and best is not None
        assert 0 <= value <= sum(pits)
        pos = OwarePos(pits, (0, 0), 0, (False, False), (pits,), 0)
        legal = OwareRules(grandslam, False).legal(pos)
        values = oware_tables.move_values(pits, grandslam)
        assert sorted(values) == sorted(legal)  # the tables' moves are the rules' moves
        assert set(best) <= set(legal)
        assert bool(best) == bool(legal)
        if best:
            assert {values[move] for move in best} == {max(values.values())}
        else:  # the game is over: the mover takes their row if they have one
            assert value == (sum(pits) if any(pits[:6]) else 0)


def test_the_tables_move_forces_the_value_where_it_is_forced() -> None:
    # Where the best move's result is the value itself, the table's move is one such.
    rng = random.Random(11)
    checked = 0
    for _ in range(300):
        pits = random_position(rng, rng.randint(6, oware_tables.MAX_SEEDS))
        values = oware_tables.move_values(pits, oware.FORBIDDEN)
        value = oware_tables.lookup(pits)
        if not values or max(values.values()) != value:
            continue
        move = oware_tables.table_move(pits, oware.FORBIDDEN)
        assert move is not None and values[move] == value
        checked += 1
    assert checked > 250


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
        pits = random_position(rng, rng.randint(4, oware_tables.MAX_SEEDS))
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


def test_the_search_ends_at_the_tables() -> None:
    pits = (0, 3, 0, 1, 0, 2, 1, 0, 0, 2, 1, 2)
    state = table_state(pits)
    game, root = oware_game.searchable(state, oware_eval.evaluate)
    _, moves = game.expand(root)
    assert moves  # the root itself is searched
    values = oware_tables.move_values(pits, oware.FORBIDDEN)
    for move in moves:
        score, after = game.expand(game.play(root, move))
        assert after == ()
        total = 24 - sum(pits) + values[move - 6]  # North's seeds at the end
        won = WIN - oware_game.TABLE_PLIES  # won, at a distance the tables do not tell
        assert score == (-won if total > 24 else won if total < 24 else 0)
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
