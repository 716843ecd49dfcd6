"""English for live clocks: base time plus increment, remaining times, low-time warnings
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {
    # `{live}`: the live controls the bot offers (`3+2`, ...); `{per_move}`: limits per move.
    "match.clock.bad-time": (
        "`{time}` is not a time control: write minutes+seconds for a live clock"
        " ({live}), a limit per move ({per_move}), or none."
    ),
    "match.clock.live-range": (
        "`{time}`: a live clock has {least} to {most} minutes, and adds 0 to {increment}"
        " seconds after each move: for example {live}."
    ),
    # ------------------------------------------------------------ the bot
    "bot.time.live": "{control} live clock",
    "bot.board.clocks": "⏱ {first} {first_left} · {second} {second_left}",
    "bot.reminder.low-time": (
        "{player}, only {left} left on your clock: it is move {number} in {title} game #{id}."
    ),
    "bot.choice.time.3-plus-2": "3+2: 3 minutes each, 2 seconds added a move",
    "bot.choice.time.5-plus-3": "5+3: 5 minutes each, 3 seconds added a move",
    "bot.choice.time.10-plus-5": "10+5: 10 minutes each, 5 seconds added a move",
}
