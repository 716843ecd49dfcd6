"""A deliberately naive reference implementation of Lasca.

Written only from the "Lasca" section of the project's rule book (RULES.md),
independently of the real engine, so that the two can be cross-checked with
perft counts and move-by-move differential tests.  Clarity over speed:

* a square is an explicit ``(file, rank)`` pair, both numbered 1..7 (file a = 1);
  only squares whose file and rank have the same parity are on the board;
* the board is a dict from occupied square to its column, a Python list of
  pieces from bottom to top;
* a piece is one letter: ``w``/``b`` for White/Black soldiers, ``W``/``B`` for
  White/Black officers (the rule book's column notation);
* capture sequences are found by plain recursion on copies of the board.

Rules implemented (RULES.md, Lasca):

* The top piece of a column (the commander) decides its owner and how it moves.
* Soldiers step one square diagonally forward, officers diagonally forward or
  backward, always to an empty square.
* A capture jumps diagonally over an adjacent enemy-commanded column to the empty
  square right behind it (soldiers only forward, officers both ways).  Only the top
  piece of the jumped column is taken; it goes to the bottom of the jumping column.
  The rest of the jumped column stays, commanded by the next piece down.
* A capture sequence goes on while the jumping column can capture again; the same
  square may not be jumped twice in one move; the moving column leaves its origin
  at once (so the origin counts as empty during the sequence).
* Capturing is compulsory; any capture sequence may be chosen, but it must be
  played to its end: a capture move stops only where no further jump is possible
  (or where a soldier is promoted, in the default variant).
* A soldier commander ending its move on the far rank (7 for White, 1 for Black)
  becomes an officer (only the commander).  ``promotion=ends-move`` (default): a
  soldier reaching the far rank during a capture is promoted and the move ends.
  ``promotion=continues``: it is promoted there and carries on capturing as an
  officer if it can.
* The player to move with no legal move loses.
* Draw when a position (all columns and the player to move) occurs for the third
  time, counting the start position; draw after 80 plies in a row with no capture
  and no move by a soldier-commanded column, unless the player to move then has no
  move (that player loses).

Run ``python -m tests.reference.lasca_ref 7`` to print perft counts for both
variants.
"""

from __future__ import annotations

import sys
import time

Square = tuple[int, int]  # (file, rank), file a = 1 ... g = 7, rank 1 ... 7
Column = list[str]  # pieces from bottom to top
Board = dict[Square, Column]  # only occupied squares are keys
PositionKey = tuple[tuple[tuple[Square, str], ...], str]

WHITE = "white"  # the first player
BLACK = "black"  # the second player

FILE_LETTERS = "abcdefg"

PROMOTION_OPTIONS = ("ends-move", "continues")

QUIET_PLY_LIMIT = 80
REPETITION_LIMIT = 3


# ---------------------------------------------------------------------------
# Squares and pieces


def on_board(square: Square) -> bool:
    """True for the 25 playing squares: file and rank in 1..7 with the same parity."""
    file, rank = square
    return 1 <= file <= 7 and 1 <= rank <= 7 and file % 2 == rank % 2


def square_name(square: Square) -> str:
    file, rank = square
    return FILE_LETTERS[file - 1] + str(rank)


def parse_square(name: str) -> Square:
    if len(name) != 2 or name[0] not in FILE_LETTERS or name[1] not in "1234567":
        raise ValueError(f"not a square: {name!r}")
    square = (FILE_LETTERS.index(name[0]) + 1, int(name[1]))
    if not on_board(square):
        raise ValueError(f"not a playing square: {name!r}")
    return square


def owner(piece: str) -> str:
    if piece in ("w", "W"):
        return WHITE
    if piece in ("b", "B"):
        return BLACK
    raise ValueError(f"not a piece: {piece!r}")


def is_officer(piece: str) -> bool:
    return piece in ("W", "B")


def is_soldier(piece: str) -> bool:
    return piece in ("w", "b")


def promoted(piece: str) -> str:
    """The officer a soldier becomes (the same disc turned over)."""
    if piece == "w":
        return "W"
    if piece == "b":
        return "B"
    raise ValueError(f"only soldiers are promoted, not {piece!r}")


def opponent(player: str) -> str:
    return BLACK if player == WHITE else WHITE


def forward(player: str) -> int:
    """Rank direction of 'forward' for a player."""
    return 1 if player == WHITE else -1


def far_rank(player: str) -> int:
    return 7 if player == WHITE else 1


def directions(commander: str) -> list[tuple[int, int]]:
    """Diagonal directions (file step, rank step) a column with this commander may use."""
    ahead = forward(owner(commander))
    result = [(-1, ahead), (1, ahead)]
    if is_officer(commander):
        result += [(-1, -ahead), (1, -ahead)]
    return result


