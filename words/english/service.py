"""English for the service layer (see words/english/__init__.py): refusals and the board's line.

Every code `matches/` raises or returns, word for word as the service wrote
them before the codes. A parameter `outcome` is written out by the words
layer from the game's outcome (with `game` and `sides`).
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

# The texts whose refusals name them (`matches.inputs.capped`).
_TEXTS_NAMED = {
    "move": "move",
    "record": "record",
    "game-name": "game name",
    "variant": "variant",
    "site": "site",
    "name": "name",
    "time-control": "time control",
    "level": "level",
    "first-player": "first player",
    "language": "language",
    "reason": "reason",
}
# The ids a refusal can name (`matches.inputs.snowflake`).
_IDS_NAMED = ("server", "channel", "user", "game", "message", "role")

TEXTS: dict[str, str | Plural] = {
    "match.refused": "That cannot be done.",
    "match.not-your-turn": "It is not your turn: wait for your opponent's move.",
    "match.not-a-player": "You are not a player in this game.",
    "match.not-a-player.cancel": "Only the challenger can cancel this challenge.",
    "match.no-game-here": "There is no game in this channel.",
    "match.no-game-id": "There is no game #{game_id}.",
    "match.no-game-here.elsewhere": "There is no such game here.",
    # `{here:title}`: a game's name (`oska`) said as its title in the language.
    "match.other-game": "The game here is {here:title}, not {asked:title}.",
    "match.not-accepted-yet": "This challenge has not been accepted yet.",
    "match.no-game.declined": "This challenge was declined: there is no game.",
    "match.no-game.expired": "This challenge expired: there is no game.",
    "match.no-game.cancelled": "This challenge was cancelled: there is no game.",
    "match.challenge-repeated": (
        "You already made this same challenge (game #{id}): it is still open."
    ),
    "match.rematch-exists": "Game #{of} already has its rematch: game #{id}.",
    "match.game-already-here": (
        "A game is already being played here: finish it, or play in another channel."
    ),
    "match.game-over": "This game is over.",
    "match.game-over.result": "This game is over: {result} ({outcome}).",
    "match.out-of-time": "Time has run out for this move: the game is lost on time.",
    "match.cannot-challenge-yourself": "You cannot challenge yourself.",
    "match.cannot-accept-own": "You cannot accept your own challenge.",
    "match.not-challenged": "Only the challenged user can answer this challenge.",
    "match.not-challenged.accept": "Only the challenged user can accept this challenge.",
    "match.not-challenged.decline": "Only the challenged user can decline this challenge.",
    "match.not-challenged.own": "You cannot decline your own challenge: cancel it.",
    "match.challenge-closed": "This challenge is no longer open.",
    "match.challenge-closed.accepted": "This challenge was already accepted.",
    "match.challenge-closed.finished": (
        "This challenge was already accepted, and its game is over."
    ),
    "match.challenge-closed.declined": "This challenge was declined.",
    "match.challenge-closed.cancelled": "This challenge was cancelled.",
    "match.challenge-expired": "This challenge has expired.",
    "match.stale": "The position changed, try again.",
    "match.stale.board": "That board is out of date: the game has moved on. Look again.",
    "match.draw.no-offer": "There is no draw offer to answer.",
    "match.draw.already-offered": "You have already offered a draw: wait for the answer.",
    "match.draw.bot": "The bot plays on: it does not agree to draws.",
    "match.draw.own-offer": "You cannot answer your own draw offer.",
    "match.draw.both-sides": (
        "You play both sides of this game: there is nobody to agree a draw with."
    ),
    "match.bad-input": "That input is not valid.",
    "match.input.bad-time": "`{time}` is not a time control: write none, 5m, 1h, 1d or 3d.",
    "match.input.time-range": "A move's time limit is between 1 minute and 14 days.",
    "match.input.bad-level": "`{level}` is not a level: write one of {levels}.",
    "match.input.bad-first": "`{first}`: who plays first is one of {choices}.",
    "match.input.threads": "Threads are either on or off.",
    "match.input.pings": "Pings are either on or off.",
    "match.input.bad-language": (
        "Kamen does not speak `{language}`: choose one of {languages:or}, or automatic"
    ),
    "match.level-without-bot": (
        "A level is for games against the bot: challenge the bot to use it."
    ),
    "match.no-bot": "The bot cannot play here: no computer opponent is set up.",
    "match.record-of-other-game": "This is a record of {record:title}, not {asked:title}.",
    "match.record-over": (
        "This record's game is over ({result}, {outcome}): there is nothing left to play."
    ),
    "match.no-move-from": "No move starts from {square}: pick another piece.",
    "match.own-game-running": (
        "Kamen will not think about this position: it occurs in game #{id}, which you are"
        " still playing. It opens again once that game has ended."
    ),
    # The board's one line after a move (words.service.headline puts the parts together).
    "headline.played": "{side} played {move}.",
    "headline.passes": "{side} has no move and passes.",
    "headline.draw-lapsed": "The draw offer lapsed.",
    "headline.game-over": "Game over: {result} ({outcome}).",
    "headline.to-move": "{side} to move.",
}
for _key, _noun in _TEXTS_NAMED.items():
    TEXTS[f"match.input.not-text.{_key}"] = f"The {_noun} must be text."
    TEXTS[f"match.input.too-long.{_key}"] = plural(
        "limit",
        f"The {_noun} is too long: at most {{limit}} character ({{given}} given).",
        f"The {_noun} is too long: at most {{limit}} characters ({{given}} given).",
    )
for _what in _IDS_NAMED:
    TEXTS[f"match.input.bad-id.{_what}"] = f"`{{value}}` is not a valid {_what} id."
