"""Every language says each poker word one way: the word its glossary chose
(``director/translations/<language>/GLOSSARY.md``), never one it rules out.

A glossary's table has one row a term: the English patterns (any of them in a message's English
makes the row apply), the patterns one of which the translation must hold, the patterns it must
never hold, and the English that makes a message an exception (the word meaning something else
there). Each pattern is a regular expression between backquotes; the English ones are matched
without regard to case, the translated ones as written (``(?i)`` where case does not matter).
Placeholders and HTML tags are left out of both before they are read."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from director.core import catalogues

LANGUAGES = ("de", "fr", "es")
PATTERN = re.compile(r"`([^`]+)`")
NOT_WORDS = re.compile(r"%\(\w+\)[sd]|\{\w+\}|<[^>]*>")


@dataclass(frozen=True)
class Term:
    name: str
    english: tuple[re.Pattern[str], ...]
    use: tuple[re.Pattern[str], ...]
    never: tuple[re.Pattern[str], ...]
    unless: tuple[re.Pattern[str], ...]


def glossary_path(language: str) -> Path:
    return catalogues.TRANSLATIONS / language / "GLOSSARY.md"


def terms(language: str) -> list[Term]:
    """The rows of the glossary's table of terms (the one whose header starts ``| Term |``)."""
    rows: list[Term] = []
    in_table = False
    for line in glossary_path(language).read_text(encoding="utf-8").splitlines():
        if line.startswith("| Term |"):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        # A pipe inside a pattern is written \| (Markdown's escape in a table's cell).
        cells = [cell.strip().replace("\x00", "|") for cell in line.replace("\\|", "\x00").strip().strip("|").split("|")]
        if set(cells[0]) <= {"-", ":", " "}:
            continue
        name, english, use, never, unless = (cells + [""] * 5)[:5]
        rows.append(Term(
            name,
            tuple(re.compile(p, re.IGNORECASE) for p in PATTERN.findall(english)),
            tuple(re.compile(p) for p in PATTERN.findall(use)),
            tuple(re.compile(p) for p in PATTERN.findall(never)),
            tuple(re.compile(p, re.IGNORECASE) for p in PATTERN.findall(unless)),
        ))
    return rows


def messages(language: str) -> list[tuple[str, tuple[str, ...]]]:
    path = catalogues.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    found = []
    for message in catalogues.read_catalogue(path, language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.append((NOT_WORDS.sub(" ", " / ".join(ids)), tuple(NOT_WORDS.sub(" ", s) for s in strings)))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_glossary_has_its_terms(language: str) -> None:
    found = terms(language)
    assert len(found) >= 30, f"{glossary_path(language)} lists {len(found)} terms"
    for term in found:
        assert term.english and (term.use or term.never), f"{language}: the row {term.name!r} says nothing to check"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_says_the_glossary_words(language: str) -> None:
    wrong = []
    for english, strings in messages(language):
        for term in terms(language):
            if not any(p.search(english) for p in term.english) or any(p.search(english) for p in term.unless):
                continue
            for text in strings:
                if term.use and not any(p.search(text) for p in term.use):
                    wrong.append(f"{term.name}: wants {[p.pattern for p in term.use]} in {text!r} ({english!r})")
                bad = [p.pattern for p in term.never if p.search(text)]
                if bad:
                    wrong.append(f"{term.name}: never {bad} in {text!r} ({english!r})")
    assert not wrong, f"{len(wrong)} messages off the {language} glossary:\n" + "\n".join(wrong[:60])
