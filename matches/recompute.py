"""Rebuilding every rating and season table from the stored games alone.

The games that count (`ratings.counts`) are rated again in the order they
ended (the stored order of rating, `seq`, for the games rated before; a
finished game that counts but was never rated comes after them, by its end
time), against the seasons as stored. The result is compared with what the
store holds (`differences`), or written in its place
(`Store.replace_ratings`). `python -m store recompute` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from matches.ratings import (
    RatingChange,
    RatingInputs,
    Season,
    SeasonScore,
    Standing,
    counts,
    rate_game,
)
from matches.records import StoredGame
from matches.storage import Store


@dataclass(frozen=True, slots=True)
class Ratings:
    """Every standing, rating change and season line of a server (or all), in a stable order."""

    standings: list[Standing]
    changes: list[RatingChange]
    scores: list[SeasonScore]


async def stored(store: Store, guild_id: int | None = None) -> Ratings:
    standings, changes, scores = await store.all_ratings(guild_id)
    return Ratings(standings, changes, scores)


async def rebuild(store: Store, guild_id: int | None = None) -> Ratings:
    """The ratings the stored games give, computed afresh."""
    games = [game for game in await store.finished_games(guild_id) if counts(game)]
    before = await stored(store, guild_id)
    return rate_all(games, await store.seasons(guild_id), before.changes)


def rate_all(
    games: list[StoredGame], seasons: list[Season], earlier: list[RatingChange]
) -> Ratings:
    """Rate `games` in the order they ended; `earlier` gives that order where it is known."""
    seq_of: dict[int, int] = {}
    for change in earlier:
        seq_of.setdefault(change.game_id, change.seq)
    last_seq = max(seq_of.values(), default=0)
    ordered = sorted(games, key=lambda game: _order(game, seq_of))
    standings: dict[tuple[int, str, int], Standing] = {}
    lines: dict[tuple[int, str, int], SeasonScore] = {}
    season_results: dict[tuple[int, str, int], list[RatingChange]] = {}
    changes: list[RatingChange] = []
    for game in ordered:
        players = game.players
        assert players is not None  # counts() saw them
        keys = [(game.guild_id, game.game, user) for user in players]
        season = _season_at(seasons, game.guild_id, game.updated_at)
        season_keys = [(season.id, game.game, user) for user in players] if season else []
        read = RatingInputs(
            (
                standings.get(keys[0]) or Standing(*keys[0]),
                standings.get(keys[1]) or Standing(*keys[1]),
            ),
            season,
            (lines.get(season_keys[0]), lines.get(season_keys[1])) if season else (None, None),
            (season_results.get(season_keys[0], []), season_results.get(season_keys[1], []))
            if season
            else ((), ()),
        )
        rated = rate_game(game, read)
        first_seq = seq_of.get(game.id)
        if first_seq is None:
            first_seq = last_seq + 1
        last_seq = max(last_seq, first_seq + 1)
        for offset, (key, standing, change) in enumerate(
            zip(keys, rated.standings, rated.changes, strict=True)
        ):
            standings[key] = standing
            numbered = replace(change, seq=first_seq + offset)
            changes.append(numbered)
            if season is not None:
                season_results.setdefault((season.id, game.game, change.user_id), []).append(
                    numbered
                )
        for line in rated.season_scores or ():
            lines[(line.season_id, line.game, line.user_id)] = line
    return Ratings(
        [standings[key] for key in sorted(standings)],
        sorted(changes, key=lambda change: change.seq),
        [lines[key] for key in sorted(lines)],
    )


def differences(stored: Ratings, rebuilt: Ratings) -> list[str]:
    """What differs between two sets of ratings, one line each (empty: identical)."""
    found: list[str] = []
    for name, ours, theirs in (
        ("rating", stored.standings, rebuilt.standings),
        ("rating change", stored.changes, rebuilt.changes),
        ("season line", stored.scores, rebuilt.scores),
    ):
        mine = {_key(item): item for item in ours}
        other = {_key(item): item for item in theirs}
        for key in sorted(mine.keys() | other.keys()):
            if mine.get(key) != other.get(key):
                found.append(f"{name} {key}: stored {mine.get(key)!r}, rebuilt {other.get(key)!r}")
    return found


def _key(item: Standing | RatingChange | SeasonScore) -> tuple[int | str, ...]:
    if isinstance(item, Standing):
        return (item.guild_id, item.game, item.user_id)
    if isinstance(item, RatingChange):
        return (item.game_id, item.user_id)
    return (item.season_id, item.game, item.user_id)


def _order(game: StoredGame, seq_of: dict[int, int]) -> tuple[int, float, int]:
    seq = seq_of.get(game.id)
    if seq is not None:
        return (0, float(seq), game.id)
    return (1, game.updated_at.timestamp(), game.id)


def _season_at(seasons: list[Season], guild_id: int, moment: datetime) -> Season | None:
    for season in seasons:
        if season.guild_id == guild_id and season.running_at(moment):
            return season
    return None
