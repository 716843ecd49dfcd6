"""Oska (Michael Woodward & Bryn Jones, 1995), as games/RULES.md describes it.

Sixteen squares in an hourglass of rows of 4, 3, 2, 3 and 4. Blue starts with
four stones on row 1 and moves first, Red with four on row 5. Stones move only
forward, one row and half a square sideways, to an empty square, or jump an
enemy stone in a straight line to capture it; a capture goes on while the same
stone can capture again, and the path may bend. A player with no move passes;
when neither player can move the game is drawn.

Variants (`key=value`, defaults first):

- `capture=forced`: whoever can capture must (any complete sequence).
  `capture=huff`: capturing is optional, but a plain step played when a
  capture was possible forfeits a stone that could have captured, named in the
  move (`c1-d2/a1`). `capture=optional`: capturing is optional, no penalty.
  `capture=huff-opponent`: as huff, but the step is bare and the opponent
  chooses the stone: their next move starts with its removal (`a1:g5-f4`, or
  `a1:` alone when the removal ends the game), and whether they could capture
  is judged after it.
- `win=goal`: a player wins when every stone they still have is on their goal
  row (Blue row 5, Red row 1), checked for both players after every move, so a
  player without stones wins; both at once is a draw. `win=elimination`: a
  player who loses every stone loses, otherwise the goal rule holds.

Notation: `c1-d2`, `a1xc3xe5` (every landing square), `pass`, under huff
`c1-d2/a1` (a stone that stepped and is forfeited is named by its new square),
under huff-opponent `a1:g5-f4`, `a1:pass` and `a1:`.

The position is two bitmasks of the 16 squares (and, under huff-opponent, a
third: the stones the side to move must remove one of); the legal-move table
of a state, with the masks each move leads to, is computed once and kept.
`decided`, `generate`, `removals` and `can_move` are the search kernel the AI
shares.
Outcomes and refusals are codes (`oska.*`, `move.*`, `outcome.oska.*` in
words/english/oska.py and games.py).
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
        "capture",
        ("forced", "huff", "optional", "huff-opponent"),
        "forced",
    ),
    VariantOption(
        "win",
        ("goal", "elimination"),
        "goal",
    ),
)

# ------------------------------------------------------------------- geometry

# Board order: row 1 to row 5, files left to right. Bit i of a mask is SQUARES[i].
SQUARES: tuple[str, ...] = (
    "a1", "c1", "e1", "g1",
    "b2", "d2", "f2",
    "c3", "e3",
    "b4", "d4", "f4",
    "a5", "c5", "e5", "g5",
)  # fmt: skip
INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}
_COORD: tuple[tuple[int, int], ...] = tuple((ord(n[0]) - ord("a"), int(n[1])) for n in SQUARES)
_AT: dict[tuple[int, int], int] = {coord: i for i, coord in enumerate(_COORD)}
_ROW_LENGTHS: dict[int, int] = {5: 4, 4: 3, 3: 2, 2: 3, 1: 4}

_ALL = (1 << len(SQUARES)) - 1
_ROW1 = sum(1 << i for i, (_, row) in enumerate(_COORD) if row == 1)
_ROW5 = sum(1 << i for i, (_, row) in enumerate(_COORD) if row == 5)
_NOT_ROW5 = _ALL ^ _ROW5
_NOT_ROW1 = _ALL ^ _ROW1
_FORWARD = (1, -1)  # rows per step for Blue, Red
_NAMES = ("Blue", "Red")
_SIDES = (Side.FIRST, Side.SECOND)


_Steps = tuple[tuple[tuple[int, int, str], ...], ...]  # per square: (to bit, to index, text)
_Jumps = tuple[tuple[tuple[int, int, int, str], ...], ...]  # (over bit, land bit, index, `xLAND`)


def _forward_moves(side: int) -> tuple[_Steps, _Jumps]:
    """The steps and jumps forward from every square, by destination in board order."""
    ahead = _FORWARD[side]
    steps: list[tuple[tuple[int, int, str], ...]] = []
    jumps: list[tuple[tuple[int, int, int, str], ...]] = []
    for i, (file, row) in enumerate(_COORD):
        step_list: list[tuple[int, int, str]] = []
        jump_list: list[tuple[int, int, int, str]] = []
        for sideways in (-1, 1):
            to = _AT.get((file + sideways, row + ahead))
            if to is None:
                continue
            step_list.append((1 << to, to, f"{SQUARES[i]}-{SQUARES[to]}"))
            land = _AT.get((file + 2 * sideways, row + 2 * ahead))
            if land is not None:
                jump_list.append((1 << to, 1 << land, land, f"x{SQUARES[land]}"))
        steps.append(tuple(sorted(step_list, key=lambda s: s[1])))
        jumps.append(tuple(sorted(jump_list, key=lambda j: j[2])))
    return tuple(steps), tuple(jumps)


_STEPS_BLUE, _JUMPS_BLUE = _forward_moves(0)
_STEPS_RED, _JUMPS_RED = _forward_moves(1)
_STEPS = (_STEPS_BLUE, _STEPS_RED)
_JUMPS = (_JUMPS_BLUE, _JUMPS_RED)

# ------------------------------------------------------------------- outcomes

# Made once: the win check runs after every move of every playout.
_DRAW_BLOCKED = Outcome(None, Termination.BLOCKED)
_DRAW_HOME = Outcome(None, Termination.GOAL)
_DRAW_EMPTY = Outcome(None, Termination.ELIMINATION)
_HOME = tuple(Outcome(side, Termination.GOAL, side) for side in _SIDES)
_NONE_LEFT = tuple(Outcome(side, Termination.GOAL_STONELESS, side) for side in _SIDES)
# Indexed by the side that lost every stone; the other side wins.
_ELIMINATED = tuple(Outcome(side.other, Termination.ELIMINATION, side) for side in _SIDES)


def decided(blue: int, red: int, elimination: bool) -> Outcome | None:
    """The win check made after every move (blocking is not looked at here).

    Part of the engine's search kernel with `generate` and `can_move`: the
    solver and the search in games/ai/ call these on bare masks.
    """
    if elimination and not (blue and red):
        if blue:
            return _ELIMINATED[1]
        return _ELIMINATED[0] if red else _DRAW_EMPTY
    blue_home = not blue & _NOT_ROW5
    red_home = not red & _NOT_ROW1
    if blue_home:
        if red_home:
            return _DRAW_HOME
        return _HOME[0] if blue else _NONE_LEFT[0]
    if red_home:
        return _HOME[1] if red else _NONE_LEFT[1]
    return None


# ---------------------------------------------------------------- generation

# A table entry: the mover's stones and the opponent's stones after the move, and
# the mover's stones the opponent must remove one of first (capture=huff-opponent).
_Entry = tuple[int, int, int]
_Table = dict[str, _Entry]
_FORCED, _HUFF, _OPTIONAL, _HUFF_OPPONENT = 0, 1, 2, 3
MODES: tuple[str, ...] = ("forced", "huff", "optional", "huff-opponent")


def can_move(own: int, opp: int, side: int) -> bool:
    """Whether the side with stones `own` has any step or capture (search kernel)."""
    empty = _ALL ^ own ^ opp
    steps, jumps = _STEPS[side], _JUMPS[side]
    while own:
        bit = own & -own
        own ^= bit
        i = bit.bit_length() - 1
        for to, _, _ in steps[i]:
            if empty & to:
                return True
        for over, land, _, _ in jumps[i]:
            if opp & over and empty & land:
                return True
    return False


def generate(own: int, opp: int, side: int, mode: int) -> _Table:
    """Every move of the side with stones `own`, in board order of origin, then destination.

    The search kernel's move table: each move's text to the mover's and the
    opponent's masks after it and the mover's forfeitable stones (a mask, 0
    but for a step under huff-opponent). `mode` indexes MODES.
    """
    empty = _ALL ^ own ^ opp
    steps_from, jumps_from = _STEPS[side], _JUMPS[side]
    # Entries are (sort key, text, table entry); the key orders mixed lists.
    captures: list[tuple[int, str, _Entry]] = []
    steps: list[tuple[int, str, _Entry]] = []
    capturers: list[int] = []
    stones = own
    while stones:
        bit = stones & -stones
        stones ^= bit
        i = bit.bit_length() - 1
        rest = own ^ bit
        before = len(captures)
        for over, land, li, suffix in jumps_from[i]:
            if opp & over and empty & land:
                taken = opp ^ over
                text = SQUARES[i] + suffix
                ended = True
                for over2, land2, li2, suffix2 in jumps_from[li]:
                    if taken & over2 and empty & land2:
                        ended = False
                        key = (i << 10) | (li << 5) | li2
                        captures.append((key, text + suffix2, (rest | land2, taken ^ over2, 0)))
                if ended:
                    captures.append(((i << 10) | (li << 5) | 31, text, (rest | land, taken, 0)))
        if len(captures) > before:
            capturers.append(i)
        for to, ti, text in steps_from[i]:
            if empty & to:
                steps.append(((i << 10) | (ti << 5), text, (rest | to, opp, 0)))
    if not captures:
        return {text: entry for _, text, entry in steps}
    if mode == _FORCED or not steps:
        return {text: entry for _, text, entry in captures}
    if mode == _HUFF:
        steps = _with_forfeits(steps, capturers)
    elif mode == _HUFF_OPPONENT:
        steps = _with_pending(steps, capturers)
    merged = sorted(captures + steps)
    return {text: entry for _, text, entry in merged}


def _with_forfeits(
    steps: list[tuple[int, str, _Entry]], capturers: list[int]
) -> list[tuple[int, str, _Entry]]:
    """Each step paired with each stone that could have captured, that stone removed."""
    huffs: list[tuple[int, str, _Entry]] = []
    for key, text, (mine, theirs, _) in steps:
        origin, to = key >> 10, (key >> 5) & 31
        for stone in capturers:
            lost = to if stone == origin else stone
            huffs.append((key | lost, f"{text}/{SQUARES[lost]}", (mine ^ (1 << lost), theirs, 0)))
    return huffs


def _with_pending(
    steps: list[tuple[int, str, _Entry]], capturers: list[int]
) -> list[tuple[int, str, _Entry]]:
    """Each step with the stones that could have captured left for the opponent to
    choose from; a stone that stepped is one of them on its new square.

    A step that ends the game leaves nothing to remove (games/RULES.md), but none can
    be made when a capture was possible: a step ends the game only when it takes
    the mover's last stone off the goal row home, from the row before the goal,
    where no stone can jump (tests/test_oska.py checks every such position).
    """
    could = sum(1 << stone for stone in capturers)
    pending: list[tuple[int, str, _Entry]] = []
    for key, text, (mine, theirs, _) in steps:
        origin, to = key >> 10, (key >> 5) & 31
        forfeitable = could ^ (1 << origin) | (1 << to) if could >> origin & 1 else could
        pending.append((key, text, (mine, theirs, forfeitable)))
    return pending


def removals(own: int, opp: int, forfeitable: int, side: int, elimination: bool) -> _Table:
    """The moves of a side that must first remove one of the opponent's `forfeitable`
    stones (capture=huff-opponent): by removed stone in board order, each `a1:` and
    the move made after it (search kernel, like `generate`).

    The win check follows the removal at once: a removal that decides the game, or
    leaves neither player a move (a draw), is the whole move, `a1:`. A mover who
    then has no move but whose opponent has passes (`a1:pass`).
    """
    table: _Table = {}
    while forfeitable:
        bit = forfeitable & -forfeitable
        forfeitable ^= bit
        removed = SQUARES[bit.bit_length() - 1] + ":"
        left = opp ^ bit
        blue, red = (left, own) if side else (own, left)
        if decided(blue, red, elimination) is None:
            after = generate(own, left, side, _HUFF_OPPONENT)
            if after:
                for text, entry in after.items():
                    table[removed + text] = entry
                continue
            if can_move(left, own, side ^ 1):
                table[removed + "pass"] = (own, left, 0)
                continue
        table[removed] = (own, left, 0)
    return table


# --------------------------------------------------------------------- state

_SQUARE_LIKE = re.compile(r"[a-z][0-9]+")


class OskaState:
    """One Oska position with the moves that led to it. Immutable.

    Built by `start`, `from_text` and `play`. The stones are bitmasks over
    `SQUARES`; `stones(side)` names them.
    """

    __slots__ = ("_blue", "_elim", "_legal", "_mode", "_moves", "_outcome", "_pending", "_red",
                 "_side", "_table", "_variant")  # fmt: skip

    def __init__(
        self,
        variant: Variant,
        blue: int,
        red: int,
        to_move: Side,
        moves: tuple[str, ...] = (),
        forfeitable: int = 0,
    ) -> None:
        self._variant = variant
        self._mode = MODES.index(variant["capture"])
        self._elim = variant["win"] == "elimination"
        self._blue = blue
        self._red = red
        self._side = int(to_move)
        self._moves = moves
        # The opponent's stones the side to move must remove one of first (huff-opponent).
        self._pending = forfeitable
        self._table: _Table | None = None
        self._legal: tuple[str, ...] = ()
        self._outcome: Outcome | None = None

    # ------------------------------------------------------------ protocol

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def to_move(self) -> Side:
        return _SIDES[self._side]

    @property
    def moves(self) -> tuple[str, ...]:
        return self._moves

    def legal_moves(self) -> tuple[str, ...]:
        if self._table is None:
            self.analyse()
        return self._legal

    def outcome(self) -> Outcome | None:
        if self._table is None:
            self.analyse()
        return self._outcome

    def play(self, move: str) -> OskaState:
        """The state after `move` (canonical, or anything `parse_move` reads)."""
        table = self._table
        if table is None:
            table = self.analyse()
        entry = table.get(move)
        if entry is None:
            move = self.parse_move(move)
            entry = table[move]
        child = _new(OskaState)
        child._variant = self._variant
        child._mode = self._mode
        child._elim = self._elim
        side = self._side
        if side:
            child._red, child._blue, child._pending = entry
        else:
            child._blue, child._red, child._pending = entry
        child._side = side ^ 1
        child._moves = (*self._moves, move)
        child._table = None
        return child

    def parse_move(self, text: str) -> str:
        """The canonical legal move `text` stands for; any case and spacing is read.

        Under huff a bare step stands for its slashed form when only one stone
        could be forfeited; under huff-opponent a due removal must be written
        (`a1:g5-f4`). Raises MalformedMove or IllegalMove with the reason.
        """
        table = self._table
        if table is None:
            table = self.analyse()
        if text in table:
            return text
        return _Parser(self, table, text).canonical()

    def describe(self, move: str) -> MoveInfo:
        move = self.parse_move(move)
        removed, colon, rest = move.rpartition(":")
        if colon:  # huff-opponent: the opponent's stone removed, then the mover's own move
            inner = self._after_removal(removed).describe(rest) if rest else MoveInfo(rest, ())
            return MoveInfo(move, inner.path, inner.captured, (removed,))
        if move == "pass":
            return MoveInfo(move, ())
        main, _, lost = move.partition("/")
        if "x" in main:
            path = tuple(main.split("x"))
            captured = tuple(_between(a, b) for a, b in pairwise(path))
        else:
            path, captured = tuple(main.split("-")), ()
        return MoveInfo(move, path, captured, (lost,) if lost else ())

    def to_text(self) -> str:
        lines = []
        for row in range(5, 0, -1):
            cells = [
                "b" if self._blue >> i & 1 else "r" if self._red >> i & 1 else "."
                for i, (_, r) in enumerate(_COORD)
                if r == row
            ]
            first_file = min(f for f, r in _COORD if r == row)
            lines.append(f"{row}{' ' * (2 + first_file)}{' '.join(cells)}")
        lines.append(f"{_NAMES[self._side]} to move")
        if self._pending:
            lines.append(f"{_NAMES[self._side]} removes one of: {', '.join(self.forfeitable())}")
        return "\n".join(lines)

    # -------------------------------------------------------------- extras

    def stones(self, side: Side) -> tuple[str, ...]:
        """The squares of `side`'s stones, in board order."""
        mask = self._red if side else self._blue
        return tuple(name for i, name in enumerate(SQUARES) if mask >> i & 1)

    def forfeitable(self) -> tuple[str, ...]:
        """The opponent's stones the side to move must remove one of before moving
        (capture=huff-opponent, after a step that forfeits one), in board order."""
        return tuple(name for i, name in enumerate(SQUARES) if self._pending >> i & 1)

    def _after_removal(self, square: str) -> OskaState:
        """The position after the side to move removed the forfeitable stone on
        `square`, before its own move (no moves: it is a study, not the game)."""
        bit = 1 << INDEX[square]
        assert self._pending & bit, square
        blue, red = (self._blue ^ bit, self._red) if self._side else (self._blue, self._red ^ bit)
        return OskaState(self._variant, blue, red, self.to_move)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OskaState):
            return NotImplemented
        return (
            self._blue == other._blue
            and self._red == other._red
            and self._side == other._side
            and self._pending == other._pending
            and self._moves == other._moves
            and self._variant == other._variant
        )

    def __hash__(self) -> int:
        return hash((self._blue, self._red, self._side, self._pending, self._moves, self._variant))

    def __repr__(self) -> str:
        variant = str(self._variant)
        return f"OskaState({self.to_text()!r}, moves={self._moves!r}, variant={variant!r})"

    # ------------------------------------------------------------ internals

    def analyse(self) -> _Table:
        """Fill the outcome and the legal-move table, once; the table (move to masks)."""
        blue, red, side = self._blue, self._red, self._side
        outcome = decided(blue, red, self._elim)
        table: _Table = {}
        if outcome is None:
            own, opp = (red, blue) if side else (blue, red)
            if self._pending:
                table = removals(own, opp, self._pending, side, self._elim)
            else:
                table = generate(own, opp, side, self._mode)
            if not table:
                if can_move(opp, own, side ^ 1):
                    table = {"pass": (own, opp, 0)}
                else:
                    outcome = _DRAW_BLOCKED
        self._outcome = outcome
        self._legal = tuple(table)
        self._table = table
        return table

    def _stone_side(self, i: int) -> int | None:
        if self._blue >> i & 1:
            return 0
        return 1 if self._red >> i & 1 else None


