"""Post-game review: what each move of a game changed, and the moves that lost most.

    review_game(game, variant, moves, budget=BUDGET, deep=False) -> Review
    judge(state, move) -> PlyReview                                  # one move
    score_moves(state, budget=BUDGET, played=None) -> (scores, source, depth)

Every ply is judged from its mover's view by scoring the move played and a best
move of the position before it: `before` is the best move's score, `after` the
played move's, `loss` their difference in points and `drop` the expected score
it cost. Scores come from

- Oska: the solved table (`oska_solver`), exact: win, draw or loss and the
  distance in plies. A variant the table does not hold (`oska_solver.solves`)
  is searched by the Python search (material: 100 a stone).
- Oware: the endgame tables (`oware_tables`, when its file is there) once
  the seeds on the board are few enough and the position and every position
  after a legal move have an exact value (the same whatever the game's
  history, under the repetition rule: `oware_tables.exact`): the final margin
  in seeds (the seeds on the board counted as the tables count them), marked
  `exact`. Otherwise a search, as Lasca.
- Lasca (and Oware outside the tables): the C kernels' full-width alpha-beta
  (`games.ai.full_width`: material at the horizon, a game's end exact), the
  played move and a best one scored exactly. The quick review searches every
  position `QUICK` plies deep (Oware 8, Lasca 6: a long game in seconds); the
  deep one (`deep=True`, made after it in the background) starts 2 plies deeper
  and goes 2 more at a time while the position's `DEEP` budget (1.5 s) is
  likely to allow (Oware 10 to 16, Lasca 8 to 14). Each ply keeps the depth it reached.
  Without the kernels (no C compiler) the Python search of `DEPTHS` is used.

A score is in hundredths of the game's unit (a seed, a soldier, a stone) and
proves a result only when it comes from a table or the search saw a forced
win or loss inside its horizon.

Expected score: a proven result is 1, a half or 0; a search score is
1 / (1 + e^(-points / K)) with K per game (`CURVE`), fitted on self-play
games at the quick depth (`games.ai.fit_review`, its command and figures at
`CURVE`). Oware and Lasca are marked by the expected score a move lost
against the best (`DROPS`): at least 0.05 an inaccuracy, 0.10 a mistake,
0.20 a blunder (lichess's winning-chance steps of 0.1 and 0.2 halved for the
first two, as its scale is twice ours; a blunder a fifth of a game). So a move
that throws a proven win away (1 to a half or less) is a blunder; a move that
keeps a won position won is never marked, however many seeds it gives back.

Oska is marked as before, on the solved table's results: win -> loss a
`blunder`; win -> draw and draw -> loss `mistake`s; a win at least `SLOWER`
plies slower or a loss that many plies sooner an `inaccuracy`; by search (a
variant the table does not hold) by the loss in points (`THRESHOLDS`: 0.6,
1.5 and 3 stones).

A verdict *rests on exact values* (`PlyReview.exact`) when both of its scores
came from the solved table or the Oware endgame tables. A ply with one legal
move is never marked. Everything returned is a plain frozen dataclass, so a
review can be computed in a worker process.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import oska as oska_engine
from games import oware as oware_engine
from games.ai import full_width, oska_player, oska_solver, oware_tables, search_player
from games.ai.adapters import searchable
from games.ai.oska_game import rules_of
from games.ai.oware_game import OwarePos, OwareRules, from_state
from games.ai.search import MATE_ZONE, WIN, Searcher, Timeout
from games.base import GameState, Side
from games.registry import get

BUDGET = 2.0
"""The most seconds the search spends on one position (a cap, not a target)."""
DEPTHS: dict[str, int] = {"oware": 8, "lasca": 6, "oska": 8}
QUIESCENCE: dict[str, int] = {"oware": 4, "lasca": 4, "oska": 0}
PROVEN = 10_000
"""The points of a proven win (less one per ply to it) where a result has no margin."""
SLOWER = 4
MARKS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class Depths:
    """How deep the kernels search a position: `first` plies, then 2 more at a time while
    the position's `budget` (seconds) is likely to allow the next, up to `last`."""

    first: int
    last: int
    budget: float = 0.0


