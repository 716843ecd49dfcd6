"""Naive reference implementation of Oska, written only from the rule book (now games/RULES.md).

Deliberately slow and simple: explicit coordinates, plain loops, mutable objects.
It is meant to cross-check the real engine (perft counts, move-by-move comparisons).

Board (file letter, row number; Blue's home is row 1, Red's home is row 5):

    row 5    a5  c5  e5  g5
    row 4      b4  d4  f4
    row 3        c3  e3
    row 2      b2  d2  f2
    row 1    a1  c1  e1  g1

Options (missing keys take the defaults):
    capture = forced (default) | optional | huff | huff-opponent
    win     = goal (default) | elimination

Under huff-opponent a step made when a capture was possible leaves the player
to move next a list of the stepper's stones to remove one of (`must_remove`);
that player's move is then written `square:` followed by their own move.
"""

from __future__ import annotations

import random
import sys
import time

FILES = "abcdefg"

# Every square of the hourglass, row by row, as (file index, row number).
SQUARE_COORDS: list[tuple[int, int]] = [
    (0, 1), (2, 1), (4, 1), (6, 1),
    (1, 2), (3, 2), (5, 2),
    (2, 3), (4, 3),
    (1, 4), (3, 4), (5, 4),
    (0, 5), (2, 5), (4, 5), (6, 5),
]  # fmt: skip

BLUE = "blue"  # moves first, from row 1 toward row 5
RED = "red"  # moves second, from row 5 toward row 1

DEFAULT_OPTIONS: dict[str, str] = {"capture": "forced", "win": "goal"}
ALLOWED_OPTIONS: dict[str, tuple[str, ...]] = {
    "capture": ("forced", "optional", "huff", "huff-opponent"),
    "win": ("goal", "elimination"),
}


def square_name(file_index: int, row: int) -> str:
    return FILES[file_index] + str(row)


SQUARES: list[str] = [square_name(f, r) for (f, r) in SQUARE_COORDS]


def square_coords(name: str) -> tuple[int, int]:
    return (FILES.index(name[0]), int(name[1:]))


def is_square(file_index: int, row: int) -> bool:
    return (file_index, row) in SQUARE_COORDS


def forward_direction(player: str) -> int:
    if player == BLUE:
        return 1
    return -1


def goal_row(player: str) -> int:
    if player == BLUE:
        return 5
    return 1


def other(player: str) -> str:
    if player == BLUE:
        return RED
    return BLUE


def normalize_options(options: dict[str, str] | None) -> dict[str, str]:
    result = dict(DEFAULT_OPTIONS)
    if options is None:
        return result
    for key, value in options.items():
        k = key.strip().lower()
        v = value.strip().lower()
        if k not in ALLOWED_OPTIONS:
            raise ValueError(f"unknown Oska option {key!r}")
        if v not in ALLOWED_OPTIONS[k]:
            raise ValueError(f"bad value {value!r} for Oska option {key!r}")
        result[k] = v
    return result


