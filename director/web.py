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

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

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
from flask_htmx import HTMX
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.wrappers import Response

from director.events import StaleWrite, UnknownTournament
from engine.errors import EngineError, InvalidInput
from engine.limits import MAX_CHIPS, MAX_ID
from engine.text import chips, ordinal

htmx = HTMX()

#: Links in a tournament's navigation bar after Dashboard and Players, in the order of the
#: night: ``(endpoint, label)``; shown when the endpoint exists. Blueprints may append theirs.
TOURNAMENT_LINKS: list[tuple[str, str]] = [
    ("seating.tables", "Tables"),
    ("tv.page", "TV clock"),
    ("results.show", "Results"),
    ("structure.show", "Structure"),
    ("settings.show", "Settings"),
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
    """A form's whole number ("1,000" reads as 1000), within ``minimum`` and ``maximum``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is not None:
            return default
        raise InvalidInput(f"The {label} is missing: type a whole number.")
    if isinstance(value, bool):
        raise InvalidInput(f"The {label} must be a whole number, not {value!r}.")
    try:
        number = int(str(value).strip().replace(",", "").replace("_", ""))
    except ValueError:
        raise InvalidInput(f"The {label} must be a whole number, not {value!r}.") from None
    if minimum is not None and number < minimum:
        raise InvalidInput(f"The {label} must be at least {minimum:,}, not {number:,}.")
    if number > maximum:
        raise InvalidInput(f"The {label} must be at most {maximum:,}, not {number:,}.")
    return number


def expected_seq(data: dict[str, Any], current: int) -> int:
    """The sequence number a write was based on; the current one when the caller gave none."""
    if data.get("expected_seq") in (None, ""):
        return current
    return parse_int(data.get("expected_seq"), "expected sequence number", minimum=0, maximum=MAX_ID)


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
        return rerender(error=str(error)), 422
    except StaleWrite as error:
        if is_partial_request():
            return rerender(error=str(error)), 409
        flash(str(error), "error")
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


def refusal_status(error: EngineError) -> int:
    """422 for input that makes no sense, 409 for what contradicts the data."""
    return 422 if isinstance(error, InvalidInput) else 409


def error_page(status: int, title: str, message: str) -> ResponseReturnValue:
    if wants_json():
        return jsonify(error=message), status
    if is_partial_request():
        return render_template("_error.html", title=title, message=message), status
    return render_template("error.html", title=title, message=message, status=status), status


def init_app(app: Flask) -> None:
    htmx.init_app(app)

    @app.after_request
    def vary_on_htmx(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response

    @app.context_processor
    def helpers() -> dict[str, Any]:
        def extra_nav(_tournament_id: int) -> list[tuple[str, str]]:
            return [(e, label) for e, label in TOURNAMENT_LINKS if e in app.view_functions]

        return {"chips": format_chips, "extra_nav": extra_nav, "take_flashes": take_flashes, "ordinal": ordinal}

    app.add_template_filter(format_chips, "chips")
    app.add_template_filter(format_datetime, "datetime")
    app.add_template_filter(format_isotime, "isotime")

    @app.errorhandler(EngineError)
    def engine_error(error: EngineError) -> ResponseReturnValue:
        return error_page(422, "That cannot be done", str(error))

    @app.errorhandler(StaleWrite)
    def stale(error: StaleWrite) -> ResponseReturnValue:
        return error_page(409, "Changed by someone else", str(error))

    @app.errorhandler(UnknownTournament)
    def unknown_tournament(error: UnknownTournament) -> ResponseReturnValue:
        return error_page(404, "No such tournament", str(error))

    @app.errorhandler(CSRFError)
    def csrf_error(_error: CSRFError) -> ResponseReturnValue:
        if is_partial_request():  # htmx: reload the page, which brings a fresh token
            flash("This page was out of date and has been reloaded: please try again.", "error")
            response = Response(status=400)
            response.headers["HX-Refresh"] = "true"
            return response
        return error_page(
            400,
            "Please try again",
            "The security token of this page was missing or out of date: reload the page and try again.",
        )

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> ResponseReturnValue:
        own = error.description if error.description != NotFound.description else None
        return error_page(404, "Page not found", own or "There is no page at this address.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        return error_page(error.code or 500, error.name, error.description or error.name)

    @app.errorhandler(500)
    def server_error(_error: Exception) -> ResponseReturnValue:
        return error_page(500, "Something went wrong", "The server hit an error; nothing was recorded. Try again.")


def format_chips(amount: int | float | None) -> str:
    """12345 -> '12,345'."""
    return "–" if amount is None else chips(amount)


def format_datetime(at: float) -> str:
    """Epoch seconds as the server's local time, e.g. 'Sat 14 Mar 20:05'."""
    return datetime.fromtimestamp(at).strftime("%a %d %b %H:%M")


def format_isotime(at: float) -> str:
    return datetime.fromtimestamp(at, tz=UTC).isoformat()
