"""The director's password, login and logout, and the guard on every write.

On first start no password exists: every guarded page leads to ``/auth/first-run``, which sets
it (hashed with Werkzeug). The session is signed with the secret kept in the instance folder.
The JSON API uses the same session and CSRF token (see ``director.api``).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFProtect
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from director.core import roles
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.words import say
from engine.errors import Message

bp = Blueprint("auth", __name__, url_prefix="/auth")
csrf = CSRFProtect()

MIN_PASSWORD = 4
F = TypeVar("F", bound=Callable[..., Any])


def password_hash() -> str | None:
    row = get_db().execute("SELECT value FROM settings WHERE key = 'password_hash'").fetchone()
    return None if row is None else str(row[0])


def password_problem(password: str, confirm: str | None = None) -> str | None:
    if len(password) < MIN_PASSWORD:
        return gettext("The password needs at least %(count)s characters.", count=MIN_PASSWORD)
    if confirm is not None and password != confirm:
        return gettext("The two passwords differ: type the same password twice.")
    return None


class TooManyTries(Exception):
    """Too many wrong passwords from one address in a short time."""


class LoginThrottle:
    """At most ``limit`` wrong passwords per address in ``window`` seconds (the server is on
    the home network on purpose, so a guessing phone is slowed down)."""

    def __init__(self, limit: int = 5, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, list[float]] = {}

    def check(self, address: str, at: float) -> None:
        with self._lock:
            recent = [t for t in self._failures.get(address, []) if at - t < self.window]
            self._failures[address] = recent
            if len(recent) >= self.limit:
                wait = int(self.window - (at - recent[0])) + 1
                raise TooManyTries(gettext("Too many wrong passwords: wait %(seconds)s seconds and try again.", seconds=wait))

    def failed(self, address: str, at: float) -> None:
        with self._lock:
            self._failures.setdefault(address, []).append(at)

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)


def throttle() -> LoginThrottle:
    """This app's login throttle."""
    found: LoginThrottle = current_app.extensions["login_throttle"]
    return found


def check_password(password: str) -> bool:
    """Whether ``password`` is the director's; raises ``TooManyTries`` after repeated failures."""
    address = request.remote_addr or "?"
    at = throttle().clock()
    throttle().check(address, at)
    stored = password_hash()
    ok = stored is not None and check_password_hash(stored, password)
    if ok:
        throttle().succeeded(address)
    else:
        throttle().failed(address, at)
    return ok


def log_in() -> None:
    session.clear()
    session.permanent = True
    session["director"] = True


def is_director() -> bool:
    """The director's login, unless the request gives a link's bearer token (then it is that
    link's, and the CSRF check it skips cannot lend it the director's cookie)."""
    return bool(session.get("director")) and roles.bearer_token() is None


def wants_json() -> bool:
    return request.path.startswith("/api/")


def login_required(view: F) -> F:
    """Only the logged-in director passes (and the floor, to read its night's pages: a GET
    under its tournament); others are sent to log in (or get 401 as JSON)."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if is_director():
            return view(*args, **kwargs)
        role = roles.current_role()
        if (role is not None and role.kind == roles.FLOOR and request.method == "GET"
                and kwargs.get("tournament_id") == role.stream):
            return view(*args, **kwargs)
        if role is not None:  # a dealer's or the floor's phone, here for the director's page
            raise roles.NotYours(Message("This phone is {who}: this page is the director's.", who=role.words()))
        return refused()

    return cast(F, wrapped)


def director_required(view: F) -> F:
    """Only the director: the floor reads its night's pages, not these (the phones' links and
    their codes are the director's to hand out); others are sent to log in."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if is_director():
            return view(*args, **kwargs)
        role = roles.current_role()
        if role is not None:
            raise roles.NotYours(Message("This phone is {who}: this page is the director's.", who=role.words()))
        return refused()

    return cast(F, wrapped)


