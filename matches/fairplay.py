"""A fair-play signal only Kamen can give: `/kamen fairplay user: [game:]`, for managers.

Over a player's last rated games on a server (`RECENT_GAMES`, of one game or all):

- where Kamen knows a position's exact value, the share of their moves that kept it,
  counted only where a move could change it (some move keeps the position's result and
  some other loses it: in a position lost whatever one plays, every move "keeps" it).
  Every Oska position is in the solved table. In Oware a position counts where the
  endgame tables (up to 12 seeds on the board) settle every move's result whatever
  came before under the repetition rule (`oware_game.exact_results`): their bounds,
  with the stores, give each move one result; Lasca has no exact values at all;
- the same share for the server's other players, over their rated games of the same
  games that ended after the player's oldest one counted began (the latest
  `BASELINE_GAMES` at most): a baseline;
- how often their move was the one Kamen picks at `hard`, over the positions of their
  last `HARD_GAMES` games (`HARD_POSITIONS` at most, the latest first);
- their move times (`matches.move_times`): the median and the share under `QUICK_MS`.

Positions with a single legal move (a pass, a forced capture) count nowhere: they say
nothing of the player. None of this is proof: a strong or lucky player keeps values too.
The figures are worked out away from the event loop; the store is read through here.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from games.ai import oska_player, oware_game
from games.base import GameState
from games.oska import OskaState
from games.oware import OwareState
from games.registry import GAMES
from matches.clock import Clock
from matches.inputs import game_spec, snowflake
from matches.move_times import move_times
from matches.picker import MovePicker
from matches.positions import Positions
from matches.ratings import counts
from matches.records import StoredGame
from matches.storage import Store

RECENT_GAMES = 20  # the player's rated games looked at
HARD_GAMES = 10  # of which the latest are checked against Kamen's `hard` pick
HARD_POSITIONS = 30  # positions Kamen thinks about at most, the latest first (~1 s each)
BASELINE_GAMES = 300  # the other players' rated games looked at most, the latest first
QUICK_MS = 5_000  # a move under this is quick
EXACT_GAMES = ("oska", "oware")  # the games where Kamen knows exact values (Oware: endgames)


@dataclass(frozen=True, slots=True)
class Share:
    """`hits` of `of` counted moves."""

    hits: int = 0
    of: int = 0

    def __add__(self, other: Share) -> Share:
        return Share(self.hits + other.hits, self.of + other.of)

    @property
    def percent(self) -> float | None:
        return None if self.of == 0 else 100 * self.hits / self.of


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of a game that had a choice: who played it, where, and what."""

    mover_id: int
    state: GameState
    move: str
    ply: int  # 1-based


@dataclass(frozen=True, slots=True)
class FairPlayReport:
    """What `/kamen fairplay` shows about `user_id` on a server."""

    user_id: int
    games: tuple[str, ...]  # the games asked about
    counted: dict[str, int]  # the player's rated games looked at, by game
    exact: Share  # the player's moves that kept an exact value at stake
    baseline: Share  # the same, the server's other players'
    baseline_players: int
    hard: Share | None  # the player's moves that were Kamen's `hard` pick; None: no Kamen here
    hard_games: int
    quick: Share  # the player's timed moves under QUICK_MS
    median_ms: int | None
    untimed: int  # the player's moves whose time was not recorded (older games)
    exact_games: tuple[str, ...] = field(default=EXACT_GAMES)
    by_game: dict[str, tuple[Share, Share]] = field(default_factory=dict)  # exact, baseline


def choices(row: StoredGame, positions: Positions) -> list[Ply]:
    """The moves of a finished game that had an alternative, in order, with their movers."""
    players = row.players
    if players is None:
        return []
    state = positions.spec_of(row).new(row.variant)
    found = []
    for ply, move in enumerate(row.moves, start=1):
        if len(state.legal_moves()) > 1:
            found.append(Ply(players[state.to_move], state, move, ply))
        state = state.play(move)
    return found


def _result(value: int) -> int:
    return (value > 0) - (value < 0)


def kept_value(ply: Ply) -> bool | None:
    """Whether the move kept the position's exact value, where a move could change it; None
    where Kamen knows no exact value, or every move gives the same result."""
    name = ply.state.spec.name
    if name == "oware":
        assert isinstance(ply.state, OwareState)
        found = oware_game.exact_results(ply.state)
        if found is None:
            return None
        moves = found
    elif name == "oska":
        assert isinstance(ply.state, OskaState)
        moves = {move: _result(value) for move, value in oska_player.move_values(ply.state).items()}
    else:
        return None
    results = set(moves.values())
    if len(results) < 2:
        return None
    return moves[ply.move] == max(results)


