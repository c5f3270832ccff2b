"""Cash-game nights: the club's members and balances, sessions with their tables, seats,
buy-ins, waiting lists and ledger, and the dealer's table page at fixed blinds.

Storage: a cash session is a stream (a row of ``streams``) of ``kind = 'cash'``, the club a single
row with ``kind = 'club'``; their events go to the same ``events`` table through
``director.events.command`` (one transaction; expected seq, 409 when stale). ``engine.cash`` folds them. A
member's balance is the club's grants plus, over every session, what they cashed out less
what they bought in.

Routes (blueprint ``cash``): ``/cash`` (sessions, new session), ``/cash/club`` (members,
balances, grants), ``/cash/<id>`` (the night: tables, seats, waiting lists, ledger),
``/cash/<id>/<action>``, ``/cash/<id>/table/<n>`` (the dealer's assistant),
``/cash/<id>/summary`` and ``/cash/<id>/ledger.csv``; and their JSON twins under ``/api/cash``.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from director import events, inputs, shapes
from director.auth import login_required
from director.contract import Api, Write, flag
from director.db import get_db
from director.web import (
    act,
    error_page,
    expected_seq,
    is_partial_request,
    now,
    parse_int,
    render,
    values,
)
from engine import cash, notation
from engine.cash import (
    NEWCOMER_RULES,
    STAKES,
    CashSession,
    CashTable,
    Club,
    Stake,
    verify_member_buy_in,
)
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.houserules import silent_push
from engine.phh import write_phh
from engine.positions import draw_button
from engine.pots import pot_name
from engine.tournament import Event

bp = Blueprint("cash", __name__)

SESSION_KIND = "cash"
CLUB_KIND = "club"
SESSION_ACTIONS = ("sit", "top_up", "rebuy", "leave", "move", "wait", "unwait", "undo", "add_table")
TABLE_ACTIONS = ("deal", "act", "push", "undo", "award", "cards")
CLUB_ACTIONS = ("member", "grant", "undo")
STALE = "Someone else changed this cash game a moment ago; the page has been refreshed."
DEFAULT_GRANT = 10_000


class UnknownSession(LookupError):
    """No cash session with that id."""

    def __init__(self, session_id: object) -> None:
        super().__init__(f"There is no cash session number {session_id}.")


FIRST_BUTTON = "the button is drawn by high card when you deal the first hand"
"""What a table's page says of the positions before its first hand (the deal draws the button)."""


@bp.errorhandler(UnknownSession)
def unknown_session(error: UnknownSession) -> ResponseReturnValue:
    return error_page(404, "No such cash game", str(error))



# --------------------------------------------------------------------------- the store


def create_stream(db: Database, kind: str, name: str, payload: Mapping[str, Any], at: float) -> int:
    """A new stream of this kind with its ``created`` event; returns its id."""
    conn = db.conn
    with events.writing(current_app.config["DATABASE"]):
        conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = conn.execute(
                "INSERT INTO streams (name, created_at, last_seq, kind) VALUES (?, ?, 1, ?)",
                (name, at, kind),
            )
            stream_id = int(cursor.lastrowid or 0)
            conn.execute(
                "INSERT INTO events (stream_id, seq, type, payload, at) VALUES (?, 1, 'created', ?, ?)",
                (stream_id, json.dumps(dict(payload)), at),
            )
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
    return stream_id


SESSION = events.Kind(SESSION_KIND, cash.fold, cash.apply, UnknownSession, STALE)
CLUB = events.Kind(CLUB_KIND, cash.club_fold, cash.club_apply, lambda _id: LookupError("There is no club ledger."),
                   STALE)


def load_session(db: Database, session_id: int) -> CashSession:
    """The fold of a cash session's events (``UnknownSession`` if there is none)."""
    state: CashSession = events.cache.get(db, current_app.config["DATABASE"], session_id, SESSION)
    return state


def club_id(db: Database, at: float | None = None) -> int:
    """The club's stream, created the first time it is needed."""
    row = db.execute(
        "SELECT id FROM streams WHERE kind = ? ORDER BY id LIMIT 1", [CLUB_KIND]
    ).fetchone()
    if row is not None:
        return int(row[0])
    return create_stream(db, CLUB_KIND, "Club", {}, now() if at is None else at)


def load_club(db: Database) -> Club:
    club: Club = events.cache.get(db, current_app.config["DATABASE"], club_id(db), CLUB)
    return club


def session_rows(db: Database) -> list[dict[str, Any]]:
    return list(
        db.query(
            "SELECT id, name, created_at, last_seq FROM streams WHERE kind = ? ORDER BY created_at DESC, id DESC",
            [SESSION_KIND],
        )
    )


def all_sessions(db: Database) -> list[tuple[int, CashSession]]:
    return [(int(r["id"]), load_session(db, int(r["id"]))) for r in session_rows(db)]


def club_balances(db: Database) -> dict[int, int]:
    """Every member's Play Chips now."""
    return cash.balances(load_club(db), (s for _, s in all_sessions(db)))


HAND_EVENTS = ("hand_started", "hand_action", "hand_undo")


