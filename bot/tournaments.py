"""Tournaments in Discord: `/tournament ...`, the sign-up message, the games, the standings.

The service runs the tournaments (`matches.tournaments`); this reads the
commands' options, checks what only Discord knows (Manage Server), and shows
a tournament as it goes: a public sign-up message with Join and Leave buttons
(their `custom_id` carries the tournament's id, so they work after a
restart) and the players kept current; each round's pairings, each game in a
thread of its own whose board pings both players; a standings message edited
in place after every result; the final standings, with the winner named.

Games start themselves: after the start, after each game's end (the service
hears it and tells `tournament_progressed`) and after each upkeep pass of the
service's runner (`tournaments_upkept`: tournaments started at their time,
what happened while Kamen was away caught up). The work of one tournament is
done one piece at a time (a lock per tournament), and a pairing's game is
opened once: its stored game id is read again first.

With several processes on one database, a tournament is run by the process
serving its server's shard (`matches.runner`). A round's pairings are posted
once whatever dies when (`Table.send_once`); a pairing's game is opened once
(its starting message and thread recorded, the message sent with a nonce); a
game Discord refuses to open is tried again later and later, and the organiser
is told once if Kamen lacks the permission to make threads.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Annotated, Any

import discord
from discord import app_commands, ui
from discord.app_commands import Choice, Range

import words
from bot import declare, options, replies
from bot.answers import Answer
from bot.replies import (
    NO_MENTIONS,
    Outgoing,
    markdown_safe,
    mention,
    mentions_of,
    points_text,
    when,
)
from bot.table import (
    ARCHIVE_MINUTES,
    Table,
    channel_id_of,
    guarded,
    guild_id_of,
    manages,
    nonce_of,
    require_manager,
)
from matches import BadInput, GameView
from matches.shards import Shards
from matches.standings import TIEBREAKS, Line
from matches.tournament_records import Entrant, Format, Stage, StoredPairing, Tournament
from matches.tournaments import ARENA_MINUTES, MAX_NAME, MAX_ROUNDS, Progress
from render.tables import Column, TableImage, table_png
from words.games import title

log = logging.getLogger(__name__)

FORMATS = tuple(str(f) for f in Format)
STANDINGS_FILE = "standings.png"
TEXT_LINES = 20  # the standings' text lines; the image has them all
LISTED = 10  # tournaments listed per section of /tournament list
OPENING = timedelta(minutes=2)  # how long a claim on opening a pairing's game holds
# Seconds before a game Discord refused to open is tried again, doubled up to the most:
# a permission given (or Discord back) opens the games within a minute.
OPEN_AGAIN_FIRST, OPEN_AGAIN_MOST = 2.0, 60.0
_DURATION = re.compile(r"^(\d{1,4})\s*(m|h|d)$")
_UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
_DATE_TIME = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})$")
STARTS_EXAMPLES = ("2027-01-05 18:00", "30m", "2h", "3d")
MAX_STARTS = 32  # characters of `starts:`
MAX_REASON = 200  # characters of a cancellation's or a removal's `reason:`
TournamentId = Range[int, 1, 2**53]  # a tournament's number
ABOUT = ("game", "format", "name", "rounds", "minutes", "starts", "tournament", "user", "reason",
         "role", "clear")  # fmt: skip
NAMED = ("format", "name", "rounds", "minutes", "starts", "role", "clear")


def starts_at(text: object, now: datetime) -> datetime | None:
    """When a tournament starts by itself: `2027-01-05 18:00` (UTC), or `30m`, `2h`, `3d` from
    now; None when left empty (a manager starts it)."""
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > MAX_STARTS:
        raise BadInput(
            "tournament.bad-starts", starts=str(text)[:MAX_STARTS], examples=STARTS_EXAMPLES
        )
    said = text.strip().lower()
    if not said:
        return None
    moment: datetime | None = None
    try:
        if found := _DURATION.match(said):
            moment = now + int(found.group(1)) * _UNITS[found.group(2)]
        elif found := _DATE_TIME.match(said):
            year, month, day, hour, minute = (int(part) for part in found.groups())
            moment = datetime(year, month, day, hour, minute, tzinfo=UTC)
    except (ValueError, OverflowError):
        moment = None
    if moment is None:
        raise BadInput("tournament.bad-starts", starts=text, examples=STARTS_EXAMPLES)
    return moment


@dataclass
class _Running:
    """What the bot keeps while it runs the tournaments (none of it needed after a restart)."""

    locks: dict[int, asyncio.Lock] = field(default_factory=dict)  # one piece of work at a time
    rounds_told: set[tuple[int, int]] = field(default_factory=set)
    # Pairings whose game Discord refused to open: how often, and when it is tried again.
    open_failed: dict[int, tuple[int, float]] = field(default_factory=dict)
    threads_checked: bool = False  # the running games' threads, looked at once after a start


class Tournaments:
    """`/tournament`, its buttons, and the tournaments' running in Discord, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service
        self.client = table.client
        self._running = _Running()

    def commands(self) -> app_commands.Group:
        """`/tournament ...`: a server's tournaments; managers create, start and run them."""
        group = declare.group("tournament", guild_only=True)
        about = {option: f"command.about.tournament.{option}" for option in ABOUT}
        about["time"] = "command.about.time"
        names = {option: f"command.option.tournament.{option}" for option in NAMED}
        choices = {
            "game": declare.game_choices(),
            "time": declare.time_choices(options.TOURNAMENT_TIMES),
            "format": [Choice(name=declare.t(f"tournament.format.{f}"), value=f) for f in FORMATS],
        }
        subcommands = (
            ("create", self.create), ("start", self.start), ("standings", self.standings),
            ("list", self.listing), ("show", self.show), ("cancel", self.cancel),
            ("remove", self.remove), ("leave", self.leave), ("organisers", self.organisers),
        )  # fmt: skip
        for key, handler in subcommands:
            group.add_command(
                declare.command(
                    key,
                    handler,
                    about=about,
                    names=names,
                    choices=choices,
                    named_by=f"command.name.tournament.{key}",
                    described_by=f"command.tournament.{key}",
                )
            )
        return group

    # ---------------------------------------------------------------- commands

    @guarded
    async def create(
        self,
        answer: Answer,
        game: Annotated[object, str],
        format: Annotated[object, str],
        name: Annotated[object, Range[str, 1, MAX_NAME]],
        rounds: Annotated[object, Range[int, 1, MAX_ROUNDS] | None] = None,
        minutes: Annotated[object, Range[int, 1, ARENA_MINUTES[1]] | None] = None,
        time: Annotated[object, str | None] = None,
        starts: Annotated[object, Range[str, 1, MAX_STARTS] | None] = None,
    ) -> None:
        guild_id = await self._organiser(answer)
        spec = options.game_name("game", game)
        kind = options.choice("format", format, FORMATS)
        named = name if isinstance(name, str) else ""  # the service checks it, and says the limit
        chosen_time = options.choice("time", time, options.TOURNAMENT_TIMES)
        service = self.service.tournaments
        tournament = await service.create(
            guild_id=guild_id,
            channel_id=_channel(answer),
            by=answer.interaction.user.id,
            game=spec.name,
            format=kind or "",
            name=named or "",
            rounds=_number(rounds),
            minutes=_number(minutes),
            time=chosen_time,
            starts_at=starts_at(starts, self.service.clock()),
        )
        answer.public = True
        out = signup_message(tournament, [], answer.server_locale)
        message_id = await answer.send(out)
        if message_id is not None:
            await self._remember_message(tournament.id, message_id=message_id)

    @guarded
    async def start(
        self, answer: Answer, tournament: Annotated[object, TournamentId | None] = None
    ) -> None:
        guild_id = await self._organiser(answer)
        found = await self._chosen(guild_id, tournament)
        progress = await self.service.tournaments.start(guild_id, found.id)
        answer.public = True
        arena = progress.tournament.format is Format.ARENA
        code = "tournament.started.arena" if arena else "tournament.started"
        text = words.say(code, answer.server_locale, name=_name(progress.tournament))
        await answer.send(Outgoing(text, mentions=NO_MENTIONS))
        self.table.spawn(self.moved(progress), f"the start of tournament #{found.id}")

    @guarded
    async def standings(
        self, answer: Answer, tournament: Annotated[object, TournamentId | None] = None
    ) -> None:
        found = await self._chosen(guild_id_of(answer.interaction), tournament)
        await answer.say(await self._standings_message(found, answer.locale))

    @guarded
    async def listing(self, answer: Answer) -> None:
        """The server's tournaments: running, then upcoming, then past (latest first), each
        with a link to its sign-up message (which shows its players and state)."""
        found = await self.service.tournaments.of_server(guild_id_of(answer.interaction))
        locale = answer.locale
        sections = {"running": [Stage.RUNNING], "upcoming": [Stage.SIGNUP],
                    "past": [Stage.FINISHED, Stage.CANCELLED]}  # fmt: skip
        said: list[str] = []
        for section, stages in sections.items():
            chosen = [t for t in found if t.stage in stages][:LISTED]
            if chosen:
                said.append(words.say(f"tournament.list.{section}", locale))
                said += [_list_line(t, locale) for t in chosen]
        text = "\n".join(said) or words.say("tournament.list.none", locale)
        await answer.say(Outgoing(replies.clip(text), mentions=NO_MENTIONS))

    @guarded
    async def show(self, answer: Answer, tournament: Annotated[object, TournamentId]) -> None:
        found = await self._chosen(guild_id_of(answer.interaction), tournament)
        entrants = await self.service.tournaments.entrants(found.id)
        out = signup_message(found, entrants, answer.locale)
        await answer.say(Outgoing(out.content, out.embed, mentions=NO_MENTIONS))

    @guarded
    async def cancel(
        self,
        answer: Answer,
        tournament: Annotated[object, TournamentId],
        reason: Annotated[object, Range[str, 1, MAX_REASON]],
    ) -> None:
        guild_id = await self._organiser(answer)
        found = await self._chosen(guild_id, tournament)
        why = options.text("reason", reason, low=1, high=MAX_REASON) or ""
        cancelled = await self.service.tournaments.cancel(
            guild_id, found.id, why, by=answer.interaction.user.id
        )
        answer.public = True
        text = words.say(
            "tournament.cancelled", answer.server_locale, name=_name(cancelled),
            reason=markdown_safe(why, MAX_REASON),
        )  # fmt: skip
        await answer.send(Outgoing(text, mentions=NO_MENTIONS))
        self.table.spawn(
            self._refresh_signup(cancelled.id), f"the sign-up of tournament #{found.id}"
        )

    @guarded
    async def remove(
        self,
        answer: Answer,
        tournament: Annotated[object, TournamentId],
        user: Annotated[object, discord.User],
        reason: Annotated[object, Range[str, 1, MAX_REASON]],
    ) -> None:
        guild_id = await self._organiser(answer)
        who = options.user("user", user)
        if who is None:
            raise BadInput("tournament.no-user")
        found = await self._chosen(guild_id, tournament)
        why = options.text("reason", reason, low=1, high=MAX_REASON) or "removed"
        progress = await self.service.tournaments.leave(
            guild_id, found.id, who.id, reason=why, by=answer.interaction.user.id
        )
        answer.public = True
        text = words.say(
            "tournament.removed", answer.server_locale, name=_name(found),
            player=mention(who.id), reason=markdown_safe(why, MAX_REASON),
        )  # fmt: skip
        lines = [text, *_resigned_lines(progress, who.id, answer.server_locale)]
        await answer.send(Outgoing("\n".join(lines), mentions=NO_MENTIONS))
        self.table.spawn(self._after_leaving(progress), f"a removal from tournament #{found.id}")

    @guarded
    async def leave(
        self, answer: Answer, tournament: Annotated[object, TournamentId | None] = None
    ) -> None:
        guild_id = guild_id_of(answer.interaction)
        found = await self._chosen(guild_id, tournament)
        user = answer.interaction.user.id
        progress = await self.service.tournaments.leave(guild_id, found.id, user)
        await answer.say(words.say("tournament.left", answer.locale, name=_name(found)))
        self.table.spawn(self._after_leaving(progress), f"a withdrawal from tournament #{found.id}")

    @guarded
    async def organisers(
        self,
        answer: Answer,
        role: Annotated[object, discord.Role | None] = None,
        clear: Annotated[object, bool | None] = None,
    ) -> None:
        """`/tournament organisers [role:] [clear:]`, for managers: the role whose members
        create and run tournaments besides them; see it, set it or clear it."""
        guild_id = require_manager(answer.interaction, "tournament.refuse.manage-server")
        locale = answer.locale
        if options.flag("clear", clear):
            await self.service.set_organiser_role(guild_id, None)
            await answer.say(words.say("tournament.organisers.cleared", locale))
            return
        if role is not None:
            if not isinstance(role, discord.Role) or role.guild.id != guild_id:
                raise BadInput("tournament.organisers.bad", value=options.given(role))
            if role.is_default() or role.managed:  # every member, or a bot's or app's own
                raise BadInput("tournament.organisers.unassignable", role=role.id)
            await self.service.set_organiser_role(guild_id, role.id)
            said = words.say("tournament.organisers.set", locale, role=role.mention)
            await answer.say(Outgoing(said, mentions=NO_MENTIONS))
            return
        current = (await self.service.settings(guild_id)).organiser_role_id
        if current is None:
            await answer.say(words.say("tournament.organisers.none", locale))
            return
        said = words.say("tournament.organisers.current", locale, role=f"<@&{current}>")
        await answer.say(Outgoing(said, mentions=NO_MENTIONS))

    async def _organiser(self, answer: Answer) -> int:
        """The server, if the caller may run its tournaments: a manager, or a member of the
        organisers' role the server named."""
        guild_id = guild_id_of(answer.interaction)
        if manages(answer.interaction):
            return guild_id
        role_id = (await self.service.settings(guild_id)).organiser_role_id
        if role_id is None:
            raise BadInput("tournament.refuse.manage-server")
        user = answer.interaction.user
        if role_id == guild_id or (
            isinstance(user, discord.Member) and user.get_role(role_id) is not None
        ):
            return guild_id
        raise BadInput("tournament.refuse.organiser", role=role_id)

    async def _after_leaving(self, progress: Progress) -> None:
        await self._refresh_signup(progress.tournament.id)
        if progress.tournament.stage is not Stage.SIGNUP:
            await self.moved(progress)

    # ---------------------------------------------------------------- the sign-up buttons

    @guarded
    async def button(self, answer: Answer, what: str, tournament_id: int) -> None:
        """Join or Leave on the sign-up message: the message shows the players as they are."""
        guild_id = guild_id_of(answer.interaction)
        service = self.service.tournaments
        user = answer.interaction.user.id
        if what == "join":
            await service.join(guild_id, tournament_id, user)
        else:
            await service.leave(guild_id, tournament_id, user, signup=True)
        found = await service.find(guild_id, tournament_id)
        entrants = await service.entrants(tournament_id)
        await answer.update(signup_message(found, entrants, answer.server_locale))

    async def _refresh_signup(self, tournament_id: int) -> None:
        """Edit the sign-up message to the tournament as it is (players, stage, buttons)."""
        found = await self.service.tournaments.find(None, tournament_id)
        if found.message_id is None:
            return
        entrants = await self.service.tournaments.entrants(found.id)
        locale = self.table.languages.server(found.guild_id)
        channel = self.client.get_partial_messageable(found.channel_id, guild_id=found.guild_id)
        out = signup_message(found, entrants, locale)
        try:
            await channel.get_partial_message(found.message_id).edit(**out.edit_kwargs())
        except discord.NotFound:
            log.info("tournament #%s: its sign-up message is gone", found.id)

    # ---------------------------------------------------------------- running

    def progressed(self, progress: Progress) -> None:
        """A game's end moved a tournament on (the service heard it): shown after the reply."""
        tid = progress.tournament.id
        self.table.spawn(self.moved(progress), f"tournament #{tid} after a game's end")

    async def upkept(self, progress: Progress) -> None:
        """Show what the runner's upkeep pass did in this process's servers."""
        await self.moved(progress)

    async def moved(self, progress: Progress) -> None:
        """Show what a change did: the games a withdrawal resigned, the round's games
        opened, the standings, the end."""
        tid = progress.tournament.id
        for view in progress.resigned:
            await self.table.update_board(view, await self.table.board(view))
            await self.table.announce_end(view, new_message=False)
        if progress.tournament.stage is Stage.SIGNUP:  # a player forgotten before the start
            await self._refresh_signup(tid)
            return
        async with self._running.locks.setdefault(tid, asyncio.Lock()):
            tournament = await self.service.tournaments.find(None, tid)
            if progress.tournament.stage is Stage.CANCELLED:
                await self._refresh_signup(tid)
                return
            stored = {p.id: p for p in await self.service.tournaments.pairings(tid)}
            waiting = [stored.get(p.id, p) for p in progress.new]
            to_open = [p for p in waiting if not p.done and p.game_id is None]
            if to_open:
                first = progress.new[0]
                key = (tid, first.id if tournament.format is Format.ARENA else first.round)
                if key not in self._running.rounds_told:
                    await self._tell_round(tournament, progress.new, key[1])
                    self._running.rounds_told.add(key)
            for pairing in to_open:
                await self._try_open(tournament, pairing)
            if (progress.new and tournament.round <= 1) or progress.finished:
                await self._refresh_signup(tid)
            await self._show_standings(tournament)
            if progress.finished:
                await self._tell_end(tournament)

    async def _try_open(self, tournament: Tournament, pairing: StoredPairing) -> None:
        """Open a pairing's game, unless it failed too recently: a refusal (Discord failing,
        or Kamen without the permission to make threads) is tried again later and later,
        and the organiser is told once what Kamen lacks."""
        now = asyncio.get_running_loop().time()
        tries, again = self._running.open_failed.get(pairing.id, (0, now))
        if again > now:
            return
        if not await self.service.claims.take(f"pairing:{pairing.id}:open", OPENING):
            return  # another process opens it now
        try:
            await self._open_game(tournament, pairing)
        except discord.HTTPException as error:
            wait = min(OPEN_AGAIN_FIRST * 2**tries, OPEN_AGAIN_MOST)
            self._running.open_failed[pairing.id] = (tries + 1, now + wait)
            log.warning("tournament #%s: pairing %s's game not opened (%s); trying again in %g s",
                        tournament.id, pairing.id, error, wait)  # fmt: skip
            if isinstance(error, discord.Forbidden):
                await self._tell_missing_permission(tournament)
            return
        self._running.open_failed.pop(pairing.id, None)

    async def _tell_missing_permission(self, tournament: Tournament) -> None:
        """Tell the organiser, once, that Kamen may not make the games' threads."""
        if not await self.service.claims.once(f"tournament:{tournament.id}:cannot-open"):
            return
        locale = self.table.languages.server(tournament.guild_id)
        text = words.say(
            "tournament.needs-threads", locale, name=_name(tournament),
            organiser=mention(tournament.created_by),
        )  # fmt: skip
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        try:
            await channel.send(text, allowed_mentions=mentions_of(tournament.created_by))
        except discord.HTTPException as error:
            log.warning("tournament #%s: the organiser could not be told: %s", tournament.id,
                        error)  # fmt: skip

    async def _tell_round(
        self, tournament: Tournament, made: tuple[StoredPairing, ...], key: int
    ) -> None:
        """A round's pairings (an arena's new games), posted once whatever dies when."""
        number = made[0].round
        locale = self.table.languages.server(tournament.guild_id)
        lines = [_pairing_line(p, locale) for p in made]
        if tournament.format is Format.ARENA:
            head = words.say("tournament.round.arena", locale, name=_name(tournament))
        else:
            head = words.say(
                "tournament.round", locale, name=_name(tournament), round=number,
                rounds=_rounds_of(tournament, made),
            )  # fmt: skip
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        text = replies.clip("\n".join([head, *lines]))
        await self.table.send_once(
            channel, f"tournament:{tournament.id}:round:{key}", head, content=text,
            allowed_mentions=NO_MENTIONS,
        )  # fmt: skip

    async def _open_game(self, tournament: Tournament, pairing: StoredPairing) -> None:
        """A pairing's game: a message in the tournament's channel, a thread on it, the board.

        A thread started on a message takes the message's id: that id is recorded as the
        pairing's thread before the thread is made, so a game opened again after a crash
        goes to that thread (made now if it never was) rather than to a second one.
        """
        thread_id = pairing.channel_id
        if thread_id is not None:  # opened before, perhaps not to the end
            has_thread = await self._has_thread(tournament, thread_id)
            if has_thread is False:  # its message is there, its thread never made: made now
                await self._thread_on(tournament, pairing, thread_id)
            elif has_thread is None:  # its message is gone: a new one
                thread_id = None
        if thread_id is None:
            thread_id = await self._post_starter(tournament, pairing)
            await self.service.tournaments.thread_made(pairing.id, thread_id)
            await self._thread_on(tournament, pairing, thread_id)
        view = await self.service.tournaments.start_game(pairing.id, tournament.id, thread_id)
        if view is None:  # a player withdrew while it was being opened: nothing to play
            log.info("tournament #%s: pairing %s was settled before its game opened",
                     tournament.id, pairing.id)  # fmt: skip
            return
        await self._post_board(tournament, pairing, view, "tournament.game.ping")

    async def thread_gone(self, channel_id: int) -> int:
        """A deleted thread's tournament games go on in new threads; how many moved."""
        moved = 0
        for tournament, pairing in await self.service.tournaments.games_in(channel_id):
            async with self._running.locks.setdefault(tournament.id, asyncio.Lock()):
                await self._reopen(tournament, pairing, channel_id)
            moved += 1
        return moved

    async def _reopen(self, tournament: Tournament, pairing: StoredPairing, gone: int) -> None:
        assert pairing.game_id is not None
        thread_id = await self._new_thread(tournament, pairing, gone)
        try:
            view = await self.service.tournaments.move_game(pairing.game_id, thread_id)
        except BadInput:
            return  # it ended meanwhile: nothing to go on with
        log.info("tournament #%s: game #%s goes on in thread %s", tournament.id, view.id,
                 thread_id)  # fmt: skip
        await self._post_board(tournament, pairing, view, "tournament.game.reopened")

    async def check_threads(self, shards: Shards) -> None:
        """Once after a start: a running game (of the servers on `shards`) whose thread was
        deleted while Kamen was away (no event tells of it then) goes on in a new thread."""
        if self._running.threads_checked:
            return
        self._running.threads_checked = True
        for view in await self.service.tournaments.running_games(shards):
            if not await self._thread_exists(view.channel_id):
                await self.thread_gone(view.channel_id)

    async def _has_thread(self, tournament: Tournament, starter: int) -> bool | None:
        """Whether a game's starting message has its thread; None if the message is gone."""
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        try:
            message = await channel.fetch_message(starter)
        except discord.NotFound:
            return None
        return message.thread is not None

    async def _thread_exists(self, channel_id: int) -> bool:
        if self.client.get_channel(channel_id) is not None:
            return True
        try:
            await self.client.fetch_channel(channel_id)
        except discord.NotFound:
            return False
        return True  # Forbidden and the rest: there, as far as Kamen can tell

    async def _new_thread(self, tournament: Tournament, pairing: StoredPairing, gone: int) -> int:
        """Announce a pairing's game in the tournament's channel and open a thread on it, in
        place of its thread `gone`."""
        starter = await self._post_starter(tournament, pairing, instead_of=gone)
        await self._thread_on(tournament, pairing, starter)
        return starter

    async def _post_starter(
        self, tournament: Tournament, pairing: StoredPairing, *, instead_of: int | None = None
    ) -> int:
        """The message in the tournament's channel that a game's thread starts on (in place of
        the thread `instead_of`, gone); its id."""
        assert pairing.second_id is not None
        locale = self.table.languages.server(tournament.guild_id)
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        # An arena has no rounds: its games are not numbered by one.
        arena = tournament.format is Format.ARENA
        said = words.say(
            "tournament.game.starter.arena" if arena else "tournament.game.starter",
            locale, name=_name(tournament), round=pairing.round,
            first=mention(pairing.first_id), second=mention(pairing.second_id),
        )  # fmt: skip
        # Sent again after a kill before its id was recorded: Discord returns the first.
        nonce = nonce_of(f"pairing:{pairing.id}:starter:{instead_of or ''}")
        return (await channel.send(said, allowed_mentions=NO_MENTIONS, nonce=nonce)).id

    async def _thread_on(
        self, tournament: Tournament, pairing: StoredPairing, starter: int
    ) -> None:
        """The game's thread, started on message `starter` (so it has that id)."""
        assert pairing.second_id is not None
        locale = self.table.languages.server(tournament.guild_id)
        names = (await self.table.display_name(pairing.first_id),
                 await self.table.display_name(pairing.second_id))  # fmt: skip
        thread_name = replies.clip(
            words.say("tournament.game.thread", locale, name=tournament.name,
                      first=names[0], second=names[1]),
            100,
        )  # fmt: skip
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        await channel.get_partial_message(starter).create_thread(
            name=thread_name, auto_archive_duration=ARCHIVE_MINUTES
        )

    async def _post_board(
        self, tournament: Tournament, pairing: StoredPairing, view: GameView, code: str
    ) -> None:
        """The game's board in its thread, pinging both players."""
        assert pairing.second_id is not None
        locale = self.table.languages.server(tournament.guild_id)
        first, second = pairing.first_id, pairing.second_id
        if tournament.format is Format.ARENA and code == "tournament.game.ping":
            code = "tournament.game.ping.arena"
        ping = words.say(
            code, locale, first=mention(first), second=mention(second),
            name=_name(tournament), round=pairing.round,
        )  # fmt: skip
        out = await self.table.board(view)
        out = dataclasses.replace(
            out, content=f"{ping}\n{out.content}", mentions=mentions_of(first, second)
        )
        await self.table.send_board(view, out)

    # ---------------------------------------------------------------- standings

    async def _show_standings(self, tournament: Tournament) -> None:
        """Edit the standings message in place (posted the first time)."""
        locale = self.table.languages.server(tournament.guild_id)
        out = await self._standings_message(tournament, locale)
        out = dataclasses.replace(out, mentions=NO_MENTIONS)
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        if tournament.standings_id is not None:
            try:
                await channel.get_partial_message(tournament.standings_id).edit(**out.edit_kwargs())
                return
            except discord.NotFound:
                log.info("tournament #%s: its standings message is gone", tournament.id)
        message = await channel.send(**out.send_kwargs())
        await self._remember_message(tournament.id, standings_id=message.id)

    async def _standings_message(self, tournament: Tournament, locale: str) -> Outgoing:
        lines = await self.service.tournaments.standings(tournament.id)
        names = {line.player: await self.table.display_name(line.player) for line in lines}
        embed = discord.Embed(
            title=words.say("tournament.standings.title", locale, name=_name(tournament)),
            description=standings_text(tournament, lines, locale),
            colour=replies.COLOUR,
        )
        embed.set_footer(text=_progress_text(tournament, locale))
        image = standings_image(tournament, lines, names, locale)
        loop = asyncio.get_running_loop()
        png = await loop.run_in_executor(self.table.picture_pool, partial(table_png, image))
        embed.set_image(url=f"attachment://{STANDINGS_FILE}")
        return Outgoing("", embed, png, STANDINGS_FILE, None, NO_MENTIONS)

    async def _tell_end(self, tournament: Tournament) -> None:
        locale = self.table.languages.server(tournament.guild_id)
        lines = await self.service.tournaments.standings(tournament.id)
        out = await self._standings_message(tournament, locale)
        winners = [line.player for line in lines if line.rank == 1]
        text = words.say(
            "tournament.finished", locale, name=_name(tournament),
            winner=", ".join(mention(w) for w in winners), count=len(winners),
        )  # fmt: skip
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        await channel.send(
            **dataclasses.replace(out, content=text, mentions=mentions_of(*winners)).send_kwargs()
        )

    # ---------------------------------------------------------------- helpers

    async def _chosen(self, guild_id: int, chosen: object) -> Tournament:
        """The tournament named by `tournament:`, else the server's latest."""
        number = options.game_id("tournament", chosen)
        if number is not None:
            return await self.service.tournaments.find(guild_id, number)
        return await self.service.tournaments.latest(guild_id)

    async def _remember_message(
        self, tournament_id: int, *, message_id: int | None = None, standings_id: int | None = None
    ) -> None:
        """Record the sign-up or standings message's id (the service tries again if it raced)."""
        if not await self.service.tournaments.remember_messages(
            tournament_id, message_id=message_id, standings_id=standings_id
        ):
            log.warning("tournament #%s: could not record a message of it", tournament_id)


