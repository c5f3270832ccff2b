"""The message catalogues: what the app says, gathered from its sources, and each language's
translations of it.

    python -m director.core.catalogues extract      # sources -> director/translations/messages.pot
    python -m director.core.catalogues update       # the .pot's messages into every messages.po
    python -m director.core.catalogues init it      # a new language, ready to translate
    python -m director.core.catalogues check        # every message translated, nothing fuzzy
    python -m director.core.catalogues compile      # .po -> .mo (the build and the app do it too)

Messages come from the templates (``_()``, ``ngettext()``, ``pgettext()`` where one English word
means two things, ``{% trans %}``), the director's
Python (``gettext``, ``lazy_gettext``, ``ngettext``), the engine (the first argument of its
errors, ``Message``, ``Term`` and ``N_``) and the scripts (``_()`` in ``static/js``), as
``babel.cfg`` says.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from director.core.i18n import TRANSLATIONS, compile_catalogues

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = TRANSLATIONS / "messages.pot"
KEYWORDS: dict[str, Any] = {
    "_": None, "gettext": None, "lazy_gettext": None, "ngettext": (1, 2), "lazy_ngettext": (1, 2),
    "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    "N_": None, "Term": None, "Message": None,
    "EngineError": None, "InvalidInput": None, "IllegalAction": None, "PhhReplayError": None,
    # A command's summary (its third argument) is quoted to a phone refused it by its role.
    **{name: (3,) for name in ("command", "stream_command", "tournament_command", "tables_command", "hand_command",
                               "session_command", "table_command", "club_command", "tv_command")},
}
FIELDS = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """``babel.cfg``'s sections as Babel's extractor wants them."""
    methods: list[tuple[str, str]] = []
    options: dict[str, dict[str, str]] = {}
    section = None
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            kind, _, pattern = line[1:-1].partition(":")
            section = pattern.strip()
            methods.append((section, kind.strip()))
            options[section] = {"extensions": "jinja2.ext.i18n"} if kind.strip() == "jinja2" else {}
        elif "=" in line and section:
            key, _, value = line.partition("=")
            options[section][key.strip()] = value.strip()
    return methods, options


def extracted() -> Catalog:
    """Every message of the sources, as a catalogue without translations."""
    return extract_all()[0]


def extract_all() -> tuple[Catalog, list[str]]:
    """Every message of the sources, and each place where a message is written so that it
    cannot be translated (an f-string given to ``gettext`` or to an engine error)."""
    methods, options = method_map()
    catalogue = Catalog(project="poker-director", msgid_bugs_address="", charset="utf-8")
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        for filename, lineno, message, comments, context in extract_from_dir(
                str(ROOT), methods, options, keywords=KEYWORDS, strip_comment_tags=True):
            if not message or not (message[0] if isinstance(message, tuple) else message):
                continue
            catalogue.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    unreadable = [line.replace(str(ROOT) + "/", "").split(" it cannot")[0]
                  for line in said.getvalue().splitlines() if "Skipping" in line]
    return catalogue, unreadable


def write_catalogue(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    named = catalogue.locale.get_display_name("en") if catalogue.locale else None
    catalogue.header_comment = (f"# poker-director's messages in {named}." if named else
                                "# poker-director's messages: the template every language translates.")
    catalogue.fuzzy = False
    catalogue.project, catalogue.version = "poker-director", "0.1"
    catalogue.msgid_bugs_address = catalogue.last_translator = ""
    catalogue.language_team = named or ""
    with path.open("wb") as target:
        write_po(target, catalogue, width=100, sort_output=True, omit_header=False, no_location=True)


def read_catalogue(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def language_files() -> list[Path]:
    return sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))


def update() -> None:
    template = read_catalogue(TEMPLATE)
    for po in language_files():
        catalogue = read_catalogue(po, po.parent.parent.name)
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.obsolete.clear()
        write_catalogue(catalogue, po)


def init(code: str) -> Path:
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", code):
        raise SystemExit(f"{code!r} is not a language code (such as it, pt_BR).")
    path = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
    if path.exists():
        raise SystemExit(f"{shown(path)} exists already: run update.")
    catalogue = Catalog(locale=code, project="poker-director", charset="utf-8")
    catalogue.update(read_catalogue(TEMPLATE), no_fuzzy_matching=True)
    write_catalogue(catalogue, path)
    return path


def problems(catalogue: Catalog) -> Iterable[str]:
    """What is missing or wrong in one language's catalogue (nothing, when it is whole)."""
    for message in catalogue:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.fuzzy:
            yield f"fuzzy: {key!r}"
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            yield f"untranslated: {key!r}"
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(FIELDS.findall(i) for i in ids))
        for text in strings:
            have = set(FIELDS.findall(text))
            if not have <= wanted or (not isinstance(message.id, tuple) and have != wanted):
                yield f"placeholders differ: {key!r} -> {text!r}"


def check() -> list[str]:
    source, found = extract_all()
    template_ids = {m.id if isinstance(m.id, str) else m.id[0] for m in source if m.id}
    for po in language_files():
        code = po.parent.parent.name
        catalogue = read_catalogue(po, code)
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue if m.id}
        found += [f"{code}: missing {key!r}" for key in sorted(template_ids - ids)]
        found += [f"{code}: {problem}" for problem in problems(catalogue)]
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        source, unreadable = extract_all()
        print("\n".join(unreadable), file=sys.stderr)
        write_catalogue(source, TEMPLATE)
        print(f"{len(read_catalogue(TEMPLATE))} messages in {shown(TEMPLATE)}")
    elif command == "update":
        update()
    elif command == "init" and len(argv) == 2:
        print(f"Wrote {shown(init(argv[1]))}: translate it, then add the language's ordinal to director/core/i18n.py.")
    elif command == "check":
        found = check()
        print("\n".join(found) or "Every message is translated in every language.")
        return 1 if found else 0
    elif command == "compile":
        for path in compile_catalogues(force=True):
            print(f"Wrote {shown(path)}")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
