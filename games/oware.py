"""Oware (Abapa), the tournament rules of games/RULES.md.

Two rows of six pits, 4 seeds in each. South (the first player) owns pits
`A`-`F`, North `a`-`f`; sowing runs A -> F -> a -> f -> A, skipping the origin
pit when it held 12 or more seeds. The last seed landing on the opponent's row
in a pit that then holds 2 or 3 captures it and the unbroken run of 2s and 3s
before it on that row. A player must feed an opponent who has no seeds.

The game ends when a player has captured 25 seeds (the board is not handed
out), when the player to move has no seeds, when the opponent has none and
cannot be fed, or when a position (pits, stores, player to move) occurs a second
time; in the last three cases each player captures the seeds on their own row,
and the final state shows them in the stores with the pits empty, so pits and
stores always hold 48 seeds.

Variants:

- `grandslam`: a move whose captures would leave the opponent's row empty.
  `forbidden` (default): it may not be played, unless every move left is one,
  and then it captures nothing. `nocapture`: it may be played and captures
  nothing. `opponent-takes`: it captures, and the starved player takes every
  seed left on the mover's row as part of the same move.
- `must-play-12` (`off` by default): a move that takes one of a player's pits
  from 11 or fewer seeds to more than 11 obliges that player to play a pit of
  more than 11 seeds on their next turn.

The restrictions apply in the order feeding, must-play-12, grand slam. A move
is written as its pit's letter, case-sensitive: `C` (South), `d` (North).
"""

from __future__ import annotations

from operator import add

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
        key="grandslam",
        values=("forbidden", "nocapture", "opponent-takes"),
        default="forbidden",
    ),
    VariantOption(
        key="must-play-12",
        values=("off", "on"),
        default="off",
    ),
)

SEEDS = 48
PITS = "ABCDEFabcdef"
SIDE_NAMES = ("South", "North")
_INDEX = {letter: index for index, letter in enumerate(PITS)}
_LETTERS = tuple(PITS)
_OTHER = (Side.SECOND, Side.FIRST)
_ROWS = (range(0, 6), range(6, 12))
NEED = tuple(6 - index % 6 for index in range(12))
"""Seeds a pit needs for its sowing to reach the opponent's row."""
EMPTY = (0,) * 12
"""The pits of a finished, shared-out game."""
_OBLIGATION = "must play a pit with more than 11 seeds"

# Grand-slam rules (OwareState.grandslam).
FORBIDDEN, NOCAPTURE, OPPONENT_TAKES = 0, 1, 2
_GRANDSLAM = {"forbidden": FORBIDDEN, "nocapture": NOCAPTURE, "opponent-takes": OPPONENT_TAKES}

# Why a game ended with the seeds shared out (OwareState.ending; 0: it did not, or not that way).
REPEATED, NO_SEEDS, CANNOT_FEED = 1, 2, 3


# ------------------------------------------------------------ the search kernel
#
# The module functions and tables below are the rules on bare pit tuples;
# `OwareState` plays through them and so does the AI (games/ai/oware_game.py).


def _sowing_tables() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]:
    """What sowing n seeds from each pit adds to every pit, and where the last seed lands.

    `delta[origin][n]` holds -n at the origin, so adding it to the pits sows the
    move in one step; `last[origin][n]` is the pit of the last seed.
    """
    delta = []
    last = []
    for origin in range(12):
        deltas = []
        lasts = []
        for n in range(SEEDS + 1):
            laps, rest = divmod(n, 11)  # 11 pits, the origin is skipped
            added = [laps] * 12
            added[origin] = -n
            for step in range(1, rest + 1):
                added[(origin + step) % 12] += 1
            deltas.append(tuple(added))
            lasts.append((origin + (rest or 11)) % 12)
        delta.append(tuple(deltas))
        last.append(tuple(lasts))
    return tuple(delta), tuple(last)


DELTA, LAST = _sowing_tables()
"""DELTA[origin][n]: what sowing n seeds from origin adds to each pit; LAST[origin][n]: the
pit its last seed lands in."""