QUICK: dict[str, Depths] = {"oware": Depths(8, 8), "lasca": Depths(6, 6)}
DEEP: dict[str, Depths] = {"oware": Depths(10, 16, 1.5), "lasca": Depths(8, 14, 1.5)}
"""Always 2 plies deeper than the quick review at least, more where the budget allows."""
GROWTH = 4.0
"""A depth 2 plies deeper is taken to cost this many times the last (before one is timed)."""
CURVE: dict[str, float] = {"oware": 486.0, "lasca": 473.0}
"""K of the expected score 1 / (1 + e^(-points / K)), points for the side to move, fitted
by `python -m games.ai.fit_review --game G --games 300 --seed 1` (300 self-play games at
the quick depth, the first 225 fit, 75 check). Oware: K 486 (4.9 seeds for 73 %), the
check games' cross-entropy 0.570 against 0.693 for a half always (K fitted on them alone
434). Lasca: K 473, check 0.537 (alone 424). Both calibrated within 0.02 between 0.1 and
0.9, too cautious beyond (Oware predicted 0.065, seen 0.006; 0.935, seen 0.992)."""
UNITS: dict[str, int] = {"oware": 100, "lasca": 1}
"""Points (hundredths of a seed, of a soldier) in one unit of the kernels' values."""
CURVE_UNITS = 10
"""A search score of this many units (10 seeds, 10 soldiers) is the curve's full height."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The loss in points from which a move is an inaccuracy, a mistake, a blunder."""

    inaccuracy: int
    mistake: int
    blunder: int


THRESHOLDS: dict[str, Thresholds] = {"oska": Thresholds(60, 150, 300)}
"""Oska's, by search; Oware and Lasca are marked by the expected score lost (`DROPS`)."""


@dataclass(frozen=True, slots=True)
class Drops:
    """The expected score lost from which a move is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float


DROPS = Drops(0.05, 0.10, 0.20)


@dataclass(frozen=True, slots=True)
class Score:
    """A position's (or a move's) worth from one side's view.

    `points`: hundredths of the game's unit; for a proven result without a
    margin (Oska, a forced result the search saw) `PROVEN` less one per ply
    to the win, its negative for a loss, 0 for a draw; in the Oware tables
    100 times the final margin in seeds. `result`: 1, 0 or -1 when proven,
    else None. `plies`: the distance to the proven result with best play,
    when known. `exact`: from the solved table or the endgame tables.
    """

    points: int
    result: int | None = None
    plies: int | None = None
    exact: bool = False

    def negated(self) -> Score:
        result = None if self.result is None else -self.result
        return Score(-self.points, result, self.plies, self.exact)


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One move of the game judged from its mover's view.

    `ply` is its 0-based index in the move list; `best` a best move of the
    position (the move played when it is one of them); `before` the
    position's score (the best move's), `after` the played move's; `loss`
    their difference in points (never negative); `mark` None or one of
    MARKS; `source` where the scores came from: `table` (Oska's solved
    table), `tables` (Oware's endgame tables) or `search`; `depth` the search
    depth finished (0 for the tables); `forced` whether it was the only move;
    `drop` the expected score the move lost against the best (0 to 1).
    """

    ply: int
    mover: Side
    played: str
    best: str
    before: Score
    after: Score
    loss: int
    mark: str | None
    source: str
    depth: int
    forced: bool
    drop: float = 0.0

    @property
    def exact(self) -> bool:
        """Whether the verdict rests on exact values: both scores from a table."""
        return self.before.exact and self.after.exact


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game's review.

    `plies` has one entry per move. `curve` is the first player's advantage
    before the first move and after each move (`len(moves) + 1` values in
    [-1, 1]; after a move the mean of the move's score and the next position's,
    which see the same position from either side): twice the expected score
    less 1 (a proven win 1, a proven loss -1, a draw 0); Oska by search scaled
    so that `CURVE_UNITS` stones is 1 and clipped. `unit` names what the
    points count: `result` (solved Oska), `seeds`, `soldiers` or `stones`.
    `deep`: the deep review (module docstring), made after the quick one.
    """

    game: str
    variant: str
    plies: tuple[PlyReview, ...]
    curve: tuple[float, ...]
    unit: str
    deep: bool = False

    @property
    def stage(self) -> str | None:
        """`deep`, `quick` (a deep one is to come: `deepens`), or None (nothing deeper)."""
        return "deep" if self.deep else "quick" if deepens(self.game) else None

    def depths(self) -> tuple[int, int] | None:
        """The least and the most depth the search reached, None where nothing was searched."""
        found = [entry.depth for entry in self.plies if entry.source == "search"]
        return (min(found), max(found)) if found else None

    def marked(self, side: Side | None = None) -> tuple[PlyReview, ...]:
        """The marked plies, of one side or both, in game order."""
        return tuple(
            entry
            for entry in self.plies
            if entry.mark is not None and (side is None or entry.mover == side)
        )

    def counts(self, side: Side) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders `side` made."""
        found = {mark: 0 for mark in MARKS}
        for entry in self.marked(side):
            assert entry.mark is not None
            found[entry.mark] += 1
        return found


