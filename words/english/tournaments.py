"""English for tournaments (see words/english/__init__.py): the service's refusals, the
bot's messages for sign-ups, rounds and standings, and the `/tournament` commands."""

# Pairings are written with en dashes.
# ruff: noqa: RUF001

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    "tournament.bad-format": "`{given}` is not a tournament format: choose one of {allowed:or}.",
    "tournament.bad-name": "A tournament's name has {low} to {high} characters.",
    "tournament.bad-rounds": "A Swiss tournament needs `rounds`: a number from {low} to {high}.",
    "tournament.bad-minutes": (
        "An arena needs `minutes`, its length: a number from {low} to {high}."
    ),
    "tournament.starts-past": "A tournament's start time must be in the future.",
    "tournament.needs-time": (
        "A tournament's games are rated and must end: choose a time per move ({per_move:or}),"
        " or leave `time:` out for the server's default."
    ),
    "tournament.unknown": "There is no tournament #{id} on this server.",
    "tournament.closed": "**{name}** has already started: joining is closed.",
    "tournament.over": "**{name}** is over.",
    "tournament.not-playing": "You are not playing in **{name}**.",
    "tournament.already-started": "**{name}** has already started.",
    "tournament.leave-started": (
        "**{name}** has already started: to withdraw from it, use `/tournament leave`."
    ),
    "tournament.too-few": plural(
        "count",
        "A tournament of this format needs at least {least} players; {count} has joined.",
        "A tournament of this format needs at least {least} players; {count} have joined.",
    ),
    "tournament.busy": "The tournament changed meanwhile: try again.",
    # ------------------------------------------------------------ the bot's refusals
    "tournament.refuse.manage-server": (
        "Only members who may Manage Server create and run tournaments here."
    ),
    "tournament.refuse.organiser": (
        "Only members with <@&{role}> or who may Manage Server create and run tournaments here."
    ),
    "tournament.organisers.bad": "`{value}` is not a role of this server.",
    "tournament.organisers.unassignable": (
        "<@&{role}> cannot be the organisers' role (it is @everyone, which every member has, "
        "or a bot's own role): choose a role the server gives to its organisers."
    ),
    "tournament.organisers.set": (
        "Members with {role} may now create and run tournaments here, as managers can."
    ),
    "tournament.organisers.cleared": (
        "Only members who may Manage Server create and run tournaments now."
    ),
    "tournament.organisers.current": (
        "Members with {role} create and run tournaments here, as managers do."
    ),
    "tournament.organisers.none": (
        "Only members who may Manage Server create and run tournaments here. "
        "Name a role with `role:` to let its members do it too."
    ),
    "tournament.game-over": "Game #{id} has already ended.",
    "tournament.bad-starts": (
        "`{starts}` is not a start time: write for example {examples:or} (times are UTC), "
        "or leave it empty to start the tournament yourself."
    ),
    "tournament.bad-number": "`{given}` is not a whole number.",
    "tournament.no-user": "Name the player with `user:`.",
    "tournament.none": "This server has no tournament yet: a manager creates one with "
    "`/tournament create`.",
    # ------------------------------------------------------------ the sign-up message
    "tournament.signup.title": "🏆 {name} · tournament #{id}",
    "tournament.signup.signup": "Sign-up is open: press **Join** to play.",
    "tournament.signup.running": "The tournament is under way: sign-up is closed.",
    "tournament.signup.finished": "The tournament is over.",
    "tournament.signup.cancelled": "The tournament was cancelled.",
    "tournament.signup.nobody": "nobody yet",
    "tournament.signup.footer": "Tournament #{id} · /tournament standings tournament:{id}",
    "tournament.field.game": "Game",
    "tournament.field.format": "Format",
    "tournament.field.time": "Time control",
    "tournament.field.start": "Start",
    "tournament.field.players": plural("count", "Player ({count})", "Players ({count})"),
    "tournament.start.manager": "when a manager starts it",
    "tournament.join": "Join",
    "tournament.leave": "Leave",
    "tournament.format.round-robin": "round robin",
    "tournament.format.double-round-robin": "double round robin",
    "tournament.format.swiss": "Swiss",
    "tournament.format.arena": "arena",
    "tournament.format.rounds": plural(
        "count", "{format}, {count} round", "{format}, {count} rounds"
    ),
    "tournament.format.minutes": plural(
        "count", "{format}, {count} minute", "{format}, {count} minutes"
    ),
    "tournament.stage.signup": "taking sign-ups",
    "tournament.stage.running": "under way",
    "tournament.stage.finished": "finished",
    "tournament.stage.cancelled": "cancelled",
    # ------------------------------------------------------------ running
    "tournament.started": "🏁 **{name}** has begun! The games of the first round follow.",
    "tournament.started.arena": "🏁 **{name}** has begun! The first games follow.",
    "tournament.cancelled": "**{name}** is cancelled: {reason}",
    "tournament.removed": "{player} is out of **{name}**: {reason}",
    "tournament.left": "You have left **{name}**.",
    "tournament.resigned": (
        "{player}'s game #{id} is resigned: {winner} wins it, and the round goes on."
    ),
    "tournament.round": "**{name}** · round {round} of {rounds}:",
    "tournament.round.arena": "**{name}** · new pairings:",
    "tournament.pairing": "• {first} – {second}",
    "tournament.pairing.forfeit": "• {first} – {second} (not played: a player withdrew)",
    "tournament.pairing.bye": "• {player}: a bye (one point)",
    "tournament.game.starter": "**{name}** · round {round}: {first} – {second}",
    "tournament.game.starter.arena": "**{name}** · arena: {first} – {second}",
    "tournament.game.thread": "{name}: {first} – {second}",
    "tournament.needs-threads": (
        "{organiser}: Kamen cannot open the games of **{name}**: it needs the permission"
        " *Create Public Threads* in this channel. Give it, and the games open within a minute."
    ),
    "tournament.game.ping": "{first} {second}: your game of **{name}**, round {round}.",
    "tournament.game.ping.arena": "{first} {second}: your game of **{name}**.",
    "tournament.game.reopened": (
        "{first} {second}: the thread of your game of **{name}** was deleted. "
        "The game goes on here, from where it was."
    ),
    "tournament.list.line": "`#{id}` **{name}** · {game} · {format} · {stage}",
    "tournament.list.line.link": (
        "`#{id}` **{name}** · {game} · {format} · {stage} · [sign-up]({link})"
    ),
    "tournament.list.running": "**Under way**",
    "tournament.list.upcoming": "**Taking sign-ups**",
    "tournament.list.past": "**Past**",
    "tournament.list.none": "No tournaments on this server yet.",
    # ------------------------------------------------------------ standings
    "tournament.standings.title": "{name} · standings",
    "tournament.standings.legend": "rank · player · **points** · games · {tiebreaks}",
    "tournament.standings.line": "`{rank}.` {player} **{points}** · {games} · {tiebreaks}",
    "tournament.standings.round": "Round {round} under way",
    "tournament.tiebreak.sonneborn-berger": "SB",
    "tournament.tiebreak.direct-encounter": "DE",
    "tournament.tiebreak.buchholz": "Buchholz",
    "tournament.tiebreak.performance": "Perf.",
    "tournament.tiebreak.games": "Games",
    "tournament.finished": plural(
        "count",
        "🏆 **{name}** is over! The winner: {winner}.",
        "🏆 **{name}** is over! Shared first place: {winner}.",
    ),
    # ------------------------------------------------------------ commands
    "command.name.tournament": "tournament",
    "command.tournament": "Tournaments on this server: sign up, play, see the standings.",
    "command.name.tournament.create": "create",
    "command.tournament.create": "Create a tournament here and open its sign-up (for managers).",
    "command.name.tournament.start": "start",
    "command.tournament.start": "Close the sign-up and start the first round (for managers).",
    "command.name.tournament.standings": "standings",
    "command.tournament.standings": "A tournament's standings (only for you).",
    "command.name.tournament.list": "list",
    "command.tournament.list": "This server's tournaments (only for you).",
    "command.name.tournament.show": "show",
    "command.tournament.show": "A tournament's details and players (only for you).",
    "command.name.tournament.cancel": "cancel",
    "command.tournament.cancel": "Cancel a tournament (for managers).",
    "command.name.tournament.remove": "remove",
    "command.tournament.remove": "Take a player out of a tournament (for managers).",
    "command.name.tournament.leave": "leave",
    "command.tournament.leave": "Leave a tournament, or withdraw (games not played are lost).",
    "command.name.tournament.organisers": "organisers",
    "command.tournament.organisers": (
        "See or set the role whose members run tournaments (for managers)."
    ),
    "command.option.tournament.role": "role",
    "command.option.tournament.clear": "clear",
    "command.about.tournament.role": "Its members create and run tournaments, as managers do.",
    "command.about.tournament.clear": "True: only managers run tournaments again.",
    "command.option.tournament": "tournament",
    "command.option.reason": "reason",
    "command.option.tournament.format": "format",
    "command.option.tournament.name": "name",
    "command.option.tournament.rounds": "rounds",
    "command.option.tournament.minutes": "minutes",
    "command.option.tournament.starts": "starts",
    "command.about.tournament.game": "Which game is played.",
    "command.about.tournament.format": "How players are paired.",
    "command.about.tournament.name": "The tournament's name.",
    "command.about.tournament.rounds": "A Swiss tournament's number of rounds.",
    "command.about.tournament.minutes": "An arena's length in minutes.",
    "command.about.tournament.starts": (
        "When it starts by itself: `2027-01-05 18:00` (UTC), `30m` or `2h` (empty: by hand)."
    ),
    "command.about.tournament.tournament": "The tournament's number (default: the latest).",
    "command.about.tournament.user": "The player.",
    "command.about.tournament.reason": "Why (shown to everyone).",
}
