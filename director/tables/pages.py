"""The tables' pages. Blueprint ``seating``: the tables page and its actions (htmx included),
the move on the TV, the print pages (seat cards, table signs, the clock, the moves) and the
address setting. Blueprint ``dealer``: the dealer's page at each table (``GET
/t/<id>/table/<n>``, its panel polled at ``.../panel?v=<version>``, 204 while it is as the phone holds it),
its commands (``POST .../<word>``, ``hand.<word>`` in ``director.tables.commands``), the
table's hand history and its PHH exports.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext

from director.core import address
from director.core.auth import login_required, role_required
from director.core.commands import perform
from director.core.db import get_db
from director.core.freshness import poll_answer, version
from director.core.i18n import gettext
from director.core.qr import qr_svg
from director.core.roles import DEALER
from director.core.store import load_authors, load_state
from director.core.web import act, is_partial_request, now, render
from director.core.words import chips as _amount
from director.core.words import say
from director.night.views import night_view
from director.tables.commands import HAND_COMMANDS
from director.tables.hand_history import _hand_summary, _phh
from director.tables.hand_view import _names, table_view
from director.tables.links import address_command, current_address, public_base_url, stored_address
from director.tables.phones import links_view
from director.tables.views import (
    ACCIDENTS,
    first_blinds,
    move_history,
    print_context,
    seat_cards,
    table_plans,
    tables_context,
    tv_move_groups,
)
from engine.errors import InvalidInput

bp = Blueprint("seating", __name__)
dealer = Blueprint("dealer", __name__)


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
    context = tables_context(tournament_id, state)
    return render("tables.html", "_tables.html", poll_version=version("tables", context), **context, **extra)


@bp.get("/t/<int:tournament_id>/tables")
def tables(tournament_id: int) -> ResponseReturnValue:
    """The tables page; its live part polls it with the version it holds (``?v=``): ``204``
    while the part is as it is now (``director.core.freshness``)."""
    if not is_partial_request():
        return render_tables(tournament_id)
    state = load_state(get_db(), tournament_id)
    context = tables_context(tournament_id, state)
    return poll_answer("tables", state.seq, context, lambda held: render_template(
        "_tables.html", poll_version=held, **context))


@bp.post("/t/<int:tournament_id>/tables/<action>")
@role_required  # the command says which roles may
def tables_action(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in MESSAGES:
        return render_tables(tournament_id, error=gettext("Unknown action %(action)s.", action=repr(action))), 404

    def do() -> None:
        perform(f"tables.{action}", tournament_id=tournament_id)

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
    return render("tables_tv_moves.html", "tables_tv_moves.html", tournament_id=tournament_id,
                  moves=tv_move_groups(state, now()))


@bp.get("/t/<int:tournament_id>/print/cards")
@login_required
def print_cards(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    only = request.args.getlist("player", type=int) or None
    context = print_context(tournament_id, state)
    if only:
        context["keep_args"] = {"player": ",".join(map(str, only))}
    if not only:  # the whole night's cards: each table's tent with its dealer's code
        context["codes"] = {v.table: v for v in links_view(tournament_id) if v.kind == DEALER}
        context["tables"] = [t for t in table_plans(state) if t.number in context["codes"]]
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
    codes = {v.table: v for v in links_view(tournament_id) if v.kind == DEALER}  # the dealer's phone scans it
    return render("print_signs.html", tables=table_plans(state), codes=codes, **print_context(tournament_id, state))


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
        try:
            perform(address_command)
        except InvalidInput as refused:
            error = say(refused)
        else:
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


# --- the dealer's assistant ----------------------------------------------------------------------


def panel_views(tournament_id: int, table: int) -> tuple[int, dict[str, Any]]:
    """What the dealer's panel reads: the table's view and the night's (``v`` and ``t``), and
    the seq they were built at."""
    state = load_state(get_db(), tournament_id)
    return state.seq, {"v": table_view(state, tournament_id, table, now()), "t": night_view(state, tournament_id)}


def render_panel(tournament_id: int, table: int, **extra: Any) -> str:
    _, views = panel_views(tournament_id, table)
    return render("dealer.html", "_dealer_table.html", poll_version=version("dealer", views),
                  tournament_id=tournament_id, **views, **ACCIDENTS, **extra)


@dealer.get("/t/<int:tournament_id>/table/<int:table>")
def page(tournament_id: int, table: int) -> ResponseReturnValue:
    return render_panel(tournament_id, table)


@dealer.get("/t/<int:tournament_id>/table/<int:table>/panel")
def panel(tournament_id: int, table: int) -> ResponseReturnValue:
    """The panel's poll: ``204`` while the panel the phone holds is the panel as it is now
    (``director.core.freshness``), else the panel."""
    seq, views = panel_views(tournament_id, table)
    return poll_answer("dealer", seq, views, lambda held: render_template(
        "_dealer_table.html", poll_version=held, tournament_id=tournament_id, **views, **ACCIDENTS))


@dealer.post("/t/<int:tournament_id>/table/<int:table>/<action>")
@role_required  # the command says which roles may
def table_action(tournament_id: int, table: int, action: str) -> ResponseReturnValue:
    if action not in HAND_COMMANDS:
        abort(404)
    notices: list[str] = []

    def do() -> None:
        message = perform(f"hand.{action}", tournament_id=tournament_id, table=table).said
        if message:
            notices.append(message)
            if not is_partial_request():
                flash(message, "ok")

    def rerender(error: str | None = None, notice: str | None = None) -> str:
        # A refused entry comes back as typed, so the dealer only fixes what was wrong.
        typed = {**request.form.to_dict(), "action": action} if error and not request.is_json else {}
        return render_panel(
            tournament_id, table, error=error, notice=notice or (notices[0] if notices else None), typed=typed
        )

    return act(do, url_for("dealer.page", tournament_id=tournament_id, table=table), rerender)


@dealer.get("/t/<int:tournament_id>/table/<int:table>/history")
def history(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    authors = load_authors(get_db(), tournament_id)
    hands = [_hand_summary(state, h, authors) for h in reversed(state.dealing.at_table(table))]
    names = _names(state)
    corrections = [
        f"{names.get(c.player, '?')}: {_amount(c.before)} → {_amount(c.after)} ({c.reason})"
        for c in state.dealing.corrections
    ]
    return render(
        "dealer_history.html", None, t=night_view(state, tournament_id), tournament_id=tournament_id, table=table,
        hands=hands, corrections=corrections,
    )


@dealer.get("/t/<int:tournament_id>/table/<int:table>/hands.phhs")
def export_all(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    parts = [f"[{h.number}]\n{_phh(h)}" for h in state.dealing.at_table(table) if h.finished]
    response = Response("\n".join(parts), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table}.phhs"'
    return response


@dealer.get("/t/<int:tournament_id>/table/<int:table>/hand/<int:number>.phh")
def export_one(tournament_id: int, table: int, number: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    record = next((h for h in state.dealing.at_table(table) if h.number == number), None)
    if record is None:
        abort(404)
    response = Response(_phh(record), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table}-hand-{number}.phh"'
    return response