# ------------------------------------------------------------------ the sign-up buttons


class TournamentButton(
    ui.DynamicItem[ui.Button[Any]], template=r"kamen:t(?P<what>j|l):(?P<tid>[0-9]{1,19})"
):
    """Join (`kamen:tj:<id>`) or Leave (`kamen:tl:<id>`) a tournament's sign-up."""

    def __init__(self, what: str, tournament_id: int, label: str = "·") -> None:
        self.what, self.tournament_id = what, tournament_id
        style = discord.ButtonStyle.success if what == "j" else discord.ButtonStyle.secondary
        super().__init__(
            ui.Button(label=label, style=style, custom_id=f"kamen:t{what}:{tournament_id}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["what"], int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        tournaments: Tournaments = interaction.client.features.tournaments  # type: ignore[attr-defined]
        what = "join" if self.what == "j" else "leave"
        await tournaments.button(interaction, what, self.tournament_id)


DYNAMIC_ITEMS = (TournamentButton,)


# ------------------------------------------------------------------ wording


def signup_message(tournament: Tournament, entrants: list[Entrant], locale: str) -> Outgoing:
    """The sign-up message: what the tournament is, who plays, and Join/Leave while open."""
    playing = [e.user_id for e in entrants if e.playing]
    embed = discord.Embed(
        title=words.say(
            "tournament.signup.title", locale, name=_name(tournament), id=tournament.id
        ),
        colour=replies.COLOUR,
        description=words.say(f"tournament.signup.{tournament.stage}", locale),
    )
    embed.add_field(
        name=words.say("tournament.field.game", locale), value=title(tournament.game, locale)
    )
    embed.add_field(
        name=words.say("tournament.field.format", locale), value=_format(tournament, locale)
    )
    embed.add_field(
        name=words.say("tournament.field.time", locale),
        value=replies.time_text(tournament.move_seconds, locale),
    )
    start = tournament.started_at or tournament.starts_at
    embed.add_field(
        name=words.say("tournament.field.start", locale),
        value=when(start) if start else words.say("tournament.start.manager", locale),
    )
    players = " ".join(mention(user) for user in playing) or words.say(
        "tournament.signup.nobody", locale
    )
    embed.add_field(
        name=words.say("tournament.field.players", locale, count=len(playing)),
        value=replies.clip(players, 1024),
        inline=False,
    )
    embed.set_footer(text=words.say("tournament.signup.footer", locale, id=tournament.id))
    view: ui.View | None = None
    if tournament.stage is Stage.SIGNUP:
        view = ui.View(timeout=None)
        view.add_item(TournamentButton("j", tournament.id, words.say("tournament.join", locale)))
        view.add_item(TournamentButton("l", tournament.id, words.say("tournament.leave", locale)))
        view.stop()
    return Outgoing("", embed, None, STANDINGS_FILE, view, NO_MENTIONS)


def _list_line(tournament: Tournament, locale: str) -> str:
    code = "tournament.list.line"
    link = ""
    if tournament.message_id is not None:
        code = "tournament.list.line.link"
        link = (f"https://discord.com/channels/{tournament.guild_id}/{tournament.channel_id}/"
                f"{tournament.message_id}")  # fmt: skip
    return words.say(
        code, locale, id=tournament.id, name=_name(tournament),
        game=title(tournament.game, locale), format=_format(tournament, locale),
        stage=words.say(f"tournament.stage.{tournament.stage}", locale), link=link,
    )  # fmt: skip


def _format(tournament: Tournament, locale: str) -> str:
    said = words.say(f"tournament.format.{tournament.format}", locale)
    if tournament.format is Format.SWISS and tournament.rounds:
        return words.say("tournament.format.rounds", locale, format=said, count=tournament.rounds)
    if tournament.format is Format.ARENA and tournament.minutes:
        return words.say("tournament.format.minutes", locale, format=said, count=tournament.minutes)
    return said


def _name(tournament: Tournament) -> str:
    return markdown_safe(tournament.name, MAX_NAME * 2)


def _rounds_of(tournament: Tournament, made: tuple[StoredPairing, ...]) -> int:
    if tournament.format is Format.SWISS:
        return tournament.rounds or 1
    players = {u for p in made for u in (p.first_id, p.second_id) if u is not None}
    seats = len(players) + len(players) % 2
    return (seats - 1) * (2 if tournament.format is Format.DOUBLE_ROUND_ROBIN else 1)


def _pairing_line(pairing: StoredPairing, locale: str) -> str:
    if pairing.second_id is None:
        return words.say("tournament.pairing.bye", locale, player=mention(pairing.first_id))
    code = "tournament.pairing.forfeit" if pairing.forfeit else "tournament.pairing"
    return words.say(
        code, locale, first=mention(pairing.first_id), second=mention(pairing.second_id)
    )


def _resigned_lines(progress: Progress, user_id: int, locale: str) -> list[str]:
    """`<@1>'s game #12 is resigned: <@2> wins it, and the round goes on.`, a line a game."""
    lines = []
    for view in progress.resigned:
        winner = next((p for p in view.players or () if p != user_id), user_id)
        lines.append(
            words.say("tournament.resigned", locale, player=mention(user_id), id=view.id,
                      winner=mention(winner))
        )  # fmt: skip
    return lines


def _progress_text(tournament: Tournament, locale: str) -> str:
    if tournament.stage is Stage.RUNNING and tournament.format is not Format.ARENA:
        return words.say("tournament.standings.round", locale, round=tournament.round)
    return words.say(f"tournament.stage.{tournament.stage}", locale)


def _tiebreak(value: float | None) -> str:
    if value is None:
        return "\u2013"
    return points_text(value) if value * 2 == int(value * 2) else f"{value:.1f}"


def standings_text(tournament: Tournament, lines: tuple[Line, ...], locale: str) -> str:
    if not lines:
        return words.say("tournament.signup.nobody", locale)
    names = [words.say(f"tournament.tiebreak.{t}", locale) for t in TIEBREAKS[tournament.format]]
    said = [words.say("tournament.standings.legend", locale, tiebreaks=" · ".join(names))]
    for line in lines[:TEXT_LINES]:
        said.append(
            words.say(
                "tournament.standings.line", locale, rank=line.rank, player=mention(line.player),
                points=points_text(line.points), games=line.games,
                tiebreaks=" · ".join(_tiebreak(v) for v in line.tiebreaks),
            )
        )  # fmt: skip
    return replies.clip("\n".join(said), 4000)


def standings_image(
    tournament: Tournament, lines: tuple[Line, ...], names: dict[int, str], locale: str
) -> TableImage:
    """The standings as a picture: rank, player, points, games, then the format's tie-breaks."""
    columns = (
        Column(words.say("community.column.rank", locale), "right"),
        Column(words.say("community.column.player", locale)),
        Column(words.say("community.column.points", locale), "right"),
        Column(words.say("community.column.games", locale), "right"),
        *(
            Column(words.say(f"tournament.tiebreak.{t}", locale), "right")
            for t in TIEBREAKS[tournament.format]
        ),
    )
    rows = tuple(
        (
            str(line.rank),
            names.get(line.player, str(line.player)),
            points_text(line.points),
            str(line.games),
            *(_tiebreak(v) for v in line.tiebreaks),
        )
        for line in lines
    )
    return TableImage(
        title=words.say("tournament.standings.title", locale, name=tournament.name),
        subtitle=_progress_text(tournament, locale),
        columns=columns,
        rows=rows,
        highlight=frozenset({0}) if tournament.stage is Stage.FINISHED and rows else frozenset(),
    )


def _channel(answer: Answer) -> int:
    """The tournament's channel: here (a thread's parent, when run in a thread)."""
    here = answer.interaction.channel
    if isinstance(here, discord.Thread) and here.parent_id is not None:
        return here.parent_id
    return channel_id_of(answer.interaction)


def _number(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput("tournament.bad-number", given=options.given(value))
    return value
