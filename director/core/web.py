"""Rendering helpers shared by every blueprint, and the errors translated once at the edge.

* ``render(page, partial=None, **context)``: the partial for an htmx request (not boosted), the
  full page otherwise.
* ``act(do, redirect_to, rerender)``: run a write, then answer htmx with the fresh partial and a
  plain browser with a redirect; an ``EngineError`` re-renders with the message (422), a stale
  write re-renders the current state with the stale message (409).
* ``now()``: the server's time in epoch seconds (tests may set ``app.config["NOW"]``).
* ``form_int(name)``: an integer form or JSON field, or ``InvalidInput`` with a readable message.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_datetime as format_date_time
from flask import (
    Flask,
    current_app,
    flash,
    g,
    get_flashed_messages,
    jsonify,
    redirect,
    render_template,
    request,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from flask_htmx import HTMX
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.wrappers import Response

from director.core.i18n import gettext, language
from director.core.roles import NotYours
from director.core.store import StaleWrite, UnknownTournament
from director.core.words import before_amount, chips, ordinal, say
from engine.declared import whole_number
from engine.errors import EngineError, InvalidInput, Term
from engine.limits import MAX_CHIPS, MAX_ID

htmx = HTMX()

#: Links in a tournament's navigation bar after Dashboard and Players, in the order of the
#: night: ``(endpoint, label)``; shown when the endpoint exists. Blueprints may append theirs.
TOURNAMENT_LINKS: list[tuple[str, Any]] = [
    ("seating.tables", lazy_gettext("Tables")),
    ("phones.page", lazy_gettext("Phones")),
    ("tv.page", lazy_gettext("TV clock")),
    ("results.show", lazy_gettext("Results")),
    ("structure.show", lazy_gettext("Structure")),
    ("settings.show", lazy_gettext("Settings")),
]


def now() -> float:
    clock = current_app.config.get("NOW")
    return float(clock()) if callable(clock) else time.time()


def is_partial_request() -> bool:
    """htmx asked for a fragment (boosted navigation wants the full page)."""
    return bool(htmx) and not htmx.boosted


def wants_json() -> bool:
    return request.path.startswith("/api/")


def render(page: str, partial: str | None = None, **context: Any) -> str:
    if partial is not None and is_partial_request():
        return render_template(partial, **context)
    return render_template(page, **context)


def values() -> dict[str, Any]:
    """The request's fields: JSON body for the API, form fields otherwise."""
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise InvalidInput("The request body must be a JSON object.")
        return data
    return request.form.to_dict()


def parse_int(
    value: Any, label: str, *, minimum: int | None = None, default: int | None = None, maximum: int = MAX_CHIPS
) -> int:
    """A form's whole number ("1,000" reads as 1000), within ``minimum`` and ``maximum``
    (the engine's reading, which the dealer's phone runs too)."""
    return whole_number(value, label, minimum=minimum, default=default, maximum=maximum)


def expected_seq(data: dict[str, Any], current: int) -> int:
    """The sequence number a write was based on; the current one when the caller gave none."""
    if data.get("expected_seq") in (None, ""):
        return current
    return parse_int(data.get("expected_seq"), Term("expected sequence number"), minimum=0, maximum=MAX_ID)


def act(
    do: Callable[[], object],
    redirect_to: str,
    rerender: Callable[..., str],
    *,
    message: str | Callable[[], str | None] | None = None,
) -> ResponseReturnValue:
    """Run a write for a page; see the module docstring. ``message`` may be worked out by the
    write (a function read once it has run)."""
    try:
        do()
    except EngineError as error:
        return rerender(error=say(error)), 422
    except NotYours as error:  # outside this phone's role: said where the dealer is looking
        if is_partial_request():
            return rerender(error=say(error.sentence)), 403
        raise
    except StaleWrite as error:
        if is_partial_request():
            return rerender(error=stale_text(error)), 409
        flash(stale_text(error), "error")
        return redirect(redirect_to, code=303)
    if callable(message):
        message = message()
    if is_partial_request():
        response = Response(rerender(notice=message))
        response.headers["HX-Trigger"] = "tournament-changed"
        return response
    if message:
        flash(message, "ok")
    return redirect(redirect_to, code=303)


def act_and_say(do: Callable[[], str], redirect_to: str, rerender: Callable[..., str]) -> ResponseReturnValue:
    """:func:`act` for a write that says what it did: ``do`` returns the notice shown."""
    said: list[str] = []
    return act(lambda: said.append(do()), redirect_to, rerender, message=lambda: said[0] if said else None)


def take_flashes() -> list[tuple[str, str]]:
    """The flashed messages, once per request: the first place on the page that shows them
    takes them (a panel's message spot, else the top of the page)."""
    if g.get("flashes_taken"):
        return []
    g.flashes_taken = True
    return list(get_flashed_messages(with_categories=True))


def flash_and_go(message: str, to: str) -> ResponseReturnValue:
    """After a write outside a stream: say it, and go to ``to`` (htmx follows with a whole page,
    not a page swapped into the form)."""
    flash(message, "ok")
    if is_partial_request():
        response = Response(status=204)
        response.headers["HX-Redirect"] = to
        return response
    return redirect(to, code=303)


