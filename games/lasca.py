"""Lasca (Emanuel Lasker, 1911), by the rules of games/RULES.md.

Checkers on the 25 squares of a 7-by-7 board whose file and rank have the same
parity, with columns instead of single men: a capture takes only the top piece
of the jumped column and puts it at the bottom of the jumping column, so no
piece ever leaves the board (22 in all). The top piece of a column, its
commander, decides who owns it and how it moves: a soldier one square
diagonally forward, an officer forward or backward. Capturing is compulsory,
with free choice among the capture sequences, each played to its end; the same
column may not be jumped twice in one move. A soldier commander ending its move
on the far rank becomes an officer. A player who cannot move loses; threefold
repetition and 80 plies without a capture or a soldier move are draws.

Variant `promotion` (one option):
- `ends-move` (default): a soldier reaching the far rank during a capture
  sequence is promoted there and the move ends.
- `continues`: it is promoted there and carries on capturing as an officer if
  it can.

Notation: a step `a3-b4`, a capture `c3xe5`, a sequence lists every landing
square `c3xe5xc7`. A column is written bottom to top: `w`/`b` soldiers,
`W`/`B` officers, so `bbW` is two captured Black soldiers under a White officer.
"""

from __future__ import annotations

import re
from itertools import pairwise

from games.base import (
    GameSpec,
    IllegalMove,
    MalformedMove,
    MoveInfo,
    Outcome,
    PositionError,
    Side,
    Termination,
    Variant,
    VariantOption,
)

OPTIONS: tuple[VariantOption, ...] = (
    VariantOption(
        key="promotion",
        values=("ends-move", "continues"),
        default="ends-move",
    ),
)

QUIET_LIMIT = 80
"""Plies in a row without a capture or a soldier move that draw the game."""

# ---------------------------------------------------------------- the board

FILES = "abcdefg"
SQUARES: tuple[str, ...] = tuple(
    sorted(
        f"{file}{rank}"
        for index, file in enumerate(FILES)
        for rank in range(1, 8)
        if (index + rank) % 2 == 1
    )
)
"""The 25 playing squares in their natural (alphabetical) order: a1, a3, …, g7."""

_INDEX: dict[str, int] = {square: i for i, square in enumerate(SQUARES)}
_FILE: tuple[int, ...] = tuple(FILES.index(square[0]) for square in SQUARES)
RANK: tuple[int, ...] = tuple(int(square[1]) for square in SQUARES)
"""The rank (1-7) of each square, by index."""
_AT: dict[tuple[int, int], int] = {(_FILE[i], RANK[i]): i for i in range(len(SQUARES))}

# Movement kinds: a White soldier (forward is up), a Black soldier, an officer.
_WHITE_SOLDIER, _BLACK_SOLDIER, _OFFICER = 0, 1, 2
_KIND_DIRECTIONS = (((-1, 1), (1, 1)), ((-1, -1), (1, -1)), ((-1, 1), (1, 1), (-1, -1), (1, -1)))

MoveData = tuple[int, tuple[int, ...], tuple[int, ...]]
"""A legal move as origin, landing squares and jumped squares (indices)."""


def _step_table(kind: int) -> tuple[tuple[tuple[int, str, MoveData], ...], ...]:
    """Per square, every step a column of this kind could make, sorted by target."""
    table = []
    for i in range(len(SQUARES)):
        targets = sorted(
            target
            for df, dr in _KIND_DIRECTIONS[kind]
            if (target := _AT.get((_FILE[i] + df, RANK[i] + dr))) is not None
        )
        table.append(tuple((t, f"{SQUARES[i]}-{SQUARES[t]}", (i, (t,), ())) for t in targets))
    return tuple(table)


