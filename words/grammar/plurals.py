"""A sentence that depends on a number: one form per plural category of its language.

English has two forms (1 minute, 2 minutes); Czech three (1 tah, 2 tahy,
5 tahů). A catalogue entry that names a count is a `Plural`: `by` names the
parameter the form is chosen by, `forms` are the language's forms in the order
of its gettext plural rule (English: one, other; Czech: one, few (2-4), many).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Plural:
    by: str
    forms: tuple[str, ...]


def plural(by: str, *forms: str) -> Plural:
    """`plural("count", "{count} tah", "{count} tahy", "{count} tahů")`."""
    return Plural(by, forms)
