"""Tournament standings from the finished games alone: points, tie-breaks, order.

Pure: no store, no Discord, no clock. The service hands over the tournament's
games as `Played` values; a `Standings` takes them one at a time as they end.

Points and tie-breaks, by format (issue 14):

- Round robin, single or double: a win 1, a draw ½, a loss 0, a bye 1.
  Tie-breaks: Sonneborn-Berger (per game: the final points of each opponent
  beaten, half those of each opponent drawn), then direct encounter (the
  points scored between the players still tied, applied only when every pair
  of them has finished as many games as scheduled, one or two; else skipped
  and shown as None; applied once, not again to a smaller group it leaves tied).
- Swiss: the same points. Tie-breaks: Buchholz (the final points of every
  opponent met), then Sonneborn-Berger. A bye is a game won against FIDE's
  virtual opponent (its tie-break rules before 2023): one who had the player's points
  at the start of the bye's round and draws every later round, so its score is
  `points before round R + (last round - R) / 2`, the last round being the
  highest with a result so far. It counts in Buchholz only; Sonneborn-Berger
  takes byes as nothing, in both formats.
- Arena: a win 2, a draw 1, a loss 0; a win after two wins in a row counts
  double (4) until a draw or loss. Draws are never doubled (lichess doubles
  them too; the issue says wins). Tie-breaks: the Glicko-2 performance over
  the arena's games against each opponent's rating at the start (1500/350 if
  unknown), then fewer games (the same points in fewer games is the better
  rate). Games are applied in the order they ended: the streaks follow it.

A forfeit counts as the win or loss it ends as, for the points and every
tie-break alike (FIDE's special cases for unplayed games are not applied). A game
a manager voided is a double forfeit: a loss for both players.
Players still equal on points and every tie-break share a rank; they are
listed by higher starting rating, then lower id, so the order is always the same.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from matches.glicko2 import Glicko, Result, performance
from matches.tournament_records import Format

_SCORES = (0.0, 0.5, 1.0)
_MEETINGS = {Format.ROUND_ROBIN: 1, Format.DOUBLE_ROUND_ROBIN: 2}  # games per pair scheduled
_UNRATED = Glicko()


class Tiebreak(enum.StrEnum):
    """A tie-break, as a code: the words for it live at the edge."""

    SONNEBORN_BERGER = "sonneborn-berger"
    DIRECT_ENCOUNTER = "direct-encounter"
    BUCHHOLZ = "buchholz"
    PERFORMANCE = "performance"
    GAMES = "games"  # fewer is better


TIEBREAKS: Mapping[Format, tuple[Tiebreak, ...]] = {
    Format.ROUND_ROBIN: (Tiebreak.SONNEBORN_BERGER, Tiebreak.DIRECT_ENCOUNTER),
    Format.DOUBLE_ROUND_ROBIN: (Tiebreak.SONNEBORN_BERGER, Tiebreak.DIRECT_ENCOUNTER),
    Format.SWISS: (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER),
    Format.ARENA: (Tiebreak.PERFORMANCE, Tiebreak.GAMES),
}


@dataclass(frozen=True, slots=True)
class Played:
    """One game of a tournament; `second` None is a bye for `first`.

    `score` is the first player's (1, ½, 0), None while the game is being
    played; a bye's is 1. `round` is 0 in an arena. `forfeit`: lost by a
    withdrawal, the score saying who withdrew. `voided`: a result a manager voided,
    a double forfeit: a loss for both (the score is 0).
    """

    first: int
    second: int | None
    score: float | None
    round: int
    forfeit: bool = False
    voided: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of the standings.

    `games` are the games against an opponent (forfeits included), byes apart.
    `tiebreaks` follow `TIEBREAKS[format]`; None where one does not apply (a
    direct encounter skipped, a performance without games).
    """

    rank: int
    player: int
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreaks: tuple[float | None, ...]