def role_required(view: F) -> F:
    """A command's route: any role passes (the director, the floor, a dealer); the command
    then says whether this role may run it (``director.core.roles.check``)."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if roles.signed_in():
            return view(*args, **kwargs)
        return refused()

    return cast(F, wrapped)


def refused() -> Any:
    """The answer to a request without a role: 401 in the JSON API, else the login page."""
    token = roles.bearer_token()
    link = roles.find_link(token) if token is not None else roles.session_link()
    ended = roles.link_refusal(link) if link is not None else None
    if ended is not None:  # a phone whose link ended (renewed, its table broken, the night over) is told why
        raise roles.NotYours(ended)
    if wants_json():
        message = (
            gettext("Set the director's password first.")
            if password_hash() is None
            else gettext("Log in as the director first.")
        )
        return jsonify(error=message), 401
    target = url_for("first_start.page") if password_hash() is None else url_for(
        "auth.login", next=request.full_path if request.method == "GET" else request.referrer
    )
    if request.headers.get("HX-Request"):
        response = Response(status=401)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target)


def may(name: str) -> bool:
    """Whether the request's role may run the registered command ``name`` (a page shows the
    buttons of what its reader may do: the floor's phone its own, the director's all)."""
    from director.core.commands import REGISTRY

    role = roles.current_role()
    return role is not None and (role.kind == roles.DIRECTOR or role.kind in REGISTRY[name].roles)


def safe_next(target: str | None) -> str:
    """Where to go after logging in: a path on this site, else the home page.

    Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so a path
    with a tab, a line break or a backslash after its first slash could leave the site: a
    target with any of them, or with any other control character, is refused.
    """
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and not any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in target)
    ):
        return target.rstrip("?") or "/"
    return url_for("home.index")


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    from director.core.web import render

    if password_hash() is None:
        return redirect(url_for("first_start.page"))
    error = None
    if request.method == "POST":
        if check_password(request.form.get("password", "")):
            log_in()
            return redirect(safe_next(request.form.get("next")))
        error = gettext("That is not the director's password.")
    return render("auth/login.html", error=error, next=request.values.get("next", "")), 422 if error else 200


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    session.clear()
    flash(gettext("Logged out."), "ok")
    return redirect(url_for("home.index"))


def init_app(app: Flask) -> None:
    @app.before_request
    def refuse_nameless_fields() -> None:
        """A form part without a name (a malformed multipart body) is refused before the CSRF
        check reads the form's names."""
        multipart = request.method == "POST" and request.mimetype == "multipart/form-data"
        if multipart and any(not key for key in (*request.form.keys(), *request.files.keys())):
            abort(400, gettext("The form has a field without a name: nothing was recorded."))

    app.config["WTF_CSRF_CHECK_DEFAULT"] = False  # checked below, except with a bearer token
    csrf.init_app(app)

    @app.before_request
    def check_csrf() -> None:
        """Every POST carries the session's CSRF token, except a call with a link's bearer
        token (no cookie is involved, so no other site can send it)."""
        if (app.config.get("WTF_CSRF_ENABLED", True) and request.method in app.config.get(
                "WTF_CSRF_METHODS", ("POST", "PUT", "PATCH", "DELETE")) and request.endpoint
                and roles.bearer_token() is None):
            csrf.protect()
    app.extensions["login_throttle"] = LoginThrottle()

    @app.before_request
    def remember_role() -> None:
        g.director = is_director()

    @app.context_processor
    def auth_context() -> dict[str, Any]:
        # password_set: called only where needed (no login button before a password exists).
        role = roles.current_role()
        return {"is_director": is_director(), "password_set": lambda: password_hash() is not None, "may": may,
                "role_kind": role.kind if role is not None else None,
                "role_words": str(say(role.words())) if role is not None else None}

    @app.errorhandler(TooManyTries)
    def too_many_tries(error: TooManyTries) -> Any:
        from director.core.web import error_page

        return error_page(429, gettext("Too many tries"), str(error))