def stale_text(error: StaleWrite) -> str:
    """A stale write's message in the reader's language."""
    return say(str(error))


def unknown_text(error: UnknownTournament) -> str:
    return gettext("There is no tournament number %(number)s.", number=error.tournament_id)


def http_words(code: int) -> tuple[str | None, str | None]:
    """The title and sentence of an HTTP error the app does not word itself, in the reader's
    language (their English is werkzeug's own, as the API has always answered)."""
    words = {
        400: (gettext("Bad Request"), gettext("The browser (or proxy) sent a request that this server could not understand.")),
        401: (gettext("Unauthorized"), gettext("This needs the director's password.")),
        403: (gettext("Forbidden"), gettext("This is not allowed.")),
        405: (gettext("Method Not Allowed"), gettext("The method is not allowed for the requested URL.")),
        413: (gettext("Request Entity Too Large"), gettext("The data value transmitted exceeds the capacity limit.")),
        429: (gettext("Too Many Requests"), gettext("This user has exceeded an allotted request count. Try again later.")),
    }
    return words.get(code, (None, None))


def refusal_status(error: EngineError) -> int:
    """422 for input that makes no sense, 409 for what contradicts the data."""
    return 422 if isinstance(error, InvalidInput) else 409


def error_page(status: int, title: str, message: str) -> ResponseReturnValue:
    if wants_json():
        return jsonify(error=message), status
    if is_partial_request():
        return render_template("_error.html", title=title, message=message), status
    return render_template("error.html", title=title, message=message, status=status), status


def form_ids() -> Markup:
    """A form's hidden fields: the CSRF token, and the id of the command it sends (new each
    time the form is drawn: sent twice, by a double click or a retry, it is recorded once)."""
    from flask_wtf.csrf import generate_csrf

    from director.core.command_ids import FIELD

    return Markup('<input type="hidden" name="csrf_token" value="{}"><input type="hidden" name="{}" value="{}">').format(
        generate_csrf(), FIELD, secrets.token_hex(16))


def init_app(app: Flask) -> None:
    htmx.init_app(app)

    @app.after_request
    def vary_on_htmx(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response

    @app.after_request
    def errors_not_kept(response: Response) -> Response:
        """No browser keeps an error answer (4xx, 5xx; a page or JSON): reloaded, a page asks
        again. A phone whose link ended with the night is told so (410), and once the director
        undoes what ended it, the same page works again; a cached 410 would still say it ended."""
        if response.status_code >= 400:
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.context_processor
    def helpers() -> dict[str, Any]:
        def extra_nav(_tournament_id: int) -> list[tuple[str, str]]:
            return [(e, label) for e, label in TOURNAMENT_LINKS if e in app.view_functions]

        return {"chips": chips, "say": say, "extra_nav": extra_nav, "take_flashes": take_flashes, "ordinal": ordinal,
                "before_amount": before_amount, "form_ids": form_ids}

    app.add_template_filter(chips, "chips")
    app.add_template_filter(format_datetime, "datetime")
    app.add_template_filter(format_isotime, "isotime")

    @app.errorhandler(EngineError)
    def engine_error(error: EngineError) -> ResponseReturnValue:
        return error_page(422, gettext("That cannot be done"), say(error))

    @app.errorhandler(NotYours)
    def not_yours(error: NotYours) -> ResponseReturnValue:
        return error_page(403, gettext("Not this phone's to do"), say(error.sentence))

    @app.errorhandler(StaleWrite)
    def stale(error: StaleWrite) -> ResponseReturnValue:
        return error_page(409, gettext("Changed by someone else"), stale_text(error))

    @app.errorhandler(UnknownTournament)
    def unknown_tournament(error: UnknownTournament) -> ResponseReturnValue:
        return error_page(404, gettext("No such tournament"), unknown_text(error))

    @app.errorhandler(CSRFError)
    def csrf_error(_error: CSRFError) -> ResponseReturnValue:
        if is_partial_request():  # htmx: reload the page, which brings a fresh token
            flash(gettext("This page was out of date and has been reloaded: please try again."), "error")
            response = Response(status=400)
            response.headers["HX-Refresh"] = "true"
            return response
        return error_page(
            400,
            gettext("Please try again"),
            gettext("The security token of this page was missing or out of date: reload the page and try again."),
        )

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> ResponseReturnValue:
        own = error.description if error.description != NotFound.description else None
        return error_page(404, gettext("Page not found"), say(own) if own else gettext("There is no page at this address."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        code = error.code or 500
        title, text = http_words(code)
        own = error.description if error.description != type(error).description else None
        if own:
            text = say(own)
        return error_page(code, title or error.name, text or error.description or error.name)

    @app.errorhandler(500)
    def server_error(_error: Exception) -> ResponseReturnValue:
        return error_page(500, gettext("Something went wrong"),
                          gettext("The server hit an error; nothing was recorded. Try again."))


def format_datetime(at: float) -> str:
    """Epoch seconds as the server's local time in the reader's way, e.g. 'Sat 14 Mar 20:05'."""
    return format_date_time(datetime.fromtimestamp(at), "EEE d MMM HH:mm", locale=language())


def format_isotime(at: float) -> str:
    return datetime.fromtimestamp(at, tz=UTC).isoformat()