def unrelated(event: Event, table: int | None) -> bool:
    """Whether ``event``, written since a page was shown, leaves that page's write to be
    checked against the current state rather than refused as stale.

    Play at one table never makes another table's panel stale, and hand play never makes
    the night's page stale (``table`` None): the engine still checks the write against the
    state it lands on (a top-up during the player's hand, a seat taken meanwhile).
    Anything else (a seat, a buy-in, an undo) does.
    """
    if event.type not in HAND_EVENTS:
        return False
    return table is None or str(event.payload.get("table")) != str(table)


def record(
    db: Database,
    session_id: int,
    type: str,
    payload: Mapping[str, Any],
    expected: int | None,
    at: float,
    table: int | None = None,
) -> CashSession:
    """Check one event with the engine and append it to the session, in one transaction.

    ``expected`` is the seq the page showed; events since then that are :func:`unrelated` to
    the page (``table``: a table's panel; None: the night's page) do not make it stale.
    """
    with events.command(db, SESSION, session_id, expected, at, lambda e: unrelated(e, table)) as writer:
        state: CashSession = writer.add(type, payload)
    return state


def record_club(
    db: Database, type: str, payload: Mapping[str, Any], expected: int | None, at: float
) -> Club:
    stream = club_id(db)
    with events.command(db, CLUB, stream, expected, at) as writer:
        club: Club = writer.add(type, payload)
        if type == "undo":
            _check_balances_after(db, club)
    return club


def _check_balances_after(db: Database, club: Club) -> None:
    """An undo in the club may not leave a negative balance, nor forget a member who has played."""
    sessions = [s for _, s in all_sessions(db)]
    known = {m.id for m in club.members}
    for session in sessions:
        listed = [(w.member, w.name) for _, queue in session.waiting for w in queue]
        for member_id, name in [*session.names, *listed]:
            if member_id not in known:
                raise IllegalAction(
                    f"That cannot be undone: {name} has been at the tables as a member."
                )
    held = cash.balances(club, sessions)
    for member in club.members:
        if held.get(member.id, 0) < 0:
            raise IllegalAction(
                f"That cannot be undone: {member.name}'s balance would be {held[member.id]:,} play chips."
            )


# --------------------------------------------------------------------------- services


def create_session(db: Database, data: Mapping[str, Any], at: float) -> int:
    """A new cash session from form or JSON fields; checked by the engine before it is stored."""
    payload = session_payload(data)
    cash.create(Event(1, "created", payload, at))
    return create_stream(db, SESSION_KIND, str(payload["name"]).strip(), payload, at)


def _stake_fields(data: Mapping[str, Any], prefix: str) -> dict[str, int]:
    stake = str(data.get(f"{prefix}stake") or "").strip()
    if stake and stake != "custom":
        return Stake.parse(stake).as_dict()
    return {
        "small_blind": parse_int(data.get(f"{prefix}small_blind"), "small blind", minimum=1),
        "big_blind": parse_int(data.get(f"{prefix}big_blind"), "big blind", minimum=1),
    }


def session_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``created`` payload: JSON gives ``tables`` as a list; the form gives rows
    ``table1_seats``, ``table1_stake`` (or ``custom`` with ``table1_small_blind``/``_big_blind``)."""
    tables: list[dict[str, Any]] = []
    raw = data.get("tables")
    if isinstance(raw, list):
        for k, t in enumerate(raw, start=1):
            if not isinstance(t, Mapping):
                raise InvalidInput(f"Table {k} must be an object with seats and a stake.")
            tables.append(
                {
                    "seats": parse_int(t.get("seats"), "number of seats", default=9),
                    **_stake_fields(t, ""),
                }
            )
    else:
        for k in range(1, 9):
            seats = str(data.get(f"table{k}_seats") or "").strip()
            if not seats:
                continue
            tables.append(
                {"seats": parse_int(seats, "number of seats"), **_stake_fields(data, f"table{k}_")}
            )
    return {
        "name": data.get("name"),
        "tables": tables,
        "newcomers": str(data.get("newcomers") or "wait"),
    }


def _member(club: Club, data: Mapping[str, Any]) -> cash.Member:
    if data.get("member") not in (None, ""):
        return club.member(parse_int(data.get("member"), "member number", minimum=1))
    name = str(data.get("name") or "").strip()
    if not name:
        raise InvalidInput("Choose the member.")
    member = club.member_named(name)
    if member is None:
        raise IllegalAction(f"{name} is not a member of the club: add them on the club page first.")
    return member


def _place(data: Mapping[str, Any]) -> tuple[Any, Any]:
    """``place`` ``"2:5"`` from the page's seat picker, or ``table`` and ``seat``."""
    place = str(data.get("place") or "")
    if ":" in place:
        table, seat = place.split(":", 1)
        return table, seat
    if data.get("seat") in (None, ""):
        raise InvalidInput("Choose a free seat.")
    return data.get("table", 1), data.get("seat")


