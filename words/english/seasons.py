# ruff: noqa: RUF001 - en dashes in dates (from - to) and in won-drawn-lost are typography
"""English for seasons: `/kamen season ...`, its refusals, the final tables and their announcement.

`command.*` codes name and describe the commands (at most 32 and 100
characters); `season.*` codes are what players read: refusals of the service
(`matches.seasons`), the bot's replies, the announcement of a season's end
and the title of its table images (`bot/seasons.py`; their column headers are the
leaderboards', `community.column.*`).
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # ------------------------------------------------------------ commands
    "command.name.season": "season",
    "command.name.season.start": "start",
    "command.name.season.end": "end",
    "command.name.season.list": "list",
    "command.name.season.role": "role",
    "command.option.season.name": "name",
    "command.option.season.ends": "ends",
    "command.option.season.channel": "channel",
    "command.option.season.role": "role",
    "command.option.season.clear": "clear",
    "command.season": "Seasons: rated games over a stretch of time, with champions at the end.",
    "command.season.start": "Start a season here (for server managers).",
    "command.season.end": "End the running season now and post its final tables (for managers).",
    "command.season.list": "This server's seasons, with their dates and champions (only for you).",
    "command.season.role": "See or set the role each season's champions get (for managers).",
    "command.about.season.name": "The season's name, 1 to 50 characters, e.g. Spring 2027.",
    "command.about.season.ends": (
        "When it ends: 2027-03-31 (that day's end, UTC), 2027-03-31 18:00 (UTC), 30d or 2w."
    ),
    "command.about.season.channel": ("Where its final tables are posted (default: this channel)."),
    "command.about.season.role": "The role the champions get (Kamen gives and takes it).",
    "command.about.season.clear": "True: champions get no role any more.",
    # ------------------------------------------------------------ refusals
    "season.refuse.manage-server": (
        "Only members who may Manage Server can start or end seasons or choose their role."
    ),
    "season.bad-name": "A season's name is {low} to {high} characters long.",
    "season.bad-ends": (
        "`{ends}` is not a date or a duration: write for example `2027-03-31` (to the end "
        "of that day, UTC), `2027-03-31 18:00` (UTC), `30d` or `2w`, or leave it empty."
    ),
    "season.ends-past": "`{ends}` has already passed: a season ends in the future.",
    "season.ends-too-far": "`{ends}` is too far away: a season ends within two years.",
    "season.already-running": (
        "Season **{name}** is running here: end it first with `/kamen season end`."
    ),
    "season.none-running": (
        "No season is running here. A server manager starts one with `/kamen season start`."
    ),
    "season.bad-channel": "`channel` is a text channel of this server: pick one from the list.",
    "season.channel-closed": (
        "Kamen cannot post the final tables in {channel}: it needs to send messages and "
        "attach files there. Choose another channel, or give Kamen those permissions."
    ),
    "season.role.bad": "`{value}` is not a role of this server.",
    "season.champion-games.bad": (
        "`{value}` is not a number of games from {low} to {high}: a season's champion needs"
        " at least that many rated games of their game."
    ),
    "season.role.unassignable": (
        "<@&{role}> cannot be given to anyone (it is @everyone or a bot's own role): "
        "choose another role."
    ),
    "season.role.not-yours": (
        "You can only choose a role you could give yourself: you need Manage Roles, and "
        "<@&{role}> must be below your highest role."
    ),
    # ------------------------------------------------------------ replies
    "season.started": (
        "🏁 Season **{name}** has begun! Every rated game that ends from now until a manager "
        "ends the season counts in its tables. The final tables will be posted in {channel}."
    ),
    "season.started.until": (
        "🏁 Season **{name}** has begun! Every rated game that ends before {ends} counts in "
        "its tables. The final tables will be posted in {channel}."
    ),
    "season.ended": "Season **{name}** is over. Its final tables are posted in {channel}.",
    "season.role.current": "Each season's champions get {role}.",
    "season.role.current.none": (
        "Season champions get no role. A manager chooses one with `/kamen season role`."
    ),
    "season.role.set.cannot": (
        "{role} cannot be given by Kamen yet: it needs the Manage Roles permission, and "
        "{role} must be below Kamen's own highest role."
    ),
    "season.role.cleared": "Season champions get no role any more.",
    # ------------------------------------------------------------ the list
    "season.list.title": "**Seasons on this server**, latest first:",
    "season.list.none": (
        "No season has been played here yet. A server manager starts one with "
        "`/kamen season start`."
    ),
    "season.list.running": "**{name}**: running since {start}, until a manager ends it.",
    "season.list.running.until": "**{name}**: running since {start}, ends {end}.",
    "season.list.past": "**{name}**: {start} – {end}.",
    "season.list.leaders": "Leading: {leaders}",
    "season.list.champions": "Champions: {champions}",
    "season.list.no-games": "No rated games.",
    "season.list.champion": "{game:title} {player}",
    # ------------------------------------------------------------ the announcement
    "season.over": "🏆 **Season {name} is over!** ({start} – {end})",
    "season.over.game": plural(
        "games",
        "**{game:title}**: champion {champion} 🥇 ({games} rated game)",
        "**{game:title}**: champion {champion} 🥇 ({games} rated games)",
    ),
    # A game's table whose leader played fewer rated games of it than the server asks of a
    # champion (`/kamen settings champion-games:`): it is posted, with nobody crowned.
    "season.over.game.too-few": plural(
        "minimum",
        "**{game:title}**: no champion: a champion needs at least {minimum} rated"
        " game of it in the season, and the leader played {played}.",
        "**{game:title}**: no champion: a champion needs at least {minimum} rated"
        " games of it in the season, and the leader played {played}.",
    ),
    "season.over.legend": "-# points · games · won–drawn–lost · performance",
    "season.over.line": "{rank}. {player}: **{points}** · {games} · {record} · {performance}",
    "season.over.more": plural(
        "count",
        "…and {count} more player: see the table.",
        "…and {count} more players: see the table.",
    ),
    "season.over.no-games": "No rated game was played in this season: it has no champion.",
    "season.role.given": plural(
        "count", "{champions:and} now holds {role}.", "{champions:and} now hold {role}."
    ),
    "season.role.cannot": (
        "Kamen could not give {role} to the champions: it needs the Manage Roles permission, "
        "and {role} must be below Kamen's own highest role."
    ),
    "season.role.gone": (
        "The champions' role no longer exists: a manager can choose another with "
        "`/kamen season role`."
    ),
    "season.role.reason": "Season champion",
    "season.record": "{wins}–{draws}–{losses}",
    # ------------------------------------------------------------ the table image
    "season.table.title": "{name} · {game:title}",
    "season.table.subtitle": plural(
        "count", "Final table · {count} player", "Final table · {count} players"
    ),
}
