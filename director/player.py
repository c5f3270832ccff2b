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
from werkzeug.wrappers import Response

from director.db import get_db
from director.events import UnknownTournament, load_state
from director.seating import MOVED_NOTICE_SECONDS, MoveRecord, move_history, player_tokens
from director.web import now
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


def find(token: str) -> Found | None:
    """The tournament and player a token belongs to, or ``None``."""
    if not TOKEN_SHAPE.match(token):
        return None
    db = get_db()
    marks = ", ".join("?" for _ in TOKEN_EVENT_TYPES)
    rows = db.execute(
        f"SELECT DISTINCT stream_id FROM events WHERE type IN ({marks}) AND instr(payload, ?) > 0 "
        "ORDER BY stream_id DESC",
        [*TOKEN_EVENT_TYPES, token],
    ).fetchall()
    for (tournament_id,) in rows:
        try:
            state = load_state(db, int(tournament_id))
        except UnknownTournament:
            continue
        for pid, known in player_tokens(state).items():
            if hmac.compare_digest(known, token):
                return Found(int(tournament_id), state, state.player(pid))
    return None



def last_move(state: Tournament, player_id: int) -> MoveRecord | None:
    moves = [m for m in move_history(state) if m.player_id == player_id]
    return moves[-1] if moves else None


def live_context(found: Found) -> dict[str, Any]:
    state, me = found.state, found.player
    move = last_move(state, me.id)
    moved_recently = move is not None and not me.out and now() - move.at < MOVED_NOTICE_SECONDS
    places = state.places()
    provisional = state.provisional_places()
    place = places.get(me.id) or provisional.get(me.id)
    kind = state.settings.payout_kind
    prizes = state.prizes
    points = state.points() if kind == "points" else {}
    finishers = sorted(
        ((p, places.get(p.id) or provisional.get(p.id)) for p in state.players if p.out or p.id in places),
        key=lambda pair: pair[1] or 10**6,
    )
    still_in = sorted(
        (p for p in state.alive if p.id not in places or places.get(p.id) == 1), key=lambda p: p.name.casefold()
    )
    return {
        "token_tournament": found.tournament_id,
        "t": state,
        "me": me,
        "move": move,
        "moved_recently": moved_recently,
        "place": place,
        "place_text": ordinal(place) if place else "",
        "prizes": list(enumerate(prizes, start=1)),
        "points": points,
        "payout_kind": kind,
        "finishers": [(p, ordinal(pl) if pl else "") for p, pl in finishers],
        "still_in": still_in,
        "ordinal": ordinal,
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
    body = render_template(
        "player.html", token=token, clock=clock, has_clock=clock is not None, oob=False, **live_context(found)
    )
    return _private(Response(body, mimetype="text/html"))


@bp.get("/p/<token>/live")
def live(token: str) -> ResponseReturnValue:
    found = find(token)
    if found is None:
        return _invalid()
    has_clock = "tv.phone" in current_app.view_functions
    body = render_template("_player_live.html", token=token, has_clock=has_clock, oob=True, **live_context(found))
    return _private(Response(body, mimetype="text/html"))
