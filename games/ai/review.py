"""Post-game review: what each move of a game changed, and the moves that lost most.

    review_game(game, variant, moves, budget=BUDGET) -> Review
    score_moves(state, budget=BUDGET) -> (scores, source, depth)   # one position

Every ply is judged from its mover's view by scoring every legal move of the
position before it: `before` is the best move's score, `after` the played
move's, and `loss` their difference. Scores come from

- Oska: the solved table (`oska_solver`), exact: win, draw or loss and the
  distance in plies. A variant the table does not hold (`oska_solver.solves`)
  is searched as below (material: 100 a stone).
- Oware: the endgame tables (`oware_tables`, when its file is there) once
  the seeds on the board are few enough and the position and every position
  after a legal move have an exact value (the same whatever the game's
  history, under the repetition rule: `oware_tables.exact`): the final margin
  in seeds (the seeds on the board counted as the tables count them), marked
  `exact`. Otherwise a search, whose leaves are the tables' positions where
  their bounds settle the result (not marked exact).
- Lasca: a search.

The search scores every root move at a fixed depth per game (`DEPTHS`, with
the capture search past the horizon of `QUIESCENCE`), so a review is the same
every time; `budget` is the most seconds one position may take, and a
position cut by it keeps the scores of its last finished depth. A search
score is in hundredths of the game's unit (a seed, a soldier, a stone) and
proves a result only when it sees a forced win or loss inside its horizon.

Marks, from the mover's view, on the loss of the move played against the best:

- Both scores proven (the solved table, the tables, or forced results the
  search saw): win -> loss is a `blunder`; win -> draw and draw -> loss are
  `mistake`s. With the result kept: a win at least `SLOWER` plies slower or a
  loss that many plies sooner is an `inaccuracy` (Oska, the search); in the
  Oware tables a margin at least the mistake threshold smaller is an
  `inaccuracy`.
- A forced win the search saw and let go: a `mistake` when the position
  stays at least the blunder threshold ahead, else a `blunder`. A move into a
  forced loss the search sees: a `blunder`, a `mistake` when the position was
  already the blunder threshold behind.
- Otherwise by the loss in points (`THRESHOLDS`): Oware 1, 2.5 and 5 seeds;
  Lasca 0.7, 1.5 and 3 soldiers; Oska by search 0.6, 1.5 and 3 stones, for an
  inaccuracy, a mistake and a blunder.

A ply with one legal move is never marked. Everything returned is a plain
frozen dataclass, so a review can be computed in a worker process.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import oska as oska_engine
from games import oware as oware_engine
from games.ai import oska_player, oska_solver, oware_tables, search_player
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
CURVE_UNITS = 10
"""A search score of this many units (10 seeds, 10 soldiers) is the curve's full height."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The loss in points from which a move is an inaccuracy, a mistake, a blunder."""

    inaccuracy: int
    mistake: int
    blunder: int


THRESHOLDS: dict[str, Thresholds] = {
    "oware": Thresholds(100, 250, 500),
    "lasca": Thresholds(70, 150, 300),
    "oska": Thresholds(60, 150, 300),
}


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
    depth finished (0 for the tables); `forced` whether it was the only move.
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


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game's review.

    `plies` has one entry per move. `curve` is the first player's advantage
    before the first move and after each move (`len(moves) + 1` values in
    [-1, 1]): a proven win 1, a proven loss -1, a draw 0, a search score
    scaled so that `CURVE_UNITS` units is 1 and clipped. `unit` names what
    the points count: `result` (solved Oska), `seeds`, `soldiers` or `stones`.
    """

    game: str
    variant: str
    plies: tuple[PlyReview, ...]
    curve: tuple[float, ...]
    unit: str

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


def review_game(game: str, variant: str, moves: Sequence[str], budget: float = BUDGET) -> Review:
    """The review of `game` (a registry name) under `variant` (`key=value` text) after
    `moves`; the engine's GameError for a game, variant or move it refuses."""
    return assemble(game, variant, review_plies(game, variant, moves, 0, len(moves), budget))


def review_plies(
    game: str, variant: str, moves: Sequence[str], start: int, stop: int, budget: float = BUDGET
) -> tuple[PlyReview, ...]:
    """The judged moves `start` to `stop` (not included) of a game: a part of its review
    that one worker job makes, so that a long review never holds a worker for long."""
    spec = get(game)
    state = spec.new(variant)
    entries: list[PlyReview] = []
    for ply, move in enumerate(moves[:stop]):
        played = state.parse_move(move)
        legal = state.legal_moves()
        if played not in legal:
            state.play(played)  # raises the engine's own error
        if ply >= start:
            scores, source, depth = score_moves(state, budget)
            entries.append(
                _judge(spec.name, ply, state.to_move, played, legal, scores, source, depth)
            )
        state = state.play(played)
    return tuple(entries)


def assemble(game: str, variant: str, entries: Sequence[PlyReview]) -> Review:
    """The review made of all of a game's judged moves, in order."""
    spec = get(game)
    unit = _unit(spec.name, spec.new(variant))
    return Review(spec.name, str(spec.variant(variant)), tuple(entries), _curve(entries), unit)


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
    return Review(data["game"], data["variant"], plies, tuple(data["curve"]), data["unit"])


def _unit(game: str, state: GameState) -> str:
    if game == "oska":
        return "result" if oska_solver.solves(*rules_of(state.variant)) else "stones"
    return {"oware": "seeds", "lasca": "soldiers"}.get(game, "points")


# ---------------------------------------------------------------- scoring

Scores = dict[str, Score]


def score_moves(state: GameState, budget: float = BUDGET) -> tuple[Scores, str, int]:
    """Every legal move of `state` scored from its mover's view, where the scores came
    from (`table`, `tables`, `search`) and the search depth finished (0 for the tables)."""
    if isinstance(state, oska_engine.OskaState) and oska_solver.solves(*rules_of(state.variant)):
        return _oska_scores(state), "table", 0
    if isinstance(state, oware_engine.OwareState):
        exact = _oware_table_scores(state)
        if exact is not None:
            return exact, "tables", 0
    return _search_scores(state.spec.name, state, budget)


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
    return PlyReview(ply, mover, played, best, before, after, loss, mark, source, depth, forced)


def mark_of(game: str, before: Score, after: Score, loss: int) -> str | None:
    """The mark of a move that scores `after` where the best scores `before` (module docstring)."""
    if loss <= 0:
        return None
    limits = THRESHOLDS.get(game, THRESHOLDS["lasca"])
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


def advantage(score: Score) -> float:
    """A score on the curve's scale, [-1, 1] from the same view."""
    if score.result is not None:
        return float(score.result)
    return max(-1.0, min(1.0, score.points / (100 * CURVE_UNITS)))


def _curve(entries: Sequence[PlyReview]) -> tuple[float, ...]:
    """The first player's advantage before the first move and after each."""
    if not entries:
        return (0.0,)

    def first(entry: PlyReview, score: Score) -> float:
        value = advantage(score)
        return value if entry.mover == Side.FIRST else -value

    return (first(entries[0], entries[0].before), *(first(e, e.after) for e in entries))
