"""Naive reference implementation of Oware (Abapa), written only from /work/shared/RULES.md.

Deliberately slow and simple: a list of 12 pits, plain loops, mutable objects.
It is meant to cross-check the real engine (perft counts, move-by-move comparisons).

Pits, index 0..11, sowing order A -> ... -> F -> a -> ... -> f -> A:

    index:  0 1 2 3 4 5   6 7 8 9 10 11
    pit:    A B C D E F   a b c d e  f
            South (first) North (second)

Options (missing keys take the defaults):
    grandslam    = forbidden (default) | nocapture | opponent-takes
    must-play-12 = off (default) | on
"""

from __future__ import annotations

import random
import sys
import time

SOUTH = 0  # first player, pits A-F (indices 0-5)
NORTH = 1  # second player, pits a-f (indices 6-11)

PIT_LETTERS = "ABCDEFabcdef"

DEFAULT_OPTIONS: dict[str, str] = {"grandslam": "forbidden", "must-play-12": "off"}
ALLOWED_OPTIONS: dict[str, tuple[str, ...]] = {
    "grandslam": ("forbidden", "nocapture", "opponent-takes"),
    "must-play-12": ("off", "on"),
}


def normalize_options(options: dict[str, str] | None) -> dict[str, str]:
    result = dict(DEFAULT_OPTIONS)
    if options is None:
        return result
    for key, value in options.items():
        k = key.strip().lower()
        v = value.strip().lower()
        if k not in ALLOWED_OPTIONS:
            raise ValueError(f"unknown Oware option {key!r}")
        if v not in ALLOWED_OPTIONS[k]:
            raise ValueError(f"bad value {value!r} for Oware option {key!r}")
        result[k] = v
    return result


def other(player: int) -> int:
    return 1 - player


def row_of(player: int) -> list[int]:
    """Pit indices of `player`'s row."""
    if player == SOUTH:
        return [0, 1, 2, 3, 4, 5]
    return [6, 7, 8, 9, 10, 11]


def owner_of(pit: int) -> int:
    if pit < 6:
        return SOUTH
    return NORTH


class SowOutcome:
    """What a move would do, computed on a copy of the pits (nothing is applied)."""

    def __init__(self) -> None:
        self.pits_after_sowing: list[int] = []
        self.last_pit: int = -1
        self.feeds: bool = False  # put at least one seed on the opponent's row
        self.captured_pits: list[int] = []  # pits that the capture rule would empty
        self.captured_seeds: int = 0
        self.is_grand_slam: bool = False  # captures would leave the opponent's row empty


