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
}
