"""The phones that work at the tables without the director's password: a link per table for
its dealer and a link for the floor, each opened by scanning its QR code (``/l#<token>``).

The director makes and renews the links (``tables.link``: the old one stops at once), ends
them all with one button (``tables.links_end``), and sees which phones opened each. A table's
link stops working when the table breaks (the phone is told where its players went) and every
link ends with the tournament. The roles themselves are ``director.core.roles``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from flask import Blueprint, Response, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from pydantic import Field

from director.core import roles
from director.core.auth import director_required, is_director, login_required
from director.core.commands import Call, command, perform
from director.core.contract import Write
from director.core.db import get_db
from director.core.freshness import held_version, not_changed, version
from director.core.i18n import gettext, ngettext
from director.core.qr import qr_svg
from director.core.roles import CASH_DEALER, DEALER, FLOOR, Link, judge_links_with
from director.core.store import UnknownTournament, load_state
from director.core.web import flash_and_go, now, render
from director.core.words import say
from director.core.work import Work, unit_of_work
from director.tables.links import public_base_url
from engine.errors import IllegalAction, Message
from engine.seat_events import where_they_went

bp = Blueprint("phones", __name__)

PHONES_SHOWN = 5
"""The phones listed under each link (the latest first)."""


class LinkIn(Write):
    """Make a link, or renew it: a table's dealer's (``table``) or the floor's."""

    kind: Literal["dealer", "floor"] = Field(title="role", description="dealer (a table's phone) or floor")
    table: Annotated[int, Field(ge=1, le=200)] | None = Field(
        None, title="table", description="The table whose dealer's link this is (a dealer's link only).")


def _tournament_id(call: Call) -> int:
    return int(call.ids["tournament_id"])


@command("tables.link", LinkIn, "Make or renew a table's dealer's link or the floor's (the old link stops at once)")
def link_command(work: Work, call: Call, data: LinkIn) -> str:
    """The new link's token; the link it replaces is ended."""
    tid = _tournament_id(call)
    state = load_state(call.db, tid)
    if state.finished:
        raise IllegalAction("The tournament is over: its links have ended.")
    table = data.table if data.kind == DEALER else None
    if data.kind == DEALER and (table is None or table not in state.tables_in_play):
        raise IllegalAction("There is no table {table} in play: draw the seats first.", table=table or 0)
    work.execute("UPDATE links SET ended_at = ?, ended_why = 'renewed' WHERE stream_id = ? AND kind = ? "
                 "AND table_no IS ? AND ended_at IS NULL", (call.now, tid, data.kind, table))
    return roles.new_link(work.execute, data.kind, tid, table, call.now)


@command("tables.links_all", Write, "Make a dealer's link for every table in play that has none")
def links_all_command(work: Work, call: Call, data: Write) -> list[int]:
    """The tables given a link."""
    tid = _tournament_id(call)
    state = load_state(call.db, tid)
    if state.finished:
        raise IllegalAction("The tournament is over: its links have ended.")
    open_links = [roles.Link(*row) for row in work.execute(
        f"SELECT {roles.LINK_COLUMNS} FROM links WHERE stream_id = ? AND kind = 'dealer' AND ended_at IS NULL",
        (tid,)).fetchall()]
    # A link made under another secret key (the night carried on a second laptop from a copy)
    # shows no code on this laptop's Phones page: it is renewed with the others.
    for link in open_links:
        if not link.token:
            work.execute("UPDATE links SET ended_at = ?, ended_why = 'renewed' WHERE id = ?", (call.now, link.id))
    linked = {link.table for link in open_links if link.token}
    made = [t for t in sorted(state.seating.tables) if t not in linked]
    for table in made:
        roles.new_link(work.execute, DEALER, tid, table, call.now)
    return made


class CashLinkIn(Write):
    """A cash table's dealer's link, made or renewed; without ``table``, one for every table
    that has none."""

    table: Annotated[int, Field(ge=1, le=200)] | None = Field(
        None, title="table", description="The cash table (leave it out: every table without a link).")


@command("cash.link", CashLinkIn, "Make or renew a cash table's dealer's link (the old one stops at once); "
         "without a table, one for every table that has none", roles=(roles.DIRECTOR,))
