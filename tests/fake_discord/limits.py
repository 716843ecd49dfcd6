"""Discord's limits on what a bot may send, as checks that list every problem found.

Each problem carries the path of the offending field so it can be reported the
way Discord does it: HTTP 400, code 50035 "Invalid Form Body", and an `errors`
object that nests the path down to `_errors: [{code, message}]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]
Path = tuple[str | int, ...]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_V2_COMPONENTS = 40

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
VALUE_TYPES = frozenset(range(3, 12))
CHOICE_TYPES = frozenset({STRING, INTEGER, NUMBER})
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
ALLOWED_MESSAGE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | (1 << 13) | (1 << 15)


@dataclass(frozen=True)
class Problem:
    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{where}: {self.message}" if where else self.message


def errors_object(problems: Iterable[Problem]) -> JSON:
    """Discord's nested `errors` object for a 50035 response."""
    root: JSON = {}
    for problem in problems:
        node = root
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return root


def check_length(
    out: list[Problem], path: Path, value: Any, low: int, high: int, *, required: bool = True
) -> None:
    if value is None:
        if required:
            out.append(Problem(path, "BASE_TYPE_REQUIRED", "This field is required"))
        return
    if not isinstance(value, str):
        out.append(Problem(path, "STRING_TYPE_CONVERT", "Could not interpret value as string."))
        return
    if not low <= len(value) <= high:
        if low == 0:
            out.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length."))
        else:
            out.append(
                Problem(
                    path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
                )
            )


def check_count(out: list[Problem], path: Path, items: Sequence[Any], high: int) -> None:
    if len(items) > high:
        out.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length."))