class Game:
    def __init__(self, options: dict[str, str] | None = None) -> None:
        self.options: dict[str, str] = normalize_options(options)
        self.pits: list[int] = [4] * 12
        self.stores: list[int] = [0, 0]  # stores[SOUTH], stores[NORTH]
        self.to_move: int = SOUTH
        # must_play_12[p]: player p must play a pit with more than 11 seeds on their next turn.
        self.must_play_12: list[bool] = [False, False]
        self.seen: set[tuple[tuple[int, ...], tuple[int, int], int]] = {self.position_key()}
        self.finished: bool = False
        self.history: list[str] = []

    def copy(self) -> Game:
        g = Game(self.options)
        g.pits = list(self.pits)
        g.stores = list(self.stores)
        g.to_move = self.to_move
        g.must_play_12 = list(self.must_play_12)
        g.seen = set(self.seen)
        g.finished = self.finished
        g.history = list(self.history)
        return g

    def position_key(self) -> tuple[tuple[int, ...], tuple[int, int], int]:
        return (tuple(self.pits), (self.stores[0], self.stores[1]), self.to_move)

    def seeds_on_row(self, player: int) -> int:
        total = 0
        for pit in row_of(player):
            total += self.pits[pit]
        return total

    # ----- what a move does -----------------------------------------------------------

    def simulate(self, pit: int) -> SowOutcome:
        """Sow from `pit` (owned by the player to move) on a copy and work out the captures."""
        player = owner_of(pit)
        opponent = other(player)
        pits = list(self.pits)
        seeds = pits[pit]
        assert seeds > 0
        pits[pit] = 0
        outcome = SowOutcome()
        current = pit
        while seeds > 0:
            current = (current + 1) % 12
            if current == pit:
                continue  # the origin pit is skipped (only matters with 12 or more seeds)
            pits[current] += 1
            seeds -= 1
            if owner_of(current) == opponent:
                outcome.feeds = True
        outcome.pits_after_sowing = pits
        outcome.last_pit = current
        # Capture: walk clockwise from the last pit while on the opponent's row with 2 or 3.
        check = current
        while owner_of(check) == opponent and pits[check] in (2, 3):
            outcome.captured_pits.append(check)
            outcome.captured_seeds += pits[check]
            if check == row_of(opponent)[0]:
                break  # the next pit clockwise is on the mover's row
            check -= 1
        if outcome.captured_seeds > 0:
            left = 0
            for p in row_of(opponent):
                if p not in outcome.captured_pits:
                    left += pits[p]
            outcome.is_grand_slam = left == 0
        return outcome

    # ----- legal moves -----------------------------------------------------------------

    def candidate_pits(self) -> list[int]:
        """Non-empty pits of the player to move, before any restriction."""
        return [p for p in row_of(self.to_move) if self.pits[p] > 0]

    def restricted_pits(self) -> list[int]:
        """Pits the player to move may play: feeding, then must-play-12, then grand slam."""
        player = self.to_move
        opponent = other(player)
        moves = self.candidate_pits()
        # 1. feeding
        if self.seeds_on_row(opponent) == 0:
            feeding = [p for p in moves if self.simulate(p).feeds]
            if len(feeding) > 0:
                moves = feeding
        # 2. must-play-12
        if self.options["must-play-12"] == "on" and self.must_play_12[player]:
            big = [p for p in moves if self.pits[p] > 11]
            if len(big) > 0:
                moves = big
        # 3. grand slam
        if self.options["grandslam"] == "forbidden":
            not_slams = [p for p in moves if not self.simulate(p).is_grand_slam]
            if len(not_slams) > 0:
                moves = not_slams
        return moves

    def game_should_end(self) -> bool:
        """Starvation end: mover has no seeds, or opponent has none and cannot be fed."""
        player = self.to_move
        opponent = other(player)
        if self.seeds_on_row(player) == 0:
            return True
        if self.seeds_on_row(opponent) == 0:
            can_feed = False
            for p in self.candidate_pits():
                if self.simulate(p).feeds:
                    can_feed = True
            if not can_feed:
                return True
        return False

    def legal(self) -> set[str]:
        if self.finished:
            return set()
        return {PIT_LETTERS[p] for p in self.restricted_pits()}

    # ----- playing ---------------------------------------------------------------------

    def play(self, move: str) -> None:
        if move not in self.legal():
            raise ValueError(f"illegal Oware move {move!r}")
        pit = PIT_LETTERS.index(move)
        player = self.to_move
        opponent = other(player)
        before = list(self.pits)
        outcome = self.simulate(pit)
        self.pits = list(outcome.pits_after_sowing)

        take_captures = True
        if outcome.is_grand_slam:
            mode = self.options["grandslam"]
            if mode in ("forbidden", "nocapture"):
                # forbidden: only playable when every remaining move is one; captures nothing
                take_captures = False
        if take_captures:
            for p in outcome.captured_pits:
                self.stores[player] += self.pits[p]
                self.pits[p] = 0
            if outcome.is_grand_slam and self.options["grandslam"] == "opponent-takes":
                for p in row_of(player):
                    self.stores[opponent] += self.pits[p]
                    self.pits[p] = 0

        # must-play-12 bookkeeping: the mover's obligation (if any) was for this turn.
        self.must_play_12[player] = False
        for p in range(12):
            if before[p] <= 11 and self.pits[p] > 11:
                self.must_play_12[owner_of(p)] = True

        self.history.append(move)
        self.to_move = opponent

        # End conditions.
        if self.stores[SOUTH] >= 25 or self.stores[NORTH] >= 25:
            self.finished = True  # won at once; board seeds are not handed out
            return
        key = self.position_key()
        if key in self.seen:
            self.finish_by_taking_own_rows()
            return
        self.seen.add(key)
        if self.game_should_end():
            self.finish_by_taking_own_rows()

    def finish_by_taking_own_rows(self) -> None:
        for player in (SOUTH, NORTH):
            for p in row_of(player):
                self.stores[player] += self.pits[p]
                self.pits[p] = 0
        self.finished = True

    def result(self) -> str | None:
        if not self.finished:
            return None
        if self.stores[SOUTH] > 24:
            return "first"
        if self.stores[NORTH] > 24:
            return "second"
        return "draw"

    def __str__(self) -> str:
        north = " ".join(f"{self.pits[p]:2d}" for p in reversed(row_of(NORTH)))
        south = " ".join(f"{self.pits[p]:2d}" for p in row_of(SOUTH))
        mover = "South" if self.to_move == SOUTH else "North"
        return (
            f"North store {self.stores[NORTH]}\n {north}\n {south}\n"
            f"South store {self.stores[SOUTH]}   ({mover} to move)"
        )


