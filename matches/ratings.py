"""Ratings: which games count, and what a rated game does to its players' ratings.

Each server has a pool per game (Oska, Lasca, Oware). A finished game counts
when `counts` says so; the store rates it in the very transaction that
finishes it (`Store.update_game(game, rate=rate_game)`), so a game is rated
exactly once, in the order games end. `rate_game` is pure: given what the
store read (both players' standings, the season running, their results in
it) it returns what the store writes. `python -m store recompute` rebuilds
it all from the stored games (`matches.recompute`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from games.base import Termination
from matches.glicko2 import Glicko, Result, idle, performance, rate
from matches.records import Status, StoredGame

# The score of the first player, by result; the second's is 1 minus it.
FIRST_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in one server's pool for one game, with their record there.

    `streak` is the current run of wins, `best_streak` the longest; `best_win`
    the rating (before the game) of the strongest opponent beaten, in game `best_win_game`.
    """

    guild_id: int
    game: str
    user_id: int
    glicko: Glicko = field(default_factory=Glicko)
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    best_streak: int = 0
    best_win: float | None = None
    best_win_game: int | None = None
    last_at: datetime | None = None

    @property
    def rating(self) -> float:
        return self.glicko.rating

    @property
    def rd(self) -> float:
        return self.glicko.rd

    @property
    def provisional(self) -> bool:
        return self.glicko.provisional


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's side of one rated game: the rating before and after, against whom.

    `opponent` is the opponent's rating as it entered the game (after their
    idle time). `seq` orders rated games as they ended (the store assigns it).
    """

    game_id: int
    guild_id: int
    game: str
    user_id: int
    opponent_id: int
    score: float
    at: datetime
    before: Glicko
    after: Glicko
    opponent: Glicko
    season_id: int | None = None
    seq: int = 0

    @property
    def delta(self) -> int:
        """The change as players read it: the rounded ratings' difference."""
        return round(self.after.rating) - round(self.before.rating)


@dataclass(frozen=True, slots=True)
class SeasonScore:
    """A player's line in a season's table for one game: points (win 1, draw ½) and performance."""

    season_id: int
    game: str
    user_id: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    performance: float | None = None


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season: rated games that end between its start and its end count in it.

    `ends_at` is when it ends by itself (None: when a manager ends it);
    `ended_at` when it did end; `channel_id` where its final table is posted,
    `announced` once it has been.
    """

    guild_id: int
    name: str
    started_at: datetime
    ends_at: datetime | None = None
    ended_at: datetime | None = None
    channel_id: int | None = None
    announced: bool = False
    id: int = 0

    def running_at(self, moment: datetime) -> bool:
        """Whether a game that ends at `moment` counts in this season."""
        if moment < self.started_at:
            return False
        if self.ended_at is not None and moment > self.ended_at:
            return False  # a game that ended at the very moment the season did still counts
        return self.ends_at is None or moment < self.ends_at


@dataclass(frozen=True, slots=True)
class RatingInputs:
    """What the store read for a game it is rating, in the game's players' order."""

    standings: tuple[Standing, Standing]
    season: Season | None = None
    season_scores: tuple[SeasonScore | None, SeasonScore | None] = (None, None)
    season_results: tuple[Sequence[RatingChange], Sequence[RatingChange]] = ((), ())


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What rating a game writes: both players' new standings, their changes, their season lines."""

    standings: tuple[Standing, Standing]
    changes: tuple[RatingChange, RatingChange]
    season_scores: tuple[SeasonScore, SeasonScore] | None


def each_side_moved(moves: Sequence[str]) -> bool:
    """Both players made a move of their own (an automatic pass is not one)."""
    return any(m != "pass" for m in moves[0::2]) and any(m != "pass" for m in moves[1::2])


def counts(row: StoredGame) -> bool:
    """Whether a finished game is rated.

    Two different people, no Kamen, default rules, not imported and not
    declared unrated (`row.rated`), not voided by a manager, not abandoned,
    with a result, and each side made at least one move.
    """
    players = row.players
    return (
        row.status is Status.FINISHED
        and row.rated
        and row.voided is None
        and players is not None
        and players[0] != players[1]
        and row.ai_level is None
        and row.variant == ""
        and row.reason is not Termination.ABANDONED
        and row.result in FIRST_SCORE
        and each_side_moved(row.moves)
    )


def rate_game(row: StoredGame, read: RatingInputs) -> RatedGame:
    """What the finished game `row` does to its players' ratings and season lines."""
    players = row.players
    if players is None or row.result not in FIRST_SCORE:
        raise ValueError(f"game {row.id} has no players or no result to rate")
    at = row.updated_at
    scores = (FIRST_SCORE[row.result], 1.0 - FIRST_SCORE[row.result])
    entering = tuple(_entering(standing, at) for standing in read.standings)
    standings: list[Standing] = []
    changes: list[RatingChange] = []
    season = read.season if read.season is not None and read.season.running_at(at) else None
    for me in (0, 1):
        them = 1 - me
        after = rate(entering[me], [Result(entering[them], scores[me])])
        change = RatingChange(
            row.id, row.guild_id, row.game, players[me], players[them], scores[me], at,
            entering[me], after, entering[them], season.id if season is not None else None,
        )  # fmt: skip
        changes.append(change)
        standings.append(_recorded(read.standings[me], change))
    lines = None
    if season is not None:
        lines = tuple(
            _season_line(season, row.game, read.season_scores[me], read.season_results[me],
                         changes[me])
            for me in (0, 1)
        )  # fmt: skip
    return RatedGame((standings[0], standings[1]), (changes[0], changes[1]),
                     (lines[0], lines[1]) if lines is not None else None)  # fmt: skip


def _entering(standing: Standing, at: datetime) -> Glicko:
    """A player's rating as a game starts: their deviation grown by the time since their last."""
    if standing.last_at is None:
        return standing.glicko
    return idle(standing.glicko, at - standing.last_at)


def _recorded(standing: Standing, change: RatingChange) -> Standing:
    won, drew = change.score == 1.0, change.score == 0.5
    streak = standing.streak + 1 if won else 0
    best_win, best_game = standing.best_win, standing.best_win_game
    if won and (best_win is None or change.opponent.rating > best_win):
        best_win, best_game = change.opponent.rating, change.game_id
    return replace(
        standing,
        glicko=change.after,
        games=standing.games + 1,
        wins=standing.wins + won,
        draws=standing.draws + drew,
        losses=standing.losses + (not won and not drew),
        streak=streak,
        best_streak=max(standing.best_streak, streak),
        best_win=best_win,
        best_win_game=best_game,
        last_at=change.at,
    )


def _season_line(
    season: Season,
    game: str,
    line: SeasonScore | None,
    earlier: Sequence[RatingChange],
    change: RatingChange,
) -> SeasonScore:
    line = line or SeasonScore(season.id, game, change.user_id)
    results = [Result(c.opponent, c.score) for c in (*earlier, change)]
    won, drew = change.score == 1.0, change.score == 0.5
    return replace(
        line,
        points=line.points + change.score,
        games=line.games + 1,
        wins=line.wins + won,
        draws=line.draws + drew,
        losses=line.losses + (not won and not drew),
        performance=performance(results),
    )


def season_order(line: SeasonScore) -> tuple[float, float]:
    """The sort key of a season's table, best first: points, then performance."""
    return (-line.points, -(line.performance if line.performance is not None else 0.0))