def _jump_table(kind: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square, every (jumped, landing) pair for this kind, sorted by landing."""
    table = []
    for i in range(len(SQUARES)):
        jumps = []
        for df, dr in _KIND_DIRECTIONS[kind]:
            over = _AT.get((_FILE[i] + df, RANK[i] + dr))
            land = _AT.get((_FILE[i] + 2 * df, RANK[i] + 2 * dr))
            if over is not None and land is not None:
                jumps.append((over, land))
        table.append(tuple(sorted(jumps, key=lambda pair: pair[1])))
    return tuple(table)


STEPS = tuple(_step_table(kind) for kind in range(3))
"""Per kind (White soldier, Black soldier, officer), per square: (target, text, data) steps."""
_JUMPS = tuple(_jump_table(kind) for kind in range(3))
_NEIGHBOURS: frozenset[tuple[int, int]] = frozenset(
    (i, t) for i, steps in enumerate(STEPS[_OFFICER]) for t, _, _ in steps
)
_JUMPED: dict[tuple[int, int], int] = {
    (i, land): over for i, jumps in enumerate(_JUMPS[_OFFICER]) for over, land in jumps
}

# Per side (0 White, 1 Black): its pieces, the enemy's, and its far rank.
_SOLDIER = ("w", "b")
_OFFICER_PIECE = ("W", "B")
_ENEMY = ("bB", "wW")
_FAR_RANK = (7, 1)
_OWNER = {"w": Side.FIRST, "W": Side.FIRST, "b": Side.SECOND, "B": Side.SECOND}
OTHER = (Side.SECOND, Side.FIRST)
"""The opponent of a side, by index: OTHER[side] (also turns 0/1 into a Side)."""
_NAMES = ("White", "Black")

# ------------------------------------------------------------ move generation
#
# The search kernel: `generate` and `apply` work on bare boards (25 column
# strings) and are all of the rules but the draw rules; `LascaState` and the
# AI's positions (games/ai/lasca_game.py) both play through them.


def generate(board: tuple[str, ...], side: Side, continues: bool) -> dict[str, MoveData]:
    """Every legal move, canonical text to move data, by origin square then path.

    `continues` is the `promotion=continues` rule. Empty when `side` cannot move.
    """
    soldier, officer, enemy = _SOLDIER[side], _OFFICER_PIECE[side], _ENEMY[side]
    movers: list[tuple[int, int]] = []
    captures: dict[str, MoveData] = {}
    kind: int
    for i, column in enumerate(board):
        if not column:
            continue
        top = column[-1]
        if top == soldier:
            kind = side
        elif top == officer:
            kind = _OFFICER
        else:
            continue
        movers.append((i, kind))
        for over, land in _JUMPS[kind][i]:
            jumped = board[over]
            if jumped and jumped[-1] in enemy and not board[land]:
                # This column can capture: collect all its sequences at once.
                _extend(board, i, i, kind, _FAR_RANK[side], continues, enemy, [], [], captures)
                break
    if captures:
        return captures
    steps: dict[str, MoveData] = {}
    for i, kind in movers:
        for target, text, data in STEPS[kind][i]:
            if not board[target]:
                steps[text] = data
    return steps


def _extend(
    board: tuple[str, ...],
    origin: int,
    at: int,
    kind: int,
    far_rank: int,
    continues: bool,
    enemy: str,
    landings: list[int],
    jumped: list[int],
    out: dict[str, MoveData],
) -> None:
    """Add every maximal capture sequence going on from `at` to `out`.

    Only the origin and the jumped squares differ from `board` during a
    sequence. Landings lie on the mover's half of the squares and jumped
    squares on the other half, so the origin (empty once left) is the only
    landing square whose content changed, and a jumped square is never landed on.
    """
    extended = False
    for over, land in _JUMPS[kind][at]:
        if over in jumped:
            continue
        column = board[over]
        if not column or column[-1] not in enemy or (board[land] and land != origin):
            continue
        extended = True
        landings.append(land)
        jumped.append(over)
        if kind != _OFFICER and RANK[land] == far_rank:
            if continues:
                _extend(board, origin, land, _OFFICER, far_rank, True, enemy, landings, jumped, out)
            else:
                _record(origin, landings, jumped, out)
        else:
            _extend(board, origin, land, kind, far_rank, continues, enemy, landings, jumped, out)
        landings.pop()
        jumped.pop()
    if not extended and landings:
        _record(origin, landings, jumped, out)


def _record(origin: int, landings: list[int], jumped: list[int], out: dict[str, MoveData]) -> None:
    text = SQUARES[origin] + "".join("x" + SQUARES[land] for land in landings)
    out[text] = (origin, tuple(landings), tuple(jumped))


def apply(board: tuple[str, ...], side: Side, data: MoveData) -> tuple[tuple[str, ...], bool]:
    """The board after a legal move of `side` (from `generate`), and whether the
    move was irreversible (a capture or a soldier move: the draw rules restart)."""
    origin, landings, jumped = data
    squares = list(board)
    column = squares[origin]
    squares[origin] = ""
    for over in jumped:
        prisoner = squares[over]
        column = prisoner[-1] + column
        squares[over] = prisoner[:-1]
    top = column[-1]
    soldier = top in "wb"
    if soldier:
        far_rank = _FAR_RANK[side]
        # Under `continues` a soldier promoted mid-sequence may leave the far rank.
        if any(RANK[land] == far_rank for land in landings):
            column = column[:-1] + top.upper()
    squares[landings[-1]] = column
    return tuple(squares), soldier or bool(jumped)


# ------------------------------------------------------------------ the state

_SQUARE_TOKEN = re.compile(r"[a-z][0-9]+")


class LascaState:
    """One Lasca position with the moves that led to it. Immutable.

    The board is 25 column strings (bottom to top, "" when empty) in the order
    of SQUARES. Besides the position, a state keeps what the draw rules need:
    the plies since the last capture or soldier move, and the boards seen since
    then (positions before it can never come back). The legal moves and the
    outcome are computed once, on first use.
    """

    __slots__ = (
        "_board",
        "_continues",
        "_legal",
        "_moves",
        "_outcome",
        "_quiet",
        "_seen",
        "_side",
        "_table",
        "_variant",
    )

    _variant: Variant
    _continues: bool
    _board: tuple[str, ...]
    _side: Side
    _quiet: int
    _seen: tuple[tuple[str, ...], ...]
    _moves: tuple[str, ...]
    _table: dict[str, MoveData] | None
    _legal: tuple[str, ...] | None
    _outcome: Outcome | None

    def __init__(
        self,
        variant: Variant,
        board: tuple[str, ...],
        to_move: Side = Side.FIRST,
        quiet: int = 0,
    ) -> None:
        self._variant = variant
        self._continues = variant["promotion"] == "continues"
        self._board = board
        self._side = to_move
        self._quiet = quiet
        self._seen = ()
        self._moves = ()
        self._table = None
        self._legal = None
        self._outcome = None

    # ------------------------------------------------------------- reading

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def to_move(self) -> Side:
        return self._side

    @property
    def moves(self) -> tuple[str, ...]:
        """The canonical moves played since the position the state started from."""
        return self._moves

    @property
    def quiet_moves(self) -> int:
        """Plies in a row without a capture or a soldier move (80 draw)."""
        return self._quiet

    # The fields as the search kernel (games/ai/) reads them.

    @property
    def board(self) -> tuple[str, ...]:
        """The 25 columns in the order of SQUARES, bottom to top, "" when empty."""
        return self._board

    @property
    def side(self) -> Side:
        """The side to move (the same as `to_move`)."""
        return self._side

    @property
    def quiet(self) -> int:
        """The same as `quiet_moves`."""
        return self._quiet

    @property
    def seen(self) -> tuple[tuple[str, ...], ...]:
        """The boards since the last capture or soldier move, oldest first, this one not."""
        return self._seen

    def column(self, square: str) -> str:
        """The column on `square`, bottom to top (`bbW`), "" when empty."""
        index = _INDEX.get(square.strip().lower())
        if index is None:
            raise ValueError(f"`{square}` is not a playing square of Lasca")
        return self._board[index]

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move, by origin square then path; empty when the game is over."""
        if self._legal is None:
            self._settle()
        return self._legal  # type: ignore[return-value]

    def outcome(self) -> Outcome | None:
        if self._legal is None:
            self._settle()
        return self._outcome

    def _settle(self) -> None:
        table = generate(self._board, self._side, self._continues)
        self._table = table
        outcome = None
        if not table:
            side = self._side
            pieces = _SOLDIER[side] + _OFFICER_PIECE[side]
            stuck = any(column and column[-1] in pieces for column in self._board)
            why = Termination.NO_MOVES if stuck else Termination.ELIMINATION
            outcome = Outcome(OTHER[side], why, side=side)
        elif self._repeated():
            outcome = Outcome(None, Termination.REPETITION)
        elif self._quiet >= QUIET_LIMIT:
            outcome = Outcome(None, Termination.MOVE_LIMIT, count=QUIET_LIMIT)
        self._outcome = outcome
        self._legal = () if outcome else tuple(table)

    def _repeated(self) -> bool:
        """Whether this position occurs for the third time (same side to move)."""
        seen = self._seen
        # The side to move alternates, so only every other earlier board counts.
        return len(seen) >= 4 and seen[-2::-2].count(self._board) >= 2

    # ------------------------------------------------------------- playing

    def play(self, move: str) -> LascaState:
        """The state after `move`; raises MalformedMove or IllegalMove."""
        legal = self._legal if self._legal is not None else self.legal_moves()
        data = self._table.get(move) if legal else None  # type: ignore[union-attr]
        if data is None:
            move = self.parse_move(move)
            data = self._table[move]  # type: ignore[index]
        board, irreversible = apply(self._board, self._side, data)
        after = object.__new__(LascaState)
        after._variant = self._variant
        after._continues = self._continues
        after._board = board
        after._side = OTHER[self._side]
        if irreversible:
            after._quiet = 0
            after._seen = ()
        else:
            after._quiet = self._quiet + 1
            after._seen = (*self._seen, self._board)
        after._moves = (*self._moves, move)
        after._table = None
        after._legal = None
        after._outcome = None
        return after

    def parse_move(self, text: str) -> str:
        """The canonical text of a legal move; raises MalformedMove or IllegalMove."""
        legal = self.legal_moves()
        raw = text.strip().lower()
        if not raw:
            raise MalformedMove(text, "lasca.empty", legal)
        parts = re.split(r"([-x])", raw)
        names, separators = parts[0::2], set(parts[1::2])
        for name in names:
            if not _SQUARE_TOKEN.fullmatch(name):
                raise MalformedMove(text, "lasca.not-a-move", legal, written=raw)
            if name[0] not in FILES or not 1 <= int(name[1:]) <= 7:
                raise MalformedMove(text, "lasca.not-a-square", legal, square=name)
            if name not in _INDEX:
                raise MalformedMove(text, "lasca.not-a-playing-square", legal, square=name)
        if len(names) < 2 or len(separators) != 1 or ("-" in separators and len(names) > 2):
            raise MalformedMove(text, "lasca.not-a-move", legal, written=raw)
        move = separators.pop().join(names)
        if move in legal:
            return move
        code, params = self._why_not(move, [_INDEX[name] for name in names])
        raise IllegalMove(text, code, legal, written=move, **params)

    def _why_not(self, move: str, path: list[int]) -> tuple[str, dict[str, object]]:
        """Why a well-formed move (`written`, in the code's text) is not legal, as
        specific as is cheap: the code and its other parameters."""
        outcome = self._outcome
        if outcome is not None:
            # The outcome's own parameters, with the side as its name: the words
            # say the game is over and why in one sentence.
            ended: dict[str, object] = {}
            if outcome.side is not None:
                ended["side"] = outcome.side
            if outcome.count is not None:
                ended["count"] = outcome.count
            return f"lasca.game-over.{outcome.reason.value}", ended
        board, side, legal = self._board, self._side, self.legal_moves()
        origin = path[0]
        column = board[origin]
        if not column or _OWNER[column[-1]] != side:
            return "lasca.no-column", {"square": SQUARES[origin]}
        kind = side if column[-1] in "wb" else _OFFICER
        if "-" in move:
            target = path[1]
            if (origin, target) not in _NEIGHBOURS:
                return "lasca.not-diagonal", {}
            if "x" in legal[0]:
                return "lasca.capture-compulsory", {}
            if all(target != t for t, _, _ in STEPS[kind][origin]):
                return "lasca.soldier-steps-forward", {}
            if board[target]:
                return "lasca.occupied", {"square": SQUARES[target]}
            return "lasca.not-legal", {}
        going_on = tuple(m for m in legal if m.startswith(move + "x"))
        if going_on:
            return "lasca.capture-goes-on", {"moves": going_on}
        jumped: list[int] = []
        for start, land in pairwise(path):
            over = _JUMPED.get((start, land))
            if over is None:
                return "lasca.not-a-jump", {"origin": SQUARES[start], "target": SQUARES[land]}
            if over in jumped:
                return "lasca.jumped-twice", {"square": SQUARES[over]}
            jumped.append(over)
        over, land = jumped[0], path[1]
        if (over, land) not in _JUMPS[kind][origin]:
            return "lasca.soldier-captures-forward", {}
        if not board[over] or _OWNER[board[over][-1]] == side:
            return "lasca.no-enemy", {"square": SQUARES[over]}
        if board[land]:
            return "lasca.occupied", {"square": SQUARES[land]}
        return "lasca.not-legal", {}

    def describe(self, move: str) -> MoveInfo:
        """The squares a legal move touches: from, every landing, every jumped square."""
        move = self.parse_move(move)
        origin, landings, jumped = self._table[move]  # type: ignore[index]
        return MoveInfo(
            text=move,
            path=(SQUARES[origin], *(SQUARES[land] for land in landings)),
            captured=tuple(SQUARES[over] for over in jumped),
        )

    # ---------------------------------------------------------------- text

    def to_text(self) -> str:
        """The position as `from_text` reads it (see there)."""
        width = max(1, *(len(column) for column in self._board))
        lines = []
        for rank in range(7, 0, -1):
            cells = []
            for file in range(7):
                index = _AT.get((file, rank))
                if index is None:
                    cells.append(" " * width)
                else:
                    cells.append((self._board[index] or ".").ljust(width))
            lines.append(" ".join(cells).rstrip())
        lines.append(f"{_NAMES[self._side]} to move")
        if self._quiet:
            lines.append(f"quiet moves: {self._quiet}")
        return "\n".join(lines)

    # ------------------------------------------------------------ identity

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LascaState):
            return NotImplemented
        return (
            self._board == other._board
            and self._side == other._side
            and self._quiet == other._quiet
            and self._seen == other._seen
            and self._moves == other._moves
            and self._variant == other._variant
        )

    def __hash__(self) -> int:
        return hash((self._board, self._side, self._quiet, self._moves))

    def __repr__(self) -> str:
        return f"LascaState({self.to_text()!r}, moves={self._moves!r})"


