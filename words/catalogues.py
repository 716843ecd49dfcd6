"""Keep the gettext catalogues in step with the English source: `python -m words.catalogues`.

Writes `words/locales/kamen.pot` (every code, its English as the comment a
translator reads) and updates each `words/locales/<language>.po` from it: new
codes are added untranslated (said in English until translated), removed ones
dropped, and each entry's comment shows the English as it is now. `--new xx`
starts the catalogue of a new language. See README, "Adding a language".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from words.english import TEXTS as ENGLISH
from words.grammar.plurals import Plural
from words.translations import DOMAIN, LOCALES


def template(english: Mapping[str, str | Plural] = ENGLISH) -> Catalog:
    """The `.pot`: one entry per code; a plural's id names its code twice (singular, plural)."""
    catalog = Catalog(domain=DOMAIN, project="Kamen", fuzzy=False)
    for code, text in sorted(english.items()):
        if isinstance(text, Plural):
            comments = [f"plural by {{{text.by}}}", *text.forms]
            catalog.add((code, code), ("", ""), auto_comments=comments)
        else:
            catalog.add(code, "", auto_comments=[text])
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as file:
        write_po(file, catalog, width=100, omit_header=False, sort_output=True)


def update(path: Path, pot: Catalog) -> None:
    with path.open("rb") as file:
        catalog = read_po(file, locale=path.stem, domain=DOMAIN)
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    write(catalog, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m words.catalogues", description=__doc__)
    parser.add_argument("--new", metavar="LANGUAGE", help="start words/locales/LANGUAGE.po")
    args = parser.parse_args(argv)
    pot = template()
    LOCALES.mkdir(exist_ok=True)
    write(pot, LOCALES / f"{DOMAIN}.pot")
    if args.new:
        fresh = Catalog(locale=args.new, domain=DOMAIN, project="Kamen", fuzzy=False)
        path = LOCALES / f"{args.new}.po"
        if path.exists():
            print(f"{path} exists already", file=sys.stderr)
            return 1
        write(fresh, path)
    for path in sorted(LOCALES.glob("*.po")):
        update(path, pot)
        print(f"updated {path.relative_to(LOCALES.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
