"""Tournaments: created, joined, started, paired and scored by Kamen itself.

A tournament takes sign-ups, then runs rounds (round robin by Berger
tables, Swiss by score) or, in an arena, pairs players again as soon as
their game ends, until its window closes. Its games are ordinary rated games
(`start_game` opens one per pairing, in the channel the bot made for it);
each game's end (`game_ended`) writes the pairing's result once, and the round
that completes moves the tournament on, once: the next round's pairings are
written with the tournament's version-checked row. Withdrawing forfeits a
player's pairings not yet played; standings come from `matches.standings`.

The part hears the game-finished event itself (a tournament's game moves its
tournament on in the background: the player who ended the game does not wait
for it) and tells what each end did to the listeners an adapter gave
`on_progress`, to show it. A result
missed while Kamen was stopped, and the tournaments due to start or end, are
the service runner's upkeep pass (`catch_up`, `matches.runner`).
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from games.base import Side, Termination
from games.registry import GAMES
from matches import pairings as pairing
from matches import transitions
from matches.errors import BadInput, StaleAction
from matches.events import Audited, Event, GameFinished
from matches.glicko2 import Glicko
from matches.inputs import game_spec, snowflake, tournament_seconds, variant_of
from matches.ledger import ATTEMPTS, Draft, Ledger, Loaded, Race, Where
from matches.managers import Managers
from matches.marks import Marks
from matches.ratings import FIRST_SCORE
from matches.records import AuditAction, Status, StoredGame
from matches.shards import Shards
from matches.standings import Line, Played, Standings
from matches.tournament_records import Entrant, Format, Stage, StoredPairing, Tournament
from matches.views import GameView

MAX_NAME = 60
MIN_PLAYERS = {Format.SWISS: 3}  # every other format: 2
MAX_ROUNDS = 30
ARENA_MINUTES = (5, 24 * 60)  # an arena's window, shortest and longest
# No new arena game in the window's last minutes: one started then could not end in it.
ARENA_CLOSING = timedelta(minutes=2)

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Kept:
    """A running tournament's standings as this process last counted them.

    `counted` are the pairings applied, `last` the (end, id) of the latest: a
    result that ended before it (written late by another process) means the
    order changed (an arena's streaks follow it), and the whole is counted again.
    """

    standings: Standings
    players: tuple[int, ...]
    counted: set[int]
    last: tuple[float, int] = (0.0, 0)


@dataclass(frozen=True, slots=True)
class Progress:
    """What a change did: the tournament now, and the pairings it made (games to start)."""

    tournament: Tournament
    new: tuple[StoredPairing, ...] = ()
    finished: bool = False
    resigned: tuple[GameView, ...] = ()  # games a player's withdrawal resigned (to show)


Listener = Callable[[Progress], Awaitable[None] | None]


class Tournaments:
    """The tournaments of every server, on the ledger's store.

    An adapter calls its public methods and listens (`on_progress`); it never reads
    the store through it.
    """

    def __init__(self, ledger: Ledger, managers: Managers) -> None:
        self.ledger = ledger
        self.managers = managers
        self.store = ledger.store
        self._kept: dict[int, _Kept] = {}  # running tournaments' standings, kept up to date
        self._listeners: list[Listener] = []
        ledger.events.subscribe(self._heard)

    def on_progress(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(progress)` each time a game's end moves a tournament on (its result
        written, perhaps a round, new arena pairings or the end); returns a function to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def _heard(self, event: Event) -> None:
        if isinstance(event, Audited) and event.entry.action is AuditAction.VOID:
            self._kept.clear()  # a result counted is now a double forfeit: counted again
            return
        if not isinstance(event, GameFinished):
            return
        # One read while the game's end is answered; only a tournament's game leaves work
        # for after the answer (its result, the tournament moving on).
        if await self.store.pairing_of_game(event.game_id) is None:
            return
        self.ledger.events.later(self._ended(event.game_id), f"game #{event.game_id}'s tournament")

    async def _ended(self, game_id: int) -> None:
        progress = await self.game_ended(game_id)
        if progress is None:
            return
        await self._tell(progress)

    async def _tell(self, progress: Progress) -> None:
        for listener in list(self._listeners):
            try:
                done = listener(progress)
                if inspect.isawaitable(done):
                    await done
            except Exception:
                log.exception("a listener failed on tournament #%s", progress.tournament.id)

    # ---------------------------------------------------------------- sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        by: int,
        game: str,
        format: str,
        name: str,
        rounds: int | None = None,
        minutes: int | None = None,
        time: str | timedelta | None = None,
        starts_at: datetime | None = None,
        variant: Iterable[str] | str = (),
    ) -> Tournament:
        spec = game_spec(game)
        try:
            kind = Format(format)
        except ValueError:
            raise BadInput("tournament.bad-format", given=format,
                           allowed=[str(f) for f in Format]) from None  # fmt: skip
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_NAME:
            raise BadInput("tournament.bad-name", low=1, high=MAX_NAME)
        if kind is Format.SWISS and (rounds is None or not 1 <= rounds <= MAX_ROUNDS):
            raise BadInput("tournament.bad-rounds", low=1, high=MAX_ROUNDS)
        if kind is Format.ARENA and (
            minutes is None or not ARENA_MINUTES[0] <= minutes <= ARENA_MINUTES[1]
        ):
            raise BadInput("tournament.bad-minutes", low=ARENA_MINUTES[0], high=ARENA_MINUTES[1])
        now = self.ledger.clock()
        if starts_at is not None and starts_at <= now:
            raise BadInput("tournament.starts-past")
        settings = await self.store.guild_settings(snowflake(guild_id, "server"))
        seconds = tournament_seconds(time, settings.time_control)
        return await self.store.create_tournament(
            Tournament(
                snowflake(guild_id, "server"), snowflake(channel_id, "channel"), name,
                spec.name, kind, snowflake(by, "user"), now,
                variant=str(variant_of(spec, variant)),
                rounds=rounds if kind is Format.SWISS else None,
                move_seconds=seconds,
                minutes=minutes if kind is Format.ARENA else None,
                starts_at=starts_at,
            )
        )  # fmt: skip

    async def find(self, guild_id: int | None, tournament_id: int) -> Tournament:
        found = await self.store.tournament(snowflake(tournament_id, "tournament"))
        if found is None or (guild_id is not None and found.guild_id != guild_id):
            raise BadInput("tournament.unknown", id=tournament_id)
        return found

    async def join(self, guild_id: int, tournament_id: int, user_id: int) -> list[Entrant]:
        """Sign up, while the sign-up is open: a join that lands after the start (or the
        end) is refused, never made a player with no game."""
        tournament = await self.find(guild_id, tournament_id)
        await self.managers.refuse_suspended(
            tournament.guild_id, user_id, "managers.join.suspended"
        )
        joined = await self.store.join_tournament(
            tournament.id, snowflake(user_id, "user"), self.ledger.clock()
        )
        if joined is None:
            raise _refusal(await self.find(guild_id, tournament_id), "tournament.closed")
        return await self.store.entrants(tournament.id)

    async def leave(
        self,
        guild_id: int | None,
        tournament_id: int,
        user_id: int,
        *,
        reason: str | None = None,
        signup: bool = False,
        by: int | None = None,
    ) -> Progress:
        """A player leaves (before the start) or withdraws: their games not played are lost,
        and their game being played is resigned (the opponent wins, rated as any game), so
        the round goes on; `signup`: only while the sign-up is open (the sign-up message's
        Leave); `by`: the organiser who removed them (written to the audit log). The games
        resigned come back in the progress, to show.

        The stage is the one the leave lands in: a leave that comes just after the start
        forfeits the pairings the start gave the player, so they are never played."""
        tournament = await self.find(guild_id, tournament_id)
        stages = (Stage.SIGNUP,) if signup else (Stage.SIGNUP, Stage.RUNNING)
        left = await self.store.leave_tournament(
            tournament.id, user_id, self.ledger.clock(), reason or "withdrew", stages
        )
        if left is None:
            now = await self.find(guild_id, tournament_id)
            if now.stage in stages:
                raise BadInput("tournament.not-playing", name=now.name)
            raise _refusal(now, "tournament.leave-started")
        if by is not None:
            await self.managers.record(
                left.guild_id, by, AuditAction.TOURNAMENT_REMOVE, user_id=user_id, reason=reason,
                details=f"tournament={left.id}",
            )  # fmt: skip
        if left.stage is Stage.SIGNUP:
            return Progress(left)
        await self._forfeit_unplayed(left, user_id)
        resigned = await self._resign_playing(left, user_id)
        progress = await self.advance(left.id)
        return dataclasses.replace(progress, resigned=resigned)

    async def withdraw_everywhere(self, user_id: int, reason: str = "forgotten") -> None:
        """Take a player out of every tournament they are in, of any server (before they are
        forgotten): out of a sign-up, or withdrawn, their game being played resigned. What
        each withdrawal did is told to the listeners (`on_progress`), to show."""
        user = snowflake(user_id, "user")
        for tournament_id in await self.store.tournaments_of_player(user):
            try:
                progress = await self.leave(None, tournament_id, user, reason=reason)
            except BadInput:
                continue  # over, or left, meanwhile
            await self._tell(progress)

    async def _resign_playing(self, tournament: Tournament, user_id: int) -> tuple[GameView, ...]:
        """Resign the games of `tournament` the player is playing, and write their results
        (the tournament moves on with the caller's `advance`)."""
        clock = self.ledger.clock
        resigned = []
        for found in await self.store.pairings(tournament.id):
            if found.done or found.game_id is None or user_id not in (found.first_id,
                                                                     found.second_id):  # fmt: skip
                continue

            def resign(loaded: Loaded) -> Draft:
                row = loaded.row
                if row.status is not Status.ACTIVE:
                    raise _Over
                loser = Side.FIRST if row.first_id == user_id else Side.SECOND
                return Draft(
                    transitions.lost_by(row, loser, Termination.RESIGNATION, clock(),
                                        running=loaded.state.to_move)
                )  # fmt: skip

            try:
                committed = await self.ledger.change(
                    Where(game_id=found.game_id), resign, race=Race.RETRY
                )
            except _Over:
                continue  # it ended meanwhile: its end writes its result
            except StaleAction:
                log.warning("tournament #%s: game #%s could not be resigned for player %s",
                            tournament.id, found.game_id, user_id)  # fmt: skip
                continue
            await self._record(found, committed.after.row)
            resigned.append(self.ledger.view(committed.after))
        return tuple(resigned)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        return await self.store.entrants(tournament_id)

    async def of_server(self, guild_id: int) -> list[Tournament]:
        """A server's tournaments, the latest first."""
        return await self.store.tournaments(snowflake(guild_id, "server"))

    async def latest(self, guild_id: int) -> Tournament:
        """The server's latest tournament (refused when it has none)."""
        found = await self.of_server(guild_id)
        if not found:
            raise BadInput("tournament.none")
        return found[0]

    async def pairings(self, tournament_id: int) -> list[StoredPairing]:
        """Every pairing of a tournament so far, as stored now."""
        return await self.store.pairings(snowflake(tournament_id, "tournament"))

    async def remember_messages(
        self, tournament_id: int, *, message_id: int | None = None, standings_id: int | None = None
    ) -> bool:
        """Record the sign-up or standings message's id (read again and written again if
        another write of the tournament came between); False if it never landed."""
        for _ in range(ATTEMPTS):
            found = await self.find(None, tournament_id)
            changed = dataclasses.replace(
                found,
                message_id=message_id if message_id is not None else found.message_id,
                standings_id=standings_id if standings_id is not None else found.standings_id,
            )
            if await self.store.update_tournament(changed) is not None:
                return True
        return False

    # ---------------------------------------------------------------- running

    async def start(self, guild_id: int | None, tournament_id: int) -> Progress:
        """Close the sign-up and make the first pairings (exactly once, whoever asks).

        The players paired are the tournament's at the version the start writes over: a
        join or a leave writes the tournament's row too, so one that lands between this
        read and the write leaves the start writing nothing, and it reads them again."""
        for _ in range(ATTEMPTS):
            tournament = await self.find(guild_id, tournament_id)
            if tournament.stage is not Stage.SIGNUP:
                raise BadInput("tournament.already-started", name=tournament.name)
            playing = [e.user_id for e in await self.store.entrants(tournament.id) if e.playing]
            least = MIN_PLAYERS.get(tournament.format, 2)
            if len(playing) < least:
                raise BadInput("tournament.too-few", least=least, count=len(playing))
            now = self.ledger.clock()
            started = dataclasses.replace(
                tournament, stage=Stage.RUNNING, started_at=now,
                round=0 if tournament.format is Format.ARENA else 1,
                ends_at=now + timedelta(minutes=tournament.minutes)
                if tournament.minutes is not None else None,
            )  # fmt: skip
            made = await self._pairings(started, [], playing, now)
            written = await self.store.update_tournament(started, made)
            if written is not None:
                return Progress(written[0], tuple(written[1]))
        raise BadInput("tournament.busy")

    async def start_game(
        self, pairing_id: int, tournament_id: int, channel_id: int
    ) -> GameView | None:
        """Open the game of a pairing in `channel_id` (once: again, it is the same game);
        None if the pairing was settled without it (a player withdrew meanwhile)."""
        tournament = await self.find(None, tournament_id)
        found = {p.id: p for p in await self.store.pairings(tournament.id)}[pairing_id]
        if found.game_id is not None:
            return self.ledger.view_of(await self.ledger.find(Where(game_id=found.game_id)))
        if found.done:
            return None
        assert found.second_id is not None, "a bye has no game"
        spec = GAMES[tournament.game]
        state, _ = transitions.settle(spec.start(variant_of(spec, tournament.variant)))
        now = self.ledger.clock()
        row = StoredGame(
            guild_id=tournament.guild_id, channel_id=snowflake(channel_id, "channel"),
            game=spec.name, status=Status.CHALLENGE, challenger_id=found.first_id,
            created_at=now, updated_at=now, variant=tournament.variant,
            opponent_id=found.second_id, moves=state.moves,
            move_seconds=tournament.move_seconds,
        )  # fmt: skip
        begun = transitions.begin(row, (found.first_id, found.second_id), state, now)
        loaded = await self.ledger.create(begun, spec, state)
        await self.store.set_pairing_game(found.id, loaded.row.id)
        return self.ledger.view(loaded)

    async def thread_made(self, pairing_id: int, channel_id: int) -> None:
        """Record the thread made for a pairing's game, before the game is opened in it:
        opened again after a crash, the game goes to this thread, not to a second one."""
        await self.store.set_pairing_channel(pairing_id, snowflake(channel_id, "channel"))

    async def games_in(self, channel_id: int) -> list[tuple[Tournament, StoredPairing]]:
        """The running tournament games played in a channel or thread."""
        found = []
        for row in await self.store.open_games_in(snowflake(channel_id, "channel")):
            if row.status is not Status.ACTIVE:
                continue
            pairing_of = await self.store.pairing_of_game(row.id)
            if pairing_of is None or pairing_of.done:
                continue
            tournament = await self.find(None, pairing_of.tournament_id)
            if tournament.stage is Stage.RUNNING:
                found.append((tournament, pairing_of))
        return found

    async def running_games(self, shards: Shards | None = None) -> list[GameView]:
        """Every tournament game being played in the servers on `shards` (None: all), to
        check their threads."""
        views = []
        for tournament in await self.store.running_tournaments():
            if shards is not None and not shards.serves(tournament.guild_id):
                continue
            for found in await self.store.pairings(tournament.id):
                if found.done or found.game_id is None:
                    continue
                row = await self.store.get_game(found.game_id)
                if row is not None and row.status is Status.ACTIVE:
                    views.append(self.ledger.view_of(row))
        return views

    async def move_game(self, game_id: int, channel_id: int) -> GameView:
        """A tournament game whose thread was deleted goes on in a new one, `channel_id`:
        a game of a tournament is not abandoned for a lost thread, as a challenge's is.
        It has no board there yet (none recorded) until the bot posts one."""
        thread = snowflake(channel_id, "channel")

        def moved(loaded: Loaded) -> Draft:
            row = loaded.row
            if row.status is not Status.ACTIVE:
                raise BadInput("tournament.game-over", id=row.id)
            return Draft(
                dataclasses.replace(row, channel_id=thread, updated_at=self.ledger.clock())
            )

        await self.ledger.change(Where(game_id=game_id), moved, race=Race.RETRY)
        # The messages of the old thread are gone with it: none is the board or the ping.
        await self.ledger.write_now(game_id, Marks.message(None).then(Marks.ping(None)))
        return self.ledger.view(await self.ledger.load(Where(game_id=game_id)))

    async def game_ended(self, game_id: int) -> Progress | None:
        """A game ended: if it is a tournament's, its result is written (once) and the
        tournament moves on. None for any other game."""
        found = await self.store.pairing_of_game(game_id)
        if found is None:
            return None
        row = await self.store.get_game(game_id)
        if row is None or row.status is not Status.FINISHED:
            return None
        if not found.done:
            await self._record(found, row)
        progress = await self.advance(found.tournament_id)
        log.info(
            "tournament #%s: the result of game #%s is counted; %d new pairings%s",
            found.tournament_id, game_id, len(progress.new),
            ", and it is over" if progress.tournament.stage is Stage.FINISHED else "",
        )  # fmt: skip
        return progress

    async def _record(self, found: StoredPairing, row: StoredGame) -> None:
        """A pairing's result, from its finished game (written once)."""
        score = FIRST_SCORE.get(row.result or "", 0.5)  # abandoned: shared, as no one lost
        await self.store.record_result(found.id, score, row.updated_at)

    async def advance(self, tournament_id: int) -> Progress:
        """Move a running tournament on as far as its results allow: the next round,
        new arena pairings, or its end. Safe to call at any time, from anywhere."""
        for _ in range(ATTEMPTS):
            tournament = await self.find(None, tournament_id)
            if tournament.stage is not Stage.RUNNING:
                return Progress(tournament)
            now = self.ledger.clock()
            made = await self.store.pairings(tournament.id)
            playing = [e.user_id for e in await self.store.entrants(tournament.id) if e.playing]
            busy = [p for p in made if not p.done]
            moved: Tournament | None = None
            new: list[StoredPairing] = []
            if tournament.format is Format.ARENA:
                open_window = tournament.ends_at is not None and now < tournament.ends_at
                if not open_window and not busy:
                    moved = dataclasses.replace(tournament, stage=Stage.FINISHED, finished_at=now)
                elif open_window and tournament.ends_at - now > ARENA_CLOSING:  # type: ignore[operator]
                    new = await self._pairings(tournament, made, playing, now)
                    if new:
                        moved = tournament
            elif any(p.round > tournament.round for p in made):
                continue  # another advance moved it on between the two reads: read again
            elif not busy:
                if tournament.round >= self._last_round(tournament, made):
                    moved = dataclasses.replace(tournament, stage=Stage.FINISHED, finished_at=now)
                else:
                    moved = dataclasses.replace(tournament, round=tournament.round + 1)
                    new = await self._pairings(moved, made, playing, now)
            if moved is None:
                return Progress(tournament)
            written = await self.store.update_tournament(moved, new)
            if written is not None:
                done = written[0].stage is Stage.FINISHED
                return Progress(written[0], tuple(written[1]), done)
        return Progress(await self.find(None, tournament_id))

    async def catch_up(
        self, now: datetime | None = None, *, shards: Shards | None = None
    ) -> list[Progress]:
        """What the upkeep pass does (`matches.runner`), and a restart needs, in the servers
        on `shards` (None: all): tournaments due to start or end, results of games that
        ended unseen, and pairings whose game was never opened (returned as `new`, for the
        adapter to open them). A tournament that fails is logged with its ids and left for
        the next pass; the others go on."""
        now = now or self.ledger.clock()
        done: list[Progress] = []
        for tournament in await self.store.tournaments_due(now, shards):
            try:
                done.extend(await self._due(tournament, now))
            except Exception:
                log.exception(
                    "tournament #%s of server %s: its start or end failed",
                    tournament.id, tournament.guild_id,
                )  # fmt: skip
        waiting: dict[int, list[StoredPairing]] = {}
        for found in await self.store.pairings_to_settle(shards):
            if found.game_id is None:
                waiting.setdefault(found.tournament_id, []).append(found)  # never opened
                continue
            try:
                ended = await self.game_ended(found.game_id)  # a result missed while down
            except Exception:
                log.exception(
                    "tournament #%s: the result of game #%s failed", found.tournament_id,
                    found.game_id,
                )  # fmt: skip
                continue
            if ended is not None:  # the standings to show, perhaps a round or the end
                done.append(ended)
        for tournament_id, pairings in waiting.items():
            done.append(Progress(await self.find(None, tournament_id), tuple(pairings)))
        return done

    async def _due(self, tournament: Tournament, now: datetime) -> list[Progress]:
        """A tournament whose time came: started (cancelled with too few players), or
        (an arena) ended."""
        if tournament.stage is not Stage.SIGNUP:
            return [await self.advance(tournament.id)]
        try:
            return [await self.start(None, tournament.id)]
        except BadInput as error:
            if error.code == "tournament.already-started":
                return []  # by another hand meanwhile, which shows it
            if error.code != "tournament.too-few":
                raise  # busy: the next pass starts it
            cancelled = dataclasses.replace(
                tournament, stage=Stage.CANCELLED, finished_at=now, reason="too-few"
            )
            written = await self.store.update_tournament(cancelled)
            return [] if written is None else [Progress(written[0], (), True)]

    async def cancel(
        self, guild_id: int, tournament_id: int, reason: str, *, by: int | None = None
    ) -> Tournament:
        """Cancel a tournament, with why; `by`: the organiser (written to the audit log)."""
        for _ in range(ATTEMPTS):  # a write of its messages' ids may have come between
            tournament = await self.find(guild_id, tournament_id)
            if tournament.stage in (Stage.FINISHED, Stage.CANCELLED):
                raise BadInput("tournament.over", name=tournament.name)
            now = self.ledger.clock()
            written = await self.store.update_tournament(
                dataclasses.replace(
                    tournament, stage=Stage.CANCELLED, finished_at=now, reason=reason
                )
            )
            if written is not None:
                if by is not None:
                    await self.managers.record(
                        tournament.guild_id, by, AuditAction.TOURNAMENT_CANCEL, reason=reason,
                        details=f"tournament={tournament.id}",
                    )  # fmt: skip
                return written[0]
        raise BadInput("tournament.busy")

    async def standings(self, tournament_id: int) -> tuple[Line, ...]:
        tournament = await self.find(None, tournament_id)
        entrants = [e.user_id for e in await self.store.entrants(tournament.id)]
        return (await self._counted(tournament, entrants)).lines()

    async def _counted(
        self,
        tournament: Tournament,
        players: Sequence[int],
        made: Sequence[StoredPairing] | None = None,
    ) -> Standings:
        """The tournament's standings with every result so far counted (those in `made`,
        when the caller has just read the pairings).

        A running tournament's are kept and only the results since the last one counted
        are read and applied (issue 14's 50 ms for a result in a 1,000-player tournament);
        a finished one's are counted once more from the start and not kept.

        Only players who took part are counted: one who left before ever being paired
        (pressed Leave before the start) is in no standings.
        """
        absent = await self.store.left_unpaired(tournament.id)
        if absent:
            players = [player for player in players if player not in absent]
        kept = self._kept.get(tournament.id)
        if kept is not None and kept.players != tuple(players):
            kept = None  # someone joined: counted again
        fresh: list[StoredPairing] = []
        if made is not None:
            fresh = sorted((p for p in made if p.done), key=_ended_order)
            total = len(fresh)
        elif kept is not None:
            total, fresh = await self.store.results_since(tournament.id, _moment(kept.last[0]))
        if kept is not None:
            fresh = [p for p in fresh if p.id not in kept.counted]
            if len(kept.counted) + len(fresh) != total or (
                fresh and _ended_order(fresh[0]) < kept.last
            ):
                kept = None  # a result written late, that ended before the last one counted
        if kept is None:
            if made is None:
                fresh = (await self.store.results_since(tournament.id, None))[1]
            else:
                fresh = sorted((p for p in made if p.done), key=_ended_order)
            ratings = await self._ratings(tournament, players)
            kept = _Kept(Standings(tournament.format, players, ratings), tuple(players), set())
        for p in fresh:
            kept.standings.apply(
                Played(p.first_id, p.second_id, p.score, p.round, p.forfeit, p.voided)
            )
            kept.counted.add(p.id)
            kept.last = _ended_order(p)
        if tournament.stage is Stage.RUNNING:
            self._kept[tournament.id] = kept
        else:
            self._kept.pop(tournament.id, None)
        return kept.standings

    # ---------------------------------------------------------------- pairing

    def _last_round(self, tournament: Tournament, made: Sequence[StoredPairing]) -> int:
        """The number of the tournament's last round (round robin: the seats of the table)."""
        if tournament.format is Format.SWISS:
            return tournament.rounds or 1
        everyone = {p.first_id for p in made} | {p.second_id for p in made if p.second_id}
        seats = len(everyone) + len(everyone) % 2
        cycle = seats - 1
        return cycle * 2 if tournament.format is Format.DOUBLE_ROUND_ROBIN else cycle

    async def _pairings(
        self,
        tournament: Tournament,
        made: Sequence[StoredPairing],
        playing: Sequence[int],
        now: datetime,
    ) -> list[StoredPairing]:
        """The pairings of `tournament.round` (an arena: of its free players now)."""
        kind, number = tournament.format, tournament.round
        if kind in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
            # The table is the one drawn at the start: the players then, in joining order.
            seated = {u for p in made for u in (p.first_id, p.second_id) if u is not None}
            entrants = await self.store.entrants(tournament.id)
            seeded = [e.user_id for e in entrants if e.user_id in seated] if made else [*playing]
            schedule = pairing.round_robin(seeded, double=kind is Format.DOUBLE_ROUND_ROBIN)
            boards = schedule[number - 1]
        elif kind is Format.SWISS:
            players = await self._swiss_players(tournament, made, playing)
            try:
                boards = pairing.swiss_round(players, number)
            except pairing.PairingImpossibleError:
                return []
        else:
            everyone = [e.user_id for e in await self.store.entrants(tournament.id)]
            lines = (await self._counted(tournament, everyone, made)).lines()
            points = {line.player: int(line.points) for line in lines}
            free = self._arena_players(made, playing, points)
            boards = pairing.arena_pairs(free, players=len(playing))
        return [self._pairing(tournament, board, playing, now) for board in boards]

    def _pairing(
        self, tournament: Tournament, board: pairing.Pairing, playing: Sequence[int], now: datetime
    ) -> StoredPairing:
        number = tournament.round
        if board.second is None:  # a bye: a point, at once
            return StoredPairing(tournament.id, number, board.first, None, score=1.0, ended_at=now)
        gone = [p for p in (board.first, board.second) if p not in playing]
        if gone:  # a withdrawn player's game is lost by forfeit, unplayed
            score = 0.5 if len(gone) == 2 else (0.0 if gone[0] == board.first else 1.0)
            return StoredPairing(tournament.id, number, board.first, board.second, score=score,
                                 forfeit=True, ended_at=now)  # fmt: skip
        return StoredPairing(tournament.id, number, board.first, board.second)

    async def _forfeit_unplayed(self, tournament: Tournament, user_id: int) -> None:
        now = self.ledger.clock()
        for found in await self.store.pairings(tournament.id):
            if (
                found.done
                or found.game_id is not None
                or user_id not in (found.first_id, found.second_id)
            ):
                continue
            score = 0.0 if found.first_id == user_id else 1.0
            await self.store.record_result(found.id, score, now, forfeit=True)

    async def _ratings(self, tournament: Tournament, players: Iterable[int]) -> dict[int, Glicko]:
        found: dict[int, Glicko] = {}
        for user in players:
            standing = await self.store.standing(tournament.guild_id, tournament.game, user)
            found[user] = standing.glicko if standing is not None else Glicko()
        return found

    async def _swiss_players(
        self, tournament: Tournament, made: Sequence[StoredPairing], playing: Sequence[int]
    ) -> list[pairing.SwissPlayer]:
        ratings = await self._ratings(tournament, playing)
        score: dict[int, float] = dict.fromkeys(playing, 0.0)
        byes: set[int] = set()
        opponents: dict[int, list[int]] = {user: [] for user in playing}
        colours: dict[int, list[pairing.Colour]] = {user: [] for user in playing}
        for p in made:
            if p.second_id is None:
                score[p.first_id] = score.get(p.first_id, 0.0) + 1.0
                byes.add(p.first_id)
                continue
            if p.score is None:
                continue
            sides: tuple[tuple[int, int, pairing.Colour, float], ...] = (
                (p.first_id, p.second_id, "first", p.score),
                (p.second_id, p.first_id, "second", 1.0 - p.score),
            )
            for user, other, side, points in sides:
                score[user] = score.get(user, 0.0) + points
                opponents.setdefault(user, []).append(other)
                colours.setdefault(user, []).append(side)
        return [
            pairing.SwissPlayer(user, score[user], ratings[user].rating, tuple(opponents[user]),
                                tuple(colours[user]), user in byes)
            for user in playing
        ]  # fmt: skip

    def _arena_players(
        self, made: Sequence[StoredPairing], playing: Sequence[int], points: dict[int, int]
    ) -> list[pairing.ArenaPlayer]:
        busy = {u for p in made if not p.done for u in (p.first_id, p.second_id)}
        last: dict[int, int | None] = {}  # each player's last opponent
        colours: dict[int, list[pairing.Colour]] = {}
        for p in made:
            if p.second_id is None:
                continue
            last[p.first_id], last[p.second_id] = p.second_id, p.first_id
            colours.setdefault(p.first_id, []).append("first")
            colours.setdefault(p.second_id, []).append("second")
        return [
            pairing.ArenaPlayer(
                user, points.get(user, 0), last.get(user), tuple(colours.get(user, ()))
            )
            for user in playing
            if user not in busy
        ]


class _Over(Exception):
    """A game a withdrawal would resign had already ended."""


def _refusal(tournament: Tournament, started: str) -> BadInput:
    """Why a sign-up action was refused: the tournament is over, or (`started`) it began."""
    if tournament.stage in (Stage.FINISHED, Stage.CANCELLED):
        return BadInput("tournament.over", name=tournament.name)
    return BadInput(started, name=tournament.name)


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _ended_order(found: StoredPairing) -> tuple[float, int]:
    """Results in the order they ended (a pairing's id breaks a tie)."""
    return (found.ended_at.timestamp() if found.ended_at else 0.0, found.id)
