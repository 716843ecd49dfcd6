"""Check the Oware endgame tables' bounds against a search of the game itself.

    python -m games.ai.check_oware_tables [--seeds 12] [--sample N] [--every K]
                                          [--budget NODES] [--seed S]

The search plays the engine (games/oware.py: its moves, its captures, its
first-repetition end with each player taking their own row) from a position
with no history but itself, over every line with the positions it passed
through, and finds the seeds of the board the player to move ends with: the
true value of that position at the start of a game or right after a capture.
It owes the tables nothing but the order it tries moves in (the table's move
first), so a wrong table can only make it slower, never make it agree.

`--every K`: every position of 0..K seeds (K at most 3 runs in seconds; from
4 seeds on, a few positions need more nodes than `--budget` allows and are
counted as undecided). `--sample N`: N positions drawn (seeded by `--seed`)
among all of 1..`--seeds` seeds, each given `--budget` nodes. Every grand-slam
rule. Prints per seed count how many were checked, how many are exact in the
table, how many the search decided, and every position whose true value lies
outside the table's bounds or differs from an exact entry (then exits 1). Also
prints the share of exact entries per seed count of the whole table.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from games import oware
from games.ai import oware_tables
from games.base import Side

RULES = {
    oware.FORBIDDEN: "",
    oware.NOCAPTURE: "grandslam=nocapture",
    oware.OPPONENT_TAKES: "grandslam=opponent-takes",
}
Pits = tuple[int, ...]
Key = tuple[Pits, int]  # the pits South's A..F then North's a..f, and the side to move
END, CAPTURE, INSIDE = 0, 1, 2


class OutOfNodes(Exception):
    """The search went over its budget."""


def layer(seeds: int) -> Iterator[Pits]:
    """Every way to put `seeds` seeds in 12 pits."""
    for bars in itertools.combinations(range(seeds + 11), 11):
        edges = (-1, *bars, seeds + 11)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


def random_position(rng: random.Random, seeds: int) -> Pits:
    bars = sorted(rng.sample(range(seeds + 11), 11))
    edges = (-1, *bars, seeds + 11)
    return tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


def _view(key: Key) -> Pits:
    pits, side = key
    return pits[6:] + pits[:6] if side else pits


class Search:
    """The true value of positions under one grand-slam rule, with no history
    but the position itself (the start of a game, or just after a capture)."""

    def __init__(self, grandslam: int) -> None:
        self.grandslam = grandslam
        self.variant = oware.SPEC.variant(RULES[grandslam])
        self.moves: dict[Key, list[tuple[int, int, Key | None]]] = {}
        self.fresh: dict[Key, int] = {}
        self.nodes = 0
        self.budget = 0

    def _moves(self, key: Key) -> list[tuple[int, int, Key | None]]:
        """The engine's moves: (END, seeds the mover ends with, None), (CAPTURE,
        seeds taken, the position after) or (INSIDE, 0, the position after)."""
        found = self.moves.get(key)
        if found is not None:
            return found
        pits, side = key
        state = oware._position(self.variant, pits, (0, 0), Side(side))
        hint = oware_tables.table_move(_view(key), self.grandslam) if sum(pits) else None
        found = []
        for move in state.legal_moves():
            after = state.play(move)
            took = after.stores[side]
            item: tuple[int, int, Key | None]
            if after.ending:  # the stores hold the share-out
                item = (END, took, None)
            elif sum(after.pits) < sum(pits):
                item = (CAPTURE, took, (after.pits, 1 - side))
            else:
                item = (INSIDE, 0, (after.pits, 1 - side))
            if hint is not None and oware.PITS.index(move) - 6 * side == hint:
                found.insert(0, item)
            else:
                found.append(item)
        self.moves[key] = found
        return found

    def _reaches(self, key: Key, seen: frozenset[Key], need: int, seeds: int) -> bool:
        """Whether the mover can end with `need` of the board's `seeds`, the
        positions `seen` (this one among them) having been passed through."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes
        if need <= 0:
            return True
        if need > seeds:
            return False
        moves = self._moves(key)
        if not moves:  # the game is over before a move: each takes their own row
            pits, side = key
            return sum(pits[6:] if side else pits[:6]) >= need
        for kind, took, after in moves:
            if kind == END:
                ok = took >= need
            elif kind == CAPTURE:
                assert after is not None
                ok = took + sum(after[0]) - self.value(after) >= need
            else:
                assert after is not None
                if after in seen:  # the first repetition: each takes their own row
                    pits, side = after
                    ok = seeds - sum(pits[6:] if side else pits[:6]) >= need
                else:
                    ok = not self._reaches(after, seen | {after}, seeds - need + 1, seeds)
            if ok:
                return True
        return False

    def value(self, key: Key) -> int:
        """The seeds of the board the mover ends with, with no history but `key`."""
        found = self.fresh.get(key)
        if found is not None:
            return found
        seeds = sum(key[0])
        seen = frozenset([key])
        guess = oware_tables.entry(_view(key), self.grandslam)
        value = guess[0] if guess is not None else 0
        while value > 0 and not self._reaches(key, seen, value, seeds):
            value -= 1
        while value < seeds and self._reaches(key, seen, value + 1, seeds):
            value += 1
        self.fresh[key] = value
        return value

    def solve(self, pits: Pits, budget: int) -> int | None:
        """The value of `pits` (South to move), None when it needs more than `budget` nodes."""
        self.nodes, self.budget = 0, budget
        try:
            return self.value((pits, 0))
        except OutOfNodes:
            return None