_new = object.__new__


def _between(a: str, b: str) -> str:
    (fa, ra), (fb, rb) = _COORD[INDEX[a]], _COORD[INDEX[b]]
    return SQUARES[_AT[(fa + fb) // 2, (ra + rb) // 2]]


class _Parser:
    """Reads a move text that is not a canonical legal move, and says why it fails.

    After a removal (`a1:...`) a second parser reads the rest on the position
    with the stone removed; its refusals name the whole text and the legal moves.
    """

    def __init__(
        self, state: OskaState, table: _Table, text: str, outer: _Parser | None = None,
        prefix: str = "",
    ) -> None:  # fmt: skip
        self.state = state
        self.legal = tuple(table)
        self.text = text.strip()
        self.shown = self if outer is None else outer  # whose text and legal moves refusals name
        self.prefix = prefix  # the removal the outer parser read (`a1:`)

    def malformed(self, code: str, **params: object) -> MalformedMove:
        return MalformedMove(self.shown.text, code, self.shown.legal, **params)

    def illegal(self, code: str, **params: object) -> IllegalMove:
        return IllegalMove(self.shown.text, code, self.shown.legal, **params)

    def canonical(self) -> str:
        low = "".join(self.text.split()).lower()
        if not low:
            raise self.malformed("oska.empty")
        removed, colon, rest = low.partition(":")
        if colon and self.shown is self:
            return self.removal(removed, rest)
        if low == "pass":
            return self.check("pass", None, None, [])
        main, slash, lost = low.partition("/")
        parts = re.split(r"([-x])", main)
        names, separators = parts[0::2], set(parts[1::2])
        not_a_move = self.malformed("oska.not-a-move")
        if not all(_SQUARE_LIKE.fullmatch(name) for name in names):
            raise not_a_move
        for name in (*names, lost) if slash else names:
            if name not in INDEX:
                raise self.malformed("move.not-a-square", square=name)
        if len(separators) != 1:
            raise not_a_move
        squares = [INDEX[name] for name in names]
        if "-" in separators:
            self.check_step_shape(squares)
            return self.check(f"{names[0]}-{names[1]}", squares, lost if slash else None, [])
        if slash:
            raise self.malformed("oska.forfeit-after-capture")
        over = [self.check_jump_shape(a, b) for a, b in pairwise(squares)]
        return self.check("x".join(names), squares, None, over)

    def removal(self, removed: str, rest: str) -> str:
        """`a1:` and what follows it: the removal of a forfeitable stone, then a move."""
        if not _SQUARE_LIKE.fullmatch(removed):
            raise self.malformed("oska.not-a-move")
        if removed not in INDEX:
            raise self.malformed("move.not-a-square", square=removed)
        state = self.state
        outcome = state.outcome()
        if outcome is not None:
            raise self.illegal("move.game-over", **outcome.as_params("oska"))
        if state._mode != _HUFF_OPPONENT:
            raise self.illegal("oska.removal-only-under-huff-opponent")
        forfeitable = state.forfeitable()
        if not forfeitable:
            raise self.illegal("oska.no-removal-due")
        if removed not in forfeitable:
            raise self.illegal("oska.removal-not-forfeitable", square=removed, squares=forfeitable)
        alone = removed + ":"
        if alone in self.legal:  # the removal ends the game
            if rest:
                raise self.illegal("oska.removal-ends-the-game", square=removed, removal=alone)
            return alone
        if not rest:
            example = next(m for m in self.legal if m.startswith(alone))
            raise self.illegal("oska.removal-needs-a-move", square=removed, example=example)
        after = state._after_removal(removed)
        return alone + _Parser(after, after.analyse(), rest, self, alone).canonical()

    def check_step_shape(self, squares: list[int]) -> None:
        if len(squares) != 2:
            raise self.malformed("oska.step-one-square")
        (fa, ra), (fb, rb) = _COORD[squares[0]], _COORD[squares[1]]
        if abs(fa - fb) != 1 or abs(ra - rb) != 1:
            if abs(fa - fb) == abs(ra - rb) == 2:
                raise self.malformed("oska.step-as-jump")
            raise self.malformed("oska.step-not-neighbour")

    def check_jump_shape(self, a: int, b: int) -> int:
        (fa, ra), (fb, rb) = _COORD[a], _COORD[b]
        over = _AT.get(((fa + fb) // 2, (ra + rb) // 2))
        if abs(fa - fb) != 2 or abs(ra - rb) != 2 or over is None:
            raise self.malformed("oska.not-a-jump")
        return over

    def check(self, move: str, squares: list[int] | None, lost: str | None, over: list[int]) -> str:
        """`move` is well formed: return the canonical legal move or say why it is illegal."""
        state = self.state
        outcome = state.outcome()
        if outcome is not None:
            raise self.illegal("move.game-over", **outcome.as_params("oska"))
        if state._pending:
            raise self.name_the_removal(move)
        canonical = f"{move}/{lost}" if lost else move
        if canonical in self.legal:
            return canonical
        if squares is None:
            raise self.illegal("oska.pass-not-allowed")
        side = state._side
        names = [SQUARES[i] for i in squares]
        if state._stone_side(squares[0]) != side:
            raise self.illegal("oska.no-stone-of-yours", square=names[0])
        rows = [_COORD[i][1] for i in squares]
        if any((b - a) * _FORWARD[side] < 0 for a, b in pairwise(rows)):
            raise self.illegal("oska.backward")
        for jumped in over:
            if state._stone_side(jumped) != side ^ 1:
                raise self.illegal(
                    "oska.nothing-to-jump", square=SQUARES[jumped], opponent=Side(side ^ 1)
                )
        for i in squares[1:]:
            if state._stone_side(i) is not None:
                raise self.illegal("move.not-empty", square=SQUARES[i])
        if over:
            longer = tuple(self.prefix + m for m in self.legal if m.startswith(move + "x"))
            if longer:
                raise self.illegal("move.capture-goes-on", continuations=longer)
        else:
            bare = self.check_step_rules(move, squares, lost)
            if bare is not None:
                return bare
        raise self.illegal("move.not-legal")

    def check_step_rules(self, move: str, squares: list[int], lost: str | None) -> str | None:
        """A step whose stone and target are in order: the huff move a bare step stands for,
        None when no rule explains the refusal, else IllegalMove with the rule."""
        mode = self.state._mode
        can_capture = any("x" in m for m in self.legal)
        huffs = tuple(m for m in self.legal if m.startswith(move + "/"))
        if lost is None:
            if can_capture and mode == _FORCED:
                raise self.illegal("move.capture-compulsory")
            if len(huffs) == 1:
                return huffs[0]
            if huffs:
                raise self.illegal("oska.name-the-forfeit", choices=huffs)
            return None
        if mode != _HUFF:
            raise self.illegal("oska.forfeit-only-under-huff")
        if not can_capture:
            raise self.illegal("oska.forfeit-without-capture")
        if lost == SQUARES[squares[0]] and f"{move}/{SQUARES[squares[1]]}" in huffs:
            raise self.illegal("oska.forfeit-by-new-square", named=f"{move}/{SQUARES[squares[1]]}")
        raise self.illegal("oska.forfeit-not-a-capturer", square=lost, choices=huffs)

    def name_the_removal(self, move: str) -> IllegalMove:
        """A move written without the removal that is due before it (huff-opponent)."""
        with_it = [m for m in self.legal if m.endswith(":" + move)]
        return self.illegal(
            "oska.name-the-removal",
            squares=self.state.forfeitable(),
            opponent=Side(self.state._side ^ 1),
            example=(with_it or self.legal)[0],
        )


# ---------------------------------------------------------------- positions


def start(variant: Variant) -> OskaState:
    """Blue's four stones on row 1, Red's on row 5, Blue to move."""
    return OskaState(variant, _ROW1, _ROW5, Side.FIRST)


def from_text(text: str, variant: Variant) -> OskaState:
    """Read a position written as `OskaState.to_text` writes it (moves=()).

    Five board lines, rows 5 down to 1, then a line `Blue to move` or
    `Red to move`, and under capture=huff-opponent perhaps a line naming the
    opponent's forfeited stones the side to move removes one of first
    (`Red removes one of: a1, c3`)::

        5  r . . r
        4   . . .
        3    . b
        2   . . .
        1  b . b .
        Blue to move

    A board line is an optional row number (which must be the expected row)
    followed by the row's squares from file a to g: `b` a Blue stone, `r` a Red
    stone, `.` an empty square (4, 3, 2, 3 and 4 of them). Spaces between and
    around the squares, blank lines, and letter case do not matter. Each side
    has at most 4 stones. Raises PositionError, saying what is wrong.
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) not in (6, 7):
        raise PositionError("oska.position.lines", count=len(lines))
    blue = red = 0
    for row, line in zip(range(5, 0, -1), lines, strict=False):
        cells = "".join(line.split()).lower()
        if cells[:1].isdigit():
            if cells[0] != str(row):
                raise PositionError("oska.position.row-number", line=line, row=row)
            cells = cells[1:]
        squares = [i for i, (_, r) in enumerate(_COORD) if r == row]
        if len(cells) != len(squares):
            raise PositionError(
                "oska.position.row-length",
                row=row,
                squares=_ROW_LENGTHS[row],
                count=len(cells),
                line=line,
            )
        for i, cell in zip(squares, cells, strict=True):
            if cell == "b":
                blue |= 1 << i
            elif cell == "r":
                red |= 1 << i
            elif cell != ".":
                raise PositionError("oska.position.cell", cell=cell, row=row)
    for name, mask in zip(_NAMES, (blue, red), strict=True):
        if mask.bit_count() > 4:
            raise PositionError("oska.position.too-many", side=name, count=mask.bit_count())
    mover = " ".join(lines[5].split()).lower()
    if mover not in ("blue to move", "red to move"):
        raise PositionError("oska.position.mover", line=lines[5])
    side = Side.FIRST if mover.startswith("blue") else Side.SECOND
    pending = _removal_line(lines[6], side, blue if side else red, variant) if len(lines) > 6 else 0
    return OskaState(variant, blue, red, side, forfeitable=pending)


_REMOVAL_LINE = re.compile(r"(blue|red) removes one of:(.*)")


def _removal_line(line: str, side: Side, opponents: int, variant: Variant) -> int:
    """The mask of a line `Red removes one of: a1, c3` (the side to move, the opponent's stones)."""
    found = _REMOVAL_LINE.fullmatch(" ".join(line.split()).lower())
    if found is None or found.group(1) != _NAMES[side].lower():
        raise PositionError("oska.position.removal", line=line, side=Side(side))
    if variant["capture"] != "huff-opponent":
        raise PositionError("oska.position.removal-variant", line=line)
    mask = 0
    for name in found.group(2).replace(",", " ").split():
        if name not in INDEX or not opponents >> INDEX[name] & 1:
            raise PositionError(
                "oska.position.removal-square", square=name, opponent=Side(side ^ 1)
            )
        mask |= 1 << INDEX[name]
    if not mask:
        raise PositionError("oska.position.removal", line=line, side=Side(side))
    return mask


SPEC = GameSpec(
    name="oska",
    title="Oska",
    side_names=("Blue", "Red"),
    options=OPTIONS,
    start=start,
    from_text=from_text,
)
