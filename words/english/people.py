"""English for a person's own data and limits: `/kamen me export`, `forget`, `block`.

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
    "command.name.block": "block",
    "command.name.unblock": "unblock",
    "command.option.challenges": "challenges",
    "command.option.role": "role",
    "command.block": (
        "Refuse someone's challenges to you, in every server (only for you; they are not told)."
    ),
    "command.unblock": "Take back a block: their challenges reach you again (only for you).",
    "command.about.block-user": "Whom to block.",
    "command.about.unblock-user": "Whom to unblock (`/kamen me settings` lists whom you block).",
    "command.about.challenges": (
        "Who may challenge you directly: everyone (default), members of a role, or nobody."
    ),
    "command.about.challenge-role": "With `challenges: role`: the role whose members may.",
    "bot.choice.challenges.everyone": "everyone (default)",
    "bot.choice.challenges.role": "role: only members of the role I choose",
    "bot.choice.challenges.nobody": "nobody: only open challenges",
    # ------------------------------------------------------------ a person's limits
    "match.not-taking-challenges": (
        "That player isn't taking challenges right now. Challenge someone else, or make an"
        " open challenge (leave `opponent` empty) that anyone may accept."
    ),
    "match.cannot-accept": (
        "You can't accept this challenge. Challenge someone else, or make an open challenge"
        " of your own."
    ),
    "limits.block.yourself": "You cannot block yourself.",
    "limits.block.kamen": (
        "Kamen cannot be blocked: it plays only games you ask for (a challenge to it, a"
        " tournament you join)."
    ),
    "limits.block.full": plural(
        "most",
        "You already block {most} person, the most Kamen keeps: unblock someone first.",
        "You already block {most} people, the most Kamen keeps: unblock someone first.",
    ),
    "limits.unblock.not-blocked": "You don't block them: there is nothing to undo.",
    "limits.challenges.bad": "`challenges` is one of {allowed}, not `{given}`.",
    "limits.challenges.no-role": (
        "`challenges: role` needs the role too: give `role:`, whose members alone may then"
        " challenge you."
    ),
    "limits.challenges.role-without-role": (
        "`role:` goes only with `challenges: role`, not with `challenges: {challenges}`."
    ),
    "limits.blocked": (
        "Blocked {user}: their challenges to you are refused, without saying why, and they"
        " cannot accept yours. `{command}` undoes it."
    ),
    "limits.unblocked": "{user} is no longer blocked: their challenges reach you again.",
    "limits.blocks.none": "You block nobody.",
    "limits.blocks": plural(
        "count",
        "You block {count} person: {people}. `{command}` undoes a block.",
        "You block {count} people: {people}. `{command}` undoes a block.",
    ),
    "limits.challenges.everyone": "Anyone may challenge you.",
    "limits.challenges.role": (
        "Only members of {role} may challenge you directly (in that role's server; elsewhere"
        " nobody may). You may still accept open challenges."
    ),
    "limits.challenges.nobody": (
        "Nobody may challenge you directly. You may still accept open challenges, and"
        " tournaments still pair you."
    ),
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
