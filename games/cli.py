"""The engines on the command line: list moves, count perft, play in a terminal.

    python -m games moves GAME [--variant KEY=VALUE ...] [MOVE ...]
    python -m games perft GAME DEPTH [--variant KEY=VALUE ...]
    python -m games play GAME [--variant KEY=VALUE ...] [--lang cs]
                    [--vs kamen:LEVEL] [--as first|second] [--colour auto|always|never]

`play` draws the board with its coordinates (games/terminal.py), from the view
of the player to move, or of `--as`; against Kamen (`--vs kamen:easy`, the
levels of games/ai/levels.py) the human plays the side of `--as`, the first
by default, and Kamen the other. Colour follows `--colour`; `auto` colours a
terminal unless NO_COLOR is set or TERM is dumb.

The one module of games/ that speaks to a person, so the one that imports
`words`: every sentence it prints is a catalogue entry (`cli.*`, `terminal.*`
and the engines' codes), in the language of `--lang`, else of the environment
(`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else English. Every move
number it prints is the record's (`games.record.move_number`).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO, cast

import words
from games import registry, terminal
from games.base import GameError, GameSpec, GameState, MoveError, Side, Variant
from games.perft import perft
from games.record import move_number, record_of
from words.games import side_names
from words.games import title as game_title

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C
KAMEN = "kamen:"
# Kamen's player, loaded by its module's name when a game against it is asked for:
# games/ai/ imports the rules of this folder, so an import statement here would close a
# circle between the two folders (tests/test_import_graph.py).
KAMEN_PLAYER = "games.ai.player"
LEGENDS = {"oska": ("terminal.legend.oska",),
           "lasca": ("terminal.legend.lasca", "terminal.legend.lasca.height"),
           "oware": ("terminal.legend.oware",)}  # fmt: skip


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
        return _refuse(words.explain(error, lang), lang)
    if args.command == "moves":
        return _moves(spec, state.variant, args.moves, lang)
    if args.command == "perft":
        for depth in range(1, args.depth + 1):
            print(depth, perft(state, depth), flush=True)
        return 0
    chosen = None if args.as_side is None else Side[args.as_side.upper()]
    seats = Seats(view=chosen, colour=terminal.colour_from_environment(args.colour, sys.stdout))
    if args.vs is not None:
        kamen = kamen_player()
        level = kamen_level(args.vs, kamen.LEVELS, kamen.ALIASES)
        if level is None:
            choices = tuple(f"{KAMEN}{name}" for name in kamen.LEVELS)
            refusal = words.say("terminal.bad-opponent", lang, given=args.vs, choices=choices)
            return _refuse(refusal, lang)
        human = chosen or Side.FIRST
        seats = Seats(human, seats.colour, kamen=kamen, level=level, kamen_side=human.other)
    for stream in (sys.stdin, sys.stdout):
        # Bytes the encoding cannot read or write become a replacement character, so a
        # stray byte typed is refused as a move and a terminal without `·` still plays.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    return play_interactively(spec, state, sys.stdin, sys.stdout, lang, seats)


def language_of(environment: Mapping[str, str]) -> str:
    """The language the environment asks for (`cs_CZ.UTF-8` is `cs`), as gettext reads it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environment.get(name, "")
        if value:
            return value.split(":")[0].split(".")[0].split("_")[0].lower()
    return "en"


class KamenPlayer(Protocol):
    """What a game against Kamen uses of its player (games/ai/player.py)."""

    LEVELS: tuple[str, ...]
    ALIASES: Mapping[str, str]  # a level's old name (`hard`) -> its number

    def choose_move(self, state: GameState, level: str) -> str:
        """A legal move of `state` for the player to move, at `level`."""
        ...


def kamen_player() -> KamenPlayer:
    return cast(KamenPlayer, importlib.import_module(KAMEN_PLAYER))


