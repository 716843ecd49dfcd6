"""One interaction's answer, given once and in time, by whichever path is open.

Discord voids an interaction not answered within 3 s. Most handlers answer
in milliseconds, but a move may wait behind another game's slow write, and
the event loop may lag. An `Answer` watches the clock: if its handler has
not answered after `DEFER_AFTER` seconds, it defers (a component's message
is then updated later; a command shows "Kamen is thinking…"), and the same
calls the handler makes afterwards edit that deferred response instead of
sending a first one. Every call goes through one lock, so a deferral and an
answer never race each other into a second initial response.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

import words
from bot import replies
from bot.replies import Outgoing
from matches import MatchError

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds: half of Discord's 3, the rest for the deferral's own trip


class Answer:
    """The answer to `interaction`; `watch()` starts its clock."""

    def __init__(self, interaction: discord.Interaction, locale: str, server_locale: str) -> None:
        self.interaction = interaction
        # The language of the player's private answers, and of the server's public messages
        # (bot/languages.py).
        self.locale = locale
        self.server_locale = server_locale
        self.public = False  # what a command's deferral shows: a public "thinking" or a private
        self.deferred = False
        self.filled = False  # the last answer edited a deferral: an edit notifies nobody
        # The message the response made or updated (its token's `@original`), once known.
        self.original: int | None = None
        self.game_id: int | None = None  # the game it is about, when known (for the log)
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- the clock

    def watch(self, after: float = DEFER_AFTER) -> None:
        """Defer by itself if nothing was answered `after` seconds from now."""
        self._timer = asyncio.get_running_loop().create_task(self._defer_later(after))

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    async def _defer_later(self, after: float) -> None:
        await asyncio.sleep(after)
        try:
            await self.defer()
        except discord.HTTPException as error:  # the answer that follows says more
            log.warning("deferring interaction %s failed: %s", self.interaction.id, error)

    async def defer(self, *, public: bool | None = None) -> None:
        """Acknowledge now and answer later (a replay, Kamen's worker starting)."""
        if public is not None:
            self.public = public
        async with self._lock:
            response = self.interaction.response
            if response.is_done():
                return
            if self.interaction.type is discord.InteractionType.component:
                await response.defer()
            else:
                await response.defer(thinking=True, ephemeral=not self.public)
            self.deferred = True

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    # ---------------------------------------------------------------- answering

    async def send(self, out: Outgoing | str, *, ephemeral: bool = False) -> int | None:
        """A new message as the answer (or after it); the message's id when known."""
        out = Outgoing(replies.clip(out)) if isinstance(out, str) else out
        interaction = self.interaction
        async with self._lock:
            response = interaction.response
            if not response.is_done():
                sent = await response.send_message(ephemeral=ephemeral, **out.send_kwargs())
                self.original = sent.message_id
                return sent.message_id
            thinking = self.deferred and interaction.type is not discord.InteractionType.component
            if thinking and ephemeral is not self.public:
                # The deferral's "thinking" message shows this answer itself.
                message = await interaction.edit_original_response(**out.edit_kwargs())
                self.deferred = False
                self.filled = True
                self.original = message.id
                return message.id
            if thinking:  # a private answer cannot replace a public "thinking" (or the reverse)
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
                self.deferred = False
            followup = await interaction.followup.send(
                ephemeral=ephemeral, wait=True, **out.send_kwargs()
            )
            return followup.id

    async def update(self, out: Outgoing) -> None:
        """Replace the clicked message (a component's) with `out`."""
        async with self._lock:
            response = self.interaction.response
            if not response.is_done():
                await response.edit_message(**out.edit_kwargs())
            else:
                await self.interaction.edit_original_response(**out.edit_kwargs())
                self.deferred = False
            message = self.interaction.message
            self.original = message.id if message is not None else None

    async def follow(self, out: Outgoing | str) -> None:
        """A public message after the answer (a draw offered over the updated board)."""
        out = Outgoing(replies.clip(out)) if isinstance(out, str) else out
        async with self._lock:
            await self.interaction.followup.send(**out.send_kwargs())

    async def say(self, out: Outgoing | str) -> None:
        """A private answer."""
        await self.send(out, ephemeral=True)

    async def refuse(self, error: MatchError, extra: Outgoing | None = None) -> None:
        """The one place a refusal reaches a player: privately, saying what would be right."""
        text = replies.explain(error, self.locale)
        log.debug("refused %s: %s", self.interaction.id, text)
        await self.say(extra if extra is not None else replies.clip(text))

    async def apologise(self) -> None:
        """A fault of ours (logged by the caller): tell the player, never leave them hanging."""
        try:
            await self.say(words.say("bot.apology", self.locale))
        except discord.HTTPException:
            log.warning("could not even apologise for interaction %s", self.interaction.id)
