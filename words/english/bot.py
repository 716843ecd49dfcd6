"""English for the Discord adapter (see words/english/__init__.py).

Everything the bot composes: board messages, challenges, refusals of its own,
button and menu labels, option choices, reminders. Mentions (`<@id>`),
timestamps (`<t:...:R>`) and links are filled in as parameters, already in
Discord's markup; the sentences around them are here.
"""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # ------------------------------------------------------------ small parts
    "bot.nobody": "nobody",
    "bot.forgotten": "a forgotten player",  # one who asked Kamen to forget them
    "bot.time.none": "no time limit",
    "bot.time.day": plural("count", "{count} day a move", "{count} days a move"),
    "bot.time.hour": plural("count", "{count} hour a move", "{count} hours a move"),
    "bot.time.minute": plural("count", "{count} minute a move", "{count} minutes a move"),
    "bot.time.seconds": plural("count", "{count} second a move", "{count} seconds a move"),
    "bot.variant.standard": "standard rules",
    # ------------------------------------------------------------ boards
    "bot.players": "**{first_side}** {first} · **{second_side}** {second}",
    "bot.players.study": "{player} plays both sides (study)",
    "bot.result.draw": "Drawn ({result}): {reason}.",
    "bot.result.abandoned": "The game was abandoned: no result, not rated.",
    "bot.result.win": "{winner} wins as {side} ({result}): {reason}.",
    "bot.turn": "{side} to move: {player}.",
    "bot.turn.deadline": "{side} to move: {player}, by <t:{deadline}:R>.",
    "bot.game-over": "**Game over.** {result}",
    "bot.thinking": "{bot} is thinking…",
    "bot.your-move": "{player}, your move ({side}).",
    # Board and challenge titles end with `game #{id}` in every wording: a click on the
    # message is known to be about that game from it (bot.replies.headed_for).
    "bot.board.title": "{title} · game #{id}",
    "bot.board.move-by": "Move by <t:{deadline}:R>.",
    "bot.board.draw-offered": "{player} offers a draw.",
    "bot.board.how": (
        "Move with the menu below or `/{game} move`; `/{game} rules` explains the game."
    ),
    "bot.board.footer": "Move {number} · {variant} · {time}",
    # ------------------------------------------------------------ challenges
    "bot.first.player": "{player} plays {side} and moves first",
    "bot.first.the-opponent": "the opponent",
    "bot.first.random": "chance decides who plays {side} (who moves first)",
    "bot.challenge.open": "{challenger} is looking for an opponent for **{title}**.",
    "bot.challenge.open.how": "Anyone may press **Accept**.",
    "bot.challenge.direct": "{opponent}, {challenger} challenges you to a game of **{title}**!",
    "bot.challenge.direct.how": "{opponent}: **Accept** or **Decline**.",
    "bot.challenge.description": "{how} {challenger} may cancel it.",
    "bot.challenge.description.expires": (
        "{how} {challenger} may cancel it. This challenge expires <t:{deadline}:R>."
    ),
    "bot.challenge.title": "{title} challenge · game #{id}",
    "bot.challenge.field.rules": "Rules",
    "bot.challenge.field.time": "Time",
    "bot.challenge.field.first": "First move",
    "bot.challenge.declined": "{opponent} declined {challenger}'s challenge to {title}.",
    "bot.challenge.cancelled": "{challenger} cancelled their challenge to {title}.",
    "bot.challenge.expired": (
        "{challenger}'s challenge to {title} expired: nobody accepted it in time."
    ),
    "bot.challenge.closed": "This challenge to {title} is closed.",
    "bot.against.kamen": "{bot} (level {level})",
    "bot.against.study": "themselves (a study)",
    "bot.against.study-name": "study",
    "bot.starts-game": "{player} starts a game of **{title}** against {against}.",
    "bot.start-failed": "~~{text}~~ {error}",
    # ------------------------------------------------------------ threads
    "bot.moved-to-thread": (
        "**{title}** · game #{id}: {first} ({first_side}) vs {second} ({second_side}),"
        " being played in <#{thread}>."
    ),
    "bot.thread-result": "**{title}** · game #{id}: {first} vs {second}, in <#{channel}>. {result}",
    "bot.thread-name": "{title}: {first} vs {second}",
    # ------------------------------------------------------------ moving
    "bot.you-played": "You played {move}.",
    "bot.moves-from": "The moves from {square}:",
    "bot.hint.not-your-turn": "It is not your turn.",
    "bot.menu.move": "Pick a move",
    "bot.menu.piece": "Pick a piece to move",
    "bot.menu.destination": "Pick its move",
    "bot.option.takes": "takes {captured}",
    "bot.option.moves": plural("count", "{count} move", "{count} moves"),
    # ------------------------------------------------------------ buttons
    "bot.button.accept": "Accept",
    "bot.button.decline": "Decline",
    "bot.button.cancel": "Cancel challenge",
    "bot.button.resign": "Resign",
    "bot.button.resign-yes": "Yes, resign",
    "bot.button.draw": "Offer a draw",
    "bot.button.draw-accept": "Accept the draw",
    "bot.button.draw-decline": "Decline the draw",
    # ------------------------------------------------------------ resign and draws
    "bot.resign.confirm": "Resign game #{id} of {title}? This cannot be undone.",
    "bot.resigned": "You resigned game #{id}.",
    "bot.draw.accepted": "{player} accepts the draw.",
    "bot.draw.offered": (
        "{other}, {player} offers a draw: accept it with `/{game} draw` or the board's buttons,"
        " or just play on."
    ),
    "bot.draw.declined": "{player} declines the draw offer; play on.",
    # ------------------------------------------------------------ looking back
    "bot.history.empty": "no moves yet",
    "bot.history.challenge": "This challenge is still open.",
    "bot.history.declined": "This challenge was declined.",
    "bot.history.expired": "This challenge expired.",
    "bot.history.cancelled": "This challenge was cancelled.",
    "bot.history.head": "**{title} · game #{id}** ({variant})\n{state}\n",
    "bot.replay": plural(
        "ply",
        "Replay of {title} game #{id} ({ply} move).",
        "Replay of {title} game #{id} ({ply} moves).",
    ),
    "bot.rules.title": "{title}: the rules in short",
    "bot.rules.sides.name": "Sides",
    "bot.rules.sides": "{first} moves first, then {second}.",
    "bot.rules.value": "`{value}`",
    "bot.rules.value.default": "`{value}` (default)",
    "bot.rules.variant.name": "Variant {key}",
    "bot.rules.variant": "{values}: {help}",
    "bot.rules.moves.name": "Moves",
    "bot.rules.moves": "Write moves as the board names them, e.g. {sample}.",
    "bot.games.none": (
        "No games are being played on this server. Start one with `/<game> challenge`."
    ),
    "bot.games.head": "**Games being played here ({count}):**",
    "bot.games.to-move": "{side} to move",
    "bot.games.line": "• {title} #{id}: {first} vs {second}, move {number}, {turn} · {where}",
    "bot.games.more": plural("count", "…and {count} more.", "…and {count} more."),
    "bot.settings.language": "Language of public messages: {language}.",
    "bot.settings.language.auto": (
        "Language of public messages: as this server's Discord language ({language} now)."
    ),
    "bot.settings.champion-games": plural(
        "games",
        "Season champions: the leader of a game's table, after at least {games} rated game"
        " of it in the season.",
        "Season champions: the leader of a game's table, after at least {games} rated games"
        " of it in the season.",
    ),
    "bot.settings.threads.on": "Threads per game: on: each accepted game gets a thread.",
    "bot.settings.threads.off": (
        "Threads per game: off: games are played in the channel where they were challenged."
    ),
    # ------------------------------------------------------------ the sweeper
    "bot.reminder": (
        "{player}, half of your time for this move is gone."
        " It is move {number} in {title} game #{id}."
    ),
    "bot.reminder.deadline": (
        "{player}, half of your time for this move is gone: move by <t:{deadline}:R>."
        " It is move {number} in {title} game #{id}."
    ),
    "bot.your-turn": "{player}, your move in {title} game #{id} (move {number}).",
    # ------------------------------------------------------------ Kamen's own troubles
    "bot.downtime": plural(
        "minutes",
        "Kamen was away for {minutes} minute; the clocks were stopped. {title} game #{id}"
        " goes on: {player} to move.",
        "Kamen was away for {minutes} minutes; the clocks were stopped. {title} game #{id}"
        " goes on: {player} to move.",
    ),
    "bot.abandoned": (
        "{players}: the channel of {title} game #{id} is gone, so the game has ended"
        " (abandoned, not rated). Start a new one with `/{game} challenge`."
    ),
    # ------------------------------------------------------------ refusals and faults
    "bot.stale": "{text} Here is the board as it is now.",
    "bot.stale.link": "{text} Here is the board as it is now (the live one: {link}).",
    "bot.apology": "Something went wrong on Kamen's side; it has been logged. Please try again.",
    "bot.apology.command": "Something went wrong on Kamen's side; it has been logged.",
    "bot.unknown-button": (
        "This button is from an older Kamen and no longer works:"
        " `/games` lists the games being played."
    ),
    "bot.refuse.other-bots": "Other bots cannot play: challenge a person, or Kamen itself.",
    "bot.refuse.no-move-from": "No move starts from {square}: pick another piece.",
    "bot.refuse.resign-over": "This game is over: there is nothing to resign.",
    "bot.refuse.direct-message": "Kamen's games are played in servers, not in direct messages.",
    "bot.refuse.no-channel": "This command works in a server's channels.",
    "bot.refuse.record-both": "Give the record as text or as a file, not both.",
    "bot.refuse.record-too-large": plural(
        "limit",
        "The record file is too large: at most {limit} byte.",
        "The record file is too large: at most {limit} bytes.",
    ),
    "bot.refuse.record-not-utf8": "The record file is not UTF-8 text.",
    "bot.refuse.record-unreadable": "The record file could not be read: attach it again.",
    "bot.refuse.record-missing": (
        "Give the record: paste it into `record`, or attach it as `file`."
    ),
    "bot.refuse.option.choice": "`{option}` is one of {allowed}, not `{given}`.",
    "bot.refuse.option.user": "`{option}` is a member of this server: pick one from the list.",
    "bot.refuse.option.role": "`{option}` is a role of this server, not `{given}`.",
    "bot.refuse.option.game-id": (
        "`{option}` is a game's number, as its board shows it (#12), not `{given}`."
    ),
    "bot.refuse.option.text": plural(
        "high",
        "`{option}` is a text of {low} to {high} character.",
        "`{option}` is a text of {low} to {high} characters.",
    ),
    "bot.refuse.option.flag": "`{option}` is on or off (True or False), not `{given}`.",
    "bot.refuse.option.file": "`{option}` is a file: attach one.",
    "bot.refuse.manage-server": (
        "Only members who may Manage Server can see or change Kamen's settings here."
    ),
    "bot.refuse.foreign-component": (
        "That button or menu does not belong to this message: use the one on the game's board."
    ),
    "bot.me.language": "Kamen answers you in {language}.",
    "bot.me.language.auto": "Kamen answers you in your Discord app's language ({language} now).",
    "bot.pings.on": "Turn notifications: on. Kamen pings you when it is your move.",
    "bot.pings.off": (
        "Turn notifications: off. Kamen no longer pings you when it is your move;"
        " the boards still say whose turn it is."
    ),
    # ------------------------------------------------------------ option choices
    "bot.choice.time.none": "none: take as long as you like",
    "bot.choice.time.5m": "5 minutes a move",
    "bot.choice.time.1h": "1 hour a move",
    "bot.choice.time.1d": "1 day a move",
    "bot.choice.time.3d": "3 days a move",
    "bot.choice.first.random": "random (default): chance decides who plays {side}",
    "bot.choice.first.me": "me: I play {side} and move first",
    "bot.choice.first.them": "them: my opponent plays {side} and moves first",
    "bot.choice.variant": "{value}: {text}",
    "bot.choice.default": "{name} (default)",
}
