"""The manager's kit: voids, suspensions, the server's limits on challenges, the audit log.

Every manager's action is written to the server's audit log here, in `record`
(or in the very transaction of the action: a void, a suspension), and then
told as an `Audited` event: the adapter posts it to the server's log channel,
and tells the players of a voided game. Who may act (Manage Server, the
organisers' role) is the adapter's to check, as for the other settings.

- A void annuls a rated result: the game is marked voided (it no longer counts,
  `ratings.counts`) and the server's ratings and season tables are rebuilt from
  its games (`recompute.rate_all`), in one transaction with the mark. A
  tournament's game voided is a double forfeit: both players lose it.
- A suspended player may not challenge anyone, accept a challenge, nor join a
  tournament on that server until the suspension ends (by itself, at its
  time). Games against Kamen stay open to them: they are never rated and
  bother nobody.
- `gate` is the one check of a game about to be started by a challenge or an
  import: the suspension, the channels where games may start, the cooldown
  between two challenges and the number of challenges open at once (those two
  for challenges to people only).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from datetime import timedelta

from matches.errors import BadInput
from matches.events import Audited
from matches.inputs import capped, snowflake
from matches.ledger import ATTEMPTS, Ledger, Where
from matches.ratings import RatingChange, Season, SeasonScore, Standing, counts
from matches.recompute import rate_all
from matches.records import (
    AuditAction,
    AuditEntry,
    GuildSettings,
    Status,
    StoredGame,
    Suspension,
)
from matches.views import GameView

MAX_REASON = 300  # characters of a void's or a suspension's reason
MAX_SUSPENSION_DAYS = 3650
MAX_COOLDOWN = 86_400  # seconds: a day between two challenges at most
MAX_OPEN_CHALLENGES = 100
MAX_GAME_CHANNELS = 25
AUDIT_PAGE = 10  # lines of the audit log a page shows


@dataclass(frozen=True, slots=True)
class Voided:
    """A void done: the game, its audit line, and each player's rating in the game's pool
    before and after (None: no rating, the game was their only rated one)."""

    game: GameView
    entry: AuditEntry
    before: tuple[Standing | None, Standing | None]
    after: tuple[Standing | None, Standing | None]


@dataclass(frozen=True, slots=True)
class AuditPage:
    """One page of a server's audit log, newest first (`page` from 0, of `pages`)."""

    entries: tuple[AuditEntry, ...]
    page: int
    pages: int


