"""The TV clock: the page that hangs on the wall all night, and the same clock sized for a phone.

The server says when the current level ends (or how long is left, when paused); ``tv.js`` draws
the countdown from that against a measured offset to the server's clock and re-fetches the
clock partial every 1.5 seconds (so a pause shows within two). The partial holds no state of
its own: it is a rendering of ``ClockView`` (``director.screens.clock_view``), built from the
tournament's events and ``now``.

Routes (blueprint ``tv``):

* ``GET /t/<id>/tv``: the TV page (read-only; with the director's session, the keyboard works);
* ``GET /t/<id>/tv/clock``: the clock partial the TV polls (cacheable for one second);
* ``GET /t/<id>/tv/phone``: the phone-sized clock (a partial for htmx, a small page otherwise);
* ``POST /t/<id>/tv/key``: a director's key on the TV (pause, resume, next, previous, +/- a minute);
* ``POST /t/<id>/tv/action-clock`` and ``.../action-clock/stop``: put a player on the clock;
* ``POST /t/<id>/tv/hand-for-hand``: hand for hand on or off.

The writes are registered commands (``director.screens.commands``; the keys run the night's
clock commands). The dashboard includes ``_tv_controls.html`` (the action clock and hand for
hand) for the director.

Other pages embed the phone clock with ``{% include "_tv_clock_phone.html" %}`` and
``clock=phone_clock(tournament_id)``.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import math
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from director.core import shapes
from director.core.auth import is_director, login_required, role_required
from director.core.caches import register_cache
from director.core.commands import Outcome, api_route, page_route, perform
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext, language
from director.core.polls import HEADER as POLL_HEADER
from director.core.polls import SERVER_NOW_HEADER, last_seq
from director.core.store import StaleWrite, UnknownTournament, load_state
from director.core.web import act_and_say, is_partial_request, now, values
from director.core.words import say
from director.night.answers import answer
from director.night.views import night_view
from director.screens import look as screens
from director.screens.clock_panels import SeasonPanel
from director.screens.clock_view import ClockView, build_clock_view
from director.screens.clock_words import ms
from director.screens.commands import (
    action_clock_command,
    action_clock_stop_command,
    hand_for_hand_command,
    hand_for_hand_form,
)
from engine.errors import EngineError, InvalidInput
from engine.structure import Structure, structure_to_dict
from engine.tournament import Tournament

# ---------------------------------------------------------------- routes

bp = Blueprint("tv", __name__)

#: The TV's keys, as the director's clock actions: (action, seconds).
KEY_ACTIONS: dict[str, tuple[str, int | None]] = {
    "start": ("start", None),
    "pause": ("pause", None),
    "resume": ("resume", None),
    "next": ("next_level", None),
    "previous": ("previous_level", None),
    "add_minute": ("add_time", 60),
    "remove_minute": ("add_time", -60),
}

#: The clock partial may be cached this long (seconds): several TVs and phones poll it.
CACHE_SECONDS = 1


def clock_view(tournament_id: int, *, phone: bool = False, at: float | None = None) -> ClockView:
    """The clock of tournament ``tournament_id`` now (inside a request)."""
    db = get_db()
    state = load_state(db, tournament_id)
    endpoint = "tv.phone" if phone else "tv.clock"
    when = now() if at is None else at
    season = None if phone or (state.started and not state.finished) else season_panel(db, tournament_id)
    return build_clock_view(state, tournament_id, when, url_for(endpoint, tournament_id=tournament_id), phone=phone,
                            season=season, chart_url="" if phone else chart_url(tournament_id, state.settings.structure))


SEASON_ROWS = 8


def season_panel(db: Any, tournament_id: int) -> SeasonPanel | None:
    """The standings of the season this tournament counts in, for the TV between tournaments."""
    row = db.execute("SELECT season_id FROM season_nights WHERE stream_id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    from director.club import seasons

    v = seasons.view(db, int(row[0]))
    rows = tuple((r.rank, v.names.get(r.person, "?"), gettext("%(points)s pts", points=format(r.points, "g")))
                 for r in v.rows[:SEASON_ROWS])
    return SeasonPanel(v.name, rows) if rows else None


def phone_clock(tournament_id: int) -> ClockView:
    """The phone-sized clock, for a page that includes ``_tv_clock_phone.html``."""
    return clock_view(tournament_id, phone=True)


def chart_url(tournament_id: int, structure: Structure) -> str:
    """The address of the structure's picture; it changes when the structure does."""
    return url_for("tv.structure_svg", tournament_id=tournament_id, v=f"{_digest(structure)}-{language()}")


@functools.lru_cache(maxsize=256)
def _digest(structure: Structure) -> str:
    return hashlib.sha256(json.dumps(structure_to_dict(structure), sort_keys=True).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=64)
def _chart(structure: Structure, language: str) -> str:
    """The picture in ``language`` (its words are the reader's; the cache keeps one per language)."""
    from director.screens.charts import structure_chart

    # Drawn in the dark theme's text colour; the light theme inverts the image.
    return str(structure_chart(structure, compact=True)).replace("<svg ", '<svg style="color:#f5f7fa" ', 1)


