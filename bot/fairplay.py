"""`/kamen fairplay user: [game:]`: a player's fair-play figures on this server, privately,
for the members who may manage it (the figures are `matches.fairplay`'s)."""

from __future__ import annotations

from typing import Annotated

import discord

import words
from bot import declare, options, replies
from bot.answers import Answer
from bot.table import Table, guarded, require_manager
from matches import BadInput
from matches.fairplay import EXACT_GAMES, QUICK_MS, FairPlayReport, Share


class FairPlay:
    """`/kamen fairplay`, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    def command(self) -> declare.Command:
        about = {"user": "command.about.fairplay-user", "game": "command.about.fairplay-game"}
        choices = {"game": declare.game_choices()}
        return declare.command("fairplay", self.fairplay, about=about, choices=choices)

    @guarded
    async def fairplay(
        self,
        answer: Answer,
        user: Annotated[object, discord.User],
        game: Annotated[object, str | None] = None,
    ) -> None:
        """A player's fair-play figures: Kamen's exact values kept, move times (managers, for
        you)."""
        guild_id = require_manager(answer.interaction, "bot.refuse.manage-server.fairplay")
        who = options.user("user", user)
        if who is None:
            raise BadInput("bot.refuse.option.user", option="user")
        spec = options.game_name("game", game) if game is not None else None
        self.table.remember(who)
        await answer.defer(public=False)  # Kamen thinks about their last games' positions
        report = await self.service.fairplay.report(
            guild_id, who.id, spec.name if spec is not None else None
        )
        name = replies.markdown_safe(await self.table.display_name(who.id))
        await answer.say(replies.clip(fairplay_text(report, name, answer.locale)))


def _percent(share: Share) -> int:
    return round(share.percent or 0)


def seconds(ms: int, locale: str) -> str:
    """Milliseconds as seconds with one decimal, in the language's own way (`4,2` in Czech)."""
    text = f"{ms / 1000:.1f}"
    return text.replace(".", ",") if words.say("decimal.point", locale) == "," else text


def fairplay_text(report: FairPlayReport, name: str, locale: str) -> str:
    """The answer: the games counted, each figure with what it is measured on, the caveat."""
    say = words.say
    lines = [f"**{say('fairplay.title', locale, name=name)}**"]
    total = sum(report.counted.values())
    if total == 0:
        lines.append(say("fairplay.no-games", locale, name=name))
        return "\n".join(lines)
    counts = [say("fairplay.count", locale, game=game, games=count)
              for game, count in report.counted.items() if count]  # fmt: skip
    lines.append(say("fairplay.games", locale, games=total, counts=counts))
    for game in report.games:
        if not report.counted.get(game):
            continue  # none of their games of it: nothing to say
        if game in EXACT_GAMES:
            exact, baseline = report.by_game.get(game, (report.exact, report.baseline))
            if exact.of:
                lines.append(say("fairplay.exact", locale, game=game, hits=exact.hits,
                                 of=exact.of, percent=_percent(exact)))  # fmt: skip
            else:
                lines.append(say("fairplay.exact.none", locale, game=game))
            if baseline.of:
                lines.append(say("fairplay.baseline", locale, players=report.baseline_players,
                                 hits=baseline.hits, of=baseline.of,
                                 percent=_percent(baseline)))  # fmt: skip
            else:
                lines.append(say("fairplay.baseline.none", locale))
            if game == "oware":
                lines.append(say("fairplay.oware", locale))
        else:
            lines.append(say(f"fairplay.{game}", locale))
    hard = report.hard
    if hard is None:
        lines.append(say("fairplay.hard.off", locale))
    elif hard.of == 0:
        lines.append(say("fairplay.hard.none", locale))
    else:
        lines.append(say("fairplay.hard", locale, hits=hard.hits, of=hard.of,
                         percent=_percent(hard), games=report.hard_games))  # fmt: skip
    quick = report.quick
    if report.median_ms is None:
        lines.append(say("fairplay.times.none", locale))
    else:
        lines.append(say("fairplay.times", locale, seconds=seconds(report.median_ms, locale),
                         quick=quick.hits, timed=quick.of, limit=QUICK_MS // 1000,
                         percent=_percent(quick)))  # fmt: skip
        if report.untimed:
            lines.append(say("fairplay.times.some-missing", locale, count=report.untimed))
    lines.append(say("fairplay.caveat", locale))
    return "\n".join(lines)
