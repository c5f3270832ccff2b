"""The host's choice of language: the app's (every page, the TV and its voice) and whether a
player's phone may follow its own browser's language instead.

Pages: ``GET /language`` (the form), ``POST /language``. JSON twins: ``GET /api/language`` and
``POST /api/language``. Stored in ``app_settings`` (``language``, ``phones_follow_browser``);
the choice is a registered command (``core.language``: ``director.core.commands``).
"""

from __future__ import annotations

from typing import Annotated, Any

from babel import Locale
from flask import Blueprint, current_app, jsonify, url_for
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, gettext, refresh
from pydantic import BeforeValidator, Field
from werkzeug.datastructures import MultiDict

from director.core import i18n
from director.core.auth import login_required
from director.core.caches import new_generation
from director.core.commands import Call, api_route, command, perform
from director.core.contract import Api, Write
from director.core.shapes import Shape
from director.core.web import flash_and_go, render
from director.core.words import say
from director.core.work import Work
from engine.errors import InvalidInput

bp = Blueprint("languages", __name__)
api = Api(bp, "settings")


def _text(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class LanguageIn(Write):
    """The app's language and the phones' (each field optional: one left out keeps its value)."""

    language: Annotated[str, BeforeValidator(_text), Field(pattern=r"^[a-z]{2,3}(_[A-Z]{2})?$", max_length=6)] | None = Field(
        None, title="language", description="A language the app speaks: en, fr, de or es (GET /api/language lists them).")
    phones_follow_browser: bool | None = Field(
        None, title="phones follow their browser",
        description="Whether a player's phone shows its own browser's language (else the app's).")


class LanguageSettings(Shape):
    language: str
    """The app's language: every page, the TV and its voice."""
    phones_follow_browser: bool
    languages: dict[str, str]
    """The languages the app speaks, each by its code, named in its own language."""


def current() -> dict[str, Any]:
    return {"language": i18n.app_language(), "phones_follow_browser": i18n.phones_follow_browser(),
            "languages": i18n.languages()}


def language_form(fields: MultiDict[str, str]) -> dict[str, Any]:
    """The page's form: a language left blank keeps its value; the box unticked is "no"."""
    typed: dict[str, Any] = {"phones_follow_browser": fields.get("phones_follow_browser") == "1"}
    language = fields.get("language", "").strip()
    if language:
        typed["language"] = language
    return typed


@command("core.language", LanguageIn, "Choose the app's language (every page, the TV and its voice) and whether "
         "players' phones follow their browser's", form=language_form)
def language_command(work: Work, call: Call, data: LanguageIn) -> None:
    """The fields given saved (null: unchanged); once committed, every page speaks it."""
    given = {k: v for k, v in data.given().items() if v is not None and k != "expected_seq"}  # null: unchanged
    if "language" in given and given["language"] not in i18n.languages():
        raise InvalidInput("The app does not speak {code}: choose one of {choices}.", code=given["language"],
                           choices=", ".join(i18n.languages()))
    for key, value in given.items():
        work.execute("INSERT INTO app_settings (key, value) VALUES (?, ?) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (key, ("1" if value else "0") if isinstance(value, bool) else value))
    new_generation(work.conn)  # every process's pages and answers are made again in the new words
    work.after_commit(refresh)
    work.after_commit(i18n.forget_language)
    forget_pages = current_app.extensions.get("poll_cache")
    if forget_pages is not None:
        work.after_commit(forget_pages.clear)


def page(error: str | None = None, status: int = 200) -> ResponseReturnValue:
    return render("language.html", "language.html", settings=current(), error=error), status


@bp.get("/language")
@login_required
def show() -> ResponseReturnValue:
    return page()


@bp.post("/language")
@login_required
def post() -> ResponseReturnValue:
    try:
        perform(language_command)
    except InvalidInput as error:  # a language the app does not speak, or the form's fields refused
        return page(say(error), 422)
    chosen = current()
    with force_locale(chosen["language"]):
        named = Locale.parse(chosen["language"]).get_display_name(chosen["language"])  # "français", in a sentence
        said = gettext("The app speaks %(language)s now.", language=named)
    return flash_and_go(said, url_for("languages.show"))


@api.get("/api/language", summary="The app's language, whether players' phones follow their browser's, "
         "and the languages the app speaks", result=LanguageSettings, errors=())
def api_show() -> ResponseReturnValue:
    return jsonify(current())


api_route(api, "/api/language", language_command, lambda _: jsonify(current()), result=LanguageSettings, status=200,
          endpoint="api_save")