def cash_link_command(work: Work, call: Call, data: CashLinkIn) -> list[int]:
    """The tables given a new link."""
    from director.cash.store import load_session

    sid = int(call.ids["session_id"])
    tables = [t.number for t in load_session(call.db, sid).tables]
    if data.table is not None and data.table not in tables:
        raise IllegalAction("There is no table {table} in this session.", table=data.table)
    if data.table is not None:
        work.execute("UPDATE links SET ended_at = ?, ended_why = 'renewed' WHERE stream_id = ? AND kind = ? "
                     "AND table_no = ? AND ended_at IS NULL", (call.now, sid, CASH_DEALER, data.table))
        made = [data.table]
    else:
        linked = {row[0] for row in work.execute(
            "SELECT table_no FROM links WHERE stream_id = ? AND kind = ? AND ended_at IS NULL", (sid, CASH_DEALER))}
        made = [t for t in tables if t not in linked]
    for table in made:
        roles.new_link(work.execute, CASH_DEALER, sid, table, call.now)
    return made


@command("tables.links_end", Write, "End every link of the tournament (the dealers' and the floor's) at once")
def links_end_command(work: Work, call: Call, data: Write) -> int:
    """How many links were ended."""
    cursor = work.execute("UPDATE links SET ended_at = ?, ended_why = 'ended' WHERE stream_id = ? AND ended_at IS NULL",
                          (call.now, _tournament_id(call)))
    return cursor.rowcount


@command("cash.links_end", Write, "End every dealer's link of the cash session at once", roles=(roles.DIRECTOR,))
def cash_links_end_command(work: Work, call: Call, data: Write) -> int:
    """How many links were ended."""
    cursor = work.execute("UPDATE links SET ended_at = ?, ended_why = 'ended' WHERE stream_id = ? AND kind = ? "
                          "AND ended_at IS NULL", (call.now, int(call.ids["session_id"]), CASH_DEALER))
    return cursor.rowcount


# --- whether a link still works ------------------------------------------------------------------------


def _judge(link: Link) -> str | None:
    """A link stops with its tournament; a table's link when the table has broken (once the
    hand it was playing when its players got new seats is over), saying where they went."""
    if link.kind == CASH_DEALER:
        return _judge_cash(link)
    try:
        state = load_state(get_db(), link.stream)
    except UnknownTournament:
        return Message("This tournament no longer exists.")
    if state.finished:
        return Message("The tournament is over: thank you for dealing.")
    if link.kind == DEALER and link.table not in state.tables_in_play:
        left = sorted(state.seating.tables)
        places = where_they_went(state, link.table)
        if places and len(left) == 1:
            return Message("Table {table} has broken: {places}. The final table is table {final}; its dealer's "
                           "phone has its own link.", table=link.table, places=places, final=left[0])
        if places:
            return Message("Table {table} has broken: {places}. Ask the director for another table's link if "
                           "this phone should deal there.", table=link.table, places=places)
        if len(left) == 1:
            return Message("Table {table} has broken: its players moved. The final table is table {final}; "
                           "its dealer's phone has its own link.", table=link.table, final=left[0])
        return Message("Table {table} has broken: its players moved to other tables. Ask the director for "
                       "another table's link if this phone should deal there.", table=link.table)
    return None


def _judge_cash(link: Link) -> str | None:
    from director.cash.store import load_session

    try:
        session_state = load_session(get_db(), link.stream)
    except LookupError:
        return Message("This cash session no longer exists.")
    if link.table not in {t.number for t in session_state.tables}:
        return Message("Cash table {table} is not in this session any more.", table=link.table)
    return None


judge_links_with(_judge)


# --- the links as the director sees them -----------------------------------------------------------------


@dataclass(frozen=True)
class PhoneView:
    agent: str
    first_at: float
    last_at: float


@dataclass(frozen=True)
class LinkView:
    kind: str
    table: int | None
    title: str
    url: str
    qr: str
    created_at: float
    phones: tuple[PhoneView, ...]


def _phones(link_id: int) -> tuple[PhoneView, ...]:
    rows = get_db().execute("SELECT agent, first_at, last_at FROM link_phones WHERE link_id = ? "
                            "ORDER BY last_at DESC LIMIT ?", (link_id, PHONES_SHOWN)).fetchall()
    return tuple(PhoneView(agent_words(r[0]), r[1], r[2]) for r in rows)