# ----- perft --------------------------------------------------------------------------


def count_leaves(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in sorted(game.legal()):
        child = game.copy()
        child.play(move)
        total += count_leaves(child, depth - 1)
    return total


def perft(options: dict[str, str] | None, depth: int) -> list[int]:
    start = Game(options)
    return [count_leaves(start, d) for d in range(1, depth + 1)]


def all_variant_options() -> list[dict[str, str]]:
    combos: list[dict[str, str]] = []
    for grandslam in ALLOWED_OPTIONS["grandslam"]:
        for must in ALLOWED_OPTIONS["must-play-12"]:
            combos.append({"grandslam": grandslam, "must-play-12": must})
    return combos


def self_check(games_per_variant: int, seed: int) -> list[str]:
    """Play seeded random games under every variant; check termination and seed accounting.

    Returns one summary line per variant; raises AssertionError on any violation.
    """
    rng = random.Random(seed)
    lines: list[str] = []
    for options in all_variant_options():
        results: dict[str, int] = {"first": 0, "second": 0, "draw": 0}
        longest = 0
        for _ in range(games_per_variant):
            game = Game(options)
            plies = 0
            while True:
                moves = game.legal()
                outcome = game.result()
                assert (len(moves) == 0) == (outcome is not None), "legal() empty iff game over"
                if outcome is not None:
                    results[outcome] += 1
                    break
                assert plies < 100000, "game did not terminate"
                move = rng.choice(sorted(moves))
                stores_before = list(game.stores)
                game.play(move)
                plies += 1
                assert sum(game.pits) + sum(game.stores) == 48, "seeds not conserved"
                assert min(game.pits) >= 0
                assert game.stores[0] >= stores_before[0] and game.stores[1] >= stores_before[1]
            if game.stores[0] < 25 and game.stores[1] < 25:
                assert sum(game.pits) == 0, "rows handed out at the end"
            longest = max(longest, plies)
        label = " ".join(f"{k}={v}" for k, v in options.items())
        lines.append(
            f"{label}: {games_per_variant} games, results {results}, longest {longest} plies"
        )
    return lines


def main(argv: list[str]) -> None:
    if len(argv) > 1 and argv[1] == "--selfcheck":
        count = int(argv[2]) if len(argv) > 2 else 1000
        for line in self_check(count, seed=12345):
            print(line)
        return
    depth = int(argv[1]) if len(argv) > 1 else 6
    for options in all_variant_options():
        label = " ".join(f"{k}={v}" for k, v in options.items())
        print(f"# Oware {label}")
        started = time.perf_counter()
        counts = perft(options, depth)
        for d, count in enumerate(counts, start=1):
            print(f"{d} {count}")
        print(f"# {time.perf_counter() - started:.2f}s")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