def session_action(
    db: Database, session_id: int, action: str, data: Mapping[str, Any], at: float
) -> tuple[CashSession, str]:
    """One action of the session page; returns the new state and a notice."""
    state = load_session(db, session_id)
    seq = expected_seq(dict(data), state.seq)

    def write(type_: str, payload: Mapping[str, Any]) -> CashSession:
        return record(db, session_id, type_, payload, seq, at)

    if action == "undo":
        return write("undo", {}), "Undone."
    if action == "add_table":
        fields = {
            "seats": parse_int(data.get("seats"), "number of seats", default=9),
            **_stake_fields(data, ""),
        }
        new = write("table_added", fields)
        return new, f"Table {len(new.tables)} added."
    club = load_club(db)
    member = _member(club, data)
    if action in ("sit", "top_up", "rebuy"):
        amount = parse_int(data.get("amount"), "number of chips", minimum=1)
        balance = club_balances(db).get(member.id, 0)
        if action == "sit":
            table_no, seat = _place(data)
            table = state.table(table_no)
            verify_member_buy_in(table.stake, balance, amount, member.name, sitting=True)
            payload = {
                "member": member.id,
                "name": member.name,
                "table": table.number,
                "seat": seat,
                "amount": amount,
            }
            try:
                payload["seat"] = int(str(seat))
            except ValueError:
                raise InvalidInput(f"{seat!r} is not a seat number.") from None
            new = write("sat_down", payload)
            return (
                new,
                f"{member.name} sits at table {table.number}, seat {payload['seat']}, with {amount:,}.",
            )
        found = state.seat_of(member.id)
        if found is None:
            raise IllegalAction(f"{member.name} is not sitting at any table.")
        verify_member_buy_in(found[0].stake, balance, amount, member.name, sitting=False)
        new = write(action, {"member": member.id, "amount": amount})
        word = "tops up" if action == "top_up" else "rebuys for"
        return new, f"{member.name} {word} {amount:,}."
    if action == "leave":
        found = state.seat_of(member.id)
        new = write("left", {"member": member.id})
        stack = found[1].stack if found else 0
        return new, f"{member.name} cashes out {stack:,}: back to their balance."
    if action == "move":
        table_no, seat = _place(data)
        new = write(
            "seat_changed",
            {
                "member": member.id,
                "table": parse_int(table_no, "table number"),
                "seat": parse_int(seat, "seat number"),
            },
        )
        return new, f"{member.name} moves to table {table_no}, seat {seat}."
    if action in ("wait", "unwait"):
        stake = str(data.get("stake") or "")
        if action == "wait":
            if not stake:
                raise InvalidInput("Choose the stake to wait for.")
            cash.verify_stake_access(
                Stake.parse(stake), club_balances(db).get(member.id, 0), member.name
            )
            return write(
                "waiting_added", {"member": member.id, "name": member.name, "stake": stake}
            ), (f"{member.name} is on the {Stake.parse(stake).name} waiting list.")
        return write(
            "waiting_removed", {"member": member.id, "stake": stake}
        ), f"{member.name} is off the list."
    abort(404)


def club_action(db: Database, action: str, data: Mapping[str, Any], at: float) -> tuple[Club, str]:
    club = load_club(db)
    seq = expected_seq(dict(data), club.seq)
    if action == "member":
        grant = parse_int(data.get("grant"), "starting balance", minimum=0, default=0)
        new = record_club(db, "member_added", {"name": data.get("name"), "grant": grant}, seq, at)
        member = new.members[-1]
        return new, f"{member.name} joins the club with {grant:,} play chips."
    if action == "grant":
        member = _member(club, data)
        amount = parse_int(data.get("amount"), "number of chips", minimum=1)
        reason = str(data.get("reason") or "").strip() or "Grant"
        new = record_club(
            db, "chips_granted", {"member": member.id, "amount": amount, "reason": reason}, seq, at
        )
        return new, f"{amount:,} play chips granted to {member.name}."
    if action == "undo":
        return record_club(db, "undo", {}, seq, at), "Undone."
    abort(404)


def table_action(
    db: Database, session_id: int, table_no: int, action: str, data: Mapping[str, Any], at: float
) -> tuple[CashSession, str]:
    """One action at a table: deal, act, undo, award, cards (the dealer's service functions
    turn the page's fields into the hand's notation)."""
    from director import dealer

    state = load_session(db, session_id)
    seq = expected_seq(dict(data), state.seq)
    table = state.table(table_no)

    def write(type_: str, payload: Mapping[str, Any]) -> CashSession:
        return record(db, session_id, type_, payload, seq, at, table=table.number)

    if action == "deal":
        payload: dict[str, Any] = {"table": table.number}
        note = ""
        if data.get("button") not in (None, ""):
            payload["button"] = parse_int(data.get("button"), "button seat", minimum=1)
        elif table.positions is None:
            seats = [p.seat for p in table.players if p.stack > 0]
            if len(seats) >= 2:
                drawn = draw_button(seats, random.Random())
                payload["button"] = drawn.button
                note = " " + drawn.describe()
        new = write("hand_started", payload)
        live = new.table(table.number).hand
        return new, f"Hand {live.number if live else ''} dealt.{note}"
    if action == "undo":
        return write("hand_undo", {"table": table.number}), "Taken back."
    hand = table.live_hand()
    if hand is None:
        raise IllegalAction(f"No hand is being played at table {table.number}: deal one first.")
    if action == "act":
        return write(
            "hand_action", {"table": table.number, "entry": dealer.action_notation(hand, data)}
        ), ""
    if action == "push":
        seat = dealer._seat(data, hand)
        ruling = silent_push(
            hand,
            seat,
            dealer._chips_list(data.get("chips")),
            string_bet=flag(data.get("string_bet")),
        )
        return write("hand_action", {"table": table.number, "entry": ruling.notation}), ruling.rule
    if action == "award":
        winners = dealer._winners(data, len(hand.pots()))
        new = write("hand_action", {"table": table.number, "entry": notation.award(winners)})
        return new, new.hands[-1].description if new.hands else ""
    if action == "cards":
        new = write(
            "hand_action", {"table": table.number, "entries": dealer._card_entries(hand, data)}
        )
        return new, new.hands[-1].description if new.hands else ""
    abort(404)


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class SeatRow:
    seat: int
    member: int | None
    name: str
    stack: int
    status: str  # "", busted, waiting, in hand
    offer: str = ""
    offer_member: int | None = None


