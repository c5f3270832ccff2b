"""The poker-director web app: Flask, htmx and an event log in SQLite.

How the app fits together (read this before adding a blueprint):

* ``create_app()`` builds the app. Every area is a blueprint listed in ``BLUEPRINTS`` as an
  import string ``"module:attribute"``; to add one (the TV clock, seating and seat cards, the
  dealer's assistant) append one line there. Blueprints are imported lazily, so a module may
  import ``director.*`` helpers freely.
* ``director.core.db.get_db()`` gives the request's ``sqlite_utils.Database`` (WAL, one per request).
* ``director.core.store.load_state(tournament_id)`` is the engine's fold of the tournament's events
  (cached); ``director.services`` holds the functions that validate and append events, shared by
  pages and the JSON API. Never write to the ``events`` table directly.
* ``director.core.auth.login_required`` guards every write; CSRF is on for every POST (forms carry
  ``{{ csrf_token() }}``; htmx sends the ``X-CSRFToken`` header set on ``<body>`` in
  ``base.html``). Read-only pages need no decorator.
* ``director.core.web.render(page, partial, **context)`` answers a partial to htmx and the full page
  otherwise; ``director.core.web.act(do, redirect_to, rerender)`` runs a write and answers htmx with
  the fresh partial, a plain browser with a redirect, and re-renders with the message on a
  refusal (422) or a stale write (409).
* Engine errors (``EngineError``) become 422 with the message, a stale write (``StaleWrite``)
  409, an unknown tournament 404, as JSON under ``/api/``: see ``director.core.web.init_app``.
* A tournament's navigation bar lists ``director.core.web.TOURNAMENT_LINKS``; a blueprint's
  ``/api/`` routes are registered through ``director.core.contract.Api``, with their declared
  input (``director.inputs``) and answer (``director.shapes``): the OpenAPI document is made
  from them.
* The data folder (database, session secret) is ``--data``, ``$POKER_DIRECTOR_DATA`` or
  ``./instance`` under the current directory. Its database is ``poker-director.db``, settled
  before anything else is done (``director.core.db.settle``): a database this version cannot
  open safely is refused with ``DatabaseRefused``, whose message says why and what to do.
"""

from __future__ import annotations

import importlib
import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, redirect, url_for

from director.core.resources import resource_dir

#: The blueprints of the app, as ``"module:attribute"``. Add yours with one line.
BLUEPRINTS: list[str] = [
    "director.core.auth:bp",
    "director.core.first_start:bp",
    "director.home.pages:bp",
    "director.setup.pages:bp",
    "director.night.players:bp",
    "director.night.pages:bp",
    "director.setup.structure:bp",
    "director.setup.settings:bp",
    "director.setup.lifecycle:bp",
    "director.setup.templates:bp",
    "director.setup.chips:bp",
    "director.club.people_pages:bp",
    "director.club.seasons:bp",
    "director.club.backup:bp",
    "director.club.imports:bp",
    "director.money.deal:bp",
    "director.money.sheet:bp",
    "director.night.results:bp",
    "director.night.api:bp",
    # The TV clock, seating / seat cards / player pages and the dealer's assistant register here:
    "director.screens.tv:bp",
    "director.screens.look:bp",
    "director.tables.api:bp",  # the seating pages (``director.tables.pages``) and their JSON twins
    "director.player.pages:bp",
    "director.tables.api:dealer",
    "director.tables.offline:bp",  # the engine's sources and sentences for the dealer's phone offline
    "director.tables.phones:bp",
    "director.cash.api:bp",
    "director.core.languages:bp",
]


def default_instance_path() -> Path:
    """The data folder: ``$POKER_DIRECTOR_DATA`` if set, else ``./instance`` under the current directory."""
    return Path(os.environ.get("POKER_DIRECTOR_DATA") or Path.cwd() / "instance").resolve()


def secret_key(instance_path: Path) -> str:
    """The session secret, generated once into the instance folder and kept there."""
    path = instance_path / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def load_blueprint(spec: str) -> Blueprint:
    module_name, _, attribute = spec.partition(":")
    blueprint = getattr(importlib.import_module(module_name), attribute or "bp")
    assert isinstance(blueprint, Blueprint), spec
    return blueprint


def create_app(test_config: dict[str, Any] | None = None, instance_path: str | Path | None = None) -> Flask:
    """The app factory. ``instance_path`` is the data folder (database and secrets). A data
    folder this version cannot open raises ``director.core.db.DatabaseRefused``, with the
    sentence to show the host."""
    folder = Path(instance_path).resolve() if instance_path else default_instance_path()
    app = Flask(
        __name__,
        instance_path=str(folder),
        instance_relative_config=True,
        template_folder=str(resource_dir("templates")),
        static_folder=str(resource_dir("static")),
    )
    folder.mkdir(parents=True, exist_ok=True)
    from director.core import db

    app.config.from_mapping(
        DATABASE=str(folder / db.DATABASE_NAME),
        WTF_CSRF_TIME_LIMIT=None,  # a tournament night lasts longer than an hour
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 7,
        JSON_SORT_KEYS=False,
    )
    app.config.from_pyfile("config.py", silent=True)
    if test_config:
        app.config.update(test_config)
    db.settle(Path(app.config["DATABASE"]))  # before anything is written into the folder
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(folder)

    from director.core import auth, contract, i18n, retries, web

    contract.init_app(app)  # before the blueprints: bounded ids in their routes
    db.init_app(app)
    retries.init_app(app)
    i18n.init_app(app)
    auth.init_app(app)
    web.init_app(app)
    for spec in BLUEPRINTS:
        app.register_blueprint(load_blueprint(spec))

    from director.core.caches import register_app_cache
    from director.core.polls import PollCache

    def clock() -> float:
        given = app.config.get("NOW")
        return float(given()) if callable(given) else time.time()

    app.wsgi_app = PollCache(app.wsgi_app, app.config["DATABASE"], clock)  # type: ignore[method-assign]
    app.extensions["poll_cache"] = app.wsgi_app
    register_app_cache(app, "polled answers", app.wsgi_app.clear)

    @app.get("/favicon.ico")
    def favicon() -> Any:
        """Browsers ask for /favicon.ico on pages without an icon link: send them to the SVG."""
        return redirect(url_for("static", filename="img/favicon.svg"), code=301)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    from director.club import autobackup

    autobackup.init_app(app)  # the copies ``serve`` asked for, made by this process's thread
    return app