class Game:
    def __init__(self, options: dict[str, str] | None = None) -> None:
        self.options: dict[str, str] = normalize_options(options)
        # board[square] is BLUE, RED or None (empty)
        self.board: dict[str, str | None] = {}
        for name in SQUARES:
            self.board[name] = None
        for name in ("a1", "c1", "e1", "g1"):
            self.board[name] = BLUE
        for name in ("a5", "c5", "e5", "g5"):
            self.board[name] = RED
        self.to_move: str = BLUE
        # Set once a move decides the game by the goal/elimination rules.
        self.decided: str | None = None  # "first", "second", "draw" or None
        self.history: list[str] = []
        # huff-opponent: the opponent's stones the player to move must remove one of.
        self.must_remove: list[str] = []

    def copy(self) -> Game:
        g = Game(self.options)
        g.board = dict(self.board)
        g.to_move = self.to_move
        g.decided = self.decided
        g.history = list(self.history)
        g.must_remove = list(self.must_remove)
        return g

    # ----- geometry -------------------------------------------------------------------

    def step_targets(self, square: str, player: str) -> list[str]:
        """Empty forward neighbours of `square` for `player`."""
        f, r = square_coords(square)
        d = forward_direction(player)
        targets: list[str] = []
        for df in (-1, 1):
            nf = f + df
            nr = r + d
            if is_square(nf, nr) and self.board[square_name(nf, nr)] is None:
                targets.append(square_name(nf, nr))
        return targets

    def jump_options(self, square: str, player: str) -> list[tuple[str, str]]:
        """Single jumps from `square` for `player`: list of (jumped square, landing square)."""
        f, r = square_coords(square)
        d = forward_direction(player)
        jumps: list[tuple[str, str]] = []
        for df in (-1, 1):
            mf, mr = f + df, r + d
            lf, lr = f + 2 * df, r + 2 * d
            if not is_square(mf, mr) or not is_square(lf, lr):
                continue
            middle = square_name(mf, mr)
            landing = square_name(lf, lr)
            if self.board[middle] == other(player) and self.board[landing] is None:
                jumps.append((middle, landing))
        return jumps

    def stones_of(self, player: str) -> list[str]:
        return [name for name in SQUARES if self.board[name] == player]

    # ----- move generation -----------------------------------------------------------

    def capture_sequences_from(self, square: str, player: str) -> list[list[str]]:
        """All complete capture sequences of the stone on `square` (list of landing squares).

        Each sequence has at least one jump, and goes on while the same stone can capture.
        """
        sequences: list[list[str]] = []
        for middle, landing in self.jump_options(square, player):
            after = self.copy()
            after.board[square] = None
            after.board[middle] = None
            after.board[landing] = player
            continuations = after.capture_sequences_from(landing, player)
            if len(continuations) == 0:
                sequences.append([landing])
            else:
                for rest in continuations:
                    sequences.append([landing, *rest])
        return sequences

    def capture_moves(self, player: str) -> list[str]:
        moves: list[str] = []
        for square in self.stones_of(player):
            for seq in self.capture_sequences_from(square, player):
                moves.append("x".join([square, *seq]))
        return moves

    def step_moves(self, player: str) -> list[str]:
        moves: list[str] = []
        for square in self.stones_of(player):
            for target in self.step_targets(square, player):
                moves.append(square + "-" + target)
        return moves

    def stones_that_can_capture(self, player: str) -> list[str]:
        return [s for s in self.stones_of(player) if len(self.jump_options(s, player)) > 0]

    def has_any_move(self, player: str) -> bool:
        return len(self.capture_moves(player)) > 0 or len(self.step_moves(player)) > 0

    def moves_ignoring_end(self, player: str) -> set[str]:
        """Moves for `player` in this position, before the pass / game-over logic."""
        captures = self.capture_moves(player)
        steps = self.step_moves(player)
        mode = self.options["capture"]
        if mode == "forced":
            if len(captures) > 0:
                return set(captures)
            return set(steps)
        if mode == "optional" or mode == "huff-opponent":
            return set(captures) | set(steps)
        # huff
        if len(captures) == 0:
            return set(steps)
        result = set(captures)
        capturers = self.stones_that_can_capture(player)
        for step in steps:
            origin, target = step.split("-")
            for stone in capturers:
                if stone == origin:
                    result.add(step + "/" + target)
                else:
                    result.add(step + "/" + stone)
        return result

    # ----- public interface ------------------------------------------------------------

    def result(self) -> str | None:
        if self.decided is not None:
            return self.decided
        if len(self.must_remove) > 0:
            return None  # removing a stone is always possible
        if not self.has_any_move(self.to_move) and not self.has_any_move(other(self.to_move)):
            return "draw"
        return None

    def legal(self) -> set[str]:
        if self.result() is not None:
            return set()
        if len(self.must_remove) > 0:
            return self.moves_after_removals()
        moves = self.moves_ignoring_end(self.to_move)
        if len(moves) == 0:
            return {"pass"}
        return moves

    def moves_after_removals(self) -> set[str]:
        """Every `square:move` there is: remove the stone, check for a win, then move."""
        player = self.to_move
        result: set[str] = set()
        for square in self.must_remove:
            trial = self.copy()
            trial.board[square] = None
            trial.must_remove = []
            if trial.check_win() is not None:
                result.add(square + ":")
                continue
            own = trial.moves_ignoring_end(player)
            if len(own) > 0:
                for move in own:
                    result.add(square + ":" + move)
            elif trial.has_any_move(other(player)):
                result.add(square + ":pass")
            else:
                result.add(square + ":")  # nobody can move: a draw at once
        return result

    def play(self, move: str) -> None:
        if move not in self.legal():
            raise ValueError(f"illegal Oska move {move!r}")
        player = self.to_move
        written = move
        self.must_remove = []
        if ":" in move:
            removed, move = move.split(":")
            assert self.board[removed] == other(player)
            self.board[removed] = None
            if move == "" or self.check_win() is not None:
                assert move == ""
                self.history.append(written)
                self.to_move = other(player)
                self.decided = self.check_win()
                return
        # Under huff-opponent the stones that could capture, looked at before the move.
        could_capture = self.stones_that_can_capture(player)
        stepped: tuple[str, str] | None = None
        if move == "pass":
            pass
        elif "x" in move:
            squares = move.split("x")
            for i in range(len(squares) - 1):
                start = squares[i]
                landing = squares[i + 1]
                sf, sr = square_coords(start)
                lf, lr = square_coords(landing)
                middle = square_name((sf + lf) // 2, (sr + lr) // 2)
                assert self.board[start] == player
                assert self.board[middle] == other(player)
                assert self.board[landing] is None
                self.board[start] = None
                self.board[middle] = None
                self.board[landing] = player
        else:
            forfeited: str | None = None
            step = move
            if "/" in move:
                step, forfeited = move.split("/")
            origin, target = step.split("-")
            assert self.board[origin] == player
            assert self.board[target] is None
            self.board[origin] = None
            self.board[target] = player
            stepped = (origin, target)
            if forfeited is not None:
                assert self.board[forfeited] == player
                self.board[forfeited] = None
        self.history.append(written)
        self.to_move = other(player)
        self.decided = self.check_win()
        huff_opponent = self.options["capture"] == "huff-opponent"
        if huff_opponent and stepped is not None and self.decided is None:
            origin, target = stepped
            for stone in could_capture:
                self.must_remove.append(target if stone == origin else stone)

    def check_win(self) -> str | None:
        blue_stones = self.stones_of(BLUE)
        red_stones = self.stones_of(RED)
        if self.options["win"] == "elimination":
            if len(blue_stones) == 0:
                return "second"
            if len(red_stones) == 0:
                return "first"
        blue_home = all(square_coords(s)[1] == goal_row(BLUE) for s in blue_stones)
        red_home = all(square_coords(s)[1] == goal_row(RED) for s in red_stones)
        if blue_home and red_home:
            return "draw"
        if blue_home:
            return "first"
        if red_home:
            return "second"
        return None

    def __str__(self) -> str:
        lines: list[str] = []
        for row in range(5, 0, -1):
            cells: list[str] = []
            for f in range(7):
                if is_square(f, row):
                    stone = self.board[square_name(f, row)]
                    cells.append("B" if stone == BLUE else "R" if stone == RED else ".")
                else:
                    cells.append(" ")
            lines.append(f"{row} " + " ".join(cells))
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)


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
    for capture in ALLOWED_OPTIONS["capture"]:
        for win in ALLOWED_OPTIONS["win"]:
            combos.append({"capture": capture, "win": win})
    return combos


