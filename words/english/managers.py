"""English for the manager's kit: voids, suspensions, the limits on challenges, the audit log.

`managers.*` codes are what players and managers read: the refusals of the
service (`matches.managers`) and the bot's replies, notices and audit lines
(`bot/managers.py`, `bot/settings.py`). The commands' own names and
descriptions are `command.*`, in `commands.py`.
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
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
