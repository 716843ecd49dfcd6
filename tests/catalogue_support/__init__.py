"""Reading Kamen's code with `ast` for the catalogue's sake: the codes it uses, the prose it holds.

Both readings take the sources as text by path (`{"games/oska.py": "..."}`), so a
test can hand them a snippet as well as the code base.

Codes (`used_codes`, `unused`): a code is used when it is a string literal of the
code (docstrings aside), or matches a *code pattern*: an f-string whose
constant parts spell a code with some segments left to a value, as
`f"outcome.{game}.{reason}"` (pattern `outcome.{}.{}`). A placeholder must fill
a whole segment and stands for exactly one (no dot); one that opens the code
stands for a game's name, the only namespace of the catalogue that varies
(`f"{game}.summary"` covers `oska.summary`, never `bot.summary`); at least one
segment must be written out. So `f"{a}.{b}"` or `f"{stem}-{n}.txt"` are no
patterns: every pattern is narrow and comes from the code itself.

Prose (`prose`): a string literal (an f-string read as its constant parts) that
reads as words for a person (two words of letters side by side, or a
sentence), or any text given to a Discord message or component
(`label=`, `content=`, ...), is a finding unless its context in the tree says
who reads it; `EXEMPT_CONTEXTS` lists those contexts and why each is not a
player's.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Where the code that may name a code lives; the catalogue's own modules define
# codes rather than use them.
CODE_PACKAGES = ("games", "matches", "render", "bot", "runtime", "words", "store")
CATALOGUE_SOURCE = "words/english/"
# Where a player-facing sentence could be written instead of said through `words`.
SPEAKING_PACKAGES = ("bot", "render", "matches", "games", "runtime")


def sources(packages: Iterable[str], root: Path = ROOT) -> dict[str, str]:
    """Every Python file of `packages`, by its path from the root (`games/oska.py`)."""
    found: dict[str, str] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return found


def _is_docstring(node: ast.AST) -> bool:
    """A string standing alone as a statement: a docstring, or an attribute's."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant | ast.JoinedStr)


def _name_of(node: ast.AST) -> str:
    """The last name of a callee or receiver: `log` for `self.log`, `cast` for `typing.cast`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


# ------------------------------------------------------------------ codes in use


@dataclass(frozen=True, slots=True)
class Pattern:
    """A code pattern from an f-string: `outcome.{}.{}`, found at `where` (`words/games.py:77`)."""

    text: str
    where: str

    def regex(self, games: Iterable[str]) -> re.Pattern[str]:
        """Each `{}` one segment; a `{}` opening the code, one of `games`."""
        segments = [_SEGMENT if part == "{}" else re.escape(part) for part in self.text.split(".")]
        if self.text.startswith("{}"):
            segments[0] = "(?:" + "|".join(re.escape(game) for game in sorted(games)) + ")"
        return re.compile(r"\.".join(segments))


_SEGMENT = "[a-z0-9-]+"
_CODE_CHARS = re.compile(r"[a-z0-9.-]*")
_WORD_SEGMENT = re.compile(r"[a-z][a-z0-9-]*")


def code_pattern(node: ast.JoinedStr) -> str | None:
    """The f-string as a code pattern (`outcome.{}.{}`), or None when it is not code-shaped."""
    if not any(isinstance(value, ast.FormattedValue) for value in node.values):
        return None
    pieces: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            if not _CODE_CHARS.fullmatch(value.value):
                return None
            pieces.append(value.value)
        else:
            pieces.append("{}")
    text = "".join(pieces)
    segments = text.split(".")
    if len(segments) < 2:
        return None
    written = [segment for segment in segments if "{}" not in segment]
    placeholders = [segment for segment in segments if "{}" in segment]
    if not written or not all(_WORD_SEGMENT.fullmatch(segment) for segment in written):
        return None
    if any(segment != "{}" for segment in placeholders):
        return None
    return text


@dataclass(frozen=True, slots=True)
class Usage:
    """The string literals of the code, its code patterns, and the games they may name."""

    literals: frozenset[str]
    patterns: tuple[Pattern, ...]
    games: frozenset[str]

    def covered(self, pattern: Pattern, codes: Iterable[str]) -> list[str]:
        regex = pattern.regex(self.games)
        return sorted(code for code in codes if regex.fullmatch(code))

    def uses(self, code: str) -> bool:
        return code in self.literals or any(self.covered(p, [code]) for p in self.patterns)


class _UsageReader(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.literals: set[str] = set()
        self.patterns: list[Pattern] = []

    def visit_Expr(self, node: ast.Expr) -> None:
        if not _is_docstring(node):
            self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.literals.add(node.value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        text = code_pattern(node)
        if text is not None:
            self.patterns.append(Pattern(text, f"{self.path}:{node.lineno}"))
        for value in node.values:  # the constant parts are the pattern, not literals
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)


def used_codes(code: Mapping[str, str], games: Iterable[str]) -> Usage:
    """What the sources name: their string literals and their code patterns over `games`."""
    literals: set[str] = set()
    patterns: list[Pattern] = []
    for path, text in code.items():
        reader = _UsageReader(path)
        reader.visit(ast.parse(text, filename=path))
        literals |= reader.literals
        patterns += reader.patterns
    return Usage(frozenset(literals), tuple(patterns), frozenset(games))


def unused(codes: Iterable[str], usage: Usage) -> list[str]:
    """The codes the code never names, in order."""
    return sorted(code for code in codes if not usage.uses(code))


def patterns_in_use(codes: Iterable[str], usage: Usage) -> dict[str, list[str]]:
    """Each code pattern that covers some code, with the codes it covers (only those)."""
    known = sorted(codes)
    covered: dict[str, list[str]] = {}
    for pattern in usage.patterns:
        matched = usage.covered(pattern, known)
        if matched:
            covered.setdefault(pattern.text, matched)
    return covered


# ------------------------------------------------------------------ prose


@dataclass(frozen=True, slots=True)
class Finding:
    """A literal that reads as a sentence for a player, where it is in the code."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