class _Met(NamedTuple):
    opponent: int
    score: float  # the player's own: 1, ½, 0
    round: int


@dataclass(slots=True)
class _Record:
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    # The sums over the opponents' points, kept up to date as those points change:
    berger: float = 0.0  # Sonneborn-Berger
    buchholz: float = 0.0  # Buchholz without the byes' virtual opponents
    games: list[_Met] = field(default_factory=list)  # in the order applied
    bye_rounds: list[int] = field(default_factory=list)
    streak: int = 0  # arena: wins in a row
    performance: float | None = None
    stale: bool = False  # the performance waits for the next lines()


class Standings:
    """One tournament's standings, updated in place as each game ends.

    Mutable, unlike the values around it, because that is what keeps an update
    cheap: `apply` touches the two players and their opponents (whose
    Sonneborn-Berger and Buchholz move with the two players' points), an arena
    performance (the costly tie-break) is recomputed for the two players alone,
    and `lines` sorts what is kept. `players` are listed before their first
    game; `ratings` are the starting ratings (unrated: 1500/350).
    """

    def __init__(
        self,
        format: Format,
        players: Iterable[int] = (),
        ratings: Mapping[int, Glicko] | None = None,
    ) -> None:
        self.format = format
        self._ratings: Mapping[int, Glicko] = ratings or {}
        self._records = {player: _Record() for player in players}
        self._last_round = 0

    def apply(self, game: Played) -> None:
        """Count one game, once; an unfinished one (score None) only lists its players."""
        _check(self.format, game)
        for player in (game.first,) if game.second is None else (game.first, game.second):
            self._records.setdefault(player, _Record())
        if game.score is None:
            return
        self._last_round = max(self._last_round, game.round)
        first = self._records[game.first]
        if game.second is None:
            first.bye_rounds.append(game.round)
            self._gain(first, 1.0)
            return
        second = self._records[game.second]
        # Each side's tie-breaks take the other's points before the game; then the points move.
        other_score = 0.0 if game.voided else 1.0 - game.score
        gained = self._meet(first, second, _Met(game.second, game.score, game.round))
        other_gained = self._meet(second, first, _Met(game.first, other_score, game.round))
        self._gain(first, gained)
        self._gain(second, other_gained)

    def lines(self) -> tuple[Line, ...]:
        """The standings, best first."""
        values = {player: self._tiebreaks(record) for player, record in self._records.items()}
        if self.format in _MEETINGS:
            self._direct_encounters(values)
        keys = {player: self._sort_key(player, values[player]) for player in self._records}
        lines: list[Line] = []
        for place, player in enumerate(sorted(keys, key=keys.__getitem__), start=1):
            record, tiebreaks = self._records[player], values[player]
            tied = lines and (lines[-1].points, lines[-1].tiebreaks) == (record.points, tiebreaks)
            lines.append(_line(lines[-1].rank if tied else place, player, record, tiebreaks))
        return tuple(lines)

    def _meet(self, record: _Record, opponent: _Record, met: _Met) -> float:
        """Count one game of `record`'s against `opponent`; the points it brings."""
        record.games.append(met)
        if met.score == 1.0:
            record.wins += 1
        elif met.score == 0.5:
            record.draws += 1
        else:
            record.losses += 1
        record.berger += met.score * opponent.points
        record.buchholz += opponent.points
        if self.format is not Format.ARENA:
            return met.score
        on_fire = met.score == 1.0 and record.streak >= 2
        record.streak = record.streak + 1 if met.score == 1.0 else 0
        record.stale = True
        return 2.0 * met.score * (2.0 if on_fire else 1.0)

    def _gain(self, record: _Record, points: float) -> None:
        """Add `points` to a player's and to the tie-breaks of everyone who met them."""
        record.points += points
        for met in record.games:
            opponent = self._records[met.opponent]
            opponent.berger += (1.0 - met.score) * points
            opponent.buchholz += points

    def _tiebreaks(self, record: _Record) -> tuple[float | None, ...]:
        if self.format is Format.ARENA:
            if record.stale:
                record.performance = performance(
                    [Result(self._rating(met.opponent), met.score) for met in record.games]
                )
                record.stale = False
            return (record.performance, float(len(record.games)))
        if self.format is Format.SWISS:
            virtual = sum(self._virtual_opponent(record, bye) for bye in record.bye_rounds)
            return (record.buchholz + virtual, record.berger)
        return (record.berger, None)  # the direct encounter, if it applies, comes with the group

    def _virtual_opponent(self, record: _Record, bye_round: int) -> float:
        """FIDE's virtual opponent's points: the player's before the bye, then draws."""
        before = sum(met.score for met in record.games if met.round < bye_round)
        before += sum(1.0 for other in record.bye_rounds if other < bye_round)
        return before + 0.5 * (self._last_round - bye_round)

    def _direct_encounters(self, values: dict[int, tuple[float | None, ...]]) -> None:
        """Fill in the direct encounter of every group still tied on points and Sonneborn-Berger."""
        groups: dict[tuple[float, float | None], list[int]] = {}
        for player, (berger, _) in values.items():
            groups.setdefault((self._records[player].points, berger), []).append(player)
        scheduled = _MEETINGS[self.format]
        for group in groups.values():
            if len(group) < 2:
                continue
            tied = set(group)
            meetings: Counter[tuple[int, int]] = Counter()
            scored = dict.fromkeys(group, 0.0)
            for player in group:
                for met in self._records[player].games:
                    if met.opponent in tied:
                        meetings[player, met.opponent] += 1
                        scored[player] += met.score
            pairs = [(one, two) for one in group for two in group if one != two]
            if all(meetings[pair] >= scheduled for pair in pairs):
                for player in group:
                    values[player] = (values[player][0], scored[player])

    def _sort_key(self, player: int, values: tuple[float | None, ...]) -> tuple[float | int, ...]:
        signed = [
            math.inf if value is None else value if tiebreak is Tiebreak.GAMES else -value
            for tiebreak, value in zip(TIEBREAKS[self.format], values, strict=True)
        ]
        return (-self._records[player].points, *signed, -self._rating(player).rating, player)

    def _rating(self, player: int) -> Glicko:
        return self._ratings.get(player, _UNRATED)


