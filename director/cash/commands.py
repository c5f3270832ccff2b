"""The cash game's commands: each action a session, the club or a table takes, checked
and written in one transaction (``store.record``); pages and the JSON API both call these.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from flask import (
    abort,
)
from sqlite_utils import Database

from director.cash import SESSION_KIND
from director.cash.store import (
    club_balances,
    create_stream,
    load_club,
    load_session,
    record,
    record_club,
)
from director.core.contract import flag
from director.core.i18n import gettext, number, say
from director.core.web import (
    expected_seq,
    parse_int,
)
from engine import cash, notation
from engine.cash import (
    CashSession,
    Club,
    Stake,
    verify_member_buy_in,
)
from engine.errors import N_, IllegalAction, InvalidInput
from engine.events import Event
from engine.houserules import silent_push
from engine.positions import draw_button


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
                raise InvalidInput("Table {number} must be an object with seats and a stake.", number=k)
            tables.append(
                {
                    "seats": parse_int(t.get("seats"), N_("number of seats"), default=9),
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
        return write("undo", {}), gettext("Undone.")
    if action == "add_table":
        fields = {
            "seats": parse_int(data.get("seats"), "number of seats", default=9),
            **_stake_fields(data, ""),
        }
        new = write("table_added", fields)
        return new, gettext("Table %(number)s added.", number=len(new.tables))
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
                raise InvalidInput("{seat} is not a seat number.", seat=repr(seat)) from None
            new = write("sat_down", payload)
            return (
                new,
                gettext("%(name)s sits at table %(table)s, seat %(seat)s, with %(amount)s.", name=member.name,
                        table=table.number, seat=payload["seat"], amount=number(amount)),
            )
        found = state.seat_of(member.id)
        if found is None:
            raise IllegalAction("{player} is not sitting at any table.", player=member.name)
        verify_member_buy_in(found[0].stake, balance, amount, member.name, sitting=False)
        new = write(action, {"member": member.id, "amount": amount})
        if action == "top_up":
            return new, gettext("%(name)s tops up %(amount)s.", name=member.name, amount=number(amount))
        return new, gettext("%(name)s rebuys for %(amount)s.", name=member.name, amount=number(amount))
    if action == "leave":
        found = state.seat_of(member.id)
        new = write("left", {"member": member.id})
        stack = found[1].stack if found else 0
        return new, gettext("%(name)s cashes out %(amount)s: back to their balance.", name=member.name,
                            amount=number(stack))
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
        return new, gettext("%(name)s moves to table %(table)s, seat %(seat)s.", name=member.name, table=table_no,
                            seat=seat)
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
            ), gettext("%(name)s is on the %(stake)s waiting list.", name=member.name, stake=_stake_name(stake))
        return write(
            "waiting_removed", {"member": member.id, "stake": stake}
        ), gettext("%(name)s is off the list.", name=member.name)
    abort(404)


def club_action(db: Database, action: str, data: Mapping[str, Any], at: float) -> tuple[Club, str]:
    club = load_club(db)
    seq = expected_seq(dict(data), club.seq)
    if action == "member":
        grant = parse_int(data.get("grant"), "starting balance", minimum=0, default=0)
        new = record_club(db, "member_added", {"name": data.get("name"), "grant": grant}, seq, at)
        member = new.members[-1]
        return new, gettext("%(name)s joins the club with %(amount)s play chips.", name=member.name,
                            amount=number(grant))
    if action == "grant":
        member = _member(club, data)
        amount = parse_int(data.get("amount"), "number of chips", minimum=1)
        reason = str(data.get("reason") or "").strip() or "Grant"
        new = record_club(
            db, "chips_granted", {"member": member.id, "amount": amount, "reason": reason}, seq, at
        )
        return new, gettext("%(amount)s play chips granted to %(name)s.", amount=number(amount), name=member.name)
    if action == "undo":
        return record_club(db, "undo", {}, seq, at), gettext("Undone.")
    abort(404)


def table_action(
    db: Database, session_id: int, table_no: int, action: str, data: Mapping[str, Any], at: float
) -> tuple[CashSession, str]:
    """One action at a table: deal, act, undo, award, cards (the dealer's service functions
    turn the page's fields into the hand's notation)."""
    from director.tables import dealer

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
                note = " " + say(drawn.describe())
        new = write("hand_started", payload)
        live = new.table(table.number).hand
        return new, gettext("Hand %(number)s dealt.", number=live.number if live else "") + note
    if action == "undo":
        return write("hand_undo", {"table": table.number}), gettext("Taken back.")
    hand = table.live_hand()
    if hand is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table.number)
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
        return write("hand_action", {"table": table.number, "entry": ruling.notation}), say(ruling.rule)
    if action == "award":
        winners = dealer._winners(data, len(hand.pots()))
        new = write("hand_action", {"table": table.number, "entry": notation.award(winners)})
        return new, say(new.hands[-1].description) if new.hands else ""
    if action == "cards":
        new = write(
            "hand_action", {"table": table.number, "entries": dealer._card_entries(hand, data)}
        )
        return new, say(new.hands[-1].description) if new.hands else ""
    abort(404)
