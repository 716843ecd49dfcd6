"""The Discord client: built with its resources, it registers the commands and components.

`KamenClient` receives the settings, the opened store and the AI picker; at
login (`setup_hook`) it builds the service with the bot's own user id,
installs the commands and the dynamic components, and syncs the command
tree (to `DEV_GUILD_ID` only, when set, where it shows at once). Once the
gateway is ready it resumes the bot's pending moves and starts the service's
runner (`matches.runner`: heartbeat, sweeper, board repairs, season ends,
tournament upkeep), whose passes the bot only announces: the sweeper's events
(`bot.sweeper`), the boards to repair (`bot.boards`), the seasons to announce
(`bot.seasons`), the tournaments moved on (`bot.tournaments`).

Several processes may share one database, each serving some shards
(`SHARD_COUNT`, `SHARD_IDS`). A process leases its shards before it connects
(`matches.shards`: a second process for a shard waits for its lease, a
different `SHARD_COUNT` is refused), and does the background work of their
servers only: deadlines, board repairs, Kamen's moves resumed, tournaments,
season ends, and the downtime credit of its shards. Logins to the gateway are
spaced as Discord asks (`before_identify_hook`: one per 5 s per bucket of
`max_concurrency`, across processes), and the command list is synced once per
change, by one process.
Only the non-privileged `guilds` intent is asked for: interactions carry all
else the bot needs.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from datetime import timedelta
from typing import Any

import discord
import yarl
from discord import app_commands

import words
from bot import (
    commands,
    community,
    components,
    managers,
    people,
    playing,
    puzzles,
    rest,
    reviews,
    tournaments,
)
from bot.actions import Features
from bot.boards import BoardKeeper
from bot.sweeper import Sweeper
from bot.table import Table
from bot.translator import CommandWords
from bot.upkeep import Upkeep
from matches import Clock, MatchService, Store, system_clock
from matches.runner import Runner
from matches.shards import Shards, shard_of
from matches.views import SweepEvent
from runtime.metrics import Metrics
from runtime.opponent import Opponent
from runtime.reviewer import PooledReviewer
from runtime.settings import Settings

log = logging.getLogger(__name__)

IDENTIFY_POLL = 0.1  # seconds between looks while another login has the turn


def claim_holder(settings: Settings) -> str:
    """This process as the holder of claims on shared work: the shards it serves, so a
    process restarted in its place takes its claims back at once (no two processes
    serve one shard at a time)."""
    count, ids = settings.shard_count, settings.shard_ids
    if count is None or ids is None:
        return "shards:all"
    return f"shards:{','.join(map(str, sorted(set(ids))))}/{count}"


def point_discord_at(settings: Settings) -> None:
    """Talk to another Discord (the tests' fake) when the settings say so."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def intents() -> discord.Intents:
    """Servers, channels, threads and permissions: nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class KamenMixin:
    """What Kamen adds to a discord.py client (plain or sharded)."""

    tree: app_commands.CommandTree[Any]
    table: Table
    features: Features

    def _kamen_init(
        self,
        settings: Settings,
        store: Store,
        picker: Opponent,
        clock: Clock,
        metrics: Metrics | None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics if metrics is not None else Metrics()
        rest.name_routes(self.http)  # type: ignore[attr-defined]
        self.metrics.on_scrape(self._read_gauges)
        self.clock = clock
        self.store = store
        self.picker = picker
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self._started = False
        self.clocks_credited = False  # the health check beats only after (runtime/health.py)
        self.runner: Runner | None = None
        self.identify_buckets = 1  # Discord's `max_concurrency`, read at login

    async def setup_hook(self) -> None:
        me = self.user  # type: ignore[attr-defined]
        assert me is not None, "setup_hook runs after login"
        service = MatchService(
            self.store,
            bot_user_id=me.id,
            picker=self.picker,
            clock=self.clock,
            challenge_ttl=timedelta(seconds=self.settings.challenge_ttl),
            reviewer=PooledReviewer(self.picker),
            claim_holder=claim_holder(self.settings),
        )
        settings = self.settings
        runner = self.runner = Runner(
            service,
            Shards.of(settings.shard_count, settings.shard_ids),
            sweep_every=settings.sweep_interval,
            beat_every=settings.heartbeat_interval,
            repair_every=settings.repair_interval,
            repair_soon_after=settings.repair_soon,
            on_failure=self.metrics.pass_failed,
        )
        table = self.table = Table(
            self,  # type: ignore[arg-type]
            service,
            self.settings,
            self.picker,
            metrics=self.metrics,
            wake_repairs=runner.boards.wake,
        )
        table.remember(me)
        features = self.features = Features.at(table)
        # The service acts; the bot announces what it did.
        service.tournaments.on_progress(features.tournaments.progressed)
        runner.sweeper.listen(self._swept)
        runner.sweeper.listen(Sweeper(table).announce)
        runner.boards.listen(BoardKeeper(table).repair_lagging)
        # Seasons whose date came (while Kamen was away, too) end and are announced, once.
        runner.seasons.listen(features.seasons.announce_due)
        # Tournaments due start, and what happened while Kamen was away is caught up.
        runner.tournaments.listen(features.tournaments.upkept)
        await table.languages.load()
        self.upkeep = Upkeep(self, service, table.languages)  # type: ignore[arg-type]
        # Before connecting: this process's shards are its own (another process's wait).
        if not await runner.lease():
            return  # stopped while waiting
        _, _, limits = await self.http.get_bot_gateway()  # type: ignore[attr-defined]
        self.identify_buckets = max(1, int(limits.get("max_concurrency", 1)))
        # Before any interaction or sweep: time Kamen was away is no player's loss.
        await self.upkeep.tell_downtime(await runner.credit_downtime())
        self.clocks_credited = True
        # Other modules' items are registered with the components, which answer their
        # orphaned clicks too (components.route_orphan).
        components.register(
            *community.DYNAMIC_ITEMS,
            *managers.DYNAMIC_ITEMS,
            *people.DYNAMIC_ITEMS,
            *tournaments.DYNAMIC_ITEMS,
            *playing.DYNAMIC_ITEMS,
            *reviews.DYNAMIC_ITEMS,
            *puzzles.DYNAMIC_ITEMS,
        )
        self.add_dynamic_items(*components.every_item())  # type: ignore[attr-defined]
        await self.tree.set_translator(CommandWords())  # the commands in Czech too
        commands.install(self.tree, features)
        await self.sync_commands(service)

    def _swept(self, event: SweepEvent) -> None:
        """How late the sweeper acted on the deadline, by the game's shard (the metrics)."""
        if event.due is not None and self.runner is not None:
            shard = shard_of(event.view.guild_id, self.runner.shards.count)
            late = (self.clock() - event.due).total_seconds()
            self.metrics.swept(shard, event.kind.value, late)

    def _read_gauges(self) -> None:
        """At each scrape of /metrics: each shard's gateway latency, the leases held."""
        if isinstance(self, discord.AutoShardedClient):
            latencies = self.latencies
        else:
            latencies = [(0, self.latency)]  # type: ignore[attr-defined]
        for shard, seconds in latencies:
            self.metrics.set_latency(shard, seconds)
        if self.runner is not None:
            held = self.runner.leases.held
            for shard in self.runner.shards.ids:
                self.metrics.set_lease(shard, shard in held)

    async def sync_commands(self, service: MatchService) -> None:
        """Give Discord the command list, once per change of it (by the first process to
        start with it): each sync replaces the list, and Discord limits how often."""
        guild_id = self.settings.dev_guild_id
        guild = None if guild_id is None else discord.Object(guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        assert translator is not None
        listed = [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree._get_all_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(listed, sort_keys=True).encode()).hexdigest()
        where = "globally" if guild_id is None else f"server {guild_id}"
        # Per application: a database moved to another bot syncs that bot's list too.
        app = self.application_id  # type: ignore[attr-defined]
        key = f"commands:{app}:{guild_id or 'global'}:{digest[:32]}"
        if not await service.claims.once(key):
            log.info("the %d commands are synced already (%s)", len(listed), where)
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except BaseException:
            await service.claims.forget(key)  # the next start tries again
            raise
        log.info("%d commands synced (%s)", len(synced), where)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Log in to the gateway when Discord allows: one login per 5 s in each bucket of
        `max_concurrency` (`shard_id % max_concurrency`), counted across every process."""
        assert self.runner is not None, "the runner is made before the first login"
        bucket = (shard_id or 0) % self.identify_buckets
        waited = False
        every = timedelta(seconds=self.settings.identify_interval)
        while not await self.runner.service.claims.turn(f"identify:{bucket}", every):
            if not waited:
                log.info("shard %s waits its turn to log in (bucket %d)", shard_id, bucket)
                waited = True
            await asyncio.sleep(IDENTIFY_POLL)

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)  # type: ignore[attr-defined]
        # A second `ready` (a new session) finds the runner running; one that arrives while
        # closing starts nothing: the store goes next.
        if self._started or self.is_closed():  # type: ignore[attr-defined]
            return
        self._started = True
        if self.runner is not None:
            self.runner.start()
            self._lost_watch = asyncio.create_task(self._close_when_lost(self.runner))
            try:
                await self.features.tournaments.check_threads(self.runner.shards)
            except Exception:
                self.metrics.error("threads")
                log.exception("checking the tournament games' threads failed")
        await self.resume_bot_turns()

    async def _close_when_lost(self, runner: Runner) -> None:
        """Another process took this one's shards over (it missed its renewals, frozen or
        cut off): it stops at once (`runner.lost_by` says why)."""
        await runner.lost.wait()
        await self.close()

    async def resume_bot_turns(self) -> None:
        """After a start: Kamen moves where it is its turn, in the servers this process
        serves (another process resumes its own; Kamen's move is a versioned write)."""
        assert self.runner is not None
        for view in await self.table.service.bot_turns(self.runner.shards):
            self.table.let_bot_move(view)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id, None)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        # The raw event: a thread deleted while not in the cache is gone all the same.
        await self._gone(payload.thread_id, payload.parent_id)

    async def _gone(self, channel_id: int, parent_id: int | None) -> None:
        try:
            # A tournament's game goes on in a new thread; any other game there is abandoned.
            await self.features.tournaments.thread_gone(channel_id)
            await self.upkeep.channel_gone(channel_id, parent_id)
        except Exception:
            self.metrics.error("channel-gone")
            log.exception("ending the games of deleted channel %s failed", channel_id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component clicks discord.py itself would drop (see components)."""
        if interaction.type is discord.InteractionType.component:
            try:
                await components.route_orphan(interaction)
            except Exception:
                self.metrics.error("component")
                log.exception("routing component interaction %s failed", interaction.id)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.metrics.error("command")
        log.error(
            "command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error
        )
        if not interaction.response.is_done():
            await interaction.response.send_message(
                words.say("bot.apology.command", interaction.locale.value), ephemeral=True
            )

    async def close(self) -> None:
        # A `ready` that arrives while the runner stops (discord.py's `is_closed` says so
        # only once `super().close()` has begun) must not start the runner again.
        self._started = True
        if self.runner is not None:  # stopped before the store closes
            await self.runner.stop()
        # discord.py 2.7 leaves its wait for the servers running when closed during start-up;
        # it would then dispatch `ready` on a closed client (an error in the log).
        state = getattr(self, "_connection", None)
        ready = getattr(state, "_ready_task", None)
        if isinstance(ready, asyncio.Task) and not ready.done():
            ready.cancel()
        await super().close()  # type: ignore[misc]
        self.picker.close()


class KamenClient(KamenMixin, discord.Client):
    """Kamen on one connection to the gateway."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        picker: Opponent,
        clock: Clock = system_clock,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        metrics = metrics if metrics is not None else Metrics()
        super().__init__(**client_options(metrics))
        self._kamen_init(settings, store, picker, clock, metrics)


class ShardedKamenClient(KamenMixin, discord.AutoShardedClient):
    """Kamen on the shards `SHARD_IDS` of `SHARD_COUNT`."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        picker: Opponent,
        clock: Clock = system_clock,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        metrics = metrics if metrics is not None else Metrics()
        super().__init__(
            shard_count=settings.shard_count,
            # None (discord.py's own default) lets the library pick: its stub says list only.
            shard_ids=list(settings.shard_ids) if settings.shard_ids else None,  # type: ignore[arg-type]
            **client_options(metrics),
        )
        self._kamen_init(settings, store, picker, clock, metrics)


def client_options(metrics: Metrics) -> dict[str, Any]:
    # Kamen never joins voice: discord.py's warnings about voice libraries are noise here.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    return {
        "intents": intents(),
        "max_messages": None,  # no message cache: boards are found by their ids
        "member_cache_flags": discord.MemberCacheFlags.none(),
        "chunk_guilds_at_startup": False,
        "guild_ready_timeout": 0.5,
        "http_trace": rest.trace(metrics),  # REST 429s and errors by route (bot/rest.py)
    }


def build_client(
    settings: Settings,
    store: Store,
    picker: Opponent,
    clock: Clock = system_clock,
    *,
    metrics: Metrics | None = None,
) -> KamenClient | ShardedKamenClient:
    """The client the settings ask for: sharded when `SHARD_COUNT` is set."""
    if settings.shard_count is not None:
        return ShardedKamenClient(settings, store, picker, clock, metrics=metrics)
    return KamenClient(settings, store, picker, clock, metrics=metrics)
