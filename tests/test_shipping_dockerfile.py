"""The Dockerfile, .dockerignore and .env.example, read as text and checked.

The image's rules, checked on the files (.ci/docker/run.sh builds and runs the
image for real in CI): a slim Python base pinned to a minor version, given as the
build argument BASE so that CI can build on a stand-in, two stages with only the
built environment crossing over, a non-editable install, an ordinary non-root
user, the database on the `/data` volume, the health probe as HEALTHCHECK,
`python -m bot` as the command, no parser directive that makes BuildKit fetch a
frontend, and no secret anywhere. The helpers (`parse`, `DockerIgnore`) are used
by test_shipping_wheel.py too, which runs the build stage's commands for real.
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from runtime.logs import TOKEN_SHAPE

ROOT = Path(__file__).resolve().parents[1]
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE", re.I)


@dataclass(frozen=True, slots=True)
class Instruction:
    keyword: str  # upper case
    args: str  # continuation lines joined


@dataclass(frozen=True, slots=True)
class Stage:
    image: str  # the base image, build arguments replaced by their defaults
    name: str | None
    instructions: tuple[Instruction, ...]
    written: str = ""  # the base image as the FROM line writes it, e.g. ${BASE}

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction:
        found = self.all(keyword)
        assert found, f"no {keyword} in the stage FROM {self.image}"
        return found[-1]


ARG_REFERENCE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def global_args(text: str) -> dict[str, str]:
    """The build arguments declared before the first FROM (the only ones FROM can use), with
    their defaults."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        keyword, _, args = line.strip().partition(" ")
        if keyword.upper() == "FROM":
            break
        if keyword.upper() == "ARG":
            name, _, default = args.strip().partition("=")
            found[name] = default.strip().strip('"')
    return found


def parse(text: str) -> list[Stage]:
    """The stages of a Dockerfile: its instructions, continuation lines joined, comments gone;
    the build arguments before the first FROM are resolved to their defaults in FROM lines."""
    defaults = global_args(text)

    def resolve(written: str) -> str:
        def default(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            assert name in defaults, f"FROM {written}: ARG {name} is not declared before FROM"
            assert defaults[name], f"FROM {written}: ARG {name} has no default"
            return defaults[name]

        return ARG_REFERENCE.sub(default, written)

    instructions: list[Instruction] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):  # a comment inside a continued instruction
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        keyword, _, args = whole.partition(" ")
        instructions.append(Instruction(keyword.upper(), " ".join(args.split())))
    assert not pending, "the Dockerfile ends inside a continued line"
    stages: list[Stage] = []
    for instruction in instructions:
        if instruction.keyword == "FROM":
            words = [w for w in instruction.args.split() if not w.startswith("--")]
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            stages.append(Stage(resolve(words[0]), name, (), words[0]))
        elif instruction.keyword == "ARG" and not stages:
            continue  # a global build argument: global_args has it
        else:
            assert stages, f"{instruction.keyword} before any FROM"
            last = stages[-1]
            stages[-1] = Stage(
                last.image, last.name, (*last.instructions, instruction), last.written
            )
    return stages


def exec_form(args: str) -> list[str]:
    """The JSON-array form of CMD/HEALTHCHECK CMD/VOLUME, as a list."""
    import json

    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value


def env_pairs(instruction: Instruction) -> dict[str, str]:
    """`ENV A=1 B=2` (the form this Dockerfile uses) as a dict."""
    pairs = {}
    for word in shlex.split(instruction.args):
        key, sep, value = word.partition("=")
        assert sep, f"ENV {instruction.args}: write KEY=value"
        pairs[key] = value
    return pairs


@pytest.fixture(scope="module")
def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


@pytest.fixture(scope="module")
def stages(dockerfile: str) -> list[Stage]:
    return parse(dockerfile)


def test_the_base_is_an_official_slim_python_pinned_to_a_minor_version(
    dockerfile: str, stages: list[Stage]
) -> None:
    for stage in stages:
        assert re.fullmatch(r"python:3\.1[1-9]-slim-[a-z]+", stage.image), stage.image
    assert len({stage.image for stage in stages}) == 1, "both stages on the same Python"
    # ...by default: the build argument BASE replaces it in both stages at once (CI builds on
    # a stand-in it makes itself, .ci/docker/base.sh).
    assert global_args(dockerfile) == {"BASE": "python:3.11-slim-trixie"}
    assert {stage.written for stage in stages} == {"${BASE}"}


def test_no_parser_directive_makes_buildkit_fetch_a_frontend(dockerfile: str) -> None:
    # `# syntax=` sends every BuildKit build to a registry for a frontend image: offline
    # builds fail on it. Directives are only read at the top, before any other line.
    directives = re.compile(r"#\s*(syntax|check)\s*=", re.I)
    assert not any(directives.match(line.strip()) for line in dockerfile.splitlines())


