"""The cash game's JSON routes under ``/api/cash``, each declared once with its input and
answer (``director.core.contract.Api``): the OpenAPI document is generated from them.
"""

from __future__ import annotations

from flask import (
    abort,
    jsonify,
)
from flask.typing import ResponseReturnValue

from director.cash import shapes as cash_shapes
from director.cash.commands import CLUB_COMMANDS, SESSION_COMMANDS, TABLE_COMMANDS
from director.cash.pages import bp
from director.cash.store import club_balances, load_club, load_session, session_rows
from director.cash.views import club_json, session_json, summary_data, table_json
from director.core import shapes
from director.core.commands import REGISTRY, Outcome, api_route
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_authors, load_events
from director.core.web import now
from engine.cash import STAKES, CashSession, Club

api = Api(bp, "cash")


@api.get("/api/cash", result=cash_shapes.CashSessions, errors=(),
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


def _opened(session_id: int) -> ResponseReturnValue:
    return jsonify(session_json(load_session(get_db(), session_id), session_id)), 201


api_route(api, "/api/cash", REGISTRY["cash.open"], _opened, result=cash_shapes.CashSession, errors=(400, 401, 422),
          endpoint="api_create")


@api.get("/api/cash/club", result=cash_shapes.Club, errors=(),
         summary="The club: members, Play Chips balances, the stakes each may play, grants")
def api_club() -> ResponseReturnValue:
    db = get_db()
    return jsonify(club_json(load_club(db), club_balances(db)))


@api.get("/api/cash/<int:session_id>", result=cash_shapes.CashSession,
         summary="A cash session: tables, seats, stacks, waiting lists, offers, the ledger")
def api_show(session_id: int) -> ResponseReturnValue:
    return jsonify(session_json(load_session(get_db(), session_id), session_id))


@api.get("/api/cash/<int:session_id>/summary", result=cash_shapes.CashSummary,
         summary="The night: players, hours played, hands dealt, the biggest pot, the ledger")
def api_summary(session_id: int) -> ResponseReturnValue:
    return jsonify(summary_data(load_session(get_db(), session_id), now()))


@api.get("/api/cash/<int:session_id>/table/<int:table_no>", result=cash_shapes.CashTableHand,
         summary="A cash table's hand: seats, stacks, whose turn, the legal actions, pots")
def api_table(session_id: int, table_no: int) -> ResponseReturnValue:
    state = load_session(get_db(), session_id)
    if not any(t.number == table_no for t in state.tables):
        abort(404, description=gettext("There is no table %(table)s in this cash session.", table=table_no))
    return jsonify(table_json(state, session_id, table_no))


@api.get("/api/cash/<int:session_id>/events", result=shapes.Events, login=True,
         summary="A cash session's event log, each entry with who entered it (the director's: it holds every "
                 "hand's cards)")
def api_events(session_id: int) -> ResponseReturnValue:
    db = get_db()
    load_session(db, session_id)  # 404 for a session that does not exist
    authors = load_authors(db, session_id)
    return jsonify(events=[{"seq": e.seq, "type": e.type, "payload": e.payload, "at": e.at,
                            "author": authors.get(e.seq)} for e in load_events(db, session_id)])


def _club(done: Outcome[Club]) -> ResponseReturnValue:
    result = club_json(done.state, club_balances(get_db()))
    result["notice"] = done.said or ""
    return jsonify(result), 201


def _session(done: Outcome[CashSession], session_id: int) -> ResponseReturnValue:
    result = session_json(done.state, session_id)
    result["notice"] = done.said or ""
    return jsonify(result), 201


def _table(done: Outcome[CashSession], session_id: int, table_no: int) -> ResponseReturnValue:
    result = table_json(done.state, session_id, table_no)
    result["notice"] = done.said or None
    return jsonify(result), 201


for _word in CLUB_COMMANDS:
    api_route(api, f"/api/cash/club/{_word}", REGISTRY[f"cash.club.{_word}"], _club, result=cash_shapes.Club,
              endpoint=f"api_club_{_word}")


for _word in SESSION_COMMANDS:
    api_route(api, f"/api/cash/<int:session_id>/{_word}", REGISTRY[f"cash.{_word}"], _session,
              result=cash_shapes.CashSession, endpoint=f"api_session_{_word}")


for _word in TABLE_COMMANDS:
    api_route(api, f"/api/cash/<int:session_id>/table/<int:table_no>/{_word}", REGISTRY[f"cash.table.{_word}"],
              _table, result=cash_shapes.CashTableHand, endpoint=f"api_table_{_word}")


api.unknown("/api/cash/club/<action>", CLUB_COMMANDS, "club action")


api.unknown("/api/cash/<int:session_id>/<action>", SESSION_COMMANDS, "cash action")


api.unknown("/api/cash/<int:session_id>/table/<int:table_no>/<action>", TABLE_COMMANDS, "table action")