def sow(pits: tuple[int, ...], origin: int) -> tuple[list[int], int, int]:
    """The pits after sowing `origin`, and the pits `low:high` its captures would take.

    `low == high == 0` when the move captures nothing. Captures run back from
    the last seed's pit and stay on the opponent's row.
    """
    n = pits[origin]
    new = list(map(add, pits, DELTA[origin][n]))
    last = LAST[origin][n]
    start = 6 if origin < 6 else 0
    if not start <= last < start + 6 or new[last] not in (2, 3):
        return new, 0, 0
    low = last
    while low > start and new[low - 1] in (2, 3):
        low -= 1
    return new, low, last + 1


def is_grand_slam(new: list[int], low: int, high: int) -> bool:
    """Whether capturing `low:high` empties the row it lies on."""
    if low == high:
        return False
    start = 6 if low >= 6 else 0
    return not any(new[start:low]) and not any(new[high : start + 6])


def would_grand_slam(pits: tuple[int, ...], origin: int) -> bool:
    """Whether playing `origin` would capture every seed of the opponent's row."""
    n = pits[origin]
    last = LAST[origin][n]
    if (last < 6) == (origin < 6) or pits[last] + DELTA[origin][n][last] not in (2, 3):
        return False  # cheap test first: the last seed captures nothing
    return is_grand_slam(*sow(pits, origin))


def _can_feed(pits: tuple[int, ...], side: int) -> bool:
    return any(pits[index] >= NEED[index] for index in _ROWS[side])


def capture(
    new: list[int], stores: tuple[int, int], side: int, low: int, high: int, takes: bool
) -> tuple[int, int]:
    """Empty the captured pits `low:high` (and the mover's row when the starved
    opponent takes it) into the stores; return the stores."""
    gained = [0, 0]
    gained[side] = sum(new[low:high])
    new[low:high] = EMPTY[low:high]
    if takes:
        row = slice(6 * side, 6 * side + 6)
        gained[1 - side] = sum(new[row])
        new[row] = EMPTY[:6]
    return (stores[0] + gained[0], stores[1] + gained[1])


def starved(pits: tuple[int, ...], mover: int) -> int:
    """After `mover`'s move: NO_SEEDS, CANNOT_FEED or 0 (the game goes on)."""
    nxt = 1 - mover
    if not any(pits[6 * nxt : 6 * nxt + 6]):
        return NO_SEEDS
    if not any(pits[6 * mover : 6 * mover + 6]) and not _can_feed(pits, nxt):
        return CANNOT_FEED
    return 0


_ENDINGS = {REPEATED: Termination.REPETITION, NO_SEEDS: Termination.NO_SEEDS,
            CANNOT_FEED: Termination.CANNOT_FEED}  # fmt: skip


