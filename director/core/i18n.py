"""The languages of the app: which one a reader sees, its catalogue and ``gettext``. How
numbers, places, lists and the engine's sentences are written in it is ``director.core.words``.

* The host chooses the app's language (``/language``, stored in ``app_settings``); every page,
  the TV and its voice speak it. When the host allows it, a player's phone (the ``/p/...``
  pages and the phone clock) follows its own browser's ``Accept-Language`` instead. The JSON
  API answers in the language its caller asks for with ``Accept-Language``, else the app's.
* Templates use ``{{ _("...") }}``, ``{{ ngettext(...) }}`` and ``{{ pgettext(...) }}``;
  Python code ``gettext`` / ``ngettext`` from here (Flask-Babel's, with the catalogue looked up
  once a request) and ``lazy_gettext`` from ``flask_babel`` for module-level text. (Within
  ``flask_babel.force_locale``, use Flask-Babel's own ``gettext``.) The engine never imports Flask: its
  errors carry an English message id and values (``engine.errors``), rendered here by
  ``director.core.words.say`` in the reader's language.
* Catalogues: ``director/translations/<lang>/LC_MESSAGES/messages.po``; the ``.mo`` files are
  compiled by the build (``hatch_build.py``) and, in a checkout, on start when a ``.po`` is newer
  (``compile_catalogues``). To add a language: see the README ("Languages").
"""

from __future__ import annotations

import os
import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
DEFAULT = "en"

