"""The cash game's commands: each action of a session, of the club's ledger and of a table,
registered once (``director.core.commands``) with its declared input. The night's page, the
club's page, the dealer's table page, htmx and the JSON API all run them by name
(``cash.<verb>``, ``cash.club.<verb>``, ``cash.table.<verb>``); the events they yield are
checked by the engine and recorded in one unit of work. The functions at the end run the
same commands from code (the tests, the screenshots).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlite_utils import Database
from werkzeug.datastructures import MultiDict

from director.cash import SESSION_KIND
from director.cash.store import (
    CLUB,
    SESSION,
    all_sessions,
    club_balances,
    club_id,
    load_club,
    unrelated,
)
from director.core.commands import REGISTRY, Call, Events, command, run, stream_command
from director.core.contract import Write
from director.core.i18n import gettext
from director.core.inputs import (
    ActIn,
    AwardIn,
    CardsIn,
    CashSeatIn,
    CashSessionIn,
    DealIn,
    GrantIn,
    MemberIn,
    PushIn,
)
from director.core.roles import CASH_DEALER, DIRECTOR
from director.core.store import new_stream
from director.core.web import parse_int
from director.core.words import number, say
from director.core.work import Work
from director.tables.commands import (
    action_notation,
    award_form,
    card_entries,
    cards_form,
    chips_list,
    lows_of,
    seat_to_act,
    winners_of,
)
from engine import cash, notation
from engine.cash import CashSession, Club, Stake, verify_member_buy_in
from engine.errors import N_, IllegalAction, InvalidInput
from engine.events import Event
from engine.games import DEFAULT_GAME
from engine.houserules import silent_push
from engine.positions import draw_button


def session_command(name: str, input: type[Write], summary: str, **extra: Any) -> Any:
    """A command on the night of the path's ``session_id``: hand play at the tables since the
    page was drawn does not make it stale (the engine still checks it)."""
    return stream_command(name, input, summary, stream=SESSION, id="session_id",
                          independent=lambda call, data: lambda e: unrelated(e, None), **extra)


def table_command(name: str, input: type[Write], summary: str, **extra: Any) -> Any:
    """A command on the hand at the path's ``table_no``: play at the other tables since does not
    make the dealer's panel stale."""
    extra.setdefault("roles", (DIRECTOR, CASH_DEALER))  # and that table's dealer
    return stream_command(name, input, summary, stream=SESSION, id="session_id",
                          independent=lambda call, data: lambda e: unrelated(e, int(call.ids["table_no"])), **extra)


def club_command(name: str, input: type[Write], summary: str, **extra: Any) -> Any:
    """A command on the club's ledger (its stream made the first time it is needed)."""
    return stream_command(name, input, summary, stream=CLUB, id=lambda call: club_id(call.db, call.now), **extra)


# --- opening a night ---------------------------------------------------------------------------


def _stake_fields(data: Mapping[str, Any], prefix: str) -> dict[str, int]:
    stake = str(data.get(f"{prefix}stake") or "").strip()
    if stake and stake != "custom":
        return Stake.parse(stake).as_dict()
    return {
        "small_blind": parse_int(data.get(f"{prefix}small_blind"), "small blind", minimum=1),
        "big_blind": parse_int(data.get(f"{prefix}big_blind"), "big blind", minimum=1),
    }


def _game_field(data: Mapping[str, Any], prefix: str) -> dict[str, str]:
    """The table's game when one is given (the engine refuses one it does not know, or deal)."""
    game = str(data.get(f"{prefix}game") or "").strip()
    return {"game": game} if game and game != DEFAULT_GAME else {}