def exact_share(plies: Iterable[Ply], counted: Callable[[int], bool]) -> tuple[Share, set[int]]:
    """The moves of the movers `counted` picks that kept an exact value at stake, and who
    those movers were."""
    hits = total = 0
    movers: set[int] = set()
    for ply in plies:
        if not counted(ply.mover_id):
            continue
        kept = kept_value(ply)
        if kept is None:
            continue
        total += 1
        hits += kept
        movers.add(ply.mover_id)
    return Share(hits, total), movers


def times_of(
    rows: Sequence[StoredGame], plies: dict[int, list[Ply]], user_id: int
) -> list[int | None]:
    """The times of `user_id`'s moves that had a choice (None: not recorded)."""
    found: list[int | None] = []
    for row in rows:
        times = move_times(row)
        found += [times[p.ply - 1] for p in plies[row.id] if p.mover_id == user_id]
    return found


class FairPlay:
    """The fair-play figures of a server's players, from `store`, with `picker` at `hard`."""

    def __init__(
        self, store: Store, positions: Positions, clock: Clock, picker: MovePicker | None
    ) -> None:
        self.store = store
        self.positions = positions
        self.clock = clock
        self.picker = picker

    async def report(self, guild_id: int, user_id: int, game: str | None = None) -> FairPlayReport:
        guild, user = snowflake(guild_id, "server"), snowflake(user_id, "user")
        kinds = (game_spec(game).name,) if game is not None else tuple(GAMES)
        mine: list[StoredGame] = []
        for kind in kinds:
            found = await self.store.finished_games_of(
                guild, kind, user, offset=0, limit=RECENT_GAMES * 3
            )
            mine += [row for row in found if counts(row)]
        mine = sorted(mine, key=lambda row: (row.updated_at, row.id), reverse=True)[:RECENT_GAMES]
        others: list[StoredGame] = []
        if mine:
            since = min(row.created_at for row in mine)  # the period: since the first began
            others = [
                row for row in await self.store.finished_games(guild)
                if row.game in kinds and row.game in EXACT_GAMES and counts(row)
                and row.updated_at >= since and user not in (row.players or ())
            ]  # fmt: skip
            others = sorted(others, key=lambda row: (row.updated_at, row.id), reverse=True)
            others = others[:BASELINE_GAMES]
        loop = asyncio.get_running_loop()
        figures = await loop.run_in_executor(None, self._figures, user, mine, others)
        exact, baseline, baseline_players, plies, by_game = figures
        hard = await self._hard(user, mine[:HARD_GAMES], plies)
        times = times_of(mine, plies, user)
        timed = [time for time in times if time is not None]
        return FairPlayReport(
            user_id=user,
            games=kinds,
            counted={kind: sum(row.game == kind for row in mine) for kind in kinds},
            exact=exact,
            baseline=baseline,
            baseline_players=baseline_players,
            hard=hard,
            hard_games=min(len(mine), HARD_GAMES),
            quick=Share(sum(time < QUICK_MS for time in timed), len(timed)),
            median_ms=round(statistics.median(timed)) if timed else None,
            untimed=len(times) - len(timed),
            by_game=by_game,
        )

    def _figures(
        self, user: int, mine: list[StoredGame], others: list[StoredGame]
    ) -> tuple[Share, Share, int, dict[int, list[Ply]], dict[str, tuple[Share, Share]]]:
        plies = {row.id: choices(row, self.positions) for row in mine}
        own = [p for row in mine for p in plies[row.id]]
        also = [p for row in others for p in choices(row, self.positions)]
        # The player's opponents' moves in the player's own games are the baseline's too.
        also += [p for row in mine for p in plies[row.id] if p.mover_id != user]
        by_game: dict[str, tuple[Share, Share]] = {}
        every: set[int] = set()
        for game in EXACT_GAMES:
            exact, _ = exact_share(
                (p for p in own if p.state.spec.name == game), lambda m: m == user
            )
            baseline, movers = exact_share(
                (p for p in also if p.state.spec.name == game), lambda m: m != user
            )
            by_game[game] = (exact, baseline)
            every |= movers
        exact = sum((pair[0] for pair in by_game.values()), Share())
        baseline = sum((pair[1] for pair in by_game.values()), Share())
        return exact, baseline, len(every), plies, by_game

    async def _hard(
        self, user: int, rows: list[StoredGame], plies: dict[int, list[Ply]]
    ) -> Share | None:
        """How many of the player's latest moves were Kamen's pick at `hard`."""
        if self.picker is None:
            return None
        theirs = [p for row in rows for p in reversed(plies[row.id]) if p.mover_id == user]
        hits = 0
        checked = theirs[:HARD_POSITIONS]
        for ply in checked:
            hits += await self.picker.pick(ply.state, "hard") == ply.move
        return Share(hits, len(checked))