def test_parse_resolves_the_base_argument_and_refuses_an_undeclared_one() -> None:
    text = "ARG BASE=python:3.12-slim-trixie\nFROM ${BASE} AS build\nRUN true\nFROM $BASE\n"
    build, final = parse(text)
    assert (build.image, build.written, build.name) == (
        "python:3.12-slim-trixie",
        "${BASE}",
        "build",
    )
    assert (final.image, final.written, final.name) == ("python:3.12-slim-trixie", "$BASE", None)
    assert [i.keyword for i in build.instructions] == ["RUN"]
    with pytest.raises(AssertionError, match="ARG PYTHON is not declared"):
        parse("ARG BASE=x\nFROM ${PYTHON}\n")


def test_the_build_is_multi_stage_and_only_the_environment_crosses(stages: list[Stage]) -> None:
    assert len(stages) == 2
    build, final = stages
    assert build.name, "the build stage is named"
    runs = " ".join(i.args for i in build.all("RUN"))
    assert "pip wheel" in runs, "wheels are built in the first stage"
    copies = final.all("COPY")
    assert copies, "the final stage copies the built environment"
    for copy in copies:
        assert f"--from={build.name}" in copy.args, f"COPY {copy.args}: only from the build stage"
    assert not final.all("ADD")


def test_the_package_is_installed_from_its_wheel_not_editable(stages: list[Stage]) -> None:
    final = stages[-1]
    runs = [i.args for stage in stages for i in stage.all("RUN")]
    for run in runs:
        assert not re.search(r"(^|\s)(-e|--editable)(\s|$)", run), run
        assert "setup.py" not in run
    install = next(run for run in runs if "pip" in run and " install " in run)
    assert "--no-index" in install and re.search(r"/wheels/kamen-\*\.whl", install)
    # The source tree never reaches the final image: only the environment does.
    assert all(not copy.args.split()[-2].startswith(".") for copy in final.all("COPY"))


def test_the_bot_runs_as_a_user_that_is_not_root(stages: list[Stage]) -> None:
    final = stages[-1]
    keywords = [i.keyword for i in final.instructions]
    user = final.last("USER").args
    assert user.split(":")[0] not in ("root", "0"), user
    assert keywords.index("USER") < keywords.index("CMD")
    assert keywords[keywords.index("USER") :].count("RUN") == 0, "nothing runs as root after"


def test_the_user_is_an_ordinary_one_with_the_ids_user_names(stages: list[Stage]) -> None:
    final = stages[-1]
    [run] = [i.args for i in final.all("RUN") if "useradd" in i.args]
    commands = {c.split()[0]: c.split()[1:] for c in re.split(r"\s*&&\s*", run)}
    useradd, groupadd = commands["useradd"], commands["groupadd"]
    # Not --system: a system account's uid is below 1000, and useradd warns about 10001.
    for words in (useradd, groupadd):
        assert "--system" not in words and "-r" not in words, words
    assert useradd[useradd.index("--uid") + 1] == "10001"
    assert groupadd[groupadd.index("--gid") + 1] == "10001"
    assert final.last("USER").args == "10001:10001", "numeric, so Kubernetes can tell non-root"


def test_the_database_is_on_the_data_volume(stages: list[Stage]) -> None:
    final = stages[-1]
    assert "/data" in exec_form(final.last("VOLUME").args)
    env = {k: v for i in final.all("ENV") for k, v in env_pairs(i).items()}
    assert env["DATABASE_URL"] == "sqlite:////data/kamen.db"
    runs = " ".join(i.args for i in final.all("RUN"))
    assert "chown" in runs and "/data" in runs, "the volume starts owned by the bot's user"


def test_the_command_and_the_healthcheck(stages: list[Stage]) -> None:
    final = stages[-1]
    assert exec_form(final.last("CMD").args) == ["python", "-m", "bot"]
    healthcheck = final.last("HEALTHCHECK").args
    options, _, command = healthcheck.partition(" CMD ")
    assert exec_form(command) == ["python", "-m", "runtime.health"]
    for option in ("--interval=", "--timeout=", "--start-period=", "--retries="):
        assert option in options


def test_no_secret_is_baked_in(dockerfile: str, stages: list[Stage]) -> None:
    for name in global_args(dockerfile):
        assert not SECRET_NAME.search(name), f"ARG {name}"
    for stage in stages:
        for instruction in stage.all("ENV"):
            for key in env_pairs(instruction):
                assert not SECRET_NAME.search(key), f"ENV {key}"
        for instruction in stage.all("ARG"):
            assert not SECRET_NAME.search(instruction.args), f"ARG {instruction.args}"
        for instruction in stage.instructions:
            assert ".env" not in instruction.args.split(), instruction
    assert not TOKEN_SHAPE.search(dockerfile)


