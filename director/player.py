"""The player's page, opened from the QR code on a seat card: no login, read-only.

``GET /p/<token>`` shows the player's table and seat (with a big notice after a move), the
clock as on the TV, players left, the player's place once out, the payouts or points and the
standings; ``GET /p/<token>/live`` is the part that refreshes itself. The token is the
player's, not the seat's, so the card keeps working after every move. A wrong or expired
token gets a friendly page. Nothing here shows another player's token or any control.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response

from director.db import get_db
from director.events import UnknownTournament, load_state
from director.polls import HEADER
from director.seating import MOVED_NOTICE_SECONDS
from director.seating.views import MoveRecord, move_history, player_tokens
from director.views import mystery_view
from director.web import now
from engine.bounties import bounties
from engine.dealing import TABLE_EVENT_TYPES
from engine.text import ordinal
from engine.tournament import EVENT_TYPES, Player, Tournament

#: The events that may carry a player's token: every type but the hands (see ``Tournament.tokens``).
TOKEN_EVENT_TYPES = tuple(t for t in EVENT_TYPES if t not in TABLE_EVENT_TYPES)

bp = Blueprint("player", __name__)

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclass(frozen=True)
class Found:
    tournament_id: int
    state: Tournament
    player: Player


_token_streams: dict[tuple[str, str], int] = {}
"""``(database, token) -> tournament id``: a token never moves, so it is looked up once."""


def find(token: str) -> Found | None:
    """The tournament and player a token belongs to, or ``None``."""
    if not TOKEN_SHAPE.match(token):
        return None
    db = get_db()
    key = (current_app.config["DATABASE"], token)
    known_stream = _token_streams.get(key)
    if known_stream is not None:
        candidates = [known_stream]
    else:
        marks = ", ".join("?" for _ in TOKEN_EVENT_TYPES)
        rows = db.execute(
            f"SELECT DISTINCT stream_id FROM events WHERE type IN ({marks}) AND instr(payload, ?) > 0 "
            "ORDER BY stream_id DESC",
            [*TOKEN_EVENT_TYPES, token],
        ).fetchall()
        candidates = [int(row[0]) for row in rows]
    for tournament_id in candidates:
        try:
            state = load_state(db, tournament_id)
        except UnknownTournament:
            continue
        for pid, known in player_tokens(state).items():
            if hmac.compare_digest(known, token):
                _token_streams[key] = tournament_id
                return Found(tournament_id, state, state.player(pid))
    _token_streams.pop(key, None)  # an undone registration
    return None


@dataclass(frozen=True)
class Field:
    """What every player's page shows alike at one seq: computed, and the standings
    rendered, once per seq for all the phones that poll (not once per phone)."""

    seq: int
    places: dict[int, int]
    provisional: dict[int, int]
    last_moves: dict[int, MoveRecord]
    context: dict[str, Any]
    standings: dict[bool, str]


_fields: dict[tuple[str, int], Field] = {}


def field_of(found: Found) -> Field:
    key = (current_app.config["DATABASE"], found.tournament_id)
    known = _fields.get(key)
    state = found.state
    if known is not None and known.seq == state.seq:
        return known
    places = state.places()
    provisional = state.provisional_places()
    kind = state.settings.payout_kind
    finishers = sorted(
        ((p, places.get(p.id) or provisional.get(p.id)) for p in state.players if p.out or p.id in places),
        key=lambda pair: pair[1] or 10**6,
    )
    still_in = sorted(
        (p for p in state.alive if p.id not in places or places.get(p.id) == 1), key=lambda p: p.name.casefold()
    )
    last_moves: dict[int, MoveRecord] = {}
    for move in move_history(state):
        last_moves[move.player_id] = move
    context = {
        "token_tournament": found.tournament_id,
        "t": state,
        "prizes": list(enumerate(state.prizes, start=1)),
        "bounties": bounties(state),
        "mystery": mystery_view(state),
        "points": state.points() if kind == "points" else {},
        "payout_kind": kind,
        "finishers": [(p, ordinal(pl) if pl else "") for p, pl in finishers],
        "still_in": still_in,
        "ordinal": ordinal,
    }
    field = Field(state.seq, places, provisional, last_moves, context, {})
    _fields[key] = field
    return field


def standings_html(field: Field, me: Player, has_clock: bool, oob: bool) -> Markup:
    """The standings, rendered once per seq; the player's own line marked for each phone."""
    key = (has_clock, oob)
    html = field.standings.get(key)
    if html is None:
        html = render_template("_player_standings.html", has_clock=has_clock, oob=oob, **field.context)
        field.standings[key] = html
    mark = f'<li data-player="{me.id}">'
    return Markup(html.replace(mark, f'<li data-player="{me.id}" class="me">', 1))



def live_context(found: Found, has_clock: bool, oob: bool) -> dict[str, Any]:
    field = field_of(found)
    me = found.player
    move = field.last_moves.get(me.id)
    moved_recently = move is not None and not me.out and now() - move.at < MOVED_NOTICE_SECONDS
    place = field.places.get(me.id) or field.provisional.get(me.id)
    return {
        **field.context,
        "me": me,
        "move": move,
        "moved_recently": moved_recently,
        "place": place,
        "place_text": ordinal(place) if place else "",
        "has_clock": has_clock,
        "oob": oob,
        "standings": standings_html(field, me, has_clock, oob),
    }


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _invalid() -> ResponseReturnValue:
    return _private(Response(render_template("player_invalid.html"), status=404, mimetype="text/html"))


def _phone_clock(tournament_id: int) -> Any:
    if "tv.phone" not in current_app.view_functions:
        return None
    from director.tv import phone_clock

    return phone_clock(tournament_id)


@bp.get("/p/<token>")
def page(token: str) -> ResponseReturnValue:
    found = find(token)
    if found is None:
        return _invalid()
    clock = _phone_clock(found.tournament_id)
    body = render_template("player.html", token=token, clock=clock, **live_context(found, clock is not None, False))
    return _private(Response(body, mimetype="text/html"))


@bp.get("/p/<token>/live")
def live(token: str) -> ResponseReturnValue:
    found = find(token)
    if found is None:
        return _invalid()
    has_clock = "tv.phone" in current_app.view_functions
    context = live_context(found, has_clock, True)
    body = render_template("_player_live.html", token=token, **context)
    response = _private(Response(body, mimetype="text/html"))
    # The same answer until the next event (or until the move notice is due to go):
    # the polls in between are answered by ``director.polls`` without the app.
    move = context["move"]
    until = move.at + MOVED_NOTICE_SECONDS if context["moved_recently"] else now() + 60
    response.headers[HEADER] = f"{found.tournament_id} {found.state.seq} {until}"
    return response