def session_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``created`` payload: JSON gives ``tables`` as a list; the form gives rows
    ``table1_seats``, ``table1_stake`` (or ``custom`` with ``table1_small_blind``/``_big_blind``)."""
    tables: list[dict[str, Any]] = []
    raw = data.get("tables")
    if isinstance(raw, list):
        for k, t in enumerate(raw, start=1):
            if not isinstance(t, Mapping):
                raise InvalidInput("Table {number} must be an object with seats and a stake.", number=k)
            tables.append({"seats": parse_int(t.get("seats"), N_("number of seats"), default=9), **_stake_fields(t, ""),
                           **_game_field(t, "")})
    else:
        for k in range(1, 9):
            seats = str(data.get(f"table{k}_seats") or "").strip()
            if not seats:
                continue
            tables.append({"seats": parse_int(seats, "number of seats"), **_stake_fields(data, f"table{k}_"),
                           **_game_field(data, f"table{k}_")})
    return {"name": data.get("name"), "tables": tables, "newcomers": str(data.get("newcomers") or "wait")}


@command("cash.open", CashSessionIn, "Open a cash session")
def open_command(work: Work, call: Call, data: CashSessionIn) -> int:
    """A new cash session, checked by the engine before it is stored; returns its id."""
    payload = session_payload(data.given())
    cash.create(Event(1, "created", payload, call.now))
    return new_stream(work, SESSION_KIND, str(payload["name"]).strip(), payload, call.now)


# --- the night: seats, buy-ins, waiting lists -----------------------------------------------------


def _stake_name(stake: str) -> str:
    """``1,000/2,000``, the numbers written the reader's way."""
    parsed = Stake.parse(stake)
    return f"{number(parsed.small_blind)}/{number(parsed.big_blind)}"


def _member(club: Club, data: Mapping[str, Any]) -> cash.Member:
    if data.get("member") not in (None, ""):
        return club.member(parse_int(data.get("member"), N_("member number"), minimum=1))
    name = str(data.get("name") or "").strip()
    if not name:
        raise InvalidInput("Choose the member.")
    member = club.member_named(name)
    if member is None:
        raise IllegalAction("{name} is not a member of the club: add them on the club page first.", name=name)
    return member


def seat_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The night page's seat picker gives ``place`` as ``"2:5"`` (table 2, seat 5)."""
    fields = {k: v for k, v in form.items() if v.strip()}
    place = fields.pop("place", "")
    if ":" in place:
        fields["table"], fields["seat"] = place.split(":", 1)
    return fields


def _seat(data: CashSeatIn) -> tuple[int, int]:
    if data.seat is None:
        raise InvalidInput("Choose a free seat.")
    return data.table or 1, data.seat


def _amount(data: CashSeatIn) -> int:
    return parse_int(data.amount, "number of chips", minimum=1)


@session_command("cash.sit", CashSeatIn, "Seat a member with a buy-in (member or name, table, seat, amount)",
                 form=seat_form)
def sit_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    member = _member(load_club(call.db), data.given())
    amount = _amount(data)
    table_no, seat = _seat(data)
    table = state.table(table_no)
    verify_member_buy_in(table.stake, club_balances(call.db).get(member.id, 0), amount, member.name, sitting=True)
    yield "sat_down", {"member": member.id, "name": member.name, "table": table.number, "seat": seat,
                       "amount": amount}
    return gettext("%(name)s sits at table %(table)s, seat %(seat)s, with %(amount)s.", name=member.name,
                   table=table.number, seat=seat, amount=number(amount))


def _more_chips(state: CashSession, data: CashSeatIn, call: Call, kind: str) -> Events:
    member = _member(load_club(call.db), data.given())
    amount = _amount(data)
    found = state.seat_of(member.id)
    if found is None:
        raise IllegalAction("{player} is not sitting at any table.", player=member.name)
    verify_member_buy_in(found[0].stake, club_balances(call.db).get(member.id, 0), amount, member.name, sitting=False)
    yield kind, {"member": member.id, "amount": amount}
    if kind == "top_up":
        return gettext("%(name)s tops up %(amount)s.", name=member.name, amount=number(amount))
    return gettext("%(name)s rebuys for %(amount)s.", name=member.name, amount=number(amount))


@session_command("cash.top_up", CashSeatIn, "A seated member adds chips (amount)")
def top_up_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    return (yield from _more_chips(state, data, call, "top_up"))


@session_command("cash.rebuy", CashSeatIn, "A busted member buys in again (amount)")
def rebuy_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    return (yield from _more_chips(state, data, call, "rebuy"))


@session_command("cash.leave", CashSeatIn, "A member cashes out and leaves the table")
def leave_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    member = _member(load_club(call.db), data.given())
    found = state.seat_of(member.id)
    yield "left", {"member": member.id}
    return gettext("%(name)s cashes out %(amount)s: back to their balance.", name=member.name,
                   amount=number(found[1].stack if found else 0))


@session_command("cash.move", CashSeatIn, "A seat change (table, seat)", form=seat_form)
def move_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    member = _member(load_club(call.db), data.given())
    table, seat = _seat(data)
    yield "seat_changed", {"member": member.id, "table": table, "seat": seat}
    return gettext("%(name)s moves to table %(table)s, seat %(seat)s.", name=member.name, table=table, seat=seat)