def kamen_level(
    text: str, levels: Sequence[str], aliases: Mapping[str, str] | None = None
) -> str | None:
    """The level of `kamen:LEVEL` (any case; an old name of `aliases` gives its level),
    or None when it names none of `levels`."""
    prefix, level = text[: len(KAMEN)].lower(), text[len(KAMEN) :].strip().lower()
    level = (aliases or {}).get(level, level)
    return level if prefix == KAMEN and level in levels else None


def _refuse(text: str, lang: str) -> int:
    print(words.say("cli.error", lang, text=text), file=sys.stderr)
    return EXIT_BAD_INPUT


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
    play = command("play", "play in the terminal: two people, or one against Kamen")
    play.add_argument(
        "--vs",
        metavar="kamen:LEVEL",
        help="play against Kamen at a level of games/ai/levels.py (kamen:1 to kamen:8)",
    )
    play.add_argument(
        "--as",
        dest="as_side",
        choices=("first", "second"),
        help="the side whose view the board shows, and yours against Kamen (default: first "
        "against Kamen, else the player to move)",
    )
    play.add_argument(
        "--colour",
        "--color",
        choices=terminal.COLOUR_CHOICES,
        default="auto",
        help="auto (default): colour a terminal, unless NO_COLOR is set or TERM=dumb",
    )
    return parser


def _moves(spec: GameSpec, variant: Variant, moves: Sequence[str], lang: str = "en") -> int:
    try:
        state = spec.replay(variant, moves)
    except MoveError as error:
        ply = error.params["ply"]
        assert isinstance(ply, int)
        number, mover = move_number(ply - 1)  # `ply` counts from 1; passes are moves too
        side = side_names(spec.name, lang)[mover]
        text = words.explain(error, lang)
        # `ply` too, for a catalogue still numbering by plies (cs.po until it takes {number}).
        said = words.say("cli.bad-move", lang, number=number, ply=number, side=side, text=text)
        print(said, file=sys.stderr)
        return EXIT_BAD_INPUT
    for move in sorted(state.legal_moves()):
        print(move)
    outcome = state.outcome()
    print(words.say("cli.outcome", lang, label=outcome.label if outcome else "none"))
    return 0


# ---------------------------------------------------------------- the game in a terminal


@dataclass(frozen=True, slots=True)
class Seats:
    """Who sits where: `view` is the side the board is shown to (None: the player to
    move); `kamen` Kamen's player when it plays `kamen_side` at `level`, None between
    two people."""

    view: Side | None = None
    colour: bool = False
    kamen: KamenPlayer | None = None
    level: str = ""
    kamen_side: Side = Side.SECOND


def play_interactively(
    spec: GameSpec,
    state: GameState,
    stdin: TextIO,
    stdout: TextIO,
    lang: str = "en",
    seats: Seats = Seats(),
) -> int:
    """A terminal game in `lang`, between two people sharing the keyboard or against Kamen.

    Ends at the game's end, at `quit` or at the end of the input (0), or at Ctrl-C (130).
    """
    game = _Game(spec, state, stdout, lang, seats)
    try:
        return game.run(stdin)
    except KeyboardInterrupt:
        game.say()
        return EXIT_INTERRUPTED