@dataclass(frozen=True)
class TableCard:
    table: CashTable
    rows: tuple[SeatRow, ...]
    status: str


@dataclass(frozen=True)
class MemberRow:
    member: cash.Member
    balance: int
    where: str
    stakes: tuple[str, ...]


def _table_card(state: CashSession, table: CashTable) -> TableCard:
    offers = {(o.table, o.seat): o for o in state.offers()}
    waiting: set[int] = set()
    if table.hand is None:
        try:
            waiting = set(cash.next_hand(state, table.number).waiting)
        except EngineError:
            waiting = set()
    rows = []
    for seat in range(1, table.seats + 1):
        p = table.player_at(seat)
        if p is None:
            offer = offers.get((table.number, seat))
            rows.append(
                SeatRow(
                    seat,
                    None,
                    "",
                    0,
                    "free",
                    offer.name if offer else "",
                    offer.member if offer else None,
                )
            )
            continue
        if table.in_hand(p.member):
            status = "in the hand"
        elif p.busted:
            status = "busted"
        elif p.newcomer or seat in waiting:
            status = (
                "waits for the big blind"
                if state.newcomers == "wait"
                else "new: posts or waits for the button"
            )
        else:
            status = ""
        rows.append(SeatRow(seat, p.member, p.name, p.stack, status))
    if table.hand is not None:
        hand = table.live_hand()
        street = hand.street if hand else ""
        text = f"Hand {table.hand.number} in play ({street})"
    else:
        text = f"{table.hands_dealt} hand{'s' if table.hands_dealt != 1 else ''} dealt"
    return TableCard(table, tuple(rows), text)


def session_context(session_id: int, **extra: Any) -> dict[str, Any]:
    db = get_db()
    state = load_session(db, session_id)
    club = load_club(db)
    held = club_balances(db)
    seated = {p.member for t in state.tables for p in t.players}
    free_places = [
        (f"{t.number}:{s}", f"Table {t.number} · seat {s} · {t.stake.name}")
        for t in state.tables
        for s in t.free_seats
    ]
    names = {**club.names(), **dict(state.names)}  # the session's own names win (a member renamed later)
    history = [
        cash.describe(e, names)
        for e in reversed(events.load_events(db, session_id, after=max(0, state.seq - 12)))
    ]
    return {
        "t": state,
        "session_id": session_id,
        "cards": [_table_card(state, t) for t in state.tables],
        "ledger": state.ledger(),
        "members": [m for m in club.members if m.id not in seated],
        "all_members": club.members,
        "balances": held,
        "free_places": free_places,
        "history": history,
        "stakes": STAKES,
        "newcomer_rules": NEWCOMER_RULES,
        **extra,
    }


def club_context(**extra: Any) -> dict[str, Any]:
    db = get_db()
    club = load_club(db)
    sessions = all_sessions(db)
    held = cash.balances(club, (s for _, s in sessions))
    where: dict[int, str] = {}
    for _, s in sessions:
        for t in s.tables:
            for p in t.players:
                where[p.member] = f"{s.name}: table {t.number}, {p.stack:,} in front"
    rows = [
        MemberRow(
            m,
            held.get(m.id, 0),
            where.get(m.id, ""),
            tuple(s.name for s in STAKES if held.get(m.id, 0) >= s.access_balance),
        )
        for m in club.members
    ]
    grants = [(g, club.member(g.member).name) for g in reversed(club.grants)]
    return {"t": club, "club": club, "rows": rows, "grants": grants[:30], "stakes": STAKES, **extra}


def summary_data(state: CashSession, at: float) -> dict[str, Any]:
    ledger = state.ledger()
    players = []
    for line in ledger.lines:
        seconds = state.seconds_played(line.member, at)
        hands = sum(1 for h in state.hands if any(name == line.name for _, name in h.names))
        players.append(
            {
                "member": line.member,
                "name": line.name,
                "hours": round(seconds / 3600, 2),
                "hands": hands,
                "bought_in": line.bought_in,
                "cashed_out": line.cashed_out,
                "on_table": line.on_table,
                "net": line.net,
            }
        )
    biggest = state.biggest_pot
    big: dict[str, Any] | None = None
    if biggest is not None:
        names = dict(biggest.names)
        big = {
            "hand": biggest.number,
            "table": biggest.table,
            "pot": biggest.pot,
            "winners": [names.get(seat, f"Seat {seat}") for seat, _ in biggest.won],
            "description": biggest.description,
        }
    return {
        "name": state.name,
        "hands_dealt": state.hands_dealt,
        "hands_by_table": {str(t.number): t.hands_dealt for t in state.tables},
        "biggest_pot": big,
        "players": players,
        "totals": {
            "bought_in": ledger.bought_in,
            "cashed_out": ledger.cashed_out,
            "on_tables": ledger.on_tables,
            "balanced": ledger.balanced,
        },
        "play_chips_only": True,
    }


