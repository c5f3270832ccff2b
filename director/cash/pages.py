"""The cash game's HTML routes (htmx partials included): sessions, the club, the night,
its summary and ledger, and the dealer's table page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from director.cash import UnknownSession
from director.cash.commands import CLUB_COMMANDS, SESSION_COMMANDS, TABLE_COMMANDS
from director.cash.store import load_session, session_rows
from director.cash.views import (
    STAKE_VIEWS,
    cash_session_view,
    cash_table_view,
    club_context,
    hand_lines,
    ledger_rows,
    session_context,
    summary_data,
    table_context,
)
from director.core.auth import login_required, role_required
from director.core.commands import REGISTRY, Command, perform
from director.core.db import get_db
from director.core.freshness import poll_answer, version
from director.core.i18n import gettext
from director.core.spreadsheets import csv_response
from director.core.web import (
    act,
    error_page,
    is_partial_request,
    now,
    render,
    values,
)
from director.core.words import say
from director.setup.views import dealt_game_views
from engine.cash import NEWCOMER_RULES
from engine.errors import EngineError, InvalidInput
from engine.hand import Hand
from engine.phh import write_phh

bp = Blueprint("cash", __name__)


@bp.app_errorhandler(UnknownSession)  # the phones' pages and links of a cash night too
def unknown_session(error: UnknownSession) -> ResponseReturnValue:
    return error_page(404, gettext("No such cash game"),
                      gettext("There is no cash session number %(number)s.", number=error.session_id))


def _command(prefix: str, action: str, known: tuple[str, ...]) -> Command:
    """The registered command a page's ``action`` names (404 for any other word)."""
    if action not in known:
        abort(404)
    return REGISTRY[f"{prefix}.{action}"]


def _session_page(session_id: int, **extra: Any) -> str:
    return render("cash_session.html", "_cash_session.html", **session_context(session_id, **extra))


def _club_page(**extra: Any) -> str:
    return render("cash_club.html", "_cash_club.html", **club_context(**extra))


def _run(
    do: Callable[[], str], redirect_to: str, rerender: Callable[..., str]
) -> ResponseReturnValue:
    notices: list[str] = []

    def run() -> None:
        message = do()
        if message:
            notices.append(message)
            if not is_partial_request():
                flash(message, "ok")

    def again(error: str | None = None, notice: str | None = None) -> str:
        return rerender(error=error, notice=notice or (notices[0] if notices else None))

    return act(run, redirect_to, again)


@bp.get("/cash")
def index() -> ResponseReturnValue:
    db = get_db()
    rows = []
    for row in session_rows(db):
        state = load_session(db, int(row["id"]))
        rows.append(
            {"row": row, "state": cash_session_view(state), "seated": sum(len(t.players) for t in state.tables)}
        )
    return render("cash.html", None, sessions=rows, stakes=STAKE_VIEWS, games=dealt_game_views(), newcomer_rules=NEWCOMER_RULES)


@bp.post("/cash")
@login_required
def create() -> ResponseReturnValue:
    data = values()
    try:
        session_id = perform("cash.open")
    except EngineError as error:
        db = get_db()
        rows = [
            {"row": r, "state": cash_session_view(load_session(db, int(r["id"]))), "seated": 0}
            for r in session_rows(db)
        ]
        page = render(
            "cash.html",
            None,
            sessions=rows,
            stakes=STAKE_VIEWS,
            games=dealt_game_views(),
            newcomer_rules=NEWCOMER_RULES,
            error=say(error),
            form=data,
        )
        return page, 422
    return Response(status=303, headers={"Location": url_for("cash.show", session_id=session_id)})


@bp.get("/cash/club")
def club() -> ResponseReturnValue:
    return _club_page()


@bp.post("/cash/club/<action>")
@login_required
def club_post(action: str) -> ResponseReturnValue:
    cmd = _command("cash.club", action, CLUB_COMMANDS)
    data = values()

    def again(**kw: Any) -> str:
        # A refused new member comes back as typed, to be corrected rather than retyped.
        typed = data if kw.get("error") and action == "member" else {}
        return _club_page(typed=typed, **kw)

    return _run(lambda: perform(cmd).said, url_for("cash.club"), again)


