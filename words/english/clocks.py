"""English for live clocks: base time plus increment, remaining times, low-time warnings
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural, plural

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
    # Games always end: a rated game between people needs a time control.
    "match.rated-needs-time": (
        "A rated game needs a time control: choose one with `time:` (a limit per move such as"
        " {per_move:or}, or a live clock such as {live:or}), or play it unrated with"
        " `rated: False`."
    ),
    "match.input.server-time-none": (
        "The server's default time control cannot be none (rated and tournament games take"
        " it): choose a limit per move ({per_move:or}) or a live clock ({live:or})."
    ),
    # Claiming an untimed game the opponent abandoned (`{at}`: a Discord timestamp's seconds).
    "match.claim.timed": (
        "This game has a time limit: it ends on time if your opponent does not move, so"
        " there is nothing to claim."
    ),
    "match.claim.your-turn": "It is your move: only the player waiting may claim the game.",
    "match.claim.too-soon": plural(
        "days",
        "You may claim the game once your opponent has not moved for {days} day: from"
        " <t:{at}:f> (<t:{at}:R>).",
        "You may claim the game once your opponent has not moved for {days} days: from"
        " <t:{at}:f> (<t:{at}:R>).",
    ),
    # ------------------------------------------------------------ the bot
    "bot.button.claim": "Claim the game",
    "bot.claimed": plural(
        "days",
        "{player} claims game #{id}: {other} has not moved for {days} day. The game ends as"
        " abandoned (not rated).",
        "{player} claims game #{id}: {other} has not moved for {days} days. The game ends as"
        " abandoned (not rated).",
    ),
    "bot.settings.time": (
        "Default time control: {time} (challenges between people and tournaments that name none)."
    ),
    "bot.time.live": "{control} live clock",
    "bot.board.clocks": "⏱ {first} {first_left} · {second} {second_left}",
    "bot.reminder.low-time": (
        "{player}, only {left} left on your clock: it is move {number} in {title} game #{id}."
    ),
    "bot.choice.time.3-plus-2": "3+2: 3 minutes each, 2 seconds added a move",
    "bot.choice.time.5-plus-3": "5+3: 5 minutes each, 3 seconds added a move",
    "bot.choice.time.10-plus-5": "10+5: 10 minutes each, 5 seconds added a move",
}