# ------------------------------------------------------------------ entry


def review_game(
    game: str,
    variant: str,
    moves: Sequence[str],
    budget: float = BUDGET,
    deep: bool = False,
    depths: Depths | None = None,
) -> Review:
    """The review of `game` (a registry name) under `variant` (`key=value` text) after
    `moves`, quick or `deep` (`depths`, when given, instead of the game's `QUICK` or
    `DEEP`); the engine's GameError for a game, variant or move it refuses."""
    plies = review_plies(game, variant, moves, 0, len(moves), budget, deep, depths)
    return assemble(game, variant, plies, deep)


def deepens(game: str) -> bool:
    """Whether a deep review of `game` sees more than the quick one (the kernels built)."""
    return game in DEEP and full_width.kernels_built()


def review_plies(
    game: str,
    variant: str,
    moves: Sequence[str],
    start: int,
    stop: int,
    budget: float = BUDGET,
    deep: bool = False,
    depths: Depths | None = None,
) -> tuple[PlyReview, ...]:
    """The judged moves `start` to `stop` (not included) of a game: a part of its review
    that one worker job makes, so that a long review never holds a worker for long."""
    spec = get(game)
    plan = depths or (DEEP if deep else QUICK).get(spec.name)
    state = spec.new(variant)
    entries: list[PlyReview] = []
    for ply, move in enumerate(moves[:stop]):
        played = state.parse_move(move)
        legal = state.legal_moves()
        if played not in legal:
            state.play(played)  # raises the engine's own error
        if ply >= start:
            entries.append(judge(state, played, ply, budget, plan))
        state = state.play(played)
    return tuple(entries)


def judge(
    state: GameState,
    played: str,
    ply: int = 0,
    budget: float = BUDGET,
    depths: Depths | None = None,
) -> PlyReview:
    """The move `played` (canonical text) of `state` judged from its mover's view, as the
    review's ply `ply` (`depths` for the kernels, default the game's `QUICK`)."""
    legal = state.legal_moves()
    scores, source, depth = score_moves(state, budget, played, depths)
    return _judge(state.spec.name, ply, state.to_move, played, legal, scores, source, depth)


def assemble(game: str, variant: str, entries: Sequence[PlyReview], deep: bool = False) -> Review:
    """The review made of all of a game's judged moves, in order."""
    spec = get(game)
    unit = _unit(spec.name, spec.new(variant))
    curve = _curve(spec.name, entries)
    return Review(spec.name, str(spec.variant(variant)), tuple(entries), curve, unit, deep)


def to_json(review: Review) -> str:
    """The review as compact JSON, to be kept (read back by `from_json`)."""
    return json.dumps(dataclasses.asdict(review), separators=(",", ":"))


def from_json(text: str) -> Review:
    """A review kept by `to_json`."""
    data = json.loads(text)

    def score(raw: dict[str, Any]) -> Score:
        return Score(**raw)

    def ply(raw: dict[str, Any]) -> PlyReview:
        judged = {"mover": Side(raw["mover"]), "before": score(raw["before"])}
        return PlyReview(**{**raw, **judged, "after": score(raw["after"])})

    plies = tuple(ply(entry) for entry in data["plies"])
    return Review(
        data["game"],
        data["variant"],
        plies,
        tuple(data["curve"]),
        data["unit"],
        data.get("deep", False),  # kept before deep reviews: a quick one
    )


def _unit(game: str, state: GameState) -> str:
    if game == "oska":
        return "result" if oska_solver.solves(*rules_of(state.variant)) else "stones"
    return {"oware": "seeds", "lasca": "soldiers"}.get(game, "points")


# ---------------------------------------------------------------- scoring


def kernel_points(game: str, value: int) -> int:
    """A kernel's value (`games.ai.full_width`) in the review's points."""
    return value * UNITS[game]


Scores = dict[str, Score]


def score_moves(
    state: GameState,
    budget: float = BUDGET,
    played: str | None = None,
    depths: Depths | None = None,
) -> tuple[Scores, str, int]:
    """The legal moves of `state` scored from its mover's view, where the scores came
    from (`table`, `tables`, `search`) and the search depth finished (0 for the tables).
    The tables and the Python search score every move; the kernels (`depths`, default
    the game's `QUICK`) only `played` and a best move, exactly."""
    if isinstance(state, oska_engine.OskaState) and oska_solver.solves(*rules_of(state.variant)):
        return _oska_scores(state), "table", 0
    if isinstance(state, oware_engine.OwareState):
        exact = _oware_table_scores(state)
        if exact is not None:
            return exact, "tables", 0
    game = state.spec.name
    if game in QUICK and full_width.kernels_built():
        return _kernel_scores(game, state, played, depths or QUICK[game])
    return _search_scores(game, state, budget)


