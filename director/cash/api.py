"""The cash game's JSON routes under ``/api/cash``, each declared once with its input and
answer (``director.core.contract.Api``): the OpenAPI document is generated from them.
"""

from __future__ import annotations

from flask import (
    abort,
    jsonify,
)
from flask.typing import ResponseReturnValue

from director.cash import CLUB_ACTIONS, SESSION_ACTIONS, TABLE_ACTIONS, bp
from director.cash.commands import club_action, create_session, session_action, table_action
from director.cash.store import club_balances, load_club, load_session, session_rows
from director.cash.views import club_json, session_json, summary_data, table_json
from director.core import inputs, shapes
from director.core.contract import Api, Write
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.web import (
    now,
)
from engine.cash import (
    STAKES,
)

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
        abort(404, description=gettext("There is no table %(table)s in this cash session.", table=table_no))
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
