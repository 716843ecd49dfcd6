"""English for learning from games: `/<game> review` and `/puzzle`.

The commands' names and descriptions (`command.*`, as in `commands`), the
review's message, chart and board labels (`review.*`, bot/reviews.py and
render/review.py through their labels), and the puzzles' messages
(`puzzle.*`, bot/puzzles.py, refusals of matches/puzzles.py and matches/reviews.py).
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    "command.name.review": "review",
    "command.review": (
        "What each move of a finished game of {title} changed: mistakes, better moves."
    ),
    "command.name.puzzle": "puzzle",
    "command.puzzle": ("A position where one move wins or saves the game: find it (only for you)."),
    "command.about.puzzle-game": "Which game's puzzle.",
    # ------------------------------------------------------------ the review
    "review.button": "Review",
    "review.making": (
        "🔎 Kamen is reviewing game #{id}: every move is searched, which takes a few seconds."
        " The review comes here; a deeper one follows within minutes."
    ),
    "review.title": "🔎 Review · {title} #{id}",
    "review.counts": "**{side}** {player}: {blunders} ?? · {mistakes} ? · {inaccuracies} ?!",
    "review.legend": (
        "?? blunder · ? mistake · ?! inaccuracy · -N %: the share of a win the move threw away"
    ),
    "review.legend.exact": "◆ exact: the verdict rests on the tables, not on a search",
    "review.line": (
        "**{number}.** {side}: {move}{symbol} ({mark}) · better **{better}** · {before} → {after}"
        " · -{lost} %{exact}"
    ),
    "review.more": plural(
        "count", "…and {count} more marked move.", "…and {count} more marked moves."
    ),
    "review.clean": "No inaccuracy, mistake or blunder: a clean game on both sides.",
    "review.worst": "The costliest move, move {number}: what was played, and what was better.",
    "review.result.win": "win",
    "review.result.draw": "draw",
    "review.result.loss": "loss",
    "review.points.seeds": "{points} seeds",
    "review.points.soldiers": "{points} soldiers",
    "review.points.stones": "{points} stones",
    "review.points.result": "{points}",
    "review.source.table": "Exact: every move checked against the solved game.",
    "review.source.tables": "Exact: every move checked against the endgame tables.",
    "review.source.search": "Each move checked by a search, depth {depth}.",
    "review.source.mixed": (
        "The end checked exactly against the endgame tables, the rest by a search, depth {depth}."
    ),
    "review.stage.quick": "Quick review: a deeper one is being made, ask again in a few minutes.",
    "review.stage.deep": "Deep review.",
    "review.chart.title": "Review of {game}: {first} vs {second}",
    "review.chart.x": "move",
    "review.chart.ahead": "{side} ahead",
    "review.mark.inaccuracy": "Inaccuracy",
    "review.mark.mistake": "Mistake",
    "review.mark.blunder": "Blunder",
    "review.board.played": "Played: {move}",
    "review.board.better": "Better: {move}",
    "review.not-over": "Game #{id} is not over yet: it can be reviewed once it has ended.",
    "review.no-moves": "Game #{id} ended before any move: there is nothing to review.",
    "review.unavailable": "Reviews are made by Kamen's AI workers, and none runs here.",
    # ------------------------------------------------------------ puzzles
    "puzzle.title": "🧩 {title} puzzle",
    "puzzle.task.win": "**{side} to move.** One move wins: find it.",
    "puzzle.task.win-material": (
        "**{side} to move.** One move wins material that every other move gives away: find it."
    ),
    "puzzle.task.save": "**{side} to move.** Only one move saves the game: find it.",
    "puzzle.menu": "Your move…",
    "puzzle.next": "Next puzzle",
    "puzzle.right": "✅ **{move}** is the move. Well found!",
    "puzzle.wrong": (
        "❌ **{move}** is not it. The move was **{solution}**: here is the board after it."
    ),
    "puzzle.not-counted": "(You had answered this puzzle before: only your first answer counts.)",
    "puzzle.footer": "Puzzle {id} · {proof}",
    "puzzle.proof.table": "checked against the solved game",
    "puzzle.proof.endgame-table": "checked against the endgame tables",
    "puzzle.proof.search": "checked by a search {depth} moves deep",
    "puzzle.none": "There are no puzzles for this game yet.",
    "puzzle.unknown": (
        "Puzzle {id} is not one Kamen knows any more: ask for a new one with /puzzle."
    ),
    # ------------------------------------------------------------ on /profile
    "community.profile.puzzles.heading": "🧩 Puzzles",
    "community.profile.puzzles": plural(
        "answered",
        "{solved} solved of {answered} answered here",
        "{solved} solved of {answered} answered here",
    ),
}