def session_json(state: CashSession, session_id: int) -> dict[str, Any]:
    ledger = state.ledger()
    return {
        "id": session_id,
        "seq": state.seq,
        "name": state.name,
        "newcomers": state.newcomers,
        "tables": [
            {
                "table": t.number,
                "seats": t.seats,
                "stake": t.stake.name,
                "small_blind": t.stake.small_blind,
                "big_blind": t.stake.big_blind,
                "min_buy_in": t.stake.min_buy_in,
                "max_buy_in": t.stake.max_buy_in,
                "hand": t.hand.number if t.hand else None,
                "hands_dealt": t.hands_dealt,
                "players": [
                    {
                        "seat": p.seat,
                        "member": p.member,
                        "name": p.name,
                        "stack": p.stack,
                        "newcomer": p.newcomer,
                    }
                    for p in t.players
                ],
            }
            for t in state.tables
        ],
        "waiting": {
            s.name: [{"member": w.member, "name": w.name} for w in q] for s, q in state.waiting
        },
        "offers": [
            {"table": o.table, "seat": o.seat, "member": o.member, "name": o.name}
            for o in state.offers()
        ],
        "ledger": {
            "players": [
                {
                    "member": line.member,
                    "name": line.name,
                    "bought_in": line.bought_in,
                    "cashed_out": line.cashed_out,
                    "on_table": line.on_table,
                    "net": line.net,
                }
                for line in ledger.lines
            ],
            "bought_in": ledger.bought_in,
            "cashed_out": ledger.cashed_out,
            "on_tables": ledger.on_tables,
            "balanced": ledger.balanced,
            "unit": "play chips",
        },
    }


def club_json(club: Club, held: Mapping[int, int]) -> dict[str, Any]:
    return {
        "seq": club.seq,
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "balance": held.get(m.id, 0),
                "stakes": [s.name for s in STAKES if held.get(m.id, 0) >= s.access_balance],
            }
            for m in club.members
        ],
        "grants": [
            {"seq": g.seq, "member": g.member, "amount": g.amount, "reason": g.reason, "at": g.at}
            for g in club.grants
        ],
        "unit": "play chips",
    }


# --------------------------------------------------------------------------- pages


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
            {"row": row, "state": state, "seated": sum(len(t.players) for t in state.tables)}
        )
    return render("cash.html", None, sessions=rows, stakes=STAKES, newcomer_rules=NEWCOMER_RULES)


