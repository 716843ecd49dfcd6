"""English for a person's own data: `/kamen me export` and `/kamen me forget`.

The commands' names and descriptions (`command.*`, as in `commands`), and
what the export and the forgetting say (`people.*`), from the service's
refusals (`matches/people.py`) to the bot's confirmations (`bot/people.py`).
"""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # ------------------------------------------------------------ the commands
    "command.name.export": "export",
    "command.name.forget": "forget",
    "command.option.part": "part",
    "command.export": "All your games from every server, as one file of records (only for you).",
    "command.forget": (
        "Take your Discord id out of everything Kamen keeps (you will be asked to confirm)."
    ),
    "command.about.part": "Which part of a large export (a file holds only so much); default: 1.",
    # ------------------------------------------------------------ export
    "people.export.none": "You have no games in Kamen: there is nothing to export.",
    "people.export.all": plural(
        "total",
        "Your game in Kamen, from every server, as a record (only you see this).",
        "Your {total} games in Kamen, from every server, oldest first, as records one after"
        " another (only you see this).",
    ),
    "people.export.part": (
        "Part {part} of {parts}: your games {first} to {last} of {total}, oldest first, as"
        " records (a file holds only so much). The next part: `{next}`."
    ),
    "people.export.last-part": (
        "Part {part} of {parts}, the last: your games {first} to {last} of {total}, oldest"
        " first, as records."
    ),
    "people.export.bad-part": "`part` takes a whole number from 1 up, not `{given}`.",
    "people.export.no-part": plural(
        "parts",
        "Your export has only one part: leave `part` empty, or ask for part 1.",
        "Your export has {parts} parts: ask for a part from 1 to {parts}.",
    ),
    # ------------------------------------------------------------ forgetting
    # {games}: the tournament games being played, as `people.open-game` names them.
    "people.forget.tournaments": plural(
        "count",
        "You will be withdrawn from your tournaments too, and your tournament game being"
        " played is resigned: {games}.",
        "You will be withdrawn from your tournaments too, and your tournament games being"
        " played are resigned: {games}.",
    ),
    "people.forget.confirm": plural(
        "minutes",
        "**Forget you in Kamen?** In every server your games stay, as your opponents played"
        " them too, but under an anonymous number instead of your Discord id; your ratings and"
        " season lines leave the tables, and your settings are deleted. This cannot be undone."
        " The buttons work for {minutes} minute.",
        "**Forget you in Kamen?** In every server your games stay, as your opponents played"
        " them too, but under an anonymous number instead of your Discord id; your ratings and"
        " season lines leave the tables, and your settings are deleted. This cannot be undone."
        " The buttons work for {minutes} minutes.",
    ),
    "people.button.forget": "Forget me",
    "people.button.keep": "Cancel",
    "people.forget.done": (
        "Done: Kamen has forgotten you. Your games now belong to an anonymous player, your"
        " ratings and season lines are off the tables and your settings are gone. If you play"
        " again, you start afresh."
    ),
    "people.forget.kept": "Cancelled: nothing was forgotten.",
    "people.forget.expired": (
        "This confirmation has expired, and nothing was forgotten: ask again with `{command}`."
    ),
    "people.forget.not-yours": "These buttons answer only the player who asked for them.",
    "people.forget.open": plural(
        "count",
        "Kamen cannot forget you while you have a game or a challenge open: {games}. Finish or"
        " resign the game (cancel or decline a challenge), then ask again.",
        "Kamen cannot forget you while you have {count} games or challenges open: {games}."
        " Finish or resign the games (cancel or decline the challenges), then ask again.",
    ),
    "people.open-game": "{game:title} #{id} in {channel}",
    "people.still-playing": plural(
        "count",
        "You still have a game or a challenge open: finish or resign the game (cancel or"
        " decline a challenge), then ask again.",
        "You still have {count} games or challenges open: finish or resign the games (cancel"
        " or decline the challenges), then ask again.",
    ),
}