def _kernel_scores(
    game: str, state: GameState, played: str | None, depths: Depths
) -> tuple[Scores, str, int]:
    """The kernels' exact values of `played` and a best move, at the deepest depth of
    `depths` the position's budget allows (the first always)."""
    first = (played,) if played is not None else ()
    started = time.perf_counter()
    depth, took, last_took = depths.first, 0.0, 0.0
    while True:
        began = time.perf_counter()
        values, _ = full_width.root_values(state, depth, first)
        last_took, took = took, time.perf_counter() - began
        if depth + 2 > depths.last:
            break
        if all(abs(value) >= full_width.SEARCH_WIN for value in values.values()):
            break  # forced results stay forced deeper
        growth = took / last_took if last_took > 0.01 else GROWTH
        if time.perf_counter() - started + took * max(growth, 1.0) > depths.budget:
            break
        depth += 2
    return {move: _kernel_score(game, value) for move, value in values.items()}, "search", depth


def _kernel_score(game: str, value: int) -> Score:
    if value >= full_width.SEARCH_WIN:
        return Score(PROVEN, 1)
    if value <= -full_width.SEARCH_WIN:
        return Score(-PROVEN, -1)
    return Score(max(-PROVEN + 1000, min(PROVEN - 1000, kernel_points(game, value))))


def _oska_scores(state: oska_engine.OskaState) -> Scores:
    return {move: _solved(value) for move, value in oska_player.move_values(state).items()}


def _solved(value: int) -> Score:
    if value == 0:
        return Score(0, 0, None, True)
    plies = oska_solver.WIN - abs(value)
    sign = 1 if value > 0 else -1
    return Score(sign * (PROVEN - plies), sign, plies, True)


def _search_scores(game: str, state: GameState, budget: float) -> tuple[Scores, str, int]:
    adapter, root = searchable(state)
    deadline = time.perf_counter() + budget
    moves = search_player.root_moves(adapter, root, random.Random(0))
    searcher = Searcher(adapter, deadline=deadline, quiescence=QUIESCENCE.get(game, 4))
    raw = {move: 0 for move in moves}
    done = 0
    for depth in range(1, DEPTHS.get(game, 6) + 1):
        try:
            raw = searcher.root_scores(root, moves, depth)
        except Timeout:
            break
        done = depth
        moves.sort(key=raw.__getitem__, reverse=True)
        if all(abs(value) >= MATE_ZONE for value in raw.values()):
            break  # every move's result is forced: deeper shows nothing new
    return {adapter.text(root, m): _searched(raw[m]) for m in moves}, "search", done


def _searched(value: int) -> Score:
    if value >= MATE_ZONE:
        plies = WIN - value
        return Score(PROVEN - plies, 1, plies)
    if value <= -MATE_ZONE:
        plies = WIN + value
        return Score(-PROVEN + plies, -1, plies)
    return Score(max(-PROVEN + 1000, min(PROVEN - 1000, value)))


# ------------------------------------------------------------ Oware tables


def _oware_table_scores(state: oware_engine.OwareState) -> Scores | None:
    """Every move's exact score from the endgame tables, or None outside them or
    where a value is not exact (it rests on the game's history)."""
    lookup: Lookup = oware_tables.exact
    variant = str(state.variant)
    if not oware_tables.covers(variant) or sum(state.pits) > oware_tables.MAX_SEEDS:
        return None
    rules = OwareRules.of(state)
    root = from_state(state)
    if lookup(_rotated(root), variant) is None:
        return None
    scores: Scores = {}
    for move in rules.legal(root):
        exact = _oware_exact(rules, rules.play(root, move), lookup, variant)
        if exact is None:
            return None
        scores[oware_engine.PITS[move]] = exact.negated()
    return scores


Lookup = Callable[[Sequence[int], str], int | None]


def _rotated(pos: OwarePos) -> tuple[int, ...]:
    """The pits from the side to move's view: its six in sowing order, then the other six."""
    at = 6 * pos.side
    return pos.pits[at:] + pos.pits[:at]


