"""The seating pages: the tables page and its actions (htmx included), the move on the TV,
the print pages (seat cards, table signs, the clock, the moves) and the address setting.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext

from director.core import address
from director.core.auth import login_required
from director.core.contract import read
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.qr import qr_svg
from director.core.store import load_state
from director.core.web import act, now, render
from director.core.work import unit_of_work
from director.tables import ADDRESS_SETTING, MOVE_SHOWN_SECONDS, bp
from director.tables.commands import ACTIONS, run_action
from director.tables.links import current_address, public_base_url, stored_address
from director.tables.views import (
    first_blinds,
    move_history,
    print_context,
    seat_cards,
    table_plans,
    tables_context,
)


@bp.app_context_processor
def phone_address() -> dict[str, Any]:
    """``phone_base_url()`` for any template: the start of the addresses in the QR codes."""
    return {"phone_base_url": public_base_url}


MESSAGES = {
    "draw": lazy_gettext("Seats drawn."),
    "redraw": lazy_gettext("The final table is redrawn."),
    "confirm": lazy_gettext("Done: the moves are recorded."),
    "seat": lazy_gettext("Seated."),
    "swap": lazy_gettext("Swapped."),
    "lock": lazy_gettext("Seat locked for the draw."),
    "unlock": lazy_gettext("Lock removed."),
    "undo": lazy_gettext("Undone."),
}


def render_tables(tournament_id: int, **extra: Any) -> str:
    state = load_state(get_db(), tournament_id)
    return render("tables.html", "_tables.html", **tables_context(tournament_id, state, **extra))


@bp.get("/t/<int:tournament_id>/tables")
def tables(tournament_id: int) -> ResponseReturnValue:
    return render_tables(tournament_id)


@bp.post("/t/<int:tournament_id>/tables/<action>")
@login_required
def tables_action(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in ACTIONS:
        return render_tables(tournament_id, error=gettext("Unknown action %(action)s.", action=repr(action))), 404
    def do() -> None:
        run_action(tournament_id, action, read(ACTIONS[action][0]))

    return act(
        do,
        url_for("seating.tables", tournament_id=tournament_id),
        lambda **kw: render_tables(tournament_id, **kw),
        message=str(MESSAGES[action]),
    )


@bp.get("/t/<int:tournament_id>/tables/tv-moves")
def tv_moves(tournament_id: int) -> ResponseReturnValue:
    """The moves of the last minute, in large type, for the TV to show."""
    state = load_state(get_db(), tournament_id)
    recent = [m for m in move_history(state) if now() - m.at < MOVE_SHOWN_SECONDS]
    return render(
        "tables_tv_moves.html", "tables_tv_moves.html", tournament_id=tournament_id, moves=recent,
        waiting_moves=state.moves_waiting,
    )


@bp.get("/t/<int:tournament_id>/print/cards")
@login_required
def print_cards(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    only = request.args.getlist("player", type=int) or None
    context = print_context(tournament_id, state)
    if only:
        context["keep_args"] = {"player": ",".join(map(str, only))}
    return render(
        "print_cards.html",
        cards=seat_cards(state, only),
        starting_stack=state.settings.starting_stack,
        first_blinds=first_blinds(state),
        **context,
    )


@bp.get("/t/<int:tournament_id>/print/signs")
@login_required
def print_signs(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return render("print_signs.html", tables=table_plans(state), **print_context(tournament_id, state))


@bp.get("/t/<int:tournament_id>/print/clock")
@login_required
def print_clock(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    url = public_base_url() + _clock_path(tournament_id)
    return render("print_clock.html", url=url, qr=qr_svg(url, label=gettext("The clock")), **print_context(tournament_id, state))


def _clock_path(tournament_id: int) -> str:
    """The phone clock if the TV module offers one, else the TV page."""
    for endpoint in ("tv.phone", "tv.show", "tv.page"):
        if endpoint in current_app.view_functions:
            return url_for(endpoint, tournament_id=tournament_id)
    return url_for("seating.tables", tournament_id=tournament_id)


@bp.get("/t/<int:tournament_id>/print/moves")
@login_required
def print_moves(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    moves = move_history(state)
    since = request.args.get("since", type=int)
    if since is not None:
        moves = [m for m in moves if m.seq >= since]
    return render("print_moves.html", moves=moves, **print_context(tournament_id, state))


@bp.route("/settings/address", methods=["GET", "POST"])
@login_required
def address_setting() -> ResponseReturnValue:
    error = None
    notice = None
    if request.method == "POST":
        chosen = (request.form.get("custom") or request.form.get("address") or "").strip()
        if not address.is_valid_address(chosen):
            error = gettext("%(address)s is not an address: type an IP address such as 192.168.1.20.",
                            address=repr(chosen))
        else:
            with unit_of_work() as work:
                work.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (ADDRESS_SETTING, chosen))
            notice = gettext("QR codes now lead to %(url)s.", url=public_base_url())
            if not request.headers.get("HX-Request"):
                from flask import flash, redirect

                flash(notice, "ok")
                target = request.form.get("next") or ""
                safe = target.startswith("/") and not target.startswith("//")
                return redirect(target if safe else url_for("seating.address_setting"), code=303)
    context = {
        "candidates": address.candidate_addresses(),
        "current": current_address(),
        "stored": stored_address(),
        "base_url": public_base_url(),
        "error": error,
        "notice": notice,
        "next": request.values.get("next", ""),
    }
    return render("tables_address.html", "_lan_address.html", **context), 422 if error else 200