# ------------------------------------------------------------- constructors


def start(variant: Variant) -> LascaState:
    """The opening position: White soldiers on ranks 1-3, Black on 5-7, White to move."""
    board = tuple("w" if rank <= 3 else "b" if rank >= 5 else "" for rank in RANK)
    return LascaState(variant, board)


_SIDE_LINE = re.compile(r"(white|black)\s+to\s+move", re.IGNORECASE)
_QUIET_LINE = re.compile(r"quiet\s+moves\s*:\s*([0-9]+)", re.IGNORECASE)
_COLUMN = re.compile(r"[wbWB]+")


def from_text(text: str, variant: Variant) -> LascaState:
    """Read a position written as `LascaState.to_text` writes it.

    Seven lines for ranks 7 down to 1, each listing that rank's playing squares
    from file a to g (4 on odd ranks, 3 on even ones), separated by any
    whitespace: `.` for an empty square, else the column bottom to top with
    `w`/`b` for soldiers and `W`/`B` for officers. Then a line `White to move`
    or `Black to move`, and optionally `quiet moves: N` (0-80), the plies in a
    row without a capture or a soldier move; absent means 0. Blank lines and
    extra spaces are ignored, the two last lines are read in any case.

    Each side has at most 11 pieces (fewer are accepted, for studies), and no
    soldier may command a column on its far rank: it would have been promoted.
    The state's moves are () and its repetition count starts here.
    """
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines) < 8:
        raise PositionError("lasca.position.short")
    board = [""] * len(SQUARES)
    for rank, tokens in zip(range(7, 0, -1), lines, strict=False):
        files = [file for file in range(7) if (file + rank) % 2 == 1]
        if len(tokens) != len(files):
            raise PositionError(
                "lasca.position.rank-length", rank=rank, squares=len(files), tokens=len(tokens)
            )
        for file, token in zip(files, tokens, strict=True):
            square = f"{FILES[file]}{rank}"
            if token != "." and not _COLUMN.fullmatch(token):
                raise PositionError("lasca.position.not-a-column", token=token, square=square)
            column = "" if token == "." else token
            if column and column[-1] in "wb" and rank == _FAR_RANK[_OWNER[column[-1]]]:
                raise PositionError(
                    "lasca.position.soldier-on-far-rank",
                    side=Side(_OWNER[column[-1]]),
                    square=square,
                )
            board[_INDEX[square]] = column
    for name, pieces in zip(_NAMES, ("wW", "bB"), strict=True):
        count = sum(column.count(pieces[0]) + column.count(pieces[1]) for column in board)
        if count > 11:
            raise PositionError("lasca.position.too-many-pieces", count=count, side=name)
    side: Side | None = None
    quiet = 0
    for tokens in lines[7:]:
        line = " ".join(tokens)
        if match := _SIDE_LINE.fullmatch(line):
            if side is not None:
                raise PositionError("lasca.position.side-twice")
            side = Side.FIRST if match[1].lower() == "white" else Side.SECOND
        elif match := _QUIET_LINE.fullmatch(line):
            quiet = int(match[1])
            if quiet > QUIET_LIMIT:
                raise PositionError("lasca.position.too-quiet", line=line, limit=QUIET_LIMIT)
        else:
            raise PositionError("lasca.position.unknown-line", line=line)
    if side is None:
        raise PositionError("lasca.position.no-side")
    return LascaState(variant, tuple(board), side, quiet)


SPEC = GameSpec(
    name="lasca",
    title="Lasca",
    side_names=("White", "Black"),
    options=OPTIONS,
    start=start,
    from_text=from_text,
)