def stone_count(game: Game) -> int:
    return len(game.stones_of(BLUE)) + len(game.stones_of(RED))


def self_check(games_per_variant: int, seed: int) -> list[str]:
    """Play seeded random games under every variant; check termination and stone accounting.

    Returns one summary line per variant; raises AssertionError on any violation.
    """
    rng = random.Random(seed)
    lines: list[str] = []
    for options in all_variant_options():
        results: dict[str, int] = {"first": 0, "second": 0, "draw": 0}
        passes = 0
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
                assert plies < 1000, "game did not terminate"
                move = rng.choice(sorted(moves))
                before = stone_count(game)
                removed = 0
                own_move = move.split(":")[-1]
                if "x" in own_move:
                    removed = len(own_move.split("x")) - 1
                if "/" in move or ":" in move:
                    removed += 1
                if move == "pass":
                    passes += 1
                game.play(move)
                plies += 1
                assert stone_count(game) == before - removed, "stones not conserved"
                assert len(game.stones_of(BLUE)) <= 4 and len(game.stones_of(RED)) <= 4
            longest = max(longest, plies)
        label = " ".join(f"{k}={v}" for k, v in options.items())
        lines.append(
            f"{label}: {games_per_variant} games, results {results}, "
            f"passes {passes}, longest {longest} plies"
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
        print(f"# Oska {label}")
        started = time.perf_counter()
        counts = perft(options, depth)
        for d, count in enumerate(counts, start=1):
            print(f"{d} {count}")
        print(f"# {time.perf_counter() - started:.2f}s")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