# ------------------------------------------------------------------ .dockerignore


class DockerIgnore:
    """.dockerignore as Docker reads it: the last matching pattern wins, `!` re-includes,
    and a pattern that matches a folder matches everything inside it."""

    def __init__(self, text: str) -> None:
        self.patterns: list[tuple[re.Pattern[str], bool, str]] = []
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            include = line.startswith("!")
            pattern = line[1:].strip() if include else line
            pattern = pattern.strip("/")
            self.patterns.append((re.compile(self._regex(pattern)), include, pattern))

    @staticmethod
    def _regex(pattern: str) -> str:
        out, i = "", 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                out, i = out + "(.*/)?", i + 3
            elif pattern.startswith("**", i):
                out, i = out + ".*", i + 2
            elif pattern[i] == "*":
                out, i = out + "[^/]*", i + 1
            elif pattern[i] == "?":
                out, i = out + "[^/]", i + 1
            elif pattern[i] == "[":
                end = pattern.index("]", i)
                out, i = out + pattern[i : end + 1], end + 1
            else:
                out, i = out + re.escape(pattern[i]), i + 1
        return f"^{out}$"

    def excluded(self, path: str) -> bool:
        parts = path.split("/")
        prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        verdict = False
        for regex, include, _ in self.patterns:
            if any(regex.match(prefix) for prefix in prefixes):
                verdict = not include
        return verdict

    def may_include_inside(self, folder: str) -> bool:
        """Whether some `!` pattern could re-include a path inside an excluded folder."""
        return any(
            include and (pattern.startswith(folder + "/") or pattern.startswith("*"))
            for _, include, pattern in self.patterns
        )


def build_context(source: Path, target: Path) -> list[str]:
    """Copy what `docker build source` would send (after .dockerignore); the paths copied."""
    ignore = DockerIgnore((source / ".dockerignore").read_text())
    copied = []
    for folder, dirs, files in _walk(source):
        relative = folder.relative_to(source).as_posix()
        prefix = "" if relative == "." else relative + "/"
        dirs[:] = [
            d
            for d in dirs
            if not ignore.excluded(prefix + d) or ignore.may_include_inside(prefix + d)
        ]
        for name in files:
            path = prefix + name
            if not ignore.excluded(path):
                (target / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source / path, target / path)
                copied.append(path)
    return sorted(copied)


def _walk(source: Path) -> list[tuple[Path, list[str], list[str]]]:
    import os

    return [(Path(folder), dirs, files) for folder, dirs, files in os.walk(source)]


def test_the_build_context_is_the_package_and_nothing_secret(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\n")
    for name in ("pyproject.toml", "README.md", ".dockerignore"):
        shutil.copy(ROOT / name, tmp_path / name)
    for path in (
        "bot/__init__.py",
        "bot/__pycache__/client.cpython-311.pyc",
        "store/migrations/0001_games.sql",
        "tests/test_x.py",
        "data/kamen.db",
        ".venv/bin/python",
        ".git/HEAD",
        "kamen.egg-info/PKG-INFO",
        "games/ai/oska_table.bin",
        "render/fonts/DejaVuSans-Bold-subset.ttf",
    ):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    context = tmp_path.parent / (tmp_path.name + "-context")
    context.mkdir()
    assert build_context(tmp_path, context) == [
        "README.md",
        "bot/__init__.py",
        "games/ai/oska_table.bin",
        "pyproject.toml",
        "render/fonts/DejaVuSans-Bold-subset.ttf",
        "store/migrations/0001_games.sql",
    ]


# ------------------------------------------------------------------ .env.example
# (compose.yaml and compose.postgres.yaml: tests/test_shipping_compose.py)


def test_env_example_lists_every_setting_the_bot_reads() -> None:
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.M))
    sources = [*(ROOT / "bot").glob("*.py"), *(ROOT / "runtime").glob("*.py")]
    sources.append(ROOT / "store" / "url.py")
    read = set()
    for source in sources:
        read |= set(
            re.findall(
                r"""(?:env|environ)(?:\.get\(|, )["']([A-Z][A-Z0-9_]+)["']""", source.read_text()
            )
        )
    assert {"DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "HEALTH_PORT"} <= read
    assert read <= listed, f"missing from .env.example: {sorted(read - listed)}"
    assert re.search(r"^DISCORD_TOKEN=$", example, re.M), "the token is the one blank to fill"
    assert not TOKEN_SHAPE.search(example)