# ---------------------------------------------------------------- the poll, made cheap

SERVER_NOW_SLOT = 'data-server-now="0"'


class RenderedClocks:
    """Rendered clock partials, reused while the tournament has no new event, for up to a second.

    Every TV and phone polls every 1.5 seconds, so the clock partial is the app's busiest
    answer. A fresh rendering needs a database connection, the fold and a template; a reused
    one needs only the tournament's last sequence number, read on a connection this thread
    keeps open (read-only, one statement, no transaction left open), and the server's time
    written into the answer. A new event (pause, next level, a bust) changes the sequence
    number and so shows on the very next poll; the time shown is redrawn by the browser from
    the deadline, so text up to a second old is never seen.
    """

    def __init__(self, max_age: float = 1.0) -> None:
        self.max_age = max_age
        self._lock = threading.Lock()
        self._bodies: dict[tuple[str, int, bool, str], tuple[int, float, float, str]] = {}

    def get(self, key: tuple[str, int, bool, str], seq: int, at: float) -> tuple[int, float, str] | None:
        """``(seq, valid until, body)`` of the rendering kept for ``key``, if still good."""
        with self._lock:
            found = self._bodies.get(key)
        if found is None:
            return None
        stored_seq, rendered_at, valid_until, body = found
        if stored_seq != seq or not rendered_at <= at < min(valid_until, rendered_at + self.max_age):
            return None
        return stored_seq, valid_until, body

    def put(self, key: tuple[str, int, bool, str], seq: int, at: float, valid_until: float, body: str) -> None:
        with self._lock:
            self._bodies[key] = (seq, at, valid_until, body)

    def clear(self) -> None:
        with self._lock:
            self._bodies.clear()


rendered = RenderedClocks()
register_cache("rendered clocks", rendered.clear)
register_cache("structure digests", _digest.cache_clear)
register_cache("structure pictures", _chart.cache_clear)


def _valid_until(view: ClockView) -> float:
    """The rendering must not outlive what it shows: the end of the level, the action clock."""
    ends = [view.ends_at_ms / 1000] if view.ends_at_ms else []
    if view.action is not None:
        ends.append(view.action.deadline_ms / 1000)
    return min(ends, default=math.inf)


def clock_partial(tournament_id: int, *, phone: bool = False) -> str:
    """The clock partial's HTML now, from the cache when nothing has changed."""
    return _clock_rendering(tournament_id, phone)[0]


def _clock_rendering(tournament_id: int, phone: bool) -> tuple[str, int, float, float]:
    """The clock partial's HTML now, the seq it shows, until when it is right, and now."""
    database = current_app.config["DATABASE"]
    at = now()
    seq = last_seq(database, tournament_id)  # on the read-only connection the polls' cache keeps
    if seq is None:
        raise UnknownTournament(tournament_id)
    key = (database, tournament_id, phone, language())  # the words are the reader's
    found = rendered.get(key, seq, at)
    if found is None:
        view = clock_view(tournament_id, phone=phone, at=at)
        template = "_tv_clock_phone.html" if phone else "_tv_clock.html"
        body = render_template(template, clock=replace(view, server_now_ms=0))
        assert SERVER_NOW_SLOT in body
        found = (view.seq, _valid_until(view), body)
        rendered.put(key, view.seq, at, found[1], body)
    seq, valid_until, body = found
    return body.replace(SERVER_NOW_SLOT, f'data-server-now="{ms(at)}"', 1), seq, valid_until, at


def _cacheable(body: str) -> Response:
    """The poll's answer, gzipped for a browser that takes it: a TV polls 40 times a minute
    all night, and the partial shrinks to a third."""
    data = body.encode()
    response = Response(mimetype="text/html")
    if "gzip" in request.headers.get("Accept-Encoding", "") and len(data) > 600:
        data = gzip.compress(data, compresslevel=5, mtime=0)
        response.headers["Content-Encoding"] = "gzip"
    response.set_data(data)
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response


def _polled_clock(tournament_id: int, phone: bool) -> Response:
    """The clock every TV and phone polls, kept by the polls' cache (``director.core.polls``)
    for a second at most, as the rendering is (the time written in it, the announcements,
    flags and moves that come and go with the time), and less when the tournament has an
    event: the hundreds of phones of a club night that poll within that second are answered
    without the app, and a screen that asks again within it gets ``304``. The server's time
    is in a header (``X-Server-Now``), fresh on every answer, which the screens count from."""
    body, seq, valid_until, at = _clock_rendering(tournament_id, phone)
    response = _cacheable(body)
    response.headers[SERVER_NOW_HEADER] = str(ms(at))
    response.headers[POLL_HEADER] = f"{tournament_id} {seq} {min(valid_until, at + rendered.max_age)}"
    return response