def folders() -> list[Path]:
    """Where the catalogues are: ``translations/``, and any the app's configuration adds."""
    if has_app_context():
        given = current_app.config.get("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
        return [Path(folder) for folder in given.split(";") if folder]
    return [TRANSLATIONS]


def languages() -> dict[str, str]:
    """The languages the app speaks, as the host's menu lists them: English, then each language
    with a catalogue (by its code, named in its own language)."""
    return dict(_languages(tuple(str(folder) for folder in folders())))


@lru_cache(maxsize=8)
def _languages(places: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    found = sorted({p.parent.parent.name for place in places for p in Path(place).glob("*/LC_MESSAGES/messages.mo")})
    codes = (DEFAULT, *[code for code in found if code != DEFAULT])
    return tuple((code, Locale.parse(code).get_display_name(code).capitalize()) for code in codes)


def compile_catalogues(folder: Path = TRANSLATIONS, force: bool = False) -> list[Path]:
    """Compile each ``messages.po`` whose ``.mo`` is missing or older. Returns what it wrote."""
    written = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parent.parent.name)
        temporary = mo.with_suffix(f".mo.{os.getpid()}.tmp")  # two servers starting at once
        with temporary.open("wb") as target:
            write_mo(target, catalogue, use_fuzzy=False)
        temporary.replace(mo)
        written.append(mo)
    return written


# -- which language -----------------------------------------------------------------------------

def stored_settings(database: str) -> dict[str, str]:
    try:
        with sqlite3.connect(database) as connection:
            rows = connection.execute("SELECT key, value FROM app_settings").fetchall()
    except sqlite3.Error:
        return {}
    return {key: value for key, value in rows}


def app_language() -> str:
    """The host's choice (English until one is made)."""
    language = settings().get("language", DEFAULT)
    return language if language in languages() else DEFAULT


def phones_follow_browser() -> bool:
    return settings().get("phones_follow_browser", "1") == "1"


def settings() -> dict[str, str]:
    """The app's settings, read once a request (on the thread's own connection)."""
    if has_request_context():
        if "app_settings" not in g:
            from director.core.db import get_db

            try:
                rows = get_db().execute("SELECT key, value FROM app_settings").fetchall()
            except sqlite3.Error:  # a database not migrated yet
                rows = []
            g.app_settings = {key: value for key, value in rows}
        return g.app_settings  # type: ignore[no-any-return]
    return stored_settings(current_app.config["DATABASE"])


def is_phone_page() -> bool:
    """A player's own pages (seat card QR, the clock on a phone): they may follow the browser."""
    path = request.path or ""
    return request.blueprint == "player" or path.startswith("/p/") or path.endswith("/tv/phone")


def select_locale() -> str:
    """A phone's page (when the host allows) and the API: the language asked for; else the app's."""
    asks = has_request_context() and (
        (is_phone_page() and phones_follow_browser()) or (request.path or "").startswith("/api/"))
    chosen = request.accept_languages.best_match(list(languages())) if asks else None
    return chosen or app_language()


def language() -> str:
    """The reader's language (read once a request: Flask-Babel's own lookup is slow to repeat)."""
    if not has_app_context():
        return DEFAULT
    found = g.get("_language")
    if found is None:
        found = g._language = str(get_locale() or DEFAULT)
    return str(found)


def translations() -> Any:
    """The reader's catalogue, found once a request (a page asks it hundreds of times)."""
    if not has_app_context():
        return get_translations()
    found = g.get("_translations")
    if found is None:
        found = g._translations = get_translations()
    return found


ELIDED = re.compile(r"(?<![\w'’-])([Dd]|[Qq]u)e (?=[AEIOUaeiouÀÂÆÉÈÊËÎÏÔŒÙÛÜàâæéèêëîïôœùûü])")
"""French elides "de" and "que" before a vowel: "les jetons d'Olga", not "de Olga"."""


def elide(text: str) -> str:
    """``text`` with the reader's language's elisions made where a name or a number put a
    vowel after "de" or "que" (French only; a mute h is left alone)."""
    if language() != "fr" or "e " not in text:
        return text
    done = ELIDED.sub(r"\1'", str(text))  # a Markup's own join would escape the apostrophe
    return Markup(done) if isinstance(text, Markup) else done


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext`` (the same %-formatting), on the request's catalogue."""
    found = str(translations().ugettext(string))
    return elide(found % variables) if variables else found


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext``: ``%(num)d`` is the count unless given."""
    variables.setdefault("num", num)
    return elide(str(translations().ungettext(singular, plural, num)) % variables)


def pgettext(context: str, string: str, **variables: Any) -> str:
    found = str(translations().upgettext(context, string))
    return elide(found % variables) if variables else found


def forget_language() -> None:
    """After the host changes the language: this request's later words are in the new one."""
    for name in ("_language", "_translations", "app_settings"):
        g.pop(name, None)


def translated(message: str) -> str:
    """``message`` from the reader's catalogue, unformatted (not ``gettext``: it %-formats, and
    the engine's message ids use {braces})."""
    return str(translations().gettext(message))


@lru_cache(maxsize=1)
def script_messages() -> tuple[str, ...]:
    """The messages the scripts in ``static/js`` say (each ``_("...")`` call), read once."""
    from babel.messages.extract import extract_from_file

    from director.core.resources import resource_dir

    found: list[str] = []
    for path in sorted(resource_dir("static").glob("js/*.js")):
        if path.name.startswith("htmx"):
            continue
        for _line, message, _comments, _context in extract_from_file("javascript", str(path), keywords={"_": None}):
            if isinstance(message, str) and message not in found:
                found.append(message)
    return tuple(found)


def script_words() -> dict[str, str]:
    """What the scripts say, in the reader's language: ``<script id="words">`` on every page."""
    return {message: translated(message) for message in script_messages()}


def _eliding(formats: Any) -> Any:
    @pass_context
    def said(context: Any, *args: Any, **variables: Any) -> Any:
        return elide(formats(context, *args, **variables)) if variables else formats(context, *args)

    return said


def init_app(app: Flask) -> None:
    if TRANSLATIONS.is_dir():
        try:
            if compile_catalogues():
                _languages.cache_clear()
        except OSError:  # a read-only install carries its compiled catalogues
            pass
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    Babel(app, locale_selector=select_locale)
    # The templates' _(), ngettext() and pgettext(): Flask-Babel's, with the catalogue looked up
    # once a request instead of at every word (a page of 400 words took twice as long).
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: translations().ugettext(s),
        lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # {% trans %} blocks: whitespace folded
    for name in ("gettext", "_", "ngettext", "pgettext", "npgettext"):  # the elisions once the values are in
        app.jinja_env.globals[name] = _eliding(app.jinja_env.globals[name])


    @app.after_request
    def vary_on_language(response: Any) -> Any:
        if is_phone_page():
            response.vary.add("Accept-Language")
        response.headers.setdefault("Content-Language", language())
        return response

    @app.context_processor
    def language_helpers() -> dict[str, Any]:
        return {"language": language, "script_words": script_words}