def copy_board(board: Board) -> Board:
    return {square: list(column) for square, column in board.items()}


def start_board() -> Board:
    board: Board = {}
    for rank in range(1, 8):
        for file in range(1, 8):
            square = (file, rank)
            if not on_board(square):
                continue
            if rank <= 3:
                board[square] = ["w"]
            elif rank >= 5:
                board[square] = ["b"]
    return board


def position_key(board: Board, to_move: str) -> PositionKey:
    """Every column and the player to move: what the repetition rule compares."""
    columns = tuple(sorted((square, "".join(column)) for square, column in board.items()))
    return (columns, to_move)


# ---------------------------------------------------------------------------
# Moves


def step_moves(board: Board, player: str) -> list[str]:
    """Every non-capturing step of the player's columns."""
    moves: list[str] = []
    for square in sorted(board):
        commander = board[square][-1]
        if owner(commander) != player:
            continue
        for file_step, rank_step in directions(commander):
            target = (square[0] + file_step, square[1] + rank_step)
            if on_board(target) and target not in board:
                moves.append(square_name(square) + "-" + square_name(target))
    return moves


def take_top(board: Board, jumped: Square, column: Column) -> Column:
    """Take the top piece of the column on `jumped` and put it under `column`.

    Mutates `board` (the jumped column loses its top piece, and disappears when
    it was the only piece) and returns the new, taller jumping column.
    """
    taken = board[jumped].pop()
    if not board[jumped]:
        del board[jumped]
    return [taken, *column]


def collect_captures(
    board: Board,
    here: Square,
    column: Column,
    jumped: frozenset[Square],
    path: list[Square],
    promotion: str,
    out: list[str],
) -> None:
    """Append to `out` every complete capture sequence continuing from `here`.

    `board` does not contain the moving `column` (it left its origin at once).
    `path` is the origin followed by every landing square so far.
    """
    commander = column[-1]
    player = owner(commander)
    can_jump = False
    for file_step, rank_step in directions(commander):
        over = (here[0] + file_step, here[1] + rank_step)
        land = (here[0] + 2 * file_step, here[1] + 2 * rank_step)
        if not on_board(land):
            continue
        if over not in board:
            continue  # nothing to jump
        if over in jumped:
            continue  # the same column may not be jumped twice
        if owner(board[over][-1]) == player:
            continue  # not an enemy column
        if land in board:
            continue  # landing square is occupied
        can_jump = True
        next_board = copy_board(board)
        next_column = take_top(next_board, over, column)
        next_path = [*path, land]
        if is_soldier(next_column[-1]) and land[1] == far_rank(player):
            next_column[-1] = promoted(next_column[-1])
            if promotion == "ends-move":
                out.append(capture_notation(next_path))
                continue
        collect_captures(next_board, land, next_column, jumped | {over}, next_path, promotion, out)
    if not can_jump and len(path) > 1:
        out.append(capture_notation(path))


def capture_notation(path: list[Square]) -> str:
    return "x".join(square_name(square) for square in path)


def capture_moves(board: Board, player: str, promotion: str) -> list[str]:
    """Every complete capture sequence of the player's columns."""
    moves: list[str] = []
    for square in sorted(board):
        if owner(board[square][-1]) != player:
            continue
        without_mover = copy_board(board)
        column = without_mover.pop(square)
        collect_captures(without_mover, square, column, frozenset(), [square], promotion, moves)
    return moves


def generate_moves(board: Board, player: str, promotion: str) -> list[str]:
    """Legal moves ignoring game end: the captures if there are any, else the steps."""
    captures = capture_moves(board, player, promotion)
    if captures:
        return captures
    return step_moves(board, player)