class _Game:
    """One terminal game: the states so far (for `undo`) and how to say them."""

    def __init__(self, spec: GameSpec, state: GameState, stdout: TextIO, lang: str, seats: Seats):
        self.spec, self.state, self.stdout, self.lang, self.seats = spec, state, stdout, lang, seats
        self.history: list[GameState] = []
        self.sides = side_names(spec.name, lang)
        self.paint = terminal.Paint(seats.colour)
        said = words.say("terminal.kamen", lang, level=seats.level)
        self.kamen = None if seats.kamen is None else said

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def run(self, stdin: TextIO) -> int:
        lang, help_text = self.lang, words.say("cli.help", self.lang)
        variant = str(self.state.variant)
        title = "cli.title.variant" if variant else "cli.title"
        name = game_title(self.spec.name, lang)
        self.say(words.say(title, lang, title=name, variant=variant, help=help_text))
        if self.kamen is not None:
            kamen_side = self.seats.kamen_side
            human, other = self.sides[kamen_side.other], self.sides[kamen_side]
            self.say(words.say("terminal.seats", lang, side=human, kamen=self.kamen, other=other))
        shown: GameState | None = None  # the board is drawn again only when it changed
        while True:
            state = self.state
            if self.kamen_to_move():
                self.play(self.kamen_move())
                continue
            if state is not shown:
                self.show()
                outcome = state.outcome()
                if outcome is not None:
                    reason = words.outcome_text(outcome, self.spec.name, lang)
                    said = words.say("cli.game-over", lang, outcome=reason, result=outcome.result)
                    self.say(said)
                    self.say(self.record())
                    return 0
                self.say(words.say("cli.legal-moves", lang, moves=state.legal_moves()))
                shown = state
            number, side = move_number(len(state.moves))
            self.stdout.write(words.say("cli.prompt", lang, number=number, side=self.sides[side]))
            self.stdout.flush()
            line = stdin.readline()
            if not line:
                self.say()
                return 0
            if not self.answer(line.strip(), help_text):
                return 0

    def answer(self, text: str, help_text: str) -> bool:
        """Do what a line typed asks; False when it asks to stop."""
        command = text.lower()
        if command == "quit":
            return False
        if command == "undo":
            self.undo()
        elif command == "record":
            self.say(self.record())
        elif command in ("", "help"):
            self.say(help_text)
        else:
            try:
                self.play(text)
            except GameError as error:
                self.say(words.explain(error, self.lang))
        return True

    def kamen_to_move(self) -> bool:
        return (
            self.kamen is not None
            and self.state.to_move is self.seats.kamen_side
            and self.state.outcome() is None
        )

    def kamen_move(self) -> str:
        assert self.seats.kamen is not None
        return self.seats.kamen.choose_move(self.state, self.seats.level)

    def play(self, move: str) -> None:
        """Play `move` (GameError if it cannot be played: then nothing changes)."""
        after = self.state.play(move)
        self.history.append(self.state)
        self.state = after

    def undo(self) -> None:
        """Back to before the last move of the person at the keyboard (against Kamen, its
        reply goes too); nothing when no such move was played."""
        for index in range(len(self.history) - 1, -1, -1):
            if not self.kamen or self.history[index].to_move is not self.seats.kamen_side:
                self.state = self.history[index]
                del self.history[index:]
                return
        self.say(words.say("cli.nothing-to-undo", self.lang))

    def show(self) -> None:
        """The last move, the board from the chosen view, and its legend."""
        state, lang, paint = self.state, self.lang, self.paint
        self.say()
        last = None
        if self.history:
            previous = self.history[-1]
            move = state.moves[-1]
            last = previous.describe(move)
            self.say(self.move_line(len(previous.moves), move))
        legal = [state.describe(move) for move in state.legal_moves()]
        view = terminal.View(
            side=state.to_move if self.seats.view is None else self.seats.view,
            paint=paint,
            names=self.sides,
            marks=terminal.marking(last, legal),
        )
        for line in terminal.board_lines(state, view):
            self.say(line)
        symbols = terminal.legend_symbols(self.spec.name, paint)
        for code in LEGENDS[self.spec.name]:
            self.say(words.say(code, lang, **symbols))
        columns = terminal.tall_columns(state, view)
        if columns:
            self.say(words.say("terminal.lasca.columns", lang, columns=columns))

    def move_line(self, ply: int, move: str) -> str:
        """`Move 3: Kamen (Red) played c5xe3`, numbered as the record numbers it."""
        number, mover = move_number(ply)
        side = self.sides[mover]
        if self.kamen is not None and mover is self.seats.kamen_side:
            side = words.say("terminal.kamen.side", self.lang, side=side)
        if move == "pass":
            return words.say("board.passed", self.lang, number=number, side=side)
        return words.say("board.played", self.lang, number=number, side=side, move=move)

    def record(self) -> str:
        names = ["", ""]
        if self.kamen is not None:
            names[self.seats.kamen_side] = self.kamen
        return record_of(self.spec, self.state, first=names[0], second=names[1]).to_text()