def validate_message(
    body: Any, *, files: Sequence[tuple[str, bytes]], path: Path = ()
) -> list[Problem]:
    """Problems with a message body (create or edit), its embeds, components and files."""
    out: list[Problem] = []
    if not isinstance(body, dict):
        return [Problem(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")]
    flags = body.get("flags") or 0
    if not isinstance(flags, int):
        out.append(Problem((*path, "flags"), "NUMBER_TYPE_COERCE", "Value is not int."))
        flags = 0
    v2 = bool(flags & (1 << 15))
    content = body.get("content")
    if content is not None:
        check_length(out, (*path, "content"), content, 0, MAX_CONTENT)
    embeds = body.get("embeds") or []
    if v2 and (content or embeds):
        out.append(
            Problem(
                (*path, "content"),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using "
                "MessageFlags.IS_COMPONENTS_V2",
            )
        )
    out.extend(validate_embeds(embeds, (*path, "embeds")))
    out.extend(validate_components(body.get("components") or [], (*path, "components"), v2=v2))
    if len(files) > MAX_FILES:
        out.append(
            Problem(
                (*path, "files"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
            )
        )
    attachments = body.get("attachments")
    if isinstance(attachments, list):
        check_count(out, (*path, "attachments"), attachments, MAX_FILES)
        for index, att in enumerate(attachments):
            if isinstance(att, dict) and att.get("description") is not None:
                check_length(
                    out, (*path, "attachments", index, "description"), att["description"], 0, 1024
                )
    return out


def is_empty(body: JSON, files: Sequence[object]) -> bool:
    """A new message with nothing in it (Discord: 400, code 50006)."""
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    )


def validate_embeds(embeds: Any, path: Path) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(embeds, list):
        return [Problem(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")]
    check_count(out, path, embeds, MAX_EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        epath: Path = (*path, index)
        if not isinstance(embed, dict):
            out.append(
                Problem(epath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            )
            continue
        for key, high in (("title", 256), ("description", 4096)):
            if embed.get(key) is not None:
                check_length(out, (*epath, key), embed[key], 0, high)
                total += len(str(embed[key]))
        author = embed.get("author") or {}
        if author.get("name") is not None:
            check_length(out, (*epath, "author", "name"), author["name"], 1, 256)
            total += len(str(author["name"]))
        footer = embed.get("footer") or {}
        if footer.get("text") is not None:
            check_length(out, (*epath, "footer", "text"), footer["text"], 1, 2048)
            total += len(str(footer["text"]))
        fields = embed.get("fields") or []
        check_count(out, (*epath, "fields"), fields, 25)
        for findex, fld in enumerate(fields):
            fpath: Path = (*epath, "fields", findex)
            check_length(out, (*fpath, "name"), fld.get("name"), 1, 256)
            check_length(out, (*fpath, "value"), fld.get("value"), 1, 1024)
            total += len(str(fld.get("name", ""))) + len(str(fld.get("value", "")))
        color = embed.get("color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            out.append(
                Problem((*epath, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215.")
            )
    if total > MAX_EMBED_TOTAL:
        out.append(
            Problem(
                path,
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return out


def validate_components(components: Any, path: Path, *, v2: bool = False) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(components, list):
        return [Problem(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")]
    custom_ids: set[str] = set()
    if v2:
        count = _count_all(components)
        if count > MAX_V2_COMPONENTS:
            out.append(
                Problem(
                    path,
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_V2_COMPONENTS} or fewer in length (has {count} components).",
                )
            )
        _walk_v2(out, components, path, custom_ids)
        return out
    check_count(out, path, components, MAX_ACTION_ROWS)
    for index, row in enumerate(components):
        rpath: Path = (*path, index)
        if not isinstance(row, dict) or row.get("type") != 1:
            out.append(
                Problem(
                    (*rpath, "type"),
                    "UNION_TYPE_CHOICES",
                    "Top-level components must be action rows without the IS_COMPONENTS_V2 flag",
                )
            )
            continue
        _check_row(out, row, rpath, custom_ids)
    return out


def _count_all(components: list[Any]) -> int:
    total = 0
    for comp in components:
        if isinstance(comp, dict):
            total += 1
            total += _count_all(comp.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    total += _count_all([comp[key]])
    return total


def _walk_v2(out: list[Problem], components: list[Any], path: Path, custom_ids: set[str]) -> None:
    for index, comp in enumerate(components):
        cpath: Path = (*path, index)
        if not isinstance(comp, dict):
            continue
        kind = comp.get("type")
        if kind == 1:
            _check_row(out, comp, cpath, custom_ids)
        elif kind == 10:
            check_length(out, (*cpath, "content"), comp.get("content"), 1, 4000)
        else:
            children = comp.get("components")
            if isinstance(children, list):
                _walk_v2(out, children, (*cpath, "components"), custom_ids)
            accessory = comp.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == 2:
                _check_button(out, accessory, (*cpath, "accessory"), custom_ids)


def _check_row(out: list[Problem], row: JSON, path: Path, custom_ids: set[str]) -> None:
    children = row.get("components") or []
    if not children:
        out.append(
            Problem(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
        return
    kinds = [c.get("type") for c in children if isinstance(c, dict)]
    selects = [k for k in kinds if k in SELECT_TYPES]
    if selects and len(kinds) > 1:
        out.append(
            Problem(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width "
                "(a select menu needs a row of its own)",
            )
        )
    elif len(children) > MAX_BUTTONS_PER_ROW:
        out.append(
            Problem(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
    for index, comp in enumerate(children):
        cpath: Path = (*path, "components", index)
        kind = comp.get("type") if isinstance(comp, dict) else None
        if kind == 2:
            _check_button(out, comp, cpath, custom_ids)
        elif kind in SELECT_TYPES:
            _check_select(out, comp, cpath, custom_ids)
        elif kind == 4:
            out.append(
                Problem(
                    (*cpath, "type"), "UNION_TYPE_CHOICES", "Text inputs are only allowed in modals"
                )
            )
        else:
            out.append(
                Problem(
                    (*cpath, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {kind!r} is not allowed here",
                )
            )


def _check_custom_id(out: list[Problem], comp: JSON, path: Path, custom_ids: set[str]) -> None:
    custom_id = comp.get("custom_id")
    check_length(out, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
    if isinstance(custom_id, str):
        if custom_id in custom_ids:
            out.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({custom_id!r})",
                )
            )
        custom_ids.add(custom_id)


def _check_button(out: list[Problem], comp: JSON, path: Path, custom_ids: set[str]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        out.append(
            Problem(
                (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
            )
        )
    if style == 5:
        if not comp.get("url"):
            out.append(Problem((*path, "url"), "BASE_TYPE_REQUIRED", "A link button needs a url"))
        if comp.get("custom_id") is not None:
            out.append(
                Problem(
                    (*path, "custom_id"),
                    "BUTTON_CUSTOM_ID_NOT_ALLOWED",
                    "A link button has no custom_id",
                )
            )
    elif style == 6:
        if not comp.get("sku_id"):
            out.append(
                Problem((*path, "sku_id"), "BASE_TYPE_REQUIRED", "A premium button needs a sku_id")
            )
    else:
        _check_custom_id(out, comp, path, custom_ids)
        if comp.get("url") is not None:
            out.append(
                Problem((*path, "url"), "BUTTON_URL_NOT_ALLOWED", "Only link buttons have a url")
            )
    label = comp.get("label")
    if label is not None:
        check_length(out, (*path, "label"), label, 0, MAX_BUTTON_LABEL)
    elif style != 6 and not comp.get("emoji"):
        out.append(
            Problem(
                (*path, "label"),
                "BUTTON_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )


def _check_select(out: list[Problem], comp: JSON, path: Path, custom_ids: set[str]) -> None:
    _check_custom_id(out, comp, path, custom_ids)
    if comp.get("placeholder") is not None:
        check_length(out, (*path, "placeholder"), comp["placeholder"], 0, 150)
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    if not isinstance(low, int) or not 0 <= low <= 25:
        out.append(Problem((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25."))
    if not isinstance(high, int) or not 1 <= high <= 25:
        out.append(Problem((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25."))
    elif isinstance(low, int) and low > high:
        out.append(
            Problem(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_MAX_INVALID",
                "min_values must be less than or equal to max_values",
            )
        )
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        out.append(
            Problem(
                (*path, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        )
    if isinstance(high, int) and options and high > len(options):
        out.append(
            Problem(
                (*path, "max_values"),
                "SELECT_COMPONENT_TOO_MANY_VALUES",
                f"max_values ({high}) exceeds the number of options ({len(options)})",
            )
        )
    values: set[str] = set()
    for index, option in enumerate(options):
        opath: Path = (*path, "options", index)
        check_length(out, (*opath, "label"), option.get("label"), 1, 100)
        check_length(out, (*opath, "value"), option.get("value"), 1, 100)
        if option.get("description") is not None:
            check_length(out, (*opath, "description"), option["description"], 0, 100)
        value = option.get("value")
        if isinstance(value, str):
            if value in values:
                out.append(
                    Problem(
                        (*opath, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        f"Select component option value cannot be duplicated ({value!r})",
                    )
                )
            values.add(value)


def validate_modal(data: Any) -> list[Problem]:
    out: list[Problem] = []
    path: Path = ("data",)
    if not isinstance(data, dict):
        return [Problem(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")]
    check_length(out, (*path, "title"), data.get("title"), 1, 45)
    check_length(out, (*path, "custom_id"), data.get("custom_id"), 1, MAX_CUSTOM_ID)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        out.append(
            Problem(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
    for index, comp in enumerate(components):
        cpath: Path = (*path, "components", index)
        kind = comp.get("type") if isinstance(comp, dict) else None
        inputs: list[JSON] = []
        if kind == 1:
            inputs = [c for c in comp.get("components") or [] if isinstance(c, dict)]
            if len(inputs) != 1:
                out.append(
                    Problem((*cpath, "components"), "BASE_TYPE_BAD_LENGTH", "Must be 1 in length.")
                )
        elif kind == 18:
            check_length(out, (*cpath, "label"), comp.get("label"), 1, 45)
            inner = comp.get("component")
            inputs = [inner] if isinstance(inner, dict) else []
        elif kind != 10:
            out.append(
                Problem(
                    (*cpath, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {kind!r} is not allowed in a modal",
                )
            )
        for text in inputs:
            if text.get("type") == 4:
                check_length(out, (*cpath, "custom_id"), text.get("custom_id"), 1, MAX_CUSTOM_ID)
                if kind == 1:
                    check_length(out, (*cpath, "label"), text.get("label"), 1, 45)
                for key, high in (("placeholder", 100), ("value", 4000)):
                    if text.get(key) is not None:
                        check_length(out, (*cpath, key), text[key], 0, high)
    return out


def flag_problems(flags: int, path: Path) -> list[Problem]:
    if flags & ~ALLOWED_MESSAGE_FLAGS:
        return [
            Problem(
                (*path, "flags"),
                "MESSAGE_FLAGS_INVALID",
                f"Flags {flags & ~ALLOWED_MESSAGE_FLAGS} cannot be set by a bot",
            )
        ]
    return []
