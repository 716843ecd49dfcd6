"""English for the slash commands: their names, descriptions, options and choices.

The names are what a player types (`/oska challenge`); Discord shows a Czech
player the Czech ones (`/oska výzva`) through the bot's translator.
Descriptions are at most 100 characters, names at most 32, in lower case.
"""

TEXTS: dict[str, str] = {
    # ------------------------------------------------------------ names
    "command.name.oska": "oska",
    "command.name.lasca": "lasca",
    "command.name.oware": "oware",
    "command.name.challenge": "challenge",
    "command.name.move": "move",
    "command.name.board": "board",
    "command.name.resign": "resign",
    "command.name.draw": "draw",
    "command.name.history": "history",
    "command.name.replay": "replay",
    "command.name.rules": "rules",
    "command.name.import": "import",
    "command.name.games": "games",
    "command.name.kamen": "kamen",
    "command.name.settings": "settings",
    "command.name.me": "me",
    "command.option.opponent": "opponent",
    "command.option.time": "time",
    "command.option.first": "first",
    "command.option.level": "level",
    "command.option.move": "move",
    "command.option.game": "game",
    "command.option.gif": "gif",
    "command.option.record": "record",
    "command.option.file": "file",
    "command.option.threads": "threads",
    "command.option.champion-games": "champion-games",
    "command.option.pings": "pings",
    "command.option.language": "language",
    "command.option.oska.capture": "capture",
    "command.option.oska.win": "win",
    "command.option.lasca.promotion": "promotion",
    "command.option.oware.grandslam": "grandslam",
    "command.option.oware.must-play-12": "must-play-12",
    # ------------------------------------------------------------ descriptions
    "command.game": "Play {title}: challenge someone, move, resign, look back.",
    "command.challenge": (
        "Challenge someone (or nobody: anyone may accept; or Kamen itself) to {title}."
    ),
    "command.move": (
        "Play your move in this channel's game of {title} (type: the legal moves appear)."
    ),
    "command.board": "Show this channel's game of {title} again, with the move menu, for everyone.",
    "command.resign": "Give up this channel's game of {title} (you will be asked to confirm).",
    "command.draw": (
        "Offer a draw in this channel's game of {title}, or accept the one you were offered."
    ),
    "command.history": (
        "The moves of a game of {title} so far, and its record as a text file (only for you)."
    ),
    "command.replay": (
        "Step through a game of {title} move by move (only for you), or post it as a GIF."
    ),
    "command.about.gif": "True: post the game as an animated GIF for everyone instead.",
    "command.rules": (
        "How {title} is played, its variants and how moves are written (only for you)."
    ),
    "command.import": (
        "Go on from a record of {title}: alone to study it, or against someone or Kamen."
    ),
    "command.games": "The games being played on this server, with a link to each board.",
    "command.kamen": "Kamen's settings: yours, and this server's (for its managers).",
    "command.settings": (
        "See or change how Kamen plays here: threads per game, the server's language."
    ),
    "command.me-group": "You in Kamen: your own settings, and your data.",
    "command.me": (
        "Your own settings: pings, the language Kamen answers you in, who may challenge you."
    ),
    # ------------------------------------------------------------ options
    "command.about.opponent": (
        "Whom to challenge; leave it empty for an open challenge, or pick Kamen to play the bot."
    ),
    "command.about.time": (
        "Time per move or a live clock; who runs out loses"
        " (default: the server's; rated needs one)."
    ),
    "command.about.server-time": (
        "The time control of challenges and tournaments that name none (default 3 days a move)."
    ),
    "command.about.first": "Who plays {side}, the side that moves first (default: chance decides).",
    "command.about.level": (
        "How strongly Kamen plays against you: 1 to 8 (default 3), rated on Kamen's engine scale."
    ),
    "command.about.move": (
        "Your move as the board names it, e.g. {sample}; pick one from the list of legal moves."
    ),
    "command.about.game": (
        "The game's number (#12 on its board); leave it empty for this channel's game."
    ),
    "command.about.record": "The record's text (tags and moves, as /history gives it).",
    "command.about.file": "Or the record as a .txt file.",
    "command.about.import-opponent": (
        "Who plays on with you; leave it empty to play both sides yourself."
    ),
    "command.about.threads": (
        "On: each accepted game opens a thread (default). Off: games stay in the channel."
    ),
    "command.about.champion-games": (
        "The fewest rated games of a game in a season its champion needs (default 5)."
    ),
    "command.about.pings": "On: Kamen pings you when it is your move (default). Off: it does not.",
    "command.about.server-language": (
        "The language of boards, challenges and results here (default: the server's Discord one)."
    ),
    "command.about.my-language": (
        "The language Kamen answers you in (default: your Discord app's language)."
    ),
    # Each language's name for itself: the language option lists them so.
    "command.language.name": "English",
    "command.language.auto": "automatic (as Discord says)",
    "command.about.variant": (
        "Rule variant {key} (default {default}): each choice says what it does."
    ),
    "command.about.variant-help": "Rule variant: {help}",
    # ------------------------------------------------------------ choices
    # The ladder's eight levels; five keep the names they had before it grew.
    "command.level.1": "1 · easy",
    "command.level.2": "2",
    "command.level.3": "3 · medium",
    "command.level.4": "4",
    "command.level.5": "5 · medium-hard",
    "command.level.6": "6",
    "command.level.7": "7 · hard",
    "command.level.8": "8 · max",
    # A level with its rating on the scale of fixed reference programs (bench/levels.py),
    # which the option's description names.
    "command.level.rated": "{level} ≈ {rating}",
}