class OwareState:
    """One Oware position with the moves that led to it. Immutable.

    `pits` holds the 12 counts in sowing order A..F then a..f, `stores` the
    seeds South and North have captured, `obliged` whether South and North
    must play a pit of more than 11 seeds on their next turn (must-play-12).
    Make states with `start`, `from_text` and `play`: only they set the
    fields; the legal moves are computed once, on first use.
    """

    __slots__ = (
        "_ending",
        "_grandslam",
        "_history",
        "_legal",
        "_moves",
        "_must_play_12",
        "_obliged",
        "_pits",
        "_side",
        "_stores",
        "_variant",
    )

    _variant: Variant
    _pits: tuple[int, ...]
    _stores: tuple[int, int]
    _side: Side
    _obliged: tuple[bool, bool]
    _moves: tuple[str, ...]
    # The pits of every position since the stores last changed, this one last;
    # a position can only come back while the stores stay the same.
    _history: tuple[tuple[int, ...], ...]
    _ending: int
    _grandslam: int
    _must_play_12: bool
    _legal: tuple[str, ...] | None

    # ------------------------------------------------------------- reading

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def pits(self) -> tuple[int, ...]:
        """The seeds in each pit, A..F then a..f."""
        return self._pits

    @property
    def stores(self) -> tuple[int, int]:
        """The seeds South and North have captured."""
        return self._stores

    @property
    def to_move(self) -> Side:
        return self._side

    @property
    def obliged(self) -> tuple[bool, bool]:
        """Whether South, North must play a pit of more than 11 seeds next turn."""
        return self._obliged

    @property
    def moves(self) -> tuple[str, ...]:
        """The canonical moves played since the position the state started from."""
        return self._moves

    # The fields as the search kernel (games/ai/) reads them.

    @property
    def history(self) -> tuple[tuple[int, ...], ...]:
        """The pits of every position since the stores last changed, this one last."""
        return self._history

    @property
    def ending(self) -> int:
        """REPEATED, NO_SEEDS or CANNOT_FEED when `play` shared the rows out, else 0."""
        return self._ending

    @property
    def grandslam(self) -> int:
        """The variant's grand-slam rule: FORBIDDEN, NOCAPTURE or OPPONENT_TAKES."""
        return self._grandslam

    @property
    def must_play_12(self) -> bool:
        """Whether the variant plays must-play-12."""
        return self._must_play_12

    # ------------------------------------------------------------- moves

    def legal_moves(self) -> tuple[str, ...]:
        """The pits the player to move may play, in order; empty when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(map(_LETTERS.__getitem__, self._generate()))
        return legal

    def _generate(self) -> list[int]:
        stores = self._stores
        if self._ending or stores[0] > 24 or stores[1] > 24:
            return []
        pits = self._pits
        side = self._side
        moves = [index for index in _ROWS[side] if pits[index]]
        if not moves:
            return []
        start = 6 - 6 * side
        if not any(pits[start : start + 6]):
            moves = [index for index in moves if pits[index] >= NEED[index]]
            if not moves:
                return []
        if self._must_play_12 and self._obliged[side]:
            # Never empty in a reachable position: the pit that grew past 11
            # stays so until played, and from_text checks it.
            moves = [index for index in moves if pits[index] > 11] or moves
        if self._grandslam == FORBIDDEN:
            moves = [index for index in moves if not would_grand_slam(pits, index)] or moves
        return moves

    def parse_move(self, text: str) -> str:
        """The canonical text of a legal move; raises MalformedMove or IllegalMove."""
        legal = self.legal_moves()
        move = text.strip()
        if move in legal:
            return move
        if not move:
            raise MalformedMove(text, "oware.empty", legal)
        if move not in _INDEX:
            raise MalformedMove(text, "oware.not-a-pit", legal, pit=move)
        if not legal:
            raise IllegalMove(text, "oware.game-over", legal, pit=move)
        code, params = self._why_illegal(move)
        raise IllegalMove(text, code, legal, pit=move, **params)

    def _why_illegal(self, move: str) -> tuple[str, dict[str, object]]:
        """Why the pit `move` (the code's `pit`) may not be played: the code and its
        other parameters (the side names)."""
        index = _INDEX[move]
        side = self._side
        pits = self._pits
        mover, opponent = Side(side), Side(1 - side)
        if index // 6 != side:
            row = "A-F" if side == 0 else "a-f"
            return "oware.opponents-pit", {"mover": mover, "opponent": opponent, "row": row}
        if not pits[index]:
            return "oware.empty-pit", {}
        start = 6 - 6 * side
        if not any(pits[start : start + 6]) and pits[index] < NEED[index]:
            return "oware.must-feed", {"opponent": opponent}
        if self._must_play_12 and self._obliged[side] and pits[index] <= 11:
            return "oware.must-play-12", {}
        if self._grandslam == FORBIDDEN and would_grand_slam(pits, index):
            return "oware.grand-slam", {"opponent": opponent}
        return "oware.not-legal", {}  # not reached: the checks above are the rules

    def _resolve(self, origin: int) -> tuple[list[int], int, int, bool]:
        """Sow a legal move: the pits after sowing, the pits `low:high` it
        captures, and whether the starved opponent takes the mover's row."""
        new, low, high = sow(self._pits, origin)
        if is_grand_slam(new, low, high):
            if self._grandslam != OPPONENT_TAKES:
                # nocapture; or forbidden, where a legal grand slam is one of
                # the moves left when all are.
                return new, 0, 0, False
            return new, low, high, True
        return new, low, high, False

    def play(self, move: str) -> OwareState:
        """The state after `move`; raises MalformedMove or IllegalMove."""
        if move not in self.legal_moves():
            move = self.parse_move(move)
        side = self._side
        new, low, high, takes = self._resolve(_INDEX[move])
        stores = capture(new, self._stores, side, low, high, takes) if high else self._stores

        obliged = self._obliged
        if self._must_play_12:
            grew = [before <= 11 < now for before, now in zip(self._pits, new, strict=True)]
            if side:
                obliged = (obliged[0] or any(grew[:6]), any(grew[6:]))
            else:
                obliged = (any(grew[:6]), obliged[1] or any(grew[6:]))

        pits = tuple(new)
        if high:  # the stores changed: no earlier position can come back
            repeated = False
            history: tuple[tuple[int, ...], ...] = (pits,)
        else:  # positions with the same player to move lie two apart
            repeated = pits in self._history[-2::-2]
            history = (*self._history, pits)

        ending = 0
        if stores[0] < 25 and stores[1] < 25:
            ending = REPEATED if repeated else starved(pits, side)
        if ending:
            stores = (stores[0] + sum(pits[:6]), stores[1] + sum(pits[6:]))
            pits = EMPTY
        if ending or stores[0] > 24 or stores[1] > 24:
            obliged = (False, False)
        after = object.__new__(OwareState)
        after._variant = self._variant
        after._pits = pits
        after._stores = stores
        after._side = _OTHER[side]
        after._obliged = obliged
        after._moves = (*self._moves, move)
        after._history = history
        after._ending = ending
        after._grandslam = self._grandslam
        after._must_play_12 = self._must_play_12
        after._legal = None
        return after

    def describe(self, move: str) -> MoveInfo:
        """The pit emptied, and the pits whose seeds the move captures in sowing
        order (under grandslam=opponent-takes, also the mover's pits the starved
        opponent takes)."""
        move = self.parse_move(move)
        origin = _INDEX[move]
        new, low, high, takes = self._resolve(origin)
        captured = list(range(low, high))
        if takes:
            start = 6 * self._side
            captured += [index for index in range(start, start + 6) if new[index]]
        captured.sort()
        return MoveInfo(move, (move,), tuple(_LETTERS[index] for index in captured))

    # ----------------------------------------------------------- the end

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else who won and why, as a code.

        A share-out's `score` is both players' seeds after it (South's first),
        and `side` the player the reason is about: the one to move without
        seeds (NO_SEEDS) or the one who cannot be fed (CANNOT_FEED).
        """
        south, north = self._stores
        pits = self._pits
        side = self._side
        ending = self._ending  # set when play() shared the rows out
        if not ending:
            if south > 24:
                return Outcome(Side.FIRST, Termination.TWENTY_FIVE, side=Side.FIRST, count=south)
            if north > 24:
                return Outcome(Side.SECOND, Termination.TWENTY_FIVE, side=Side.SECOND, count=north)
            if self.legal_moves():
                return None
            # A finished position read from text: its rows are not shared out yet.
            ending = NO_SEEDS if not any(pits[6 * side : 6 * side + 6]) else CANNOT_FEED
        totals = (south + sum(pits[:6]), north + sum(pits[6:]))
        about = None if ending == REPEATED else side if ending == NO_SEEDS else _OTHER[side]
        winner = Side.FIRST if totals[0] > 24 else Side.SECOND if totals[1] > 24 else None
        return Outcome(winner, _ENDINGS[ending], side=about, score=totals)

    # ---------------------------------------------------------------- text

    def to_text(self) -> str:
        """The position as text; see `from_text` for the form."""
        pits = self._pits
        north = "".join(f"{pits[index]:3d}" for index in range(11, 5, -1))
        south = "".join(f"{pits[index]:3d}" for index in range(6))
        lines = [
            f"North  f  e  d  c  b  a     store {self._stores[1]}",
            f"     {north}",
            f"     {south}",
            f"South  A  B  C  D  E  F     store {self._stores[0]}",
            f"{SIDE_NAMES[self._side]} to move",
        ]
        lines += [f"{SIDE_NAMES[side]} {_OBLIGATION}" for side in (0, 1) if self._obliged[side]]
        return "\n".join(lines)

    # ------------------------------------------------------------ identity

    def _key(self) -> tuple[object, ...]:
        # What makes two states equal: the position, the variant and the moves;
        # the history and the caches follow from them.
        return (self._variant, self._pits, self._stores, self._side, self._obliged, self._moves)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OwareState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"OwareState({self.to_text()!r}, moves={self._moves!r})"


def _rules(variant: Variant) -> tuple[int, bool]:
    if variant.options != OPTIONS:
        raise ValueError(f"not an Oware variant: {variant}")
    return _GRANDSLAM[variant["grandslam"]], variant["must-play-12"] == "on"


def _position(
    variant: Variant,
    pits: tuple[int, ...],
    stores: tuple[int, int],
    to_move: Side,
    obliged: tuple[bool, bool] = (False, False),
) -> OwareState:
    state = object.__new__(OwareState)
    state._variant = variant
    state._pits = pits
    state._stores = stores
    state._side = to_move
    state._obliged = obliged
    state._moves = ()
    state._history = (pits,)
    state._ending = 0
    state._grandslam, state._must_play_12 = _rules(variant)
    state._legal = None
    return state


def start(variant: Variant) -> OwareState:
    """The opening position: 4 seeds in every pit, South to move."""
    return _position(variant, (4,) * 12, (0, 0), Side.FIRST)


def _label_line(words: list[str], side: str, letters: str, code: str) -> int:
    if (
        len(words) != 9
        or words[0].lower() != side.lower()
        or words[1:7] != list(letters)
        or words[7].lower() != "store"
        or not words[8].isdecimal()
    ):
        raise PositionError(code)
    return int(words[8])


def _count_line(words: list[str], side: str) -> list[int]:
    if len(words) != 6 or not all(word.isdecimal() for word in words):
        raise PositionError("oware.position.counts", side=side)
    return [int(word) for word in words]


def _side_named(word: str, line: str) -> Side:
    for side in Side:
        if word.lower() == SIDE_NAMES[side].lower():
            return side
    raise PositionError("oware.position.side-name", line=line)


def from_text(text: str, variant: Variant) -> OwareState:
    """Read a position written by `to_text` (moves = ()).

    Five lines, blank lines and extra spaces ignored, keywords in any case::

        North  f  e  d  c  b  a     store 0
               4  4  4  4  4  4
               4  4  4  4  4  4
        South  A  B  C  D  E  F     store 0
        South to move

    North's counts are written f..a (as South sees the board), South's A..F.
    Under must-play-12=on a line `South must play a pit with more than 11
    seeds` (or North) follows for each player so obliged. Pits and stores must
    hold 48 seeds, and an obliged player must have such a pit. A finished
    position is accepted; its seeds are shared out only in `outcome()`.
    Raises PositionError.
    """
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines) < 5:
        raise PositionError("oware.position.short")
    north_store = _label_line(lines[0], "North", "fedcba", "oware.position.first-line")
    north = _count_line(lines[1], "North")
    south = _count_line(lines[2], "South")
    south_store = _label_line(lines[3], "South", "ABCDEF", "oware.position.fourth-line")
    turn = lines[4]
    if len(turn) != 3 or [word.lower() for word in turn[1:]] != ["to", "move"]:
        raise PositionError("oware.position.fifth-line")
    to_move = _side_named(turn[0], " ".join(turn))
    pits = (*south, *reversed(north))
    must_play_12 = _rules(variant)[1]
    obliged = [False, False]
    for words in lines[5:]:
        line = " ".join(words)
        if " ".join(words[1:]).lower() != _OBLIGATION:
            raise PositionError("oware.position.unknown-line", line=line)
        side = _side_named(words[0], line)
        if not must_play_12:
            raise PositionError("oware.position.rule-off", line=line)
        if not any(pits[index] > 11 for index in _ROWS[side]):
            raise PositionError("oware.position.no-big-pit", line=line, side=Side(side))
        obliged[side] = True
    total = sum(pits) + north_store + south_store
    if total != SEEDS:
        raise PositionError("oware.position.seeds", total=total, seeds=SEEDS)
    return _position(variant, pits, (south_store, north_store), to_move, (obliged[0], obliged[1]))


SPEC = GameSpec(
    name="oware",
    title="Oware",
    side_names=("South", "North"),
    options=OPTIONS,
    start=start,
    from_text=from_text,
)