def _oware_exact(rules: OwareRules, pos: OwarePos, lookup: Lookup, variant: str) -> Score | None:
    """A position's exact score for its side to move: the final margin in seeds, the
    seeds on the board counted as the tables count them (all of them, a game ended at
    25 too: its result is the same, and the margins compare with the tables')."""
    side = pos.side
    mine, theirs = pos.stores[side], pos.stores[1 - side]
    board = sum(pos.pits)
    if pos.ending or not board:  # shared out: the stores hold every seed
        taken: int | None = 0
    elif max(pos.stores) <= 24 and not rules.legal(pos):  # each row goes to its owner
        taken = sum(pos.pits[6 * side : 6 * side + 6])
    else:
        taken = lookup(_rotated(pos), variant)
    if taken is None:
        return None
    total, other = mine + taken, theirs + board - taken
    result = 1 if total > 24 else -1 if other > 24 else 0
    return Score(100 * (total - other), result, None, True)


# ---------------------------------------------------------------- judging


def _judge(
    game: str,
    ply: int,
    mover: Side,
    played: str,
    legal: tuple[str, ...],
    scores: Scores,
    source: str,
    depth: int,
) -> PlyReview:
    # The engine's order of moves decides among equal ones, so a review is reproducible.
    ranked = [move for move in legal if move in scores]
    best = max(ranked, key=lambda move: scores[move].points)
    after = scores[played]
    before = scores[best]
    if after.points >= before.points:
        best, before = played, after
    loss = before.points - after.points
    forced = len(legal) == 1
    mark = None if forced else mark_of(game, before, after, loss)
    drop = round(max(0.0, expected(game, before) - expected(game, after)), 4)
    return PlyReview(
        ply, mover, played, best, before, after, loss, mark, source, depth, forced, drop
    )


def mark_of(game: str, before: Score, after: Score, loss: int) -> str | None:
    """The mark of a move that scores `after` where the best scores `before` (module docstring)."""
    if loss <= 0:
        return None
    if game in CURVE:
        drop = round(expected(game, before) - expected(game, after), 4)  # as `PlyReview.drop`
        if drop >= DROPS.blunder:
            return "blunder"
        if drop >= DROPS.mistake:
            return "mistake"
        return "inaccuracy" if drop >= DROPS.inaccuracy else None
    limits = THRESHOLDS.get(game, THRESHOLDS["oska"])
    if before.result is not None and after.result is not None:
        drop = before.result - after.result
        if drop >= 2:
            return "blunder"
        if drop == 1:
            return "mistake"
        if before.plies is not None and after.plies is not None and before.result:
            later = after.plies - before.plies
            slower = later if before.result > 0 else -later
            return "inaccuracy" if slower >= SLOWER else None
        return "inaccuracy" if loss >= limits.mistake else None
    if before.result == 1:
        return "mistake" if after.points >= limits.blunder else "blunder"
    if after.result == -1:
        return "blunder" if before.points > -limits.blunder else "mistake"
    if loss >= limits.blunder:
        return "blunder"
    if loss >= limits.mistake:
        return "mistake"
    return "inaccuracy" if loss >= limits.inaccuracy else None


# ------------------------------------------------------------------ curve


def expected(game: str, score: Score) -> float:
    """A score's expected score for its side, 0 to 1 (module docstring)."""
    if score.result is not None:
        return (score.result + 1) / 2
    if game in CURVE:
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, score.points / CURVE[game]))))
    return (1 + max(-1.0, min(1.0, score.points / (100 * CURVE_UNITS)))) / 2


def advantage(game: str, score: Score) -> float:
    """A score on the curve's scale, [-1, 1] from the same view."""
    if score.result is not None:
        return float(score.result)
    return round(2 * expected(game, score) - 1, 4)


def _curve(game: str, entries: Sequence[PlyReview]) -> tuple[float, ...]:
    """The first player's advantage before the first move and after each."""
    if not entries:
        return (0.0,)

    def first(entry: PlyReview, score: Score) -> float:
        value = advantage(game, score)
        return value if entry.mover == Side.FIRST else -value

    def after(index: int) -> float:
        # The position after a move is scored twice: as the move's score, from its mover's
        # root, and as the next position's best, from the next mover's. A search's horizon
        # favours whoever moves last before it, the two in turn: their mean does not zigzag.
        entry = entries[index]
        if index + 1 == len(entries) or entry.after.exact:
            return first(entry, entry.after)
        following = entries[index + 1]
        if following.before.exact:
            return first(following, following.before)
        both = first(entry, entry.after) + first(following, following.before)
        return round(both / 2, 4)

    return (first(entries[0], entries[0].before), *(after(i) for i in range(len(entries))))