@bp.post("/cash")
@login_required
def create() -> ResponseReturnValue:
    data = values()
    try:
        session_id = create_session(get_db(), data, now())
    except EngineError as error:
        db = get_db()
        rows = [
            {"row": r, "state": load_session(db, int(r["id"])), "seated": 0}
            for r in session_rows(db)
        ]
        page = render(
            "cash.html",
            None,
            sessions=rows,
            stakes=STAKES,
            newcomer_rules=NEWCOMER_RULES,
            error=str(error),
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
    if action not in CLUB_ACTIONS:
        abort(404)
    data = values()

    def again(**kw: Any) -> str:
        # A refused new member comes back as typed, to be corrected rather than retyped.
        typed = data if kw.get("error") and action == "member" else {}
        return _club_page(typed=typed, **kw)

    return _run(lambda: club_action(get_db(), action, data, now())[1], url_for("cash.club"), again)


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
    if action not in SESSION_ACTIONS:
        abort(404)
    data = values()

    def again(**kw: Any) -> str:
        # A refused buy-in comes back as typed (member, seat, amount), never on someone else.
        typed = data if kw.get("error") and action == "sit" else {}
        return _session_page(session_id, typed=typed, **kw)

    return _run(
        lambda: session_action(get_db(), session_id, action, data, now())[1],
        url_for("cash.show", session_id=session_id),
        again,
    )


@bp.get("/cash/<int:session_id>/summary")
def summary(session_id: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    return render(
        "cash_summary.html", None, t=state, session_id=session_id, s=summary_data(state, now())
    )


@bp.get("/cash/<int:session_id>/ledger.csv")
def ledger_csv(session_id: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    data = summary_data(state, now())
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["player", "hours_played", "hands_played", "bought_in", "cashed_out", "on_table", "net"]
    )
    for p in data["players"]:
        writer.writerow(
            [
                p["name"],
                f"{p['hours']:.2f}",
                p["hands"],
                p["bought_in"],
                p["cashed_out"],
                p["on_table"],
                p["net"],
            ]
        )
    totals = data["totals"]
    writer.writerow(
        [
            "TOTAL",
            "",
            data["hands_dealt"],
            totals["bought_in"],
            totals["cashed_out"],
            totals["on_tables"],
            0,
        ]
    )
    writer.writerow([])
    writer.writerow(["Play chips only: these are counts of play chips, with no money value."])
    response = Response(out.getvalue(), mimetype="text/csv")
    slug = "".join(c if c.isalnum() else "-" for c in state.name.lower()).strip("-") or "cash"
    response.headers["Content-Disposition"] = f'attachment; filename="{slug}-ledger.csv"'
    return response


# --------------------------------------------------------------------------- the table page


def table_view(state: CashSession, session_id: int, table_no: int) -> Any:
    """The dealer's ``TableView`` for a cash table: fixed blinds, the session's players."""
    from director import dealer

    table = state.table(table_no)
    stake = table.stake
    common: dict[str, Any] = {
        "tournament_id": session_id,
        "table": table.number,
        "name": state.name,
        "seq": state.seq,
        "level_text": f"Cash {stake.name} · buy-in {stake.min_buy_in:,}–{stake.max_buy_in:,}",
        "hands_text": f"{table.hands_dealt} hand{'s' if table.hands_dealt != 1 else ''} dealt here",
        "players": (),  # no stack corrections at a cash table: top up or cash out instead
    }
    last = next((h for h in reversed(state.hands) if h.table == table.number), None)
    if last is not None:
        common["last_result"] = f"Hand {last.number}: {last.description}"
        busted = [p.name for p in table.players if p.busted and p.seat in last.setup.stacks]
        common["busted_text"] = tuple(
            f"{name} has no chips left: rebuy or cash out." for name in busted
        )
    names = {p.seat: p.name for p in table.players}
    if table.hand is None:
        problem = ""
        upcoming = None
        try:
            upcoming = cash.next_hand(state, table.number)
        except EngineError as error:
            problem = str(error)
        waiting = set(upcoming.waiting) if upcoming else set()
        first = table.positions is None  # the deal draws the first button: name no seat before it
        seats = tuple(
            dealer.SeatView(
                p.seat,
                p.member,
                p.name,
                p.stack,
                0,
                dealer._badges(None, p.seat, upcoming.positions if upcoming and not first else None),
                "waiting" if p.seat in waiting else ("out" if p.busted else ""),
            )
            for p in table.players
        )
        return dealer.TableView(
            **common,
            phase="before",
            seats=seats,
            positions_text=(
                FIRST_BUTTON if upcoming and first else dealer._positions_text(upcoming.positions) if upcoming else ""
            ),
            can_deal=upcoming is not None,
            deal_problem=problem,
            can_undo=table.finished is not None,
        )
    live = table.hand
    hand = live.replay()
    bets, stacks, in_hand = hand.bets(), hand.stacks(), set(hand.live_seats())
    seats_list = []
    for p in table.players:
        if p.seat not in stacks:
            status = "waiting" if p.stack else "out"
        elif p.seat == hand.turn:
            status = "turn"
        elif p.seat not in in_hand:
            status = "folded"
        elif hand.is_all_in(p.seat):
            status = "all-in"
        else:
            status = ""
        seats_list.append(
            dealer.SeatView(
                p.seat,
                p.member,
                p.name,
                stacks.get(p.seat, p.stack),
                bets.get(p.seat, 0),
                dealer._badges(None, p.seat, live.positions),
                status,
            )
        )
    phase = "showdown" if hand.street == "showdown" else "betting"
    extra = dealer._betting_view(hand) if phase == "betting" else {}
    notes = tuple(f"Seat {s} posts a big blind to come in." for s in live.posts)
    return dealer.TableView(
        **common,
        phase=phase,
        seats=tuple(seats_list),
        hand_number=live.number,
        street=hand.street,
        board=" ".join(str(c) for c in hand.board),
        turn=hand.turn,
        turn_name=names.get(hand.turn, "") if hand.turn else "",
        pots=tuple(
            dealer.PotView(i, pot_name(i), p.amount, p.eligible) for i, p in enumerate(hand.pots())
        ),
        bets_total=sum(bets.values()),
        showdown_order=hand.showdown_order(),
        all_face_up=hand.all_hands_face_up,
        live=tuple(s for s in hand.seats if s in in_hand),
        notes=notes,
        can_undo=True,
        positions_text=dealer._positions_text(live.positions),
        **extra,
    )


def _table_context(session_id: int, table_no: int) -> dict[str, Any]:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    return {
        "v": table_view(state, session_id, table_no),
        "t": state,
        "session_id": session_id,
        "cash_table": table,
        "dealer_base": url_for("cash.table_page", session_id=session_id, table_no=table.number),
        "waiting_note": "waits for the big blind"
        if state.newcomers == "wait"
        else "sits out until the button passes",
    }


def _table_page(session_id: int, table_no: int, **extra: Any) -> str:
    return render(
        "cash_table.html", "_dealer_table.html", **_table_context(session_id, table_no), **extra
    )


@bp.get("/cash/<int:session_id>/table/<int:table_no>")
def table_page(session_id: int, table_no: int) -> ResponseReturnValue:
    return _table_page(session_id, table_no)


@bp.get("/cash/<int:session_id>/table/<int:table_no>/panel")
def table_panel(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    since = request.args.get("since")
    if since is not None and since.isdigit() and int(since) == state.seq:
        return Response(status=204)
    return render_template("_dealer_table.html", **_table_context(session_id, table_no))


@dataclass(frozen=True)
class HandLine:
    number: int
    blinds: str
    positions: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    result: str
    finished: bool


def _hand_lines(state: CashSession, table: CashTable) -> list[HandLine]:
    from director import dealer

    out = []
    records: list[tuple[int, Any, tuple[str, ...], str, bool, Any]] = [
        (h.number, h.setup, h.log, h.description, True, dict(h.names))
        for h in state.hands
        if h.table == table.number
    ]
    if table.hand is not None:
        names = {p.seat: p.name for p in table.players}
        records.append((table.hand.number, table.hand.setup, table.hand.log, "", False, names))
    for number, setup, log, result, finished, names in records:
        seats = {s: s for s in setup.stacks}
        by_seat = {s: names.get(s, "?") for s in setup.stacks}
        out.append(
            HandLine(
                number,
                f"{setup.small_blind:,}/{setup.big_blind:,}",
                f"Button seat {setup.button} · "
                + (
                    f"small blind seat {setup.small_blind_seat}"
                    if setup.small_blind_seat
                    else "dead small blind"
                )
                + f" · big blind seat {setup.big_blind_seat}",
                tuple(f"Seat {s} {by_seat[s]} ({setup.stacks[s]:,})" for s in sorted(setup.stacks)),
                tuple(dealer.describe_entry(e, by_seat, seats) for e in log),
                result,
                finished,
            )
        )
    return list(reversed(out))


@bp.get("/cash/<int:session_id>/table/<int:table_no>/history")
def table_history(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    return render(
        "cash_history.html",
        None,
        t=state,
        session_id=session_id,
        table=table,
        hands=_hand_lines(state, table),
        base=url_for("cash.table_page", session_id=session_id, table_no=table.number),
    )


def _phh_response(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/cash/<int:session_id>/table/<int:table_no>/hands.phhs")
def table_phhs(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    parts = [f"[{h.number}]\n{write_phh(h.replay())}" for h in state.hands if h.table == table.number]
    return _phh_response("\n".join(parts), f"cash-{session_id}-table-{table.number}.phhs")


@bp.get("/cash/<int:session_id>/table/<int:table_no>/hand/<int:number>.phh")
def table_phh(session_id: int, table_no: int, number: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    record_ = next((h for h in state.hands if h.number == number and h.table == table_no), None)
    if record_ is None:
        abort(404)
    return _phh_response(write_phh(record_.replay()), f"cash-{session_id}-hand-{number}.phh")


@bp.post("/cash/<int:session_id>/table/<int:table_no>/<action>")
@login_required
def table_post(session_id: int, table_no: int, action: str) -> ResponseReturnValue:
    if action not in TABLE_ACTIONS:
        abort(404)
    data: Any = request.form if not request.is_json else values()
    return _run(
        lambda: table_action(get_db(), session_id, table_no, action, data, now())[1],
        url_for("cash.table_page", session_id=session_id, table_no=table_no),
        lambda **kw: _table_page(session_id, table_no, **kw),
    )


# --------------------------------------------------------------------------- JSON API


def table_json(state: CashSession, session_id: int, table_no: int) -> dict[str, Any]:
    view = table_view(state, session_id, table_no)
    table = state.table(table_no)
    return {
        "seq": state.seq,
        "table": table.number,
        "stake": table.stake.name,
        "phase": view.phase,
        "hand": view.hand_number,
        "street": view.street or None,
        "turn": view.turn,
        "positions": view.positions_text,
        "seats": [
            {
                "seat": s.seat,
                "member": s.player,
                "name": s.name,
                "stack": s.stack,
                "bet": s.bet,
                "badges": list(s.badges),
                "status": s.status,
            }
            for s in view.seats
        ],
        "actions": [{"kind": c.kind, "label": c.label, "amount": c.amount} for c in view.choices],
        "min_to": view.min_to,
        "max_to": view.max_to,
        "pots": [
            {"name": p.name, "amount": p.amount, "eligible": list(p.eligible)} for p in view.pots
        ],
        "showdown_order": list(view.showdown_order),
        "last_result": view.last_result or None,
        "can_deal": view.can_deal,
        "deal_problem": view.deal_problem or None,
    }


api = Api(bp, "cash")

SESSION_INPUTS: dict[str, type[Write]] = {action: inputs.CashSeatIn for action in SESSION_ACTIONS} | {"undo": Write}
TABLE_INPUTS: dict[str, type[Write]] = {
    "deal": inputs.DealIn, "act": inputs.ActIn, "push": inputs.PushIn, "undo": Write,
    "award": inputs.AwardIn, "cards": inputs.CardsIn,
}
CLUB_INPUTS: dict[str, type[Write]] = {"member": inputs.MemberIn, "grant": inputs.GrantIn, "undo": Write}
SUMMARIES = {
    "sit": "Seat a member with a buy-in (member or name, table, seat, amount)",
    "top_up": "A seated member adds chips (amount)",
    "rebuy": "A busted member buys in again (amount)",
    "leave": "A member cashes out and leaves the table",
    "move": "A seat change (table, seat)",
    "wait": "Put a member on the waiting list of a stake",
    "unwait": "Take a member off a waiting list",
    "undo": "Take back the last entry",
    "add_table": "Open another table (stake, seats)",
    "deal": "Deal the next hand at the table",
    "act": "The seat to act folds, checks, calls, bets, raises or goes all-in",
    "push": "Chips pushed without a word: the house rules say what it is",
    "award": "Award the pots (main pot first) without a showdown of cards",
    "cards": "The showdown: the board and the showing seats' cards",
    "member": "Add a member, with a starting grant of Play Chips",
    "grant": "Grant Play Chips to a member",
}


@api.get("/api/cash", result=shapes.CashSessions, errors=(),
         summary="Cash sessions, and the seed's stakes with their buy-in ranges and access balances")
def api_index() -> ResponseReturnValue:
    rows = session_rows(get_db())
    return jsonify(
        sessions=[
            {"id": r["id"], "name": r["name"], "created_at": r["created_at"], "seq": r["last_seq"]}
            for r in rows
        ],
        stakes=[
            {
                "name": s.name,
                **s.as_dict(),
                "min_buy_in": s.min_buy_in,
                "max_buy_in": s.max_buy_in,
                "access_balance": s.access_balance,
            }
            for s in STAKES
        ],
    )


@api.post("/api/cash", summary="Open a cash session", body=inputs.CashSessionIn, result=shapes.CashSession,
          errors=(400, 401, 422))
def api_create(data: inputs.CashSessionIn) -> ResponseReturnValue:
    db = get_db()
    session_id = create_session(db, data.given(), now())
    return jsonify(session_json(load_session(db, session_id), session_id)), 201


@api.get("/api/cash/club", result=shapes.Club, errors=(),
         summary="The club: members, Play Chips balances, the stakes each may play, grants")
def api_club() -> ResponseReturnValue:
    db = get_db()
    return jsonify(club_json(load_club(db), club_balances(db)))


@api.get("/api/cash/<int:session_id>", result=shapes.CashSession,
         summary="A cash session: tables, seats, stacks, waiting lists, offers, the ledger")
def api_show(session_id: int) -> ResponseReturnValue:
    return jsonify(session_json(load_session(get_db(), session_id), session_id))


@api.get("/api/cash/<int:session_id>/summary", result=shapes.CashSummary,
         summary="The night: players, hours played, hands dealt, the biggest pot, the ledger")
def api_summary(session_id: int) -> ResponseReturnValue:
    return jsonify(summary_data(load_session(get_db(), session_id), now()))


@api.get("/api/cash/<int:session_id>/table/<int:table_no>", result=shapes.CashTableHand,
         summary="A cash table's hand: seats, stacks, whose turn, the legal actions, pots")
def api_table(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    if not any(t.number == table_no for t in state.tables):
        abort(404, description=f"There is no table {table_no} in this cash session.")
    return jsonify(table_json(state, session_id, table_no))


def _club_route(action: str) -> None:
    def view(data: Write) -> ResponseReturnValue:
        db = get_db()
        club_state, message = club_action(db, action, data.given(), now())
        result = club_json(club_state, club_balances(db))
        result["notice"] = message
        return jsonify(result), 201

    summary = SUMMARIES.get(action, "Take back the club's last entry")
    api.post(f"/api/cash/club/{action}", summary=summary, body=CLUB_INPUTS[action], result=shapes.Club,
             endpoint=f"api_club_{action}")(view)


def _session_route(action: str) -> None:
    def view(session_id: int, data: Write) -> ResponseReturnValue:
        state, message = session_action(get_db(), session_id, action, data.given(), now())
        result = session_json(state, session_id)
        result["notice"] = message
        return jsonify(result), 201

    api.post(f"/api/cash/<int:session_id>/{action}", summary=SUMMARIES[action], body=SESSION_INPUTS[action],
             result=shapes.CashSession, endpoint=f"api_session_{action}")(view)


def _table_route(action: str) -> None:
    def view(session_id: int, table_no: int, data: Write) -> ResponseReturnValue:
        state, message = table_action(get_db(), session_id, table_no, action, data.given(), now())
        result = table_json(state, session_id, table_no)
        result["notice"] = message or None
        return jsonify(result), 201

    api.post(f"/api/cash/<int:session_id>/table/<int:table_no>/{action}", summary=SUMMARIES[action],
             body=TABLE_INPUTS[action], result=shapes.CashTableHand, endpoint=f"api_table_{action}")(view)


for _action in CLUB_ACTIONS:
    _club_route(_action)
for _action in SESSION_ACTIONS:
    _session_route(_action)
for _action in TABLE_ACTIONS:
    _table_route(_action)
api.unknown("/api/cash/club/<action>", CLUB_ACTIONS, "club action")
api.unknown("/api/cash/<int:session_id>/<action>", SESSION_ACTIONS, "cash action")
api.unknown("/api/cash/<int:session_id>/table/<int:table_no>/<action>", TABLE_ACTIONS, "table action")