@session_command("cash.wait", CashSeatIn, "Put a member on the waiting list of a stake")
def wait_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    member = _member(load_club(call.db), data.given())
    if not data.stake:
        raise InvalidInput("Choose the stake to wait for.")
    cash.verify_stake_access(Stake.parse(data.stake), club_balances(call.db).get(member.id, 0), member.name)
    yield "waiting_added", {"member": member.id, "name": member.name, "stake": data.stake}
    return gettext("%(name)s is on the %(stake)s waiting list.", name=member.name, stake=_stake_name(data.stake))


@session_command("cash.unwait", CashSeatIn, "Take a member off a waiting list")
def unwait_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    member = _member(load_club(call.db), data.given())
    yield "waiting_removed", {"member": member.id, "stake": data.stake or ""}
    return gettext("%(name)s is off the list.", name=member.name)


@session_command("cash.add_table", CashSeatIn, "Open another table (stake, seats)")
def add_table_command(state: CashSession, data: CashSeatIn, call: Call) -> Events:
    fields = data.given()
    new = yield "table_added", {"seats": parse_int(fields.get("seats"), "number of seats", default=9),
                                **_stake_fields(fields, ""), **_game_field(fields, "")}
    return gettext("Table %(number)s added.", number=len(new.tables))


@session_command("cash.undo", Write, "Take back the last entry")
def undo_command(state: CashSession, data: Write, call: Call) -> Events:
    yield "undo", {}
    return gettext("Undone.")


@session_command("cash.redo", Write, "Put back the entry the last undo took back (until the next entry)")
def redo_command(state: CashSession, data: Write, call: Call) -> Events:
    yield "redo", {}
    return gettext("Put back.")


SESSION_COMMANDS = ("sit", "top_up", "rebuy", "leave", "move", "wait", "unwait", "undo", "redo", "add_table")
"""The night's commands (``cash.<word>``), as the routes name them."""


# --- the club's ledger ------------------------------------------------------------------------------


@club_command("cash.club.member", MemberIn, "Add a member, with a starting grant of Play Chips")
def member_command(state: Club, data: MemberIn, call: Call) -> Events:
    grant = parse_int(data.grant, "starting balance", minimum=0, default=0)
    new = yield "member_added", {"name": data.name, "grant": grant}
    return gettext("%(name)s joins the club with %(amount)s play chips.", name=new.members[-1].name,
                   amount=number(grant))


@club_command("cash.club.grant", GrantIn, "Grant Play Chips to a member")
def grant_command(state: Club, data: GrantIn, call: Call) -> Events:
    member = _member(state, data.given())
    reason = str(data.reason or "").strip() or "Grant"
    yield "chips_granted", {"member": member.id, "amount": data.amount, "reason": reason}
    return gettext("%(amount)s play chips granted to %(name)s.", amount=number(data.amount), name=member.name)


def _check_balances_after(db: Database, club: Club) -> None:
    """An undo or a redo in the club may not leave a negative balance, nor forget a member who has played."""
    sessions = [s for _, s in all_sessions(db)]
    known = {m.id for m in club.members}
    for session in sessions:
        listed = [(w.member, w.name) for _, queue in session.waiting for w in queue]
        for member_id, name in [*session.names, *listed]:
            if member_id not in known:
                raise IllegalAction("That cannot be undone: {name} has been at the tables as a member.", name=name)
    held = cash.balances(club, sessions)
    for member in club.members:
        if held.get(member.id, 0) < 0:
            raise IllegalAction("That cannot be undone: {name}'s balance would be {balance} play chips.",
                                name=member.name, balance=held[member.id])


@club_command("cash.club.undo", Write, "Take back the club's last entry")
def club_undo_command(state: Club, data: Write, call: Call) -> Events:
    club = yield "undo", {}
    _check_balances_after(call.db, club)
    return gettext("Undone.")


@club_command("cash.club.redo", Write, "Put back the club's entry the last undo took back")
def club_redo_command(state: Club, data: Write, call: Call) -> Events:
    club = yield "redo", {}
    _check_balances_after(call.db, club)
    return gettext("Put back.")


CLUB_COMMANDS = ("member", "grant", "undo", "redo")
"""The club's commands (``cash.club.<word>``)."""


