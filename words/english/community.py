# ruff: noqa: RUF001, RUF002 - the en dash of W-D-L (wins, draws, losses) is typography
"""English for the community: ratings after a game, leaderboards, profiles, season tables.

A rating is shown rounded, with `?` when it is provisional (its deviation,
RD, above 110); W–D–L is wins, draws and losses.
"""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # Under a rated game's result, one line per player.
    "community.rating-change": "{player} {before} → {after} ({delta})",
    # ------------------------------------------------------------ leaderboards
    "community.leaderboard.title": "{title} leaderboard",
    "community.leaderboard.line": ("`{rank}` {player} **{rating}** ±{rd} · {games} · {record}"),
    "community.nobody": (
        "Nobody has a rated game here yet: a finished challenge between two players counts."
    ),
    "community.page": "Page {page} of {pages} · ? marks a provisional rating · W–D–L",
    "community.page.open": "Page {page}",
    "community.previous": "◀ Previous",
    "community.next": "Next ▶",
    "community.column.rank": "#",
    "community.column.player": "Player",
    "community.column.rating": "Rating",
    "community.column.rd": "RD",
    "community.column.games": "Games",
    "community.column.record": "W–D–L",
    "community.column.points": "Points",
    "community.column.performance": "Perf.",
    # ------------------------------------------------------------ seasons' tables
    "community.season.title": "{title} · season {season}",
    "community.season.line": (
        "`{rank}.` {player} **{points}** pts · {games} · {record} · perf. {performance}"
    ),
    "community.season.running": "Page {page} of {pages} · the season is running",
    "community.season.ended": "Page {page} of {pages} · final table",
    "community.no-seasons": (
        "This server has had no season yet: a manager starts one with `/kamen season start`."
    ),
    "community.no-such-season": "There is no season called `{name}` here. Seasons: {known}.",
    # ------------------------------------------------------------ profiles
    "community.profile.title": "{name} · profile",
    "community.profile.none": "No rated games yet.",
    "community.profile.heading": "{title} · {rating} ±{rd}",
    "community.profile.heading.ranked": "{title} · {rating} ±{rd} · #{rank} here",
    "community.profile.record": plural(
        "games",
        "{games} rated game · {record} · win streak {streak} (best {best})",
        "{games} rated games · {record} · win streak {streak} (best {best})",
    ),
    "community.profile.best-win": "Best win: against {player}, rated {rating}",
    "community.profile.recent": "Last games: {games}",
    "community.chart.title": "{name} · rating history",
    "community.chart.games": "rated games",
    "community.score.won": "won",
    "community.score.drew": "drew",
    "community.score.lost": "lost",
    "community.score.none": "no result",
    # ------------------------------------------------------------ a player's games
    "community.history.title": "{title} · {name}'s games",
    "community.history.line": "{game} against {opponent}, {moves} moves, <t:{date}:d>",
    "community.history.none": "No finished games of this player here.",
    "community.history.no-user": "Name a player with `user:` to list their games.",
    # ------------------------------------------------------------ refusals
    "community.bad-page": "There is no page {page}: this list has {pages}.",
    "community.bad-page-option": "`{option}` is a page number from 1, not `{value}`.",
    # ------------------------------------------------------------ commands
    "command.name.leaderboard": "leaderboard",
    "command.leaderboard": "This server's players ranked by rating in a game, or a season's table.",
    "command.name.profile": "profile",
    "command.profile": "A player's ratings, records and recent games on this server, with a chart.",
    "command.option.page": "page",
    "command.option.image": "image",
    "command.option.season": "season",
    "command.option.user": "user",
    "command.option.theme": "theme",
    "command.option.rated": "rated",
    "command.about.board-game": "Which game's ratings.",
    "command.about.page": "Which page (10 players a page; default: the first).",
    "command.about.image": "Also as a picture of the table.",
    "command.about.season": "A season's table instead (its name; empty: the current or last one).",
    "command.about.profile-user": "Whose profile (default: yours).",
    "command.about.theme": "The chart's colours (default: dark).",
    "command.about.history-user": "List this player's finished games instead (newest first).",
    "command.about.rated": "Whether the game counts for ratings (default: yes).",
    "command.theme.dark": "dark",
    "command.theme.light": "light",
}
