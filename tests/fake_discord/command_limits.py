"""Discord's limits on application command definitions and on autocomplete choices."""

from __future__ import annotations

import re
from typing import Any

from .limits import (
    CHANNEL,
    CHOICE_TYPES,
    GROUP,
    INTEGER,
    JSON,
    NUMBER,
    STRING,
    SUBCOMMAND,
    VALUE_TYPES,
    Path,
    Problem,
    check_count,
    check_length,
)

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 15  # of each type, USER and MESSAGE
MAX_COMMAND_SIZE = 4000
MAX_CHOICES = 25


def validate_commands(commands: Any) -> list[Problem]:
    """Problems with a bulk-overwrite list of application commands."""
    out: list[Problem] = []
    if not isinstance(commands, list):
        return [Problem((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")]
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        path: Path = (index,)
        if not isinstance(command, dict):
            out.append(
                Problem(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            )
            continue
        kind = command.get("type", 1)
        name = command.get("name")
        if kind == 1:
            _check_name(out, (*path, "name"), name)
            check_length(out, (*path, "description"), command.get("description"), 1, 100)
            _check_options(out, (*path, "options"), command.get("options") or [], top=True)
        elif kind in (2, 3):
            check_length(out, (*path, "name"), name, 1, 32)
            if command.get("description"):
                out.append(
                    Problem(
                        (*path, "description"),
                        "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                        "Context menu commands cannot have description",
                    )
                )
            if command.get("options"):
                out.append(
                    Problem(
                        (*path, "options"),
                        "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS",
                        "Context menu commands cannot have options",
                    )
                )
        else:
            out.append(
                Problem((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
            )
            continue
        if isinstance(name, str):
            key = (kind, name)
            if key in seen:
                out.append(
                    Problem(
                        (*path, "name"),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique ({name})",
                    )
                )
            seen.add(key)
        size = command_size(command)
        if size > MAX_COMMAND_SIZE:
            out.append(
                Problem(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_SIZE}); it is {size}",
                )
            )
    return out


def count_problem(commands: list[JSON]) -> str | None:
    """Too many commands is its own error (code 30032), not a form-body error."""
    kinds = [c.get("type", 1) for c in commands if isinstance(c, dict)]
    if kinds.count(1) > MAX_CHAT_INPUT_COMMANDS:
        return f"Maximum number of application commands reached ({MAX_CHAT_INPUT_COMMANDS})"
    for kind, label in ((2, "user"), (3, "message")):
        if kinds.count(kind) > MAX_CONTEXT_MENU_COMMANDS:
            return f"Maximum number of {label} commands reached ({MAX_CONTEXT_MENU_COMMANDS})"
    return None


def command_size(node: JSON) -> int:
    """Characters counted towards the 4000 limit: names, descriptions, choice names and values."""
    total = len(str(node.get("name", ""))) + len(str(node.get("description", "")))
    for choice in node.get("choices") or []:
        if isinstance(choice, dict):
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        if isinstance(option, dict):
            total += command_size(option)
    return total


def _check_name(out: list[Problem], path: Path, name: Any) -> None:
    if not isinstance(name, str):
        out.append(Problem(path, "BASE_TYPE_REQUIRED", "This field is required"))
    elif not COMMAND_NAME.match(name) or name != name.lower():
        out.append(
            Problem(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid ({name!r})")
        )


def _check_options(
    out: list[Problem], path: Path, options: Any, *, top: bool, parent: int = 0
) -> None:
    if not isinstance(options, list):
        out.append(Problem(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType."))
        return
    check_count(out, path, options, 25)
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    nested = [k for k in kinds if k in (SUBCOMMAND, GROUP)]
    if nested and len(nested) != len(kinds):
        out.append(
            Problem(
                path,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command and sub-command group option types are mutually exclusive to all "
                "other types",
            )
        )
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        opath: Path = (*path, index)
        if not isinstance(option, dict):
            out.append(
                Problem(opath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            )
            continue
        kind = option.get("type")
        name = option.get("name")
        _check_name(out, (*opath, "name"), name)
        check_length(out, (*opath, "description"), option.get("description"), 1, 100)
        if isinstance(name, str):
            if name in names:
                out.append(
                    Problem(
                        (*opath, "name"),
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        "Option names must be unique",
                    )
                )
            names.add(name)
        if kind == GROUP:
            if not top:
                out.append(
                    Problem(
                        (*opath, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups can only be nested in a command",
                    )
                )
            subs = option.get("options") or []
            if not subs or any(
                not isinstance(s, dict) or s.get("type") != SUBCOMMAND for s in subs
            ):
                out.append(
                    Problem(
                        (*opath, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A sub-command group must contain one or more sub-commands only",
                    )
                )
            _check_options(out, (*opath, "options"), subs, top=False, parent=GROUP)
        elif kind == SUBCOMMAND:
            if parent == SUBCOMMAND or (not top and parent != GROUP):
                out.append(
                    Problem(
                        (*opath, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-commands cannot be nested in sub-commands",
                    )
                )
            _check_options(
                out, (*opath, "options"), option.get("options") or [], top=False, parent=SUBCOMMAND
            )
        elif kind in VALUE_TYPES:
            if parent == GROUP:
                out.append(
                    Problem(
                        (*opath, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A sub-command group may only contain sub-commands",
                    )
                )
            required = bool(option.get("required", False))
            if required and optional_seen:
                out.append(
                    Problem(
                        (*opath, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
            optional_seen = optional_seen or not required
            _check_value_option(out, opath, option, kind)
        else:
            out.append(
                Problem((*opath, "type"), "BASE_TYPE_CHOICES", "Value must be one of 1..11.")
            )


def _check_value_option(out: list[Problem], path: Path, option: JSON, kind: int) -> None:
    choices = option.get("choices")
    if choices:
        if kind not in CHOICE_TYPES:
            out.append(
                Problem(
                    (*path, "choices"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                    "Choices are only allowed on string, integer and number options",
                )
            )
        if option.get("autocomplete"):
            out.append(
                Problem(
                    (*path, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
                    "Autocomplete cannot be set for options with choices",
                )
            )
        out.extend(_check_choices(choices, kind, (*path, "choices")))
    if option.get("autocomplete") and kind not in CHOICE_TYPES:
        out.append(
            Problem(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_TYPE",
                "Autocomplete is only allowed on string, integer and number options",
            )
        )
    for key, low, high in (("min_length", 0, 6000), ("max_length", 1, 6000)):
        if key in option:
            if kind != STRING:
                out.append(
                    Problem(
                        (*path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is for strings"
                    )
                )
            elif not isinstance(option[key], int) or not low <= option[key] <= high:
                out.append(
                    Problem((*path, key), "NUMBER_TYPE_MAX", f"Must be between {low} and {high}.")
                )
    for key in ("min_value", "max_value"):
        if key in option and kind not in (INTEGER, NUMBER):
            out.append(
                Problem((*path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is for numbers")
            )
    if option.get("channel_types") and kind != CHANNEL:
        out.append(
            Problem(
                (*path, "channel_types"),
                "APPLICATION_COMMAND_OPTION_INVALID",
                "channel_types is for channel options",
            )
        )


def _check_choices(choices: Any, kind: int, path: Path) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(choices, list):
        return [Problem(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")]
    check_count(out, path, choices, MAX_CHOICES)
    for index, choice in enumerate(choices):
        cpath: Path = (*path, index)
        if not isinstance(choice, dict):
            out.append(
                Problem(cpath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            )
            continue
        check_length(out, (*cpath, "name"), choice.get("name"), 1, 100)
        value = choice.get("value")
        if kind == STRING:
            check_length(out, (*cpath, "value"), value, 1, 100)
        elif kind == INTEGER:
            if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 2**53:
                out.append(
                    Problem((*cpath, "value"), "NUMBER_TYPE_COERCE", f"Value {value!r} is not int.")
                )
        elif kind == NUMBER and (not isinstance(value, int | float) or isinstance(value, bool)):
            out.append(
                Problem(
                    (*cpath, "value"), "NUMBER_TYPE_COERCE", f"Value {value!r} is not a number."
                )
            )
    return out


def validate_autocomplete(data: Any, kind: int) -> list[Problem]:
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
        return [Problem(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")]
    return _check_choices(data["choices"], kind, ("data", "choices"))
