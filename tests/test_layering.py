"""The layers of DESIGN.md §4, read from the imports themselves."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = {"bot", "games", "render", "matches", "store", "bench", "tests", "words", "runtime"}
RULE_MODULES = ("oska", "lasca", "oware", "base")


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, by its full dotted name."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def files_under(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def packages() -> set[str]:
    """The project's top-level packages there are (runtime/ may not exist yet)."""
    return {name for name in PROJECT if (ROOT / name).is_dir()}


def top(name: str) -> str:
    return name.split(".")[0]


def test_the_layering_test_sees_the_engines() -> None:
    names = {path.stem for path in files_under("games")}
    assert {"oska", "lasca", "oware", "base", "registry"} <= names


def test_games_import_only_the_standard_library_games_and_for_the_cli_words() -> None:
    """The command line is the one part of games/ that speaks to a person."""
    offenders = []
    for path in files_under("games"):
        allowed = {"games", "__future__"} | (
            {"words"} if path == ROOT / "games" / "cli.py" else set()
        )
        offenders += [
            f"{path.relative_to(ROOT)}: {name}"
            for name in imports_of(path)
            if top(name) not in allowed and top(name) not in sys.stdlib_module_names
        ]
    assert offenders == []


def test_the_cli_is_seen_speaking_through_words() -> None:
    assert "words" in {top(name) for name in imports_of(ROOT / "games" / "cli.py")}


def test_words_import_nothing_of_the_project() -> None:
    """Every layer may use words/, so it may use none of them: only the standard library
    and Babel, which reads its catalogues."""
    allowed = {"words", "__future__", "babel"}
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files_under("words")
        for name in imports_of(path)
        if top(name) in PROJECT - {"words"}
        or (top(name) not in allowed and top(name) not in sys.stdlib_module_names)
    ]
    assert files_under("words")
    assert offenders == []


def test_nothing_imports_the_bot() -> None:
    """bot/ is the Discord adapter at the top: only the tests and benchmarks, which drive it,
    import it."""
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for package in packages() - {"bot", "tests", "bench"}
        for path in files_under(package)
        for name in imports_of(path)
        if top(name) == "bot"
    ]
    assert offenders == []


def test_rule_modules_import_nothing_of_the_project_but_base_and_no_chance() -> None:
    offenders = []
    for stem in RULE_MODULES:
        for name in imports_of(ROOT / "games" / f"{stem}.py"):
            if top(name) == "games" and not name.startswith("games.base"):
                offenders.append(f"{stem}: {name}")
            if top(name) in {"random", "time", "os", "io", "pathlib", "socket"}:
                offenders.append(f"{stem}: {name}")
    assert offenders == []


def test_no_discord_below_the_bot_and_nothing_reaches_the_bot() -> None:
    """Only the tests and benchmarks, which drive the bot, may import it."""
    offenders = []
    for package in packages() - {"bot", "tests", "bench"}:
        for path in files_under(package):
            for name in imports_of(path):
                if top(name) in ("bot", "discord"):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_games_never_draw_nor_store() -> None:
    forbidden = {"PIL", "aiosqlite", "asyncpg", "sqlite3", "discord", "render", "store", "matches"}
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files_under("games")
        for name in imports_of(path)
        if top(name) in forbidden
    ]
    assert offenders == []


def service_internals_reached(path: Path) -> list[str]:
    """Where a file reaches the store or the ledger through the service (`service.store`,
    `self.service.tournaments.store`, `service.ledger`): each as `line: expression`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr in ("store", "ledger")):
            continue
        names = {part.attr for part in ast.walk(node.value) if isinstance(part, ast.Attribute)}
        names |= {part.id for part in ast.walk(node.value) if isinstance(part, ast.Name)}
        if "service" in names:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_bot_never_reaches_a_store_through_the_service() -> None:
    """bot/ calls the service's façade and its parts, never its store or ledger nor a part's:
    what it needs is a method of the part that owns it (DESIGN.md §4)."""
    offenders = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in files_under("bot")
        for where in service_internals_reached(path)
    ]
    assert files_under("bot")
    assert offenders == []