@dataclass
class Tally:
    checked: int = 0
    exact: int = 0
    decided: int = 0
    wrong: list[str] = field(default_factory=list)


def check(search: Search, pits: Pits, budget: int, tally: Tally) -> None:
    """Check one position's bounds against the search."""
    variant = RULES[search.grandslam]
    bounds = oware_tables.bounds(pits, variant)
    assert bounds is not None
    low, high = bounds
    tally.checked += 1
    tally.exact += low == high
    value = search.solve(pits, budget)
    if value is None:
        return
    tally.decided += 1
    if not low <= value <= high:
        rule = variant or "grandslam=forbidden"
        tally.wrong.append(f"{rule} {pits}: true value {value}, table {low}..{high}")


def exact_shares() -> dict[int, list[tuple[int, int]]]:
    """Per grand-slam rule, per seed count: (exact entries, positions)."""
    table = oware_tables.tables()
    shares: dict[int, list[tuple[int, int]]] = {}
    for rule in RULES:
        rows = []
        for seeds in range(oware_tables.MAX_SEEDS + 1):
            first, last = oware_tables.BASES[seeds], oware_tables.BASES[seeds + 1]
            exact = 0
            for number in range(first, last):
                low, high, _ = table.entry(number, rule)
                exact += low == high
            rows.append((exact, last - first))
        shares[rule] = rows
    return shares


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="check the Oware endgame tables by search")
    parser.add_argument("--seeds", type=int, default=oware_tables.MAX_SEEDS)
    parser.add_argument("--sample", type=int, default=0, help="positions drawn at random")
    parser.add_argument("--every", type=int, default=3, help="every position up to K seeds")
    parser.add_argument("--budget", type=int, default=200_000, help="nodes a position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shares", action="store_true", help="the exact share per seed count")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    wrong: list[str] = []
    for rule, variant in RULES.items():
        search = Search(rule)
        tallies: dict[int, Tally] = {}
        for seeds in range(args.every + 1):
            tally = tallies.setdefault(seeds, Tally())
            for pits in layer(seeds):
                check(search, pits, args.budget, tally)
        for _ in range(args.sample):
            seeds = rng.randint(1, args.seeds)
            check(
                search, random_position(rng, seeds), args.budget, tallies.setdefault(seeds, Tally())
            )
        name = variant or "grandslam=forbidden"
        for seeds, tally in sorted(tallies.items()):
            print(
                f"{name}, {seeds} seeds: {tally.checked} checked, {tally.exact} exact in the "
                f"table, {tally.decided} decided by the search, {len(tally.wrong)} wrong"
            )
            wrong += tally.wrong
    if args.shares:
        for rule, rows in exact_shares().items():
            name = RULES[rule] or "grandslam=forbidden"
            text = ", ".join(f"{s}: {100 * e / t:.1f} %" for s, (e, t) in enumerate(rows))
            exact = sum(e for e, _ in rows)
            share = 100 * exact / oware_tables.POSITIONS
            print(f"exact entries, {name}: {text}; all {exact:,} ({share:.2f} %)")
    for line in wrong:
        print("WRONG", line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
