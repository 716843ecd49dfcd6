"""English for playing in Discord: one-tap moves, hints, rematch, replays, help, takeback, refusals
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    "bot.button.play": "Play {move}",
    # ------------------------------------------------------------ a finished game's board
    "bot.button.rematch": "Rematch",
    "bot.button.replay": "Replay",
    "bot.button.record": "Record",
    "bot.refuse.rematch": "Only a player of game #{id} can ask for a rematch, once it is over.",
    # ------------------------------------------------------------ settings that say what changed
    "bot.settings.changed": "✅ Changed. {line}",
    "bot.settings.same": "{line} (It already was: nothing changed.)",
    "bot.settings.how": (
        "To change one, give `{threads}:`, `{language}:`, `{champion_games}:` or `{time}:`."
    ),
    "bot.me.how": "To change one, give `{pings}:`, `{language}:` or `{challenges}:`.",
    "bot.challenge-repeated.link": "It is here: {link}",
    # ------------------------------------------------------------ no game here: yours are there
    "bot.your-games.head": plural(
        "count", "Your game on this server:", "Your games on this server:"
    ),
    "bot.your-games.line": "• {title} #{id}: {where}",
    # ------------------------------------------------------------ importing
    "bot.import.example": (
        "A record has a tag line naming the game, then the numbered moves and `*`"
        " (the README has the whole format):\n```\n{example}\n```"
    ),
    # ------------------------------------------------------------ /kamen help
    "command.name.help": "help",
    "command.help": "How to play here: the games, starting one, moving, and what else there is.",
    "command.about.help-game": "The game to explain first (default: all three, Oska first).",
    "bot.help.title": "Kamen · how to play",
    "bot.help.intro": "Play {games:and} here: against each other, or against Kamen itself.",
    "bot.help.start.name": "Start a game",
    "bot.help.start": (
        "`/{game} {challenge}` and pick an opponent; pick {bot} to play Kamen (easy, medium or"
        " hard). Leave the opponent empty and anyone may accept."
    ),
    "bot.help.move.name": "Move",
    "bot.help.move": (
        "Pick your move in the menu under the board: one tap when it is the only move. Or type"
        " `/{game} {move}` and choose from the list of legal moves. When there are many, pick"
        " the piece first, then where it goes."
    ),
    "bot.help.game": "{summary}\nRules, variants and notation: `/{game} {rules}`.",
    "bot.help.during.name": "During and after a game",
    "bot.help.during": (
        "`/{game} {board}` shows the board again, `/{game} {draw}` offers a draw,"
        " `/{game} {resign}` gives up. Afterwards `/{game} {history}` gives the record and"
        " `/{game} {replay}` steps through the game; the buttons under the final board do"
        " too, and offer a rematch."
    ),
    "bot.help.levels.name": "Kamen's strength",
    "bot.help.levels": (
        "Each level's rating on Kamen's engine scale: measured in games against fixed reference"
        " programs, where one that counts material {depth} plies ahead (a ply: one player's move)"
        " is {rating}. It is not the players' rating scale (games against Kamen are not rated),"
        " but a gap means the same: 200 points more scores about 75 %.\n{lines}"
    ),
    "bot.help.levels.game": "{title}: {levels}",
    "bot.help.levels.level": "{level} ≈ {rating}",
    "bot.help.learn.name": "Learn",
    "bot.help.learn": (
        "`/{game} {review}` shows what each move of a finished game changed, the mistakes and the"
        " better moves (the **Review** button under the final board does too). `/{puzzle}` gives"
        " you a position where one move wins or saves the game."
    ),
    "bot.help.community.name": "Ratings and tournaments",
    "bot.help.community": (
        "Games between two people are rated: `/{leaderboard}`, `/{profile}`."
        " This server's tournaments: `/{tournament} {list}`."
    ),
    "bot.help.settings": (
        "/{kamen} {me} {settings}: your turn pings, your language, who may challenge you and"
        " whom you block."
    ),
    # ------------------------------------------------------------ takebacks
    "match.takeback.already-asked": "You have already asked to take that move back.",
    "match.takeback.own": "You cannot answer your own request to take a move back.",
    "match.takeback.none": "There is no request to take a move back in this game.",
    "match.takeback.rated": (
        "Moves are taken back only in unrated games: this one counts for the ratings."
        " (A challenge with `rated:False` is unrated.)"
    ),
    "match.takeback.live-clock": "Moves cannot be taken back in a game on a live clock.",
    "match.takeback.level": (
        "Kamen lets you take moves back only at levels 1 and 2; this game is at level {level}."
    ),
    "match.takeback.study": "Studying alone, you can go back with a new import instead.",
    "match.takeback.answered": (
        "Your opponent has already answered that move: only a move not yet answered can be"
        " taken back."
    ),
    "match.takeback.no-move": "There is no move of yours to take back yet.",
    "bot.takeback.asked": (
        "{opponent}: {player} asks to take back their move {move} in {title} game #{id}:"
        " do you agree?"
    ),
    "bot.takeback.taken": plural(
        "count",
        "{player} took back {moves}.",
        "{player} took back {moves} (with Kamen's reply).",
    ),
    "bot.takeback.declined": "{player} declined to take the move back: the game goes on.",
    "bot.button.takeback-yes": "Take it back",
    "bot.button.takeback-no": "No",
    "command.name.takeback": "takeback",
    "command.takeback": (
        "Ask to take back your last move in this channel's game of {title} (unrated games)."
    ),
    # ------------------------------------------------------------ the replay viewer
    "bot.viewer.title": "Replay · {title} game #{id}",
    "bot.viewer.start": plural(
        "total", "The start · {total} move in all", "The start · {total} moves in all"
    ),
    "bot.viewer.at": "Move {number}: {side} played {move} · {ply} of {total}",
}