# --- a table's hand ----------------------------------------------------------------------------------


def _live_hand(state: CashSession, call: Call) -> tuple[int, Any]:
    table = state.table(int(call.ids["table_no"]))
    hand = table.live_hand()
    if hand is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table.number)
    return table.number, hand


@table_command("cash.table.deal", DealIn, "Deal the next hand at the table")
def deal_command(state: CashSession, data: DealIn, call: Call) -> Events:
    table = state.table(int(call.ids["table_no"]))
    payload: dict[str, Any] = {"table": table.number}
    note = ""
    if data.button is not None:
        payload["button"] = data.button
    elif table.positions is None:
        seats = [p.seat for p in table.players if p.stack > 0]
        if len(seats) >= 2:
            drawn = draw_button(seats, call.random())
            payload["button"] = drawn.button
            note = " " + say(drawn.describe())
    new = yield "hand_started", payload
    live = new.table(table.number).hand
    return gettext("Hand %(number)s dealt.", number=live.number if live else "") + note


@table_command("cash.table.act", ActIn, "The seat to act folds, checks, calls, bets, raises or goes all-in")
def act_command(state: CashSession, data: ActIn, call: Call) -> Events:
    table, hand = _live_hand(state, call)
    yield "hand_action", {"table": table, "entry": action_notation(hand, data.given())}


@table_command("cash.table.push", PushIn, "Chips pushed without a word: the house rules say what it is")
def push_command(state: CashSession, data: PushIn, call: Call) -> Events:
    table, hand = _live_hand(state, call)
    fields = data.given()
    ruling = silent_push(hand, seat_to_act(fields, hand), chips_list(fields.get("chips")), string_bet=data.string_bet)
    yield "hand_action", {"table": table, "entry": ruling.notation}
    return say(ruling.rule)


@table_command("cash.table.undo", Write, "Take back the table's last entry")
def table_undo_command(state: CashSession, data: Write, call: Call) -> Events:
    yield "hand_undo", {"table": state.table(int(call.ids["table_no"])).number}
    return gettext("Taken back.")


@table_command("cash.table.redo", Write, "Put back the entry the last undo took back (until the next entry)")
def table_redo_command(state: CashSession, data: Write, call: Call) -> Events:
    yield "hand_redo", {"table": state.table(int(call.ids["table_no"])).number}
    return gettext("Put back.")


def _described(new: CashSession) -> str:
    return say(new.hands[-1].description) if new.hands else ""


@table_command("cash.table.award", AwardIn, "Award the pots (main pot first) without a showdown of cards",
               form=award_form)
def award_command(state: CashSession, data: AwardIn, call: Call) -> Events:
    table, hand = _live_hand(state, call)
    winners = winners_of({"winners": data.given()["winners"]}, len(hand.pots()))
    new = yield "hand_action", {"table": table, "entry": notation.award(winners, lows_of(data.given()))}
    return _described(new)


@table_command("cash.table.cards", CardsIn, "The showdown: the board and the showing seats' cards", form=cards_form)
def cards_command(state: CashSession, data: CardsIn, call: Call) -> Events:
    table, hand = _live_hand(state, call)
    fields = data.given()
    if fields.get("cards"):
        fields["cards"] = {str(k): v for k, v in fields["cards"].items()}
    new = yield "hand_action", {"table": table, "entries": card_entries(hand, fields)}
    return _described(new)


TABLE_COMMANDS = ("deal", "act", "push", "undo", "redo", "award", "cards")
"""A cash table's commands (``cash.table.<word>``)."""


# --- the same commands from code ---------------------------------------------------------------------


def create_session(db: Database, data: Mapping[str, Any], at: float) -> int:
    """``cash.open`` from code."""
    session_id: int = run(open_command, CashSessionIn.model_validate(dict(data)), db=db, now=at)
    return session_id


def club_action(db: Database, action: str, data: Mapping[str, Any], at: float) -> tuple[Club, str]:
    """``cash.club.<action>`` from code: the club after it, and what it says."""
    cmd = REGISTRY[f"cash.club.{action}"]
    done = run(cmd, cmd.input.model_validate(dict(data)), db=db, now=at)
    return done.state, done.said or ""


__all__ = [
    "CLUB_COMMANDS", "SESSION_COMMANDS", "TABLE_COMMANDS", "club_action", "create_session", "seat_form",
    "session_payload",
]