def agent_words(agent: str) -> str:
    """A phone as the director recognises it: ``iPhone · Safari``, ``Android · Chrome``."""
    device = next((name for key, name in (("iPad", "iPad"), ("iPhone", "iPhone"), ("Android", "Android"),
                                          ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux"))
                   if key in agent), gettext("a device"))
    browser = next((name for key, name in (("Firefox", "Firefox"), ("Edg", "Edge"), ("Chrome", "Chrome"),
                                           ("Safari", "Safari")) if key in agent), "")
    return f"{device} · {browser}" if browser else device


def link_url(token: str) -> str:
    """The address a link's QR code carries: the token in the fragment (after ``#``), which a
    browser never sends to the server, so no access log records it."""
    return public_base_url() + url_for("phones.open_link") + "#" + token


def links_view(stream_id: int, cash: bool = False) -> list[LinkView]:
    """The working links of a tournament (the floor's, then each table's dealer's) or of a
    cash session (each table's dealer's)."""
    kinds = (CASH_DEALER,) if cash else (DEALER, FLOOR)
    rows = get_db().execute(
        f"SELECT {roles.LINK_COLUMNS} FROM links "
        "WHERE stream_id = ? AND kind IN (?, ?) AND ended_at IS NULL ORDER BY kind DESC, table_no",
        [stream_id, kinds[0], kinds[-1]]).fetchall()
    out = []
    for row in rows:
        link = Link(*row)
        if roles.link_refusal(link) is not None or not link.token:
            continue  # ended, or made under another secret key (a backup from another laptop): renew it
        title = (gettext("The floor") if link.kind == FLOOR
                 else gettext("Table %(table)s's dealer", table=link.table))
        url = link_url(link.token)
        out.append(LinkView(link.kind, link.table, title, url, str(qr_svg(url, label=title)), link.created_at,
                            _phones(link.id)))
    return out


def phones_context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    links = links_view(tournament_id)
    linked = {v.table for v in links if v.kind == DEALER}
    return {"tournament_id": tournament_id, "tournament_name": state.name, "links": links,
            "floor": next((v for v in links if v.kind == FLOOR), None),
            "tables_without": [t for t in sorted(state.seating.tables) if t not in linked],
            "finished": state.finished, **extra}


# --- pages ---------------------------------------------------------------------------------------------


@bp.get("/t/<int:tournament_id>/phones")
@director_required
def page(tournament_id: int) -> ResponseReturnValue:
    return render("tables/phones.html", None, **phones_context(tournament_id))


@bp.post("/t/<int:tournament_id>/phones")
@login_required
def make(tournament_id: int) -> ResponseReturnValue:
    kind = request.form.get("kind", "")
    try:
        perform(link_command, {"kind": kind, "table": request.form.get("table") or None},
                tournament_id=tournament_id)
    except IllegalAction as refused:
        return render("tables/phones.html", None, **phones_context(tournament_id, error=say(refused))), 422
    said = (gettext("Table %(table)s has a new dealer's link: the old one no longer works.",
                    table=request.form.get("table")) if kind == DEALER
            else gettext("The floor has a new link: the old one no longer works."))
    return flash_and_go(said, url_for("phones.page", tournament_id=tournament_id))


@bp.post("/t/<int:tournament_id>/phones/all")
@login_required
def make_all(tournament_id: int) -> ResponseReturnValue:
    try:
        made = perform(links_all_command, tournament_id=tournament_id)
    except IllegalAction as refused:
        return render("tables/phones.html", None, **phones_context(tournament_id, error=say(refused))), 422
    said = ngettext("Table %(tables)s has its dealer's link.", "Tables %(tables)s have their dealers' links.",
                    len(made), tables=", ".join(map(str, made)))
    return flash_and_go(said, url_for("phones.page", tournament_id=tournament_id))


@bp.post("/t/<int:tournament_id>/phones/end")
@login_required
def end(tournament_id: int) -> ResponseReturnValue:
    ended = perform(links_end_command, tournament_id=tournament_id)
    return flash_and_go(gettext("%(count)s links ended: no phone can enter anything with them now.", count=ended),
                        url_for("phones.page", tournament_id=tournament_id))


@bp.get("/l")
def open_link() -> ResponseReturnValue:
    """A phone scanned a link: this page reads the token from the address's fragment and posts
    it (:func:`take_link`), so the token never appears in a logged request line."""
    return render("tables/link_open.html", None)


@bp.post("/l")
def take_link() -> ResponseReturnValue:
    """The token a phone scanned: the role is this browser's from now on (the director's own
    browser keeps the director's), and the phone is remembered for the director's list."""
    link = roles.find_link(request.form.get("token", "").strip())
    if link is None:
        return render("tables/link_ended.html", None, message=gettext("This link does not exist.")), 404
    refused = roles.link_refusal(link)
    if refused is not None:
        return render("tables/link_ended.html", None, message=say(refused)), 410
    if not is_director():
        session.clear()
        session.permanent = True
        session["link"] = link.id
        session["phone"] = secrets.token_hex(8)
        _remember_phone(link, session["phone"])
    if link.kind == DEALER:
        return redirect(url_for("dealer.page", tournament_id=link.stream, table=link.table), 303)
    if link.kind == CASH_DEALER:
        return redirect(url_for("cash.table_page", session_id=link.stream, table_no=link.table), 303)
    return redirect(url_for("dashboard.show", tournament_id=link.stream), 303)


@bp.before_app_request
def tell_an_ended_link() -> ResponseReturnValue | None:
    """A phone whose link no longer works (renewed, its table broken, the night over) is told
    why on whatever page it asks for, not shown a table that is gone; scanning a new code
    (``/l``) is the way on. An htmx poll reloads the page to be told. (A write is refused
    with the same sentence by the role check: 403.)"""
    if (request.method not in ("GET", "HEAD") or request.endpoint in (
            "static", "phones.open_link", "phones.take_link", "phones.check_link") or "link" not in session):
        return None
    if is_director() or roles.bearer_token() is not None:
        return None
    link = roles.session_link()
    refused = roles.link_refusal(link) if link is not None else None
    if link is not None and refused is None:
        return None
    if request.headers.get("HX-Request"):
        return "", 200, {"HX-Refresh": "true"}
    message = say(refused) if refused is not None else gettext("This link does not exist.")
    if request.path.startswith("/api/"):
        return {"error": message}, 410
    return render("tables/link_ended.html", None, message=message,
                  poll_version=version("link ended", {"message": str(message)})), 410


def _link_words() -> str | None:
    """Why this browser's link does not work now (None: it works, or the browser has none)."""
    link = roles.session_link() if "link" in session else None
    if link is None:
        return gettext("This link does not exist.") if "link" in session else None
    refused = roles.link_refusal(link)
    return None if refused is None else str(say(refused))


@bp.get("/l/check")
def check_link() -> ResponseReturnValue:
    """The poll of a page that says a link has ended: ``204`` while it still says what is true
    (``director.core.freshness``), else a reload (``HX-Refresh``), which shows the phone its
    table again once the director has undone what ended the night, or the new reason."""
    words = _link_words()
    if words is not None and held_version() == version("link ended", {"message": words}):
        return not_changed(0)
    return "", 200, {"HX-Refresh": "true", "Cache-Control": "no-store"}


@bp.after_request
def keep_no_code(response: Response) -> Response:
    """The Phones pages show the links' codes: no browser cache keeps them, nor the command
    record a retry is answered from (``director.core.retries``)."""
    return no_store(response)


def no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _remember_phone(link: Link, phone: str) -> None:
    """Bookkeeping beside the commands (no event: a phone opening a link changes no night)."""
    agent = request.headers.get("User-Agent", "")[:300]
    at = now()
    with unit_of_work(claim=False) as work:
        work.execute("INSERT INTO link_phones (link_id, phone, agent, first_at, last_at) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT (link_id, phone) DO UPDATE SET last_at = excluded.last_at", (link.id, phone, agent, at, at))


# --- a cash night's tables ---------------------------------------------------------------------------------


def cash_phones_context(session_id: int, **extra: Any) -> dict[str, Any]:
    from director.cash.store import load_session

    session_state = load_session(get_db(), session_id)
    links = links_view(session_id, cash=True)
    linked = {v.table for v in links}
    return {"session_id": session_id, "session_name": session_state.name, "links": links,
            "tables_without": [t.number for t in session_state.tables if t.number not in linked], **extra}


@bp.get("/cash/<int:session_id>/phones")
@director_required
def cash_page(session_id: int) -> ResponseReturnValue:
    return render("tables/cash_phones.html", None, **cash_phones_context(session_id))


@bp.post("/cash/<int:session_id>/phones")
@login_required
def cash_make(session_id: int) -> ResponseReturnValue:
    try:
        made = perform(cash_link_command, {"table": request.form.get("table") or None}, session_id=session_id)
    except IllegalAction as refused:
        return render("tables/cash_phones.html", None, **cash_phones_context(session_id, error=say(refused))), 422
    said = ngettext("Table %(tables)s has a new dealer's link.", "Tables %(tables)s have new dealers' links.",
                    len(made), tables=", ".join(map(str, made)))
    return flash_and_go(said, url_for("phones.cash_page", session_id=session_id))


@bp.post("/cash/<int:session_id>/phones/end")
@login_required
def cash_end(session_id: int) -> ResponseReturnValue:
    ended = perform(cash_links_end_command, session_id=session_id)
    return flash_and_go(gettext("%(count)s links ended: no phone can enter anything with them now.", count=ended),
                        url_for("phones.cash_page", session_id=session_id))