class Managers:
    """The manager's kit on the ledger it is handed (`service.managers`)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.store = ledger.store

    # ------------------------------------------------------------ the audit log

    async def record(
        self,
        guild_id: int,
        actor_id: int,
        action: AuditAction,
        *,
        user_id: int | None = None,
        game_id: int | None = None,
        reason: str | None = None,
        details: str = "",
    ) -> AuditEntry:
        """Write one line of the audit log and tell it (`Audited`)."""
        entry = AuditEntry(
            snowflake(guild_id, "server"), self.ledger.clock(), snowflake(actor_id, "user"),
            action, user_id, game_id, reason, details,
        )  # fmt: skip
        written = await self.store.add_audit(entry)
        await self._tell(written)
        return written

    async def _tell(self, entry: AuditEntry, game: GameView | None = None) -> None:
        settings = await self.store.guild_settings(entry.guild_id)
        await self.ledger.events.publish([Audited(entry, settings.log_channel_id, game)])

    async def audit(self, guild_id: int, page: int = 0) -> AuditPage:
        """A page of the server's audit log, newest first (a page past the last: the last)."""
        guild = snowflake(guild_id, "server")
        pages = max(1, math.ceil(await self.store.audit_size(guild) / AUDIT_PAGE))
        page = min(max(page, 0), pages - 1)
        found = await self.store.audit(guild, offset=page * AUDIT_PAGE, limit=AUDIT_PAGE)
        return AuditPage(tuple(found), page, pages)

    async def settings_changed(
        self, guild_id: int, actor_id: int, before: GuildSettings, after: GuildSettings
    ) -> AuditEntry | None:
        """Record what a settings command changed (nothing: no line)."""
        changed = [
            f"{field.name}={_value(getattr(after, field.name))}"
            for field in dataclasses.fields(after)
            if getattr(before, field.name) != getattr(after, field.name)
        ]
        if not changed:
            return None
        details = " ".join(changed)
        return await self.record(guild_id, actor_id, AuditAction.SETTINGS, details=details)

    # ------------------------------------------------------------------- voids

    async def void(self, guild_id: int, actor_id: int, game_id: int, reason: str) -> Voided:
        """Annul a rated game's result, with why; refused for a game not rated (or not over),
        voided already, or of another server (not found from here)."""
        reason = _reason(reason)
        guild, actor = snowflake(guild_id, "server"), snowflake(actor_id, "user")
        for _ in range(ATTEMPTS):
            row = await self.ledger.find(Where(game_id=game_id, guild_id=guild))
            if row.voided is not None:
                raise BadInput("managers.void.already", id=row.id, reason=row.voided)
            if row.status is not Status.FINISHED:
                raise BadInput("managers.void.not-over", id=row.id)
            if not counts(row):
                raise BadInput("managers.void.unrated", id=row.id)
            players = row.players
            assert players is not None  # counts() saw them
            before = await self._standings(row, players)
            entry = AuditEntry(
                guild, self.ledger.clock(), actor, AuditAction.VOID,
                game_id=row.id, reason=reason, details=f"result={row.result}",
            )  # fmt: skip
            voided = dataclasses.replace(row, voided=reason)
            done = await self.store.void_game(voided, entry, _rebuild)
            if done is None:
                continue  # the game changed meanwhile (its board shown): read again
            saved, written = done
            view = self.ledger.view_of(saved)
            await self._tell(written, view)
            after = await self._standings(saved, players)
            return Voided(view, written, before, after)
        raise BadInput("managers.void.busy", id=game_id)

    async def _standings(
        self, row: StoredGame, players: tuple[int, int]
    ) -> tuple[Standing | None, Standing | None]:
        first = await self.store.standing(row.guild_id, row.game, players[0])
        second = await self.store.standing(row.guild_id, row.game, players[1])
        return first, second

    # ------------------------------------------------------------- suspensions

    async def suspend(
        self, guild_id: int, actor_id: int, user_id: int, days: int, reason: str
    ) -> Suspension:
        """Keep a player from challenges, rated games and tournaments here for `days` days."""
        reason = _reason(reason)
        if isinstance(days, bool) or not isinstance(days, int):
            raise BadInput("managers.suspend.days", low=1, high=MAX_SUSPENSION_DAYS)
        if not 1 <= days <= MAX_SUSPENSION_DAYS:
            raise BadInput("managers.suspend.days", low=1, high=MAX_SUSPENSION_DAYS)
        guild, actor = snowflake(guild_id, "server"), snowflake(actor_id, "user")
        user = snowflake(user_id, "user")
        if user == self.ledger.bot_user_id:
            raise BadInput("managers.suspend.kamen")
        now = self.ledger.clock()
        until = now + timedelta(days=days)
        suspension = Suspension(guild, user, until, actor, now, reason)
        entry = AuditEntry(
            guild, now, actor, AuditAction.SUSPEND, user_id=user, reason=reason,
            details=f"until={int(until.timestamp())}",
        )  # fmt: skip
        await self._tell(await self.store.suspend(suspension, entry))
        return suspension

    async def unsuspend(self, guild_id: int, actor_id: int, user_id: int) -> None:
        """Lift a player's suspension here (refused if they are not suspended)."""
        guild, actor = snowflake(guild_id, "server"), snowflake(actor_id, "user")
        user = snowflake(user_id, "user")
        if await self.suspended(guild, user) is None:
            raise BadInput("managers.unsuspend.none", user=user)
        entry = AuditEntry(guild, self.ledger.clock(), actor, AuditAction.UNSUSPEND, user_id=user)
        written = await self.store.unsuspend(guild, user, entry)
        if written is None:
            raise BadInput("managers.unsuspend.none", user=user)
        await self._tell(written)

    async def suspended(self, guild_id: int, user_id: int) -> Suspension | None:
        """The player's suspension on the server, while it runs."""
        found = await self.store.suspension(guild_id, user_id)
        if found is None or found.until <= self.ledger.clock():
            return None
        return found

    async def refuse_suspended(self, guild_id: int, user_id: int, code: str) -> None:
        """Refuse (in `code`'s words, with until when) a player suspended on the server."""
        found = await self.suspended(guild_id, user_id)
        if found is not None:
            raise BadInput(code, until=int(found.until.timestamp()))

    # ------------------------------------------------------------------- the gate

    async def gate(
        self, guild_id: int, channel_id: int, user_id: int, *, with_person: bool
    ) -> GuildSettings:
        """Whether `user_id` may start a game here now; refused with why if not, else the
        server's settings it read (for the caller's own checks).

        `with_person`: a challenge to a person or to anyone (not to Kamen, not a study):
        refused to a suspended player, and counted against the cooldown and the limit of
        challenges open at once. Every game is started only in the server's game channels.
        """
        settings = await self.store.guild_settings(guild_id)
        if settings.game_channels and channel_id not in settings.game_channels:
            listed = " ".join(f"<#{channel}>" for channel in settings.game_channels)
            raise BadInput("managers.gate.channels", channels=listed)
        if not with_person:
            return settings
        await self.refuse_suspended(guild_id, user_id, "managers.gate.suspended")
        now = self.ledger.clock()
        if settings.challenge_cooldown:
            last = await self.store.last_challenge_at(guild_id, user_id)
            if last is not None:
                ready = last + timedelta(seconds=settings.challenge_cooldown)
                if ready > now:
                    raise BadInput("managers.gate.cooldown", at=math.ceil(ready.timestamp()))
        if settings.open_challenges is not None:
            mine = [
                row
                for row in await self.store.open_games_of(user_id)
                if row.status is Status.CHALLENGE
                and row.guild_id == guild_id
                and row.challenger_id == user_id
                and (row.deadline is None or row.deadline > now)
            ]
            if len(mine) >= settings.open_challenges:
                raise BadInput("managers.gate.open", limit=settings.open_challenges)
        return settings

    # ---------------------------------------------------------------- settings

    async def set_log_channel(self, guild_id: int, channel_id: int | None) -> GuildSettings:
        """The channel the audit log is posted to; None: none."""
        channel = None if channel_id is None else snowflake(channel_id, "channel")
        return await self._settle(guild_id, log_channel_id=channel)

    async def set_challenge_cooldown(self, guild_id: int, seconds: int) -> GuildSettings:
        """The seconds one person waits between two challenges (0: no wait)."""
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise BadInput("managers.settings.cooldown", high=MAX_COOLDOWN)
        if not 0 <= seconds <= MAX_COOLDOWN:
            raise BadInput("managers.settings.cooldown", high=MAX_COOLDOWN)
        return await self._settle(guild_id, challenge_cooldown=seconds)

    async def set_open_challenges(self, guild_id: int, limit: int | None) -> GuildSettings:
        """How many challenges one person may have open at once (None: any number)."""
        if limit is not None and (
            isinstance(limit, bool)
            or not isinstance(limit, int)
            or not 1 <= limit <= MAX_OPEN_CHALLENGES
        ):
            raise BadInput("managers.settings.open", high=MAX_OPEN_CHALLENGES)
        return await self._settle(guild_id, open_challenges=limit)

    async def toggle_game_channel(self, guild_id: int, channel_id: int) -> GuildSettings:
        """Add a channel to those where games may start, or take it out if it is one."""
        channel = snowflake(channel_id, "channel")
        current = (await self.store.guild_settings(snowflake(guild_id, "server"))).game_channels
        if channel in current:
            chosen = tuple(c for c in current if c != channel)
        elif len(current) >= MAX_GAME_CHANNELS:
            raise BadInput("managers.settings.channels-full", limit=MAX_GAME_CHANNELS)
        else:
            chosen = (*current, channel)
        return await self._settle(guild_id, game_channels=chosen)

    async def clear_game_channels(self, guild_id: int) -> GuildSettings:
        """Games may start in every channel again."""
        return await self._settle(guild_id, game_channels=())

    async def _settle(self, guild_id: int, **changes: object) -> GuildSettings:
        """The settings changed; the command that changes them records what it changed in
        all (`settings_changed`)."""
        before = await self.store.guild_settings(snowflake(guild_id, "server"))
        after = dataclasses.replace(before, **changes)  # type: ignore[arg-type]
        return await self.store.save_guild_settings(after, self.ledger.clock())


def _reason(reason: str) -> str:
    text = capped(reason, MAX_REASON, "reason").strip()
    if not text:
        raise BadInput("managers.reason.empty")
    return text


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value) or "-"
    if value is None:
        return "-"
    return str(value)


def _rebuild(
    games: list[StoredGame], seasons: list[Season], changes: list[RatingChange]
) -> tuple[list[Standing], list[RatingChange], list[SeasonScore]]:
    """A server's ratings from its games that count, as `python -m store recompute` makes
    them (`matches.recompute.rebuild`), inside the void's transaction."""
    rebuilt = rate_all([game for game in games if counts(game)], seasons, changes)
    return rebuilt.standings, rebuilt.changes, rebuilt.scores