def apply_move(board: Board, move: str, promotion: str) -> Board:
    """The board after a move (assumed legal); the given board is not changed."""
    result = copy_board(board)
    if "-" in move:
        origin_name, target_name = move.split("-")
        origin = parse_square(origin_name)
        target = parse_square(target_name)
        column = result.pop(origin)
        player = owner(column[-1])
        if is_soldier(column[-1]) and target[1] == far_rank(player):
            column[-1] = promoted(column[-1])
        result[target] = column
        return result
    path = [parse_square(name) for name in move.split("x")]
    column = result.pop(path[0])
    player = owner(column[-1])
    for hop in range(1, len(path)):
        here = path[hop - 1]
        land = path[hop]
        over = ((here[0] + land[0]) // 2, (here[1] + land[1]) // 2)
        column = take_top(result, over, column)
        if is_soldier(column[-1]) and land[1] == far_rank(player):
            column[-1] = promoted(column[-1])
    result[path[-1]] = column
    return result


# ---------------------------------------------------------------------------
# The game


class Game:
    """A Lasca game from the start position."""

    def __init__(self, options: dict[str, str] | None = None) -> None:
        promotion = "ends-move"
        for key, value in (options or {}).items():
            if key.lower() != "promotion":
                raise ValueError(f"unknown Lasca option: {key!r}")
            if value.lower() not in PROMOTION_OPTIONS:
                raise ValueError(f"unknown value for promotion: {value!r}")
            promotion = value.lower()
        self.promotion: str = promotion
        self.board: Board = start_board()
        self.to_move: str = WHITE
        self.quiet_plies: int = 0  # plies in a row without capture or soldier move
        self.seen: dict[PositionKey, int] = {position_key(self.board, self.to_move): 1}
        self.winner: str | None = None  # "first", "second" or "draw" once over
        self.moves: frozenset[str] = frozenset(
            generate_moves(self.board, self.to_move, self.promotion)
        )

    @classmethod
    def from_position(
        cls,
        columns: dict[str, str],
        to_move: str = WHITE,
        options: dict[str, str] | None = None,
    ) -> Game:
        """A game starting from an arbitrary position, for hand-made test cases.

        `columns` maps square names to columns written bottom to top ("bbW");
        `to_move` is WHITE or BLACK.  The position counts as occurring once, the
        quiet-ply counter starts at 0, and a player without moves has lost.
        """
        if to_move not in (WHITE, BLACK):
            raise ValueError(f"to_move must be {WHITE!r} or {BLACK!r}, not {to_move!r}")
        game = cls(options)
        game.board = {}
        for name, text in columns.items():
            if not text or any(piece not in "wbWB" for piece in text):
                raise ValueError(f"not a column: {text!r}")
            game.board[parse_square(name)] = list(text)
        game.to_move = to_move
        game.seen = {position_key(game.board, to_move): 1}
        moves = generate_moves(game.board, to_move, game.promotion)
        if moves:
            game.moves = frozenset(moves)
        else:
            game.moves = frozenset()
            game.winner = "second" if to_move == WHITE else "first"
        return game

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.promotion = self.promotion
        other.board = copy_board(self.board)
        other.to_move = self.to_move
        other.quiet_plies = self.quiet_plies
        other.seen = dict(self.seen)
        other.winner = self.winner
        other.moves = self.moves  # frozenset, never mutated
        return other

    def legal(self) -> set[str]:
        return set(self.moves)

    def play(self, move: str) -> None:
        if move not in self.moves:
            raise ValueError(f"illegal move: {move!r}")
        mover = self.to_move
        origin = parse_square(move[:2])
        soldier_moved = is_soldier(self.board[origin][-1])
        captured = "x" in move

        self.board = apply_move(self.board, move, self.promotion)
        self.to_move = opponent(mover)
        if captured or soldier_moved:
            self.quiet_plies = 0
        else:
            self.quiet_plies += 1
        key = position_key(self.board, self.to_move)
        self.seen[key] = self.seen.get(key, 0) + 1
        moves = generate_moves(self.board, self.to_move, self.promotion)

        if not moves:
            # The player to move cannot move: they lose (even on the 80th quiet ply).
            self.winner = "first" if mover == WHITE else "second"
        elif self.seen[key] >= REPETITION_LIMIT or self.quiet_plies >= QUIET_PLY_LIMIT:
            # Third occurrence of the position, or the 80th ply in a row without
            # capture or soldier move.
            self.winner = "draw"

        if self.winner is None:
            self.moves = frozenset(moves)
        else:
            self.moves = frozenset()

    def result(self) -> str | None:
        return self.winner

    def columns(self) -> dict[str, str]:
        return {square_name(square): "".join(column) for square, column in self.board.items()}


# ---------------------------------------------------------------------------
# Perft


def perft(options: dict[str, str] | None, depth: int) -> list[int]:
    """Leaf counts at depths 1..depth from the start (a finished game has no children)."""
    counts = [0] * depth

    def walk(game: Game, ply: int) -> None:
        moves = game.legal()
        counts[ply] += len(moves)
        if ply + 1 >= depth:
            return
        for move in sorted(moves):
            child = game.copy()
            child.play(move)
            walk(child, ply + 1)

    if depth > 0:
        walk(Game(options), 0)
    return counts


def main(argv: list[str]) -> None:
    depth = int(argv[1]) if len(argv) > 1 else 5
    for promotion in PROMOTION_OPTIONS:
        print(f"promotion={promotion}")
        started = time.perf_counter()
        counts = perft({"promotion": promotion}, depth)
        elapsed = time.perf_counter() - started
        for ply, count in enumerate(counts, start=1):
            print(f"{ply} {count}")
        print(f"# {elapsed:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