@bp.get("/t/<int:tournament_id>/tv")
def page(tournament_id: int) -> ResponseReturnValue:
    """The TV page: full screen, no scrolling; the keyboard works for the director.

    ``?layout=…&theme=…&accent=…&title=…&show=…`` try a look without saving it (the TV
    settings page's live preview, which also passes ``preview=1``)."""
    saved = screens.look(get_db())
    preview = request.args.get("preview") == "1"
    look = screens.previewed(saved, request.args) if set(request.args) - {"preview"} else saved
    return render_template(
        "tv.html",
        clock=clock_view(tournament_id),
        tournament_id=tournament_id,
        director=is_director() and not preview,
        look=look,
        panels=screens.PANELS,
        preview=preview,
    )


@bp.get("/t/<int:tournament_id>/tv/structure.svg")
def structure_svg(tournament_id: int) -> ResponseReturnValue:
    """The structure's picture for the TV's information layout (kept a day: its address
    changes with the structure)."""
    structure = load_state(get_db(), tournament_id).settings.structure
    response = Response(_chart(structure, language()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@bp.get("/t/<int:tournament_id>/tv/clock")
def clock(tournament_id: int) -> ResponseReturnValue:
    """The clock partial that every TV polls."""
    return _polled_clock(tournament_id, False)


@bp.get("/t/<int:tournament_id>/tv/phone")
def phone(tournament_id: int) -> ResponseReturnValue:
    """The phone-sized clock: the partial for htmx, a small page of its own otherwise."""
    if is_partial_request():
        return _polled_clock(tournament_id, True)
    return render_template("tv_phone.html", clock=phone_clock(tournament_id), tournament_id=tournament_id)




# ---------------------------------------------------------------- the director's writes


@bp.post("/t/<int:tournament_id>/tv/key")
@login_required
def key(tournament_id: int) -> ResponseReturnValue:
    """A director's key on the TV: the same clock commands as the dashboard's buttons.

    Keys act on the clock as it is now (no sequence number), so that pressing ``+`` three
    times adds three minutes even between two polls.
    """
    name = str(values().get("action", ""))
    try:
        if name not in KEY_ACTIONS:
            raise InvalidInput("Unknown key action {name}: use one of {actions}.", name=repr(name),
                               actions=", ".join(KEY_ACTIONS))
        action, seconds = KEY_ACTIONS[name]
        perform(f"night.clock.{action}", {} if seconds is None else {"seconds": seconds}, tournament_id=tournament_id)
    except (EngineError, StaleWrite) as error:  # the TV shows the sentence for a moment
        return _refused(error)
    return jsonify(ok=True, action=name)


def _refused(error: EngineError | StaleWrite) -> ResponseReturnValue:
    """A refusal as JSON, in the reader's language: 409 for a stale write, else 422."""
    said = say(error) if isinstance(error, EngineError) else say(str(error))
    return jsonify(error=said), 409 if isinstance(error, StaleWrite) else 422


def controls(tournament_id: int, **extra: Any) -> str:
    """The director's TV controls (``_tv_controls.html``), as the dashboard includes them."""
    state = load_state(get_db(), tournament_id)
    return render_template("_tv_controls.html", t=night_view(state, tournament_id), tournament_id=tournament_id,
                           **extra)


def _controls_answer(do: Callable[[], Outcome[Tournament]], tournament_id: int) -> ResponseReturnValue:
    """A TV control's answer: ``{"ok": true}`` (or the refusal) for a JSON client, the controls
    with what the command said for htmx, a redirect to the dashboard otherwise."""
    if request.is_json:
        values()  # a body that is not a JSON object is refused as every page refuses it
        try:
            do()
        except (EngineError, StaleWrite) as error:
            return _refused(error)
        return jsonify(ok=True)
    return act_and_say(lambda: do().said or "", url_for("dashboard.show", tournament_id=tournament_id),
                       lambda **kw: controls(tournament_id, **kw))


page_route(bp, "/t/<int:tournament_id>/tv/action-clock", action_clock_command, _controls_answer,
           endpoint="action_clock_start")
page_route(bp, "/t/<int:tournament_id>/tv/action-clock/stop", action_clock_stop_command, _controls_answer,
           endpoint="action_clock_stop")


@bp.post("/t/<int:tournament_id>/tv/hand-for-hand")
@role_required  # the command says which roles may
def hand_for_hand(tournament_id: int) -> ResponseReturnValue:
    """Hand for hand on or off (``on``: true or false), shown on every TV (TDA RP-8); with
    ``next``, the next hand-for-hand hand begins. The page reads ``on`` as a form's tick, from
    a form or a JSON body alike (the API's body says true or false)."""
    data = hand_for_hand_form(values()) if request.is_json else None
    return _controls_answer(lambda: perform(hand_for_hand_command, data, tournament_id=tournament_id), tournament_id)


# ---------------------------------------------------------------- the same, as JSON under /api/

api = Api(bp, "tv")


def _state(_done: Outcome[Tournament], tournament_id: int) -> ResponseReturnValue:
    return answer(tournament_id)


api_route(api, "/api/t/<int:tournament_id>/action-clock", action_clock_command, _state, result=shapes.Tournament,
          endpoint="api_action_clock")
api_route(api, "/api/t/<int:tournament_id>/hand-for-hand", hand_for_hand_command, _state, result=shapes.Tournament,
          endpoint="api_hand_for_hand")