@bp.get("/cash/<int:session_id>")
def show(session_id: int) -> ResponseReturnValue:
    since = request.args.get("since", "")
    if (
        is_partial_request()
        and since.isdigit()
        and int(since) == load_session(get_db(), session_id).seq
    ):
        return Response(status=204)
    return _session_page(session_id)


@bp.post("/cash/<int:session_id>/<action>")
@login_required
def session_post(session_id: int, action: str) -> ResponseReturnValue:
    cmd = _command("cash", action, SESSION_COMMANDS)
    data = values()

    def again(**kw: Any) -> str:
        # A refused buy-in comes back as typed (member, seat, amount), never on someone else.
        typed = data if kw.get("error") and action == "sit" else {}
        return _session_page(session_id, typed=typed, **kw)

    return _run(
        lambda: perform(cmd, session_id=session_id).said,
        url_for("cash.show", session_id=session_id),
        again,
    )


@bp.get("/cash/<int:session_id>/summary")
def summary(session_id: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    return render(
        "cash_summary.html", None, t=cash_session_view(state), session_id=session_id, s=summary_data(state, now())
    )


@bp.get("/cash/<int:session_id>/ledger.csv")
def ledger_csv(session_id: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    slug = "".join(c if c.isalnum() else "-" for c in state.name.lower()).strip("-") or "cash"
    return csv_response(ledger_rows(state, now()), f"{slug}-ledger.csv")


def _table_page(session_id: int, table_no: int, **extra: Any) -> str:
    context = table_context(session_id, table_no)
    return render("cash_table.html", "_dealer_table.html", poll_version=version("cash table", context), **context,
                  **extra)


@bp.get("/cash/<int:session_id>/table/<int:table_no>")
def table_page(session_id: int, table_no: int) -> ResponseReturnValue:
    return _table_page(session_id, table_no)


@bp.get("/cash/<int:session_id>/table/<int:table_no>/panel")
def table_panel(session_id: int, table_no: int) -> ResponseReturnValue:
    """The panel's poll: ``204`` while the phone holds the panel as it is now
    (``director.core.freshness``), else the panel."""
    context = table_context(session_id, table_no)
    return poll_answer("cash table", context["t"].seq, context, lambda held: render_template(
        "_dealer_table.html", poll_version=held, **context))


@bp.get("/cash/<int:session_id>/table/<int:table_no>/history")
def table_history(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    return render(
        "cash_history.html",
        None,
        t=cash_session_view(state),
        session_id=session_id,
        table=cash_table_view(table),
        hands=hand_lines(state, table),
        base=url_for("cash.table_page", session_id=session_id, table_no=table.number),
    )


def _phh_of(hand: Hand) -> str:
    """The hand in PHH, or a comment saying why the standard cannot hold its game."""
    try:
        return write_phh(hand)
    except InvalidInput as error:
        return f"# {say(error)}\n"


def _phh_response(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/cash/<int:session_id>/table/<int:table_no>/hands.phhs")
def table_phhs(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    parts = [f"[{h.number}]\n{_phh_of(h.replay())}" for h in state.hands if h.table == table.number]
    return _phh_response("\n".join(parts), f"cash-{session_id}-table-{table.number}.phhs")


@bp.get("/cash/<int:session_id>/table/<int:table_no>/hand/<int:number>.phh")
def table_phh(session_id: int, table_no: int, number: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    record_ = next((h for h in state.hands if h.number == number and h.table == table_no), None)
    if record_ is None:
        abort(404)
    return _phh_response(_phh_of(record_.replay()), f"cash-{session_id}-hand-{number}.phh")


@bp.post("/cash/<int:session_id>/table/<int:table_no>/<action>")
@role_required  # the command says which roles may
def table_post(session_id: int, table_no: int, action: str) -> ResponseReturnValue:
    cmd = _command("cash.table", action, TABLE_COMMANDS)
    return _run(
        lambda: perform(cmd, session_id=session_id, table_no=table_no).said,
        url_for("cash.table_page", session_id=session_id, table_no=table_no),
        lambda **kw: _table_page(session_id, table_no, **kw),
    )
