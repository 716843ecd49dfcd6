"""The engines on the command line: list moves, count perft, play in a terminal.

    python -m games moves GAME [--variant KEY=VALUE ...] [MOVE ...]
    python -m games perft GAME DEPTH [--variant KEY=VALUE ...]
    python -m games play GAME [--variant KEY=VALUE ...] [--lang cs]

The one module of games/ that speaks to a person, so the one that imports
`words`: every sentence it prints is a catalogue entry (`cli.*` and the
engines' codes), in the language of `--lang`, else of the environment
(`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

import words
from games import registry
from games.base import GameError, GameSpec, GameState, MoveError, Variant
from games.perft import perft
from games.record import record_of
from words.games import side_names
from words.games import title as game_title

EXIT_BAD_INPUT = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    # Moves may follow `--variant`; argparse alone would refuse them there.
    args, extra = parser.parse_known_args(argv)
    if extra and (args.command != "moves" or any(text.startswith("-") for text in extra)):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "moves":
        args.moves = [*args.moves, *extra]
    lang = args.lang or language_of(os.environ)
    try:
        spec = registry.get(args.game)
        state = spec.new(args.variant or ())
    except GameError as error:
        print(words.say("cli.error", lang, text=words.explain(error, lang)), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.command == "moves":
        return _moves(spec, state.variant, args.moves, lang)
    if args.command == "perft":
        for depth in range(1, args.depth + 1):
            print(depth, perft(state, depth), flush=True)
        return 0
    return play_interactively(spec, state, sys.stdin, sys.stdout, lang)


def language_of(environment: Mapping[str, str]) -> str:
    """The language the environment asks for (`cs_CZ.UTF-8` is `cs`), as gettext reads it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environment.get(name, "")
        if value:
            return value.split(":")[0].split(".")[0].split("_")[0].lower()
    return "en"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    names = ", ".join(registry.GAMES)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument("game", help=f"one of {names}")
        sub.add_argument(
            "--variant",
            action="append",
            metavar="KEY=VALUE",
            help="a rule option (games/RULES.md); repeat for more",
        )
        sub.add_argument("--lang", help="the language to speak (cs, en); default: from LANG")
        return sub

    moves = command("moves", "play moves from the start; print the legal moves and the outcome")
    moves.add_argument("moves", nargs="*", metavar="MOVE")
    perft_command = command("perft", "count the move tree from the start, depth by depth")
    perft_command.add_argument("depth", type=int, metavar="DEPTH")
    command("play", "two people play in the terminal")
    return parser


def _moves(spec: GameSpec, variant: Variant, moves: Sequence[str], lang: str = "en") -> int:
    try:
        state = spec.replay(variant, moves)
    except MoveError as error:
        ply = error.params["ply"]
        assert isinstance(ply, int)
        side = side_names(spec.name, lang)[(ply - 1) % 2]  # moves alternate, passes too
        text = words.explain(error, lang)
        print(words.say("cli.bad-move", lang, ply=ply, side=side, text=text), file=sys.stderr)
        return EXIT_BAD_INPUT
    for move in sorted(state.legal_moves()):
        print(move)
    outcome = state.outcome()
    print(words.say("cli.outcome", lang, label=outcome.label if outcome else "none"))
    return 0


def play_interactively(
    spec: GameSpec, state: GameState, stdin: TextIO, stdout: TextIO, lang: str = "en"
) -> int:
    """A terminal game between two people sharing the keyboard, in `lang`."""
    history: list[GameState] = []
    help_text = words.say("cli.help", lang)

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    variant = str(state.variant)
    title = "cli.title.variant" if variant else "cli.title"
    name, sides = game_title(spec.name, lang), side_names(spec.name, lang)
    say(words.say(title, lang, title=name, variant=variant, help=help_text))
    while True:
        say()
        say(state.to_text())
        outcome = state.outcome()
        if outcome is not None:
            reason = words.outcome_text(outcome, spec.name, lang)
            say(words.say("cli.game-over", lang, outcome=reason, result=outcome.result))
            say(record_of(spec, state).to_text())
            return 0
        say(words.say("cli.legal-moves", lang, moves=state.legal_moves()))
        stdout.write(words.say("cli.prompt", lang, side=sides[state.to_move]))
        stdout.flush()
        line = stdin.readline()
        if not line:
            say()
            return 0
        text = line.strip()
        if text == "quit":
            return 0
        if text == "undo":
            if history:
                state = history.pop()
            else:
                say(words.say("cli.nothing-to-undo", lang))
        elif text == "record":
            say(record_of(spec, state).to_text())
        elif text in ("", "help"):
            say(help_text)
        else:
            try:
                after = state.play(text)
            except GameError as error:
                say(words.explain(error, lang))
            else:
                history.append(state)
                state = after
