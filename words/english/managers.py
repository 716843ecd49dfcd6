"""English for the manager's kit: voids, suspensions, the limits on challenges, the audit log.

`command.*` codes name and describe the commands and options (at most 32 and
100 characters); `managers.*` codes are what players and managers read: the
refusals of the service (`matches.managers`) and the bot's replies, notices
and audit lines (`bot/managers.py`, `bot/settings.py`).
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # ------------------------------------------------------------ commands
    "command.name.kamen-game": "game",
    "command.kamen-game": "Managers: act on a game of this server.",
    "command.name.void": "void",
    "command.void": (
        "Managers: annul a rated game's result; the ratings become as if it was never played."
    ),
    "command.name.suspend": "suspend",
    "command.suspend": "Managers: keep a player from challenges, rated games and tournaments here.",
    "command.name.unsuspend": "unsuspend",
    "command.unsuspend": "Managers: lift a player's suspension on this server.",
    "command.name.audit": "audit",
    "command.audit": "Managers: what the managers did with Kamen on this server, newest first.",
    "command.option.days": "days",
    "command.about.void.game": "The number of the game to void (as its board and /history show).",
    "command.about.manager-reason": "Why: written to the server's audit log.",
    "command.about.suspend.user": "The player.",
    "command.about.suspend.days": "For how many days.",
    "command.about.audit-page": "Which page (10 lines a page; default: the newest).",
    "command.option.log-channel": "log-channel",
    "command.option.no-log-channel": "no-log-channel",
    "command.option.challenge-cooldown": "challenge-cooldown",
    "command.option.open-challenges": "open-challenges",
    "command.option.channels": "channels",
    "command.about.log-channel": "Where Kamen posts what managers do (the audit log).",
    "command.about.no-log-channel": "True: the audit log is posted nowhere.",
    "command.about.challenge-cooldown": (
        "Seconds one person waits between two challenges (0: none, default)."
    ),
    "command.about.open-challenges": (
        "How many open challenges one person may have (0: no limit, default)."
    ),
    "command.about.channels": (
        "Where games may be started: add or remove this channel, or any channel."
    ),
    "command.channels.here": "this channel (add it, or remove it if listed)",
    "command.channels.anywhere": "any channel (clear the list)",
    # ------------------------------------------------------------ refusals
    "managers.refuse.manage-server": (
        "Only members who may manage this server (Manage Server) can do this."
    ),
    "managers.reason.empty": "Give a reason: it is written to the server's audit log.",
    "managers.void.already": "Game #{id} is already voided ({reason}).",
    "managers.void.not-over": "Game #{id} is not over: only a finished rated game can be voided.",
    "managers.void.unrated": "Game #{id} was not rated: there is no rated result to void.",
    "managers.void.busy": "Game #{id} changed while it was being voided: try again.",
    "managers.suspend.days": "Give a number of days from {low} to {high}.",
    "managers.suspend.kamen": "Kamen itself cannot be suspended.",
    "managers.unsuspend.none": "<@{user}> is not suspended on this server.",
    "managers.gate.channels": "Games are started only in {channels} on this server.",
    "managers.gate.suspended": (
        "You are suspended on this server until <t:{until}:f> (<t:{until}:R>): no challenges"
        " and no rated games until then. Games against Kamen stay open to you."
    ),
    "managers.accept.suspended": (
        "You are suspended on this server until <t:{until}:f> (<t:{until}:R>): you cannot"
        " accept challenges until then."
    ),
    "managers.accept.challenger-suspended": (
        "This challenge cannot be accepted: its author may not play on this server until"
        " <t:{until}:f>."
    ),
    "managers.join.suspended": (
        "You are suspended on this server until <t:{until}:f> (<t:{until}:R>): you cannot"
        " join tournaments until then."
    ),
    "managers.gate.cooldown": (
        "This server asks for a pause between two challenges: your next one can be made <t:{at}:R>."
    ),
    "managers.gate.open": plural(
        "limit",
        "You already have {limit} open challenge on this server, the most allowed: cancel it"
        " or wait for an answer.",
        "You already have {limit} open challenges on this server, the most allowed: cancel"
        " one or wait for an answer.",
    ),
    "managers.settings.cooldown": (
        "The challenge cooldown is a number of seconds from 0 (none) to {high}."
    ),
    "managers.settings.open": (
        "The open challenges limit is a number from 1 to {high}, or 0 for no limit."
    ),
    "managers.settings.bad-channel": "Choose a text channel of this server for the audit log.",
    "managers.settings.channels-full": "At most {limit} channels can be game channels.",
    # ------------------------------------------------------------ replies
    "managers.void.done": "Game #{id} is voided: {reason}. Ratings in this game now:\n{lines}",
    "managers.void.rating": "{player} {before} → {after}",
    "managers.void.unrated-now": "no rating",
    "managers.void.notice": (
        "{players}: game #{id} was voided by a manager: {reason}. It no longer counts for"
        " ratings; the ratings are as if it had never been played."
    ),
    "managers.view.voided": "Voided by a manager: {reason}",
    "managers.suspend.done": (
        "{user} is suspended on this server until <t:{until}:f>: no challenges, rated games"
        " nor tournaments until then. Reason: {reason}"
    ),
    "managers.unsuspend.done": "{user}'s suspension on this server is lifted.",
    # ------------------------------------------------------------ the audit log
    "managers.audit.title": "Audit log",
    "managers.audit.none": "Nothing yet: what managers do with Kamen is listed here.",
    "managers.audit.page": "Page {page} of {pages} · newest first",
    "managers.audit.void": "{at} {actor} voided game #{game} ({result}): {reason}",
    "managers.audit.suspend": "{at} {actor} suspended {user} until {until}: {reason}",
    "managers.audit.unsuspend": "{at} {actor} lifted the suspension of {user}",
    "managers.audit.settings": "{at} {actor} changed the settings: {details}",
    "managers.audit.tournament-remove": (
        "{at} {actor} removed {user} from tournament #{tournament}: {reason}"
    ),
    "managers.audit.tournament-cancel": "{at} {actor} cancelled tournament #{tournament}: {reason}",
    # ------------------------------------------------------------ settings
    "managers.settings.log-channel": "Audit log posted to: {channel}.",
    "managers.settings.log-channel.none": "Audit log posted to: no channel.",
    "managers.settings.cooldown-line": plural(
        "seconds",
        "Challenge cooldown: {seconds} second between two challenges by one person.",
        "Challenge cooldown: {seconds} seconds between two challenges by one person.",
    ),
    "managers.settings.cooldown-line.none": "Challenge cooldown: none.",
    "managers.settings.open-line": plural(
        "limit",
        "Open challenges: at most {limit} per person at once.",
        "Open challenges: at most {limit} per person at once.",
    ),
    "managers.settings.open-line.none": "Open challenges: no limit per person.",
    "managers.settings.channels-line": "Games may be started in: {channels}.",
    "managers.settings.channels-line.anywhere": "Games may be started in: any channel.",
}