def compute(
    format: Format,
    games: Iterable[Played],
    players: Iterable[int] = (),
    ratings: Mapping[int, Glicko] | None = None,
) -> tuple[Line, ...]:
    """The standings from scratch: `players` (who may have no game yet) and `games` in order."""
    standings = Standings(format, players, ratings)
    for game in games:
        standings.apply(game)
    return standings.lines()


def _line(rank: int, player: int, record: _Record, tiebreaks: tuple[float | None, ...]) -> Line:
    return Line(
        rank=rank,
        player=player,
        points=record.points,
        games=len(record.games),
        wins=record.wins,
        draws=record.draws,
        losses=record.losses,
        byes=len(record.bye_rounds),
        tiebreaks=tiebreaks,
    )


def _check(format: Format, game: Played) -> None:
    """Refuse what no pairing makes: a wrong score, a drawn forfeit, an arena bye."""
    if game.score is not None and game.score not in _SCORES:
        raise ValueError(f"a score is 1, 0.5 or 0, not {game.score}")
    if game.second is None:
        if format is Format.ARENA:
            raise ValueError("an arena has no byes")
        if game.score not in (None, 1.0):
            raise ValueError("a bye scores 1")
    elif game.second == game.first:
        raise ValueError(f"player {game.first} cannot play themselves")
    if game.forfeit and game.score == 0.5:
        raise ValueError("a forfeit is a win and a loss, never a draw")
    if game.voided and (game.score != 0.0 or game.second is None):
        raise ValueError("a voided game is lost by both players")
