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
(`SHARD_COUNT`, `SHARD_IDS`). Each item of background work is then done by
exactly one of them: a deadline by the process whose versioned write lands
(any process sweeps every game); a season's end, the tournaments' pass, a
round's announcement, a pairing's game opened and the downtime credit by the
process holding their claim (`matches.claims`: taken under a database lock,
lapsing when its process dies, so another takes the work over); a board's
repair and Kamen's moves resumed after a start by the process serving the
game's server (`serves`).
Only the non-privileged `guilds` intent is asked for: interactions carry all
else the bot needs.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import discord
import yarl
from discord import app_commands

import words
from bot import commands, community, components, people, playing, puzzles, reviews, tournaments
from bot.actions import Features
from bot.boards import BoardKeeper
from bot.sweeper import Sweeper
from bot.table import Table
from bot.translator import CommandWords
from bot.upkeep import Upkeep
from matches import Clock, MatchService, Store, system_clock
from matches.runner import Runner
from runtime.metrics import Metrics
from runtime.opponent import Opponent
from runtime.reviewer import PooledReviewer
from runtime.settings import Settings

log = logging.getLogger(__name__)


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
        self.clock = clock
        self.store = store
        self.picker = picker
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self._started = False
        self.clocks_credited = False  # the health check beats only after (runtime/health.py)
        self.runner: Runner | None = None

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
            sweep_every=settings.sweep_interval,
            beat_every=settings.heartbeat_interval,
            repair_every=settings.repair_interval,
            serves=self.serves if self.sharded_apart() else None,
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
        runner.sweeper.listen(Sweeper(table).announce)
        runner.boards.listen(BoardKeeper(table).repair_all)
        # Seasons whose date came (while Kamen was away, too) end and are announced, once.
        runner.seasons.listen(features.seasons.announce_all)
        # Tournaments due start, and what happened while Kamen was away is caught up: by the
        # process holding the tournaments' claim; another takes the claim over if it dies.
        runner.tournaments.listen(features.tournaments.upkept)
        await table.languages.load()
        self.upkeep = Upkeep(self, service, table.languages)  # type: ignore[arg-type]
        # Before any interaction or sweep: time Kamen was away is no player's loss.
        await self.upkeep.tell_downtime(await runner.credit_downtime())
        self.clocks_credited = True
        # Other modules' items are registered with the components, which answer their
        # orphaned clicks too (components.route_orphan).
        components.register(
            *community.DYNAMIC_ITEMS,
            *people.DYNAMIC_ITEMS,
            *tournaments.DYNAMIC_ITEMS,
            *playing.DYNAMIC_ITEMS,
            *reviews.DYNAMIC_ITEMS,
            *puzzles.DYNAMIC_ITEMS,
        )
        self.add_dynamic_items(*components.every_item())  # type: ignore[attr-defined]
        await self.tree.set_translator(CommandWords())  # the commands in Czech too
        commands.install(self.tree, features)
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info(
            "%d commands synced %s",
            len(synced),
            f"to server {guild_id}" if guild_id else "globally",
        )

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)  # type: ignore[attr-defined]
        if self._started or self.is_closed():  # type: ignore[attr-defined]
            return  # a `ready` that arrives while closing starts nothing: the store goes next
        self._started = True
        if self.runner is not None:
            self.runner.start()
        await self.resume_bot_turns()

    async def resume_bot_turns(self) -> None:
        """After a start: Kamen moves where it is its turn, in the servers this process
        serves (another process resumes its own; Kamen's move is a versioned write)."""
        for view in await self.table.service.bot_turns():
            if self.serves(view.guild_id):
                self.table.let_bot_move(view)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process serves the server `guild_id` (None: a DM, shard 0's)."""
        return serves(self.settings, guild_id)

    def sharded_apart(self) -> bool:
        """Whether other processes serve some of the shards (this one serves a part)."""
        count, ids = self.settings.shard_count, self.settings.shard_ids
        return count is not None and ids is not None and len(set(ids)) < count

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
        super().__init__(**client_options())
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
        super().__init__(
            shard_count=settings.shard_count,
            # None (discord.py's own default) lets the library pick: its stub says list only.
            shard_ids=list(settings.shard_ids) if settings.shard_ids else None,  # type: ignore[arg-type]
            **client_options(),
        )
        self._kamen_init(settings, store, picker, clock, metrics)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a server on."""
    return (guild_id >> 22) % shard_count


def serves(settings: Settings, guild_id: int | None) -> bool:
    """Whether a process run with `settings` serves `guild_id` (None: DMs, on shard 0).

    Unsharded, or sharded without `SHARD_IDS`, a process serves every shard."""
    count, ids = settings.shard_count, settings.shard_ids
    if count is None or ids is None:
        return True
    return (0 if guild_id is None else shard_of(guild_id, count)) in ids


def client_options() -> dict[str, Any]:
    # Kamen never joins voice: discord.py's warnings about voice libraries are noise here.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    return {
        "intents": intents(),
        "max_messages": None,  # no message cache: boards are found by their ids
        "member_cache_flags": discord.MemberCacheFlags.none(),
        "chunk_guilds_at_startup": False,
        "guild_ready_timeout": 0.5,
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