# Two words of letters side by side ("to move", "Drawn by"), or a sentence (a
# capital, then letters up to a full stop: "Resign."). `{}` stands for an
# f-string's values, so `f"{a} {b}"` is no prose.
_TWO_WORDS = re.compile(r"[^\W\d_]{2,} +[^\W\d_]{2,}")
_SENTENCE = re.compile(r"[A-Z].*[^\W\d_][.!?…]", re.DOTALL)
_SQL = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|WITH|BEGIN)\b")


def reads_as_prose(text: str) -> bool:
    if _SQL.match(text):  # a statement for the database, however wordy
        return False
    return bool(_TWO_WORDS.search(text) or _SENTENCE.fullmatch(text.strip()))


# What a Discord message or component shows: in bot/ (the Discord adapter), any
# literal given here is a player's, even one word (`label="Accept"`).
SHOWN_KEYWORDS = frozenset({"content", "label", "placeholder", "title", "description"})

# Why a literal in each of these contexts is not a player's (the rules `prose` applies).
EXEMPT_CONTEXTS: dict[str, str] = {
    "docstring": "a string standing alone as a statement documents the code; nothing says it",
    "log": (
        "an argument of a logging call (log.info, self.logger.warning, logging.error, or a "
        "method of any name bound to logging.getLogger(...)) is for the operator"
    ),
    "log-only parameter": (
        "an argument given to a parameter its function only passes to logging calls "
        "(derived from the tree: `Table.spawn(work, what)` names its task in the log)"
    ),
    "developer error": (
        "the message of an exception that is not a player's (ValueError(...), "
        "SettingsError(...), wherever it is built), and an assert's message: players "
        "read only the GameError and MatchError families, whose arguments are codes "
        "(`MatchError(code, **params)`), said by words.explain; the bot answers any other "
        "exception with its apology (bot.apology), never with the exception's text"
    ),
    "command line": (
        "argparse's texts (ArgumentParser(...), add_argument(...), add_parser(...), a parser's "
        ".error(...), and calls of a function that returns an ArgumentParser): --help documents "
        "the command for whoever installs and runs it, and argparse frames it in its own English "
        "('usage:', 'error:', 'options'), which Kamen cannot translate; what `python -m games` "
        "says while it is played is the catalogue's (cli.*)"
    ),
    "regex": "the pattern given to a function of `re` (re.compile, re.fullmatch, ...)",
    "notation": (
        "inside `to_text`/`from_text` of games/: the text form of positions and records "
        "(games/RULES.md), notation that is parsed back and stays English in every language, "
        "as the square names do (the Czech refusals quote `Blue to move` as it is)"
    ),
}
_LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"}
)
_LOGGER = re.compile(r"_*(log|logger|logging)")
_ARGPARSE_CALLS = frozenset(
    {
        "ArgumentParser",
        "add_argument",
        "add_parser",
        "add_subparsers",
        "add_argument_group",
        "add_mutually_exclusive_group",
    }
)
_PARSER_METHODS = frozenset({"error", "exit"})
_RE_FUNCTIONS = frozenset(
    {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
)
_NOTATION_FUNCTIONS = frozenset({"to_text", "from_text"})
# The error families a player reads (games/base.py, matches/errors.py).
PLAYER_ERRORS = frozenset({"GameError", "MatchError"})
# Python's exceptions, and by PEP 8's naming any class called *Error or *Exception.
_BUILTIN_ERRORS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
_ERROR_NAME = re.compile(r".*(Error|Exception)")


@dataclass(frozen=True, slots=True)
class Audience:
    """A module nobody but a self-hoster or a developer reads, and why."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class Allowed:
    """One literal that reads as prose but is not a player's sentence, and why."""

    path: str
    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class Rules:
    """The modules and literals set aside by name (`EXEMPT_CONTEXTS` are by the tree)."""

    audiences: tuple[Audience, ...] = ()
    allowed: tuple[Allowed, ...] = ()
    speaking: tuple[str, ...] = SPEAKING_PACKAGES

    def reads(self, path: str) -> bool:
        """Whether a player may read what the module at `path` says."""
        top = path.split("/")[0]
        return top in self.speaking and all(path != a.path for a in self.audiences)

    def allows(self, finding: Finding) -> bool:
        return any(a.path == finding.path and a.text == finding.text for a in self.allowed)


def _is_logging(call: ast.Call, loggers: frozenset[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _LOG_METHODS:
        return False
    receiver = _name_of(func.value)
    return receiver in loggers or _LOGGER.fullmatch(receiver) is not None


@dataclass(frozen=True, slots=True)
class _Tree:
    """What the rules need to know of the whole code base, read before any one file."""

    loggers: frozenset[str]  # names bound to logging.getLogger(...)
    player_errors: frozenset[str]
    developer_errors: frozenset[str]  # every other exception class
    log_only: Mapping[str, frozenset[int | str]]  # callee name: its log-only positions/keywords


def _family(bases: Mapping[str, set[str]], roots: Iterable[str]) -> set[str]:
    """The roots and every class deriving from one of them."""
    family = set(roots)
    grown = True
    while grown:
        grown = False
        for name, parents in bases.items():
            if name not in family and parents & family:
                family.add(name)
                grown = True
    return family


def _errors(trees: Iterable[ast.Module]) -> tuple[frozenset[str], frozenset[str]]:
    """The exception classes a player reads (by code), and all the others."""
    bases: dict[str, set[str]] = {}
    named: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(_name_of(base) for base in node.bases)
                named.update(_name_of(base) for base in node.bases)
    players = _family(bases, PLAYER_ERRORS)
    roots = _BUILTIN_ERRORS | {name for name in named | set(bases) if _ERROR_NAME.fullmatch(name)}
    return frozenset(players), frozenset(_family(bases, roots) - players)


def _loggers(trees: Iterable[ast.Module]) -> frozenset[str]:
    return frozenset(
        target.id
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _name_of(node.value.func) == "getLogger"
        for target in node.targets
        if isinstance(target, ast.Name)
    )


def _log_only_parameters(
    function: ast.FunctionDef | ast.AsyncFunctionDef, loggers: frozenset[str]
) -> set[int | str]:
    """The parameters (by call position and by name) whose every use is a logging argument."""
    parents = {
        child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)
    }
    params = [*function.args.posonlyargs, *function.args.args]
    bound = 1 if params and params[0].arg in ("self", "cls") else 0
    found: set[int | str] = set()
    for index, param in enumerate([*params, *function.args.kwonlyargs]):
        uses = [
            node
            for node in ast.walk(function)
            if isinstance(node, ast.Name) and node.id == param.arg
        ]
        logged = [
            use
            for use in uses
            if isinstance(call := parents.get(use), ast.Call)
            and _is_logging(call, loggers)
            and use in call.args
        ]
        if uses and len(logged) == len(uses):
            if index < len(params):
                found.add(index - bound)
            found.add(param.arg)
    return found


def _read_tree(trees: list[ast.Module]) -> _Tree:
    loggers = _loggers(trees)
    log_only: dict[str, frozenset[int | str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                mine = frozenset(_log_only_parameters(node, loggers))
                # Two functions of one name: only what both merely log is set aside.
                log_only[node.name] = log_only.get(node.name, mine) & mine
    players, developers = _errors(trees)
    kept = {name: positions for name, positions in log_only.items() if positions}
    return _Tree(loggers, players, developers, kept)


class _ProseReader(ast.NodeVisitor):
    def __init__(self, path: str, tree: _Tree, parser_makers: frozenset[str]) -> None:
        self.path = path
        self.tree = tree
        self.parser_makers = parser_makers  # functions annotated to return an ArgumentParser
        self.parsers: set[str] = set()  # names bound to a parser
        self.found: dict[tuple[int, int], Finding] = {}

    # --- contexts whose texts are not a player's
    def visit_Expr(self, node: ast.Expr) -> None:
        if not _is_docstring(node):
            self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self.visit(node.test)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._visit_all([*node.decorator_list, *node.args.defaults, *node.args.kw_defaults])
        if node.name in _NOTATION_FUNCTIONS and self.path.startswith("games/"):
            return
        self._visit_all(node.body)

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Call) and self._makes_parser(node.value):
            self.parsers.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.generic_visit(node)

    def _makes_parser(self, call: ast.Call) -> bool:
        name = _name_of(call.func)
        return name in _ARGPARSE_CALLS or name in self.parser_makers

    def visit_Call(self, node: ast.Call) -> None:
        name = _name_of(node.func)
        if name in self.tree.developer_errors or self._makes_parser(node):
            return
        if _is_logging(node, self.tree.loggers):
            return
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if receiver is not None and name in _PARSER_METHODS and _name_of(receiver) in self.parsers:
            return
        if name in _RE_FUNCTIONS and _name_of(receiver or node.func) == "re" and node.args:
            self._visit_all([*node.args[1:], *node.keywords])
            return
        log_only = self.tree.log_only.get(name, frozenset())
        self.visit(node.func)
        for index, arg in enumerate(node.args):
            if index not in log_only:
                self.visit(arg)
        for keyword in node.keywords:
            if keyword.arg in log_only:
                continue
            if keyword.arg in SHOWN_KEYWORDS and self.path.startswith("bot/"):
                self._shown(keyword.value)
                continue
            self.visit(keyword.value)

    def _visit_all(self, nodes: Iterable[ast.AST | None]) -> None:
        for node in nodes:
            if node is not None:
                self.visit(node)

    # --- texts
    def _shown(self, value: ast.expr) -> None:
        """A text a message or component shows: a literal is a finding if it has a letter."""
        text = _text_of(value)
        if text is not None and re.search(r"[^\W\d_]", text):
            self._report(value, text)
        else:
            self.visit(value)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and reads_as_prose(node.value):
            self._report(node, node.value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        text = _text_of(node)
        if text is not None and reads_as_prose(text):
            self._report(node, text)
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def _report(self, node: ast.expr, text: str) -> None:
        self.found[node.lineno, node.col_offset] = Finding(self.path, node.lineno, text)


def _text_of(node: ast.AST) -> str | None:
    """A literal's text; an f-string's constant parts with `{}` for each value."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        return "".join(
            value.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str)
            else "{}"
            for value in node.values
        )
    return None


def _parser_makers(tree: ast.Module) -> frozenset[str]:
    """The module's functions annotated to return an `argparse.ArgumentParser`."""
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.returns is not None
        and _name_of(node.returns) == "ArgumentParser"
    )


def prose(code: Mapping[str, str], rules: Rules = Rules()) -> list[Finding]:
    """The literals a player could read that are not said through the catalogue."""
    trees = {path: ast.parse(text, filename=path) for path, text in code.items()}
    tree = _read_tree(list(trees.values()))
    findings: list[Finding] = []
    for path, module in trees.items():
        if not rules.reads(path):
            continue
        reader = _ProseReader(path, tree, _parser_makers(module))
        reader.visit(module)
        found = sorted(reader.found.items())
        findings += [finding for _, finding in found if not rules.allows(finding)]
    return findings
